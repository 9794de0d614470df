// Package weblocks implements the Web Locks API
// (https://w3c.github.io/web-locks/) in plain Go: lock managers, lock
// requests, the lock task queue and the request() and query() method
// steps, for any JavaScript engine and any host.
//
// # Embedding in a host of your own
//
// A host with its own event loops and JavaScript engine needs three things
// (examples/foreignhost is a complete one: a goroutine event loop, a sobek
// runtime, and glue.go between them and this package):
//
//   - The lock service contract (service.go). A Service (NewService) holds
//     the lock managers, one per storage Bucket, on its lock task queue.
//     Register a Client per environment (ClientConfig: its id, its bucket,
//     and Deliver, which runs a function on the environment's event loop).
//     Service.Request asks for a lock (a Mode and a WaitMode: Wait,
//     IfAvailable, Steal) and returns a RequestHandle; the request's
//     Outcome (granted with a LockHandle, not available, aborted, then
//     possibly revoked) arrives through Deliver. Service.Release,
//     Service.Abort, Service.Query and Service.TerminateClient (the
//     environment went away) complete it. Every call is safe from any
//     goroutine, returns at once and never waits for the host; bad handles
//     and clients get an error. Back/forward cache: Client.SetCached, and
//     ClientConfig.Evict, which the service delivers on contention.
//   - The page side (page.go). RequestLock and QueryLocks are the request()
//     and query() method steps over the contract, given Facts about the
//     environment (secure context, opaque origin, fully active) and the
//     host's Promise, Callback and Signal.
//   - Adapters for the host's engine: a Promise (the released promise, the
//     query's), a Waiting (the callback's result) and, for the signal
//     option, a Signal.
//
// The html user agents of package html (the browser package's engine) are
// hosts too: ServiceOf(ua) is the service of one, shared by contract
// clients and by its environments, which use the entry points below.
//
// # Entry points for html environments
//
// Request and Query run the method steps of an environment's LockManager
// object (navigator.locks) against the lock manager of its default storage
// bucket; (*LockManager).Request and (*LockManager).Query do the same for a
// given lock manager (LockManagerForBucket, for the Storage Buckets API).
// QueryInto is Query into a caller's Snapshot whose storage is reused, for
// callers that query often (no garbage per entry).
// They must be called on the environment's event loop (as script would),
// and everything they report back — the callback, the released promise, the
// query result — is delivered on that event loop.
//
//   - Request returns the released promise as a *Future, or the early
//     rejection of the method steps as an error: a *dom.DOMException
//     ("InvalidStateError", "SecurityError", "NotSupportedError") or an
//     already aborted signal's reason (see dom.ReasonError).
//   - RequestPromise and QueryPromise take a host Promise instead, which
//     receives every outcome including early rejections: this is what the JS
//     bindings use, with their own JS promises. The callback returns a
//     Waiting (the JS binding: the waiting promise made from the callback's
//     return value); the released Promise is resolved with that Waiting
//     ("resolve p with waiting"), or rejected with an "AbortError"
//     DOMException (stolen) or the signal's abort reason (aborted).
//
// # Go API guarantees
//
//   - Every *Future the Go API returns settles. When the environment that
//     made a request or query goes away (its document unloads, its agent
//     terminates), its released futures and query futures that have not
//     settled reject with an "AbortError" *dom.DOMException. AbortError
//     rather than InvalidStateError because the operation was under way and
//     was cut short from outside, exactly like a stolen lock (AbortError)
//     or an aborted signal: code that already handles those handles this
//     too; InvalidStateError stays the answer to starting a request or
//     query in an environment that is already gone. These rejections are
//     made by whichever goroutine notices (the lock task queue, or the one
//     that terminated the agent), since the environment's event loop no
//     longer runs. Host promises (RequestPromise, QueryPromise: the JS
//     bindings') are left alone: their realm is gone with the environment.
//   - Future.Wait(ctx) blocks until a future settles or ctx ends; it is the
//     only blocking call of the package.
//   - LockManager is [SecureContext]: Request and Query fail with an error
//     matching ErrInsecureContext ("SecurityError") in an environment that
//     is not a secure context, as script there has no navigator.locks.
//   - Request and Query return an error wrapping *html.WrongGoroutineError
//     (which names the event loop) when called from a goroutine that is not
//     running a task of env's event loop; html.EventLoop.RunOnLoop runs a
//     function there and waits. RequestPromise and QueryPromise panic with
//     that message instead, as settling their host promise from the wrong
//     goroutine is the race being prevented. The check costs a few
//     nanoseconds (a goroutine id read and compare).
//   - Nil arguments: a nil environment, manager or callback is an error; a
//     nil Promise and Future.OnSettled(nil) panic with a "weblocks: "
//     message.
//
// # Threading
//
// All lock manager state lives on the user agent's lock task queue
// (LockTaskQueue, kept in a data slot of the user agent) and is only touched by steps enqueued
// there; callbacks and promise settlement are queued as tasks (on the web
// locks task source) to the requesting environment's responsible event
// loop. No goroutine is started per request.
//
// # Deliberate deviations from the specification
//
//   - Termination scope: the spec runs "terminate remaining locks and
//     requests" with an agent for a document's unloading cleanup steps,
//     which would release the locks of every same-origin document sharing
//     the window agent (such as the parent of an unloaded same-origin
//     iframe). Here document unload terminates that document's environment
//     (client) only, and agent termination terminates each of the agent's
//     clients. Requests are aborted before locks are released, each in the
//     order they were made (the spec leaves the order open).
//   - Promise settlement that the spec performs from the lock task queue
//     (the released promise after the waiting promise settled, the
//     rejection of a stolen lock's released promise, the query result) is
//     queued as a task to the requester's event loop, where the promise
//     lives.
//   - A gone client (document unloaded, agent terminated) gets no more
//     callbacks (the locks they were for are released by its termination)
//     and its requests and queries are rejected with "InvalidStateError".
//   - Back/forward cache (not in the spec, as Chromium does; bfcache.go):
//     a request that must wait for a lock held by a document kept in the
//     back/forward cache, and any query, evict the cached documents they
//     would wait for or observe, which releases their locks. The tasks the
//     lock manager queues for a client (grants, rejections) belong to its
//     document (for a dedicated worker, its owner document): they wait
//     while that document is cached, where the spec queues them without a
//     document. A request of a cached document, or of one of its dedicated
//     workers, that is granted meanwhile evicts the document (Chromium
//     does not restore such a page either, but keeps the lock held until
//     it discards it).
//   - The page side (RequestLock) resolves the released promise with the
//     waiting promise on the event loop, as it enqueues the release, where
//     the spec does both from the lock task queue: the promise lives on
//     the event loop, and it so settles before the next waiter's callback
//     runs (as in Chromium, and as the JS bindings do).
//   - Contract clients (Service.Register) are terminated by their host
//     (Service.TerminateClient), the client being an environment's use of
//     one bucket; the back/forward cache rules apply to them through
//     Client.SetCached and ClientConfig.Evict.
//
// # Cost
//
// Per-name queues and per-name held lists make grants, releases and aborts
// O(1) (a shared run is granted as one group, one step per request); each
// client has its own list of locks and requests per lock manager, so
// terminating it costs O(its own locks and requests); query() is linear in
// the number of entries, listing pending requests per name in request order
// and held locks in grant order. Empty per-name state is dropped.
//
// query() does not walk the entries: each manager keeps the held lock set
// and the queued requests as two dense arrays of 8-byte records (name
// slot, mode, client index; the entry pointers in an array alongside), in
// grant and request order, with tombstones compacted (order kept) once
// they are half of an array, plus one 32-byte slot per name holding its
// name and queue length. The pending list is grouped by
// name with a counting sort over the records, so query() reads contiguous
// memory and its cost per entry stays flat as the manager grows. Its
// back/forward cache check (which cached documents the query observes)
// looks at each client of the manager once, not at each entry: walking
// every entry to its client and document was a pointer chase per entry
// and most of the query's slope (1k to 100k: 2.0-2.1x before, 1.1-1.6x
// after; see PERFORMANCE.md).
//
// The measurements behind these choices, pass by pass, are in
// PERFORMANCE.md.
package weblocks
