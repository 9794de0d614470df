// Package weblocks implements the Web Locks API algorithms: lock managers,
// lock requests, the lock task queue and the request() and query() method
// steps, as plain Go that any JavaScript engine can be bound to.
//
// # Entry points
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
// after; see below).
//
// Scaling (cpu-ns/op: process CPU time per op, as wall ns/op is not
// meaningful on the loaded 2-core machine these were taken on; old =
// linked entries, new = dense records; the old and new test binaries
// alternated in one session). Query: three alternations, load ~20,
// values run 1/2/3 per entry; the others: two alternations, load 24-31,
// run 1/2 per op (Terminate: per lock of the terminated worker, 1000 other
// locks held).
//
//	                         1k              10k             100k         100k/1k
//	Query        old   35 / 31 / 45    74 / 80 / 70   125 / 116 / 121   2.7-3.7x
//	             new   37 / 31 / 32    55 / 53 / 54    56 /  51 /  50   1.5-1.6x
//	  per-client bfcache check (three alternations, load 8-10):
//	             old   50 / 50 / 50    71 / 65 / 65   101 /  99 / 105   2.0-2.1x
//	             new   34 / 29 / 46    56 / 43 / 47    44 /  47 /  51   1.1-1.6x
//	QueuedGrant  old   1480 / 1864     1547 / 2098     1604 / 2233      1.1-1.2x
//	             new   2566 / 1458     1629 / 1701     1800 / 1713      0.7-1.2x
//	DistinctNames old  1635 / 1775     1836 / 1983     2663 / 1259      0.7-1.6x
//	             new   1779 / 2091     1588 / 2096     2388 / 2118      1.0-1.3x
//	Terminate    old    456 / 222       274 / 303       626 / 474       1.4-2.1x
//	             new    575 / 491       301 / 331       460 / 503       0.8-1.0x
//
// Later (issue 11, second pass; old = before, new = after; old and new test
// binaries alternated three times, load 3-11, per entry or per lock):
//   - query()'s result is flat (Snapshot of two LockLists: every name in
//     one string, each name once per group, one 16-byte pointer-free
//     record per entry, the client ids once per client), so a query
//     allocates about 21 B per entry instead of 41 B, in 9 allocations
//     whatever the size, and adds no per-entry work to the collector's
//     marking. Query cpu-ns per entry, 1k / 10k / 100k:
//     old 27.6-28.0 / 36.9-53.0 / 53.9-59.3 (2.05-2.18x),
//     new 20.6-21.1 / 25.7-28.6 / 27.7-32.2 (1.31-1.54x).
//   - A termination no longer deletes the names it empties one by one from
//     the names map (a cache miss per name on a large map): they stay on
//     the idle list until the termination ends, then the excess is deleted
//     at once, and when it is at least half of the map the map is rebuilt
//     from the surviving names (trimIdle). Terminate cpu-ns per lock with
//     1000 other locks, 1k (200 runs) / 100k (20 runs):
//     old 145-193 / 370-402 (2.1-2.6x), new 173-195 / 205-242 (1.05-1.27x).
//     The per-entry html tasks seen in its profile belong to the requests
//     made before the timed part, not to the termination, which is one
//     task on the lock task queue per client.
//   - DistinctNames: with the collector off (GOGC=off) it costs 1172 /
//     1211 / 1357 cpu-ns per cycle at 1k / 10k / 100k held names (1.16x);
//     with it on, 1416-1470 / 1465-1498 / 1919-2147 (1.36-1.46x). The
//     difference is the collector: a cycle allocates 360 B whatever the
//     size, and at 100k each collection marks a live heap of about 50 MB of
//     entries, futures and name states, while at 1k the heap stays below
//     the collector's 4 MB minimum goal. (The benchmark now warms up to
//     its steady state before timing: the one-time growth of the held
//     records array and of the names map under churn had been charged to
//     the timed cycles, 128 B per cycle more at 100k.)
//   - Memory per entry is unchanged: 261.3 B per pending request and 294.7
//     B per held lock.
//
// Third pass (issue 11; old = before it, new = after; the old and new test
// binaries alternated five times on a machine with load 14-42, so only
// cpu-ns is meaningful; per entry for Query, per cycle for DistinctNames,
// 1k / 10k / 100k):
//   - A snapshot's lists hold 8-byte records (name index, client index and
//     mode) and share one names table, holding each name once as the lock
//     manager's own string (not a copy), and the client ids: a query
//     allocates 8 B per entry plus 16 B per name (old: 16 B per entry plus
//     each name's bytes). The manager's held and pending records are 8
//     bytes too (the name is in its name's slot, the entry pointers in an
//     array alongside), so query() reads 8 bytes per entry where it read
//     32: the part of its cost that grew once the records outgrew the
//     caches is gone.
//   - QueryInto queries into a caller's Snapshot and reuses its storage,
//     so repeated queries allocate nothing per entry and cause no
//     collector work that grows with the manager; Query still allocates
//     its result, and its cost at 100k includes the collections that
//     allocation brings about (which mark the whole live heap).
//     Query old 28.8-59.5 / 35.1-53.9 / 46.8-63.1 (0.85-2.13x, median
//     1.33x), new 18.4-24.6 / 30.2-34.7 / 28.4-38.0 (1.20-2.01x, median
//     1.54x: 1.6x cheaper at 100k, but 1k gained more); QueryInto
//     7.6-9.7 / 5.9-8.2 / 6.6-8.4 (0.78-1.01x, median 0.86x).
//   - A cycle on a new name reuses a deleted name state instead of
//     allocating one, and a request's entry and released future are one
//     208-byte allocation (was 224: a Future keeps its second and later
//     reactions behind a pointer): a cycle allocates 208 B instead of
//     360 B, so the collections it brings about, which at 100k held names
//     mark a heap of about 50 MB, are 42% fewer. DistinctNames (its own
//     five alternations, load 16-23) old 1697-2149 / 1744-2411 /
//     2303-3202 (1.26-1.60x, median 1.52x), new 1325-1905 / 1440-2140 /
//     2040-2370 (1.21-1.79x, median 1.37x): about 20% cheaper at 100k,
//     but not flat. With the collector off it was 1.24x (1814 / 2254,
//     one run): the rest is the names map's lookup of a new name and
//     deletion of an old one, a cache miss each on a 100k-name map, and
//     the collector marking the larger heap.
//   - Memory (BenchmarkMemoryPerEntry): 226.0 B per pending request (was
//     261.3), 259.4 B per held lock (295.0), 468.4 B per held lock on a
//     distinct name (485.2).
//
// The request/release cycle did not get slower: BenchmarkRequestRelease
// 0.97x and BenchmarkRequestReleaseManual 1.00x (new/old, sums of seven
// alternating runs), and a cycle allocates 224 B instead of 256 B.
//
// With the collector off (GOGC=off, 20 queries) query() costs 47, 37 and 36
// ns per entry at 1k, 10k and 100k entries (old: 29, 63, 111): what remains
// of the slope with the collector on is the collector (at 1k the whole heap
// is below its 4 MB minimum goal, from 10k on each query's result drives
// marking of the whole live heap); it is flat from 10k to 100k. (Measured
// again after the per-client bfcache check, GOGC=off, 20 queries: 43, 52
// and 38 ns per entry, against 77, 118 and 120 with the walk over every
// entry's client: that walk had brought the slope back.)
//
// Memory (BenchmarkMemoryPerEntry, Go API, amd64): a pending request costs
// about 226 B (its entry and released future, one 208-byte allocation, plus
// its 8-byte record and the entry pointer alongside; the entry is its own
// task on the event loop and the lock task queue, so no closure is bound
// per request, and a request's signal is kept on the side only when it has
// one); a held lock about 259 B (the same, plus the reaction the lock
// manager adds to its waiting promise); a name with state of its own (a
// held lock or a queue) about 209 B more for the per-name state, its
// 32-byte slot and its map entry. Under churn the record arrays may hold
// up to as many tombstones as live records before they are compacted (up
// to 16 B more per entry), and the slots array up to as many as live
// names, held locks and queued requests together (32 B each).
//
// From JavaScript (bindings BenchmarkMemoryPerJSEntry, sobek, 20k
// entries, including what the script itself keeps: the returned promise
// and the callback) a pending request costs about 2.7 KB and a held lock
// about 6.2 KB. Nearly all of it is sobek's promise machinery: each
// promise's two resolving functions are full function objects (about
// 640 B each). A held lock keeps three such pairs (the released promise,
// the job adopting the thenable the callback returned, and the promise
// derived by the reaction that releases the lock); the waiting promise's
// pair and the callback are let go of once the callback has returned
// (8.2 KB before). The core's own share is the Go API figure above.
package weblocks
