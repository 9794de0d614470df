package webidl

import (
	"errors"
	"fmt"
	"sync"
	"weak"

	"github.com/grafana/sobek"
)

// Realm is the binding state of one JavaScript realm: the sobek runtime, its
// global object, the interface objects and prototypes installed in it, and
// the internal slots linking platform objects to their Go implementations.
//
// A Realm, like its sobek.Runtime, belongs to one goroutine (its event loop).
type Realm struct {
	VM *sobek.Runtime

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
	// ForeignThis, when set, is asked about a this value that failed the
	// brand check of an operation or attribute: a non-nil error is thrown
	// instead of the TypeError. A host whose windows reach other windows'
	// objects (a membrane) returns a SecurityError for a cross-origin
	// Window or Location, as Web IDL's PerformSecurityCheck does before
	// the brand check.
	ForeignThis func(this sobek.Value) error
	// ForeignMember, when set, is asked about a this value that failed the
	// brand check of an operation or attribute of the interface iface
	// (after ForeignThis): a host whose windows reach other windows'
	// objects through a membrane returns, for a platform object of another
	// realm implementing iface, a function performing a member there, as
	// one heap shared by the realms of an agent would
	// (`window.Response.prototype.bytes.call(new frame.Response(""))`
	// gives the frame's Uint8Array). perform gets the member's name, the
	// kind (an operation, an attribute's getter with no arguments, or its
	// setter with one) and the arguments, and returns the member's result
	// or panics with a thrown exception. A nil perform keeps the TypeError.
	ForeignMember func(this sobek.Value, iface string) (perform func(member string, kind ForeignKind, args []sobek.Value) sobek.Value)
	// ForeignObject, when set, is asked about an object that an IDL
	// conversion to an interface type (an argument, a dictionary member, a
	// union's or an overload's interface alternative) finds not to be a
	// platform object of this realm: a host whose realms of one agent
	// reach each other's objects through a membrane returns, for its view
	// of an object of another realm of the agent, that realm and the
	// object itself there (nil when v is no such view). A platform object
	// implements its interfaces whatever realm it belongs to, so the
	// conversion gives the other realm's implementation
	// (ConvertsToInterface), as one heap shared by the realms of an agent
	// would (`fetch(url, {signal: parent.controller.signal})` in a
	// frame).
	ForeignObject func(v *sobek.Object) (other *Realm, obj *sobek.Object)
	// ForeignValue, when set, gives v, a value of realm from (another
	// realm of this realm's agent), as a value of this realm: the host's
	// view of it (nil when from is out of reach, a closed realm for
	// example). Wrap uses it for an implementation whose object belongs
	// to another realm (see ForeignObject), so the object keeps its
	// identity; bindings use it for the values such implementations hold.
	ForeignValue func(from *Realm, v sobek.Value) sobek.Value
	// CrossOriginIsolated is the realm's cross-origin isolated capability;
	// it decides [CrossOriginIsolated].
	CrossOriginIsolated bool

	// ErrorToJS, when set, is asked first to turn a Go error returned by an
	// implementation into the JavaScript value to throw; it returns false to
	// let the default mapping run. The realms layer uses it to map
	// *dom.DOMException to JavaScript DOMException objects.
	ErrorToJS func(r *Realm, err error) (sobek.Value, bool)

	// Data is free for the embedder (for example its settings object).
	Data any

	// global is the global object script sees: target itself, or a
	// Proxy of it while interfaces are created lazily (see lazy.go).
	global *sobek.Object
	target *sobek.Object
	// Eager, set before Install, creates every exposed interface up front
	// instead of on first use (see lazy.go).
	Eager                                           bool
	interfaces                                      map[string]*InterfaceObject
	plans                                           []*installPlan  // of the installed registries
	pendingCount                                    int             // plan interfaces not created yet
	keysDone                                        map[string]bool // plan keys defined (or dropped)
	deferKeys                                       bool
	memberPlans                                     []*globalMemberPlan            // of the global's [Global] interfaces
	membersDone                                     map[string]bool                // their members defined (or dropped)
	pendingMemberCount                              int                            // their members not defined yet
	pendingHost                                     map[string]func(*sobek.Object) // see DefineGlobalLazily
	hostOrder                                       []string                       // pendingHost's names, in the order given
	traps                                           *sobek.ProxyTrapConfig         // the global proxy's (nil: no proxy)
	hook, hookTarget                                *sobek.Object                  // the global interface's prototype object (a proxy) and its target
	hookTraps                                       *sobek.ProxyTrapConfig
	objectProto, arrayProto                         *sobek.Object
	arrayIterFns                                    [len(arrayIteratorNames)]sobek.Value // %Array.prototype%'s arrayIteratorNames
	publicFn, realFn                                map[*sobek.Object]*sobek.Object      // see publicAccessor
	keyValues                                       map[string]sobek.Value               // see keyValue
	trapArgs                                        [3]sobek.Value
	slots                                           slotTable
	iterProto                                       *sobek.Object // %IteratorPrototype% (see intrinsicIteratorPrototype)
	promiseCtor                                     *sobek.Object
	errorCtor                                       *sobek.Object
	promiseThen                                     sobek.Callable
	hasOwnProperty                                  sobek.Callable
	syms                                            map[string]*sobek.Symbol
	globalImpl                                      any
	autoGlobalNames                                 bool
	lastObj                                         *sobek.Object
	lastSlot                                        *slot
	toStringFn                                      sobek.Callable
	reflectGet, reflectSet, reflectGOPD, reflectHas sobek.Callable
	reflectDefine, reflectDelete                    sobek.Callable
	reflectOwnKeys, reflectPrevent                  sobek.Callable
	ctorFactory                                     sobek.Callable
	ctorImpl                                        sobek.Value                                                       // see constructorFunction
	ctors                                           []func(newTarget *sobek.Object, args []sobek.Value) *sobek.Object // by index
	iterProtos                                      map[string]*sobek.Object
	asyncIterProto                                  *sobek.Object
	typedArrayTag                                   sobek.Callable
	dataViewLen                                     sobek.Callable
	// slotHolder is a WeakMap (never exposed to script) whose entries
	// make a platform object hold its own slot (see setSlot); sobek keeps
	// a WeakMap's value in its key object.
	slotHolder    *sobek.Object
	slotHolderSet sobek.Callable
	// promiseExecutor is the executor InitPromise passes to %Promise%;
	// it leaves the resolving functions in execResolve and execReject.
	promiseExecutor         []sobek.Value
	execResolve, execReject sobek.Value
	settleArgs              [2]sobek.Value // see Promise.settle
	// funcCall is %Function.prototype.call%, taken before any script
	// runs: Promise.settle calls a resolving function through it.
	funcCall sobek.Callable
	// slotCache holds the slots getSlot found before lastObj's, newest
	// first (see getSlot).
	slotCache [3]slotCacheEntry

	// memberThis and memberSeq: see enterMember (foreign.go).
	memberThis memberFrame
	memberSeq  uint64
}

// slotCacheEntry is an entry of Realm.slotCache.
type slotCacheEntry struct {
	obj *sobek.Object
	s   *slot
}

// slot is the value kept in a platform object's internal slot.
type slot struct {
	impl  any
	iface *InterfaceObject
	cache map[string]sobek.Value
}

// NewRealm prepares the binding state for vm. The global object is
// vm.GlobalObject() until SetGlobal installs a [Global] interface on it.
func NewRealm(vm *sobek.Runtime, globalName string, globalNames []string, secure bool) *Realm {
	r := &Realm{
		VM:            vm,
		GlobalName:    globalName,
		GlobalNames:   globalNames,
		SecureContext: secure,
		global:        vm.GlobalObject(),
		target:        vm.GlobalObject(),
		interfaces:    map[string]*InterfaceObject{},
	}
	if len(r.GlobalNames) == 0 && globalName != "" {
		// Until Install reads the global interface's [Global] names.
		r.GlobalNames = []string{globalName}
		r.autoGlobalNames = true
	}
	g := vm.GlobalObject()
	get := func(name string) *sobek.Object { return g.Get(name).(*sobek.Object) }
	r.promiseCtor = get("Promise")
	r.errorCtor = get("Error")
	promiseProto := r.promiseCtor.Get("prototype").(*sobek.Object)
	r.promiseThen, _ = sobek.AssertFunction(promiseProto.Get("then"))
	// %Object.prototype% and %Array.prototype% are the [[Prototype]] of
	// what NewObject and NewArray make (this does not build the Object
	// and Array constructors).
	r.objectProto = vm.NewObject().Prototype()
	r.arrayProto = vm.NewArray().Prototype()
	r.hasOwnProperty, _ = sobek.AssertFunction(r.objectProto.Get("hasOwnProperty"))
	// Taken before any script runs: value iterable interfaces (created
	// lazily, see lazy.go) share them, and "values" gives
	// %IteratorPrototype% (see intrinsicIteratorPrototype).
	for i, n := range arrayIteratorNames {
		r.arrayIterFns[i] = r.arrayProto.Get(n)
	}
	// Taken before any script runs (script can replace WeakMap.prototype.set).
	weakMap := get("WeakMap")
	r.slotHolderSet, _ = sobek.AssertFunction(weakMap.Get("prototype").(*sobek.Object).Get("set"))
	if h, err := vm.New(weakMap); err == nil {
		r.slotHolder = h
	}
	// %Function.prototype% is %Promise%'s [[Prototype]] (still, before
	// any script; this does not build the Function constructor).
	r.funcCall, _ = sobek.AssertFunction(r.promiseCtor.Prototype().Get("call"))
	return r
}

// HasOwnProperty reports whether obj has an own property name (the
// intrinsic %Object.prototype.hasOwnProperty%; a proxy's trap may run).
// Unlike listing obj's own property names it does not make sobek create
// every lazily built property of the object (the global object's
// built-ins).
func (r *Realm) HasOwnProperty(obj *sobek.Object, name string) bool {
	v, err := r.hasOwnProperty(obj, StringValue(name))
	return err == nil && v.ToBoolean()
}

// intrinsicIteratorPrototype returns %IteratorPrototype%, the [[Prototype]] of
// %ArrayIteratorPrototype%. It is looked up on first use: sobek builds its
// built-ins lazily, and a realm whose interfaces have no iterable
// declaration never needs it. It calls %Array.prototype.values% as read
// by NewRealm, not what script may have put in its place.
func (r *Realm) intrinsicIteratorPrototype() *sobek.Object {
	if r.iterProto == nil {
		arr := r.VM.NewArray()
		values, _ := sobek.AssertFunction(r.arrayIterFns[2])
		it, err := values(arr)
		if err != nil {
			panic(err)
		}
		r.iterProto = it.(*sobek.Object).Prototype().Prototype()
	}
	return r.iterProto
}

// Global returns the realm's global object (as script sees it: see
// lazy.go).
func (r *Realm) Global() *sobek.Object { return r.global }

// Interface returns an interface installed in the realm (creating it if it
// is exposed but not created yet), or nil.
func (r *Realm) Interface(name string) *InterfaceObject { return r.iface(name) }

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
//
// The value is the slot itself (strong), or a weak pointer to a slot that
// the object holds (see setSlot).
type slotTable struct {
	m map[weak.Pointer[sobek.Object]]slotEntry
	// live is the number of entries after the last sweep; the next sweep
	// runs when the table has doubled since, so sweeping costs O(1) per
	// insertion.
	live int
}

// slotEntry is a slotTable value: strong, or else weak.
type slotEntry struct {
	strong *slot
	weak   weak.Pointer[slot]
}

// set stores e for obj, sweeping out the entries of collected objects
// from time to time.
func (t *slotTable) set(obj *sobek.Object, e slotEntry) {
	if t.m == nil {
		t.m = make(map[weak.Pointer[sobek.Object]]slotEntry)
	}
	if len(t.m) >= 2*t.live+256 {
		for k := range t.m {
			if k.Value() == nil {
				delete(t.m, k)
			}
		}
		t.live = len(t.m)
	}
	t.m[weak.Make(obj)] = e
}

// get returns obj's slot, or nil.
func (t *slotTable) get(obj *sobek.Object) *slot {
	if len(t.m) == 0 {
		return nil
	}
	e, ok := t.m[weak.Make(obj)]
	if !ok {
		return nil
	}
	if e.strong != nil {
		return e.strong
	}
	return e.weak.Value()
}

// slotHolderValue is the value stored for an object in the realm's
// slotHolder WeakMap: a sobek.Value (undefined; script never reads it)
// carrying the object's slot.
type slotHolderValue struct {
	sobek.Value
	s *slot
}

// setSlot associates a platform object with its implementation.
//
// An implementation embedding a Reflector references its object, so a
// slot table holding the slot (and with it the implementation) strongly
// would keep the object alive for the realm's lifetime. For those, the
// object itself holds its slot (an entry of the realm's private WeakMap,
// which sobek stores in the key object) and the table only a weak
// pointer: the object, its slot and the implementation form a cycle that
// the Go collector frees once neither the page nor Go code references the
// object or the implementation. While Go code keeps the implementation,
// its Reflector keeps the object (and any expando properties) alive, so
// the object's identity stays unobservable.
func (r *Realm) setSlot(obj *sobek.Object, impl any, iface *InterfaceObject) {
	r.setSlotIn(obj, impl, iface, new(slot))
}

// setSlotIn is setSlot with the slot's storage given.
func (r *Realm) setSlotIn(obj *sobek.Object, impl any, iface *InterfaceObject, s *slot) {
	if err := iface.check(impl); err != nil {
		r.Throw(err)
	}
	*s = slot{impl: impl, iface: iface}
	if obj == r.lastObj {
		r.lastSlot = s
	}
	for i := range r.slotCache {
		if r.slotCache[i].obj == obj {
			r.slotCache[i].s = s
		}
	}
	e := slotEntry{strong: s}
	if _, ok := impl.(Reflected); ok && r.slotHolder != nil {
		if _, err := r.slotHolderSet(r.slotHolder, obj, slotHolderValue{Value: sobek.Undefined(), s: s}); err == nil {
			e = slotEntry{weak: weak.Make(s)}
		}
	}
	r.slots.set(obj, e)
}

func (r *Realm) getSlot(v sobek.Value) *slot {
	obj, ok := v.(*sobek.Object)
	if !ok {
		return nil
	}
	// A four-entry cache (lastObj, then slotCache): the objects a loop
	// works on skip the table lookup, which costs a weak-pointer look-up
	// of its own. `navigator.locks.request(...)` alone asks for three
	// slots (the global object's, the Navigator's, the LockManager's). A
	// slot replaced by setSlot replaces the cached one too.
	if obj == r.lastObj {
		return r.lastSlot
	}
	for i := range r.slotCache {
		if r.slotCache[i].obj == obj {
			return r.slotCache[i].s
		}
	}
	s := r.slots.get(obj)
	if s != nil {
		if r.lastObj != nil {
			copy(r.slotCache[1:], r.slotCache[:len(r.slotCache)-1])
			r.slotCache[0] = slotCacheEntry{r.lastObj, r.lastSlot}
		}
		r.lastObj, r.lastSlot = obj, s
	}
	return s
}

// Implements reports whether v is a platform object implementing the named
// interface (directly or through inheritance), and returns its Go
// implementation.
func (r *Realm) Implements(v sobek.Value, iface string) (any, bool) {
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

// ConvertsToInterface is the check of an IDL conversion to the interface
// type iface: whether v is a platform object implementing iface, of this
// realm or, through ForeignObject, of another realm of the agent; it
// returns the Go implementation. An object of another realm is admitted
// only when this realm's definition of iface is the one it was made with
// (both realms installed the same registry), so the implementation is of
// the Go type this realm's code expects. Use Implements for brand checks
// of this values (This), which must not leave the realm.
func (r *Realm) ConvertsToInterface(v sobek.Value, iface string) (any, bool) {
	if impl, ok := r.Implements(v, iface); ok {
		return impl, true
	}
	o, ok := v.(*sobek.Object)
	if !ok || r.ForeignObject == nil {
		return nil, false
	}
	other, obj := r.ForeignObject(o)
	if other == nil || other == r || obj == nil {
		return nil, false
	}
	s := other.getSlot(obj)
	if s == nil {
		return nil, false
	}
	for i := s.iface; i != nil; i = i.parent {
		if i.Name == iface {
			if i.def != r.defOf(iface) {
				return nil, false
			}
			return s.impl, true
		}
	}
	return nil, false
}

// defOf is the definition of the interface name in this realm, created
// or pending, or nil.
func (r *Realm) defOf(name string) *InterfaceDef {
	if io := r.interfaces[name]; io != nil {
		return io.def
	}
	return r.pendingDef(name)
}

// ImplOf returns the Go implementation behind a platform object, or nil.
func (r *Realm) ImplOf(v sobek.Value) any {
	if s := r.getSlot(v); s != nil {
		return s.impl
	}
	return nil
}

// Reflector caches a Go implementation's JavaScript wrapper. Implementations
// embed it (by value) so that the same JavaScript object is returned every
// time the implementation is converted to JavaScript.
type Reflector struct {
	obj   *sobek.Object
	realm *Realm
}

// WebIDLReflector returns r; it makes any type embedding Reflector a
// Reflected.
func (r *Reflector) WebIDLReflector() *Reflector { return r }

// Object returns the cached wrapper, or nil before the first wrap.
func (r *Reflector) Object() *sobek.Object { return r.obj }

// Realm returns the realm of the cached wrapper, or nil.
func (r *Reflector) Realm() *Realm { return r.realm }

// Reflected is implemented by Go implementations embedding Reflector.
type Reflected interface{ WebIDLReflector() *Reflector }

// Interfaced is implemented by Go implementations that name their most
// derived interface; Wrap then uses it instead of the declared type.
type Interfaced interface{ WebIDLInterface() string }

// Self performs the brand check of a regular member (see This) for
// generated code and gives the implementation as its Methods interface
// T. The type assertion cannot fail for a generated interface: its
// InterfaceDef.Implements admits only implementations of T, and every
// platform object is made with an implementation its interface admits.
func Self[T any](r *Realm, this sobek.Value, iface string) T {
	return r.This(this, iface).(T)
}

// As converts a JavaScript value to an interface type for generated code
// (ToInterface): as for Self, the implementation is a T.
func As[T any](r *Realm, v sobek.Value, iface string) T {
	return r.ToInterface(v, iface).(T)
}

// Undefined is the Go type of the IDL undefined type (inside unions).
type Undefined struct{}

// Wrap returns the JavaScript platform object for impl, an implementation of
// the interface iface: the cached one when impl embeds a Reflector, else a
// new object. A nil impl gives null.
//
// Wrap is untyped (impl is any value, iface a string): generated code
// calls it, and hand-written code calls the generated typed idlWrapX and
// idlWrapNewX of a package generated with an implementations file
// (codegen.Options.Impls), whose impl must implement XMethods.
func (r *Realm) Wrap(impl any, iface string) sobek.Value {
	return r.wrap(impl, iface, nil)
}

func (r *Realm) wrap(impl any, iface string, storage *Slot) sobek.Value {
	if impl == nil {
		return sobek.Null()
	}
	if v, ok := impl.(sobek.Value); ok {
		if h, ok := v.(interface{ HostValue() sobek.Value }); ok {
			// A Go type carrying an embedder's value (it embeds
			// sobek.Value): the runtime only knows the value itself.
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
			// The object of another realm of the agent (an argument
			// ConvertsToInterface admitted, given back): the same object,
			// as this realm's view of it.
			if r.ForeignValue != nil && refl.realm != nil {
				if v := r.ForeignValue(refl.realm, refl.obj); v != nil {
					return v
				}
			}
		}
	}
	io := r.iface(iface)
	if d, ok := impl.(Interfaced); ok {
		// A more derived interface the implementation declares.
		if dio := r.iface(d.WebIDLInterface()); dio != nil {
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
	if storage != nil {
		r.setSlotIn(obj, impl, io, &storage.s)
	} else {
		r.setSlot(obj, impl, io)
	}
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

// check returns an error when impl cannot be the implementation of an
// object of the interface (InterfaceDef.Implements).
func (io *InterfaceObject) check(impl any) error {
	if io == nil || io.def.Implements == nil || io.def.Implements(impl) {
		return nil
	}
	if impl == nil {
		return NewTypeError("no implementation for an object of %s", io.Name)
	}
	return NewTypeError("%T does not implement the interface %s (its Methods interface, or the Go type that implementations.txt names)", impl, io.Name)
}

// Slot is the storage of a platform object's internal slot (see WrapNew).
type Slot struct{ s slot }

// WrapNew is Wrap for an implementation that is wrapped at most once (it
// embeds no Reflector): the new object's internal slot is stored in
// storage, which the implementation usually embeds, saving an
// allocation. storage must not be used for another object, unless the
// objects are made with the same implementation and interface, and the
// interface has no [SameObject] attribute (nothing is then stored per
// object in the slot: objects of an immutable implementation may share
// one storage).
func (r *Realm) WrapNew(impl any, iface string, storage *Slot) sobek.Value {
	return r.wrap(impl, iface, storage)
}

// newPlatformObject creates an object with the given prototype; for
// interfaces whose prototype chain reaches %Error.prototype% (DOMException)
// it is an Error instance so that it has [[ErrorData]] and a stack.
func (r *Realm) newPlatformObject(io *InterfaceObject, proto *sobek.Object) *sobek.Object {
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
func (r *Realm) Symbol(name string) *sobek.Symbol {
	switch name {
	case "iterator":
		return sobek.SymIterator
	case "toStringTag":
		return sobek.SymToStringTag
	case "unscopables":
		return sobek.SymUnscopables
	case "asyncIterator":
		if r.syms == nil {
			r.syms = map[string]*sobek.Symbol{}
		}
		if s, ok := r.syms[name]; ok {
			return s
		}
		v := r.VM.GlobalObject().Get("Symbol").(*sobek.Object).Get("asyncIterator")
		if s, ok := v.(*sobek.Symbol); ok {
			r.syms[name] = s
			return s
		}
		s := sobek.NewSymbol("Symbol.asyncIterator")
		r.syms[name] = s
		return s
	}
	panic("webidl: unknown well-known symbol " + name)
}

// CachedAttribute implements [SameObject] for attribute getters: the
// first value compute returns for (this object, name) is remembered and
// returned from then on.
func (r *Realm) CachedAttribute(this sobek.Value, name string, compute func() sobek.Value) sobek.Value {
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
		s.cache = map[string]sobek.Value{}
	}
	s.cache[name] = v
	return v
}

var (
	constOnce sync.Once
	constVM   *sobek.Runtime
)

// ConstValue converts a Go bool, integer, float64 or string to a
// JavaScript primitive without a realm (primitives are shared by all
// runtimes); generated code uses it for constants and default values.
func ConstValue(v any) sobek.Value {
	switch x := v.(type) {
	case string:
		return StringValue(x)
	case nil:
		return sobek.Null()
	}
	constOnce.Do(func() { constVM = NewRuntime() })
	return constVM.ToValue(v)
}

// ThisObject returns the this value of a member as an object (the global
// object for null or undefined), throwing a TypeError otherwise.
func (r *Realm) ThisObject(this sobek.Value) *sobek.Object {
	if IsNullish(this) {
		return r.global
	}
	o, ok := this.(*sobek.Object)
	if !ok {
		r.ThrowTypeError("%s", IllegalInvocation)
	}
	return o
}

// isUncatchable reports whether err is one of sobek's uncatchable errors
// (the runtime was interrupted, for example because its realm closed).
func isUncatchable(err error) bool {
	var ie *sobek.InterruptedError
	return errors.As(err, &ie)
}
