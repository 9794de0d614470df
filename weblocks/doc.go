// Package weblocks implements the Web Locks API
// (https://w3c.github.io/web-locks/) in plain Go, for any JavaScript
// engine and any host: the lock service (lock managers, one per storage
// bucket, on a lock task queue), the contract through which hosts reach
// it, and the request() and query() method steps over that contract. It
// imports neither a JavaScript engine nor package html.
//
// # Embedding in a host of your own
//
// A host with its own event loops and JavaScript engine needs three things
// (examples/foreignhost is a complete one: a goroutine event loop, a sobek
// runtime, and glue.go between them and this package):
//
//   - The lock service contract (contract.go: the LockService interface).
//     A Service (NewService, or NewServiceOn with the host's own lock task
//     queue) implements it. Register a Client per environment and storage
//     Bucket (ClientConfig: its id, its bucket, and Deliver, which runs a
//     Task on the environment's event loop). Request asks for a lock (a
//     Mode and a WaitMode: Wait, IfAvailable, Steal) and returns a
//     RequestHandle; the request's Outcome (granted with a LockHandle, not
//     available, aborted, then possibly revoked) reaches its Receiver
//     through Deliver. Release, Abort, Query and TerminateClient (the
//     environment went away) complete it. Every call is safe from any
//     goroutine, returns at once and never waits for the host; bad handles
//     and clients get an error. Back/forward cache: SetCached, and
//     ClientConfig.Evict, which the service calls on contention.
//   - The page side (page.go). RequestLock and QueryLocks are the request()
//     and query() method steps over any LockService, given Facts about the
//     environment (secure context, opaque origin, fully active) and the
//     host's Promise, Callback and Signal. RequestHost is RequestLock for a
//     binding's HostRequest (its callback, released and waiting promises
//     in one value) with caller-provided PageRequest storage.
//   - Adapters for the host's engine: a Promise (the released promise, the
//     query's), a Waiting (the callback's result) and, for the signal
//     option, a Signal. The Go API's Future is one such adapter
//     (RequestFuture, QueryFuture).
//
// Package weblocks/htmlhost is our own html host (package html's user
// agents, the browser package's engine): one client of this contract like
// any other, with the Go API entry points for html environments
// (htmlhost.Request, htmlhost.Query) that the browser and the JS bindings
// use.
//
// # Go API guarantees
//
//   - Every *Future of RequestFuture and QueryFuture settles. When the
//     environment that made a request or query goes away (its client is
//     terminated, or its host drops the delivery: Outcome.Dropped), its
//     released futures and query futures that have not settled reject with
//     an "AbortError" *dom.DOMException. AbortError rather than
//     InvalidStateError because the operation was under way and was cut
//     short from outside, exactly like a stolen lock (AbortError) or an
//     aborted signal: code that already handles those handles this too;
//     InvalidStateError stays the answer to starting a request or query in
//     an environment that is already gone. Host promises (RequestLock,
//     QueryLocks: the JS bindings') are left alone: their realm is gone
//     with the environment.
//   - Future.Wait(ctx) blocks until a future settles or ctx ends; it is the
//     only blocking call of the package.
//   - LockManager is [SecureContext]: the method steps reject with an error
//     matching ErrInsecureContext ("SecurityError") when Facts say the
//     environment is not a secure context.
//   - Nil arguments: a nil callback, client or handle is an error; a nil
//     Promise and Future.OnSettled(nil) panic with a "weblocks: " message.
//
// # Threading
//
// All lock manager state lives on the service's lock task queue and is
// only touched by steps enqueued there; outcomes are delivered as tasks
// through the clients' Deliver functions, to their event loops, where the
// page side invokes callbacks and settles promises. No goroutine is
// started per request.
//
// # Deliberate deviations from the specification
//
//   - Termination scope: the spec runs "terminate remaining locks and
//     requests" with an agent for a document's unloading cleanup steps,
//     which would release the locks of every same-origin document sharing
//     the window agent (such as the parent of an unloaded same-origin
//     iframe). Here document unload terminates that document's environment
//     (client) only, and agent termination terminates each of the agent's
//     clients (environments, in the order they first requested or
//     queried). Requests are aborted before locks are released, each in
//     the order they were made (the spec leaves the order open).
//   - Promise settlement that the spec performs from the lock task queue
//     (the rejection of a stolen lock's released promise, the query
//     result) is delivered as a task to the requester's event loop, where
//     the promise lives.
//   - A gone client (document unloaded, agent terminated) gets no more
//     callbacks (the locks they were for are released by its termination)
//     and its requests and queries are rejected with "InvalidStateError".
//   - Back/forward cache (not in the spec, as Chromium does; bfcache.go):
//     a request that must wait for a lock held by a client its host marked
//     cached (SetCached), and any query, request the cached clients'
//     eviction (ClientConfig.Evict), which releases their locks; so does a
//     grant to a cached client (Chromium does not restore such a page
//     either, but keeps the lock held until it discards it), and so does
//     becoming cached while another client already waits behind one of
//     the client's locks or requests. The html host
//     (package htmlhost) queues the tasks of a client for its document
//     (for a dedicated worker, its owner document): they wait while that
//     document is cached, where the spec queues them without a document.
//   - The page side (RequestLock) resolves the released promise with the
//     waiting promise on the event loop, as it enqueues the release, where
//     the spec does both from the lock task queue: the promise lives on
//     the event loop, and it so settles before the next waiter's callback
//     runs (as in Chromium, and as the JS bindings do).
//   - Clients (LockService.Register) are terminated by their host
//     (LockService.TerminateClient), the client being an environment's use
//     of one bucket: an environment that used two buckets is terminated in
//     two steps, one per bucket.
//   - The Abort of a request that is still queued delivers OutcomeAborted
//     (the page side has rejected the promise already: the delivery does
//     nothing more).
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
// back/forward cache check (which cached clients the query observes)
// looks at each client of the manager once, not at each entry: walking
// every entry to its client and document was a pointer chase per entry
// and most of the query's slope (1k to 100k: 2.0-2.1x before, 1.1-1.6x
// after; see PERFORMANCE.md).
//
// Against the engine floor (the JavaScript cycle in a bare sobek runtime,
// bindings' BenchmarkEngineFloorCycle) the JS request/release cycle costs
// 1.6-1.9x the floor's CPU and a queued request 1.4-1.6x
// BenchmarkEngineFloorQueued, depending on the session (the shared test
// machine's load moves both), above the 1.3x aimed at. This is a
// deviation sobek and Go's collector set in part: an event loop must
// enter the engine twice per grant (the callback's call, then the
// released promise's settlement, after the callback's jobs), and each
// entry costs sobek a new value stack and job queue
// (BenchmarkEngineFloorCycleTasks); most of the rest is collector work
// (the cycle allocates 17% more bytes than the floor, and a larger heap to
// mark brings collections sooner), and the Lock object's internal slot (a
// weak pointer and a slot table entry per grant, though no per-grant
// implementation: Lock objects of one name and mode share theirs) is
// about 8% of the cycle's instructions. The figures are in
// PERFORMANCE.md.
//
// The measurements behind these choices, pass by pass, are in
// PERFORMANCE.md.
package weblocks
