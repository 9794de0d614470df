package webidl

import (
	"math"
	"strconv"

	"github.com/grafana/sobek"
)

// AsyncSequence is an IDL async_sequence<T> value: an object with its
// @@asyncIterator method, or with its @@iterator method (Sync) when it has
// no @@asyncIterator.
type AsyncSequence struct {
	Object *sobek.Object
	Method sobek.Value
	Sync   bool
}

// ToAsyncSequence converts v to an async_sequence type (WebIDL §3.2.22).
func (r *Realm) ToAsyncSequence(v sobek.Value) *AsyncSequence {
	// 1. If V is not an Object, throw a TypeError.
	obj, ok := v.(*sobek.Object)
	if !ok {
		r.ThrowTypeError("The provided value cannot be converted to an async sequence")
	}
	// 2. Let method be ? GetMethod(obj, %Symbol.asyncIterator%).
	if m := r.GetMethod(obj, "asyncIterator"); m != nil {
		return &AsyncSequence{Object: obj, Method: m}
	}
	// 3. If method is undefined: let syncMethod be ? GetMethod(obj, %Symbol.iterator%).
	m := r.GetMethod(obj, "iterator")
	if m == nil {
		r.ThrowTypeError("The object is neither async iterable nor iterable")
	}
	return &AsyncSequence{Object: obj, Method: m, Sync: true}
}

// Value returns the async sequence's object, or null.
func (s *AsyncSequence) Value() sobek.Value {
	if s == nil {
		return sobek.Null()
	}
	return s.Object
}

// ObservableArray is an observable array exotic object (WebIDL §3.10)
// holding its backing list of JavaScript values already converted to the
// element type.
type ObservableArray struct {
	Object *sobek.Object
	list   []sobek.Value
	r      *Realm
	// Convert converts a JavaScript value to the element type and back
	// (throwing on failure); OnSet and OnDelete are the interface's "set
	// an indexed value" and "delete an indexed value" algorithms.
	convert  func(sobek.Value) sobek.Value
	onSet    func(index uint32, v sobek.Value)
	onDelete func(index uint32, v sobek.Value)
}

// Values returns a copy of the backing list.
func (a *ObservableArray) Values() []sobek.Value { return append([]sobek.Value(nil), a.list...) }

// NewObservableArray creates an observable array exotic object.
func (r *Realm) NewObservableArray(convert func(sobek.Value) sobek.Value, onSet, onDelete func(index uint32, v sobek.Value)) *ObservableArray {
	a := &ObservableArray{r: r, convert: convert, onSet: onSet, onDelete: onDelete}
	target := r.VM.NewArray()
	// set the length of the backing list
	setLength := func(newLen uint32) bool {
		if int(newLen) > len(a.list) {
			return false
		}
		for len(a.list) > int(newLen) {
			i := len(a.list) - 1
			if a.onDelete != nil {
				a.onDelete(uint32(i), a.list[i])
			}
			a.list = a.list[:i]
		}
		return true
	}
	// set the indexed value
	setIndexed := func(index uint32, v sobek.Value) bool {
		oldLen := uint32(len(a.list))
		if index > oldLen {
			return false
		}
		idl := a.convert(v)
		if index < oldLen && a.onDelete != nil {
			a.onDelete(index, a.list[index])
		}
		if a.onSet != nil {
			a.onSet(index, idl)
		}
		if index == oldLen {
			a.list = append(a.list, idl)
		} else {
			a.list[index] = idl
		}
		return true
	}
	toLen := func(v sobek.Value) uint32 {
		n := r.toNumber(v)
		u := uint32(int64(n))
		if math.IsNaN(n) || float64(u) != n {
			r.ThrowRangeError("Invalid array length")
		}
		return u
	}
	get := func(p string, rc sobek.Value) sobek.Value {
		if p == "length" {
			return r.VM.ToValue(len(a.list))
		}
		if i, ok := arrayIndex(p); ok {
			if int(i) >= len(a.list) {
				return sobek.Undefined()
			}
			return a.list[i]
		}
		return target.Get(p)
	}
	desc := func(p string) sobek.PropertyDescriptor {
		if p == "length" {
			return sobek.PropertyDescriptor{Value: r.VM.ToValue(len(a.list)), Writable: sobek.FLAG_TRUE, Enumerable: sobek.FLAG_FALSE, Configurable: sobek.FLAG_FALSE}
		}
		if i, ok := arrayIndex(p); ok {
			if int(i) >= len(a.list) {
				return sobek.PropertyDescriptor{}
			}
			return sobek.PropertyDescriptor{Value: a.list[i], Writable: sobek.FLAG_TRUE, Enumerable: sobek.FLAG_TRUE, Configurable: sobek.FLAG_TRUE}
		}
		if r.reflectGOPD == nil {
			refl := r.VM.GlobalObject().Get("Reflect").(*sobek.Object)
			r.reflectGOPD, _ = sobek.AssertFunction(refl.Get("getOwnPropertyDescriptor"))
		}
		d, err := r.reflectGOPD(sobek.Undefined(), target, StringValue(p))
		if err != nil {
			r.Throw(err)
		}
		return r.toPropertyDescriptor(d)
	}
	set := func(p string, v sobek.Value, rc sobek.Value) bool {
		if rc == a.Object {
			if p == "length" {
				return setLength(toLen(v))
			}
			if i, ok := arrayIndex(p); ok {
				return setIndexed(i, v)
			}
		}
		return target.Set(p, v) == nil
	}
	define := func(p string, d sobek.PropertyDescriptor) bool {
		isData := d.Getter == nil && d.Setter == nil
		if p == "length" {
			if !isData {
				return false
			}
			if d.Value == nil {
				return true
			}
			return setLength(toLen(d.Value))
		}
		if i, ok := arrayIndex(p); ok {
			if !isData || d.Writable == sobek.FLAG_FALSE {
				return false
			}
			return setIndexed(i, AnyValue(d.Value))
		}
		if isData {
			return target.DefineDataProperty(p, AnyValue(d.Value), d.Writable, d.Configurable, d.Enumerable) == nil
		}
		return target.DefineAccessorProperty(p, d.Getter, d.Setter, d.Configurable, d.Enumerable) == nil
	}
	del := func(p string) bool {
		if p == "length" {
			return false
		}
		if i, ok := arrayIndex(p); ok {
			oldLen := len(a.list)
			if int(i) != oldLen-1 {
				return false
			}
			if a.onDelete != nil {
				a.onDelete(i, a.list[i])
			}
			a.list = a.list[:oldLen-1]
			return true
		}
		return target.Delete(p) == nil
	}
	has := func(p string) bool {
		if p == "length" {
			return true
		}
		if i, ok := arrayIndex(p); ok {
			return int(i) < len(a.list)
		}
		return r.hasProperty(target, p)
	}
	cfg := &sobek.ProxyTrapConfig{
		Get:                         func(_ *sobek.Object, p string, rc sobek.Value) sobek.Value { return get(p, rc) },
		GetIdx:                      func(_ *sobek.Object, i int, rc sobek.Value) sobek.Value { return get(strconv.Itoa(i), rc) },
		GetOwnPropertyDescriptor:    func(_ *sobek.Object, p string) sobek.PropertyDescriptor { return desc(p) },
		GetOwnPropertyDescriptorIdx: func(_ *sobek.Object, i int) sobek.PropertyDescriptor { return desc(strconv.Itoa(i)) },
		Set:                         func(_ *sobek.Object, p string, v, rc sobek.Value) bool { return set(p, v, rc) },
		SetIdx:                      func(_ *sobek.Object, i int, v, rc sobek.Value) bool { return set(strconv.Itoa(i), v, rc) },
		DefineProperty:              func(_ *sobek.Object, p string, d sobek.PropertyDescriptor) bool { return define(p, d) },
		DefinePropertyIdx:           func(_ *sobek.Object, i int, d sobek.PropertyDescriptor) bool { return define(strconv.Itoa(i), d) },
		DeleteProperty:              func(_ *sobek.Object, p string) bool { return del(p) },
		DeletePropertyIdx:           func(_ *sobek.Object, i int) bool { return del(strconv.Itoa(i)) },
		Has:                         func(_ *sobek.Object, p string) bool { return has(p) },
		HasIdx:                      func(_ *sobek.Object, i int) bool { return has(strconv.Itoa(i)) },
		PreventExtensions:           func(*sobek.Object) bool { return false },
		OwnKeys: func(*sobek.Object) *sobek.Object {
			var keys []any
			for i := range a.list {
				keys = append(keys, strconv.Itoa(i))
			}
			keys = append(keys, r.ownKeys(target)...)
			return r.VM.NewArray(keys...)
		},
	}
	a.Object = r.VM.ToValue(r.VM.NewProxy(target, cfg)).(*sobek.Object)
	return a
}

// Replace implements setting an observable array attribute: every value
// is deleted, then each of values is set in order.
func (a *ObservableArray) Replace(values []sobek.Value) {
	for len(a.list) > 0 {
		i := len(a.list) - 1
		if a.onDelete != nil {
			a.onDelete(uint32(i), a.list[i])
		}
		a.list = a.list[:i]
	}
	for _, v := range values {
		idl := a.convert(v)
		if a.onSet != nil {
			a.onSet(uint32(len(a.list)), idl)
		}
		a.list = append(a.list, idl)
	}
}

// ObservableArrayAttribute returns the observable array of an attribute
// of a platform object, creating it on first use (the getter returns the
// same object every time).
func (r *Realm) ObservableArrayAttribute(this sobek.Value, name string, create func() *ObservableArray) *ObservableArray {
	v := r.CachedAttribute(this, name+" observable array", func() sobek.Value { return r.VM.ToValue(create()) })
	return v.Export().(*ObservableArray)
}
