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

// readableByteStreamControllerImpl is a ReadableByteStreamController
// object (it has no constructor).
type readableByteStreamControllerImpl struct {
	webidl.Reflector
	realm *Realm
	c     *streams.ByteController
	// req is the object of the controller's current BYOB request.
	req *readableStreamBYOBRequestImpl
}

// ByobRequest is https://streams.spec.whatwg.org/#rbs-controller-byob-request.
func (o *readableByteStreamControllerImpl) ByobRequest() (ReadableStreamBYOBRequestMethods, error) {
	req := o.c.BYOBRequest()
	if req == nil {
		return nil, nil
	}
	if o.req == nil || o.req.req != req {
		o.req = &readableStreamBYOBRequestImpl{realm: o.realm, req: req}
	}
	return o.req, nil
}

// DesiredSize is https://streams.spec.whatwg.org/#rbs-controller-desired-size.
func (o *readableByteStreamControllerImpl) DesiredSize() (webidl.Nullable[float64], error) {
	d, ok := o.c.DesiredSize()
	return webidl.Nullable[float64]{Value: d, Null: !ok}, nil
}

// Close is https://streams.spec.whatwg.org/#rbs-controller-close.
func (o *readableByteStreamControllerImpl) Close() error { return streamsError(o.c.Close()) }

// Enqueue is https://streams.spec.whatwg.org/#rbs-controller-enqueue.
func (o *readableByteStreamControllerImpl) Enqueue(chunk ArrayBufferView) error {
	v, err := o.realm.streamView(arrayBufferViewValue(chunk))
	if err != nil {
		return err
	}
	return streamsError(o.c.Enqueue(v))
}

// Error is https://streams.spec.whatwg.org/#rbs-controller-error.
func (o *readableByteStreamControllerImpl) Error(e sobek.Value) error {
	o.c.Error(e)
	return nil
}

// readableStreamBYOBRequestImpl is a ReadableStreamBYOBRequest object
// (it has no constructor).
type readableStreamBYOBRequestImpl struct {
	webidl.Reflector
	realm *Realm
	req   *streams.BYOBRequest
}

// View is https://streams.spec.whatwg.org/#rs-byob-request-view.
func (o *readableStreamBYOBRequestImpl) View() (webidl.Nullable[ArrayBufferView], error) {
	// 1. Return this.[[view]].
	v, _ := o.req.View().(sobek.Value)
	if v == nil {
		return webidl.Nullable[ArrayBufferView]{Null: true}, nil
	}
	return webidl.Nullable[ArrayBufferView]{Value: ArrayBufferView{Type: ArrayBufferViewIsUint8Array,
		Uint8Array: webidl.BufferSource{Object: v.(*sobek.Object), Kind: "Uint8Array"}}}, nil
}

// Respond is https://streams.spec.whatwg.org/#rs-byob-request-respond.
func (o *readableStreamBYOBRequestImpl) Respond(bytesWritten uint64) error {
	return streamsError(o.req.Respond(int(min(bytesWritten, 1<<53))))
}

// RespondWithNewView is
// https://streams.spec.whatwg.org/#rs-byob-request-respond-with-new-view.
func (o *readableStreamBYOBRequestImpl) RespondWithNewView(view ArrayBufferView) error {
	v, err := o.realm.streamView(arrayBufferViewValue(view))
	if err != nil {
		return err
	}
	return streamsError(o.req.RespondWithNewView(v))
}

// readableStreamBYOBReaderImpl is a ReadableStreamBYOBReader object.
type readableStreamBYOBReaderImpl struct {
	webidl.Reflector
	realm *Realm
	rd    *streams.BYOBReader
}

type readableStreamBYOBReaderStatics struct{}

// Constructor is https://streams.spec.whatwg.org/#byob-reader-constructor.
func (readableStreamBYOBReaderStatics) Constructor(ir *webidl.Realm, stream ReadableStreamMethods) (ReadableStreamBYOBReaderMethods, error) {
	// 1. Perform ? SetUpReadableStreamBYOBReader(this, stream).
	rd, err := streams.NewBYOBReader(stream.idlImpl().s)
	if err != nil {
		return nil, streamsError(err)
	}
	return &readableStreamBYOBReaderImpl{realm: realmOf(ir), rd: rd}, nil
}

// Closed is https://streams.spec.whatwg.org/#generic-reader-closed.
func (o *readableStreamBYOBReaderImpl) Closed() (*webidl.Promise, error) {
	return promiseOfStream(o.rd.Closed()), nil
}

// Read is https://streams.spec.whatwg.org/#byob-reader-read.
func (o *readableStreamBYOBReaderImpl) Read(view ArrayBufferView, options ReadableStreamBYOBReaderReadOptions) (*webidl.Promise, error) {
	ir := o.realm.idl
	v, err := o.realm.streamView(arrayBufferViewValue(view))
	if err != nil {
		return ir.PromiseRejectedWithError(err), nil
	}
	// 8. Let promise be a new promise.
	p := ir.NewPromise()
	// 9. Let readIntoRequest be a new read-into request with the
	// following items:
	err = o.rd.Read(v, options.Min, streams.ReadIntoRequest{
		// chunk steps, given chunk: Resolve promise with «[ "value" →
		// chunk, "done" → false ]».
		Chunk: func(chunk any) { p.Resolve(ir.IterResult(jsStreamValue(chunk), false)) },
		// close steps, given chunk: Resolve promise with «[ "value" →
		// chunk, "done" → true ]».
		Close: func(chunk any) { p.Resolve(ir.IterResult(jsStreamValue(chunk), true)) },
		// error steps, given e: Reject promise with e.
		Error: func(e any) { p.Reject(jsStreamValue(e)) },
	})
	// 1-7. The TypeErrors and RangeErrors of the checks.
	if err != nil {
		return ir.PromiseRejectedWithError(streamsError(err)), nil
	}
	// 12. Return promise.
	return p, nil
}

// ReleaseLock is https://streams.spec.whatwg.org/#byob-reader-release-lock.
func (o *readableStreamBYOBReaderImpl) ReleaseLock() error {
	o.rd.ReleaseLock()
	return nil
}

// Cancel is https://streams.spec.whatwg.org/#generic-reader-cancel.
func (o *readableStreamBYOBReaderImpl) Cancel(reason sobek.Value) (*webidl.Promise, error) {
	return promiseOfStream(o.rd.Cancel(reason)), nil
}
