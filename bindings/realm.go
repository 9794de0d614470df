package bindings

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"sync"
	"time"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// GlobalKind says which global object a realm was created for.
type GlobalKind int

// The kinds of global object a realm can have.
const (
	WindowGlobal GlobalKind = iota + 1
	DedicatedWorkerGlobal
	SharedWorkerGlobal
	// ServiceWorkerGlobal is a ServiceWorkerGlobalScope (serviceworker.go).
	ServiceWorkerGlobal
)

// String returns the global interface's name.
func (k GlobalKind) String() string {
	switch k {
	case WindowGlobal:
		return "Window"
	case DedicatedWorkerGlobal:
		return "DedicatedWorkerGlobalScope"
	case SharedWorkerGlobal:
		return "SharedWorkerGlobalScope"
	case ServiceWorkerGlobal:
		return "ServiceWorkerGlobalScope"
	}
	return fmt.Sprintf("GlobalKind(%d)", int(k))
}

// ExposureSet returns the [Exposed] names this global belongs to (the
// global's own name and the names in its [Global] extended attribute).
func (k GlobalKind) ExposureSet() []string {
	switch k {
	case WindowGlobal:
		return []string{"Window"}
	case DedicatedWorkerGlobal:
		return []string{"Worker", "DedicatedWorker"}
	case SharedWorkerGlobal:
		return []string{"Worker", "SharedWorker"}
	case ServiceWorkerGlobal:
		return []string{"Worker", "ServiceWorker"}
	}
	return nil
}

// Options configures a realm. The zero value is usable: console output is
// discarded and errors are only counted.
type Options struct {
	// Console receives every console message (console.log and friends).
	// When nil, ConsoleWriter is used.
	Console func(level ConsoleLevel, message string)
	// ConsoleWriter receives console messages as "level: message\n" lines
	// when Console is nil. Nil discards them.
	ConsoleWriter io.Writer
	// OnError is called for every exception that "report an exception"
	// did not see cancelled by an error event listener or onerror handler
	// (an uncaught exception of a script, timer, callback or event
	// listener).
	OnError func(*ScriptError)
	// OnUnhandledRejection is called for every rejected promise that was
	// still unhandled at a microtask checkpoint and whose
	// unhandledrejection event was not cancelled.
	OnUnhandledRejection func(reason sobek.Value, err *ScriptError)
	// WorkerURL, when set, is a worker global scope's url (location, the
	// base URL of importScripts) where it is not the environment's
	// creation URL: the response URL of a worker script redirected
	// within its origin.
	WorkerURL *url.URL

	// eagerInterfaces makes the realm create every interface object up
	// front (tests compare it with the lazy default).
	eagerInterfaces bool
}

// ScriptError describes an exception reported by a realm: the thrown value
// and where it was thrown.
type ScriptError struct {
	// Value is the thrown JavaScript value.
	Value sobek.Value
	// Message is the value's string form (for an Error object, "Name:
	// message").
	Message string
	// Filename, Line and Column locate the throw (0 when unknown).
	Filename     string
	Line, Column int
	// Stack is the JavaScript stack trace, when known.
	Stack string
}

// Error implements error.
func (e *ScriptError) Error() string {
	if e.Filename != "" {
		return fmt.Sprintf("%s (%s:%d:%d)", e.Message, e.Filename, e.Line, e.Column)
	}
	return e.Message
}

// ErrRealmClosed is returned for scripts queued on a realm whose event loop
// no longer runs tasks.
var ErrRealmClosed = errors.New("bindings: realm is closed")

// loopHost is what a realm needs from the event loop that owns it. It is
// implemented over html.EventLoop by newHTMLHost; tests may fake it.
type loopHost interface {
	// queueTask queues steps as a task on the loop. It may be called from
	// any goroutine. It reports false when the loop no longer runs tasks.
	queueTask(source html.TaskSource, steps func()) bool
	// startTimer is "run steps after a timeout": after ms milliseconds
	// steps run as a task of the loop (timer task source). Timers started
	// earlier with an equal or shorter timeout run first. cancel stops a
	// timer whose task has not run yet.
	startTimer(ms uint64, steps func()) (cancel func())
	// now is the loop's monotonic clock (a fake clock under a manual
	// scheduler).
	now() time.Duration
}

// Realm is a JavaScript realm (one sobek.Runtime) with its global object.
//
// A realm is owned by its agent's event loop: every access to the runtime,
// the global or any JavaScript value of the realm must happen inside a task
// of that loop (QueueTask), or in Go code called from such a task. The
// methods documented as safe for any goroutine are the exceptions.
type Realm struct {
	vm     *sobek.Runtime
	global *sobek.Object
	kind   GlobalKind
	opts   Options
	host   loopHost

	// Loop-goroutine state.
	jsonStringifyFn sobek.Callable
	timeOrigin      time.Duration
	wallOrigin      time.Time
	timers          timerState
	errorReporting  bool // the global's "error reporting mode"
	rejections      rejectionState
	closedOnLoop    bool
	// resolvedPromise and its then are used to queue microtasks.
	resolvedPromise     *sobek.Object
	resolvedPromiseThen sobek.Callable
	drain               sobek.Callable
	// idl is the binding state the generated code uses.
	idl *webidl.Realm
	// env is the realm's environment settings object (nil for realms made
	// over a fake loop in tests).
	env *html.EnvironmentSettingsObject
	// secure is whether the environment is a secure context.
	secure bool
	// hooks are the embedder's global members; windowName is window.name.
	hooks      HostHooks
	windowName string
	nav        *navigatorImpl
	globalImpl any // *windowImpl or *workerGlobalImpl
	// globalTarget is the global object's EventTarget implementation.
	globalTarget *eventTargetImpl
	extra        map[any]any
	// stackBuf is jsOnStack's buffer.
	stackBuf [1]sobek.StackFrame

	mu       sync.Mutex
	closed   bool          // no more tasks are accepted
	closedCh chan struct{} // closed by Close
}

// maxCallStackSize bounds JavaScript recursion (browsers allow about 10,000
// frames); sobek's default is unbounded, so a runaway recursion would grow
// until the process runs out of memory.
const maxCallStackSize = 10000

// newRealm creates the runtime and installs the globals every realm has.
// It runs on the caller's goroutine before any task of the realm can run.
func newRealm(host loopHost, kind GlobalKind, opts Options) *Realm {
	vm := webidl.NewRuntime()
	vm.SetMaxCallStackSize(maxCallStackSize)
	r := &Realm{vm: vm, global: vm.GlobalObject(), kind: kind, opts: opts, host: host, extra: map[any]any{}, closedCh: make(chan struct{})}
	r.timeOrigin = host.now()
	r.wallOrigin = time.Now()
	r.wallOrigin = time.Now()
	stringify, _ := sobek.AssertFunction(vm.Get("JSON").ToObject(vm).Get("stringify"))
	r.jsonStringifyFn = stringify
	vm.SetPromiseRejectionTracker(r.trackRejection)
	r.timers.init()
	return r
}

// Kind returns the kind of global object of the realm.
func (r *Realm) Kind() GlobalKind { return r.kind }

// Runtime returns the realm's sobek runtime. Use it only inside tasks of the
// realm's event loop.
func (r *Realm) Runtime() *sobek.Runtime { return r.vm }

// Global returns the realm's global object. Use it only inside tasks of the
// realm's event loop.
func (r *Realm) Global() *sobek.Object { return r.global }

// QueueTask queues a task on the realm's event loop that runs f with the
// realm's runtime. Safe for any goroutine. It reports false (and f never
// runs) when the realm is closed or its event loop no longer runs tasks.
//
// Promise reactions and queueMicrotask callbacks caused by f run when the
// outermost JavaScript call f makes returns (sobek's job queue is drained
// then, as HTML's "clean up after running script" performs a microtask
// checkpoint when the JavaScript stack becomes empty), and at the latest in
// the microtask checkpoint after the task. Resolving a promise from Go with
// no JavaScript on the stack therefore runs its reactions at once: do it as
// the last step of a task.
func (r *Realm) QueueTask(f func(vm *sobek.Runtime)) bool {
	return r.queueTask(realmTaskSource, func() { f(r.vm) })
}

func (r *Realm) queueTask(source html.TaskSource, steps func()) bool {
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return false
	}
	return r.host.queueTask(source, func() {
		if r.closedOnLoop {
			return
		}
		steps()
	})
}

// Close stops the realm from running further tasks: queued tasks, timers
// and callbacks are dropped. Safe for any goroutine; the event loop itself
// is not stopped (its agent owns it).
//
// A script running at that moment is interrupted (sobek's Interrupt: it
// stops with an uncatchable error), as when a worker is terminated; a
// RunScript waiting for the realm returns ErrRealmClosed.
func (r *Realm) Close() { r.close(true) }

// close stops the realm's tasks; interrupt also stops running script (not
// wanted when a document unloads: other realms of its agent may still
// call into it, as script can in a browser).
func (r *Realm) close(interrupt bool) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return
	}
	r.closed = true
	close(r.closedCh)
	r.mu.Unlock()
	if interrupt {
		r.vm.Interrupt(ErrRealmClosed)
	}
	r.host.queueTask(realmTaskSource, func() { r.closedOnLoop = true })
}

// Interrupt stops the JavaScript running in the realm now (if any) with
// an uncatchable error carrying reason, for example when a test times out
// in an endless loop. Safe for any goroutine. Unlike Close, the realm keeps
// running tasks; the next script evaluation clears the interrupt.
func (r *Realm) Interrupt(reason any) { r.vm.Interrupt(reason) }

// EvaluateScript runs src as a classic script in the realm, on the calling
// goroutine, which must be the realm's event loop (inside a task). An
// uncaught exception is reported ("report an exception": error event at the
// global, onerror, then Options.OnError) and returned as a *ScriptError; a
// syntax error is reported the same way.
func (r *Realm) EvaluateScript(name, src string) (sobek.Value, error) {
	prg, err := webidl.Compile(name, src, false)
	if err != nil {
		se := r.syntaxError(name, err)
		r.reportScriptError(se)
		return nil, se
	}
	return r.EvaluateProgram(prg)
}

// EvaluateProgram is EvaluateScript for a script already compiled with
// sobek.Compile (name, src, non-strict). A *sobek.Program is not tied to a
// runtime, so an embedder that runs the same script in many realms (a test
// harness in every test page) can compile it once.
func (r *Realm) EvaluateProgram(prg *sobek.Program) (sobek.Value, error) {
	v, err := r.vm.RunProgram(prg)
	if err != nil {
		var ie *sobek.InterruptedError
		if errors.As(err, &ie) {
			// Interrupted (Close or Interrupt): not a script error to
			// report; the interrupt is consumed.
			r.vm.ClearInterrupt()
			return nil, err
		}
		return nil, r.reportError(err)
	}
	return v, nil
}

// QueueScript queues a task that evaluates src as a classic script (see
// EvaluateScript) and then calls done, on the loop goroutine, with the
// script's error (nil on success). done may be nil. Safe for any goroutine.
func (r *Realm) QueueScript(name, src string, done func(error)) {
	ok := r.queueTask(realmTaskSource, func() {
		_, err := r.EvaluateScript(name, src)
		if done != nil {
			done(err)
		}
	})
	if !ok && done != nil {
		done(ErrRealmClosed)
	}
}

// RunScript queues src as a script task and waits until it has run,
// returning its error. It must not be called on the realm's event loop
// goroutine, nor with a manual scheduler that nobody steps (use QueueScript
// there).
func (r *Realm) RunScript(name, src string) error {
	ch := make(chan error, 1)
	r.QueueScript(name, src, func(err error) { ch <- err })
	select {
	case err := <-ch:
		return err
	case <-r.closedCh:
		// The task may have been dropped with the loop or document.
		select {
		case err := <-ch:
			return err
		default:
			return ErrRealmClosed
		}
	}
}

// Call invokes a JavaScript function with "report an exception" semantics
// (the way HTML invokes timer handlers and queueMicrotask callbacks): an
// exception is reported, not propagated. It returns the reported error, if
// any. Loop goroutine only.
func (r *Realm) Call(fn sobek.Value, this sobek.Value, args ...sobek.Value) (sobek.Value, error) {
	f, ok := sobek.AssertFunction(fn)
	if !ok {
		return nil, r.reportError(r.throwValue(r.vm.NewTypeError("not a function")))
	}
	v, err := f(this, args...)
	if err != nil {
		return nil, r.reportError(err)
	}
	return v, nil
}

// DefineGlobal defines (or replaces) a property of the global object as
// writable, configurable and not enumerable (like an interface object or
// namespace). Loop goroutine only, or before the first task runs.
func (r *Realm) DefineGlobal(name string, value any) {
	_ = r.global.DefineDataProperty(name, r.vm.ToValue(value), sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_FALSE)
}

// DefineGlobalFunction defines a function property of the global object
// with the given length, like a WebIDL operation of the global interface
// (writable, enumerable, configurable). Loop goroutine only, or before the
// first task runs.
func (r *Realm) DefineGlobalFunction(name string, length int, fn func(sobek.FunctionCall) sobek.Value) {
	r.defineMethod(r.global, name, length, func(call sobek.FunctionCall) sobek.Value {
		r.checkGlobalThis(call.This)
		return fn(call)
	})
}

// checkGlobalThis is the brand check of members of the global interface:
// undefined and null mean the global; any other object must be it.
func (r *Realm) checkGlobalThis(this sobek.Value) {
	if this == nil || sobek.IsUndefined(this) || sobek.IsNull(this) {
		return
	}
	if o, ok := this.(*sobek.Object); ok && o == r.global {
		return
	}
	panic(r.vm.NewTypeError("Illegal invocation"))
}

// DefineGlobalGetter defines an accessor property of the global object
// (enumerable, configurable) whose getter runs get.
func (r *Realm) DefineGlobalGetter(name string, get func() sobek.Value) {
	g := r.newFunction("get "+name, 0, func(call sobek.FunctionCall) sobek.Value {
		r.checkGlobalThis(call.This)
		return get()
	})
	_ = r.global.DefineAccessorProperty(name, g, nil, sobek.FLAG_TRUE, sobek.FLAG_TRUE)
}

// Value returns the value stored under key by SetValue (per-realm storage
// for integrators, for example the go product's document). Loop goroutine
// only.
func (r *Realm) Value(key any) any { return r.extra[key] }

// SetValue stores a per-realm value under key. Loop goroutine only.
func (r *Realm) SetValue(key, value any) { r.extra[key] = value }

// newFunction creates a native function object with the given name and
// length (configurable, non-writable, non-enumerable as for built-ins).
func (r *Realm) newFunction(name string, length int, fn func(sobek.FunctionCall) sobek.Value) *sobek.Object {
	f := r.vm.ToValue(fn).ToObject(r.vm)
	_ = f.DefineDataProperty("name", r.vm.ToValue(name), sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_FALSE)
	_ = f.DefineDataProperty("length", r.vm.ToValue(length), sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_FALSE)
	return f
}

// defineMethod defines an operation-like property: writable, enumerable,
// configurable.
func (r *Realm) defineMethod(obj *sobek.Object, name string, length int, fn func(sobek.FunctionCall) sobek.Value) {
	_ = obj.DefineDataProperty(name, r.newFunction(name, length, fn), sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_TRUE)
}

// throwValue converts a JavaScript value into the error sobek uses to throw
// it.
func (r *Realm) throwValue(v sobek.Value) error {
	var err error
	ex := r.vm.Try(func() { panic(v) })
	if ex != nil {
		err = ex
	}
	return err
}

// printer hands a formatted console message to the hooks.
func (r *Realm) printer(level ConsoleLevel, msg string) {
	if r.opts.Console != nil {
		r.opts.Console(level, msg)
		return
	}
	if w := r.opts.ConsoleWriter; w != nil {
		fmt.Fprintf(w, "%s: %s\n", level, msg)
	}
}

// microtaskCheckpoint is the realm's part of HTML's "perform a microtask
// checkpoint", run by the event loop after every task: it drains sobek's job
// queue (normally already empty: sobek drains it whenever the outermost
// JavaScript call returns) and notifies about rejected promises.
func (r *Realm) microtaskCheckpoint() {
	if r.closedOnLoop {
		return
	}
	if r.drain == nil {
		r.drain, _ = sobek.AssertFunction(r.vm.ToValue(func(sobek.FunctionCall) sobek.Value { return sobek.Undefined() }))
	}
	// Calling any function from Go with no JavaScript on the stack makes
	// sobek run its pending jobs when the call returns.
	_, _ = r.drain(sobek.Undefined())
	r.notifyAboutRejectedPromises()
}

func (r *Realm) newGlobal(info envInfo) any {
	t := &dom.EventTarget{}
	et := r.newEventTargetImpl(t)
	r.globalTarget = et
	base := globalBase{eventTargetImpl: et, info: info}
	perfTarget := &dom.EventTarget{}
	base.perf = &performanceImpl{eventTargetImpl: r.newEventTargetImpl(perfTarget)}
	perfTarget.Owner = base.perf
	if r.kind == WindowGlobal {
		w := &windowImpl{globalBase: base}
		t.Owner = w
		w.location = newLocation(r, hrefOf(info.url))
		w.document = r.newWindowDocument(w, info.url)
		return w
	}
	wg := &workerGlobalImpl{globalBase: base, location: &workerLocationImpl{url: info.url}}
	t.Owner = wg
	if r.kind == ServiceWorkerGlobal {
		sg := &serviceWorkerGlobalImpl{workerGlobalImpl: wg}
		t.Owner = sg
		return sg
	}
	return wg
}

// baseURL is the API base URL of the realm: the document's base URL for
// windows, the creation URL for workers.
func (r *Realm) baseURL() string {
	if d := r.Document(); d != nil {
		n := r.nodeImpl(&d.Node).(DocumentMethods).idlImpl()
		s, _ := n.BaseURI()
		return s
	}
	if r.env != nil {
		return r.env.CreationURL().String()
	}
	return "about:blank"
}

func realmOf(r *webidl.Realm) *Realm { return r.Data.(*Realm) }
