package html

import "math/big"

// SerializedKind is the [[Type]] of a serialized record
// (https://html.spec.whatwg.org/#structuredserializeinternal).
type SerializedKind uint8

// The kinds of serialized records.
const (
	SerializedUndefined SerializedKind = iota
	SerializedNull
	SerializedBoolean
	SerializedNumber
	SerializedBigInt
	SerializedString
	// SerializedRef refers to an object record serialized earlier (the
	// memory map: cycles and shared references keep their shape).
	SerializedRef
	SerializedBooleanObject
	SerializedNumberObject
	SerializedBigIntObject
	SerializedStringObject
	SerializedDate
	SerializedRegExp
	SerializedArrayBuffer
	SerializedArrayBufferView
	SerializedMap
	SerializedSet
	SerializedError
	SerializedArray
	SerializedObject
	// SerializedPlatformObject is a [Serializable] platform object
	// (DOMException): Interface names it, Props hold its serialized state.
	SerializedPlatformObject
	// SerializedTransferred refers to the Index-th transfer data holder of
	// the enclosing SerializedWithTransfer.
	SerializedTransferred
)

// SerializedRecord is an engine-neutral serialized value: what
// StructuredSerialize produces and StructuredDeserialize consumes. It
// holds no JavaScript engine value, so it can move between agents.
//
// Strings are WTF-8 (lone surrogates survive: see bindings/webidl's
// DOMString).
type SerializedRecord struct {
	Kind SerializedKind
	// ID numbers object records in serialization order (for Ref).
	ID int
	// Ref is the ID a SerializedRef refers to; Index the transfer data
	// holder of a SerializedTransferred.
	Ref, Index int

	Bool   bool     // Boolean, BooleanObject
	Number float64  // Number, NumberObject, Date (time value)
	BigInt *big.Int // BigInt, BigIntObject
	// String is the value of String and StringObject, the source of a
	// RegExp, the name of an Error, the interface of a platform object.
	String string
	// Flags are a RegExp's flags; ViewType the constructor name of an
	// ArrayBufferView ("Uint8Array", ..., "DataView").
	Flags, ViewType string
	// Message is an Error's message (HasMessage false: none).
	Message    string
	HasMessage bool
	// Bytes are an ArrayBuffer's contents.
	Bytes []byte
	// Buffer is the ArrayBuffer (or Ref to it) of a view; ByteOffset and
	// Length (elements; bytes for DataView) locate the view.
	Buffer             *SerializedRecord
	ByteOffset, Length int64
	// Props are the own enumerable string-keyed properties of an Array
	// or Object (in order), or a platform object's fields.
	Props []SerializedProperty
	// Entries are a Map's keys and values (alternating) or a Set's values.
	Entries []*SerializedRecord
}

// SerializedProperty is one property of an object record.
type SerializedProperty struct {
	Key   string
	Value *SerializedRecord
}

// SerializedWithTransfer is the result of
// https://html.spec.whatwg.org/#structuredserializewithtransfer: the
// serialized value and the transfer data holders of the transferred
// objects (in transfer list order).
type SerializedWithTransfer struct {
	Serialized *SerializedRecord
	// TransferDataHolders: *MessagePort for transferred ports,
	// *TransferredArrayBuffer for transferred ArrayBuffers.
	TransferDataHolders []any
}

// TransferredArrayBuffer is the transfer data holder of an ArrayBuffer:
// its bytes, detached from the sender.
type TransferredArrayBuffer struct {
	Bytes []byte
}
