package weblocks

// This file is Web Locks' part of the back/forward cache, in terms of the
// contract: a host marks a client cached (LockService.SetCached) while its
// page is in the back/forward cache, and the service calls the client's
// ClientConfig.Evict when that would keep another context waiting.
//
// The Web Locks specification only says that a document that is not fully
// active cannot request or query; a document kept in the back/forward
// cache is not fully active, and its existing locks and requests stay as
// they are: holding a lock does not make a document unsalvageable. But
// another context must not wait forever on a lock a cached page holds, so,
// as Chromium does, contention evicts the cached page: when a request (or
// a query, which would expose its state) meets a lock held, or a request
// pending, by a cached client, that client's eviction is requested; the
// host evicts the page, which terminates its clients, releasing their
// locks, and the waiter is granted. Likewise, a request of a cached client
// that is granted while it is cached requests its eviction
// (evictCachedGrantee): the cached page cannot run the callback until it
// is restored, and the lock must not stay held meanwhile with no one able
// to release it. (Chromium does not restore such a page either, but keeps
// the lock granted to the frozen page held until it discards it; here it
// is released at once.)

// evictCachedGrantee requests the eviction of a cached client whose
// request was just granted. Lock task queue.
func evictCachedGrantee(lock *entry) {
	lock.client.requestEviction()
}

// evictCachedHolders requests the eviction of the cached clients holding a
// lock of ns (the queue a request from requester just joined). Lock task
// queue.
func (m *LockManager) evictCachedHolders(ns *nameState, requester *client) {
	for lock := ns.heldHead; lock != nil; lock = lock.next {
		if lock.client != requester {
			lock.client.requestEviction()
		}
	}
}

// evictCachedClients requests the eviction of every cached client with a
// held lock or a pending request in the manager (a query's contention). It
// looks at each client of the manager once, not at each of its locks and
// requests: a client's list holds exactly its held locks and queued
// requests, so a non-empty list is "has a lock or request here", and the
// cost follows the number of clients, which keeps query() flat in the
// number of entries. Clients are visited in the order they first used the
// manager (by clientState index).
func (m *LockManager) evictCachedClients() {
	for _, cs := range m.clientStates {
		if cs != nil && cs.head != nil {
			cs.client.requestEviction()
		}
	}
}

// evictIfBlocking requests the eviction of a client its host has just
// marked cached when it already keeps another client waiting: a lock it
// holds, or a request it has queued, has another client's request queued
// behind it. That is the contention a request meets when it comes after
// the page was cached; the order in which the host's calls reach the
// service (a remote host's SetCached may arrive after another client's
// request) must not decide whether the waiter waits forever. Lock task
// queue.
func (c *client) evictIfBlocking() {
	if c.terminated || !c.cached.Load() {
		return
	}
	for _, cs := range c.states {
		for e := cs.head; e != nil; e = e.cnext {
			q := e.ns.queueHead
			if e.state != entryHeld {
				q = e.next
			}
			for ; q != nil; q = q.next {
				if q.client != c {
					c.requestEviction()
					return
				}
			}
		}
	}
}

// requestEviction calls the client's Evict if its host marked it cached.
// An Evict that panics is recovered from. Lock task queue.
func (c *client) requestEviction() {
	if c.evict != nil && c.cached.Load() {
		defer func() { _ = recover() }()
		c.evict()
	}
}
