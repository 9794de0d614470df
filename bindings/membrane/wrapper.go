package membrane

import (
	"runtime"
	"sync"
	"weak"

	"github.com/grafana/sobek"
)

// wrapper is the state behind one proxy: object t of d.from seen in d.to.
// The proxy's target is a shadow object of d.to (a function, an array or
// a plain object, so that typeof, callability, constructibility and
// Array.isArray match t); the traps never consult it except to satisfy
// the Proxy invariants, for which non-configurable properties and
// non-extensibility are copied onto it when they are reported.
type wrapper struct {
	d      *direction
	t      *sobek.Object
	shadow *sobek.Object
	proxy  *sobek.Object
	fn     sobek.Callable
	ctor   sobek.Constructor
	frozen bool // the shadow was made non-extensible
}

func (d *direction) newWrapper(o *sobek.Object) *sobek.Object {
	to := d.to.vm
	w := &wrapper{d: d, t: o}
	w.fn, _ = sobek.AssertFunction(o)
	w.ctor, _ = sobek.AssertConstructor(o)
	switch {
	case w.ctor != nil:
		sh, ex, fatal := d.to.call(d.to.bind, d.to.ctorTemplate)
		if ex != nil || fatal != nil {
			panic(to.NewTypeError("membrane: cannot make a shadow constructor"))
		}
		w.shadow = sh.(*sobek.Object)
	case w.fn != nil:
		w.shadow = to.ToValue(shadowFunction).(*sobek.Object)
	case o.ClassName() == "Array":
		w.shadow = to.NewArray()
	default:
		w.shadow = to.NewObject()
	}
	cfg := &sobek.ProxyTrapConfig{
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
	w.proxy = to.ToValue(p).(*sobek.Object)
	d.register(w)
	return w.proxy
}

func shadowFunction(sobek.FunctionCall) sobek.Value { return sobek.Undefined() }

func shadowConstructor(call sobek.ConstructorCall) *sobek.Object { return nil }

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

func (d *direction) rethrow(ex *sobek.Exception, fatal error) {
	if fatal != nil {
		panic(d.to.vm.NewGoError(fatal))
	}
	if ex != nil {
		panic(d.wrap(ex.Value()))
	}
}

// callIn calls f (a function of d.from) and returns its result for d.to.
func (d *direction) callIn(f sobek.Callable, this sobek.Value, args ...sobek.Value) sobek.Value {
	var ret sobek.Value
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
func (d *direction) callFn(f sobek.Callable, this sobek.Value, args ...sobek.Value) sobek.Value {
	var ret sobek.Value
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
func (w *wrapper) deny(op Op, key sobek.Value) { w.d.deny(w.t, op, key) }

// deny throws the policy's error for op on obj (of d.from) in d.to.
func (d *direction) deny(obj *sobek.Object, op Op, key sobek.Value) {
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

func (w *wrapper) check(op Op, key sobek.Value) Decision {
	if w.d.policy == nil {
		return Allow
	}
	dec := w.d.policy.check(w.t, op, key)
	if dec == Deny && (op.perProperty() || op == OpCall || op == OpConstruct) {
		w.deny(op, key)
	}
	return dec
}

// strKey makes a string property key; sobek's strings are not bound to a
// runtime, so the same value serves on both sides.
func (w *wrapper) strKey(s string) sobek.Value { return w.d.to.vm.ToValue(s) }

// receiverIn maps a receiver of d.to to d.from.
func (w *wrapper) receiverIn(receiver sobek.Value) sobek.Value {
	if receiver == w.proxy || receiver == nil {
		return w.t
	}
	return w.d.reverse().wrap(receiver)
}

func (w *wrapper) getStr(_ *sobek.Object, prop string, receiver sobek.Value) sobek.Value {
	k := w.strKey(prop)
	return w.get(k, k, receiver)
}

func (w *wrapper) getSym(_ *sobek.Object, prop *sobek.Symbol, receiver sobek.Value) sobek.Value {
	return w.get(prop, w.d.reverse().wrap(prop), receiver)
}

func (w *wrapper) get(key, fromKey sobek.Value, receiver sobek.Value) sobek.Value {
	dec := w.check(OpGet, key)
	if dec == Fallback {
		return sobek.Undefined()
	}
	d := w.d
	var v sobek.Value
	d.cross(func() {
		var err error
		v, err = d.from.get(sobek.Undefined(), w.t, fromKey, w.receiverIn(receiver))
		if err != nil {
			panic(err)
		}
	})
	if dec == CrossOrigin {
		return w.opaque(v)
	}
	return d.wrap(v)
}

func (w *wrapper) setStr(_ *sobek.Object, prop string, value, receiver sobek.Value) bool {
	k := w.strKey(prop)
	return w.setKey(k, k, value, receiver)
}

func (w *wrapper) setSym(_ *sobek.Object, prop *sobek.Symbol, value, receiver sobek.Value) bool {
	return w.setKey(prop, w.d.reverse().wrap(prop), value, receiver)
}

func (w *wrapper) setKey(key, fromKey, value, receiver sobek.Value) bool {
	if w.check(OpSet, key) == Fallback {
		w.deny(OpSet, key)
	}
	d := w.d
	rv := d.reverse()
	// A set never changes configurability nor adds to a non-extensible
	// object: the shadow needs no update.
	return d.callIn(d.from.set, sobek.Undefined(), w.t, fromKey, rv.wrap(value), w.receiverIn(receiver)).ToBoolean()
}

func (w *wrapper) hasStr(_ *sobek.Object, prop string) bool {
	k := w.strKey(prop)
	return w.hasKey(k, k)
}

func (w *wrapper) hasSym(_ *sobek.Object, prop *sobek.Symbol) bool {
	return w.hasKey(prop, w.d.reverse().wrap(prop))
}

func (w *wrapper) hasKey(key, fromKey sobek.Value) bool {
	switch w.check(OpHas, key) {
	case Fallback, CrossOrigin:
		return true
	}
	d := w.d
	return d.callIn(d.from.has, sobek.Undefined(), w.t, fromKey).ToBoolean()
}

func (w *wrapper) deleteStr(_ *sobek.Object, prop string) bool {
	k := w.strKey(prop)
	return w.deleteKey(k, k)
}

func (w *wrapper) deleteSym(_ *sobek.Object, prop *sobek.Symbol) bool {
	return w.deleteKey(prop, w.d.reverse().wrap(prop))
}

func (w *wrapper) deleteKey(key, fromKey sobek.Value) bool {
	if w.check(OpDelete, key) != Allow {
		w.deny(OpDelete, key)
	}
	d := w.d
	ok := d.callIn(d.from.deleteProperty, sobek.Undefined(), w.t, fromKey).ToBoolean()
	if ok {
		w.syncAbsent(key)
	}
	return ok
}

func (w *wrapper) defineStr(_ *sobek.Object, prop string, desc sobek.PropertyDescriptor) bool {
	k := w.strKey(prop)
	return w.defineKey(k, k, desc)
}

func (w *wrapper) defineSym(_ *sobek.Object, prop *sobek.Symbol, desc sobek.PropertyDescriptor) bool {
	return w.defineKey(prop, w.d.reverse().wrap(prop), desc)
}

func (w *wrapper) defineKey(key, fromKey sobek.Value, desc sobek.PropertyDescriptor) bool {
	if w.check(OpDefineProperty, key) != Allow {
		w.deny(OpDefineProperty, key)
	}
	d := w.d
	rv := d.reverse()
	var ok sobek.Value
	d.cross(func() {
		// A null-prototype descriptor with own data fields: nothing
		// inherited (a polluted Object.prototype) is read or run.
		fd := d.from.vm.CreateObject(nil)
		setDescFields(d.from.vm, fd, desc, rv.wrap)
		var err error
		ok, err = d.from.defineProperty(sobek.Undefined(), w.t, fromKey, fd)
		if err != nil {
			panic(err)
		}
	})
	if !ok.ToBoolean() {
		return false
	}
	if desc.Configurable == sobek.FLAG_FALSE || w.frozen || w.shadowHas(key) {
		w.syncProp(fromKey, key)
	}
	return true
}

// setDescFields copies a sobek descriptor into a descriptor object,
// converting values with conv.
func setDescFields(vm *sobek.Runtime, o *sobek.Object, desc sobek.PropertyDescriptor, conv func(sobek.Value) sobek.Value) {
	put := func(k string, v sobek.Value) {
		_ = o.DefineDataProperty(k, v, sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_TRUE)
	}
	if desc.Value != nil {
		put("value", conv(desc.Value))
	}
	if desc.Writable != sobek.FLAG_NOT_SET {
		put("writable", vm.ToValue(desc.Writable.Bool()))
	}
	if desc.Getter != nil {
		put("get", conv(desc.Getter))
	}
	if desc.Setter != nil {
		put("set", conv(desc.Setter))
	}
	if desc.Enumerable != sobek.FLAG_NOT_SET {
		put("enumerable", vm.ToValue(desc.Enumerable.Bool()))
	}
	if desc.Configurable != sobek.FLAG_NOT_SET {
		put("configurable", vm.ToValue(desc.Configurable.Bool()))
	}
}

func flag(b bool) sobek.Flag {
	if b {
		return sobek.FLAG_TRUE
	}
	return sobek.FLAG_FALSE
}

// rawDesc reads t's own property fromKey in d.from: the descriptor with
// values still of d.from, and whether the property exists.
func (w *wrapper) rawDesc(fromKey sobek.Value) (desc sobek.PropertyDescriptor, found bool) {
	d := w.d
	d.cross(func() {
		v, err := d.from.gopd(sobek.Undefined(), w.t, fromKey)
		if err != nil {
			panic(err)
		}
		o, ok := v.(*sobek.Object)
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

func (w *wrapper) gopdStr(_ *sobek.Object, prop string) sobek.PropertyDescriptor {
	k := w.strKey(prop)
	return w.gopd(k, k)
}

func (w *wrapper) gopdSym(_ *sobek.Object, prop *sobek.Symbol) sobek.PropertyDescriptor {
	return w.gopd(prop, w.d.reverse().wrap(prop))
}

func (w *wrapper) gopd(key, fromKey sobek.Value) sobek.PropertyDescriptor {
	dec := w.check(OpGetOwnProperty, key)
	if dec == Fallback {
		return sobek.PropertyDescriptor{Value: sobek.Undefined(), Writable: sobek.FLAG_FALSE,
			Enumerable: sobek.FLAG_FALSE, Configurable: sobek.FLAG_TRUE}
	}
	raw, found := w.rawDesc(fromKey)
	if dec == CrossOrigin {
		// CrossOriginGetOwnPropertyHelper: configurable, and only the
		// halves of an accessor the rules let through.
		if !found {
			return sobek.PropertyDescriptor{}
		}
		desc := sobek.PropertyDescriptor{Enumerable: sobek.FLAG_FALSE, Configurable: sobek.FLAG_TRUE}
		if raw.Getter != nil || raw.Setter != nil {
			desc.Getter, desc.Setter = sobek.Undefined(), sobek.Undefined()
			if raw.Getter != nil && w.d.policy.check(w.t, OpGet, key) == CrossOrigin {
				desc.Getter = w.opaque(raw.Getter)
			}
			if raw.Setter != nil && w.d.policy.check(w.t, OpSet, key) == CrossOrigin {
				desc.Setter = w.opaque(raw.Setter)
			}
		} else {
			desc.Value = w.opaque(raw.Value)
			desc.Writable = sobek.FLAG_FALSE
		}
		return desc
	}
	if !found {
		w.syncAbsent(key)
		return sobek.PropertyDescriptor{}
	}
	desc := w.convertDesc(raw)
	if raw.Configurable == sobek.FLAG_FALSE {
		w.putShadow(key, desc)
	}
	return desc
}

func (w *wrapper) convertDesc(raw sobek.PropertyDescriptor) sobek.PropertyDescriptor {
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
func (w *wrapper) syncProp(fromKey, key sobek.Value) {
	raw, found := w.rawDesc(fromKey)
	if !found {
		w.syncAbsent(key)
		return
	}
	if raw.Configurable == sobek.FLAG_FALSE || w.frozen {
		w.putShadow(key, w.convertDesc(raw))
	}
}

func (w *wrapper) shadowHas(key sobek.Value) bool {
	if s, ok := key.(*sobek.Symbol); ok {
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
func (w *wrapper) syncAbsent(key sobek.Value) {
	if !w.frozen {
		return
	}
	if s, ok := key.(*sobek.Symbol); ok {
		_ = w.shadow.DeleteSymbol(s)
	} else {
		_ = w.shadow.Delete(key.String())
	}
}

// putShadow defines key on the shadow as desc (already converted).
func (w *wrapper) putShadow(key sobek.Value, desc sobek.PropertyDescriptor) {
	s := w.shadow
	getter, setter := desc.Getter, desc.Setter
	if desc.Getter != nil || desc.Setter != nil {
		if accessorCompatInverted() {
			// sobek's Proxy invariant check for non-configurable
			// accessors rejects the same get/set as the target's and
			// accepts different ones: give the shadow stand-ins.
			getter = standIn(w.d.to.vm, getter)
			setter = standIn(w.d.to.vm, setter)
		}
		if cur, ok := w.shadowAccessor(key); ok && !cur {
			return // non-configurable accessors never change
		}
		if sym, ok := key.(*sobek.Symbol); ok {
			_ = s.DefineAccessorPropertySymbol(sym, getter, setter, desc.Configurable, desc.Enumerable)
		} else {
			_ = s.DefineAccessorProperty(key.String(), getter, setter, desc.Configurable, desc.Enumerable)
		}
		return
	}
	v := desc.Value
	if v == nil {
		v = sobek.Undefined()
	}
	if ks, ok := key.(sobek.String); ok && desc.Writable != sobek.FLAG_FALSE && !w.frozen &&
		ks.String() == "length" && w.shadow.ClassName() == "Array" {
		// The shadow array's own length is already non-configurable and
		// writable, compatible with any writable length; copying a large
		// value would only grow the shadow.
		return
	}
	if sym, ok := key.(*sobek.Symbol); ok {
		_ = s.DefineDataPropertySymbol(sym, v, desc.Writable, desc.Configurable, desc.Enumerable)
	} else {
		_ = s.DefineDataProperty(key.String(), v, desc.Writable, desc.Configurable, desc.Enumerable)
	}
}

// shadowAccessor reports whether the shadow has key as an accessor and
// whether that accessor is configurable.
func (w *wrapper) shadowAccessor(key sobek.Value) (configurable, found bool) {
	if !w.shadowHas(key) {
		return false, false
	}
	var res sobek.Value
	var ex *sobek.Exception
	to := w.d.to
	res, ex, _ = to.call(to.gopd, sobek.Undefined(), w.shadow, key)
	if ex != nil {
		return false, false
	}
	o, ok := res.(*sobek.Object)
	if !ok {
		return false, false
	}
	if g := o.Get("get"); g == nil {
		return false, false
	}
	return o.Get("configurable").ToBoolean(), true
}

func standIn(vm *sobek.Runtime, f sobek.Value) sobek.Value {
	if f == nil || sobek.IsUndefined(f) {
		return f
	}
	return vm.ToValue(shadowFunction)
}

func (w *wrapper) ownKeys(_ *sobek.Object) *sobek.Object {
	d := w.d
	to := d.to.vm
	var keys []sobek.Value
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
func (w *wrapper) fromKeys() []sobek.Value {
	d := w.d
	var keys []sobek.Value
	d.cross(func() {
		v, err := d.from.ownKeys(sobek.Undefined(), w.t)
		if err != nil {
			panic(err)
		}
		arr := v.(*sobek.Object)
		n := arr.Get("length").ToInteger()
		keys = make([]sobek.Value, 0, n)
		for i := int64(0); i < n; i++ {
			keys = append(keys, arr.Get(itoa(int(i))))
		}
	})
	for i, k := range keys {
		if s, ok := k.(*sobek.Symbol); ok {
			keys[i] = d.wrapSymbol(s)
		}
	}
	return keys
}

func dedupe(keys []sobek.Value) []sobek.Value {
	seen := make(map[any]bool, len(keys))
	n := 0
	for _, k := range keys {
		var id any = k
		if _, ok := k.(*sobek.Symbol); !ok {
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
func (w *wrapper) syncFrozenKeys(keys []sobek.Value) {
	have := make(map[any]bool, len(keys))
	for _, k := range keys {
		if s, ok := k.(*sobek.Symbol); ok {
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

func (w *wrapper) getPrototypeOf(_ *sobek.Object) *sobek.Object {
	if w.check(OpGetPrototypeOf, nil) != Allow {
		return nil
	}
	d := w.d
	v := d.wrap(d.callIn(d.from.getPrototypeOf, sobek.Undefined(), w.t))
	o, _ := v.(*sobek.Object)
	return o
}

func (w *wrapper) setPrototypeOf(_ *sobek.Object, proto *sobek.Object) bool {
	if w.check(OpSetPrototypeOf, nil) != Allow {
		// SetImmutablePrototype with a null current prototype.
		return proto == nil
	}
	d := w.d
	var p sobek.Value = sobek.Null()
	if proto != nil {
		p = d.reverse().wrap(proto)
	}
	return d.callIn(d.from.setPrototypeOf, sobek.Undefined(), w.t, p).ToBoolean()
}

func (w *wrapper) isExtensible(_ *sobek.Object) bool {
	if w.check(OpIsExtensible, nil) != Allow {
		return true
	}
	d := w.d
	ext := d.callIn(d.from.isExtensible, sobek.Undefined(), w.t).ToBoolean()
	if !ext {
		w.freeze()
	}
	return ext
}

func (w *wrapper) preventExtensions(_ *sobek.Object) bool {
	if w.check(OpPreventExtensions, nil) != Allow {
		return false
	}
	d := w.d
	ok := d.callIn(d.from.preventExtensions, sobek.Undefined(), w.t).ToBoolean()
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
		if s, ok := k.(*sobek.Symbol); ok {
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
	var pv sobek.Value = sobek.Null()
	if proto != nil {
		pv = proto
	}
	_, _, _ = to.call(to.setPrototypeOf, sobek.Undefined(), w.shadow, pv)
	_, _, _ = to.call(to.preventExtensions, sobek.Undefined(), w.shadow)
	w.frozen = true
}

func (w *wrapper) apply(_ *sobek.Object, this sobek.Value, args []sobek.Value) sobek.Value {
	w.check(OpCall, nil)
	d := w.d
	rv := d.reverse()
	fargs := make([]sobek.Value, len(args))
	for i, a := range args {
		fargs[i] = rv.wrap(a)
	}
	return d.wrap(d.callFn(w.fn, rv.wrap(this), fargs...))
}

func (w *wrapper) construct(_ *sobek.Object, args []sobek.Value, newTarget *sobek.Object) *sobek.Object {
	w.check(OpConstruct, nil)
	d := w.d
	rv := d.reverse()
	fargs := make([]sobek.Value, len(args))
	for i, a := range args {
		fargs[i] = rv.wrap(a)
	}
	var nt *sobek.Object
	if newTarget != nil && newTarget != w.proxy {
		nt, _ = rv.wrap(newTarget).(*sobek.Object)
	}
	var ret *sobek.Object
	d.crossing(true, func() {
		var err error
		ret, err = w.ctor(nt, fargs...)
		if err != nil {
			panic(err)
		}
	})
	o, _ := d.wrap(ret).(*sobek.Object)
	return o
}

// opaque hands a value reached through a CrossOrigin decision to d.to:
// a function becomes a function of d.to calling it with t as this
// (cached per object and function, so it is the same each time); other
// values are wrapped.
func (w *wrapper) opaque(v sobek.Value) sobek.Value {
	d := w.d
	o, ok := v.(*sobek.Object)
	if !ok {
		return d.wrap(v)
	}
	fn, ok := sobek.AssertFunction(o)
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
	f := d.to.vm.ToValue(func(call sobek.FunctionCall) sobek.Value {
		// The policy sees the call of the original function, as it sees
		// calls through wrappers.
		if d.policy.check(o, OpCall, nil) == Deny {
			d.deny(o, OpCall, nil)
		}
		args := make([]sobek.Value, len(call.Arguments))
		for i, a := range call.Arguments {
			args[i] = rv.wrap(a)
		}
		return d.wrap(d.callFn(fn, t, args...))
	}).(*sobek.Object)
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
	f   weak.Pointer[sobek.Object]
}

type opaqueKey struct{ obj, fn weak.Pointer[sobek.Object] }

var (
	compatOnce     sync.Once
	compatInverted bool
)

// accessorCompatInverted probes sobek's Proxy invariant check for a
// non-configurable accessor once: the version in go.mod inverts the
// comparison of get/set (IsCompatiblePropertyDescriptor), a fixed one
// does not.
func accessorCompatInverted() bool {
	compatOnce.Do(func() {
		vm := sobek.New()
		g := vm.ToValue(shadowFunction)
		target := vm.NewObject()
		_ = target.DefineAccessorProperty("x", g, nil, sobek.FLAG_FALSE, sobek.FLAG_FALSE)
		p := vm.NewProxy(target, &sobek.ProxyTrapConfig{
			GetOwnPropertyDescriptor: func(*sobek.Object, string) sobek.PropertyDescriptor {
				return sobek.PropertyDescriptor{Getter: g, Setter: sobek.Undefined(),
					Configurable: sobek.FLAG_FALSE, Enumerable: sobek.FLAG_FALSE}
			},
		})
		_ = vm.Set("p", p)
		_, err := vm.RunString(`Object.getOwnPropertyDescriptor(p, "x")`)
		compatInverted = err != nil
	})
	return compatInverted
}
