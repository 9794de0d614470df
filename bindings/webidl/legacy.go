package webidl

import (
	"strconv"

	"github.com/dop251/goja"
)

// LegacyProperties describes the indexed and named properties of a
// legacy platform object (an interface with getter/setter/deleter special
// operations). Every function gets the object's Go implementation.
type LegacyProperties struct {
	// Indexed properties: supported indices are 0 ≤ i < IndexedLength.
	IndexedLength func(r *Realm, impl any) uint32
	IndexedGet    func(r *Realm, impl any, index uint32) goja.Value
	IndexedSet    func(r *Realm, impl any, index uint32, v goja.Value) // nil: no indexed setter
	// Named properties: supported names, and the value of one of them.
	NamedNames  func(r *Realm, impl any) []string
	NamedGet    func(r *Realm, impl any, name string) goja.Value
	NamedSet    func(r *Realm, impl any, name string, v goja.Value) // nil: no named setter
	NamedDelete func(r *Realm, impl any, name string)               // nil: no named deleter
	// [LegacyUnenumerableNamedProperties] and [LegacyOverrideBuiltIns].
	UnenumerableNamed bool
	OverrideBuiltIns  bool
}

// arrayIndex parses an array index (a canonical numeric string for an
// integer 0 ≤ i < 2^32−1).
func arrayIndex(p string) (uint32, bool) {
	if p == "" || len(p) > 10 || (len(p) > 1 && p[0] == '0') {
		return 0, false
	}
	n, err := strconv.ParseUint(p, 10, 64)
	if err != nil || n >= 1<<32-1 {
		return 0, false
	}
	return uint32(n), true
}

// legacyObject wraps target (an ordinary platform object) in a Proxy
// implementing the legacy platform object internal methods of WebIDL
// §3.9 ([[GetOwnProperty]], [[Set]], [[DefineOwnProperty]], [[Delete]],
// [[PreventExtensions]], [[OwnPropertyKeys]]).
func (r *Realm) legacyObject(target *goja.Object, impl any, lp *LegacyProperties) *goja.Object {
	if r.reflectGet == nil {
		refl := r.VM.GlobalObject().Get("Reflect").(*goja.Object)
		r.reflectGet, _ = goja.AssertFunction(refl.Get("get"))
		r.reflectSet, _ = goja.AssertFunction(refl.Get("set"))
		r.reflectGOPD, _ = goja.AssertFunction(refl.Get("getOwnPropertyDescriptor"))
	}
	hasOwn := func(p string) bool {
		d, err := r.reflectGOPD(goja.Undefined(), target, StringValue(p))
		return err == nil && !goja.IsUndefined(d)
	}
	// The named property visibility algorithm.
	namedVisible := func(p string) bool {
		if lp.NamedNames == nil {
			return false
		}
		supported := false
		for _, n := range lp.NamedNames(r, impl) {
			if n == p {
				supported = true
				break
			}
		}
		if !supported || hasOwn(p) {
			return false
		}
		if lp.OverrideBuiltIns {
			return true
		}
		for proto := target.Prototype(); proto != nil; proto = proto.Prototype() {
			if d, err := r.reflectGOPD(goja.Undefined(), proto, StringValue(p)); err == nil && !goja.IsUndefined(d) {
				return false
			}
		}
		return true
	}
	// LegacyPlatformObjectGetOwnProperty(O, P, ignoreNamedProps).
	exotic := func(p string, ignoreNamed bool) (goja.Value, bool, bool) {
		if lp.IndexedGet != nil {
			if i, ok := arrayIndex(p); ok {
				if i < lp.IndexedLength(r, impl) {
					return lp.IndexedGet(r, impl, i), lp.IndexedSet != nil, true
				}
				ignoreNamed = true
			}
		}
		if lp.NamedGet != nil && !ignoreNamed && namedVisible(p) {
			return lp.NamedGet(r, impl, p), lp.NamedSet != nil, true
		}
		return nil, false, false
	}
	desc := func(p string) goja.PropertyDescriptor {
		if v, writable, ok := exotic(p, false); ok {
			enumerable := goja.FLAG_TRUE
			if _, isIdx := arrayIndex(p); !isIdx && lp.UnenumerableNamed {
				enumerable = goja.FLAG_FALSE
			}
			return goja.PropertyDescriptor{Value: v, Writable: goja.ToFlag(writable), Enumerable: enumerable, Configurable: goja.FLAG_TRUE}
		}
		d, err := r.reflectGOPD(goja.Undefined(), target, StringValue(p))
		if err != nil {
			r.Throw(err)
		}
		return r.toPropertyDescriptor(d)
	}
	get := func(p string, receiver goja.Value) goja.Value {
		if v, _, ok := exotic(p, false); ok {
			return v
		}
		v, err := r.reflectGet(goja.Undefined(), target, StringValue(p), receiver)
		if err != nil {
			r.Throw(err)
		}
		return v
	}
	set := func(p string, v, receiver goja.Value) bool {
		// [[Set]]: an indexed/named setter runs when O is the receiver.
		if obj, ok := receiver.(*goja.Object); ok && r.getSlot(obj) != nil && r.getSlot(obj).impl == impl {
			if i, isIdx := arrayIndex(p); isIdx && lp.IndexedSet != nil {
				lp.IndexedSet(r, impl, i, v)
				return true
			}
			if _, isIdx := arrayIndex(p); !isIdx && lp.NamedSet != nil {
				lp.NamedSet(r, impl, p, v)
				return true
			}
		}
		res, err := r.reflectSet(goja.Undefined(), target, StringValue(p), v, receiver)
		if err != nil {
			r.Throw(err)
		}
		return res.ToBoolean()
	}
	define := func(p string, d goja.PropertyDescriptor) bool {
		isData := d.Getter == nil && d.Setter == nil
		if i, isIdx := arrayIndex(p); isIdx && lp.IndexedGet != nil {
			if !isData || lp.IndexedSet == nil {
				return false
			}
			lp.IndexedSet(r, impl, i, AnyValue(d.Value))
			return true
		}
		if lp.NamedGet != nil {
			if lp.OverrideBuiltIns || !hasOwn(p) {
				creating := true
				for _, n := range lp.NamedNames(r, impl) {
					if n == p {
						creating = false
					}
				}
				if lp.NamedSet == nil && !creating {
					return false
				}
				if lp.NamedSet != nil {
					if !isData {
						return false
					}
					lp.NamedSet(r, impl, p, AnyValue(d.Value))
					return true
				}
			}
		}
		if isData {
			return target.DefineDataProperty(p, AnyValue(d.Value), d.Writable, d.Configurable, d.Enumerable) == nil
		}
		return target.DefineAccessorProperty(p, d.Getter, d.Setter, d.Configurable, d.Enumerable) == nil
	}
	del := func(p string) bool {
		if i, isIdx := arrayIndex(p); isIdx && lp.IndexedGet != nil {
			return i >= lp.IndexedLength(r, impl)
		}
		if lp.NamedGet != nil && namedVisible(p) {
			if lp.NamedDelete == nil {
				return false
			}
			lp.NamedDelete(r, impl, p)
			return true
		}
		return target.Delete(p) == nil
	}
	cfg := &goja.ProxyTrapConfig{
		GetOwnPropertyDescriptor:    func(_ *goja.Object, p string) goja.PropertyDescriptor { return desc(p) },
		GetOwnPropertyDescriptorIdx: func(_ *goja.Object, i int) goja.PropertyDescriptor { return desc(strconv.Itoa(i)) },
		Get:                         func(_ *goja.Object, p string, rc goja.Value) goja.Value { return get(p, rc) },
		GetIdx:                      func(_ *goja.Object, i int, rc goja.Value) goja.Value { return get(strconv.Itoa(i), rc) },
		Has: func(_ *goja.Object, p string) bool {
			if _, _, ok := exotic(p, false); ok {
				return true
			}
			return r.hasProperty(target, p)
		},
		HasIdx: func(_ *goja.Object, i int) bool {
			if _, _, ok := exotic(strconv.Itoa(i), false); ok {
				return true
			}
			return r.hasProperty(target, strconv.Itoa(i))
		},
		Set:               func(_ *goja.Object, p string, v, rc goja.Value) bool { return set(p, v, rc) },
		SetIdx:            func(_ *goja.Object, i int, v, rc goja.Value) bool { return set(strconv.Itoa(i), v, rc) },
		DefineProperty:    func(_ *goja.Object, p string, d goja.PropertyDescriptor) bool { return define(p, d) },
		DefinePropertyIdx: func(_ *goja.Object, i int, d goja.PropertyDescriptor) bool { return define(strconv.Itoa(i), d) },
		DeleteProperty:    func(_ *goja.Object, p string) bool { return del(p) },
		DeletePropertyIdx: func(_ *goja.Object, i int) bool { return del(strconv.Itoa(i)) },
		PreventExtensions: func(*goja.Object) bool { return false },
		OwnKeys: func(*goja.Object) *goja.Object {
			var keys []any
			if lp.IndexedGet != nil {
				n := lp.IndexedLength(r, impl)
				for i := uint32(0); i < n; i++ {
					keys = append(keys, strconv.FormatUint(uint64(i), 10))
				}
			}
			if lp.NamedNames != nil {
				for _, n := range lp.NamedNames(r, impl) {
					if namedVisible(n) {
						keys = append(keys, n)
					}
				}
			}
			own := r.ownKeys(target)
			keys = append(keys, own...)
			return r.VM.NewArray(keys...)
		},
	}
	p := r.VM.NewProxy(target, cfg)
	return r.VM.ToValue(p).(*goja.Object)
}

func (r *Realm) hasProperty(o *goja.Object, p string) bool {
	if r.reflectHas == nil {
		refl := r.VM.GlobalObject().Get("Reflect").(*goja.Object)
		r.reflectHas, _ = goja.AssertFunction(refl.Get("has"))
	}
	v, err := r.reflectHas(goja.Undefined(), o, StringValue(p))
	if err != nil {
		r.Throw(err)
	}
	return v.ToBoolean()
}

// ownKeys returns Reflect.ownKeys(o) (strings, then symbols).
func (r *Realm) ownKeys(o *goja.Object) []any {
	refl := r.VM.GlobalObject().Get("Reflect").(*goja.Object)
	f, _ := goja.AssertFunction(refl.Get("ownKeys"))
	v, err := f(goja.Undefined(), o)
	if err != nil {
		r.Throw(err)
	}
	var out []any
	r.ToSequence(v, func(k goja.Value) { out = append(out, k) })
	return out
}

// toPropertyDescriptor converts a descriptor object (or undefined) to a
// goja.PropertyDescriptor.
func (r *Realm) toPropertyDescriptor(d goja.Value) goja.PropertyDescriptor {
	o, ok := d.(*goja.Object)
	if !ok {
		return goja.PropertyDescriptor{}
	}
	var pd goja.PropertyDescriptor
	flag := func(name string) goja.Flag {
		v := o.Get(name)
		if v == nil || goja.IsUndefined(v) {
			return goja.FLAG_NOT_SET
		}
		return goja.ToFlag(v.ToBoolean())
	}
	pd.Configurable, pd.Enumerable = flag("configurable"), flag("enumerable")
	if g := o.Get("get"); g != nil && !(goja.IsUndefined(g) && !r.hasProperty(o, "get")) {
		pd.Getter = g
	}
	if s := o.Get("set"); s != nil && !(goja.IsUndefined(s) && !r.hasProperty(o, "set")) {
		pd.Setter = s
	}
	if pd.Getter == nil && pd.Setter == nil {
		pd.Value = o.Get("value")
		pd.Writable = flag("writable")
	}
	return pd
}
