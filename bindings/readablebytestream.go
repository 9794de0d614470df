package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/streams"
	"github.com/grafana/sobek"
)

// This file is readable byte streams' JavaScript interfaces
// (https://streams.spec.whatwg.org/#rbs-controller-class):
// ReadableByteStreamController, ReadableStreamBYOBReader and
// ReadableStreamBYOBRequest over package streams, and the ArrayBuffer
// operations of streamHost. A streams ArrayBuffer is a sobek.ArrayBuffer.

// viewElementSizes is the element size of each typed array constructor
// (https://tc39.es/ecma262/#table-the-typedarray-constructors).
var viewElementSizes = map[string]int{
	"Int8Array": 1, "Uint8Array": 1, "Uint8ClampedArray": 1, "Int16Array": 2, "Uint16Array": 2,
	"Int32Array": 4, "Uint32Array": 4, "Float32Array": 4, "Float64Array": 8, "BigInt64Array": 8,
	"BigUint64Array": 8, "Float16Array": 2, "DataView": 1,
}

func (h streamHost) NewArrayBuffer(n int) (any, error) {
	if n > maxStreamBuffer {
		return nil, webidl.NewRangeError("Array buffer allocation failed")
	}
	return h.r.vm.NewArrayBuffer(make([]byte, n)), nil
}

// maxStreamBuffer bounds the ArrayBuffers a stream allocates
// (autoAllocateChunkSize): a larger one is a RangeError, as a failed
// allocation is.
const maxStreamBuffer = 1 << 30

func (h streamHost) ArrayBufferBytes(buf any) []byte {
	return buf.(sobek.ArrayBuffer).Bytes()
}

func (h streamHost) ArrayBufferByteLength(buf any) int {
	return len(buf.(sobek.ArrayBuffer).Bytes())
}

func (h streamHost) IsDetachedBuffer(buf any) bool { return buf.(sobek.ArrayBuffer).Detached() }

// TransferArrayBuffer is https://streams.spec.whatwg.org/#transfer-array-buffer.
func (h streamHost) TransferArrayBuffer(buf any) (any, error) {
	ab := buf.(sobek.ArrayBuffer)
	// 1. Assert: ! IsDetachedBuffer(O) is false. (A detached one is a
	// TypeError here, as DetachArrayBuffer's.)
	if ab.Detached() {
		return nil, webidl.NewTypeError("The ArrayBuffer is detached")
	}
	// 2-3. Let arrayBufferData and arrayBufferByteLength be O's.
	data := ab.Bytes()
	// 4. Perform ? DetachArrayBuffer(O).
	ab.Detach()
	// 5. Return a new ArrayBuffer object, created in the current Realm,
	// whose [[ArrayBufferData]] and [[ArrayBufferByteLength]] are
	// arrayBufferData and arrayBufferByteLength.
	return h.r.vm.NewArrayBuffer(data), nil
}

func (h streamHost) NewView(v streams.ArrayBufferView) any {
	in, err := h.r.cloneIntrinsics()
	if err != nil {
		panic(err)
	}
	view, err := in.newView(sobek.Undefined(), h.r.vm.ToValue(v.Constructor), h.r.vm.ToValue(v.Buffer),
		h.r.vm.ToValue(v.ByteOffset), h.r.vm.ToValue(v.Length()))
	if err != nil {
		panic(err)
	}
	return view
}

func (h streamHost) ViewOf(v any) (streams.ArrayBufferView, error) {
	return h.r.streamView(jsStreamValue(v))
}

// streamView is the streams record of an ArrayBufferView value, read
// through the intrinsic getters.
func (r *Realm) streamView(v sobek.Value) (streams.ArrayBufferView, error) {
	in, err := r.cloneIntrinsics()
	if err != nil {
		return streams.ArrayBufferView{}, err
	}
	parts, err := in.viewParts(sobek.Undefined(), v)
	if err != nil {
		return streams.ArrayBufferView{}, err
	}
	p := parts.(*sobek.Object)
	name := p.Get("0").String()
	ab, _ := p.Get("1").Export().(sobek.ArrayBuffer)
	size := viewElementSizes[name]
	return streams.ArrayBufferView{Buffer: ab, ByteOffset: int(p.Get("2").ToInteger()),
		ByteLength: int(p.Get("3").ToInteger()) * size, Constructor: name, ElementSize: size}, nil
}

// arrayBufferViewValue is the JavaScript value of an IDL ArrayBufferView.
func arrayBufferViewValue(v ArrayBufferView) sobek.Value {
	for _, b := range []webidl.BufferSource{v.Int8Array, v.Int16Array, v.Int32Array, v.Uint8Array, v.Uint16Array,
		v.Uint32Array, v.Uint8ClampedArray, v.BigInt64Array, v.BigUint64Array, v.Float32Array, v.Float64Array, v.DataView} {
		if b.Object != nil {
			return b.Object
		}
	}
	return sobek.Undefined()
}

// newByteStream is the ReadableStream constructor's step 4
// (https://streams.spec.whatwg.org/#rs-constructor) for type "bytes".
func (r *Realm) newByteStream(underlyingSource sobek.Value, dict UnderlyingSource, strategy QueuingStrategy) (*streams.ReadableStream, error) {
	// 4.1. If strategy["size"] exists, throw a RangeError exception.
	if strategy.Size != nil {
		return nil, webidl.NewRangeError("Failed to construct 'ReadableStream': The strategy for a byte stream cannot have a size function")
	}
	// 4.2. Let highWaterMark be ? ExtractHighWaterMark(strategy, 0).
	hwm, err := streams.ExtractHighWaterMark(strategy.HighWaterMark.Value, strategy.HighWaterMark.Present, 0)
	if err != nil {
		return nil, streamsError(err)
	}
	// 4.3. Perform ? SetUpReadableByteStreamControllerFromUnderlyingSource(this,
	// underlyingSource, underlyingSourceDict, highWaterMark).
	var ctl *readableByteStreamControllerImpl
	controller := func(c *streams.ByteController) ReadableStreamController {
		if ctl == nil {
			ctl = &readableByteStreamControllerImpl{realm: r, c: c}
		}
		return ReadableStreamController{Type: ReadableStreamControllerIsReadableByteStreamController, ReadableByteStreamController: ctl}
	}
	var src streams.ByteSource
	if dict.Start != nil {
		src.Start = func(c *streams.ByteController) (any, error) {
			v, err := dict.Start.Invoke(underlyingSource, controller(c))
			if err != nil {
				return nil, err
			}
			return v, nil
		}
	}
	if dict.Pull != nil {
		src.Pull = func(c *streams.ByteController) streams.Promise {
			return &streamPromise{dict.Pull.Invoke(underlyingSource, controller(c))}
		}
	}
	if dict.Cancel != nil {
		src.Cancel = func(reason any) streams.Promise {
			return &streamPromise{dict.Cancel.Invoke(underlyingSource, jsStreamValue(reason))}
		}
	}
	// (SetUpReadableByteStreamControllerFromUnderlyingSource 8-9.) If
	// autoAllocateChunkSize is 0, then throw a TypeError exception.
	if dict.AutoAllocateChunkSize.Present {
		n := dict.AutoAllocateChunkSize.Value
		if n == 0 {
			return nil, webidl.NewTypeError("Failed to construct 'ReadableStream': autoAllocateChunkSize must be greater than 0")
		}
		if n > maxStreamBuffer {
			return nil, webidl.NewRangeError("Failed to construct 'ReadableStream': autoAllocateChunkSize is too large")
		}
		src.AutoAllocateChunkSize = int(n)
	}
	s, err := streams.NewByteStream(r.streamHost(), src, hwm)
	if err != nil {
		return nil, streamsError(err)
	}
	return s, nil
}
