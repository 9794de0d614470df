package browser

import (
	"fmt"
	"net/url"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// This file navigates windows (top-level ones and frames) from script and
// from Go, and keeps their session history and back/forward cache,
// following HTML:
//
//   - https://html.spec.whatwg.org/#navigate: every navigating member of
//     Location (href and window.location, protocol, host, hostname, port,
//     pathname, search, hash, assign, replace, reload; html's
//     LocationSetterURL does their URL steps) navigates the window's
//     navigable; replace and reload replace the current session history
//     entry, and so does any of them before the document has completely
//     loaded; the others push a new one (dropping the entries after the
//     current one). A navigation to the document's URL with another
//     fragment keeps the document (fragment.go).
//   - https://html.spec.whatwg.org/#unload-a-document: before the new
//     document becomes active, the old one is unloaded: pagehide
//     (persisted false) and unload fire at its window, then (html's
//     Navigable.Navigate) its unloading document cleanup steps run, which
//     is where Web Locks terminates its remaining locks and requests.
//   - https://html.spec.whatwg.org/#traverse-the-history-by-a-delta:
//     history.back, forward and go(delta) traverse the navigable's session
//     history in a task (here: a goroutine, the traversal queue), going to
//     the target entry's document: restored from the back/forward cache
//     when it is still there (pageshow with persisted true), else loaded
//     again from its URL (its NotRestoredReasons say why).
//   - The back/forward cache (bfcache): a document navigated away from by
//     a push navigation or a traversal is kept when its document's
//     "salvageable" state is true, which here means: it is the document of
//     a top-level traversable without an opener -- one Browser.Open opened,
//     or a popup window.open made with noopener (a top-level traversable
//     in a new browsing context group), as Chromium caches those -- (iframes
//     are not cached, reason NotRestoredNotTopLevel; auxiliary windows with
//     an opener neither, NotRestoredOpener, since their opener could script
//     the cached document), and its window has no unload event listener
//     (NotRestoredUnloadListener, as in Chromium; HTML fires unload only at
//     documents that are not salvageable). Holding Web Locks does not make
//     a document unsalvageable. A kept document gets pagehide with
//     persisted true and no unload; it is not fully active until it is
//     restored, so its tasks wait and its lock requests and queries reject
//     with InvalidStateError, while its held locks stay held. A cached
//     document is evicted (destroyed, which releases its locks) when
//     another context contends for one of its locks (weblocks/htmlhost and weblocks/bfcache.go,
//     reason htmlhost.EvictionReasonContention), when the cache is full
//     (html.BFCacheSize, "cache-limit"), or when its entry is dropped from
//     the session history by a new navigation.

// NotRestoredReasons a window can report (Window.NotRestoredReasons), with
// html's eviction reasons ("cache-limit") and weblocks'
// ("web-locks-contention").
const (
	NotRestoredNotTopLevel    = "not-top-level-traversable"
	NotRestoredOpener         = "has-opener"
	NotRestoredUnloadListener = "unload-listener"
	NotRestoredReplaced       = "replaced"
	NotRestoredHistoryDropped = "history-entry-dropped"
	NotRestoredNeverCached    = "not-cached"
	// NotRestoredCacheDisabled: Config.DisableBackForwardCache.
	NotRestoredCacheDisabled = "back-forward-cache-disabled"
	// NotRestoredEvictedByEmbedder: Window.EvictFromBackForwardCache.
	NotRestoredEvictedByEmbedder = "evicted-by-embedder"
	notRestoredEvictedFallback   = "evicted"
)

// navHistory is a navigation's history handling: push (the default),
// replace, or a traversal to entry traverse (-1: none).
type navHistory struct {
	replace  bool
	traverse int
	// reload: the navigation reloads the current entry (HTML's "reload",
	// location.reload() and history.go(0)); its request has the
	// reload-navigation flag, a traversal's the history-navigation flag.
	reload  bool
	reasons []string // a traversal's NotRestoredReasons
	// done, when set, learns the outcome once: the new document's window
	// (its scripts run, its load event not yet fired) or why there is
	// none. Window.Navigate and Window.Traverse wait on it.
	done func(*Window, error)
	// source is the request client of the navigation's source document
	// (nil: a navigation the embedder started, or a traversal: no
	// referrer); noReferrer: its referrer is "no-referrer" (window.open
	// with noreferrer).
	source     *fetch.Client
	noReferrer bool
	// client, for a reload or a traversal that loads a document, is the
	// request client of the navigable's active document (HTML's apply
	// the history step, when no source document's snapshot params were
	// given): the fetch event's clientId. Only its id, origin and
	// top-level site are set, so that, as before, the request has no
	// referrer, its origin is its URL's and no CSP list checks it.
	client *fetch.Client
	// nav is the embedder's navigation of a window of a renderer process
	// that waits for this one (0: none; navigation_swap.go).
	nav uint64
}

// finish reports the navigation's outcome to done, if any.
func (h navHistory) finish(w *Window, err error) {
	if h.done != nil {
		h.done(w, err)
	}
}

// sessionEntry is a session history entry of a navigable.
type sessionEntry struct {
	url *url.URL
	// href is url as the URL standard serializes it (which keeps an
	// empty fragment); "" for entries made from url alone.
	href string
	// state is the entry's classic history API state (pushState's
	// serialized data; nil: null).
	state *html.SerializedRecord
	// win is the window of the entry's document while it is active or
	// kept in the back/forward cache (nil: load url again).
	win *Window
	// reasons: why the entry's document was not kept.
	reasons []string
	// remote: the entry's document is another renderer process's
	// (navigation_swap.go).
	remote bool
}

// replaceDocument is the part of HTML's navigate and "apply the history
// step" that swaps documents: the frame's current window is hidden (kept
// in the back/forward cache) or unloaded (its unload events fire on its
// event loop, which this waits for; its frames are destroyed; its realm
// closed), then u's Document becomes the navigable's active document and,
// for an unloaded one, the old Document's unloading document cleanup steps
// run; reserved is the navigation's reserved environment (nil: none),
// which the Document's environment settings object takes over. It runs
// off every event loop, or in a task of the event loop of agent current,
// the old window's (nil: none).
func (f *frame) replaceDocument(u *url.URL, h navHistory, reserved envHandle, current *html.Agent) (*html.Document, error) {
	f.mu.Lock()
	old := f.child
	f.child = nil
	f.mu.Unlock()
	keep, reasons := false, []string(nil)
	if old != nil {
		keep, reasons = old.leave(f.mayCache() && !h.replace, current)
	}
	doc, err := f.nav.Navigate(u, html.NavigateOptions{KeepInBFCache: keep, ReservedEnvironment: reserved})
	if old != nil {
		f.recordLeft(old, keep, reasons, h.replace)
	}
	return doc, err
}

// mayCache: only top-level traversables without an opener keep documents:
// those of Browser.Open and noopener popups.
func (f *frame) mayCache() bool {
	return (f.top || (f.popup && f.noopener)) && !f.s.cfg.DisableBackForwardCache
}

// leave fires the page-hiding events at the window being navigated away
// from, on its event loop (waited for), and decides whether it is kept in
// the back/forward cache (cacheable: the navigation allows it). A kept
// window gets pagehide (persisted true); any other gets pagehide
// (persisted false) and unload, and its realm and frames are closed. It
// returns the reasons the document was not kept. current is the agent
// whose event loop runs the caller (nil: none): a window of that agent
// leaves synchronously.
func (w *Window) leave(cacheable bool, current *html.Agent) (keep bool, reasons []string) {
	if !cacheable {
		switch f := w.frame; {
		case w.s.cfg.DisableBackForwardCache:
			reasons = []string{NotRestoredCacheDisabled}
		case f != nil && !f.popup:
			reasons = []string{NotRestoredNotTopLevel}
		case f != nil && !f.noopener:
			reasons = []string{NotRestoredOpener}
		default:
			reasons = []string{NotRestoredReplaced}
		}
	}
	hide := func() {
		w.s.guard(func() {
			// "salvageable": no unload listener.
			if cacheable && w.realm.HasEventListeners("unload") {
				reasons = append(reasons, NotRestoredUnloadListener)
			}
			keep = cacheable && len(reasons) == 0
			if keep {
				w.realm.FirePageTransitionEvent("pagehide", true)
				w.updateVisibility(true)
				return
			}
			w.fireUnloadEvents()
		})
	}
	done := make(chan struct{})
	if current != nil && w.env.Agent() == current {
		hide()
	} else if w.realm.QueueTask(func(*sobek.Runtime) {
		defer close(done)
		hide()
	}) {
		select {
		case <-done:
		case <-w.s.ctx.Done():
		}
	}
	if !keep {
		w.closeRealms(current)
	}
	return keep, reasons
}

// recordLeft notes in the current entry what became of its window.
func (f *frame) recordLeft(old *Window, keep bool, reasons []string, replaced bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if replaced || f.index >= len(f.entries) {
		return
	}
	e := f.entries[f.index]
	if keep {
		e.win, e.reasons = old, nil
		return
	}
	e.win, e.reasons = nil, reasons
	// The other entries of the unloaded document (fragment navigations,
	// pushState) must not name its window either: it is gone.
	for _, o := range f.entries {
		if o.win == old {
			o.win, o.reasons = nil, reasons
		}
	}
}

// commitEntry updates the session history once cw is the frame's window:
// a push appends an entry after the current one (dropping those after it,
// whose cached documents are evicted), a replace replaces the current one,
// a traversal makes its target current.
func (f *frame) commitEntry(h navHistory, cw *Window) {
	e := &sessionEntry{url: cw.URL(), win: cw}
	var dropped []*sessionEntry
	pushed := false
	f.mu.Lock()
	if len(f.entries) > 0 && h.traverse >= 0 && h.traverse < len(f.entries) {
		f.index = h.traverse
		f.entries[f.index] = e
	} else {
		dropped, pushed = f.addEntryLocked(e, h.replace)
	}
	cw.notRestored = h.reasons
	index := f.index
	f.mu.Unlock()
	f.discardDropped(dropped)
	if pushed && f.th != nil {
		f.th.pushed(f, index-1, index)
	}
	// Other renderers' stand-ins learn the new document's child
	// navigables, the browser process its URL.
	f.s.xproc.childCount(cw, cw.childNavigableCount())
	f.s.xproc.tabURL(cw)
}

// discardCached evicts a window's document from the back/forward cache
// (it unloads, releasing its locks) and closes its realm.
func (w *Window) discardCached(reason string) {
	w.htmlDoc.EvictFromBackForwardCache(reason)
	w.closeRealms(nil)
}

// historyHooks give window.history the frame's session history.
func (w *Window) historyHooks() bindings.HistoryHooks {
	return bindings.HistoryHooks{
		Length: func() int {
			f := w.frame
			if f == nil || f.th == nil {
				return 1
			}
			return f.th.length()
		},
		Traverse:    func(delta int) { w.traverseByScript(delta) },
		FullyActive: w.htmlDoc.IsFullyActive,
		UpdateEntry: w.updateEntry,
	}
}

// traverseByScript is history.go(delta) from w: the traversal runs in
// parallel (the traversable's session history traversal queue), after the
// calling task.
func (w *Window) traverseByScript(delta int) {
	w.startTraversal(delta, nil)
}

// startTraversal runs f.traverse in parallel (the traversal queue); done,
// when set, learns the outcome.
func (w *Window) startTraversal(delta int, done func(*Window, error)) {
	f := w.frame
	if f == nil {
		if done != nil {
			done(nil, errNoNavigable)
		}
		return
	}
	s := w.s
	s.busy.Add(1)
	go func() {
		defer s.busy.Add(-1)
		s.guard(func() {
			if f.th == nil || delta == 0 {
				f.traverse(w, delta, done)
				return
			}
			if f.activeWindow() != w {
				navHistory{done: done}.finish(nil, errNotActive)
				return
			}
			f.th.traverse(w, delta, done)
		})
	}()
}

// traverse is "traverse the history by a delta" for the navigable whose
// window from was active when it was asked (a stale request does
// nothing): delta 0 reloads; otherwise the target entry's document is
// restored from the back/forward cache, or loaded again.
func (f *frame) traverse(from *Window, delta int, done func(*Window, error)) {
	h := navHistory{traverse: -1, done: done}
	f.mu.Lock()
	target := f.index + delta
	switch {
	case f.gone:
		f.mu.Unlock()
		h.finish(nil, ErrClosed)
		return
	case f.child != from:
		f.mu.Unlock()
		h.finish(nil, errNotActive)
		return
	case target < 0 || target >= len(f.entries):
		f.mu.Unlock()
		h.finish(nil, fmt.Errorf("browser: no session history entry at %+d (there are %d, the current one is %d)", delta, len(f.entries), f.index+1))
		return
	}
	e := f.entries[target]
	entryURL, win := e.url, e.win
	if delta == 0 {
		f.mu.Unlock()
		h.replace, h.reload, h.client = true, true, from.historyClient()
		f.navigateWith(entryURL, nil, h)
		return
	}
	if win == from {
		// An entry of the active document (a fragment navigation or
		// pushState made it): a same-document traversal.
		f.mu.Unlock()
		f.traverseSameDocument(from, target, e, done)
		return
	}
	if e.remote {
		// Another renderer process holds the entry's document.
		f.mu.Unlock()
		f.swapToRemote(from, target, done)
		return
	}
	f.gen++
	gen := f.gen
	f.mu.Unlock()
	f.restoreOrLoad(from, gen, target, e, done)
}

// restoreOrLoad makes e, f's entry target, the active one after from (nil:
// a placeholder document): its document is restored from the
// back/forward cache, or loaded again from its URL.
func (f *frame) restoreOrLoad(from *Window, gen, target int, e *sessionEntry, done func(*Window, error)) {
	f.mu.Lock()
	entryURL, win, reasons := e.url, e.win, e.reasons
	f.mu.Unlock()
	if win != nil && win.InBackForwardCache() {
		if f.restore(from, win, target) {
			navHistory{done: done}.finish(win, nil)
			return
		}
	}
	if win != nil {
		r := win.htmlDoc.EvictionReason()
		if r == "" {
			r = notRestoredEvictedFallback
		}
		reasons = []string{r}
		win.closeRealms(nil)
	}
	if len(reasons) == 0 {
		reasons = []string{NotRestoredNeverCached}
	}
	h := navHistory{traverse: target, reasons: reasons, done: done}
	if from != nil {
		h.client = from.historyClient()
	}
	f.load(gen, entryURL, nil, h)
}

// restore makes the cached window cached active again (html's
// Navigable.Restore, which lets its waiting tasks run) after from was hidden
// or unloaded (nil: the active document is a placeholder, which goes), and
// fires pageshow with persisted true at it.
func (f *frame) restore(from, cached *Window, target int) bool {
	f.mu.Lock()
	if f.child != from {
		f.mu.Unlock()
		return false
	}
	f.child = nil
	f.mu.Unlock()
	keep, reasons := false, []string(nil)
	if from != nil {
		keep, reasons = from.leave(f.mayCache(), nil)
	}
	if err := f.nav.Restore(cached.htmlDoc, keep); err != nil {
		// Evicted meanwhile: the caller loads the entry again.
		return false
	}
	if from != nil {
		f.recordLeft(from, keep, reasons, false)
	}
	f.mu.Lock()
	f.child = cached
	f.index = target
	cached.notRestored = nil
	f.mu.Unlock()
	f.s.xproc.childCount(cached, cached.childNavigableCount())
	f.s.xproc.tabURL(cached)
	cached.realm.QueueTask(func(*sobek.Runtime) {
		cached.s.guard(func() {
			cached.updateVisibility(false)
			cached.realm.FirePageTransitionEvent("pageshow", true)
		})
	})
	return true
}

// updateVisibility is HTML's "update the visibility state" of the window's
// document (hidden or visible): on a change, visibilitychange fires at the
// document.
func (w *Window) updateVisibility(hidden bool) {
	if w.realm.SetVisibilityState(hidden) {
		w.realm.FireBubblingEventAt(w.documentObject(), "visibilitychange")
	}
}

// topFrame gives a top-level window of Browser.Open its traversable, so
// that it navigates like the others.
func (b *Browser) topFrame(w *Window) {
	f := &frame{s: b, nav: w.htmlDoc.Navigable(), popup: true, noopener: true, top: true, loaded: make(chan struct{}), child: w, th: newJointHistory()}
	f.markLoaded()
	f.entries = []*sessionEntry{{url: w.URL(), win: w}}
	w.frame = f
}

// Current is the window now active in w's navigable: w itself unless the
// navigable was navigated since (then the window of its new document, or
// nil while that one loads or after the navigable was closed).
func (w *Window) Current() *Window {
	if w == nil || w.frame == nil {
		return w
	}
	return w.frame.activeWindow()
}

// NotRestoredReasons says why the window's document was loaded again by a
// history traversal instead of being restored from the back/forward cache
// (nil when it was not made by a traversal, or was restored).
func (w *Window) NotRestoredReasons() []string {
	if w == nil {
		return nil
	}
	if f := w.frame; f != nil {
		f.mu.Lock()
		defer f.mu.Unlock()
	}
	return append([]string(nil), w.notRestored...)
}

// InBackForwardCache reports whether the window's document is kept in the
// back/forward cache (navigated away from, not fully active, restorable).
func (w *Window) InBackForwardCache() bool {
	return w != nil && w.htmlDoc != nil && w.htmlDoc.InBackForwardCache() == w.htmlDoc
}
