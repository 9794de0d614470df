package webidl

import (
	"math"
	"math/big"

	"github.com/grafana/sobek"
)

// IntMode selects the integer conversion of WebIDL §3.2.4 (ConvertToInt):
// plain modulo wrapping, [EnforceRange] or [Clamp].
type IntMode uint8

// The integer conversion modes.
const (
	IntWrap IntMode = iota
	IntEnforceRange
	IntClamp
)

// toNumber is ECMAScript ToNumber, throwing a TypeError for symbols and
// BigInts.
func (r *Realm) toNumber(v sobek.Value) float64 {
	switch v.(type) {
	case *sobek.Symbol:
		r.ThrowTypeError("Cannot convert a Symbol value to a number")
	}
	if sobek.IsBigInt(v) {
		r.ThrowTypeError("Cannot convert a BigInt value to a number")
	}
	n := v.ToNumber()
	if sobek.IsBigInt(n) {
		r.ThrowTypeError("Cannot convert a BigInt value to a number")
	}
	return n.ToFloat()
}

// convertToInt implements ConvertToInt(V, bitLength, signedness) and
// returns the result as a float64 holding an exact integer for bitLength
// up to 32, or the wrapped bit pattern through u64 for 64-bit types.
func (r *Realm) convertToInt(v sobek.Value, bits int, signed bool, mode IntMode, typeName string) (f float64, u64 uint64) {
	// 1-3. Bounds.
	var lower, upper float64
	switch {
	case bits == 64 && signed:
		lower, upper = -(1<<53 - 1), 1<<53-1
	case bits == 64:
		lower, upper = 0, 1<<53-1
	case signed:
		lower, upper = -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1)-1
	default:
		lower, upper = 0, math.Ldexp(1, bits)-1
	}
	// 4. Let x be ? ToNumber(V).
	x := r.toNumber(v)
	// 5. If x is −0, then set x to +0.
	if x == 0 {
		x = 0
	}
	// 6. If the conversion is to an IDL type associated with [EnforceRange]:
	if mode == IntEnforceRange {
		// 6.1. If x is NaN, +∞, or −∞, then throw a TypeError.
		if math.IsNaN(x) || math.IsInf(x, 0) {
			r.ThrowTypeError("Value is not a finite number and cannot be converted to %s", typeName)
		}
		// 6.2. Set x to IntegerPart(x).
		x = math.Trunc(x)
		// 6.3. If x < lowerBound or x > upperBound, then throw a TypeError.
		if x < lower || x > upper {
			r.ThrowTypeError("Value is outside the '%s' value range", typeName)
		}
		// 6.4. Return x.
		return x + 0, intBits(x)
	}
	// 7. If x is not NaN and the conversion is to an IDL type associated with [Clamp]:
	if mode == IntClamp && !math.IsNaN(x) {
		// 7.1. Set x to min(max(x, lowerBound), upperBound).
		x = math.Min(math.Max(x, lower), upper)
		// 7.2. Round x to the nearest integer, choosing the even integer if it lies halfway between two.
		x = math.RoundToEven(x)
		// 7.3. If x is −0, then set x to +0.
		x += 0
		return x, intBits(x)
	}
	// 8. If x is NaN, +0, +∞, or −∞, then return +0.
	if math.IsNaN(x) || x == 0 || math.IsInf(x, 0) {
		return 0, 0
	}
	// 9. Set x to IntegerPart(x).
	x = math.Trunc(x)
	// 10. Set x to x modulo 2^bitLength.
	// 11. If signedness is "signed" and x ≥ 2^(bitLength − 1), then return x − 2^bitLength.
	u := intBits(x)
	switch bits {
	case 8:
		if signed {
			return float64(int8(u)), u
		}
		return float64(uint8(u)), u
	case 16:
		if signed {
			return float64(int16(u)), u
		}
		return float64(uint16(u)), u
	case 32:
		if signed {
			return float64(int32(u)), u
		}
		return float64(uint32(u)), u
	}
	if signed {
		return float64(int64(u)), u
	}
	return float64(u), u
}

// intBits returns the integer x modulo 2^64 as a bit pattern.
func intBits(x float64) uint64 {
	if math.Abs(x) < 1<<63 {
		return uint64(int64(x))
	}
	m := math.Mod(x, 1<<64) // exact
	if m < 0 {
		return -uint64(-m)
	}
	if m >= 1<<63 {
		return uint64(m)
	}
	return uint64(int64(m))
}

// ToByte converts to the IDL byte type.
func (r *Realm) ToByte(v sobek.Value, mode IntMode) int8 {
	f, _ := r.convertToInt(v, 8, true, mode, "byte")
	return int8(f)
}

// ToOctet converts to the IDL octet type.
func (r *Realm) ToOctet(v sobek.Value, mode IntMode) uint8 {
	f, _ := r.convertToInt(v, 8, false, mode, "octet")
	return uint8(f)
}

// ToShort converts to the IDL short type.
func (r *Realm) ToShort(v sobek.Value, mode IntMode) int16 {
	f, _ := r.convertToInt(v, 16, true, mode, "short")
	return int16(f)
}

// ToUnsignedShort converts to the IDL unsigned short type.
func (r *Realm) ToUnsignedShort(v sobek.Value, mode IntMode) uint16 {
	f, _ := r.convertToInt(v, 16, false, mode, "unsigned short")
	return uint16(f)
}

// ToLong converts to the IDL long type.
func (r *Realm) ToLong(v sobek.Value, mode IntMode) int32 {
	f, _ := r.convertToInt(v, 32, true, mode, "long")
	return int32(f)
}

// ToUnsignedLong converts to the IDL unsigned long type.
func (r *Realm) ToUnsignedLong(v sobek.Value, mode IntMode) uint32 {
	f, _ := r.convertToInt(v, 32, false, mode, "unsigned long")
	return uint32(f)
}

// ToLongLong converts to the IDL long long type.
func (r *Realm) ToLongLong(v sobek.Value, mode IntMode) int64 {
	_, u := r.convertToInt(v, 64, true, mode, "long long")
	return int64(u)
}

// ToUnsignedLongLong converts to the IDL unsigned long long type.
func (r *Realm) ToUnsignedLongLong(v sobek.Value, mode IntMode) uint64 {
	_, u := r.convertToInt(v, 64, false, mode, "unsigned long long")
	return u
}

// ToBoolean converts to the IDL boolean type (ToBoolean never throws).
func (r *Realm) ToBoolean(v sobek.Value) bool {
	if v == nil {
		return false
	}
	return v.ToBoolean()
}

// ToFloat converts to the IDL float type: TypeError for non-finite values,
// and for finite values that round to infinity as a float32.
func (r *Realm) ToFloat(v sobek.Value) float32 {
	x := r.toNumber(v)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		r.ThrowTypeError("The provided value is non-finite")
	}
	y := float32(x)
	if math.IsInf(float64(y), 0) {
		r.ThrowTypeError("The provided value is outside the range of float")
	}
	return y
}

// ToUnrestrictedFloat converts to the IDL unrestricted float type.
func (r *Realm) ToUnrestrictedFloat(v sobek.Value) float32 {
	x := r.toNumber(v)
	if math.IsNaN(x) {
		return float32(math.NaN())
	}
	return float32(x)
}

// ToDouble converts to the IDL double type (TypeError for NaN/±∞).
func (r *Realm) ToDouble(v sobek.Value) float64 {
	x := r.toNumber(v)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		r.ThrowTypeError("The provided value is non-finite")
	}
	return x
}

// ToUnrestrictedDouble converts to the IDL unrestricted double type.
func (r *Realm) ToUnrestrictedDouble(v sobek.Value) float64 {
	return r.toNumber(v)
}

// FloatValue converts an IDL float/double to JavaScript.
func (r *Realm) FloatValue(f float64) sobek.Value { return r.VM.ToValue(f) }

// ToBigInt converts to the IDL bigint type (ECMAScript ToBigInt).
func (r *Realm) ToBigInt(v sobek.Value) *big.Int {
	if _, ok := v.(*sobek.Symbol); ok {
		r.ThrowTypeError("Cannot convert a Symbol value to a BigInt")
	}
	bigCtor := r.VM.GlobalObject().Get("BigInt").(*sobek.Object)
	fn, _ := sobek.AssertFunction(bigCtor)
	switch {
	case sobek.IsUndefined(v), sobek.IsNull(v), sobek.IsNumber(v):
		r.ThrowTypeError("Cannot convert %s to a BigInt", v.String())
	}
	res, err := fn(sobek.Undefined(), v)
	if err != nil {
		r.Throw(err)
	}
	b, ok := res.Export().(*big.Int)
	if !ok {
		r.ThrowTypeError("Cannot convert to a BigInt")
	}
	return b
}

// BigIntValue converts an IDL bigint to JavaScript.
func (r *Realm) BigIntValue(b *big.Int) sobek.Value { return r.VM.ToValue(b) }

// ToObject converts to the IDL object type (TypeError unless an object).
func (r *Realm) ToObject(v sobek.Value) *sobek.Object {
	o, ok := v.(*sobek.Object)
	if !ok {
		r.ThrowTypeError("The provided value is not an object")
	}
	return o
}

// ToSymbol converts to the IDL symbol type.
func (r *Realm) ToSymbol(v sobek.Value) *sobek.Symbol {
	s, ok := v.(*sobek.Symbol)
	if !ok {
		r.ThrowTypeError("The provided value is not a symbol")
	}
	return s
}

// ToAny converts to the IDL any type (the identity; undefined for a
// missing value).
func (r *Realm) ToAny(v sobek.Value) sobek.Value {
	if v == nil {
		return sobek.Undefined()
	}
	return v
}

// AnyValue returns v, or undefined for nil.
func AnyValue(v sobek.Value) sobek.Value {
	if v == nil {
		return sobek.Undefined()
	}
	return v
}

// ObjectValue returns o, or null for nil.
func ObjectValue(o *sobek.Object) sobek.Value {
	if o == nil {
		return sobek.Null()
	}
	return o
}

// ToInterface converts to an interface type: the value must be a platform
// object implementing iface, of this realm or of another realm of the
// agent (ConvertsToInterface), else a TypeError.
func (r *Realm) ToInterface(v sobek.Value, iface string) any {
	impl, ok := r.ConvertsToInterface(v, iface)
	if !ok {
		r.ThrowTypeError("The provided value is not of type '%s'", iface)
	}
	return impl
}

// ToEnum converts to an enumeration type: ToString, then a TypeError
// unless the value is one of values.
func (r *Realm) ToEnum(v sobek.Value, enum string, values []string) string {
	s := string(r.ToDOMString(v))
	for _, e := range values {
		if e == s {
			return s
		}
	}
	r.ThrowTypeError("The provided value '%s' is not a valid enum value of type %s", s, enum)
	return ""
}

// ToEnumForAttribute converts the value given to the setter of an
// attribute of an enumeration type: ToString, then ok is false when the
// string is not one of values, and the setter returns without doing
// anything (https://webidl.spec.whatwg.org/#dfn-attribute-setter, step
// "If the attribute's type is an enumeration").
func (r *Realm) ToEnumForAttribute(v sobek.Value, values []string) (string, bool) {
	s := string(r.ToDOMString(v))
	for _, e := range values {
		if e == s {
			return s, true
		}
	}
	return "", false
}

// IsNullish reports whether v is undefined, null or missing.
func IsNullish(v sobek.Value) bool {
	return v == nil || sobek.IsUndefined(v) || sobek.IsNull(v)
}

// IsUndefined reports whether v is undefined or missing.
func IsUndefined(v sobek.Value) bool {
	return v == nil || sobek.IsUndefined(v)
}

// Optional is an optional argument or dictionary member without a default
// value: Present is false when it was not passed.
type Optional[T any] struct {
	Value   T
	Present bool
}

// Some returns a present Optional.
func Some[T any](v T) Optional[T] { return Optional[T]{Value: v, Present: true} }

// Nullable is a nullable type T? for Go types that have no nil: Null is
// true for the IDL null value.
type Nullable[T any] struct {
	Value T
	Null  bool
}

// NonNull returns a non-null Nullable.
func NonNull[T any](v T) Nullable[T] { return Nullable[T]{Value: v} }

// Null returns the null Nullable.
func Null[T any]() Nullable[T] { return Nullable[T]{Null: true} }

// RecordEntry is one entry of an IDL record.
type RecordEntry[K ~string, V any] struct {
	Key   K
	Value V
}

// Record is an IDL record<K, V>: an ordered map.
type Record[K ~string, V any] []RecordEntry[K, V]

// Get returns the value for key.
func (rec Record[K, V]) Get(key K) (V, bool) {
	for _, e := range rec {
		if e.Key == key {
			return e.Value, true
		}
	}
	var zero V
	return zero, false
}

// Ptr returns a pointer to a copy of v (optional dictionaries).
func Ptr[T any](v T) *T { return &v }
