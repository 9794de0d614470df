package browser

import (
	"context"
	"errors"

	"github.com/grafana/sobek"
)

// This file is the embedder's side of navigation and session history:
// Navigate and Traverse wait for their outcome, EvictFromBackForwardCache
// drops a cached document.

var (
	// ErrNotFullyActive is returned for a window whose document is not
	// fully active: kept in the back/forward cache, or navigated away
	// from, or in a frame whose parent is not fully active.
	ErrNotFullyActive = errors.New("browser: the window's document is not fully active")
	errNotActive      = errors.New("browser: the window is no longer its navigable's active window")
	errNoNavigable    = errors.New("browser: the window has no navigable")
	errSuperseded     = errors.New("browser: another navigation of the navigable took over")
)

// navOutcome is the outcome Navigate and Traverse wait for.
type navOutcome struct {
	w   *Window
	err error
}

// Navigate navigates w's navigable to rawURL (resolved against w's URL)
// as location.assign() does (a new session history entry), and returns
// once the navigation has completed: the window of the new document once
// its load event has fired, or w itself after a fragment navigation
// (same document, locks kept). It fails with the reason when the
// navigation could not complete (a failed load, a newer navigation of the
// navigable, a window that is not fully active), or with ctx's error.
//
// For a window of a renderer process (InRenderer) it returns w itself,
// which follows its traversable to the renderer of the new document's
// site; a window whose renderer ended gets a fresh renderer.
func (w *Window) Navigate(ctx context.Context, rawURL string) (*Window, error) {
	if w != nil && w.remote != nil {
		return w.s.navigateRemote(ctx, w, rawURL)
	}
	if !w.made() {
		return nil, ErrNoWindow
	}
	if w.frame == nil {
		return nil, errNoNavigable
	}
	if !w.htmlDoc.IsFullyActive() {
		return nil, ErrNotFullyActive
	}
	u, err := parseURL(rawURL, w.URL())
	if err != nil {
		return nil, err
	}
	out := make(chan navOutcome, 1)
	done := func(nw *Window, err error) { out <- navOutcome{nw, err} }
	if !w.realm.QueueTask(func(*sobek.Runtime) {
		w.s.guard(func() { w.navigate(u.String(), u, false, nil, done) })
	}) {
		return nil, ErrClosed
	}
	return waitNavigation(ctx, w.s, out)
}

// Traverse is history.go(delta) from Go for w's navigable (delta 0
// reloads): it returns once the traversal has completed, with the window
// then active (restored from the back/forward cache, loaded again, or w
// itself for an entry of its own document), or the reason it could not
// (no entry at that delta, a window no longer active), or ctx's error.
// For a window of a renderer process it returns w itself (which follows
// its traversable to the renderer of the entry's document).
func (w *Window) Traverse(ctx context.Context, delta int) (*Window, error) {
	if w != nil && w.remote != nil {
		return w.s.traverseRemote(ctx, w, delta)
	}
	if !w.made() {
		return nil, ErrNoWindow
	}
	if !w.htmlDoc.IsFullyActive() {
		return nil, ErrNotFullyActive
	}
	out := make(chan navOutcome, 1)
	w.startTraversal(delta, func(nw *Window, err error) { out <- navOutcome{nw, err} })
	return waitNavigation(ctx, w.s, out)
}

// waitNavigation waits for a navigation's outcome, then for the new
// window's load event.
func waitNavigation(ctx context.Context, b *Browser, out <-chan navOutcome) (*Window, error) {
	var o navOutcome
	select {
	case o = <-out:
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-b.ctx.Done():
		return nil, ErrClosed
	}
	if o.err != nil {
		return nil, o.err
	}
	select {
	case <-o.w.Loaded():
		return o.w, nil
	case <-ctx.Done():
		return o.w, ctx.Err()
	case <-b.ctx.Done():
		return o.w, ErrClosed
	}
}

// EvictFromBackForwardCache evicts w's document from the back/forward
// cache: it is destroyed, which releases its Web Locks and grants the
// requests waiting behind them, and a later traversal to its entry loads
// it again (NotRestoredReasons "evicted-by-embedder"). It reports whether
// w was cached.
//
// A request waiting for a lock that a cached page holds is granted only
// when the cached page is evicted: by this, by a request or query from
// another page for that lock (Web Locks' contention rule, as in
// Chromium), or by the cache's size limit. Config.DisableBackForwardCache
// keeps no page in the cache at all.
func (w *Window) EvictFromBackForwardCache() bool {
	if w == nil || w.htmlDoc == nil || !w.InBackForwardCache() {
		return false
	}
	w.discardCached(NotRestoredEvictedByEmbedder)
	return true
}
