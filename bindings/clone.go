package bindings

import (
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sync"
	"time"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// This file implements HTML's StructuredSerialize and StructuredDeserialize
// (with transfer) between sobek values and the engine-neutral records of
// package html, and structuredClone().

// maxCloneDepth bounds the nesting of serialized and deserialized values:
// deeper values throw a RangeError (as V8's stack check does) instead of
// growing the Go stack without bound.
const maxCloneDepth = 10000

// errCloneTooDeep is thrown as a RangeError.
var errCloneTooDeep = &webidl.SimpleError{Kind: webidl.RangeError, Message: "Maximum call stack size exceeded"}

// cloneIntrinsics are the built-ins serialization uses, taken from the
// realm the first time it serializes.
type cloneIntrinsics struct {
	mapForEach, setForEach sobek.Callable // collect entries into an array
	newMap, newSet         sobek.Callable // () -> empty Map/Set
	mapFill, setFill       sobek.Callable // (Map/Set, entries array)
	dateValue              sobek.Callable // Date.prototype.getTime
	regexpParts            sobek.Callable // -> [source, flags]
	weakBrand              sobek.Callable // true for WeakMap/WeakSet/WeakRef/Promise/Proxy-less exotic objects
	newDate                sobek.Callable
	newRegExp              sobek.Callable
	newView                sobek.Callable // (name, buffer, offset, length)
	viewParts              sobek.Callable // view -> [buffer, byteOffset, length]
	isDataView             sobek.Callable
	newError               sobek.Callable // (name, message, hasMessage)
	errorParts             sobek.Callable // error -> [name, hasMessage, message]
	wrapPrimitive          sobek.Callable // Object(v)
	unwrapPrimitive        sobek.Callable // (kind, obj) -> primitive
	objectPrototype        *sobek.Object
}

type cloneIntrinsicsKey struct{}

const cloneIntrinsicsSrc = `(function () {
	const O = Object, A = Array, M = Map, S = Set, D = Date, R = RegExp;
	const mapForEach = M.prototype.forEach, setForEach = S.prototype.forEach;
	const mapSet = M.prototype.set, setAdd = S.prototype.add;
	const call = Function.prototype.call;
	const apply = (f, t, ...a) => call.call(f, t, ...a);
	const getTime = D.prototype.getTime;
	const gopd = O.getOwnPropertyDescriptor;
	const srcGet = gopd(R.prototype, "source").get, flagsGet = gopd(R.prototype, "flags").get;
	const TA = O.getPrototypeOf(Uint8Array.prototype);
	const taBuf = gopd(TA, "buffer").get, taOff = gopd(TA, "byteOffset").get, taLen = gopd(TA, "length").get;
	const dvBuf = gopd(DataView.prototype, "buffer").get, dvOff = gopd(DataView.prototype, "byteOffset").get, dvLen = gopd(DataView.prototype, "byteLength").get;
	const tag = gopd(TA, Symbol.toStringTag).get;
	const brands = [[WeakMap.prototype.has, {}], [WeakSet.prototype.has, {}]];
	if (typeof WeakRef === "function") brands.push([WeakRef.prototype.deref, undefined]);
	const ctors = {Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
		Float32Array, Float64Array, BigInt64Array, BigUint64Array, DataView};
	const errors = {Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError};
	const valueOf = {Boolean: Boolean.prototype.valueOf, Number: Number.prototype.valueOf, String: String.prototype.valueOf, BigInt: BigInt.prototype.valueOf};
	const defineProperty = O.defineProperty;
	return {
		mapForEach(m) { const out = []; apply(mapForEach, m, (v, k) => { out[out.length] = k; out[out.length] = v; }); return out; },
		setForEach(s) { const out = []; apply(setForEach, s, v => { out[out.length] = v; }); return out; },
		newMap() { return new M(); },
		newSet() { return new S(); },
		mapFill(m, e) { for (let i = 0; i < e.length; i += 2) apply(mapSet, m, e[i], e[i + 1]); },
		setFill(s, e) { for (let i = 0; i < e.length; i++) apply(setAdd, s, e[i]); },
		dateValue(d) { return apply(getTime, d); },
		regexpParts(r) { return [apply(srcGet, r), apply(flagsGet, r)]; },
		weakBrand(o) {
			for (const [f, arg] of brands) { try { apply(f, o, arg); return true; } catch (e) {} }
			return false;
		},
		newDate(t) { return new D(t); },
		newRegExp(s, f) { return new R(s, f); },
		newView(name, buf, off, len) { return new ctors[name](buf, off, len); },
		isDataView(v) { try { apply(dvLen, v); return true; } catch (e) { return false; } },
		viewParts(v) {
			const name = apply(tag, v);
			if (name !== undefined) return [name, apply(taBuf, v), apply(taOff, v), apply(taLen, v)];
			return ["DataView", apply(dvBuf, v), apply(dvOff, v), apply(dvLen, v)];
		},
		newError(name, message, hasMessage) {
			const C = errors[name] || Error;
			const e = hasMessage ? new C(message) : new C();
			return e;
		},
		errorParts(e) {
			let name = e.name;
			if (!(typeof name === "string" && name in errors)) name = "Error";
			const d = gopd(e, "message");
			const has = d !== undefined && "value" in d;
			return [name, has, has ? String(d.value) : ""];
		},
		wrapPrimitive(v) { return O(v); },
		unwrapPrimitive(kind, o) { return apply(valueOf[kind], o); },
		objectPrototype: O.prototype,
	};
})()`

func (r *Realm) cloneIntrinsics() (*cloneIntrinsics, error) {
	if in, ok := r.Value(cloneIntrinsicsKey{}).(*cloneIntrinsics); ok {
		return in, nil
	}
	prg, err := cloneIntrinsicsProgram()
	if err != nil {
		return nil, err
	}
	v, err := r.vm.RunProgram(prg)
	if err != nil {
		return nil, err
	}
	o := v.ToObject(r.vm)
	f := func(name string) sobek.Callable {
		fn, _ := sobek.AssertFunction(o.Get(name))
		return fn
	}
	in := &cloneIntrinsics{
		mapForEach: f("mapForEach"), setForEach: f("setForEach"), newMap: f("newMap"), newSet: f("newSet"), mapFill: f("mapFill"), setFill: f("setFill"),
		dateValue: f("dateValue"), regexpParts: f("regexpParts"), weakBrand: f("weakBrand"),
		newDate: f("newDate"), newRegExp: f("newRegExp"), newView: f("newView"), viewParts: f("viewParts"), isDataView: f("isDataView"),
		newError: f("newError"), errorParts: f("errorParts"), wrapPrimitive: f("wrapPrimitive"),
		unwrapPrimitive: f("unwrapPrimitive"),
	}
	in.objectPrototype, _ = o.Get("objectPrototype").(*sobek.Object)
	r.SetValue(cloneIntrinsicsKey{}, in)
	return in, nil
}

// cloneIntrinsicsProgram compiles the helper source once for every realm;
// realms of different agents ask for it from their own goroutines.
var cloneIntrinsicsProgram = sync.OnceValues(func() (*sobek.Program, error) {
	return webidl.Compile("structured-clone", cloneIntrinsicsSrc, true)
})

func dataCloneError(what string) error {
	return dom.NewDOMException(what+" could not be cloned.", dom.DataCloneError)
}

var (
	typeTime      = reflect.TypeOf(time.Time{})
	typeProxy     = reflect.TypeOf(sobek.Proxy{})
	typePromise   = reflect.TypeOf((*sobek.Promise)(nil))
	typeBigInt    = reflect.TypeOf((*big.Int)(nil))
	typeString    = reflect.TypeOf("")
	typeArrayBuf  = reflect.TypeOf(sobek.ArrayBuffer{})
	typeMapExport = reflect.TypeOf([][2]any{})
	typeSetExport = reflect.TypeOf([]any{})
)

type serializer struct {
	r      *Realm
	in     *cloneIntrinsics
	memory map[*sobek.Object]*html.SerializedRecord
	nextID int
	depth  int
}

// StructuredSerialize is https://html.spec.whatwg.org/#structuredserialize:
// an engine-neutral record of v, or a DataCloneError DOMException (a
// RangeError past maxCloneDepth levels, a JavaScript exception from a
// getter). Loop goroutine only.
func (r *Realm) StructuredSerialize(v sobek.Value) (*html.SerializedRecord, error) {
	s, err := r.StructuredSerializeWithTransfer(v, nil)
	return s.Serialized, err
}

// ForeignValueHook tells StructuredSerializeWithTransfer that v (with its
// transfer list) is another realm's value reached through a membrane, and
// gives that realm and the original values.
type ForeignValueHook func(v sobek.Value, transfer []*sobek.Object) (*Realm, sobek.Value, []*sobek.Object, bool)

type foreignValueKey struct{}

// SetForeignValueHook sets the realm's ForeignValueHook (the embedder of a
// membrane between realms of one agent).
func (r *Realm) SetForeignValueHook(h ForeignValueHook) { r.SetValue(foreignValueKey{}, h) }

// StructuredSerializeWithTransfer is
// https://html.spec.whatwg.org/#structuredserializewithtransfer: the
// transferList may hold MessagePort objects and ArrayBuffers, which are
// detached from this realm when serialization succeeds.
func (r *Realm) StructuredSerializeWithTransfer(v sobek.Value, transferList []*sobek.Object) (res html.SerializedWithTransfer, err error) {
	if h, ok := r.Value(foreignValueKey{}).(ForeignValueHook); ok && h != nil {
		// A value of another realm of the agent seen through a membrane
		// is serialized by its own realm.
		if other, ov, ot, ok := h(v, transferList); ok && other != r {
			return other.StructuredSerializeWithTransfer(ov, ot)
		}
	}
	in, err := r.cloneIntrinsics()
	if err != nil {
		return res, err
	}
	// 1. Let memory be an empty map.
	s := &serializer{r: r, in: in, memory: map[*sobek.Object]*html.SerializedRecord{}}
	// 2. For each transferable of transferList:
	type transfer struct {
		port *messagePortImpl
		buf  sobek.ArrayBuffer
	}
	var transfers []transfer
	for i, t := range transferList {
		var tr transfer
		// 2.1. If transferable has neither an [[ArrayBufferData]] internal
		//      slot nor a [[Detached]] internal slot, throw DataCloneError.
		if t.ExportType() == typeArrayBuf {
			ab, _ := t.Export().(sobek.ArrayBuffer)
			// 2.3. If transferable has an [[ArrayBufferData]] slot and
			//      IsDetachedBuffer, throw a "DataCloneError".
			if ab.Detached() {
				return res, dom.NewDOMException("An ArrayBuffer is detached and could not be cloned.", dom.DataCloneError)
			}
			tr.buf = ab
		} else if p, ok := r.idl.ImplOf(t).(*messagePortImpl); ok {
			// 2.4. If transferable has a [[Detached]] internal slot and it
			//      is true, then throw a "DataCloneError" DOMException.
			if p.detached {
				return res, dom.NewDOMException("Port at index "+fmt.Sprint(i)+" is already neutered.", dom.DataCloneError)
			}
			tr.port = p
		} else {
			return res, dom.NewDOMException("Value at index "+fmt.Sprint(i)+" does not have a transferable type.", dom.DataCloneError)
		}
		// 2.2. If memory[transferable] exists, throw a "DataCloneError".
		if _, dup := s.memory[t]; dup {
			return res, dom.NewDOMException("Value at index "+fmt.Sprint(i)+" is a duplicate of an earlier value.", dom.DataCloneError)
		}
		// 2.5. Set memory[transferable] to { [[Type]]: an uninitialized
		//      value }.
		s.memory[t] = &html.SerializedRecord{Kind: html.SerializedTransferred, Index: i}
		transfers = append(transfers, tr)
	}
	// 3. Let serialized be ? StructuredSerializeInternal(value, false,
	//    memory). (One Try catches what getters and proxies throw.)
	var ser *html.SerializedRecord
	if ex := r.vm.Try(func() { ser, err = s.serialize(v) }); ex != nil {
		return res, ex
	}
	if err != nil {
		return res, err
	}
	// 4-5. For each transferable, in order: detach it and make its
	//      transfer data holder.
	holders := make([]any, len(transfers))
	for i, tr := range transfers {
		if tr.port != nil {
			holders[i] = tr.port.ship()
			continue
		}
		data := append([]byte(nil), tr.buf.Bytes()...)
		tr.buf.Detach()
		holders[i] = &html.TransferredArrayBuffer{Bytes: data}
	}
	// 6. Return { [[Serialized]]: serialized, [[TransferDataHolders]]: ... }.
	return html.SerializedWithTransfer{Serialized: ser, TransferDataHolders: holders}, nil
}

// serialize is https://html.spec.whatwg.org/#structuredserializeinternal
// (forStorage false).
func (s *serializer) serialize(v sobek.Value) (rec *html.SerializedRecord, err error) {
	// 3. Primitives.
	switch {
	case v == nil || sobek.IsUndefined(v):
		return &html.SerializedRecord{Kind: html.SerializedUndefined}, nil
	case sobek.IsNull(v):
		return &html.SerializedRecord{Kind: html.SerializedNull}, nil
	}
	obj, isObj := v.(*sobek.Object)
	if !isObj {
		return s.primitive(v)
	}
	// 1. If memory[value] exists, then return it (as a reference).
	if prev, ok := s.memory[obj]; ok {
		if prev.Kind == html.SerializedTransferred {
			return prev, nil
		}
		return &html.SerializedRecord{Kind: html.SerializedRef, Ref: prev.ID}, nil
	}
	s.depth++
	defer func() { s.depth-- }()
	if s.depth > maxCloneDepth {
		return nil, errCloneTooDeep
	}
	rec = &html.SerializedRecord{ID: s.nextID}
	s.nextID++
	// 26. Set memory[value] to serialized (before the deep steps, so that
	//     cycles refer to it).
	s.memory[obj] = rec
	err = s.objectRecord(obj, rec)
	return rec, err
}

func (s *serializer) primitive(v sobek.Value) (*html.SerializedRecord, error) {
	switch v.ExportType() {
	case reflect.TypeOf(true):
		return &html.SerializedRecord{Kind: html.SerializedBoolean, Bool: v.ToBoolean()}, nil
	case typeBigInt:
		b, _ := v.Export().(*big.Int)
		return &html.SerializedRecord{Kind: html.SerializedBigInt, BigInt: new(big.Int).Set(b)}, nil
	case typeString:
		if _, isSym := v.(*sobek.Symbol); isSym {
			// 2. If Type(value) is Symbol, throw a "DataCloneError".
			return nil, dataCloneError("Symbol()")
		}
		return &html.SerializedRecord{Kind: html.SerializedString, String: string(s.r.idl.ToDOMString(v))}, nil
	}
	if _, isSym := v.(*sobek.Symbol); isSym {
		return nil, dataCloneError(v.String())
	}
	return &html.SerializedRecord{Kind: html.SerializedNumber, Number: v.ToFloat()}, nil
}

// call invokes an intrinsic, turning a JavaScript exception into an error.
func (s *serializer) call(f sobek.Callable, args ...sobek.Value) (sobek.Value, error) {
	return f(sobek.Undefined(), args...)
}

func (s *serializer) objectRecord(obj *sobek.Object, rec *html.SerializedRecord) error {
	r := s.r
	class := obj.ClassName()
	et := obj.ExportType()
	// Platform objects: [Serializable] ones (DOMException), the rest throw.
	if obj == r.global {
		return dataCloneError("#<" + r.kind.String() + ">")
	}
	if impl := r.idl.ImplOf(obj); impl != nil {
		if ex, ok := domExceptionOf(impl); ok {
			rec.Kind = html.SerializedPlatformObject
			rec.String = "DOMException"
			rec.Props = []html.SerializedProperty{
				{Key: "name", Value: &html.SerializedRecord{Kind: html.SerializedString, String: ex.Name}},
				{Key: "message", Value: &html.SerializedRecord{Kind: html.SerializedString, String: ex.Message}},
			}
			return nil
		}
		name := "#<Object>"
		if n, ok := impl.(webidl.Interfaced); ok {
			name = "#<" + n.WebIDLInterface() + ">"
		}
		return dataCloneError(name)
	}
	switch {
	case class == "Function":
		src := obj.String()
		if len(src) > 60 {
			src = src[:60] + "..."
		}
		return dataCloneError(src)
	case et == typeProxy:
		return dataCloneError("#<Object>")
	case et == typePromise:
		return dataCloneError("#<Promise>")
	// 5-8. Primitive wrapper objects.
	case class == "Boolean":
		v, err := s.call(s.in.unwrapPrimitive, r.vm.ToValue("Boolean"), obj)
		if err != nil {
			return err
		}
		rec.Kind, rec.Bool = html.SerializedBooleanObject, v.ToBoolean()
		return nil
	case class == "Number":
		v, err := s.call(s.in.unwrapPrimitive, r.vm.ToValue("Number"), obj)
		if err != nil {
			return err
		}
		rec.Kind, rec.Number = html.SerializedNumberObject, v.ToFloat()
		return nil
	case class == "String":
		v, err := s.call(s.in.unwrapPrimitive, r.vm.ToValue("String"), obj)
		if err != nil {
			return err
		}
		rec.Kind, rec.String = html.SerializedStringObject, string(r.idl.ToDOMString(v))
		return nil
	case class == "Object" && et == typeBigInt:
		v, err := s.call(s.in.unwrapPrimitive, r.vm.ToValue("BigInt"), obj)
		if err != nil {
			return err
		}
		b, _ := v.Export().(*big.Int)
		rec.Kind, rec.BigInt = html.SerializedBigIntObject, new(big.Int).Set(b)
		return nil
	case class == "Object" && et == typeString:
		// A Symbol wrapper object.
		return dataCloneError("Symbol()")
	// 9. Date.
	case class == "Date" && et == typeTime:
		v, err := s.call(s.in.dateValue, obj)
		if err != nil {
			return err
		}
		rec.Kind, rec.Number = html.SerializedDate, v.ToFloat()
		return nil
	// 10. RegExp.
	case class == "RegExp":
		v, err := s.call(s.in.regexpParts, obj)
		if err != nil {
			return err
		}
		parts := v.ToObject(r.vm)
		rec.Kind = html.SerializedRegExp
		rec.String = string(r.idl.ToDOMString(parts.Get("0")))
		rec.Flags = parts.Get("1").String()
		return nil
	// 11. ArrayBuffer.
	case et == typeArrayBuf:
		ab, _ := obj.Export().(sobek.ArrayBuffer)
		if ab.Detached() {
			return dom.NewDOMException("An ArrayBuffer is detached and could not be cloned.", dom.DataCloneError)
		}
		rec.Kind, rec.Bytes = html.SerializedArrayBuffer, append([]byte(nil), ab.Bytes()...)
		return nil
	// 17. Error objects.
	case class == "Error":
		v, err := s.call(s.in.errorParts, obj)
		if err != nil {
			return err
		}
		parts := v.ToObject(r.vm)
		rec.Kind = html.SerializedError
		rec.String = parts.Get("0").String()
		rec.HasMessage = parts.Get("1").ToBoolean()
		rec.Message = string(r.idl.ToDOMString(parts.Get("2")))
		return nil
	// 18. Arrays.
	case class == "Array":
		rec.Kind = html.SerializedArray
		rec.Length = obj.Get("length").ToInteger()
		return s.properties(obj, rec)
	// 15. Map.
	case class == "Object" && et == typeMapExport:
		v, err := s.call(s.in.mapForEach, obj)
		if err != nil {
			return err
		}
		rec.Kind = html.SerializedMap
		return s.entries(v.ToObject(r.vm), rec)
	}
	// 12. ArrayBuffer views (typed arrays export as Go slices of their
	// element type; DataView needs a brand check). Export() itself is
	// avoided: it converts the whole object graph.
	isView := class == "Object" && et != nil && et.Kind() == reflect.Slice && et != typeSetExport && et != typeMapExport
	// Objects whose prototype is %Object.prototype% or null are taken as
	// ordinary (the brand checks below throw and catch an exception per
	// object, too slow for every plain object of a message).
	proto := obj.Prototype()
	plain := class == "Object" && (proto == nil || proto == s.in.objectPrototype)
	if !isView && class == "Object" && !plain {
		b, err := s.call(s.in.isDataView, obj)
		if err != nil {
			return err
		}
		isView = b.ToBoolean()
	}
	if isView {
		v, err := s.call(s.in.viewParts, obj)
		if err != nil {
			return err
		}
		parts := v.ToObject(r.vm)
		buf, err := s.serialize(parts.Get("1"))
		if err != nil {
			return err
		}
		rec.Kind = html.SerializedArrayBufferView
		rec.ViewType = parts.Get("0").String()
		rec.Buffer = buf
		rec.ByteOffset = parts.Get("2").ToInteger()
		rec.Length = parts.Get("3").ToInteger()
		return nil
	}
	// 16. Set (sobek exports Sets as []any, like arrays; the class tells).
	if class == "Object" && et == typeSetExport {
		v, err := s.call(s.in.setForEach, obj)
		if err != nil {
			return err
		}
		rec.Kind = html.SerializedSet
		return s.entries(v.ToObject(r.vm), rec)
	}
	if class != "Object" {
		return dataCloneError("#<" + class + ">")
	}
	// Exotic objects without a serialization (WeakMap, WeakSet, WeakRef).
	if !plain {
		if b, err := s.call(s.in.weakBrand, obj); err != nil {
			return err
		} else if b.ToBoolean() {
			return dataCloneError("#<Object>")
		}
	}
	// 20. Otherwise an ordinary object.
	rec.Kind = html.SerializedObject
	return s.properties(obj, rec)
}

// properties serializes the own enumerable string-keyed properties (the
// deep serialization of Arrays and Objects, step 26.4).
func (s *serializer) properties(obj *sobek.Object, rec *html.SerializedRecord) error {
	// Exceptions from getters propagate as panics to the Try of
	// StructuredSerializeWithTransfer.
	for _, k := range obj.Keys() {
		out, err := s.serialize(obj.Get(k))
		if err != nil {
			return err
		}
		rec.Props = append(rec.Props, html.SerializedProperty{Key: k, Value: out})
	}
	return nil
}

func (s *serializer) entries(list *sobek.Object, rec *html.SerializedRecord) error {
	n := list.Get("length").ToInteger()
	for i := int64(0); i < n; i++ {
		out, err := s.serialize(list.Get(fmt.Sprint(i)))
		if err != nil {
			return err
		}
		rec.Entries = append(rec.Entries, out)
	}
	return nil
}

type deserializer struct {
	r           *Realm
	in          *cloneIntrinsics
	memory      map[int]sobek.Value
	transferred []sobek.Value
	depth       int
}

// StructuredDeserialize is
// https://html.spec.whatwg.org/#structureddeserialize: new values of this
// realm from a record.
func (r *Realm) StructuredDeserialize(rec *html.SerializedRecord) (sobek.Value, error) {
	v, _, err := r.StructuredDeserializeWithTransfer(html.SerializedWithTransfer{Serialized: rec})
	return v, err
}

// StructuredDeserializeWithTransfer is
// https://html.spec.whatwg.org/#structureddeserializewithtransfer: it
// returns the value and the transferred MessagePort objects (the ports of
// a MessageEvent).
func (r *Realm) StructuredDeserializeWithTransfer(s html.SerializedWithTransfer) (sobek.Value, []*sobek.Object, error) {
	in, err := r.cloneIntrinsics()
	if err != nil {
		return nil, nil, err
	}
	d := &deserializer{r: r, in: in, memory: map[int]sobek.Value{}}
	// 1-2. For each transfer data holder, create the transferred object
	//      in this realm.
	var ports []*sobek.Object
	for _, h := range s.TransferDataHolders {
		switch h := h.(type) {
		case *html.MessagePort:
			p := r.newMessagePort(h)
			obj := idlWrapMessagePort(r.idl, p).(*sobek.Object)
			d.transferred = append(d.transferred, obj)
			ports = append(ports, obj)
		case *html.TransferredArrayBuffer:
			d.transferred = append(d.transferred, r.vm.ToValue(r.vm.NewArrayBuffer(h.Bytes)))
		default:
			return nil, nil, dom.NewDOMException("unknown transfer data holder", dom.DataCloneError)
		}
	}
	if s.Serialized == nil {
		return sobek.Undefined(), ports, nil
	}
	// 3. Let deserialized be ? StructuredDeserialize(serialized, realm,
	//    memory).
	var v sobek.Value
	if ex := r.vm.Try(func() { v, err = d.deserialize(s.Serialized) }); ex != nil {
		return nil, nil, ex
	}
	if err != nil {
		return nil, nil, err
	}
	return v, ports, nil
}

func (d *deserializer) deserialize(rec *html.SerializedRecord) (sobek.Value, error) {
	r := d.r
	vm := r.vm
	switch rec.Kind {
	case html.SerializedUndefined:
		return sobek.Undefined(), nil
	case html.SerializedNull:
		return sobek.Null(), nil
	case html.SerializedBoolean:
		return vm.ToValue(rec.Bool), nil
	case html.SerializedNumber:
		return numberValue(vm, rec.Number), nil
	case html.SerializedBigInt:
		return vm.ToValue(new(big.Int).Set(rec.BigInt)), nil
	case html.SerializedString:
		return webidl.DOMString(rec.String).Value(), nil
	case html.SerializedRef:
		v, ok := d.memory[rec.Ref]
		if !ok {
			return nil, dom.NewDOMException("dangling reference in serialized data", dom.DataCloneError)
		}
		return v, nil
	case html.SerializedTransferred:
		if rec.Index < 0 || rec.Index >= len(d.transferred) {
			return nil, dom.NewDOMException("missing transferred object", dom.DataCloneError)
		}
		return d.transferred[rec.Index], nil
	}
	d.depth++
	defer func() { d.depth-- }()
	if d.depth > maxCloneDepth {
		return nil, errCloneTooDeep
	}
	var (
		v   sobek.Value
		err error
	)
	// Objects: create, remember (for references), then fill.
	switch rec.Kind {
	case html.SerializedBooleanObject:
		v, err = d.in.wrapPrimitive(sobek.Undefined(), vm.ToValue(rec.Bool))
	case html.SerializedNumberObject:
		v, err = d.in.wrapPrimitive(sobek.Undefined(), numberValue(vm, rec.Number))
	case html.SerializedBigIntObject:
		v, err = d.in.wrapPrimitive(sobek.Undefined(), vm.ToValue(new(big.Int).Set(rec.BigInt)))
	case html.SerializedStringObject:
		v, err = d.in.wrapPrimitive(sobek.Undefined(), webidl.DOMString(rec.String).Value())
	case html.SerializedDate:
		v, err = d.in.newDate(sobek.Undefined(), numberValue(vm, rec.Number))
	case html.SerializedRegExp:
		v, err = d.in.newRegExp(sobek.Undefined(), webidl.DOMString(rec.String).Value(), vm.ToValue(rec.Flags))
	case html.SerializedArrayBuffer:
		v = vm.ToValue(vm.NewArrayBuffer(append([]byte(nil), rec.Bytes...)))
	case html.SerializedArrayBufferView:
		var buf sobek.Value
		buf, err = d.deserialize(rec.Buffer)
		if err == nil {
			v, err = d.in.newView(sobek.Undefined(), vm.ToValue(rec.ViewType), buf, vm.ToValue(rec.ByteOffset), vm.ToValue(rec.Length))
		}
	case html.SerializedError:
		v, err = d.in.newError(sobek.Undefined(), vm.ToValue(rec.String), webidl.DOMString(rec.Message).Value(), vm.ToValue(rec.HasMessage))
	case html.SerializedPlatformObject:
		if rec.String != "DOMException" {
			return nil, dom.NewDOMException("cannot deserialize a "+rec.String, dom.DataCloneError)
		}
		var name, msg string
		for _, p := range rec.Props {
			switch p.Key {
			case "name":
				name = p.Value.String
			case "message":
				msg = p.Value.String
			}
		}
		v = r.domExceptionValue(dom.NewDOMException(msg, name))
	case html.SerializedArray:
		arr := vm.NewArray()
		_ = arr.Set("length", rec.Length)
		v = arr
	case html.SerializedObject:
		v = vm.NewObject()
	case html.SerializedMap, html.SerializedSet:
		// Filled below, once the entries exist (they may refer back).
	default:
		return nil, dom.NewDOMException(fmt.Sprintf("unknown serialized kind %d", rec.Kind), dom.DataCloneError)
	}
	if err != nil {
		return nil, err
	}
	switch rec.Kind {
	case html.SerializedMap, html.SerializedSet:
		// A Map or Set is created empty and remembered first so that
		// entries referring to it resolve; then filled.
		ctor, fill := d.in.newSet, d.in.setFill
		if rec.Kind == html.SerializedMap {
			ctor, fill = d.in.newMap, d.in.mapFill
		}
		v, err = ctor(sobek.Undefined())
		if err != nil {
			return nil, err
		}
		d.memory[rec.ID] = v
		list := make([]any, 0, len(rec.Entries))
		for _, e := range rec.Entries {
			x, err := d.deserialize(e)
			if err != nil {
				return nil, err
			}
			list = append(list, x)
		}
		if _, err := fill(sobek.Undefined(), v, vm.NewArray(list...)); err != nil {
			return nil, err
		}
		return v, nil
	}
	d.memory[rec.ID] = v
	if rec.Kind == html.SerializedArray || rec.Kind == html.SerializedObject {
		obj := v.(*sobek.Object)
		for _, p := range rec.Props {
			x, err := d.deserialize(p.Value)
			if err != nil {
				return nil, err
			}
			// CreateDataProperty(value, key, deserializedValue).
			if err := obj.DefineDataProperty(p.Key, x, sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_TRUE); err != nil {
				return nil, err
			}
		}
	}
	return v, nil
}

// numberValue keeps -0 and NaN exact.
func numberValue(vm *sobek.Runtime, f float64) sobek.Value {
	if f == 0 && math.Signbit(f) {
		return vm.ToValue(math.Copysign(0, -1))
	}
	return vm.ToValue(f)
}

// structuredClone(value, options): https://html.spec.whatwg.org/#dom-structuredclone
func (r *Realm) structuredClone(value sobek.Value, opts StructuredSerializeOptions) (sobek.Value, error) {
	// 1. Let serialized be ? StructuredSerializeWithTransfer(value,
	//    options["transfer"]).
	ser, err := r.StructuredSerializeWithTransfer(value, opts.Transfer)
	if err != nil {
		return nil, err
	}
	// 2. Let deserializeRecord be ? StructuredDeserializeWithTransfer(
	//    serialized, this's relevant realm).
	v, _, err := r.StructuredDeserializeWithTransfer(ser)
	// 3. Return deserializeRecord.[[Deserialized]].
	return v, err
}
