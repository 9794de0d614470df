// Package bindings exposes the engine to JavaScript: realms on goja, the
// implementations behind the generated WebIDL bindings (LockManager, Lock,
// Navigator, DOMException, Event, EventTarget, AbortController,
// AbortSignal), plus the code generated from the IDL sources kept beside it
// (the *_gen.go files and bindings/webidl, owned by the code generator).
//
// # Realms
//
// A Realm is one goja.Runtime with its global object, created for an
// html.EnvironmentSettingsObject:
//
//	r, err := bindings.NewWindowRealm(env, bindings.Options{...})
//	r, err := bindings.NewDedicatedWorkerRealm(env, bindings.Options{...})
//
// The realm belongs to the environment's responsible event loop (its agent's
// html.EventLoop): every use of the runtime and of any JavaScript value
// happens in a task of that loop. From any goroutine, use
//
//	r.QueueTask(func(vm *goja.Runtime) { ... })   // run Go code on the loop
//	r.QueueScript(name, src, done)                // run a classic script as a task
//	r.RunScript(name, src)                        // the same, waiting for it (not with a manual scheduler)
//	r.Close()                                     // drop the realm's future tasks
//
// and, inside a task, r.Runtime(), r.Global(), r.EvaluateScript(name, src),
// r.Call(fn, this, args...) (invoke with "report an exception"),
// r.ReportException(err), r.FireEvent(type, cancelable, props) (fire an event at
// the global; props become own properties of the event object, e.g. "data" for
// message events), r.DefineGlobal / DefineGlobalFunction / DefineGlobalGetter
// (add globals; also fine right after creation, before any task ran) and
// r.SetValue / r.Value (per-realm storage for integrators).
//
// Microtasks: goja runs its job queue (promise reactions, queueMicrotask
// callbacks) when the outermost JavaScript call returns, which is exactly
// HTML's "clean up after running script" microtask checkpoint; the realm also
// installs the loop's microtask checkpoint hook (html.EventLoop.
// SetMicrotaskCheckpoint), which drains anything left and runs "notify about
// rejected promises". Consequently a promise resolved from Go with no
// JavaScript on the stack runs its reactions at once: resolve promises as the
// last step of a task (the Web Locks glue does).
//
// Errors: an uncaught exception (script, timer, callback, event listener) is
// reported per HTML's "report an exception": an error event (ErrorEvent
// fields message, filename, lineno, colno, error as own properties) is
// dispatched at the global; window.onerror / self.onerror get the five-argument
// call and returning true cancels it; when not cancelled it goes to
// Options.OnError and to the console hook. Unhandled rejections fire
// unhandledrejection (fields promise, reason) at the global from a task after
// the microtask checkpoint, then Options.OnUnhandledRejection unless
// cancelled; rejectionhandled follows a late handler.
//
// # Globals
//
// Both globals are EventTargets and have: self, globalThis, origin,
// isSecureContext, location (Location / WorkerLocation, read-only getters of
// the creation URL), navigator (Navigator / WorkerNavigator; navigator.locks
// only in secure contexts), setTimeout/clearTimeout/setInterval/clearInterval
// (HTML timer initialization steps: ids > 0, nesting-level clamping to 4 ms
// beyond level 5, extra arguments passed, string handlers evaluated),
// queueMicrotask, console (log/info/warn/error/debug/trace/assert with the
// Console Standard formatter, to Options.Console or Options.ConsoleWriter),
// performance (now(), timeOrigin, toJSON), onerror, onunhandledrejection,
// onrejectionhandled, and every interface the generated bindings expose in
// that global per [Exposed] and [SecureContext] (in a non-secure context there
// is no navigator.locks, LockManager or Lock). Window also has window.
//
// # Who provides what
//
// bindings (this package): realms and the globals above, EventTarget/Event,
// AbortController/AbortSignal, DOMException, Navigator/WorkerNavigator,
// LockManager/Lock, error reporting.
// The go product (wpt-runner/goproduct) adds what page loading needs on top
// of this API: document, Worker, postMessage/onmessage, importScripts,
// structured clone; it may replace location with DefineGlobal.
//
// The realm sets itself as the environment's global (env.SetGlobal(realm)),
// so RealmOf(env) finds it.
package bindings
