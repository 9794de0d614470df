package webidl

import (
	"strconv"

	"github.com/grafana/sobek"
)

// LegacyProperties describes the indexed and named properties of a
// legacy platform object (an interface with getter/setter/deleter special
// operations). Every function gets the object's Go implementation.
type LegacyProperties struct {
	// Indexed properties: supported indices are 0 ≤ i < IndexedLength.
	IndexedLength func(r *Realm, impl any) uint32
	IndexedGet    func(r *Realm, impl any, index uint32) sobek.Value
	IndexedSet    func(r *Realm, impl any, index uint32, v sobek.Value) // nil: no indexed setter
	// Named properties: supported names, and the value of one of them.
	NamedNames  func(r *Realm, impl any) []string
	NamedGet    func(r *Realm, impl any, name string) sobek.Value
	NamedSet    func(r *Realm, impl any, name string, v sobek.Value) // nil: no named setter
	NamedDelete func(r *Realm, impl any, name string)                // nil: no named deleter
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
func (r *Realm) legacyObject(target *sobek.Object, impl any, lp *LegacyProperties) *sobek.Object {
	r.initReflect()
	hasOwn := func(p string) bool {
		d, err := r.reflectGOPD(sobek.Undefined(), target, StringValue(p))
		return err == nil && !sobek.IsUndefined(d)
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
			if d, err := r.reflectGOPD(sobek.Undefined(), proto, StringValue(p)); err == nil && !sobek.IsUndefined(d) {
				return false
			}
		}
		return true
	}
	// LegacyPlatformObjectGetOwnProperty(O, P, ignoreNamedProps).
	exotic := func(p string, ignoreNamed bool) (sobek.Value, bool, bool) {
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
	desc := func(p string) sobek.PropertyDescriptor {
		if v, writable, ok := exotic(p, false); ok {
			enumerable := sobek.FLAG_TRUE
			if _, isIdx := arrayIndex(p); !isIdx && lp.UnenumerableNamed {
				enumerable = sobek.FLAG_FALSE
			}
			return sobek.PropertyDescriptor{Value: v, Writable: sobek.ToFlag(writable), Enumerable: enumerable, Configurable: sobek.FLAG_TRUE}
		}
		d, err := r.reflectGOPD(sobek.Undefined(), target, StringValue(p))
		if err != nil {
			r.Throw(err)
		}
		return r.toPropertyDescriptor(d)
	}
	get := func(p string, receiver sobek.Value) sobek.Value {
		if v, _, ok := exotic(p, false); ok {
			return v
		}
		v, err := r.reflectGet(sobek.Undefined(), target, StringValue(p), receiver)
		if err != nil {
			r.Throw(err)
		}
		return v
	}
	set := func(p string, v, receiver sobek.Value) bool {
		// [[Set]]: an indexed/named setter runs when O is the receiver.
		if obj, ok := receiver.(*sobek.Object); ok && r.getSlot(obj) != nil && r.getSlot(obj).impl == impl {
			if i, isIdx := arrayIndex(p); isIdx && lp.IndexedSet != nil {
				lp.IndexedSet(r, impl, i, v)
				return true
			}
			if _, isIdx := arrayIndex(p); !isIdx && lp.NamedSet != nil {
				lp.NamedSet(r, impl, p, v)
				return true
			}
		}
		res, err := r.reflectSet(sobek.Undefined(), target, StringValue(p), v, receiver)
		if err != nil {
			r.Throw(err)
		}
		return res.ToBoolean()
	}
	define := func(p string, d sobek.PropertyDescriptor) bool {
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
	cfg := &sobek.ProxyTrapConfig{
		GetOwnPropertyDescriptor:    func(_ *sobek.Object, p string) sobek.PropertyDescriptor { return desc(p) },
		GetOwnPropertyDescriptorIdx: func(_ *sobek.Object, i int) sobek.PropertyDescriptor { return desc(strconv.Itoa(i)) },
		Get:                         func(_ *sobek.Object, p string, rc sobek.Value) sobek.Value { return get(p, rc) },
		GetIdx:                      func(_ *sobek.Object, i int, rc sobek.Value) sobek.Value { return get(strconv.Itoa(i), rc) },
		Has: func(_ *sobek.Object, p string) bool {
			if _, _, ok := exotic(p, false); ok {
				return true
			}
			return r.hasProperty(target, p)
		},
		HasIdx: func(_ *sobek.Object, i int) bool {
			if _, _, ok := exotic(strconv.Itoa(i), false); ok {
				return true
			}
			return r.hasProperty(target, strconv.Itoa(i))
		},
		Set:               func(_ *sobek.Object, p string, v, rc sobek.Value) bool { return set(p, v, rc) },
		SetIdx:            func(_ *sobek.Object, i int, v, rc sobek.Value) bool { return set(strconv.Itoa(i), v, rc) },
		DefineProperty:    func(_ *sobek.Object, p string, d sobek.PropertyDescriptor) bool { return define(p, d) },
		DefinePropertyIdx: func(_ *sobek.Object, i int, d sobek.PropertyDescriptor) bool { return define(strconv.Itoa(i), d) },
		DeleteProperty:    func(_ *sobek.Object, p string) bool { return del(p) },
		DeletePropertyIdx: func(_ *sobek.Object, i int) bool { return del(strconv.Itoa(i)) },
		PreventExtensions: func(*sobek.Object) bool { return false },
		OwnKeys: func(*sobek.Object) *sobek.Object {
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
	return r.VM.ToValue(p).(*sobek.Object)
}

func (r *Realm) hasProperty(o *sobek.Object, p string) bool {
	r.initReflect()
	v, err := r.reflectHas(sobek.Undefined(), o, StringValue(p))
	if err != nil {
		r.Throw(err)
	}
	return v.ToBoolean()
}

// ownKeys returns %Reflect.ownKeys%(o) (strings, then symbols).
func (r *Realm) ownKeys(o *sobek.Object) []any {
	r.initReflect()
	v, err := r.reflectOwnKeys(sobek.Undefined(), o)
	if err != nil {
		r.Throw(err)
	}
	var out []any
	r.ToSequence(v, func(k sobek.Value) { out = append(out, k) })
	return out
}

// toPropertyDescriptor converts a descriptor object (or undefined) to a
// sobek.PropertyDescriptor.
func (r *Realm) toPropertyDescriptor(d sobek.Value) sobek.PropertyDescriptor {
	o, ok := d.(*sobek.Object)
	if !ok {
		return sobek.PropertyDescriptor{}
	}
	var pd sobek.PropertyDescriptor
	flag := func(name string) sobek.Flag {
		v := o.Get(name)
		if v == nil || sobek.IsUndefined(v) {
			return sobek.FLAG_NOT_SET
		}
		return sobek.ToFlag(v.ToBoolean())
	}
	pd.Configurable, pd.Enumerable = flag("configurable"), flag("enumerable")
	if g := o.Get("get"); g != nil && !(sobek.IsUndefined(g) && !r.hasProperty(o, "get")) {
		pd.Getter = g
	}
	if s := o.Get("set"); s != nil && !(sobek.IsUndefined(s) && !r.hasProperty(o, "set")) {
		pd.Setter = s
	}
	if pd.Getter == nil && pd.Setter == nil {
		pd.Value = o.Get("value")
		pd.Writable = flag("writable")
	}
	return pd
}
