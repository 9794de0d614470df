package weblocks

import (
	"slices"

	"github.com/gowebengine/weblocks/html"
)

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
// the waiter is granted. Likewise, a request of a cached document (or of
// one of its dedicated workers) that is granted while the document is
// cached evicts it (evictCachedGrantee). The dedicated workers of a cached
// document are suspended with it (html's SuspendingDocument): their lock
// tasks wait like the document's own.

// EvictionReasonContention is the html eviction reason for a cached
// document whose lock another context requested or queried.
const EvictionReasonContention = "web-locks-contention"

// suspendingDocument is the document the client's environment belongs to
// for the back/forward cache (html's SuspendingDocument: a window's
// associated document, or for a dedicated worker, nested ones included,
// the document that owns it), or nil (shared and service workers). The
// client's tasks (grants, rejections) belong to it: they wait while it is
// cached and are dropped when it is destroyed.
func (c *client) suspendingDocument() *html.Document {
	if c == nil || c.env == nil {
		return nil
	}
	return c.env.SuspendingDocument()
}

// cachedDocumentsOf is the back/forward-cached documents the client's
// environment belongs to (html's CachedDocuments: a window's or its
// dedicated worker's cached document; a shared worker's owner documents
// when all of them are cached), or nil.
func cachedDocumentsOf(c *client) []*html.Document {
	if c == nil || c.env == nil {
		return nil
	}
	return c.env.CachedDocuments()
}

// evictCachedGrantee evicts the cached document of a client whose request
// was just granted (a request left pending by a window, or a dedicated
// worker, when its document entered the back/forward cache): the cached
// page cannot run the callback until it is restored (the grant's task
// waits), and the lock must not stay held meanwhile with no one able to
// release it. The eviction destroys it, which drops the grant's task and
// releases the lock (its unloading document cleanup steps, and its
// workers' termination), and the next waiter is granted. Chromium 156
// does not restore such a page either (upstream
// back-forward-cache/weblocks-worker), but keeps the lock granted to the
// frozen worker held until the page is discarded, so a later waiter waits
// meanwhile; here it is released at once, as for contention on a cached
// page's own locks. Lock task queue.
func evictCachedGrantee(lock *entry) {
	if lock.client.requestEviction() {
		return
	}
	// Only a client whose tasks wait for its document (a window, a
	// dedicated worker): a shared worker of cached pages still runs, and
	// can use its lock.
	if d := lock.client.suspendingDocument(); d != nil {
		if c := d.InBackForwardCache(); c != nil {
			evict([]*html.Document{c})
		}
	}
}

// evictCachedHolders evicts the cached documents holding a lock of ns (the
// queue a request from requester just joined). It runs on the lock task
// queue; the eviction itself runs on its own goroutine (it unloads
// documents, which enqueues their termination steps here).
func (m *LockManager) evictCachedHolders(ns *nameState, requester *client) {
	var docs []*html.Document
	for lock := ns.heldHead; lock != nil; lock = lock.next {
		if lock.client == requester || lock.client.requestEviction() {
			continue
		}
		for _, d := range cachedDocumentsOf(lock.client) {
			if !slices.Contains(docs, d) {
				docs = append(docs, d)
			}
		}
	}
	evict(docs)
}

// evictCachedClients evicts every cached document with a held lock or a
// pending request in the manager (a query's contention). It looks at each
// client of the manager once, not at each of its locks and requests: a
// client's list holds exactly its held locks and queued requests, so a
// non-empty list is "has a lock or request here", and the cost follows the
// number of clients, which keeps query() flat in the number of entries.
// Each document is evicted once, in the order its clients first used the
// manager (by clientState index).
func (m *LockManager) evictCachedClients() {
	var docs []*html.Document
	for _, cs := range m.clientStates {
		if cs == nil || cs.head == nil || cs.client.requestEviction() {
			continue
		}
		for _, d := range cachedDocumentsOf(cs.client) {
			if !slices.Contains(docs, d) {
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

// requestEviction delivers the eviction request of a contract client
// (ClientConfig.Evict) that its host marked cached (Client.SetCached), and
// reports whether the client is a contract client (whose host, not html,
// does the eviction). Lock task queue.
func (c *client) requestEviction() bool {
	if c.svc == nil || c.env != nil {
		return false
	}
	if c.evict != nil && c.cached.Load() {
		c.deliverTask(funcTask(c.evict))
	}
	return true
}
