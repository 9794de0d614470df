package webidl

import (
	"github.com/dop251/goja"
)

// GetMethod implements ECMAScript GetMethod(v, @@name): nil when the
// property is undefined or null, a TypeError when it is not callable.
func (r *Realm) GetMethod(v *goja.Object, symbol string) goja.Value {
	m := v.GetSymbol(r.Symbol(symbol))
	if IsNullish(m) {
		return nil
	}
	if _, ok := goja.AssertFunction(m); !ok {
		r.ThrowTypeError("@@%s is not a function", symbol)
	}
	return m
}

// ToSequence converts v to a sequence: a TypeError unless v is an object
// with an @@iterator method; each value is passed to each in order.
func (r *Realm) ToSequence(v goja.Value, each func(goja.Value)) {
	obj, ok := v.(*goja.Object)
	if !ok {
		r.ThrowTypeError("The provided value cannot be converted to a sequence")
	}
	method := r.GetMethod(obj, "iterator")
	if method == nil {
		r.ThrowTypeError("The object must have a callable @@iterator property")
	}
	r.IterateWith(obj, method, each)
}

// IterateWith implements "create a sequence from an iterable" with an
// already obtained @@iterator method.
func (r *Realm) IterateWith(obj *goja.Object, method goja.Value, each func(goja.Value)) {
	fn, _ := goja.AssertFunction(method)
	// 1. Let iteratorRecord be ? GetIteratorFromMethod(iterable, method).
	itv, err := fn(obj)
	if err != nil {
		r.Throw(err)
	}
	it, ok := itv.(*goja.Object)
	if !ok {
		r.ThrowTypeError("Result of the Symbol.iterator method is not an object")
	}
	nextV := it.Get("next")
	next, ok := goja.AssertFunction(nextV)
	if !ok {
		r.ThrowTypeError("The iterator's next method is not callable")
	}
	// 3. Repeat:
	for {
		// 3.1. Let next be ? IteratorStep(iteratorRecord).
		resV, err := next(it)
		if err != nil {
			r.Throw(err)
		}
		res, ok := resV.(*goja.Object)
		if !ok {
			r.ThrowTypeError("Iterator result is not an object")
		}
		// 3.2. If next is false, then return.
		if res.Get("done").ToBoolean() {
			return
		}
		// 3.3-3.4. Let nextItem be ? IteratorValue(next); convert it.
		each(AnyValue(res.Get("value")))
	}
}

// SequenceValue converts a Go slice to a JavaScript array.
func SequenceValue[T any](r *Realm, s []T, conv func(T) goja.Value) goja.Value {
	vals := make([]any, len(s))
	for i, x := range s {
		vals[i] = conv(x)
	}
	return r.VM.NewArray(vals...)
}

// FrozenArrayValue converts a Go slice to a frozen JavaScript array.
func FrozenArrayValue[T any](r *Realm, s []T, conv func(T) goja.Value) goja.Value {
	arr := SequenceValue(r, s, conv)
	freeze, _ := goja.AssertFunction(r.VM.GlobalObject().Get("Object").(*goja.Object).Get("freeze"))
	res, err := freeze(goja.Undefined(), arr)
	if err != nil {
		r.Throw(err)
	}
	return res
}

// ToRecord converts v to a record: a TypeError unless v is an object; each
// own enumerable string-keyed property is passed to each in
// [[OwnPropertyKeys]] order with its value.
func (r *Realm) ToRecord(v goja.Value, each func(key goja.Value, value goja.Value)) {
	// 1. If Type(O) is not Object, throw a TypeError.
	obj, ok := v.(*goja.Object)
	if !ok {
		r.ThrowTypeError("The provided value cannot be converted to a record")
	}
	reflectObj := r.VM.GlobalObject().Get("Reflect").(*goja.Object)
	ownKeys, _ := goja.AssertFunction(reflectObj.Get("ownKeys"))
	gopd, _ := goja.AssertFunction(reflectObj.Get("getOwnPropertyDescriptor"))
	// 3. Let keys be ? O.[[OwnPropertyKeys]]().
	keysV, err := ownKeys(goja.Undefined(), obj)
	if err != nil {
		r.Throw(err)
	}
	var keys []goja.Value
	r.ToSequence(keysV, func(k goja.Value) { keys = append(keys, k) })
	// 4. For each element key of keys:
	for _, key := range keys {
		if _, isSym := key.(*goja.Symbol); isSym {
			continue
		}
		// 4.1. Let desc be ? O.[[GetOwnProperty]](key).
		desc, err := gopd(goja.Undefined(), obj, key)
		if err != nil {
			r.Throw(err)
		}
		// 4.2. If desc is not undefined and desc.[[Enumerable]] is true:
		d, ok := desc.(*goja.Object)
		if !ok || !d.Get("enumerable").ToBoolean() {
			continue
		}
		// 4.2.1-4. Convert key and Get(O, key).
		each(key, AnyValue(obj.Get(key.String())))
	}
}

// RecordValue converts a record to a JavaScript object.
func RecordValue[K ~string, V any](r *Realm, rec Record[K, V], key func(K) goja.Value, conv func(V) goja.Value) goja.Value {
	obj := r.VM.NewObject()
	for _, e := range rec {
		kv := key(e.Key)
		must(obj.DefineDataProperty(kv.String(), conv(e.Value), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE))
	}
	return obj
}

// Set sets key to value, replacing an existing entry in place.
func (rec *Record[K, V]) Set(key K, value V) {
	for i := range *rec {
		if (*rec)[i].Key == key {
			(*rec)[i].Value = value
			return
		}
	}
	*rec = append(*rec, RecordEntry[K, V]{Key: key, Value: value})
}

// DictionaryObject starts a dictionary conversion: it returns nil for
// undefined or null (every member takes its default) and the object
// otherwise, throwing a TypeError for other values.
func (r *Realm) DictionaryObject(v goja.Value, dict string) *goja.Object {
	if IsNullish(v) {
		return nil
	}
	obj, ok := v.(*goja.Object)
	if !ok {
		r.ThrowTypeError("The provided value is not of type '%s'", dict)
	}
	return obj
}

// DictionaryMember reads one member (Get, so a getter runs exactly once):
// nil when the object is nil or the value is undefined.
func (r *Realm) DictionaryMember(obj *goja.Object, key string) goja.Value {
	if obj == nil {
		return nil
	}
	v := obj.Get(key)
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	return v
}

// RequiredMemberMissing throws the TypeError for a missing required
// dictionary member.
func (r *Realm) RequiredMemberMissing(dict, member string) {
	r.ThrowTypeError("Failed to read the '%s' property from '%s': Required member is undefined.", member, dict)
}

// NotEnoughArguments throws the TypeError for a call with too few
// arguments.
func (r *Realm) NotEnoughArguments(op string, required, given int) {
	r.ThrowTypeError("Failed to execute '%s': %d argument(s) required, but only %d present.", op, required, given)
}

// Arg returns argument i, or nil when it was not passed.
func Arg(call goja.FunctionCall, i int) goja.Value {
	if i < len(call.Arguments) {
		return call.Arguments[i]
	}
	return nil
}

// IsCallable reports whether v is a callable object.
func IsCallable(v goja.Value) bool {
	_, ok := goja.AssertFunction(v)
	return ok
}

// BufferKind names the buffer source types.
type BufferKind string

// Buffer source kinds; typed arrays use their constructor names
// ("Uint8Array", ...).
const (
	KindArrayBuffer BufferKind = "ArrayBuffer"
	KindDataView    BufferKind = "DataView"
)

// BufferSource is an IDL buffer source value (ArrayBuffer, DataView or a
// typed array), kept as the JavaScript object.
type BufferSource struct {
	Object *goja.Object
	Kind   BufferKind
}

// Value returns the object, or null.
func (b BufferSource) Value() goja.Value {
	if b.Object == nil {
		return goja.Null()
	}
	return b.Object
}

// Bytes returns the bytes the buffer source views (not a copy; nil when
// detached).
func (b BufferSource) Bytes() []byte {
	if b.Object == nil {
		return nil
	}
	switch b.Kind {
	case KindArrayBuffer:
		ab, _ := b.Object.Export().(goja.ArrayBuffer)
		return ab.Bytes()
	}
	bufV := b.Object.Get("buffer")
	bo, ok := bufV.(*goja.Object)
	if !ok {
		return nil
	}
	ab, ok := bo.Export().(goja.ArrayBuffer)
	if !ok || ab.Detached() {
		return nil
	}
	off := int(b.Object.Get("byteOffset").ToInteger())
	n := int(b.Object.Get("byteLength").ToInteger())
	data := ab.Bytes()
	if off+n > len(data) {
		return nil
	}
	return data[off : off+n]
}

// BufferKindOf returns the kind of buffer source v is by its internal
// slots, or "" when it is none.
func (r *Realm) BufferKindOf(v goja.Value) BufferKind {
	obj, ok := v.(*goja.Object)
	if !ok {
		return ""
	}
	if _, ok := obj.Export().(goja.ArrayBuffer); ok {
		return KindArrayBuffer
	}
	// %TypedArray%.prototype[@@toStringTag] returns [[TypedArrayName]],
	// or undefined for objects without it.
	if r.typedArrayTag == nil {
		r.initBufferProbes()
	}
	if name, err := r.typedArrayTag(obj); err == nil && !goja.IsUndefined(name) {
		return BufferKind(name.String())
	}
	if ex := r.VM.Try(func() {
		if _, err := r.dataViewLen(obj); err != nil {
			panic(r.VM.ToValue("no"))
		}
	}); ex == nil {
		return KindDataView
	}
	return ""
}

func (r *Realm) initBufferProbes() {
	v, err := r.VM.RunString(`(function(){
		const ta = Object.getPrototypeOf(Uint8Array.prototype);
		return [Object.getOwnPropertyDescriptor(ta, Symbol.toStringTag).get,
		        Object.getOwnPropertyDescriptor(DataView.prototype, "byteLength").get];
	})()`)
	if err != nil {
		panic(err)
	}
	arr := v.(*goja.Object)
	r.typedArrayTag, _ = goja.AssertFunction(arr.Get("0"))
	r.dataViewLen, _ = goja.AssertFunction(arr.Get("1"))
}

// ToBufferSource converts v to a buffer source accepting the given kinds
// (ArrayBufferView accepts DataView and every typed array: pass "view").
// [AllowShared] is accepted and has no effect: goja has no
// SharedArrayBuffer.
func (r *Realm) ToBufferSource(v goja.Value, typeName string, kinds ...BufferKind) BufferSource {
	k := r.BufferKindOf(v)
	if k != "" {
		for _, want := range kinds {
			if want == k || (want == "view" && k != KindArrayBuffer) {
				return BufferSource{Object: v.(*goja.Object), Kind: k}
			}
		}
	}
	r.ThrowTypeError("The provided value is not of type '%s'", typeName)
	return BufferSource{}
}
