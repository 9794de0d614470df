package membrane

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"unsafe"
	"weak"

	"github.com/grafana/sobek"
)

// Membrane joins the sobek runtimes of one agent: a value of one runtime can
// be wrapped for use in another, and every value crossing through a wrapper
// is wrapped in turn. All runtimes of a Membrane, and the Membrane itself,
// must be used on one goroutine (the agent's event loop); only the garbage
// collector's cleanups touch its caches from elsewhere, under a mutex.
type Membrane struct {
	realms map[*sobek.Runtime]*realm
	dirs   map[dirKey]*direction

	// mu guards the weak caches below and in every direction: runtime
	// cleanups remove dead entries from another goroutine.
	mu sync.Mutex
	// wrappers maps every proxy the membrane made (by address) to the
	// wrapper behind it.
	wrappers map[uintptr]weak.Pointer[wrapper]

	// MaxDepth bounds nested crossings (DefaultMaxDepth unless set): a
	// crossing beyond it throws a RangeError in the runtime that crossed,
	// as endless recursion between windows does in browsers. Each
	// crossing uses Go stack, which sobek's SetMaxCallStackSize, counting
	// per runtime, does not bound.
	MaxDepth int
	depth    int
}

// DefaultMaxDepth is the default Membrane.MaxDepth.
const DefaultMaxDepth = 1000

type dirKey struct{ from, to *realm }

// addr is the identity of an object as a map key. sobek objects live on
// the heap and Go's collector does not move objects, so an address is
// stable while the object lives; the maps keyed by addresses hold weak
// pointers to the wrapper, which holds the object, and every hit is
// checked against the object itself, so a reused address cannot alias.
func addr(o *sobek.Object) uintptr { return uintptr(unsafe.Pointer(o)) }

// wrapperOf returns the wrapper whose proxy is o, if o is one.
func (m *Membrane) wrapperOf(o *sobek.Object) *wrapper {
	m.mu.Lock()
	w := m.wrappers[addr(o)].Value()
	m.mu.Unlock()
	if w == nil || w.proxy != o {
		return nil
	}
	return w
}

// New returns an empty membrane.
func New() *Membrane {
	return &Membrane{
		realms:   map[*sobek.Runtime]*realm{},
		dirs:     map[dirKey]*direction{},
		wrappers: map[uintptr]weak.Pointer[wrapper]{},
		MaxDepth: DefaultMaxDepth,
	}
}

// ErrNotAdded is returned (or panicked with, by Wrap) when a runtime was
// not added to the membrane.
var ErrNotAdded = errors.New("membrane: runtime not added to the membrane")

// Add joins vm to the membrane. It captures vm's intrinsics (Reflect's
// functions, Promise.prototype.then, Symbol.for/keyFor) from its global
// object, so call it before any untrusted script runs in vm — right after
// the realm is created. If vm is idle, its pending jobs run.
func (m *Membrane) Add(vm *sobek.Runtime) error {
	if _, ok := m.realms[vm]; ok {
		return nil
	}
	r, err := newRealm(m, vm)
	if err != nil {
		return err
	}
	m.realms[vm] = r
	return nil
}

// Remove takes vm out of the membrane. Wrappers already handed out keep
// working (they hold what they need, as a removed iframe's objects stay
// usable in browsers); Wrap with vm panics with ErrNotAdded, and an
// object of vm reached through a third runtime's wrapper throws a
// TypeError instead of being wrapped anew.
func (m *Membrane) Remove(vm *sobek.Runtime) {
	r := m.realms[vm]
	if r == nil {
		return
	}
	delete(m.realms, vm)
	for _, x := range m.realms {
		if x.drainIn == r {
			// Its drain job may never run now.
			x.drainPending, x.drainIn = false, nil
		}
	}
	for k := range m.dirs {
		if k.from == r || k.to == r {
			delete(m.dirs, k)
		}
	}
}

// Wrap returns v, a value of runtime from, for use in runtime to.
// Primitives are returned as they are (sobek's primitive values, symbols
// included, are not bound to a runtime); a registered symbol
// (Symbol.for) becomes the symbol registered under the same key in to.
// Objects become proxies in to whose traps forward to the object,
// wrapping every value that crosses in either direction; the same object
// always yields the same proxy while that proxy is alive, and wrapping a
// wrapper back into its origin runtime returns the original object.
// Wrap panics with ErrNotAdded if a runtime was not added.
func (m *Membrane) Wrap(from, to *sobek.Runtime, v sobek.Value) sobek.Value {
	if from == to {
		return v
	}
	return m.dir(m.mustRealm(from), m.mustRealm(to)).wrap(v)
}

// Unwrap returns the object behind v and the runtime it belongs to, if v
// is a wrapper made by the membrane; otherwise v and nil. Hosts use it
// where an operation needs the real object rather than a stand-in, e.g. a
// WebIDL conversion expecting a platform object of another window of the
// agent (a node adopted from a same-origin frame), or structured cloning.
func (m *Membrane) Unwrap(v sobek.Value) (sobek.Value, *sobek.Runtime) {
	o, ok := v.(*sobek.Object)
	if !ok || o.ExportType() != proxyType {
		return v, nil
	}
	if w := m.wrapperOf(o); w != nil {
		return w.t, w.d.from.vm
	}
	return v, nil
}

// SetPolicy installs (nil: removes) the policy consulted when runtime to
// uses wrappers of objects of runtime from. It applies to wrappers created
// before and after the call.
func (m *Membrane) SetPolicy(from, to *sobek.Runtime, p *Policy) {
	m.dir(m.mustRealm(from), m.mustRealm(to)).policy = p
}

// Checkpoint runs the jobs (promise reactions) that crossings queued in
// runtimes that were idle at the time. Crossings made by JavaScript need
// no help (see the package documentation): call Checkpoint after Go code
// used wrappers with no JavaScript running, or let the event loop's
// microtask checkpoint drain every runtime.
func (m *Membrane) Checkpoint() {
	for {
		var next *realm
		for _, r := range m.realms {
			if r.jobsQueued {
				next = r
				break
			}
		}
		if next == nil {
			return
		}
		next.jobsQueued = false
		next.drain()
	}
}

func (m *Membrane) mustRealm(vm *sobek.Runtime) *realm {
	r := m.realms[vm]
	if r == nil {
		panic(ErrNotAdded)
	}
	return r
}

func (m *Membrane) dir(from, to *realm) *direction {
	k := dirKey{from, to}
	d := m.dirs[k]
	if d == nil {
		d = &direction{m: m, from: from, to: to,
			cache:  map[uintptr]weak.Pointer[wrapper]{},
			opaque: map[opaqueKey]weak.Pointer[sobek.Object]{}}
		m.dirs[k] = d
	}
	return d
}

// realm is the membrane's view of one runtime.
type realm struct {
	m  *Membrane
	vm *sobek.Runtime

	// Intrinsics captured by Add.
	rangeError *sobek.Object
	get, set, has, deleteProperty, defineProperty, gopd, ownKeys,
	getPrototypeOf, setPrototypeOf, isExtensible, preventExtensions,
	symbolFor, symbolKeyFor, then, noop sobek.Callable
	resolved sobek.Value // a fulfilled promise, to queue jobs with then

	// Function.prototype[@@hasInstance], and the function standing for
	// it across the membrane (see hasInstanceBridge).
	hasInstanceObj *sobek.Object
	hasInstanceFn  sobek.Callable
	bridge         *sobek.Object

	// Shadow constructors are bound functions of ctorTemplate: they are
	// constructors without an own non-configurable "prototype", which a
	// wrapped constructor may lack (bound functions, some built-ins).
	bind         sobek.Callable
	ctorTemplate sobek.Value

	// enter's trampoline: getting holder.v calls a JavaScript getter that
	// calls the native next.
	holder *sobek.Object
	next   func()
	getV   func()
	depth  int

	// drainPending is set while a job that drains this runtime is queued
	// in another runtime (drainIn), drainStrong if a call queued it;
	// drainGen tells the live job from superseded ones. jobsQueued is set
	// while such jobs sit in this runtime.
	drainPending bool
	drainStrong  bool
	drainGen     int64
	drainIn      *realm
	jobsQueued   bool
}

var trampolineSrc = sobek.MustCompile("membrane-trampoline", `(function (g) { return { get v() { return g(); } }; })`, true)

func newRealm(m *Membrane, vm *sobek.Runtime) (*realm, error) {
	r := &realm{m: m, vm: vm}
	var err error
	callable := func(o sobek.Value, name string) sobek.Callable {
		if err != nil {
			return nil
		}
		obj, ok := o.(*sobek.Object)
		if !ok {
			err = fmt.Errorf("membrane: intrinsic %s missing", name)
			return nil
		}
		f, ok := sobek.AssertFunction(obj.Get(name))
		if !ok {
			err = fmt.Errorf("membrane: intrinsic %s is not a function", name)
		}
		return f
	}
	if ex := vm.Try(func() {
		refl := vm.GlobalObject().Get("Reflect")
		r.get = callable(refl, "get")
		r.set = callable(refl, "set")
		r.has = callable(refl, "has")
		r.deleteProperty = callable(refl, "deleteProperty")
		r.defineProperty = callable(refl, "defineProperty")
		r.gopd = callable(refl, "getOwnPropertyDescriptor")
		r.ownKeys = callable(refl, "ownKeys")
		r.getPrototypeOf = callable(refl, "getPrototypeOf")
		r.setPrototypeOf = callable(refl, "setPrototypeOf")
		r.isExtensible = callable(refl, "isExtensible")
		r.preventExtensions = callable(refl, "preventExtensions")
		r.rangeError, _ = vm.GlobalObject().Get("RangeError").(*sobek.Object)
		sym := vm.GlobalObject().Get("Symbol")
		r.symbolFor = callable(sym, "for")
		r.symbolKeyFor = callable(sym, "keyFor")
		p, resolve, _ := vm.NewPromise()
		if err == nil {
			err = resolve(sobek.Undefined())
		}
		r.resolved = vm.ToValue(p)
		r.then = callable(r.resolved, "then")
		// then reads the promise's constructor (SpeciesConstructor): an
		// own undefined one keeps page code (a replaced
		// Promise.prototype.constructor) out of the membrane's jobs.
		if err == nil {
			err = r.resolved.(*sobek.Object).DefineDataProperty("constructor", sobek.Undefined(), sobek.FLAG_FALSE, sobek.FLAG_FALSE, sobek.FLAG_FALSE)
		}
		if fp, ok := vm.GlobalObject().Get("Function").(*sobek.Object); ok {
			if proto, ok := fp.Get("prototype").(*sobek.Object); ok {
				r.hasInstanceObj, _ = proto.GetSymbol(sobek.SymHasInstance).(*sobek.Object)
				r.hasInstanceFn, _ = sobek.AssertFunction(r.hasInstanceObj)
				r.bind = callable(proto, "bind")
			}
		}
		if r.hasInstanceFn == nil && err == nil {
			err = errors.New("membrane: intrinsic Function.prototype[Symbol.hasInstance] missing")
		}
	}); ex != nil {
		return nil, ex
	}
	if err != nil {
		return nil, err
	}
	r.noop, _ = sobek.AssertFunction(vm.ToValue(func(sobek.FunctionCall) sobek.Value { return sobek.Undefined() }))
	mk, err := vm.RunProgram(trampolineSrc)
	if err != nil {
		return nil, err
	}
	mkf, _ := sobek.AssertFunction(mk)
	h, err := mkf(sobek.Undefined(), vm.ToValue(func(sobek.FunctionCall) sobek.Value {
		f := r.next
		r.next = nil
		f()
		return sobek.Undefined()
	}))
	if err != nil {
		return nil, err
	}
	r.holder = h.(*sobek.Object)
	r.ctorTemplate = vm.ToValue(shadowConstructor)
	r.bridge = vm.ToValue(r.hasInstanceBridge).(*sobek.Object)
	_ = r.bridge.DefineDataProperty("name", vm.ToValue("[Symbol.hasInstance]"), sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_FALSE)
	_ = r.bridge.DefineDataProperty("length", vm.ToValue(1), sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_FALSE)
	r.getV = func() { r.holder.Get("v") }
	return r, nil
}

// enter runs f inside r's runtime with JavaScript on r's call stack, so
// that sobek does not run r's job queue when f's calls return (it would run
// it, mid-script, when a call from Go finds the stack empty). Exceptions
// thrown in r come back as ex; uncatchable ones (interrupts, stack
// overflow) as fatal.
func (r *realm) enter(f func()) (ex *sobek.Exception, fatal error) {
	defer func() {
		if x := recover(); x != nil {
			if err, ok := x.(error); ok && isUncatchable(err) {
				fatal = err
				return
			}
			panic(x)
		}
	}()
	r.depth++
	defer func() { r.depth-- }()
	if r.depth > 1 {
		// Already inside enter: JavaScript is on r's stack.
		return r.vm.Try(f), nil
	}
	r.next = f
	defer func() { r.next = nil }() // if the getter never ran (interrupt)
	return r.vm.Try(r.getV), nil
}

func isUncatchable(err error) bool {
	var ie *sobek.InterruptedError
	var so *sobek.StackOverflowError
	return errors.As(err, &ie) || errors.As(err, &so)
}

// drain runs r's job queue now if no JavaScript is on r's stack.
func (r *realm) drain() {
	r.jobsQueued = false
	_, _ = r.noop(sobek.Undefined())
}

// call calls an intrinsic (or any function) of r inside enter; errors are
// returned as thrown, never panicked.
func (r *realm) call(f sobek.Callable, this sobek.Value, args ...sobek.Value) (ret sobek.Value, ex *sobek.Exception, fatal error) {
	ex, fatal = r.enter(func() {
		var err error
		ret, err = f(this, args...)
		if err != nil {
			panic(err)
		}
	})
	return
}

// direction is one ordered pair of realms: objects of from wrapped for
// use in to.
type direction struct {
	m        *Membrane
	from, to *realm
	policy   *Policy
	rev      *direction

	// cache maps an object of from (by address) to its wrapper in to
	// (weak; see the package documentation on memory). Guarded by m.mu.
	cache map[uintptr]weak.Pointer[wrapper]
	// opaque caches the realm-local functions standing in for functions
	// of from reached through a cross-origin policy (HTML's
	// cross-origin property descriptor map). Guarded by m.mu.
	opaque map[opaqueKey]weak.Pointer[sobek.Object]

	drainFn sobek.Value // a function of to that drains from
}

func (d *direction) reverse() *direction {
	if d.rev == nil {
		d.rev = d.m.dir(d.to, d.from)
		d.rev.rev = d
	}
	return d.rev
}

// wrap turns a value of from into a value for to.
func (d *direction) wrap(v sobek.Value) sobek.Value {
	switch x := v.(type) {
	case nil:
		return sobek.Undefined()
	case *sobek.Object:
		return d.wrapObject(x)
	case *sobek.Symbol:
		return d.wrapSymbol(x)
	}
	return v
}

func (d *direction) wrapSymbol(s *sobek.Symbol) sobek.Value {
	// Well-known symbols are process-wide in sobek, and other symbols are
	// not bound to a runtime: they pass as they are, as symbols do between
	// the realms of a browser agent. A registered symbol is re-registered.
	key, ex, _ := d.from.call(d.from.symbolKeyFor, sobek.Undefined(), s)
	if ex != nil || key == nil || sobek.IsUndefined(key) {
		return s
	}
	ns, ex, _ := d.to.call(d.to.symbolFor, sobek.Undefined(), key)
	if ex != nil {
		return s
	}
	return ns
}

func (d *direction) wrapObject(o *sobek.Object) sobek.Value {
	m := d.m
	if o == d.from.hasInstanceObj || o == d.from.bridge {
		return d.to.bridge
	}
	if o.ExportType() == proxyType {
		if w := m.wrapperOf(o); w != nil {
			if w.d.from == d.to {
				return w.t
			}
			if m.realms[w.d.from.vm] != w.d.from {
				panic(d.to.vm.NewTypeError("membrane: the realm of this object was removed"))
			}
			return m.dir(w.d.from, d.to).wrapObject(w.t)
		}
	}
	m.mu.Lock()
	w := d.cache[addr(o)].Value()
	m.mu.Unlock()
	if w != nil && w.t == o {
		return w.proxy
	}
	return d.newWrapper(o)
}

var proxyType = reflect.TypeOf(sobek.Proxy{})

// register records w, whose proxy is new, in the caches; a cleanup drops
// the entries once w (with its proxy) is unreachable.
func (d *direction) register(w *wrapper) {
	ww := weak.Make(w)
	ko, kp := addr(w.t), addr(w.proxy)
	m := d.m
	m.mu.Lock()
	d.cache[ko] = ww
	m.wrappers[kp] = ww
	m.mu.Unlock()
	runtime.AddCleanup(w, func(c cleanupArg) {
		c.m.mu.Lock()
		if c.cache[c.obj] == c.w {
			delete(c.cache, c.obj)
		}
		if c.m.wrappers[c.proxy] == c.w {
			delete(c.m.wrappers, c.proxy)
		}
		c.m.mu.Unlock()
	}, cleanupArg{m: m, cache: d.cache, obj: ko, proxy: kp, w: ww})
}

type cleanupArg struct {
	m          *Membrane
	cache      map[uintptr]weak.Pointer[wrapper]
	obj, proxy uintptr
	w          weak.Pointer[wrapper]
}

// scheduleDrain makes sure the jobs that a crossing into d.from may have
// queued there run at a microtask checkpoint of d.to, the runtime whose
// code crossed: a job is queued in d.to that drains d.from. Jobs are
// usually queued by calls, seldom by property access, so the job is placed
// after the first call (strong) since d.from was last drained; a crossing
// of another kind queues one only when none is pending, and a later call
// supersedes it (its position was too early for what the call queues).
func (d *direction) scheduleDrain(strong bool) {
	f := d.from
	if f.drainPending && (f.drainStrong || !strong) {
		return
	}
	if d.drainFn == nil {
		d.drainFn = d.to.vm.ToValue(func(call sobek.FunctionCall) sobek.Value {
			if call.Argument(0).ToInteger() != f.drainGen || !f.drainPending {
				return sobek.Undefined() // superseded
			}
			f.drainPending = false
			f.drain()
			return sobek.Undefined()
		})
	}
	f.drainGen++
	f.drainPending, f.drainStrong, f.drainIn = true, strong, d.to
	d.to.jobsQueued = true
	to := d.to
	var ex *sobek.Exception
	var fatal error
	ex, fatal = to.enter(func() {
		job, err := to.bind(d.drainFn, sobek.Undefined(), to.vm.ToValue(f.drainGen))
		if err == nil {
			_, err = to.then(to.resolved, job)
		}
		if err != nil {
			panic(err)
		}
	})
	if ex != nil || fatal != nil {
		// then on a fulfilled promise of our own cannot throw unless the
		// runtime is being interrupted: drain now instead.
		f.drainPending = false
		f.drain()
	}
}

// hasInstanceBridge stands, in every runtime, for the
// Function.prototype[@@hasInstance] of all runtimes: sobek's version throws
// when this is a Proxy, which a function of another runtime is. For a
// wrapper it runs the original runtime's version on the original
// function; otherwise its own runtime's (OrdinaryHasInstance is the same
// algorithm in every realm).
func (r *realm) hasInstanceBridge(call sobek.FunctionCall) sobek.Value {
	if o, ok := call.This.(*sobek.Object); ok {
		m := r.m
		if w := m.wrapperOf(o); w != nil && m.realms[w.d.from.vm] == w.d.from {
			d := m.dir(w.d.from, r)
			return d.callIn(w.d.from.hasInstanceFn, w.t, d.reverse().wrap(call.Argument(0)))
		}
	}
	v, err := r.hasInstanceFn(call.This, call.Argument(0))
	if err != nil {
		panic(err)
	}
	return v
}

// tooDeep makes the RangeError thrown when crossings nest too deeply.
func (r *realm) tooDeep() sobek.Value {
	const msg = "Maximum call stack size exceeded (membrane crossings)"
	if r.rangeError != nil {
		if e, err := r.vm.New(r.rangeError, r.vm.ToValue(msg)); err == nil {
			return e
		}
	}
	return r.vm.NewGoError(errors.New(msg)) //lint:ignore ST1005 the text browsers give this RangeError
}
