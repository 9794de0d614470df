// Package html models the HTML Standard's processing concepts: user
// agents, agents and agent clusters, event loops and task sources, parallel
// queues, timers, environment settings objects, documents and navigables,
// the engine-neutral serialized records of StructuredSerialize
// (serialize.go), MessagePort entanglement and port message queues
// (messageport.go), and the engine-neutral parts of module scripts:
// resolving module specifiers and module map keys (modules.go; the module
// map of engine records lives in browser), and the engine-neutral part of
// image source selection: srcset and sizes parsing and the choice among a
// source set (srcset.go). It is plain Go and never
// imports a JavaScript engine.
//
// # Threading
//
// A UserAgent runs every ParallelQueue and EventLoop on a Scheduler:
//
//   - NewGoroutineScheduler (the default): each event loop has its own
//     goroutine, started on first use, that drains all pending tasks per
//     wake-up from a mutex-guarded slice (no allocation per task, no
//     goroutine per task). Every task of a loop runs on that one goroutine,
//     followed by the loop's microtask checkpoint hook
//     (SetMicrotaskCheckpoint). A parallel queue that is idle runs newly
//     enqueued steps at once on the enqueuing goroutine (and then what they
//     enqueued, for a few rounds) instead of waking its own goroutine; that
//     is one of the interleavings "in parallel" allows and saves a hand-off
//     per hop. Steps therefore must not block, and must not be enqueued
//     while holding a lock they take. InlineParallelQueues(false) turns it
//     off.
//   - NewManualScheduler: nothing runs until the test calls RunOne,
//     RunUntilIdle or a chosen Runner's RunOne (Runnable lists them), so a
//     randomized test can pick every interleaving; timers use a fake clock
//     moved by Advance.
//
// Everything in this package is goroutine-safe, except that the relevant
// global object slot and dom objects belong to their event loop.
//
// # Embedding
//
// QueueTask, QueueGlobalTask and QueueAGlobalTask report whether the task
// was queued (false: the loop is terminated and the task will never run);
// QueueTaskValue also tells a queued task that is dropped later (its loop
// terminated first). EventLoop.RunOnLoop(ctx, f) runs f on a loop and
// waits, the helper every embedder needs; EventLoop.CheckCurrent tells
// whether the calling goroutine runs the loop's task (a goroutine id
// compare, a few nanoseconds), which the packages above use to reject calls
// from the wrong goroutine with a *WrongGoroutineError naming the loop.
// ManualScheduler.RunAsTask lets a deterministic test act as one of a
// loop's tasks. UserAgent.CloseContext bounds the wait of Close.
//
// Other specifications keep their per-object state in typed data slots
// (Slot) of user agents, environment settings objects and event loops, and
// make their task sources with NewTaskSource, so this package holds nothing
// specific to them.
//
// # Documents
//
// Navigable.Navigate makes a new Document (with a new environment settings
// object in the similar-origin window agent of its site in the navigable's
// browsing context group) the active document, then unloads the old one and
// its descendants, running their unloading document cleanup steps on the
// calling goroutine, or keeps it in the back/forward cache
// (NavigateOptions.KeepInBFCache): not fully active, not unloaded, its
// tasks waiting until Restore. A navigation that fetches its document
// reserves an environment first (Navigable.ReserveEnvironment: the
// request's reserved client, which a service worker may control and
// names as the fetch event's resultingClientId); Navigate with
// NavigateOptions.ReservedEnvironment makes it the new document's
// environment settings object (same id, same data slots), unless the URL
// navigated to is of another origin than the one it was reserved for.
// Navigable.Destroy removes an iframe or closes a window. A window agent terminates (running its termination
// steps) when its last document is discarded; dedicated workers terminate
// with their owner.
//
// # Shared workers
//
// ObtainSharedWorker is the user agent's part of new SharedWorker(): the
// user agent's list of shared workers (in a slot of the UserAgent) is
// searched by constructor URL, name and constructor storage key; a match
// gets the caller's Document added to its owner set, otherwise a shared
// worker agent (in a new agent cluster) and a SharedWorkerEnvironment are
// made. A shared worker is one environment, so one Web Locks client,
// however many documents connect. Deviations: a worker whose owner set
// becomes empty (its last owner document unloaded) is terminated at once,
// without the implementation-defined grace period the spec allows while
// another document is still loading; owners are Documents only (the
// constructor is exposed in windows only); the type and credentials of a
// matched worker are not compared with the options (module workers do not
// exist yet).
//
// # Extension points
//
// Other specifications keep their state in typed data slots (Slot) of
// user agents, environments and event loops, and run their workers in
// agents of their own (NewStandaloneWorkerEnvironment: package
// serviceworker's service workers); window.open is
// Navigable.OpenAuxiliary; everything crossing agents goes through
// QueueTask and ParallelQueue.Enqueue, the seams where an out-of-process
// agent would marshal its messages. html names no other specification:
// internal/archtest checks its exported names.
package html
