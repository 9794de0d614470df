package webidl

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/grafana/sobek"
)

// MemberKind tells an operation from an attribute.
type MemberKind uint8

// Member kinds.
const (
	Operation MemberKind = iota
	Attribute
)

// Member describes a regular or static operation or attribute as the
// generated code registers it. The generated functions do their own brand
// checks (Realm.This) and argument conversions.
type Member struct {
	Name string
	// Symbol, when set, is the property key instead of Name (for
	// @@iterator and @@asyncIterator); Name is then the function's name.
	Symbol string
	Kind   MemberKind
	Static bool
	// Unforgeable members ([LegacyUnforgeable]) live on every instance,
	// non-configurable.
	Unforgeable bool
	// NotEnumerable is set for the members WebIDL defines as
	// non-enumerable (@@iterator, @@asyncIterator).
	NotEnumerable bool
	// Exposure of the member itself (from the member or the partial
	// interface or mixin that declared it); empty Exposed means "as the
	// interface".
	Exposed             []string
	SecureContext       bool
	CrossOriginIsolated bool
	// Alias, for operations, names an operation defined before it on the
	// same object whose function object this property shares (entries and
	// @@iterator of pair iterables, for example).
	Alias string

	// Operation: the function's length and body.
	Length int
	Op     func(r *Realm, call sobek.FunctionCall) sobek.Value
	// Attribute: getter and optional setter (readonly attributes without
	// [Replaceable]/[PutForwards]/[LegacyLenientSetter] have none).
	Get func(r *Realm, this sobek.Value) sobek.Value
	Set func(r *Realm, this sobek.Value, v sobek.Value)
}

// Constant is an IDL constant: Value is a JavaScript primitive.
type Constant struct {
	Name          string
	Value         sobek.Value
	Exposed       []string
	SecureContext bool
}

// InterfaceDef describes an interface, callback interface with constants,
// or namespace for installation into realms.
type InterfaceDef struct {
	Name          string
	Parent        string
	Exposed       []string
	SecureContext bool
	// Namespace: a namespace object instead of an interface object.
	Namespace bool
	// Callback: a legacy callback interface object (constants only).
	Callback bool
	// Global: the interface has [Global]; its regular members are
	// defined on the global object itself.
	Global bool
	// GlobalNames: the identifiers of [Global=...] (the exposure set of a
	// realm whose global object implements this interface).
	GlobalNames []string
	// NamedPropertiesObject: a [Global] interface that supports named
	// properties gets a named properties object ("WindowProperties")
	// between its prototype and its parent's. Simplified: an ordinary
	// object with the class string (named lookups on it are not exotic).
	NamedPropertiesObject bool
	// NoInterfaceObject: [LegacyNoInterfaceObject].
	NoInterfaceObject bool
	// LegacyWindowAlias: extra global names of the interface object.
	LegacyWindowAlias []string
	// LegacyFactoryFunctions: named constructors.
	LegacyFactoryFunctions []FactoryFunction
	// Constructor, when non-nil, implements the constructor steps and
	// returns the new object's Go implementation. It is called with the
	// realm, the arguments and new.target.
	Constructor       func(r *Realm, args []sobek.Value, newTarget *sobek.Object) any
	ConstructorLength int
	Constants         []Constant
	Members           []Member
	// CrossOriginIsolated: [CrossOriginIsolated].
	CrossOriginIsolated bool
	// LegacyNamespace: the interface object is a property of this
	// namespace object instead of the global object.
	LegacyNamespace string
	// Unscopables: the [Unscopable] member names (@@unscopables).
	Unscopables []string
	// Legacy: indexed/named properties (legacy platform objects).
	Legacy *LegacyProperties
	// ValueIterator: an iterable<V> declaration (with an indexed getter):
	// @@iterator, entries, keys, values and forEach are %Array.prototype%'s.
	ValueIterator bool
	// ErrorPrototype makes the interface prototype object's [[Prototype]]
	// %Error.prototype% and instances Error objects (DOMException).
	ErrorPrototype bool
	// Implements reports whether a Go value implements the interface (its
	// Methods interface and its ancestors'). Every platform object of the
	// interface or of one inheriting from it is made with such a value:
	// Wrap, WrapNew, constructors and SetGlobalImpl throw a TypeError
	// before making an object of an implementation it rejects. The
	// generated code sets it, so the implementation found by This or
	// ToInterface for a generated interface always has the interface's
	// Go type. Nil accepts any value.
	Implements func(impl any) bool
}

// FactoryFunction is a [LegacyFactoryFunction].
type FactoryFunction struct {
	Name   string
	Length int
	Call   func(r *Realm, args []sobek.Value, newTarget *sobek.Object) any
}

// InterfaceObject is an interface installed in one realm.
type InterfaceObject struct {
	Name      string
	Object    *sobek.Object // the interface object (nil with [LegacyNoInterfaceObject])
	Prototype *sobek.Object // the interface prototype object
	def       *InterfaceDef
	parent    *InterfaceObject
	errorLike bool
	// members: the function objects defined for the regular members on
	// Prototype, by name (see Member).
	members map[string]memberFuncs
}

// memberFuncs are the function objects of one member: an operation's, or
// an attribute's getter and setter.
type memberFuncs struct{ op, get, set *sobek.Object }

func (io *InterfaceObject) recordMember(name string, op, get, set *sobek.Object) {
	if io.members == nil {
		io.members = map[string]memberFuncs{}
	}
	io.members[name] = memberFuncs{op, get, set}
}

// Member returns the function object this realm defined for the regular
// operation named member of the interface (kind ForeignOperation), or for
// its attribute's getter or setter, whatever script did to the prototype
// since; nil when there is none.
func (io *InterfaceObject) Member(member string, kind ForeignKind) *sobek.Object {
	for i := io; i != nil; i = i.parent {
		if f, ok := i.members[member]; ok {
			switch kind {
			case ForeignOperation:
				return f.op
			case ForeignGetter:
				return f.get
			default:
				return f.set
			}
		}
	}
	return nil
}

// legacy returns the nearest LegacyProperties of the interface or its
// ancestors (special operations are inherited).
func (io *InterfaceObject) legacy() *LegacyProperties {
	for i := io; i != nil; i = i.parent {
		if i.def.Legacy != nil {
			return i.def.Legacy
		}
	}
	return nil
}

// Def returns the definition the interface was installed from.
func (io *InterfaceObject) Def() *InterfaceDef { return io.def }

// Registry collects the definitions generated code registers; a realm
// installs the exposed ones.
type Registry struct {
	defs  map[string]*InterfaceDef
	order []string
	mu    sync.Mutex
	plans map[string]*installPlan // by exposure (see Install)
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{defs: map[string]*InterfaceDef{}} }

// Add registers a definition. Adding a name twice panics (a generator bug).
func (g *Registry) Add(d *InterfaceDef) {
	if _, dup := g.defs[d.Name]; dup {
		panic("webidl: duplicate definition " + d.Name)
	}
	g.defs[d.Name] = d
	g.order = append(g.order, d.Name)
	g.mu.Lock()
	g.plans = nil
	g.mu.Unlock()
}

// CheckNew returns an error when one of names is already registered
// (generated Register functions call it before adding anything).
func (g *Registry) CheckNew(names ...string) error {
	var dup []string
	for _, n := range names {
		if _, ok := g.defs[n]; ok {
			dup = append(dup, n)
		}
	}
	if len(dup) > 0 {
		return fmt.Errorf("webidl: already registered: %s", strings.Join(dup, ", "))
	}
	return nil
}

// MissingImplementations is the error of a generated Register function
// called without some of the Statics implementations it requires.
func MissingImplementations(statics []string) error {
	return fmt.Errorf("webidl: no implementation given for %s", strings.Join(statics, ", "))
}

// Lookup returns a registered definition.
func (g *Registry) Lookup(name string) *InterfaceDef { return g.defs[name] }

// Names returns the registered names in sorted order.
func (g *Registry) Names() []string {
	out := append([]string(nil), g.order...)
	sort.Strings(out)
	return out
}

// NewFunction creates a built-in function object (not a constructor) with
// the given name and length.
func (r *Realm) NewFunction(name string, length int, fn func(sobek.FunctionCall) sobek.Value) *sobek.Object {
	f := r.VM.ToValue(fn).(*sobek.Object)
	r.setNameLength(f, name, length)
	return f
}

// setNameLength gives f, a function sobek made with length 0 (a native
// function, or the constructor factory's), its "name" and "length".
func (r *Realm) setNameLength(f *sobek.Object, name string, length int) {
	if length != 0 {
		// (Already {[[Value]]: 0, [[Writable]]: false, [[Enumerable]]:
		// false, [[Configurable]]: true}.)
		must(f.DefineDataProperty("length", r.VM.ToValue(length), sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_FALSE))
	}
	must(f.DefineDataProperty("name", StringValue(name), sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_FALSE))
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// This performs the brand check of a regular operation or attribute: a
// null or undefined this value means the global object; the value must
// be a platform object implementing iface, else a TypeError "Illegal
// invocation" (or ForeignThis's error). It returns the Go implementation.
func (r *Realm) This(this sobek.Value, iface string) any {
	if IsNullish(this) {
		this = r.global
	}
	impl, ok := r.Implements(this, iface)
	if !ok {
		if r.ForeignThis != nil {
			if err := r.ForeignThis(this); err != nil {
				r.Throw(err)
			}
		}
		if seq, ok := r.checkingMember(this); ok && r.ForeignMember != nil {
			if perform := r.ForeignMember(this, iface); perform != nil {
				panic(foreignThis{seq: seq, perform: perform})
			}
		}
		r.ThrowTypeError("%s", IllegalInvocation)
	}
	if r.memberThis.seq != 0 {
		r.checkingMember(this)
	}
	return impl
}

// SetGlobalImpl associates the realm's global object with the Go
// implementation of the global interface. Call it before Install.
func (r *Realm) SetGlobalImpl(impl any) { r.globalImpl = impl }

// Install installs every definition of reg that is exposed in this realm,
// parents before children, the global interface's members on the global
// object, and the interface objects as properties of the global object.
//
// The registry holding the global interface sets up the global object;
// unless Eager is set, the other interfaces are then created on first use
// (see lazy.go), invisibly to script.
//
// A realm can install several registries, one after the other: the
// definitions of a later one may inherit from interfaces an earlier one
// installed (an integrator's interface inheriting EventTarget), and the
// global object is set up only by the registry holding the global
// interface.
func (r *Realm) Install(reg *Registry) error {
	known := func(name string) bool { return r.interfaces[name] != nil || r.pendingDef(name) != nil }
	if d := reg.defs[r.GlobalName]; r.autoGlobalNames && d != nil && len(d.GlobalNames) > 0 && !known(r.GlobalName) {
		r.GlobalNames = d.GlobalNames
	}
	globalIsNew := !known(r.GlobalName)
	if d := reg.defs[r.GlobalName]; globalIsNew && d != nil && r.globalImpl != nil && d.Implements != nil && !d.Implements(r.globalImpl) {
		return fmt.Errorf("webidl: the global object's implementation %T does not implement the interface %s", r.globalImpl, r.GlobalName)
	}
	// Check exposure and inheritance, and list the new exposed
	// definitions parents first: the installation plan, the same for
	// every realm with this exposure (cached in the registry).
	cacheable := len(r.interfaces) == 0 && len(r.plans) == 0
	var planKey string
	var plan *installPlan
	if cacheable {
		planKey = fmt.Sprint(r.GlobalName, r.GlobalNames, r.SecureContext, r.CrossOriginIsolated)
		plan = reg.cachedPlan(planKey)
	}
	if plan == nil {
		order, err := r.planOrder(reg, known)
		if err != nil {
			return err
		}
		plan = &installPlan{order: order, defs: make(map[string]*InterfaceDef, len(order)), keys: make(map[string]string, len(order))}
		for _, d := range order {
			plan.defs[d.Name] = d
			r.globalKeys(d, func(key string) { plan.keys[key] = d.Name })
			for i := range d.Members {
				plan.asyncIterator = plan.asyncIterator || d.Members[i].Symbol == "asyncIterator"
			}
			if d.Global {
				if plan.members == nil {
					plan.members = map[*InterfaceDef]*globalMemberPlan{}
				}
				plan.members[d] = r.planGlobalMembers(d)
			}
		}
		if cacheable {
			reg.storePlan(planKey, plan)
		}
	}
	r.plans = append(r.plans, plan)
	r.pendingCount += len(plan.order)
	order := plan.order
	// The global object: its [[Prototype]] is the global interface's
	// prototype object; the [Global] interface's own regular members and
	// every unforgeable member live on it.
	if globalIsNew && r.pendingDef(r.GlobalName) != nil {
		// The global chain's own global properties come after the
		// global's members.
		r.deferKeys = true
		// The traps of the global proxy and of legacy platform
		// objects forward with %Reflect%'s functions as they are
		// before script runs.
		r.initReflect()
		if !r.Eager {
			r.hookTraps = new(sobek.ProxyTrapConfig)
		}
		gio := r.iface(r.GlobalName)
		if !r.Eager {
			// Interfaces created later must see the intrinsics as
			// they are now, not as script may have replaced them.
			if plan.asyncIterator {
				r.Symbol("asyncIterator")
			}
			r.installGlobalProxy()
		}
		must(r.target.SetPrototype(gio.Prototype))
		if r.globalImpl != nil {
			r.setSlot(r.global, r.globalImpl, gio)
			if r.target != r.global {
				// Go code may meet the target (a getter called
				// on it from Go); script never does.
				r.slots.set(r.target, slotEntry{strong: r.getSlot(r.global)})
			}
			if rf, ok := r.globalImpl.(Reflected); ok && rf.WebIDLReflector() != nil {
				refl := rf.WebIDLReflector()
				refl.obj, refl.realm = r.global, r
			}
		}
		for io := gio; io != nil; io = io.parent {
			if io.def.Global {
				r.defineGlobalMembers(io, plan)
			}
		}
		gio.def.defineUnforgeables(r, gio, r.target)
	}
	// Interface objects as global properties (pending until their
	// interface is created; those created already now).
	r.deferKeys = false
	for _, d := range order {
		if io := r.interfaces[d.Name]; io != nil {
			r.defineGlobalKeys(io)
		}
	}
	if r.traps == nil {
		r.MaterializeAll()
	} else {
		r.setTraps(!r.nothingPending())
	}
	return nil
}

// installPlan is what Install computes from a registry for one exposure
// set: the exposed definitions (parents first) and the global property
// names of their interface objects. It is immutable once made.
type installPlan struct {
	order []*InterfaceDef
	defs  map[string]*InterfaceDef
	keys  map[string]string // global property name -> interface name
	// Whether a definition has an @@asyncIterator member (Install then
	// reads Symbol.asyncIterator before script can replace it).
	asyncIterator bool
	// members splits the regular members of the [Global] definitions
	// (see defineGlobalMembers).
	members map[*InterfaceDef]*globalMemberPlan
}

func (g *Registry) cachedPlan(key string) *installPlan {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.plans[key]
}

func (g *Registry) storePlan(key string, p *installPlan) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.plans == nil {
		g.plans = map[string]*installPlan{}
	}
	g.plans[key] = p
}

// planOrder checks exposure and inheritance and lists the exposed
// definitions of reg that known does not name, parents first.
func (r *Realm) planOrder(reg *Registry, known func(string) bool) ([]*InterfaceDef, error) {
	const (
		visiting = iota + 1
		exposed
		hidden
	)
	state := map[string]int{}
	var order []*InterfaceDef
	var visit func(name string) (bool, error)
	visit = func(name string) (bool, error) {
		if known(name) {
			return true, nil
		}
		switch state[name] {
		case visiting:
			return false, fmt.Errorf("webidl: inheritance cycle at %s", name)
		case exposed:
			return true, nil
		case hidden:
			return false, nil
		}
		d := reg.defs[name]
		if d == nil {
			return false, fmt.Errorf("webidl: interface %s is not registered", name)
		}
		if !r.Exposed(d.Exposed, d.SecureContext) || (d.CrossOriginIsolated && !r.CrossOriginIsolated) {
			state[name] = hidden
			return false, nil
		}
		state[name] = visiting
		if d.Parent != "" {
			ok, err := visit(d.Parent)
			if err != nil {
				return false, err
			}
			if !ok {
				return false, fmt.Errorf("webidl: %s inherits from %s, which is not exposed in this realm", name, d.Parent)
			}
		}
		state[name] = exposed
		order = append(order, d)
		return true, nil
	}
	for _, name := range reg.Names() {
		if _, err := visit(name); err != nil {
			return nil, err
		}
	}
	return order, nil
}

func (r *Realm) memberExposed(m *Member) bool {
	if m.CrossOriginIsolated && !r.CrossOriginIsolated {
		return false
	}
	return r.Exposed(m.Exposed, m.SecureContext)
}

func (r *Realm) createInterface(d *InterfaceDef, parent *InterfaceObject) *InterfaceObject {
	io := &InterfaceObject{Name: d.Name, def: d, parent: parent}
	io.errorLike = d.ErrorPrototype || (parent != nil && parent.errorLike)
	if d.Namespace {
		// A namespace object: an ordinary object whose [[Prototype]] is
		// %Object.prototype%, with the class string of the namespace.
		ns := r.VM.NewObject()
		must(ns.DefineDataPropertySymbol(sobek.SymToStringTag, StringValue(d.Name), sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_FALSE))
		r.defineConstants(d, ns)
		r.defineMembers(io, ns, true, false)
		io.Object = ns
		return io
	}
	// The interface prototype object.
	var protoProto *sobek.Object
	switch {
	case parent != nil:
		protoProto = parent.Prototype
	case d.ErrorPrototype:
		protoProto = r.errorCtor.Get("prototype").(*sobek.Object)
	default:
		protoProto = r.objectProto
	}
	if d.NamedPropertiesObject && d.Global {
		npo := r.VM.CreateObject(protoProto)
		must(npo.DefineDataPropertySymbol(sobek.SymToStringTag, StringValue(d.Name+"Properties"), sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_FALSE))
		protoProto = npo
	}
	if !d.Callback {
		io.Prototype = r.VM.CreateObject(protoProto)
		if d.Name == r.GlobalName && r.hookTraps != nil && r.hook == nil {
			// The global interface's prototype object resolves
			// the global's pending names (see lazy.go).
			r.hookTarget = io.Prototype
			io.Prototype = r.VM.ToValue(r.VM.NewProxy(r.hookTarget, r.hookTraps)).(*sobek.Object)
			r.hook = io.Prototype
		}
	}
	if !d.NoInterfaceObject {
		io.Object = r.interfaceObject(io)
		r.defineConstants(d, io.Object)
		r.defineMembers(io, io.Object, true, false)
	}
	if io.Prototype != nil {
		if io.Object != nil {
			must(io.Prototype.DefineDataProperty("constructor", io.Object, sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_FALSE))
		}
		must(io.Prototype.DefineDataPropertySymbol(sobek.SymToStringTag, StringValue(d.Name), sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_FALSE))
		r.defineConstants(d, io.Prototype)
		if !d.Global {
			r.defineMembers(io, io.Prototype, false, false)
		}
		if d.ValueIterator {
			for i, n := range arrayIteratorNames {
				must(io.Prototype.DefineDataProperty(n, r.arrayIterFns[i], sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_TRUE))
			}
			must(io.Prototype.DefineDataPropertySymbol(sobek.SymIterator, r.arrayIterFns[2], sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_FALSE))
		}
		if len(d.Unscopables) > 0 {
			// @@unscopables: a null-prototype object naming the
			// [Unscopable] members, {writable: false, configurable: true}.
			u := r.VM.CreateObject(nil)
			for _, n := range d.Unscopables {
				must(u.Set(n, true))
			}
			must(io.Prototype.DefineDataPropertySymbol(sobek.SymUnscopables, u, sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_FALSE))
		}
	}
	return io
}

// arrayIteratorNames are the %Array.prototype% functions a value iterable
// declaration shares with arrays; "values" is also its @@iterator. NewRealm
// reads them into Realm.arrayIterFns before any script runs.
var arrayIteratorNames = [...]string{"entries", "keys", "values", "forEach"}

// constructorFunction returns a JavaScript constructor function whose
// [[Call]] and [[Construct]] both run construct(newTarget, args) (newTarget
// undefined for a call without new). sobek's Go constructors cannot tell
// `new F()` from `F.call(obj)`, so the function itself is a strict-mode
// JavaScript function forwarding new.target. It forwards to one native
// function per realm (ctorImpl) with the index of construct in r.ctors,
// rather than to a native function of its own (which costs about ten
// allocations per interface).
func (r *Realm) constructorFunction(name string, length int, construct func(newTarget *sobek.Object, args []sobek.Value) *sobek.Object) *sobek.Object {
	if r.ctorFactory == nil {
		f, err := r.VM.RunProgram(ctorFactoryProgram())
		if err != nil {
			panic(err)
		}
		r.ctorFactory, _ = sobek.AssertFunction(f)
		r.ctorImpl = r.VM.ToValue(func(call sobek.FunctionCall) sobek.Value {
			nt, _ := call.Argument(1).(*sobek.Object)
			return r.ctors[call.Argument(0).ToInteger()](nt, call.Arguments[2:])
		})
	}
	id := r.VM.ToValue(len(r.ctors))
	r.ctors = append(r.ctors, construct)
	fv, err := r.ctorFactory(sobek.Undefined(), r.ctorImpl, id)
	if err != nil {
		panic(err)
	}
	f := fv.(*sobek.Object)
	r.setNameLength(f, name, length)
	return f
}

// ctorFactoryProgram is the compiled constructor factory of
// constructorFunction, shared by every realm (a sobek.Program is).
var ctorFactoryProgram = sync.OnceValue(func() *sobek.Program {
	prg, err := Compile("", `(function (construct, id) { 'use strict'; return function () { return construct(id, new.target, ...arguments); }; })`, true)
	if err != nil {
		panic(err)
	}
	return prg
})

// protoFromNewTarget implements GetPrototypeFromConstructor(newTarget,
// default).
func (r *Realm) protoFromNewTarget(newTarget *sobek.Object, def *sobek.Object) *sobek.Object {
	if p, ok := newTarget.Get("prototype").(*sobek.Object); ok {
		return p
	}
	return def
}

// interfaceObject creates the interface object: a constructor function
// that throws "Illegal constructor" unless the interface has a
// constructor, in which case it requires new.
func (r *Realm) interfaceObject(io *InterfaceObject) *sobek.Object {
	d := io.def
	f := r.constructorFunction(d.Name, d.ConstructorLength, func(newTarget *sobek.Object, args []sobek.Value) *sobek.Object {
		if d.Constructor == nil || d.Callback {
			r.ThrowTypeError("Illegal constructor")
		}
		if newTarget == nil {
			r.ThrowTypeError("Failed to construct '%s': Please use the 'new' operator, this DOM object constructor cannot be called as a function.", d.Name)
		}
		impl := d.Constructor(r, args, newTarget)
		return r.wrapNew(io, impl, r.protoFromNewTarget(newTarget, io.Prototype))
	})
	if io.parent != nil && io.parent.Object != nil {
		must(f.SetPrototype(io.parent.Object))
	}
	if io.Prototype != nil {
		must(f.DefineDataProperty("prototype", io.Prototype, sobek.FLAG_FALSE, sobek.FLAG_FALSE, sobek.FLAG_FALSE))
	} else {
		_ = f.Delete("prototype")
	}
	return f
}

func (r *Realm) factoryFunction(io *InterfaceObject, ff FactoryFunction) *sobek.Object {
	f := r.constructorFunction(ff.Name, ff.Length, func(newTarget *sobek.Object, args []sobek.Value) *sobek.Object {
		if newTarget == nil {
			r.ThrowTypeError("Failed to construct '%s': Please use the 'new' operator", ff.Name)
		}
		impl := ff.Call(r, args, newTarget)
		return r.wrapNew(io, impl, r.protoFromNewTarget(newTarget, io.Prototype))
	})
	must(f.DefineDataProperty("prototype", io.Prototype, sobek.FLAG_FALSE, sobek.FLAG_FALSE, sobek.FLAG_FALSE))
	return f
}

// wrapNew creates the object a constructor returns, with the prototype
// taken from new.target, and links it to impl.
func (r *Realm) wrapNew(io *InterfaceObject, impl any, proto *sobek.Object) *sobek.Object {
	if proto == nil {
		proto = io.Prototype
	}
	var refl *Reflector
	if rf, ok := impl.(Reflected); ok {
		refl = rf.WebIDLReflector()
	}
	obj := r.newPlatformObject(io, proto)
	r.setSlot(obj, impl, io)
	// Unforgeable members of the interface and its ancestors.
	io.def.defineUnforgeables(r, io, obj)
	if lp := io.legacy(); lp != nil {
		obj = r.legacyObject(obj, impl, lp)
		r.setSlot(obj, impl, io)
	}
	if refl != nil && refl.obj == nil {
		refl.obj, refl.realm = obj, r
	}
	return obj
}

func (r *Realm) defineConstants(d *InterfaceDef, obj *sobek.Object) {
	// Constants: {[[Writable]]: false, [[Enumerable]]: true, [[Configurable]]: false}.
	for _, c := range d.Constants {
		if !r.Exposed(c.Exposed, c.SecureContext) {
			continue
		}
		must(obj.DefineDataProperty(c.Name, c.Value, sobek.FLAG_FALSE, sobek.FLAG_FALSE, sobek.FLAG_TRUE))
	}
}

// defineMembers defines the operations and attributes of io on target:
// static ones on the interface object (static=true), regular ones on the
// prototype or, for [Global], the global object (onGlobal=true).
func (r *Realm) defineMembers(io *InterfaceObject, target *sobek.Object, static, onGlobal bool) {
	d := io.def
	defined := map[string]*sobek.Object{}
	for i := range d.Members {
		m := &d.Members[i]
		if d.Namespace {
			// Namespace members are all "static" in placement.
		} else if m.Static != static || (m.Unforgeable && !static) {
			continue
		}
		if !r.memberExposed(m) {
			continue
		}
		f, get, set := r.defineMember(target, m, false, defined[m.Alias])
		if f != nil {
			defined[m.Name] = f
		}
		if !static && target == io.Prototype && m.Symbol == "" {
			io.recordMember(m.Name, f, get, set)
		}
	}
}

// defineUnforgeables defines [LegacyUnforgeable] members of d and its
// ancestors on a new instance.
func (d *InterfaceDef) defineUnforgeables(r *Realm, io *InterfaceObject, obj *sobek.Object) {
	for i := io; i != nil; i = i.parent {
		for k := range i.def.Members {
			m := &i.def.Members[k]
			if m.Unforgeable && !m.Static && r.memberExposed(m) {
				r.defineMember(obj, m, true, nil)
			}
		}
	}
}

// defineMember defines one member on target and returns its function
// objects: an operation's, or an attribute's getter and setter. alias, when non-nil, is used as the operation's
// function object.
func (r *Realm) defineMember(target *sobek.Object, m *Member, unforgeable bool, alias *sobek.Object) (fn, getter, setter *sobek.Object) {
	configurable := sobek.FLAG_TRUE
	if unforgeable {
		configurable = sobek.FLAG_FALSE
	}
	enumerable := sobek.FLAG_TRUE
	if m.NotEnumerable {
		enumerable = sobek.FLAG_FALSE
	}
	switch m.Kind {
	case Operation:
		op := m.Op
		f := alias
		if f == nil {
			f = r.NewFunction(m.Name, m.Length, func(call sobek.FunctionCall) (v sobek.Value) {
				if r.ForeignMember != nil {
					seq := r.enterMember(call.This)
					defer r.forwardForeign(&v, seq, m, ForeignOperation, call.Arguments)
				}
				return op(r, call)
			})
		}
		if m.Symbol != "" {
			must(target.DefineDataPropertySymbol(r.Symbol(m.Symbol), f, writableFlag(unforgeable), configurable, enumerable))
		} else {
			must(target.DefineDataProperty(m.Name, f, writableFlag(unforgeable), configurable, enumerable))
		}
		return f, nil, nil
	case Attribute:
		get, set := m.Get, m.Set
		if get != nil {
			getter = r.NewFunction("get "+m.Name, 0, func(call sobek.FunctionCall) (v sobek.Value) {
				if r.ForeignMember != nil {
					seq := r.enterMember(call.This)
					defer r.forwardForeign(&v, seq, m, ForeignGetter, nil)
				}
				return get(r, call.This)
			})
		}
		if set != nil {
			setter = r.NewFunction("set "+m.Name, 1, func(call sobek.FunctionCall) (ret sobek.Value) {
				var v sobek.Value = sobek.Undefined()
				if len(call.Arguments) > 0 {
					v = call.Arguments[0]
				} else {
					r.ThrowTypeError("Failed to set the '%s' property: 1 argument required, but only 0 present.", m.Name)
				}
				ret = sobek.Undefined()
				if r.ForeignMember != nil {
					seq := r.enterMember(call.This)
					defer r.forwardForeign(&ret, seq, m, ForeignSetter, []sobek.Value{v})
				}
				set(r, call.This, v)
				return ret
			})
		}
		var g, st sobek.Value
		if getter != nil {
			g = getter
		}
		if setter != nil {
			st = setter
		}
		must(target.DefineAccessorProperty(m.Name, g, st, configurable, enumerable))
		return nil, getter, setter
	}
	return nil, nil, nil
}

// writableFlag: operations are writable unless unforgeable.
func writableFlag(unforgeable bool) sobek.Flag {
	if unforgeable {
		return sobek.FLAG_FALSE
	}
	return sobek.FLAG_TRUE
}
