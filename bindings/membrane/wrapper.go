package membrane

import (
	"runtime"
	"sync"
	"weak"

	"github.com/dop251/goja"
)

// wrapper is the state behind one proxy: object t of d.from seen in d.to.
// The proxy's target is a shadow object of d.to (a function, an array or
// a plain object, so that typeof, callability, constructibility and
// Array.isArray match t); the traps never consult it except to satisfy
// the Proxy invariants, for which non-configurable properties and
// non-extensibility are copied onto it when they are reported.
type wrapper struct {
	d      *direction
	t      *goja.Object
	shadow *goja.Object
	proxy  *goja.Object
	fn     goja.Callable
	ctor   goja.Constructor
	frozen bool // the shadow was made non-extensible
}

func (d *direction) newWrapper(o *goja.Object) *goja.Object {
	to := d.to.vm
	w := &wrapper{d: d, t: o}
	w.fn, _ = goja.AssertFunction(o)
	w.ctor, _ = goja.AssertConstructor(o)
	switch {
	case w.ctor != nil:
		sh, ex, fatal := d.to.call(d.to.bind, d.to.ctorTemplate)
		if ex != nil || fatal != nil {
			panic(to.NewTypeError("membrane: cannot make a shadow constructor"))
		}
		w.shadow = sh.(*goja.Object)
	case w.fn != nil:
		w.shadow = to.ToValue(shadowFunction).(*goja.Object)
	case o.ClassName() == "Array":
		w.shadow = to.NewArray()
	default:
		w.shadow = to.NewObject()
	}
	cfg := &goja.ProxyTrapConfig{
		Get:                         w.getStr,
		GetSym:                      w.getSym,
		Set:                         w.setStr,
		SetSym:                      w.setSym,
		Has:                         w.hasStr,
		HasSym:                      w.hasSym,
		DeleteProperty:              w.deleteStr,
		DeletePropertySym:           w.deleteSym,
		DefineProperty:              w.defineStr,
		DefinePropertySym:           w.defineSym,
		GetOwnPropertyDescriptor:    w.gopdStr,
		GetOwnPropertyDescriptorSym: w.gopdSym,
		OwnKeys:                     w.ownKeys,
		GetPrototypeOf:              w.getPrototypeOf,
		SetPrototypeOf:              w.setPrototypeOf,
		IsExtensible:                w.isExtensible,
		PreventExtensions:           w.preventExtensions,
	}
	if w.fn != nil {
		cfg.Apply = w.apply
	}
	if w.ctor != nil {
		cfg.Construct = w.construct
	}
	p := to.NewProxy(w.shadow, cfg)
	w.proxy = to.ToValue(p).(*goja.Object)
	d.register(w)
	return w.proxy
}

func shadowFunction(goja.FunctionCall) goja.Value { return goja.Undefined() }

func shadowConstructor(call goja.ConstructorCall) *goja.Object { return nil }

// cross runs f in d.from and rethrows, in d.to, what it threw.
func (d *direction) cross(f func()) { d.crossing(false, f) }

// crossing is cross; call tells a function call (apply, construct) from
// property access, for scheduleDrain.
func (d *direction) crossing(call bool, f func()) {
	m := d.m
	if m.depth >= m.MaxDepth && m.MaxDepth > 0 {
		panic(d.to.tooDeep())
	}
	m.depth++
	ex, fatal := d.from.enter(f)
	m.depth--
	d.scheduleDrain(call)
	d.rethrow(ex, fatal)
}

func (d *direction) rethrow(ex *goja.Exception, fatal error) {
	if fatal != nil {
		panic(d.to.vm.NewGoError(fatal))
	}
	if ex != nil {
		panic(d.wrap(ex.Value()))
	}
}

// callIn calls f (a function of d.from) and returns its result for d.to.
func (d *direction) callIn(f goja.Callable, this goja.Value, args ...goja.Value) goja.Value {
	var ret goja.Value
	d.cross(func() {
		var err error
		ret, err = f(this, args...)
		if err != nil {
			panic(err)
		}
	})
	return ret
}

// callFn is callIn for a function call (see scheduleDrain).
func (d *direction) callFn(f goja.Callable, this goja.Value, args ...goja.Value) goja.Value {
	var ret goja.Value
	d.crossing(true, func() {
		var err error
		ret, err = f(this, args...)
		if err != nil {
			panic(err)
		}
	})
	return ret
}

// deny throws the policy's error for op in d.to.
func (w *wrapper) deny(op Op, key goja.Value) { w.d.deny(w.t, op, key) }

// deny throws the policy's error for op on obj (of d.from) in d.to.
func (d *direction) deny(obj *goja.Object, op Op, key goja.Value) {
	if p := d.policy; p != nil && p.Error != nil {
		if e := p.Error(d.to.vm, obj, op, key); e != nil {
			panic(e)
		}
	}
	name := ""
	if key != nil {
		name = " " + key.String()
	}
	panic(d.to.vm.NewTypeError("membrane: %s%s denied", op, name))
}

func (w *wrapper) check(op Op, key goja.Value) Decision {
	if w.d.policy == nil {
		return Allow
	}
	dec := w.d.policy.check(w.t, op, key)
	if dec == Deny && (op.perProperty() || op == OpCall || op == OpConstruct) {
		w.deny(op, key)
	}
	return dec
}

// strKey makes a string property key; goja's strings are not bound to a
// runtime, so the same value serves on both sides.
func (w *wrapper) strKey(s string) goja.Value { return w.d.to.vm.ToValue(s) }

// receiverIn maps a receiver of d.to to d.from.
func (w *wrapper) receiverIn(receiver goja.Value) goja.Value {
	if receiver == w.proxy || receiver == nil {
		return w.t
	}
	return w.d.reverse().wrap(receiver)
}

func (w *wrapper) getStr(_ *goja.Object, prop string, receiver goja.Value) goja.Value {
	k := w.strKey(prop)
	return w.get(k, k, receiver)
}

func (w *wrapper) getSym(_ *goja.Object, prop *goja.Symbol, receiver goja.Value) goja.Value {
	return w.get(prop, w.d.reverse().wrap(prop), receiver)
}

func (w *wrapper) get(key, fromKey goja.Value, receiver goja.Value) goja.Value {
	dec := w.check(OpGet, key)
	if dec == Fallback {
		return goja.Undefined()
	}
	d := w.d
	var v goja.Value
	d.cross(func() {
		var err error
		v, err = d.from.get(goja.Undefined(), w.t, fromKey, w.receiverIn(receiver))
		if err != nil {
			panic(err)
		}
	})
	if dec == CrossOrigin {
		return w.opaque(v)
	}
	return d.wrap(v)
}

func (w *wrapper) setStr(_ *goja.Object, prop string, value, receiver goja.Value) bool {
	k := w.strKey(prop)
	return w.setKey(k, k, value, receiver)
}

func (w *wrapper) setSym(_ *goja.Object, prop *goja.Symbol, value, receiver goja.Value) bool {
	return w.setKey(prop, w.d.reverse().wrap(prop), value, receiver)
}

func (w *wrapper) setKey(key, fromKey, value, receiver goja.Value) bool {
	if w.check(OpSet, key) == Fallback {
		w.deny(OpSet, key)
	}
	d := w.d
	rv := d.reverse()
	// A set never changes configurability nor adds to a non-extensible
	// object: the shadow needs no update.
	return d.callIn(d.from.set, goja.Undefined(), w.t, fromKey, rv.wrap(value), w.receiverIn(receiver)).ToBoolean()
}

func (w *wrapper) hasStr(_ *goja.Object, prop string) bool {
	k := w.strKey(prop)
	return w.hasKey(k, k)
}

func (w *wrapper) hasSym(_ *goja.Object, prop *goja.Symbol) bool {
	return w.hasKey(prop, w.d.reverse().wrap(prop))
}

func (w *wrapper) hasKey(key, fromKey goja.Value) bool {
	switch w.check(OpHas, key) {
	case Fallback, CrossOrigin:
		return true
	}
	d := w.d
	return d.callIn(d.from.has, goja.Undefined(), w.t, fromKey).ToBoolean()
}

func (w *wrapper) deleteStr(_ *goja.Object, prop string) bool {
	k := w.strKey(prop)
	return w.deleteKey(k, k)
}

func (w *wrapper) deleteSym(_ *goja.Object, prop *goja.Symbol) bool {
	return w.deleteKey(prop, w.d.reverse().wrap(prop))
}

func (w *wrapper) deleteKey(key, fromKey goja.Value) bool {
	if w.check(OpDelete, key) != Allow {
		w.deny(OpDelete, key)
	}
	d := w.d
	ok := d.callIn(d.from.deleteProperty, goja.Undefined(), w.t, fromKey).ToBoolean()
	if ok {
		w.syncAbsent(key)
	}
	return ok
}

func (w *wrapper) defineStr(_ *goja.Object, prop string, desc goja.PropertyDescriptor) bool {
	k := w.strKey(prop)
	return w.defineKey(k, k, desc)
}

func (w *wrapper) defineSym(_ *goja.Object, prop *goja.Symbol, desc goja.PropertyDescriptor) bool {
	return w.defineKey(prop, w.d.reverse().wrap(prop), desc)
}

func (w *wrapper) defineKey(key, fromKey goja.Value, desc goja.PropertyDescriptor) bool {
	if w.check(OpDefineProperty, key) != Allow {
		w.deny(OpDefineProperty, key)
	}
	d := w.d
	rv := d.reverse()
	var ok goja.Value
	d.cross(func() {
		// A null-prototype descriptor with own data fields: nothing
		// inherited (a polluted Object.prototype) is read or run.
		fd := d.from.vm.CreateObject(nil)
		setDescFields(d.from.vm, fd, desc, rv.wrap)
		var err error
		ok, err = d.from.defineProperty(goja.Undefined(), w.t, fromKey, fd)
		if err != nil {
			panic(err)
		}
	})
	if !ok.ToBoolean() {
		return false
	}
	if desc.Configurable == goja.FLAG_FALSE || w.frozen || w.shadowHas(key) {
		w.syncProp(fromKey, key)
	}
	return true
}

// setDescFields copies a goja descriptor into a descriptor object,
// converting values with conv.
func setDescFields(vm *goja.Runtime, o *goja.Object, desc goja.PropertyDescriptor, conv func(goja.Value) goja.Value) {
	put := func(k string, v goja.Value) {
		_ = o.DefineDataProperty(k, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	if desc.Value != nil {
		put("value", conv(desc.Value))
	}
	if desc.Writable != goja.FLAG_NOT_SET {
		put("writable", vm.ToValue(desc.Writable.Bool()))
	}
	if desc.Getter != nil {
		put("get", conv(desc.Getter))
	}
	if desc.Setter != nil {
		put("set", conv(desc.Setter))
	}
	if desc.Enumerable != goja.FLAG_NOT_SET {
		put("enumerable", vm.ToValue(desc.Enumerable.Bool()))
	}
	if desc.Configurable != goja.FLAG_NOT_SET {
		put("configurable", vm.ToValue(desc.Configurable.Bool()))
	}
}

func flag(b bool) goja.Flag {
	if b {
		return goja.FLAG_TRUE
	}
	return goja.FLAG_FALSE
}

// rawDesc reads t's own property fromKey in d.from: the descriptor with
// values still of d.from, and whether the property exists.
func (w *wrapper) rawDesc(fromKey goja.Value) (desc goja.PropertyDescriptor, found bool) {
	d := w.d
	d.cross(func() {
		v, err := d.from.gopd(goja.Undefined(), w.t, fromKey)
		if err != nil {
			panic(err)
		}
		o, ok := v.(*goja.Object)
		if !ok {
			return
		}
		found = true
		// A descriptor object made by FromPropertyDescriptor has exactly
		// its own fields; read those only (never the prototype chain).
		for _, k := range o.Keys() {
			f := o.Get(k)
			switch k {
			case "value":
				desc.Value = f
			case "writable":
				desc.Writable = flag(f.ToBoolean())
			case "get":
				desc.Getter = f
			case "set":
				desc.Setter = f
			case "enumerable":
				desc.Enumerable = flag(f.ToBoolean())
			case "configurable":
				desc.Configurable = flag(f.ToBoolean())
			}
		}
	})
	return
}

func (w *wrapper) gopdStr(_ *goja.Object, prop string) goja.PropertyDescriptor {
	k := w.strKey(prop)
	return w.gopd(k, k)
}

func (w *wrapper) gopdSym(_ *goja.Object, prop *goja.Symbol) goja.PropertyDescriptor {
	return w.gopd(prop, w.d.reverse().wrap(prop))
}

func (w *wrapper) gopd(key, fromKey goja.Value) goja.PropertyDescriptor {
	dec := w.check(OpGetOwnProperty, key)
	if dec == Fallback {
		return goja.PropertyDescriptor{Value: goja.Undefined(), Writable: goja.FLAG_FALSE,
			Enumerable: goja.FLAG_FALSE, Configurable: goja.FLAG_TRUE}
	}
	raw, found := w.rawDesc(fromKey)
	if dec == CrossOrigin {
		// CrossOriginGetOwnPropertyHelper: configurable, and only the
		// halves of an accessor the rules let through.
		if !found {
			return goja.PropertyDescriptor{}
		}
		desc := goja.PropertyDescriptor{Enumerable: goja.FLAG_FALSE, Configurable: goja.FLAG_TRUE}
		if raw.Getter != nil || raw.Setter != nil {
			desc.Getter, desc.Setter = goja.Undefined(), goja.Undefined()
			if raw.Getter != nil && w.d.policy.check(w.t, OpGet, key) == CrossOrigin {
				desc.Getter = w.opaque(raw.Getter)
			}
			if raw.Setter != nil && w.d.policy.check(w.t, OpSet, key) == CrossOrigin {
				desc.Setter = w.opaque(raw.Setter)
			}
		} else {
			desc.Value = w.opaque(raw.Value)
			desc.Writable = goja.FLAG_FALSE
		}
		return desc
	}
	if !found {
		w.syncAbsent(key)
		return goja.PropertyDescriptor{}
	}
	desc := w.convertDesc(raw)
	if raw.Configurable == goja.FLAG_FALSE {
		w.putShadow(key, desc)
	}
	return desc
}

func (w *wrapper) convertDesc(raw goja.PropertyDescriptor) goja.PropertyDescriptor {
	d := w.d
	desc := raw
	if raw.Value != nil {
		desc.Value = d.wrap(raw.Value)
	}
	if raw.Getter != nil {
		desc.Getter = d.wrap(raw.Getter)
	}
	if raw.Setter != nil {
		desc.Setter = d.wrap(raw.Setter)
	}
	return desc
}

// syncProp brings the shadow's copy of key up to date after a
// defineProperty that may have made t's property non-configurable.
func (w *wrapper) syncProp(fromKey, key goja.Value) {
	raw, found := w.rawDesc(fromKey)
	if !found {
		w.syncAbsent(key)
		return
	}
	if raw.Configurable == goja.FLAG_FALSE || w.frozen {
		w.putShadow(key, w.convertDesc(raw))
	}
}

func (w *wrapper) shadowHas(key goja.Value) bool {
	if s, ok := key.(*goja.Symbol); ok {
		for _, x := range w.shadow.Symbols() {
			if x == s {
				return true
			}
		}
		return false
	}
	k := key.String()
	for _, n := range w.shadow.GetOwnPropertyNames() {
		if n == k {
			return true
		}
	}
	return false
}

// syncAbsent deletes key from the shadow when t no longer has it (only
// configurable properties of a non-extensible object can go).
func (w *wrapper) syncAbsent(key goja.Value) {
	if !w.frozen {
		return
	}
	if s, ok := key.(*goja.Symbol); ok {
		_ = w.shadow.DeleteSymbol(s)
	} else {
		_ = w.shadow.Delete(key.String())
	}
}

// putShadow defines key on the shadow as desc (already converted).
func (w *wrapper) putShadow(key goja.Value, desc goja.PropertyDescriptor) {
	s := w.shadow
	getter, setter := desc.Getter, desc.Setter
	if desc.Getter != nil || desc.Setter != nil {
		if accessorCompatInverted() {
			// goja's Proxy invariant check for non-configurable
			// accessors rejects the same get/set as the target's and
			// accepts different ones: give the shadow stand-ins.
			getter = standIn(w.d.to.vm, getter)
			setter = standIn(w.d.to.vm, setter)
		}
		if cur, ok := w.shadowAccessor(key); ok && !cur {
			return // non-configurable accessors never change
		}
		if sym, ok := key.(*goja.Symbol); ok {
			_ = s.DefineAccessorPropertySymbol(sym, getter, setter, desc.Configurable, desc.Enumerable)
		} else {
			_ = s.DefineAccessorProperty(key.String(), getter, setter, desc.Configurable, desc.Enumerable)
		}
		return
	}
	v := desc.Value
	if v == nil {
		v = goja.Undefined()
	}
	if ks, ok := key.(goja.String); ok && desc.Writable != goja.FLAG_FALSE && !w.frozen &&
		ks.String() == "length" && w.shadow.ClassName() == "Array" {
		// The shadow array's own length is already non-configurable and
		// writable, compatible with any writable length; copying a large
		// value would only grow the shadow.
		return
	}
	if sym, ok := key.(*goja.Symbol); ok {
		_ = s.DefineDataPropertySymbol(sym, v, desc.Writable, desc.Configurable, desc.Enumerable)
	} else {
		_ = s.DefineDataProperty(key.String(), v, desc.Writable, desc.Configurable, desc.Enumerable)
	}
}

// shadowAccessor reports whether the shadow has key as an accessor and
// whether that accessor is configurable.
func (w *wrapper) shadowAccessor(key goja.Value) (configurable, found bool) {
	if !w.shadowHas(key) {
		return false, false
	}
	var res goja.Value
	var ex *goja.Exception
	to := w.d.to
	res, ex, _ = to.call(to.gopd, goja.Undefined(), w.shadow, key)
	if ex != nil {
		return false, false
	}
	o, ok := res.(*goja.Object)
	if !ok {
		return false, false
	}
	if g := o.Get("get"); g == nil {
		return false, false
	}
	return o.Get("configurable").ToBoolean(), true
}

func standIn(vm *goja.Runtime, f goja.Value) goja.Value {
	if f == nil || goja.IsUndefined(f) {
		return f
	}
	return vm.ToValue(shadowFunction)
}

func (w *wrapper) ownKeys(_ *goja.Object) *goja.Object {
	d := w.d
	to := d.to.vm
	var keys []goja.Value
	if w.check(OpOwnKeys, nil) != Allow {
		if p := d.policy; p.OwnKeys != nil {
			keys = p.OwnKeys(to, w.t)
		} else {
			keys = w.fromKeys()
			n := 0
			for _, k := range keys {
				if w.d.policy.check(w.t, OpGetOwnProperty, k) != Deny {
					keys[n] = k
					n++
				}
			}
			keys = keys[:n]
		}
		keys = dedupe(keys)
	} else {
		keys = w.fromKeys()
		if w.frozen {
			w.syncFrozenKeys(keys)
		}
	}
	items := make([]any, len(keys))
	for i, k := range keys {
		items[i] = k
	}
	return to.NewArray(items...)
}

// fromKeys lists t's own keys, converted for d.to.
func (w *wrapper) fromKeys() []goja.Value {
	d := w.d
	var keys []goja.Value
	d.cross(func() {
		v, err := d.from.ownKeys(goja.Undefined(), w.t)
		if err != nil {
			panic(err)
		}
		arr := v.(*goja.Object)
		n := arr.Get("length").ToInteger()
		keys = make([]goja.Value, 0, n)
		for i := int64(0); i < n; i++ {
			keys = append(keys, arr.Get(itoa(int(i))))
		}
	})
	for i, k := range keys {
		if s, ok := k.(*goja.Symbol); ok {
			keys[i] = d.wrapSymbol(s)
		}
	}
	return keys
}

func dedupe(keys []goja.Value) []goja.Value {
	seen := make(map[any]bool, len(keys))
	n := 0
	for _, k := range keys {
		var id any = k
		if _, ok := k.(*goja.Symbol); !ok {
			id = k.String()
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		keys[n] = k
		n++
	}
	return keys[:n]
}

// syncFrozenKeys removes from a non-extensible shadow the keys t lost.
func (w *wrapper) syncFrozenKeys(keys []goja.Value) {
	have := make(map[any]bool, len(keys))
	for _, k := range keys {
		if s, ok := k.(*goja.Symbol); ok {
			have[s] = true
		} else {
			have[k.String()] = true
		}
	}
	for _, n := range w.shadow.GetOwnPropertyNames() {
		if !have[n] {
			_ = w.shadow.Delete(n)
		}
	}
	for _, s := range w.shadow.Symbols() {
		if !have[s] {
			_ = w.shadow.DeleteSymbol(s)
		}
	}
}

func (w *wrapper) getPrototypeOf(_ *goja.Object) *goja.Object {
	if w.check(OpGetPrototypeOf, nil) != Allow {
		return nil
	}
	d := w.d
	v := d.wrap(d.callIn(d.from.getPrototypeOf, goja.Undefined(), w.t))
	o, _ := v.(*goja.Object)
	return o
}

func (w *wrapper) setPrototypeOf(_ *goja.Object, proto *goja.Object) bool {
	if w.check(OpSetPrototypeOf, nil) != Allow {
		// SetImmutablePrototype with a null current prototype.
		return proto == nil
	}
	d := w.d
	var p goja.Value = goja.Null()
	if proto != nil {
		p = d.reverse().wrap(proto)
	}
	return d.callIn(d.from.setPrototypeOf, goja.Undefined(), w.t, p).ToBoolean()
}

func (w *wrapper) isExtensible(_ *goja.Object) bool {
	if w.check(OpIsExtensible, nil) != Allow {
		return true
	}
	d := w.d
	ext := d.callIn(d.from.isExtensible, goja.Undefined(), w.t).ToBoolean()
	if !ext {
		w.freeze()
	}
	return ext
}

func (w *wrapper) preventExtensions(_ *goja.Object) bool {
	if w.check(OpPreventExtensions, nil) != Allow {
		return false
	}
	d := w.d
	ok := d.callIn(d.from.preventExtensions, goja.Undefined(), w.t).ToBoolean()
	if ok {
		w.freeze()
	}
	return ok
}

// freeze makes the shadow a non-extensible copy of t's own properties
// and prototype, as the Proxy invariants require once t is not
// extensible.
func (w *wrapper) freeze() {
	if w.frozen {
		return
	}
	d := w.d
	to := d.to
	for _, k := range w.fromKeys() {
		fromKey := k
		if s, ok := k.(*goja.Symbol); ok {
			fromKey = d.reverse().wrap(s)
		} else {
			fromKey = d.from.vm.ToValue(k.String())
		}
		raw, found := w.rawDesc(fromKey)
		if found {
			w.putShadow(k, w.convertDesc(raw))
		}
	}
	proto := w.getPrototypeOf(nil)
	var pv goja.Value = goja.Null()
	if proto != nil {
		pv = proto
	}
	_, _, _ = to.call(to.setPrototypeOf, goja.Undefined(), w.shadow, pv)
	_, _, _ = to.call(to.preventExtensions, goja.Undefined(), w.shadow)
	w.frozen = true
}

func (w *wrapper) apply(_ *goja.Object, this goja.Value, args []goja.Value) goja.Value {
	w.check(OpCall, nil)
	d := w.d
	rv := d.reverse()
	fargs := make([]goja.Value, len(args))
	for i, a := range args {
		fargs[i] = rv.wrap(a)
	}
	return d.wrap(d.callFn(w.fn, rv.wrap(this), fargs...))
}

func (w *wrapper) construct(_ *goja.Object, args []goja.Value, newTarget *goja.Object) *goja.Object {
	w.check(OpConstruct, nil)
	d := w.d
	rv := d.reverse()
	fargs := make([]goja.Value, len(args))
	for i, a := range args {
		fargs[i] = rv.wrap(a)
	}
	var nt *goja.Object
	if newTarget != nil && newTarget != w.proxy {
		nt, _ = rv.wrap(newTarget).(*goja.Object)
	}
	var ret *goja.Object
	d.crossing(true, func() {
		var err error
		ret, err = w.ctor(nt, fargs...)
		if err != nil {
			panic(err)
		}
	})
	o, _ := d.wrap(ret).(*goja.Object)
	return o
}

// opaque hands a value reached through a CrossOrigin decision to d.to:
// a function becomes a function of d.to calling it with t as this
// (cached per object and function, so it is the same each time); other
// values are wrapped.
func (w *wrapper) opaque(v goja.Value) goja.Value {
	d := w.d
	o, ok := v.(*goja.Object)
	if !ok {
		return d.wrap(v)
	}
	fn, ok := goja.AssertFunction(o)
	if !ok {
		return d.wrap(v)
	}
	key := opaqueKey{obj: weak.Make(w.t), fn: weak.Make(o)}
	m := d.m
	m.mu.Lock()
	cached := d.opaque[key].Value()
	m.mu.Unlock()
	if cached != nil {
		return cached
	}
	t := w.t
	rv := d.reverse()
	f := d.to.vm.ToValue(func(call goja.FunctionCall) goja.Value {
		// The policy sees the call of the original function, as it sees
		// calls through wrappers.
		if d.policy.check(o, OpCall, nil) == Deny {
			d.deny(o, OpCall, nil)
		}
		args := make([]goja.Value, len(call.Arguments))
		for i, a := range call.Arguments {
			args[i] = rv.wrap(a)
		}
		return d.wrap(d.callFn(fn, t, args...))
	}).(*goja.Object)
	// f's closure holds t and o, so the weak key stays valid while f lives.
	wf := weak.Make(f)
	m.mu.Lock()
	d.opaque[key] = wf
	m.mu.Unlock()
	runtime.AddCleanup(f, func(c opaqueCleanup) {
		c.d.m.mu.Lock()
		if c.d.opaque[c.key] == c.f {
			delete(c.d.opaque, c.key)
		}
		c.d.m.mu.Unlock()
	}, opaqueCleanup{d: d, key: key, f: wf})
	return f
}

type opaqueCleanup struct {
	d   *direction
	key opaqueKey
	f   weak.Pointer[goja.Object]
}

type opaqueKey struct{ obj, fn weak.Pointer[goja.Object] }

var (
	compatOnce     sync.Once
	compatInverted bool
)

// accessorCompatInverted probes goja's Proxy invariant check for a
// non-configurable accessor once: the version in go.mod inverts the
// comparison of get/set (IsCompatiblePropertyDescriptor), a fixed one
// does not.
func accessorCompatInverted() bool {
	compatOnce.Do(func() {
		vm := goja.New()
		g := vm.ToValue(shadowFunction)
		target := vm.NewObject()
		_ = target.DefineAccessorProperty("x", g, nil, goja.FLAG_FALSE, goja.FLAG_FALSE)
		p := vm.NewProxy(target, &goja.ProxyTrapConfig{
			GetOwnPropertyDescriptor: func(*goja.Object, string) goja.PropertyDescriptor {
				return goja.PropertyDescriptor{Getter: g, Setter: goja.Undefined(),
					Configurable: goja.FLAG_FALSE, Enumerable: goja.FLAG_FALSE}
			},
		})
		_ = vm.Set("p", p)
		_, err := vm.RunString(`Object.getOwnPropertyDescriptor(p, "x")`)
		compatInverted = err != nil
	})
	return compatInverted
}
