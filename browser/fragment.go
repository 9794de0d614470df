package browser

import (
	"net/url"

	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// This file holds the same-document parts of HTML's session history:
// navigating to a fragment and traversing to another entry of the same
// document. The document, its realm and its Web Locks stay as they are: no
// pagehide, no unload, no unloading document cleanup steps.

// navigateToFragment is https://html.spec.whatwg.org/#navigate-fragid for
// w's navigable, run on w's event loop (in the task of the Location
// setter): href is the new URL serialized, u the same parsed.
func (w *Window) navigateToFragment(href string, u *url.URL, replace bool) {
	f := w.frame
	// 1-3. Let historyEntry be a new session history entry, with URL url
	// and the document of the navigable's active entry; entryToReplace is
	// the active entry when historyHandling is "replace".
	// 5-7. For "push", the entries after the active one go (their cached
	// documents are evicted) and historyEntry becomes the active entry;
	// for "replace", it replaces the active entry.
	f.commitSameDocumentEntry(w, href, u, replace, nil)
	// 8. Update document for history step application (the history
	// object's state becomes null, popstate fires, then a task fires
	// hashchange when the fragment changed).
	w.updateDocumentForSameDocumentStep(href, u, nil)
	// 10. Scroll to the fragment: this engine has no layout.
}

// commitSameDocumentEntry makes a new entry for w's document at href,
// with the classic history API state state, the active one of f: pushed
// after the active entry (dropping those after it), or replacing it.
func (f *frame) commitSameDocumentEntry(w *Window, href string, u *url.URL, replace bool, state *html.SerializedRecord) {
	f.addEntry(&sessionEntry{url: u, href: href, win: w, state: state}, replace)
}

// addEntry makes e f's current entry: its first one, or replacing the
// current one, or pushed after it (the entries after it are dropped, and
// their cached documents evicted; the joint session history gets a step).
func (f *frame) addEntry(e *sessionEntry, replace bool) {
	f.mu.Lock()
	dropped, pushed := f.addEntryLocked(e, replace)
	index := f.index
	f.mu.Unlock()
	f.discardDropped(dropped)
	if pushed && f.th != nil {
		f.th.pushed(f, index-1, index)
	}
}

// addEntryLocked is addEntry's change of the entries, with f.mu held: it
// returns the dropped entries, and whether e was pushed.
func (f *frame) addEntryLocked(e *sessionEntry, replace bool) (dropped []*sessionEntry, pushed bool) {
	switch {
	case len(f.entries) == 0:
		f.entries, f.index = []*sessionEntry{e}, 0
	case replace:
		f.entries[f.index] = e
	default:
		dropped = append(dropped, f.entries[f.index+1:]...)
		f.entries = append(f.entries[:f.index+1:f.index+1], e)
		f.index++
		pushed = true
	}
	return dropped, pushed
}

// discardDropped evicts the cached documents of session history entries
// that were dropped, unless another entry still has the same document.
func (f *frame) discardDropped(dropped []*sessionEntry) {
	if len(dropped) == 0 {
		return
	}
	f.mu.Lock()
	kept := map[*Window]bool{f.child: true}
	for _, e := range f.entries {
		kept[e.win] = true
	}
	f.mu.Unlock()
	seen := map[*Window]bool{}
	for _, d := range dropped {
		if d.win != nil && !kept[d.win] && !seen[d.win] {
			seen[d.win] = true
			d.win.discardCached(NotRestoredHistoryDropped)
		}
	}
}

// updateDocumentForSameDocumentStep is
// https://html.spec.whatwg.org/#update-document-for-history-step-application
// for w's document, not new, whose latest entry changed to one at href:
// the realm's part (its URL, popstate, hashchange) and the window's URL.
// It runs on w's event loop.
func (w *Window) updateDocumentForSameDocumentStep(href string, u *url.URL, state *html.SerializedRecord) {
	w.realm.UpdateDocumentForSameDocumentHistoryStep(href, state)
	w.setURL(u)
}

// setURL sets the window's URL after a same-document navigation changed
// its document's URL. On w's event loop.
func (w *Window) setURL(u *url.URL) {
	w.urlMu.Lock()
	w.url = u
	w.urlMu.Unlock()
	// (In a renderer: the embedder's Window of its traversable learns it.)
	w.s.xproc.tabURL(w)
}

// updateEntry is HistoryHooks.UpdateEntry: pushState or replaceState made
// a session history entry for w's document (the realm has its URL and
// state already).
func (w *Window) updateEntry(href string, state *html.SerializedRecord, replace bool) {
	u, err := url.Parse(href)
	if err != nil {
		return
	}
	w.setURL(u)
	if f := w.frame; f != nil && f.activeWindow() == w {
		f.commitSameDocumentEntry(w, href, u, replace, state)
	}
}

// traverseSameDocument is the same-document case of "apply the history
// step": the target entry has the active window's document. It runs off
// the window's loop, and queues the document update to it.
func (f *frame) traverseSameDocument(w *Window, target int, e *sessionEntry, done func(*Window, error)) {
	f.mu.Lock()
	f.index = target
	f.mu.Unlock()
	href := e.href
	if href == "" {
		href = e.url.String()
	}
	h := navHistory{done: done}
	if !w.realm.QueueTask(func(*sobek.Runtime) {
		w.s.guard(func() { w.updateDocumentForSameDocumentStep(href, e.url, e.state) })
		h.finish(w, nil)
	}) {
		h.finish(nil, ErrClosed)
	}
}
