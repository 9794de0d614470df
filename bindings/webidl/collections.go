package webidl

import (
	"github.com/grafana/sobek"
)

// GetMethod implements ECMAScript GetMethod(v, @@name): nil when the
// property is undefined or null, a TypeError when it is not callable.
func (r *Realm) GetMethod(v *sobek.Object, symbol string) sobek.Value {
	m := v.GetSymbol(r.Symbol(symbol))
	if IsNullish(m) {
		return nil
	}
	if _, ok := sobek.AssertFunction(m); !ok {
		r.ThrowTypeError("@@%s is not a function", symbol)
	}
	return m
}

// ToSequence converts v to a sequence: a TypeError unless v is an object
// with an @@iterator method; each value is passed to each in order.
func (r *Realm) ToSequence(v sobek.Value, each func(sobek.Value)) {
	obj, ok := v.(*sobek.Object)
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
func (r *Realm) IterateWith(obj *sobek.Object, method sobek.Value, each func(sobek.Value)) {
	fn, _ := sobek.AssertFunction(method)
	// 1. Let iteratorRecord be ? GetIteratorFromMethod(iterable, method).
	itv, err := fn(obj)
	if err != nil {
		r.Throw(err)
	}
	it, ok := itv.(*sobek.Object)
	if !ok {
		r.ThrowTypeError("Result of the Symbol.iterator method is not an object")
	}
	nextV := it.Get("next")
	next, ok := sobek.AssertFunction(nextV)
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
		res, ok := resV.(*sobek.Object)
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
func SequenceValue[T any](r *Realm, s []T, conv func(T) sobek.Value) sobek.Value {
	vals := make([]any, len(s))
	for i, x := range s {
		vals[i] = conv(x)
	}
	return r.VM.NewArray(vals...)
}

// FrozenArrayValue converts a Go slice to a frozen JavaScript array.
func FrozenArrayValue[T any](r *Realm, s []T, conv func(T) sobek.Value) sobek.Value {
	arr := SequenceValue(r, s, conv)
	freeze, _ := sobek.AssertFunction(r.VM.GlobalObject().Get("Object").(*sobek.Object).Get("freeze"))
	res, err := freeze(sobek.Undefined(), arr)
	if err != nil {
		r.Throw(err)
	}
	return res
}

// ToRecord converts v to a record
// (https://webidl.spec.whatwg.org/#js-record): a TypeError unless v is an
// object; for each own enumerable property in [[OwnPropertyKeys]] order,
// each is called with the key, which it converts first (a Symbol key
// throws a TypeError there), and a function that gets the value.
func (r *Realm) ToRecord(v sobek.Value, each func(key sobek.Value, value func() sobek.Value)) {
	// 1. If Type(O) is not Object, throw a TypeError.
	obj, ok := v.(*sobek.Object)
	if !ok {
		r.ThrowTypeError("The provided value cannot be converted to a record")
	}
	reflectObj := r.VM.GlobalObject().Get("Reflect").(*sobek.Object)
	ownKeys, _ := sobek.AssertFunction(reflectObj.Get("ownKeys"))
	gopd, _ := sobek.AssertFunction(reflectObj.Get("getOwnPropertyDescriptor"))
	get, _ := sobek.AssertFunction(reflectObj.Get("get"))
	// 3. Let keys be ? O.[[OwnPropertyKeys]]().
	keysV, err := ownKeys(sobek.Undefined(), obj)
	if err != nil {
		r.Throw(err)
	}
	var keys []sobek.Value
	r.ToSequence(keysV, func(k sobek.Value) { keys = append(keys, k) })
	// 4. For each element key of keys:
	for _, key := range keys {
		// 4.1. Let desc be ? O.[[GetOwnProperty]](key).
		desc, err := gopd(sobek.Undefined(), obj, key)
		if err != nil {
			r.Throw(err)
		}
		// 4.2. If desc is not undefined and desc.[[Enumerable]] is true:
		d, ok := desc.(*sobek.Object)
		if !ok || !d.Get("enumerable").ToBoolean() {
			continue
		}
		// 4.2.1. Let typedKey be key converted to an IDL value of type K
		//        (a Symbol cannot be: TypeError).
		if _, isSym := key.(*sobek.Symbol); isSym {
			r.ThrowTypeError("Cannot convert a Symbol value to a string")
		}
		// 4.2.2-4. Let value be ? Get(O, key), converted to V; set
		//        result[typedKey] to it.
		each(key, func() sobek.Value {
			val, err := get(sobek.Undefined(), obj, key)
			if err != nil {
				r.Throw(err)
			}
			return AnyValue(val)
		})
	}
}

// RecordValue converts a record to a JavaScript object.
func RecordValue[K ~string, V any](r *Realm, rec Record[K, V], key func(K) sobek.Value, conv func(V) sobek.Value) sobek.Value {
	obj := r.VM.NewObject()
	for _, e := range rec {
		kv := key(e.Key)
		must(obj.DefineDataProperty(kv.String(), conv(e.Value), sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_TRUE))
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
func (r *Realm) DictionaryObject(v sobek.Value, dict string) *sobek.Object {
	if IsNullish(v) {
		return nil
	}
	obj, ok := v.(*sobek.Object)
	if !ok {
		r.ThrowTypeError("The provided value is not of type '%s'", dict)
	}
	return obj
}

// DictionaryMember reads one member (Get, so a getter runs exactly once):
// nil when the object is nil or the value is undefined.
func (r *Realm) DictionaryMember(obj *sobek.Object, key string) sobek.Value {
	if obj == nil {
		return nil
	}
	v := obj.Get(key)
	if v == nil || sobek.IsUndefined(v) {
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
func Arg(call sobek.FunctionCall, i int) sobek.Value {
	if i < len(call.Arguments) {
		return call.Arguments[i]
	}
	return nil
}

// IsCallable reports whether v is a callable object.
func IsCallable(v sobek.Value) bool {
	_, ok := sobek.AssertFunction(v)
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
	Object *sobek.Object
	Kind   BufferKind
	// foreign is, when Object is this realm's view of a buffer source of
	// another realm of the agent (Realm.ForeignObject), that buffer
	// source itself: Bytes reads its bytes through it.
	foreign *sobek.Object
}

// Value returns the object, or null.
func (b BufferSource) Value() sobek.Value {
	if b.Object == nil {
		return sobek.Null()
	}
	return b.Object
}

// Bytes returns the bytes the buffer source views (not a copy; nil when
// detached).
func (b BufferSource) Bytes() []byte {
	obj := b.Object
	if b.foreign != nil {
		obj = b.foreign
	}
	if obj == nil {
		return nil
	}
	switch b.Kind {
	case KindArrayBuffer:
		ab, _ := obj.Export().(sobek.ArrayBuffer)
		return ab.Bytes()
	}
	bufV := obj.Get("buffer")
	bo, ok := bufV.(*sobek.Object)
	if !ok {
		return nil
	}
	ab, ok := bo.Export().(sobek.ArrayBuffer)
	if !ok || ab.Detached() {
		return nil
	}
	off := int(obj.Get("byteOffset").ToInteger())
	n := int(obj.Get("byteLength").ToInteger())
	data := ab.Bytes()
	if off+n > len(data) {
		return nil
	}
	return data[off : off+n]
}

// BufferKindOf returns the kind of buffer source v is by its internal
// slots, or "" when it is none. Like ToBufferSource, it recognizes this
// realm's view of a buffer source of another realm of the agent
// (Realm.ForeignObject): an object is an ArrayBuffer or a view whatever
// realm it belongs to.
func (r *Realm) BufferKindOf(v sobek.Value) BufferKind {
	obj, ok := v.(*sobek.Object)
	if !ok {
		return ""
	}
	if k := r.ownBufferKind(obj); k != "" {
		return k
	}
	_, k := r.foreignBuffer(obj)
	return k
}

// foreignBuffer is, when obj is this realm's view of a buffer source of
// another realm of the agent, that buffer source and its kind (nil, ""
// otherwise).
func (r *Realm) foreignBuffer(obj *sobek.Object) (*sobek.Object, BufferKind) {
	if r.ForeignObject == nil {
		return nil, ""
	}
	other, fo := r.ForeignObject(obj)
	if other == nil || other == r || fo == nil {
		return nil, ""
	}
	if k := other.ownBufferKind(fo); k != "" {
		return fo, k
	}
	return nil, ""
}

// ownBufferKind is BufferKindOf for the objects of this realm.
func (r *Realm) ownBufferKind(obj *sobek.Object) BufferKind {
	if _, ok := obj.Export().(sobek.ArrayBuffer); ok {
		return KindArrayBuffer
	}
	// %TypedArray%.prototype[@@toStringTag] returns [[TypedArrayName]],
	// or undefined for objects without it.
	if r.typedArrayTag == nil {
		r.initBufferProbes()
	}
	if name, err := r.typedArrayTag(obj); err == nil && !sobek.IsUndefined(name) {
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
	arr := v.(*sobek.Object)
	r.typedArrayTag, _ = sobek.AssertFunction(arr.Get("0"))
	r.dataViewLen, _ = sobek.AssertFunction(arr.Get("1"))
}

// ToBufferSource converts v to a buffer source accepting the given kinds
// (ArrayBufferView accepts DataView and every typed array: pass "view").
// [AllowShared] is accepted and has no effect: sobek has no
// SharedArrayBuffer. This realm's view of a buffer source of another
// realm of the agent (Realm.ForeignObject) converts too: the result's
// Object is the view, and Bytes reads the other realm's bytes.
func (r *Realm) ToBufferSource(v sobek.Value, typeName string, kinds ...BufferKind) BufferSource {
	var k BufferKind
	var fo *sobek.Object
	obj, ok := v.(*sobek.Object)
	if ok {
		if k = r.ownBufferKind(obj); k == "" {
			fo, k = r.foreignBuffer(obj)
		}
	}
	if k != "" {
		for _, want := range kinds {
			if want == k || (want == "view" && k != KindArrayBuffer) {
				return BufferSource{Object: obj, Kind: k, foreign: fo}
			}
		}
	}
	r.ThrowTypeError("The provided value is not of type '%s'", typeName)
	return BufferSource{}
}
