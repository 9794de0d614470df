package webidl

import (
	"errors"
	"fmt"
	"sync"
	"weak"

	"github.com/dop251/goja"
)

// Realm is the binding state of one JavaScript realm: the goja runtime, its
// global object, the interface objects and prototypes installed in it, and
// the internal slots linking platform objects to their Go implementations.
//
// A Realm, like its goja.Runtime, belongs to one goroutine (its event loop).
type Realm struct {
	VM *goja.Runtime

	// GlobalName is the identifier of the global interface (for example
	// "Window" or "DedicatedWorkerGlobalScope"); it decides [Exposed].
	GlobalName string
	// GlobalNames is the global interface's exposure set: its own
	// identifier plus the names its [Global] extended attribute lists (for
	// example "Window"; "Worker" and "DedicatedWorker").
	GlobalNames []string
	// SecureContext says whether the realm's settings object is a secure
	// context; it decides [SecureContext].
	SecureContext bool
	// CrossOriginIsolated is the realm's cross-origin isolated capability;
	// it decides [CrossOriginIsolated].
	CrossOriginIsolated bool

	// ErrorToJS, when set, is asked first to turn a Go error returned by an
	// implementation into the JavaScript value to throw; it returns false to
	// let the default mapping run. The realms layer uses it to map
	// *dom.DOMException to JavaScript DOMException objects.
	ErrorToJS func(r *Realm, err error) (goja.Value, bool)

	// Data is free for the embedder (for example its settings object).
	Data any

	global                                          *goja.Object
	interfaces                                      map[string]*InterfaceObject
	slots                                           slotTable
	iterProto                                       *goja.Object // %IteratorPrototype% (see intrinsicIteratorPrototype)
	promiseCtor                                     *goja.Object
	errorCtor                                       *goja.Object
	typeErrorCtor                                   *goja.Object
	promiseThen                                     goja.Callable
	promiseResolve                                  goja.Callable
	hasOwnProperty                                  goja.Callable
	syms                                            map[string]*goja.Symbol
	globalImpl                                      any
	autoGlobalNames                                 bool
	lastObj                                         *goja.Object
	lastSlot                                        *slot
	toStringFn                                      goja.Callable
	reflectGet, reflectSet, reflectGOPD, reflectHas goja.Callable
	ctorFactory                                     goja.Callable
	iterProtos                                      map[string]*goja.Object
	asyncIterProto                                  *goja.Object
	typedArrayTag                                   goja.Callable
	dataViewLen                                     goja.Callable
}

// slot is the value kept in a platform object's internal slot.
type slot struct {
	impl  any
	iface *InterfaceObject
	cache map[string]goja.Value
}

// NewRealm prepares the binding state for vm. The global object is
// vm.GlobalObject() until SetGlobal installs a [Global] interface on it.
func NewRealm(vm *goja.Runtime, globalName string, globalNames []string, secure bool) *Realm {
	r := &Realm{
		VM:            vm,
		GlobalName:    globalName,
		GlobalNames:   globalNames,
		SecureContext: secure,
		global:        vm.GlobalObject(),
		interfaces:    map[string]*InterfaceObject{},
	}
	if len(r.GlobalNames) == 0 && globalName != "" {
		// Until Install reads the global interface's [Global] names.
		r.GlobalNames = []string{globalName}
		r.autoGlobalNames = true
	}
	g := vm.GlobalObject()
	get := func(name string) *goja.Object { return g.Get(name).(*goja.Object) }
	r.promiseCtor = get("Promise")
	r.errorCtor = get("Error")
	r.typeErrorCtor = get("TypeError")
	promiseProto := r.promiseCtor.Get("prototype").(*goja.Object)
	r.promiseThen, _ = goja.AssertFunction(promiseProto.Get("then"))
	r.promiseResolve, _ = goja.AssertFunction(r.promiseCtor.Get("resolve"))
	r.hasOwnProperty, _ = goja.AssertFunction(get("Object").Get("prototype").(*goja.Object).Get("hasOwnProperty"))
	return r
}

// HasOwnProperty reports whether obj has an own property name (the
// intrinsic %Object.prototype.hasOwnProperty%; a proxy's trap may run).
// Unlike listing obj's own property names it does not make goja create
// every lazily built property of the object (the global object's
// built-ins).
func (r *Realm) HasOwnProperty(obj *goja.Object, name string) bool {
	v, err := r.hasOwnProperty(obj, StringValue(name))
	return err == nil && v.ToBoolean()
}

// intrinsicIteratorPrototype returns %IteratorPrototype%, the [[Prototype]] of
// %ArrayIteratorPrototype%. It is looked up on first use: goja builds its
// built-ins lazily, and a realm whose interfaces have no iterable
// declaration never needs it.
func (r *Realm) intrinsicIteratorPrototype() *goja.Object {
	if r.iterProto == nil {
		arr := r.VM.NewArray()
		values, _ := goja.AssertFunction(arr.GetSymbol(goja.SymIterator))
		it, err := values(arr)
		if err != nil {
			panic(err)
		}
		r.iterProto = it.(*goja.Object).Prototype().Prototype()
	}
	return r.iterProto
}

// Global returns the realm's global object.
func (r *Realm) Global() *goja.Object { return r.global }

// Interface returns an interface installed in the realm, or nil.
func (r *Realm) Interface(name string) *InterfaceObject { return r.interfaces[name] }

// Exposed reports whether a construct with the given [Exposed] set (global
// names, or "*") and [SecureContext] flag is exposed in this realm.
func (r *Realm) Exposed(exposed []string, secureOnly bool) bool {
	if secureOnly && !r.SecureContext {
		return false
	}
	if len(exposed) == 0 {
		return true
	}
	for _, e := range exposed {
		if e == "*" {
			return true
		}
		for _, g := range r.GlobalNames {
			if e == g {
				return true
			}
		}
	}
	return false
}

// slotTable maps platform objects to their internal slots. Keys are weak:
// an entry goes when its object is collected (its value is then dropped
// by the next sweep). A Go map of weak pointers costs one small allocation
// per object, where a JavaScript WeakMap holding a Go value cost about ten
// (the value's reflection wrapper, a cleanup per key, the call's
// arguments).
type slotTable struct {
	m map[weak.Pointer[goja.Object]]*slot
	// live is the number of entries after the last sweep; the next sweep
	// runs when the table has doubled since, so sweeping costs O(1) per
	// insertion.
	live int
}

// set stores s for obj, sweeping out the entries of collected objects
// from time to time.
func (t *slotTable) set(obj *goja.Object, s *slot) {
	if t.m == nil {
		t.m = make(map[weak.Pointer[goja.Object]]*slot)
	}
	if len(t.m) >= 2*t.live+256 {
		for k := range t.m {
			if k.Value() == nil {
				delete(t.m, k)
			}
		}
		t.live = len(t.m)
	}
	t.m[weak.Make(obj)] = s
}

// get returns obj's slot, or nil.
func (t *slotTable) get(obj *goja.Object) *slot {
	if len(t.m) == 0 {
		return nil
	}
	return t.m[weak.Make(obj)]
}

// setSlot associates a platform object with its implementation.
func (r *Realm) setSlot(obj *goja.Object, impl any, iface *InterfaceObject) {
	s := &slot{impl: impl, iface: iface}
	if obj == r.lastObj {
		r.lastSlot = s
	}
	r.slots.set(obj, s)
}

func (r *Realm) getSlot(v goja.Value) *slot {
	obj, ok := v.(*goja.Object)
	if !ok {
		return nil
	}
	// A one-entry cache: consecutive calls on the same object (a loop of
	// lock requests on navigator.locks) skip the table lookup. A slot
	// replaced by setSlot replaces the cached one too.
	if obj == r.lastObj {
		return r.lastSlot
	}
	s := r.slots.get(obj)
	if s != nil {
		r.lastObj, r.lastSlot = obj, s
	}
	return s
}

// Implements reports whether v is a platform object implementing the named
// interface (directly or through inheritance), and returns its Go
// implementation.
func (r *Realm) Implements(v goja.Value, iface string) (any, bool) {
	s := r.getSlot(v)
	if s == nil {
		return nil, false
	}
	for i := s.iface; i != nil; i = i.parent {
		if i.Name == iface {
			return s.impl, true
		}
	}
	return nil, false
}

// ImplOf returns the Go implementation behind a platform object, or nil.
func (r *Realm) ImplOf(v goja.Value) any {
	if s := r.getSlot(v); s != nil {
		return s.impl
	}
	return nil
}

// Reflector caches a Go implementation's JavaScript wrapper. Implementations
// embed it (by value) so that the same JavaScript object is returned every
// time the implementation is converted to JavaScript.
type Reflector struct {
	obj   *goja.Object
	realm *Realm
}

// WebIDLReflector returns r; it makes any type embedding Reflector a
// Reflected.
func (r *Reflector) WebIDLReflector() *Reflector { return r }

// Object returns the cached wrapper, or nil before the first wrap.
func (r *Reflector) Object() *goja.Object { return r.obj }

// Realm returns the realm of the cached wrapper, or nil.
func (r *Reflector) Realm() *Realm { return r.realm }

// Reflected is implemented by Go implementations embedding Reflector.
type Reflected interface{ WebIDLReflector() *Reflector }

// Interfaced is implemented by Go implementations that name their most
// derived interface; Wrap then uses it instead of the declared type.
type Interfaced interface{ WebIDLInterface() string }

// Self performs the brand check of a regular member (see This) and
// asserts the implementation's Go type, throwing a TypeError when the
// implementation does not satisfy T.
func Self[T any](r *Realm, this goja.Value, iface string) T {
	impl := r.This(this, iface)
	t, ok := impl.(T)
	if !ok {
		r.ThrowTypeError("the implementation %T of %s does not implement its Methods interface", impl, iface)
	}
	return t
}

// As converts a JavaScript value to an interface type and asserts its Go
// implementation type (ToInterface plus a type assertion).
func As[T any](r *Realm, v goja.Value, iface string) T {
	impl := r.ToInterface(v, iface)
	t, ok := impl.(T)
	if !ok {
		r.ThrowTypeError("the implementation %T of %s does not implement its Methods interface", impl, iface)
	}
	return t
}

// Undefined is the Go type of the IDL undefined type (inside unions).
type Undefined struct{}

// Wrap returns the JavaScript platform object for impl, an implementation of
// the interface iface: the cached one when impl embeds a Reflector, else a
// new object. A nil impl gives null.
func (r *Realm) Wrap(impl any, iface string) goja.Value {
	if impl == nil {
		return goja.Null()
	}
	if v, ok := impl.(goja.Value); ok {
		if h, ok := v.(interface{ HostValue() goja.Value }); ok {
			// A Go type carrying an embedder's value (it embeds
			// goja.Value): the runtime only knows the value itself.
			return h.HostValue()
		}
		return v
	}
	var refl *Reflector
	if rf, ok := impl.(Reflected); ok {
		refl = rf.WebIDLReflector()
		if refl != nil && refl.obj != nil {
			if refl.realm == r {
				return refl.obj
			}
		}
	}
	io := r.interfaces[iface]
	if d, ok := impl.(Interfaced); ok {
		// A more derived interface the implementation declares.
		if dio := r.interfaces[d.WebIDLInterface()]; dio != nil {
			for i := dio; i != nil; i = i.parent {
				if i == io || io == nil {
					io = dio
					break
				}
			}
		}
	}
	if io == nil {
		panic(r.VM.NewTypeError(fmt.Sprintf("interface %s is not installed in this realm", iface)))
	}
	obj := r.newPlatformObject(io, io.Prototype)
	r.setSlot(obj, impl, io)
	io.def.defineUnforgeables(r, io, obj)
	if lp := io.legacy(); lp != nil {
		obj = r.legacyObject(obj, impl, lp)
		r.setSlot(obj, impl, io)
	}
	if refl != nil {
		refl.obj, refl.realm = obj, r
	}
	return obj
}

// newPlatformObject creates an object with the given prototype; for
// interfaces whose prototype chain reaches %Error.prototype% (DOMException)
// it is an Error instance so that it has [[ErrorData]] and a stack.
func (r *Realm) newPlatformObject(io *InterfaceObject, proto *goja.Object) *goja.Object {
	if io.errorLike {
		obj, err := r.VM.New(r.errorCtor)
		if err != nil {
			if isUncatchable(err) {
				return r.VM.CreateObject(proto)
			}
			panic(err)
		}
		_ = obj.SetPrototype(proto)
		return obj
	}
	return r.VM.CreateObject(proto)
}

// Symbol returns a well-known symbol by name ("iterator", "asyncIterator",
// "toStringTag", "unscopables").
func (r *Realm) Symbol(name string) *goja.Symbol {
	switch name {
	case "iterator":
		return goja.SymIterator
	case "toStringTag":
		return goja.SymToStringTag
	case "unscopables":
		return goja.SymUnscopables
	case "asyncIterator":
		if r.syms == nil {
			r.syms = map[string]*goja.Symbol{}
		}
		if s, ok := r.syms[name]; ok {
			return s
		}
		v := r.VM.GlobalObject().Get("Symbol").(*goja.Object).Get("asyncIterator")
		if s, ok := v.(*goja.Symbol); ok {
			r.syms[name] = s
			return s
		}
		s := goja.NewSymbol("Symbol.asyncIterator")
		r.syms[name] = s
		return s
	}
	panic("webidl: unknown well-known symbol " + name)
}

// CachedAttribute implements [SameObject] for attribute getters: the
// first value compute returns for (this object, name) is remembered and
// returned from then on.
func (r *Realm) CachedAttribute(this goja.Value, name string, compute func() goja.Value) goja.Value {
	if IsNullish(this) {
		this = r.global
	}
	s := r.getSlot(this)
	if s == nil {
		return compute()
	}
	if v, ok := s.cache[name]; ok {
		return v
	}
	v := compute()
	if s.cache == nil {
		s.cache = map[string]goja.Value{}
	}
	s.cache[name] = v
	return v
}

var (
	constOnce sync.Once
	constVM   *goja.Runtime
)

// ConstValue converts a Go bool, integer, float64 or string to a
// JavaScript primitive without a realm (primitives are shared by all
// runtimes); generated code uses it for constants and default values.
func ConstValue(v any) goja.Value {
	switch x := v.(type) {
	case string:
		return StringValue(x)
	case nil:
		return goja.Null()
	}
	constOnce.Do(func() { constVM = goja.New() })
	return constVM.ToValue(v)
}

// ThisObject returns the this value of a member as an object (the global
// object for null or undefined), throwing a TypeError otherwise.
func (r *Realm) ThisObject(this goja.Value) *goja.Object {
	if IsNullish(this) {
		return r.global
	}
	o, ok := this.(*goja.Object)
	if !ok {
		r.ThrowTypeError("%s", IllegalInvocation)
	}
	return o
}

// isUncatchable reports whether err is one of goja's uncatchable errors
// (the runtime was interrupted, for example because its realm closed).
func isUncatchable(err error) bool {
	var ie *goja.InterruptedError
	return errors.As(err, &ie)
}
