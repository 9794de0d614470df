package browser

import (
	"net/url"

	"github.com/dop251/goja"
	"github.com/gowebengine/weblocks/html"
)

// This file navigates windows (top-level ones and frames) from script and
// from Go, following HTML's navigation and session history:
//
//   - https://html.spec.whatwg.org/#navigate: location.href, assign,
//     replace and reload navigate the window's navigable (frame.navigate);
//   - https://html.spec.whatwg.org/#unload-a-document: before the new
//     document becomes active, the old one is unloaded: pagehide
//     (persisted false) and unload fire at its window, then (html's
//     Navigable.Navigate) its unloading document cleanup steps run, which
//     is where Web Locks terminates its remaining locks and requests.

// replaceDocument is the part of HTML's navigate and "apply the history
// step" that swaps documents: the frame's current window is unloaded (its
// unload events fire on its event loop, which this waits for; its frames
// are destroyed; its realm closed), then u's Document becomes the
// navigable's active document and the old Document's unloading document
// cleanup steps run. It runs off every event loop.
func (f *frame) replaceDocument(u *url.URL) (*html.Document, error) {
	f.mu.Lock()
	old := f.child
	f.child = nil
	f.mu.Unlock()
	if old != nil {
		old.unloadForNavigation()
	}
	return f.nav.Navigate(u, html.NavigateOptions{})
}

// unloadForNavigation is the event part of "unload a document" for a window
// being navigated away from, run before its Document unloads: pagehide and
// unload fire at it in a task of its event loop (waited for), then its
// frames are destroyed and its realm closed (closeRealms).
func (w *Window) unloadForNavigation() {
	done := make(chan struct{})
	if w.realm.QueueTask(func(*goja.Runtime) {
		defer close(done)
		w.fireUnloadEvents()
	}) {
		select {
		case <-done:
		case <-w.s.ctx.Done():
		}
	}
	w.closeRealms(nil)
}

// topFrame gives a top-level window of Browser.Open its traversable, so
// that it navigates like the others.
func (b *Browser) topFrame(w *Window) {
	f := &frame{s: b, nav: w.htmlDoc.Navigable(), popup: true, noopener: true, top: true, loaded: make(chan struct{}), child: w}
	f.markLoaded()
	w.frame = f
}

// Current is the window now active in w's navigable: w itself unless the
// navigable was navigated since (then the window of its new document, or
// nil while that one loads or after the navigable was closed).
func (w *Window) Current() *Window {
	if w.frame == nil {
		return w
	}
	return w.frame.activeWindow()
}
