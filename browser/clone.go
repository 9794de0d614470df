package browser

import (
	"fmt"
	"math/big"
	"reflect"
	"time"

	"github.com/dop251/goja"
)

// This file implements HTML's StructuredSerialize and StructuredDeserialize
// for the data a WPT test posts between a page and its workers. The sender's
// runtime serializes a value into a runtime-independent Go tree (a
// *Serialized); the receiver's runtime deserializes that tree into new
// objects. goja objects never cross runtimes; goja primitive values (strings,
// numbers, booleans, bigints) are immutable and runtime-independent, so the
// tree keeps them as they are, which preserves lone surrogates in strings.

// serialKind is the [[Type]] of a serialized record.
type serialKind uint8

const (
	kindPrimitive serialKind = iota // undefined, null, boolean, number, bigint, string
	kindRef                         // a reference to an earlier record (memory)
	kindBooleanObject
	kindNumberObject
	kindBigIntObject
	kindStringObject
	kindDate
	kindRegExp
	kindArrayBuffer
	kindArrayBufferView
	kindMap
	kindSet
	kindError
	kindArray
	kindObject
)

// Serialized is the runtime-independent result of StructuredSerialize.
type Serialized struct {
	kind  serialKind
	prim  goja.Value // kindPrimitive and the wrapper objects' [[PrimitiveValue]]
	ref   int        // kindRef: the id of the record referred to
	id    int        // the id of this record (objects only), in creation order
	num   float64    // kindDate: the time value
	src   goja.Value // kindRegExp: source; kindError: name
	flags string     // kindRegExp: flags; kindArrayBufferView: constructor name
	msg   goja.Value // kindError: message (nil when absent)
	bytes []byte     // kindArrayBuffer
	buf   *Serialized
	off   int64 // kindArrayBufferView: byte offset
	n     int64 // kindArrayBufferView: length (elements, or bytes for DataView); kindArray: length
	props []serialProp
	ents  []*Serialized // kindMap: key, value, key, value, ...; kindSet: values
}

type serialProp struct {
	key string
	val *Serialized
}

// cloneError is a DataCloneError raised while serializing; the caller turns it
// into a DOMException in the sender's realm.
type cloneError struct{ msg string }

func (e *cloneError) Error() string { return e.msg }

// intrinsics are the built-ins captured from a realm before any script ran,
// so that a script replacing globals cannot change how data is cloned.
type intrinsics struct {
	vm            *goja.Runtime
	date, regexp  *goja.Object
	mapCtor       *goja.Object
	setCtor       *goja.Object
	mapSet        goja.Callable
	setAdd        goja.Callable
	mapEntries    goja.Callable
	setValues     goja.Callable
	arrayFrom     goja.Callable
	typedArrayTag goja.Callable // %TypedArray%.prototype[@@toStringTag] getter
	taBuffer      goja.Callable
	taByteOffset  goja.Callable
	taLength      goja.Callable
	dvProto       *goja.Object
	dvBuffer      goja.Callable
	dvByteOffset  goja.Callable
	dvByteLength  goja.Callable
	errorCtors    map[string]*goja.Object
	viewCtors     map[string]*goja.Object
	dataView      *goja.Object
	getTime       goja.Callable
	valueOf       map[string]goja.Callable
	weak          []weakBrand

	getOwnPropertyDescriptor goja.Callable
}

var (
	timeType        = reflect.TypeOf(time.Time{})
	proxyType       = reflect.TypeOf(goja.Proxy{})
	promiseType     = reflect.TypeOf((*goja.Promise)(nil))
	bigIntType      = reflect.TypeOf((*big.Int)(nil))
	stringType      = reflect.TypeOf("")
	arrayBufferType = reflect.TypeOf(goja.ArrayBuffer{})
	mapExportType   = reflect.TypeOf([][2]any{})
	setExportType   = reflect.TypeOf([]any{})
)

var viewNames = []string{"Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
	"Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"}

var errorNames = []string{"Error", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError"}

type weakBrand struct {
	proto *goja.Object
	has   goja.Callable
}

// captureIntrinsics reads the built-ins from vm's global object. Call it
// before running any script in vm.
func captureIntrinsics(vm *goja.Runtime) (*intrinsics, error) {
	in := &intrinsics{vm: vm, errorCtors: map[string]*goja.Object{}, viewCtors: map[string]*goja.Object{},
		valueOf: map[string]goja.Callable{}}
	var err error
	ex := vm.Try(func() {
		g := vm.GlobalObject()
		obj := func(name string) *goja.Object { return g.Get(name).ToObject(vm) }
		fn := func(o *goja.Object, name string) goja.Callable {
			f, ok := goja.AssertFunction(o.Get(name))
			if !ok {
				err = fmt.Errorf("intrinsic %s missing", name)
			}
			return f
		}
		getter := func(proto goja.Value, key goja.Value) goja.Callable {
			d := obj("Object").Get("getOwnPropertyDescriptor")
			gopd, _ := goja.AssertFunction(d)
			desc, e := gopd(goja.Undefined(), proto, key)
			if e != nil {
				err = e
				return nil
			}
			f, ok := goja.AssertFunction(desc.ToObject(vm).Get("get"))
			if !ok {
				err = fmt.Errorf("intrinsic getter %s missing", key)
			}
			return f
		}
		in.getOwnPropertyDescriptor = fn(obj("Object"), "getOwnPropertyDescriptor")
		in.date = obj("Date")
		in.getTime = fn(in.date.Get("prototype").ToObject(vm), "getTime")
		for _, c := range []string{"Boolean", "Number", "String", "BigInt"} {
			in.valueOf[c] = fn(obj(c).Get("prototype").ToObject(vm), "valueOf")
		}
		in.regexp = obj("RegExp")
		in.mapCtor = obj("Map")
		in.setCtor = obj("Set")
		mp := in.mapCtor.Get("prototype").ToObject(vm)
		sp := in.setCtor.Get("prototype").ToObject(vm)
		in.mapSet = fn(mp, "set")
		in.mapEntries = fn(mp, "entries")
		in.setAdd = fn(sp, "add")
		in.setValues = fn(sp, "values")
		in.arrayFrom = fn(obj("Array"), "from")
		for _, n := range viewNames {
			in.viewCtors[n] = obj(n)
		}
		taProto := in.viewCtors["Uint8Array"].Get("prototype").ToObject(vm).Prototype()
		in.typedArrayTag = getter(taProto, goja.SymToStringTag)
		in.taBuffer = getter(taProto, vm.ToValue("buffer"))
		in.taByteOffset = getter(taProto, vm.ToValue("byteOffset"))
		in.taLength = getter(taProto, vm.ToValue("length"))
		in.dataView = obj("DataView")
		in.dvProto = in.dataView.Get("prototype").ToObject(vm)
		in.dvBuffer = getter(in.dvProto, vm.ToValue("buffer"))
		in.dvByteOffset = getter(in.dvProto, vm.ToValue("byteOffset"))
		in.dvByteLength = getter(in.dvProto, vm.ToValue("byteLength"))
		for _, c := range []string{"WeakMap", "WeakSet"} {
			p := obj(c).Get("prototype").ToObject(vm)
			in.weak = append(in.weak, weakBrand{proto: p, has: fn(p, "has")})
		}
		for _, n := range errorNames {
			in.errorCtors[n] = obj(n)
		}
	})
	if ex != nil {
		return nil, ex
	}
	return in, err
}

// StructuredSerialize serializes v (HTML "StructuredSerializeInternal"
// without transfer). A value that cannot be serialized yields a *cloneError;
// a script exception thrown by a getter propagates as a goja panic, as it
// does from any native function.
func (in *intrinsics) StructuredSerialize(v goja.Value) (*Serialized, error) {
	s := &serializer{in: in, memory: map[*goja.Object]int{}}
	out := s.serialize(v)
	if s.err != nil {
		return nil, s.err
	}
	return out, nil
}

type serializer struct {
	in     *intrinsics
	memory map[*goja.Object]int
	nextID int
	err    error
}

func (s *serializer) fail(format string, args ...any) *Serialized {
	if s.err == nil {
		s.err = &cloneError{msg: fmt.Sprintf(format, args...)}
	}
	return nil
}

func (s *serializer) serialize(v goja.Value) *Serialized {
	if s.err != nil {
		return nil
	}
	vm := s.in.vm
	// 1-3. Primitives other than symbols are serialized as themselves.
	obj, isObj := v.(*goja.Object)
	if !isObj {
		if _, isSym := v.(*goja.Symbol); isSym {
			return s.fail("Symbol values cannot be cloned")
		}
		return &Serialized{kind: kindPrimitive, prim: v}
	}
	// 1. If memory[value] exists, return it.
	if id, ok := s.memory[obj]; ok {
		return &Serialized{kind: kindRef, ref: id}
	}
	et := obj.ExportType()
	if et == proxyType {
		return s.fail("Proxy objects cannot be cloned")
	}
	class := obj.ClassName()
	out := &Serialized{id: s.nextID}
	s.nextID++
	s.memory[obj] = out.id

	switch {
	case class == "Function" || class == "AsyncFunction" || class == "GeneratorFunction":
		return s.fail("functions cannot be cloned")
	case class == "Boolean" || class == "Number" || class == "String" || class == "BigInt" || class == "Symbol":
		switch class {
		case "Boolean":
			out.kind = kindBooleanObject
		case "Number":
			out.kind = kindNumberObject
		case "String":
			out.kind = kindStringObject
		case "BigInt":
			out.kind = kindBigIntObject
		default:
			return s.fail("Symbol objects cannot be cloned")
		}
		// valueOf of the intrinsic prototype reads [[PrimitiveValue]].
		pv, err := s.in.valueOf[class](obj)
		if err != nil {
			panic(err)
		}
		out.prim = pv
		return out
	case class == "Date" && et == timeType:
		out.kind = kindDate
		t, err := s.in.getTime(obj)
		if err != nil {
			panic(err)
		}
		out.num = t.ToFloat()
		return out
	case class == "RegExp":
		out.kind = kindRegExp
		out.src = obj.Get("source")
		out.flags = obj.Get("flags").String()
		return out
	case et == arrayBufferType:
		ab := obj.Export().(goja.ArrayBuffer)
		if ab.Detached() {
			return s.fail("a detached ArrayBuffer cannot be cloned")
		}
		out.kind = kindArrayBuffer
		out.bytes = append([]byte(nil), ab.Bytes()...)
		return out
	case class == "Error":
		out.kind = kindError
		name := "Error"
		if n := obj.Get("name"); n != nil && !goja.IsUndefined(n) {
			if _, known := s.in.errorCtors[n.String()]; known {
				name = n.String()
			}
		}
		out.src = vm.ToValue(name)
		desc, err := s.in.getOwnPropertyDescriptor(goja.Undefined(), obj, vm.ToValue("message"))
		if err != nil {
			panic(err)
		}
		if d, ok := desc.(*goja.Object); ok && d.Get("get") == nil && d.Get("set") == nil {
			out.msg = d.Get("value").ToString()
		}
		return out
	case class == "Array":
		out.kind = kindArray
		out.n = obj.Get("length").ToInteger()
		s.props(obj, out)
		return out
	}
	if class != "Object" {
		return s.fail("%s objects cannot be cloned", class)
	}
	switch et {
	case bigIntType:
		out.kind = kindBigIntObject
		pv, err := s.in.valueOf["BigInt"](obj)
		if err != nil {
			panic(err)
		}
		out.prim = pv
		return out
	case stringType:
		// A Symbol wrapper: the only class-Object value exporting a string.
		return s.fail("Symbol objects cannot be cloned")
	}
	for _, weak := range s.in.weak {
		if hasProto(obj, weak.proto) {
			if _, err := weak.has(obj, goja.Undefined()); err == nil {
				return s.fail("WeakMap and WeakSet objects cannot be cloned")
			}
		}
	}
	// Typed arrays: %TypedArray%.prototype[@@toStringTag] is the brand check.
	if tag, err := s.in.typedArrayTag(obj); err == nil && !goja.IsUndefined(tag) {
		buf, _ := s.in.taBuffer(obj)
		off, _ := s.in.taByteOffset(obj)
		n, _ := s.in.taLength(obj)
		out.kind = kindArrayBufferView
		out.flags = tag.String()
		out.buf = s.serialize(buf)
		out.off = off.ToInteger()
		out.n = n.ToInteger()
		return out
	}
	if hasProto(obj, s.in.dvProto) {
		if buf, err := s.in.dvBuffer(obj); err == nil {
			off, _ := s.in.dvByteOffset(obj)
			n, _ := s.in.dvByteLength(obj)
			out.kind = kindArrayBufferView
			out.flags = "DataView"
			out.buf = s.serialize(buf)
			out.off = off.ToInteger()
			out.n = n.ToInteger()
			return out
		}
	}
	switch et {
	case mapExportType:
		out.kind = kindMap
		entries, err := s.in.mapEntries(obj)
		if err != nil {
			panic(err)
		}
		arr, err := s.in.arrayFrom(goja.Undefined(), entries)
		if err != nil {
			panic(err)
		}
		// Copy the entries first (spec: "copiedList"), then serialize them.
		a := arr.ToObject(vm)
		n := a.Get("length").ToInteger()
		pairs := make([]goja.Value, 0, 2*n)
		for i := int64(0); i < n; i++ {
			e := a.Get(fmt.Sprint(i)).ToObject(vm)
			pairs = append(pairs, e.Get("0"), e.Get("1"))
		}
		for _, p := range pairs {
			out.ents = append(out.ents, s.serialize(p))
		}
		return out
	case setExportType:
		out.kind = kindSet
		vals, err := s.in.setValues(obj)
		if err != nil {
			panic(err)
		}
		arr, err := s.in.arrayFrom(goja.Undefined(), vals)
		if err != nil {
			panic(err)
		}
		a := arr.ToObject(vm)
		n := a.Get("length").ToInteger()
		items := make([]goja.Value, 0, n)
		for i := int64(0); i < n; i++ {
			items = append(items, a.Get(fmt.Sprint(i)))
		}
		for _, it := range items {
			out.ents = append(out.ents, s.serialize(it))
		}
		return out
	}
	if et == promiseType {
		return s.fail("Promise objects cannot be cloned")
	}
	if isPlatformObject(obj) {
		return s.fail("platform objects of this type cannot be cloned")
	}
	out.kind = kindObject
	s.props(obj, out)
	return out
}

// props serializes the own enumerable string-keyed properties of obj, in
// property order, reading each value with [[Get]] as the spec does.
func (s *serializer) props(obj *goja.Object, out *Serialized) {
	for _, k := range obj.Keys() {
		v := obj.Get(k)
		if v == nil {
			// Deleted by a getter run earlier in this loop: the spec skips it.
			continue
		}
		out.props = append(out.props, serialProp{key: k, val: s.serialize(v)})
		if s.err != nil {
			return
		}
	}
}

func hasProto(obj, proto *goja.Object) bool {
	for p := obj.Prototype(); p != nil; p = p.Prototype() {
		if p == proto {
			return true
		}
	}
	return false
}

// platformObjectCheck lets the bindings say whether an object is a platform
// object (its interface is not serializable here). Set by the integration.
var platformObjectCheck func(*goja.Object) bool

func isPlatformObject(o *goja.Object) bool {
	return platformObjectCheck != nil && platformObjectCheck(o)
}

// StructuredDeserialize creates the value described by s in the intrinsics'
// runtime.
func (in *intrinsics) StructuredDeserialize(s *Serialized) (goja.Value, error) {
	d := &deserializer{in: in, memory: map[int]goja.Value{}}
	var out goja.Value
	ex := in.vm.Try(func() { out = d.deserialize(s) })
	if ex != nil {
		return nil, ex
	}
	return out, nil
}

type deserializer struct {
	in     *intrinsics
	memory map[int]goja.Value
}

func (d *deserializer) deserialize(s *Serialized) goja.Value {
	vm := d.in.vm
	switch s.kind {
	case kindPrimitive:
		return s.prim
	case kindRef:
		return d.memory[s.ref]
	}
	var v goja.Value
	switch s.kind {
	case kindBooleanObject, kindNumberObject, kindStringObject, kindBigIntObject:
		v = s.prim.ToObject(vm)
	case kindDate:
		o, err := vm.New(d.in.date, vm.ToValue(s.num))
		must(err)
		v = o
	case kindRegExp:
		o, err := vm.New(d.in.regexp, s.src, vm.ToValue(s.flags))
		must(err)
		v = o
	case kindArrayBuffer:
		v = vm.ToValue(vm.NewArrayBuffer(append([]byte(nil), s.bytes...)))
	case kindArrayBufferView:
		// The buffer is deserialized first; a view's id follows its buffer's
		// id in the serializer only when the buffer was new, so record the
		// view after creating it.
		buf := d.deserialize(s.buf)
		ctor := d.in.viewCtors[s.flags]
		if s.flags == "DataView" {
			ctor = d.in.dataView
		}
		if ctor == nil {
			panic(vm.NewTypeError("cannot deserialize a " + s.flags))
		}
		o, err := vm.New(ctor, buf, vm.ToValue(s.off), vm.ToValue(s.n))
		must(err)
		v = o
	case kindMap:
		o, err := vm.New(d.in.mapCtor)
		must(err)
		d.memory[s.id] = o
		for i := 0; i+1 < len(s.ents); i += 2 {
			k := d.deserialize(s.ents[i])
			val := d.deserialize(s.ents[i+1])
			_, err := d.in.mapSet(o, k, val)
			must(err)
		}
		return o
	case kindSet:
		o, err := vm.New(d.in.setCtor)
		must(err)
		d.memory[s.id] = o
		for _, e := range s.ents {
			_, err := d.in.setAdd(o, d.deserialize(e))
			must(err)
		}
		return o
	case kindError:
		ctor := d.in.errorCtors[s.src.String()]
		if ctor == nil {
			ctor = d.in.errorCtors["Error"]
		}
		o, err := vm.New(ctor)
		must(err)
		if s.msg != nil {
			must(o.DefineDataProperty("message", s.msg, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
		}
		v = o
	case kindArray:
		o := vm.NewArray()
		must(o.Set("length", s.n))
		d.memory[s.id] = o
		d.fill(o, s)
		return o
	case kindObject:
		o := vm.NewObject()
		d.memory[s.id] = o
		d.fill(o, s)
		return o
	default:
		panic(vm.NewTypeError(fmt.Sprintf("unknown serialized kind %d", s.kind)))
	}
	d.memory[s.id] = v
	return v
}

func (d *deserializer) fill(o *goja.Object, s *Serialized) {
	for _, p := range s.props {
		v := d.deserialize(p.val)
		// CreateDataProperty: never invokes setters (so "__proto__" stays data).
		must(o.DefineDataProperty(p.key, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE))
	}
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}
