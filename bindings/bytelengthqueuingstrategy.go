package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/grafana/sobek"
)

// queuingStrategyImpl is a ByteLengthQueuingStrategy or a
// CountQueuingStrategy object.
type queuingStrategyImpl struct {
	webidl.Reflector
	realm         *Realm
	highWaterMark float64
	byteLength    bool
}

type byteLengthQueuingStrategyStatics struct{}

// Constructor is https://streams.spec.whatwg.org/#blqs-constructor.
func (byteLengthQueuingStrategyStatics) Constructor(ir *webidl.Realm, init QueuingStrategyInit) (ByteLengthQueuingStrategyMethods, error) {
	// 1. Set this.[[highWaterMark]] to init["highWaterMark"].
	return &queuingStrategyImpl{realm: realmOf(ir), highWaterMark: init.HighWaterMark, byteLength: true}, nil
}

// HighWaterMark is https://streams.spec.whatwg.org/#blqs-high-water-mark
// (and cqs-high-water-mark).
func (o *queuingStrategyImpl) HighWaterMark() (float64, error) { return o.highWaterMark, nil }

// sizeFunctionsKey is the realm's slot of its two size functions.
type sizeFunctionsKey struct{}

// sizeFunctions are a global object's ByteLengthQueuingStrategy and
// CountQueuingStrategy size functions, made once.
type sizeFunctions struct{ byteLength, count *Function }

// Size is https://streams.spec.whatwg.org/#blqs-size (and cqs-size):
// the relevant global object's size function, made on first use as
// https://streams.spec.whatwg.org/#byte-length-queuing-strategy-size-function
// and #count-queuing-strategy-size-function say.
func (o *queuingStrategyImpl) Size() (*Function, error) {
	r := o.realm
	fs, _ := r.Value(sizeFunctionsKey{}).(*sizeFunctions)
	if fs == nil {
		// Byte length: steps that return ? GetV(chunk, "byteLength");
		// length 1, name "size".
		bl := r.newFunction("size", 1, func(call sobek.FunctionCall) sobek.Value {
			chunk := call.Argument(0)
			if sobek.IsUndefined(chunk) || sobek.IsNull(chunk) {
				panic(r.vm.NewTypeError("Cannot read properties of %s (reading 'byteLength')", chunk.String()))
			}
			return chunk.ToObject(r.vm).Get("byteLength")
		})
		// Count: steps that return 1; length 0, name "size".
		cnt := r.newFunction("size", 0, func(sobek.FunctionCall) sobek.Value { return r.vm.ToValue(1) })
		fs = &sizeFunctions{byteLength: idlFromFunction(r.idl, bl), count: idlFromFunction(r.idl, cnt)}
		r.SetValue(sizeFunctionsKey{}, fs)
	}
	if o.byteLength {
		return fs.byteLength, nil
	}
	return fs.count, nil
}
