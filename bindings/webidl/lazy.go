package webidl

import (
	"errors"
	"reflect"

	"github.com/grafana/sobek"
)

// Lazy interface objects.
//
// A realm whose registry holds its global interface does not create the
// interface objects, prototypes and member functions of every exposed
// interface up front: most pages touch a handful of the ~100 interfaces a
// Window exposes. Instead the global object script sees is a Proxy (the
// spec's WindowProxy, which this engine otherwise only models for frames)
// whose target is the real global object. The global interface and its
// ancestors, and the global's unforgeable members, are created eagerly;
// every other exposed interface and every other regular member of the
// global interface is "pending": its global property names (the
// interface name, [LegacyWindowAlias] and [LegacyFactoryFunction] names,
// the member name) are recorded, and the first operation that meets one
// of them creates it — an interface parent first — and defines its
// properties on the target:
//
//   - the global proxy's has, getOwnPropertyDescriptor, defineProperty and
//     deleteProperty traps (ownKeys and preventExtensions create
//     everything first);
//   - [[Get]] and [[Set]]: the global proxy has no get or set trap, so that
//     a global lookup of an existing name costs no Go call. A pending name
//     is absent from the target, so the lookup goes on to the target's
//     [[Prototype]], the global interface's prototype object
//     (Window.prototype), which is itself a Proxy whose get and set traps
//     create the pending name when the receiver is the global (or inherits
//     from it: reachesGlobal) and then forward to the target;
//   - Go code: Interface, Wrap and constructors reach interfaces through
//     Realm.iface.
//
// Because the traps only ever add what the eager installation would
// already have defined, and then forward to the target with the same
// receiver, the proxies report the target's real state and behave as the
// eager installation. Once nothing is pending the traps are removed
// (except two, see publicAccessor), and the proxies forward at the
// engine's own speed.
//
// Visible differences (deliberate): the order of the global's own
// property names (an interface or member name comes after the properties
// script defined before it was first touched); and Reflect.get or
// Reflect.set on the global with a receiver that neither is nor inherits
// from the global, as the very first use of a pending name, do not see
// it (the prototype's trap cannot tell that lookup from one that started
// at the prototype object; any other use of the name first, or
// Object.getOwnPropertyNames(window), makes it behave).

// iface returns the interface named name, creating it (and its ancestors)
// when it is exposed but not created yet, or nil when it is not exposed
// in this realm.
func (r *Realm) iface(name string) *InterfaceObject {
	if io := r.interfaces[name]; io != nil {
		return io
	}
	d := r.pendingDef(name)
	if d == nil {
		return nil
	}
	return r.materialize(d)
}

// pendingDef returns the definition of an exposed interface not created
// yet, or nil.
func (r *Realm) pendingDef(name string) *InterfaceDef {
	for _, p := range r.plans {
		if d := p.defs[name]; d != nil && r.interfaces[name] == nil {
			return d
		}
	}
	return nil
}

// pendingKey returns the interface whose global property key is not
// defined yet.
func (r *Realm) pendingKey(key string) (string, bool) {
	for _, p := range r.plans {
		if n, ok := p.keys[key]; ok && !r.keysDone[key] {
			return n, true
		}
	}
	return "", false
}

// materialize creates a pending interface: its parent first, then its
// interface object and prototype, then its global properties.
func (r *Realm) materialize(d *InterfaceDef) *InterfaceObject {
	r.pendingCount--
	var parent *InterfaceObject
	if d.Parent != "" {
		// Install checked that the parent is exposed.
		parent = r.iface(d.Parent)
	}
	io := r.createInterface(d, parent)
	r.interfaces[d.Name] = io
	r.defineGlobalKeys(io)
	if d.Namespace {
		// Interfaces with [LegacyNamespace] live on the namespace object.
		for _, p := range r.plans {
			for _, pd := range p.order {
				if pd.LegacyNamespace == d.Name && r.pendingDef(pd.Name) != nil {
					r.iface(pd.Name)
				}
			}
		}
	}
	if r.nothingPending() {
		r.setTraps(false)
	}
	return io
}

// nothingPending reports whether every interface, global member and host
// global of the realm has been created.
func (r *Realm) nothingPending() bool {
	return r.pendingCount == 0 && r.pendingMemberCount == 0 && len(r.pendingHost) == 0
}

// globalKeys calls f with each global property name of d's interface
// object (none for an interface without one on the global object: no
// interface object, or one on its [LegacyNamespace] object).
func (r *Realm) globalKeys(d *InterfaceDef, f func(name string)) {
	if d.NoInterfaceObject || d.LegacyNamespace != "" {
		return
	}
	f(d.Name)
	if r.Exposed([]string{"Window"}, false) {
		for _, alias := range d.LegacyWindowAlias {
			f(alias)
		}
	}
	for _, ff := range d.LegacyFactoryFunctions {
		f(ff.Name)
	}
}

// defineGlobalKeys defines the properties of io's interface object that
// are still pending: on the global object {[[Writable]]: true,
// [[Enumerable]]: false, [[Configurable]]: true}.
func (r *Realm) defineGlobalKeys(io *InterfaceObject) {
	d := io.def
	if io.Object == nil || r.deferKeys {
		return
	}
	if ns := d.LegacyNamespace; ns != "" {
		if nio := r.iface(ns); nio != nil && nio.Object != nil {
			must(nio.Object.DefineDataProperty(d.Name, io.Object, sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_FALSE))
		}
		return
	}
	r.globalKeys(d, func(key string) {
		if n, ok := r.pendingKey(key); !ok || n != d.Name {
			return
		}
		if r.keysDone == nil {
			r.keysDone = map[string]bool{}
		}
		r.keysDone[key] = true
		v := io.Object
		for _, ff := range d.LegacyFactoryFunctions {
			if ff.Name == key {
				v = r.factoryFunction(io, ff)
			}
		}
		must(r.target.DefineDataProperty(key, v, sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_FALSE))
	})
}

// defineGlobalMembers defines the regular members of a [Global]
// interface on the global object, or, when the global is a proxy, makes
// them pending like interface objects: each is defined the first time a
// trap sees its name. Members with a symbol key, and those sharing a
// function object (Alias), are defined at once. plan is the installation
// plan, which holds the split for its [Global] interfaces.
func (r *Realm) defineGlobalMembers(io *InterfaceObject, plan *installPlan) {
	if r.traps == nil {
		r.defineMembers(io, r.target, false, true)
		return
	}
	d := io.def
	mp := plan.members[d]
	if mp == nil {
		mp = r.planGlobalMembers(d)
	}
	var defined map[string]*sobek.Object
	for _, m := range mp.now {
		if f, _, _ := r.defineMember(r.target, m, false, defined[m.Alias]); f != nil {
			if defined == nil {
				defined = map[string]*sobek.Object{}
			}
			defined[m.Name] = f
		}
	}
	r.memberPlans = append(r.memberPlans, mp)
	r.pendingMemberCount += len(mp.order)
}

// globalMemberPlan is the split of the regular members of a [Global]
// interface that defineGlobalMembers makes, the same for every realm of
// an installation plan (and, like it, immutable).
type globalMemberPlan struct {
	now     []*Member          // defined at once
	order   []*Member          // pending, in declaration order
	pending map[string]*Member // order by name
}

// planGlobalMembers splits the regular members of d (a [Global]
// interface) exposed in the realm (see defineGlobalMembers).
func (r *Realm) planGlobalMembers(d *InterfaceDef) *globalMemberPlan {
	mp := &globalMemberPlan{pending: map[string]*Member{}}
	aliased := map[string]bool{}
	for i := range d.Members {
		if a := d.Members[i].Alias; a != "" {
			aliased[a] = true
		}
	}
	for i := range d.Members {
		m := &d.Members[i]
		if m.Static || m.Unforgeable || !r.memberExposed(m) {
			continue
		}
		if m.Symbol != "" || m.Alias != "" || aliased[m.Name] {
			mp.now = append(mp.now, m)
			continue
		}
		if _, dup := mp.pending[m.Name]; !dup {
			mp.order = append(mp.order, m)
		}
		mp.pending[m.Name] = m
	}
	return mp
}

// pendingMember returns the pending regular member of the global named
// key, or nil.
func (r *Realm) pendingMember(key string) *Member {
	if r.pendingMemberCount == 0 {
		return nil
	}
	for _, mp := range r.memberPlans {
		if m := mp.pending[key]; m != nil && !r.membersDone[key] {
			return m
		}
	}
	return nil
}

// DefineGlobalLazily arranges for define to define the global object's
// own property name, a global the embedder adds by hand (console, for
// example), the first time something uses that name, as for a pending
// interface (see the top of this file); define gets the real global
// object, and must not run script. Without a global proxy (an eager
// realm, or before Install) define runs at once.
//
// define must only use what script cannot have changed (Go APIs such as
// Runtime.NewObject, or intrinsics captured before script ran), since it
// may run after script did.
func (r *Realm) DefineGlobalLazily(name string, define func(global *sobek.Object)) {
	if r.traps == nil || r.Eager {
		define(r.target)
		return
	}
	if r.pendingHost == nil {
		r.pendingHost = map[string]func(*sobek.Object){}
	}
	if _, dup := r.pendingHost[name]; !dup {
		r.hostOrder = append(r.hostOrder, name)
	}
	r.pendingHost[name] = define
	r.setTraps(true)
}

// touch creates the pending global member, host global or interface
// whose global property name is key.
func (r *Realm) touch(key string) {
	if m := r.pendingMember(key); m != nil {
		if r.membersDone == nil {
			r.membersDone = map[string]bool{}
		}
		r.membersDone[key] = true
		r.pendingMemberCount--
		r.defineMember(r.target, m, false, nil)
		if r.nothingPending() {
			r.setTraps(false)
		}
		return
	}
	if define, ok := r.pendingHost[key]; ok {
		delete(r.pendingHost, key)
		define(r.target)
		if r.nothingPending() {
			r.setTraps(false)
		}
		return
	}
	name, ok := r.pendingKey(key)
	if !ok {
		return
	}
	if io := r.interfaces[name]; io != nil {
		r.defineGlobalKeys(io)
		return
	}
	r.iface(name)
}

// MaterializeAll creates every pending interface (what an eager
// installation would have done).
func (r *Realm) MaterializeAll() {
	for _, p := range r.plans {
		for _, d := range p.order {
			r.iface(d.Name)
		}
	}
	for _, p := range r.plans {
		for key := range p.keys {
			r.touch(key)
		}
	}
	for _, mp := range r.memberPlans {
		for _, m := range mp.order {
			if r.pendingMember(m.Name) == m {
				r.touch(m.Name)
			}
		}
	}
	for _, name := range r.hostOrder {
		r.touch(name)
	}
	r.hostOrder = nil
	r.setTraps(false)
}

// Pending reports whether the named interface, regular member of the
// global interface or host global (DefineGlobalLazily) is exposed in the
// realm but not created yet.
func (r *Realm) Pending(name string) bool {
	return r.pendingDef(name) != nil || r.pendingMember(name) != nil || r.pendingHost[name] != nil
}

// installGlobalProxy makes the global object script sees a Proxy of the
// real global object (see the comment at the top of this file).
func (r *Realm) installGlobalProxy() {
	r.initReflect()
	r.traps = new(sobek.ProxyTrapConfig)
	p := r.VM.NewProxy(r.target, r.traps)
	r.global = r.VM.ToValue(p).(*sobek.Object)
	r.VM.SetGlobalObject(r.global)
}

// setTraps installs the global proxy's traps (on) or removes them, so
// that the proxy forwards to its target without calling Go.
func (r *Realm) setTraps(on bool) {
	if r.traps == nil || (on && r.traps.Has != nil) {
		return
	}
	undef := sobek.Undefined()
	// getOwnPropertyDescriptor and defineProperty stay: see
	// publicAccessor.
	gopd := func(t *sobek.Object, key string) sobek.PropertyDescriptor {
		r.touch(key)
		d, err := r.reflectGOPD(undef, t, StringValue(key))
		if err != nil {
			r.rethrow(err)
		}
		pd := r.toPropertyDescriptor(d)
		if pd.Configurable == sobek.FLAG_FALSE {
			pd.Getter, pd.Setter = r.publicAccessor(pd.Getter), r.publicAccessor(pd.Setter)
		}
		return pd
	}
	define := func(t *sobek.Object, key string, d sobek.PropertyDescriptor) bool {
		r.touch(key)
		d.Getter, d.Setter = r.realAccessor(d.Getter), r.realAccessor(d.Setter)
		res, err := r.reflectDefine(undef, t, StringValue(key), r.descriptorObject(d))
		if err != nil {
			r.rethrow(err)
		}
		return res.ToBoolean()
	}
	// The global object is an immutable prototype exotic object
	// (WebIDL's [Global]): its [[Prototype]] — the prototype object that
	// resolves pending names — cannot change.
	setProto := func(t *sobek.Object, proto *sobek.Object) bool { return proto == t.Prototype() }
	if !on {
		*r.traps = sobek.ProxyTrapConfig{GetOwnPropertyDescriptor: gopd, DefineProperty: define, SetPrototypeOf: setProto}
		if r.hookTraps != nil {
			*r.hookTraps = sobek.ProxyTrapConfig{}
		}
		return
	}
	if r.hookTraps != nil {
		*r.hookTraps = sobek.ProxyTrapConfig{
			Get: func(pt *sobek.Object, key string, receiver sobek.Value) sobek.Value {
				if r.isPendingKey(key) && r.reachesGlobal(receiver) {
					r.touch(key)
					return r.forwardGet(r.target, key, receiver)
				}
				return r.forwardGet(pt, key, receiver)
			},
			Set: func(pt *sobek.Object, key string, v, receiver sobek.Value) bool {
				t := pt
				if r.isPendingKey(key) && r.reachesGlobal(receiver) {
					r.touch(key)
					t = r.target
				}
				res, err := r.reflectSet(undef, t, r.keyValue(key), v, receiver)
				if err != nil {
					r.rethrow(err)
				}
				return res.ToBoolean()
			},
		}
	}
	*r.traps = sobek.ProxyTrapConfig{
		Has: func(t *sobek.Object, key string) bool {
			r.touch(key)
			return r.hasProperty(t, key)
		},
		GetOwnPropertyDescriptor: gopd,
		DefineProperty:           define,
		SetPrototypeOf:           setProto,
		DeleteProperty: func(t *sobek.Object, key string) bool {
			r.touch(key)
			res, err := r.reflectDelete(undef, t, StringValue(key))
			if err != nil {
				r.rethrow(err)
			}
			return res.ToBoolean()
		},
		OwnKeys: func(t *sobek.Object) *sobek.Object {
			r.MaterializeAll()
			v, err := r.reflectOwnKeys(undef, t)
			if err != nil {
				r.rethrow(err)
			}
			return v.(*sobek.Object)
		},
		PreventExtensions: func(t *sobek.Object) bool {
			r.MaterializeAll()
			res, err := r.reflectPrevent(undef, t)
			if err != nil {
				r.rethrow(err)
			}
			return res.ToBoolean()
		},
	}
}

// publicAccessor returns the function script sees as f, a getter or
// setter of a non-configurable accessor property of the global object
// (the [LegacyUnforgeable] window, document, location, top).
//
// sobek's proxy checks a getOwnPropertyDescriptor trap's result against
// a non-configurable accessor of the target with an inverted test: it
// rejects the descriptor when its getter or setter IS the target's
// (proxy.go, __isCompatibleDescriptor, "desc.Getter.SameAs(current.
// getterFunc)" returning false). So the trap reports, for such a
// property, a stand-in function with the same name, length and
// behaviour, and the defineProperty trap maps the stand-in back. Script
// never meets the real function (every descriptor read goes through the
// trap, which therefore stays for the realm's life), so the stand-in is
// the function as far as script can tell.
func (r *Realm) publicAccessor(f sobek.Value) sobek.Value {
	fo, ok := f.(*sobek.Object)
	if !ok {
		return f
	}
	if p, ok := r.publicFn[fo]; ok {
		return p
	}
	call, ok := sobek.AssertFunction(fo)
	if !ok {
		return f
	}
	name := fo.Get("name").String()
	length := int(fo.Get("length").ToInteger())
	p := r.NewFunction(name, length, func(c sobek.FunctionCall) sobek.Value {
		v, err := call(c.This, c.Arguments...)
		if err != nil {
			r.rethrow(err)
		}
		return v
	})
	if r.publicFn == nil {
		r.publicFn, r.realFn = map[*sobek.Object]*sobek.Object{}, map[*sobek.Object]*sobek.Object{}
	}
	r.publicFn[fo], r.realFn[p] = p, fo
	return p
}

// realAccessor maps a stand-in of publicAccessor back to the real function.
func (r *Realm) realAccessor(f sobek.Value) sobek.Value {
	if fo, ok := f.(*sobek.Object); ok {
		if real, ok := r.realFn[fo]; ok {
			return real
		}
	}
	return f
}

// isPendingKey reports whether key names a pending interface or member.
func (r *Realm) isPendingKey(key string) bool {
	if _, ok := r.pendingKey(key); ok {
		return true
	}
	if r.pendingMember(key) != nil {
		return true
	}
	_, ok := r.pendingHost[key]
	return ok
}

// proxyType is what ExportType reports for a Proxy.
var proxyType = reflect.TypeOf(sobek.Proxy{})

// reachesGlobal reports whether a [[Get]] or [[Set]] with this receiver
// that reached the global interface's prototype object came through the
// global object (the receiver is the global, or inherits from it), and
// not from the prototype object itself or an object inheriting from it
// past the global. A proxy on the way (other than the global) is
// assumed to forward to the global: looking through it would run its
// traps.
func (r *Realm) reachesGlobal(receiver sobek.Value) bool {
	o, _ := receiver.(*sobek.Object)
	for n := 0; o != nil && n < 1000; n++ {
		switch {
		case o == r.global || o == r.target:
			return true
		case o == r.hook:
			return false
		case o.ExportType() == proxyType:
			return true
		}
		o = o.Prototype()
	}
	return false
}

// forwardGet is Reflect.get(t, key, receiver), but nil when the property
// is absent (sobek's global lookups tell a ReferenceError by a nil
// result).
func (r *Realm) forwardGet(t *sobek.Object, key string, receiver sobek.Value) sobek.Value {
	undef := sobek.Undefined()
	k := r.keyValue(key)
	// Reflect.get reads its arguments before it runs a getter, so a
	// nested trap may reuse the array.
	r.trapArgs = [3]sobek.Value{t, k, receiver}
	v, err := r.reflectGet(undef, r.trapArgs[:]...)
	r.trapArgs = [3]sobek.Value{}
	if err != nil {
		r.rethrow(err)
	}
	if sobek.IsUndefined(v) {
		if h, err := r.reflectHas(undef, t, k); err == nil && !h.ToBoolean() {
			return nil
		}
	}
	return v
}

// keyValue returns key as a JavaScript string, cached: a page looks up the
// same few global names over and over.
func (r *Realm) keyValue(key string) sobek.Value {
	if v, ok := r.keyValues[key]; ok {
		return v
	}
	v := StringValue(key)
	if r.keyValues == nil {
		r.keyValues = map[string]sobek.Value{}
	}
	if len(r.keyValues) < 1024 {
		r.keyValues[key] = v
	}
	return v
}

// initReflect looks up the %Reflect% functions the traps (of the global
// proxy and of legacy platform objects) forward with; Install calls it
// before any script can replace them.
func (r *Realm) initReflect() {
	if r.reflectDefine != nil {
		return
	}
	refl := r.VM.GlobalObject().Get("Reflect").(*sobek.Object)
	fn := func(name string) sobek.Callable {
		f, _ := sobek.AssertFunction(refl.Get(name))
		return f
	}
	r.reflectGet, r.reflectSet, r.reflectGOPD, r.reflectHas = fn("get"), fn("set"), fn("getOwnPropertyDescriptor"), fn("has")
	r.reflectDefine, r.reflectDelete, r.reflectOwnKeys, r.reflectPrevent = fn("defineProperty"), fn("deleteProperty"), fn("ownKeys"), fn("preventExtensions")
}

// descriptorObject converts d to a property descriptor object with only
// the fields d has.
func (r *Realm) descriptorObject(d sobek.PropertyDescriptor) *sobek.Object {
	o := r.VM.NewObject()
	if d.Value != nil {
		must(o.Set("value", d.Value))
	}
	if d.Writable != sobek.FLAG_NOT_SET {
		must(o.Set("writable", d.Writable.Bool()))
	}
	if d.Getter != nil {
		must(o.Set("get", d.Getter))
	}
	if d.Setter != nil {
		must(o.Set("set", d.Setter))
	}
	if d.Enumerable != sobek.FLAG_NOT_SET {
		must(o.Set("enumerable", d.Enumerable.Bool()))
	}
	if d.Configurable != sobek.FLAG_NOT_SET {
		must(o.Set("configurable", d.Configurable.Bool()))
	}
	return o
}

// rethrow throws err, a JavaScript exception or an uncatchable
// interruption returned by a call, from inside a trap.
func (r *Realm) rethrow(err error) {
	var ex *sobek.Exception
	if errors.As(err, &ex) || isUncatchable(err) {
		panic(err)
	}
	r.Throw(err)
}
