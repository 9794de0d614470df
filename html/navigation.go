package html

// This file adds the back/forward cache's eviction to the navigables of
// document.go (which keep documents navigated away from with
// NavigateOptions.KeepInBFCache, and bring them back with Restore).
//
// HTML keeps such a document in its session history entry's document
// state while its salvageable state is true; it is not fully active
// there (https://html.spec.whatwg.org/#fully-active), so tasks queued for
// it wait and APIs that require a fully active document (Web Locks'
// request and query) reject. When something makes the cached document
// unrestorable, the user agent evicts it: HTML's "destroy a document and
// its descendants" on it, which unloads it and runs its unloading document
// cleanup steps (releasing, for Web Locks, its held locks and pending
// requests). Eviction is not specified step by step by HTML; the reasons
// follow Chromium's NotRestoredReasons.

// InBackForwardCache reports whether d, or a document whose descendant d
// is, is kept in its navigable's back/forward cache (and not evicted). It
// returns that cached document, or nil.
func (d *Document) InBackForwardCache() *Document {
	d.ua.navMu.RLock()
	defer d.ua.navMu.RUnlock()
	return d.cachedAncestorLocked()
}

func (d *Document) cachedAncestorLocked() *Document {
	for d != nil && !d.destroyed {
		n := d.navigable
		if n == nil || n.destroyed {
			return nil
		}
		for _, h := range n.history {
			if h == d {
				return d
			}
		}
		if n.active != d {
			return nil
		}
		d = n.container
	}
	return nil
}

// EvictFromBackForwardCache evicts d's cached document (see
// InBackForwardCache) for the given reason: it leaves its navigable's
// back/forward cache and is destroyed with its descendants, running their
// unloading document cleanup steps (on the calling goroutine). It reports
// whether a document was evicted.
func (d *Document) EvictFromBackForwardCache(reason string) bool {
	ua := d.ua
	ua.navMu.Lock()
	c := d.cachedAncestorLocked()
	if c == nil {
		ua.navMu.Unlock()
		return false
	}
	n := c.navigable
	for i, h := range n.history {
		if h == c {
			n.history = append(n.history[:i], n.history[i+1:]...)
			break
		}
	}
	c.evicted = reason
	docs := c.unloadADocumentAndItsDescendantsLocked(nil, true)
	ua.navMu.Unlock()
	ua.runUnload(docs)
	return true
}

// EvictionReason is why d was evicted from the back/forward cache ("" if
// it was not).
func (d *Document) EvictionReason() string {
	d.ua.navMu.RLock()
	defer d.ua.navMu.RUnlock()
	return d.evicted
}

// CachedDocuments is the back/forward-cached documents that keep e's
// environment from running: for a window (or a dedicated worker it owns,
// nested ones included) its document's cached ancestor, when it is
// cached; for a shared worker (or a dedicated worker it owns) the cached
// ancestors of its owner documents when every owner is cached (the worker
// then lives only for cached pages, and evicting them terminates it, as
// Chromium does for Web Locks contention). Nil otherwise (service
// workers, a shared worker with an active owner).
func (e *EnvironmentSettingsObject) CachedDocuments() []*Document {
	for ; e != nil; e = e.owner {
		if e.document != nil {
			if c := e.document.InBackForwardCache(); c != nil {
				return []*Document{c}
			}
			return nil
		}
		switch e.kind {
		case DedicatedWorkerEnvironment:
			continue
		case SharedWorkerEnvironment:
			if e.sharedWorker == nil {
				return nil
			}
			return e.sharedWorker.cachedOwners()
		}
		return nil
	}
	return nil
}

// SuspendingDocument is the document whose full activity the tasks of
// env's global wait for: for a Window, its associated Document; for a
// dedicated worker, the document at the root of its owner chain. HTML
// (https://html.spec.whatwg.org/#suspendable-worker) suspends the script
// of a worker that is permissible but not an active needed worker: one
// whose owner documents are not fully active, such as a worker of a
// document kept in the back/forward cache. Queuing the worker's global
// tasks for its owner document gives exactly that: they wait while the
// document is cached, run again when it is restored, and are dropped once
// it is destroyed (which terminates the worker). Shared and service
// workers have no single owner document and are never suspended here.
func (e *EnvironmentSettingsObject) SuspendingDocument() *Document {
	for ; e != nil; e = e.owner {
		if e.document != nil {
			return e.document
		}
		if e.kind != DedicatedWorkerEnvironment {
			return nil
		}
	}
	return nil
}

// AddBackForwardCacheObserver registers f to be called after something may
// have changed which documents keep an environment from running (see
// CachedDocuments): a document entered, left or was evicted from a
// back/forward cache, a document was unloaded, or a shared worker gained
// an owner. f runs on the goroutine that made the change, outside the user
// agent's locks; it must not block.
func (ua *UserAgent) AddBackForwardCacheObserver(f func()) {
	ua.mu.Lock()
	ua.bfcacheObservers = append(ua.bfcacheObservers, f)
	ua.mu.Unlock()
}

// bfcacheChanged calls the back/forward cache observers.
func (ua *UserAgent) bfcacheChanged() {
	ua.mu.Lock()
	obs := ua.bfcacheObservers
	ua.mu.Unlock()
	for _, f := range obs {
		f()
	}
}
