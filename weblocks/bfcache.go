package weblocks

import "github.com/gowebengine/weblocks/html"

// This file is Web Locks' part of the back/forward cache. The Web Locks
// specification only says that a document that is not fully active cannot
// request or query (api.go); a document kept in the back/forward cache is
// not fully active, and its existing locks and requests stay as they are:
// holding a lock does not make a document unsalvageable. But another
// context must not wait forever on a lock a cached page holds, so, as
// Chromium does, contention evicts the cached page: when a request (or a
// query, which would expose its state) from a fully active context meets a
// lock held, or a request pending, by a document in the back/forward
// cache, that document is evicted (html.Document.EvictFromBackForwardCache,
// reason EvictionReasonContention), which unloads it: its unloading
// document cleanup steps terminate its remaining locks and requests, and
// the waiter is granted.

// EvictionReasonContention is the html eviction reason for a cached
// document whose lock another context requested or queried.
const EvictionReasonContention = "web-locks-contention"

// cachedDocumentOf is the back/forward-cached document the client's
// environment belongs to (its associated document, or for a dedicated
// worker the document that owns it), or nil.
func cachedDocumentOf(c *client) *html.Document {
	if c == nil || c.env == nil {
		return nil
	}
	if doc := c.env.AssociatedDocument(); doc != nil {
		return doc.InBackForwardCache()
	}
	return nil
}

// evictCachedHolders evicts the cached documents holding a lock of ns (the
// queue a request from requester just joined). It runs on the lock task
// queue; the eviction itself runs on its own goroutine (it unloads
// documents, which enqueues their termination steps here).
func (m *LockManager) evictCachedHolders(ns *nameState, requester *client) {
	var docs []*html.Document
	for lock := ns.heldHead; lock != nil; lock = lock.next {
		if lock.client == requester {
			continue
		}
		if d := cachedDocumentOf(lock.client); d != nil {
			docs = append(docs, d)
		}
	}
	evict(docs)
}

// evictCachedClients evicts every cached document with a held lock or a
// pending request in m (a query from another context). Lock task queue.
func (m *LockManager) evictCachedClients() {
	var docs []*html.Document
	for _, rec := range m.held {
		if rec.e == nil { // a removed record
			continue
		}
		if d := cachedDocumentOf(rec.e.client); d != nil {
			docs = append(docs, d)
		}
	}
	for ns := m.firstName; ns != nil; ns = ns.next {
		for r := ns.queueHead; r != nil; r = r.next {
			if d := cachedDocumentOf(r.client); d != nil {
				docs = append(docs, d)
			}
		}
	}
	evict(docs)
}

func evict(docs []*html.Document) {
	if len(docs) == 0 {
		return
	}
	go func() {
		for _, d := range docs {
			d.EvictFromBackForwardCache(EvictionReasonContention)
		}
	}()
}
