// Package htmlhost is the html host of the Web Locks API: the environments
// of package html's user agents (the browser package's engine) as clients
// of the lock service contract of package weblocks, like any other host.
//
// Each user agent has one lock service (ServiceOf: a weblocks.Service on
// the user agent's lock task queue, LockTaskQueue); UseService gives its
// environments another implementation of weblocks.LockService instead
// (such as a client of a lock service in another process): the html host
// talks to the service only through that interface. An environment
// registers one weblocks.Client per storage bucket it uses, the first time
// it requests or queries: its id is the environment's id, its bucket the
// storage key and bucket name, its Deliver queues the task on the
// environment's responsible event loop, on the web locks task source
// (TaskSource), for its suspending document (so tasks wait while the
// document is in the back/forward cache), and its Evict evicts the
// environment's cached documents (reason EvictionReasonContention). The
// client is marked cached while a document keeps the environment from
// running (html's CachedDocuments: a window's or dedicated worker's cached
// document, or all of a shared worker's owners; html's
// AddBackForwardCacheObserver tells when that may have changed), and
// terminated by the document's unloading document cleanup steps and by the
// agent's termination. A shared worker whose owners are all cached so
// counts as cached for every rule of the contract: contention on its locks
// and requests, a query of its bucket, and a grant to it evict its owners
// (before the html host was a client of the contract, a grant to such a
// worker did not: it still runs and could use the lock).
//
// The entry points compute the page side's weblocks.Facts (secure
// context, opaque origin, fully active, terminated) and call the page
// side of package weblocks:
//
//   - Request and Query (the Go API: a *weblocks.Future, early rejections
//     as errors; QueryInto reuses a Snapshot), RequestPromise and
//     QueryPromise (a host promise), RequestIn (the JS bindings: a
//     weblocks.HostRequest and its weblocks.PageRequest storage), in the
//     environment's default bucket, or in a bucket's Manager
//     (LockManagerForBucket).
//   - They must be called on the environment's event loop: the Go API
//     returns an error wrapping *html.WrongGoroutineError otherwise; the
//     host-promise entry points panic with its message (settling a host
//     promise from another goroutine is the race being prevented).
//   - The browser side: SetObserver, LockManagers, LockManagersOf and
//     ForceReleaseStorageKey, on the user agent's service.
//
// All state hangs off data slots of the user agent and the environments.
package htmlhost
