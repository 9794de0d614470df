package bindings

import (
	"errors"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/streams"
	"github.com/grafana/sobek"
)

// This file is the Streams Standard's JavaScript interfaces
// (https://streams.spec.whatwg.org/#rs-class): ReadableStream,
// ReadableStreamDefaultReader, ReadableStreamDefaultController and the
// queuing strategies over package streams, whose host is the realm
// (streamHost). Chunks, reasons and errors are JavaScript values.

// streamHost is the realm as package streams' Host.
type streamHost struct{ r *Realm }

// streamPromise is a promise of the realm for package streams.
type streamPromise struct{ p *webidl.Promise }

func (p *streamPromise) Resolve(v any)     { p.p.Resolve(jsStreamValue(v)) }
func (p *streamPromise) Reject(reason any) { p.p.Reject(jsStreamValue(reason)) }

// jsStreamValue is the JavaScript value of a value package streams hands
// back (nil is undefined; a promise is its object).
func jsStreamValue(v any) sobek.Value {
	switch x := v.(type) {
	case nil:
		return sobek.Undefined()
	case sobek.Value:
		return x
	case *streamPromise:
		return x.p.Object
	}
	return sobek.Undefined()
}

// promiseOfStream is the promise of a streams.Promise of this host.
func promiseOfStream(p streams.Promise) *webidl.Promise { return p.(*streamPromise).p }

func (h streamHost) NewPromise() streams.Promise { return &streamPromise{h.r.idl.NewPromise()} }

func (h streamHost) PromiseResolvedWith(v any) streams.Promise {
	// (A promise of this realm is itself: "a promise resolved with" it.)
	if p, ok := v.(*streamPromise); ok {
		return p
	}
	return &streamPromise{h.r.idl.PromiseResolvedWith(jsStreamValue(v))}
}

func (h streamHost) PromiseRejectedWith(reason any) streams.Promise {
	return &streamPromise{h.r.idl.PromiseRejectedWith(jsStreamValue(reason))}
}

func (h streamHost) React(p streams.Promise, onFulfilled, onRejected func(any)) {
	// Both reactions are given, so the derived promise never rejects
	// (and is never reported as an unhandled rejection).
	promiseOfStream(p).React(func(v sobek.Value) (sobek.Value, error) {
		if onFulfilled != nil {
			onFulfilled(v)
		}
		return sobek.Undefined(), nil
	}, func(reason sobek.Value) (sobek.Value, error) {
		if onRejected != nil {
			onRejected(reason)
		}
		return sobek.Undefined(), nil
	})
}

func (h streamHost) MarkHandled(p streams.Promise) { promiseOfStream(p).MarkHandled() }

func (h streamHost) QueueMicrotask(steps func()) {
	h.r.enqueueJob(h.r.newFunction("", 0, func(sobek.FunctionCall) sobek.Value {
		steps()
		return sobek.Undefined()
	}))
}

func (h streamHost) ErrorValue(err error) any { return h.r.idl.ErrorValue(streamsError(err)) }

func (h streamHost) CreateArray(values []any) any {
	vs := make([]any, len(values))
	for i, v := range values {
		vs[i] = jsStreamValue(v)
	}
	return h.r.vm.NewArray(vs...)
}

func (h streamHost) StructuredClone(v any) (any, error) {
	return h.r.structuredClone(jsStreamValue(v), StructuredSerializeOptions{})
}

// streamsError is the exception of an error package streams returned:
// its TypeError and RangeError become JavaScript ones, anything else (an
// exception a callback threw) is itself.
func streamsError(err error) error {
	var te *streams.TypeError
	if errors.As(err, &te) {
		return webidl.NewTypeError("%s", te.Msg)
	}
	var re *streams.RangeError
	if errors.As(err, &re) {
		return webidl.NewRangeError("%s", re.Msg)
	}
	var thrown *streams.Thrown
	if errors.As(err, &thrown) {
		return &webidl.JSError{Value: jsStreamValue(thrown.V)}
	}
	return err
}

// streamHostOf is the realm's streams.Host.
func (r *Realm) streamHost() streams.Host { return streamHost{r} }

// readableStreamImpl is a ReadableStream object.
type readableStreamImpl struct {
	webidl.Reflector
	realm *Realm
	s     *streams.ReadableStream
}

type readableStreamStatics struct{}

// Constructor is https://streams.spec.whatwg.org/#rs-constructor.
func (readableStreamStatics) Constructor(ir *webidl.Realm, underlyingSource *sobek.Object, strategy QueuingStrategy) (ReadableStreamMethods, error) {
	r := realmOf(ir)
	// 1. If underlyingSource is missing, set it to null.
	// 2. Let underlyingSourceDict be underlyingSource, converted to an
	// IDL value of type UnderlyingSource.
	var dict UnderlyingSource
	idlReadDictUnderlyingSource(ir, underlyingSource, &dict)
	// 3. Perform ! InitializeReadableStream(this) (streams.New).
	this := sobek.Value(sobek.Undefined())
	if underlyingSource != nil {
		this = underlyingSource
	}
	// 4. If underlyingSourceDict["type"] is "bytes":
	if dict.Type.Present {
		s, err := r.newByteStream(this, dict, strategy)
		if err != nil {
			return nil, err
		}
		return &readableStreamImpl{realm: r, s: s}, nil
	}
	// 5. Otherwise,
	// 5.1. Assert: underlyingSourceDict["type"] does not exist.
	// 5.2. Let sizeAlgorithm be ! ExtractSizeAlgorithm(strategy).
	size := extractSizeAlgorithm(strategy)
	// 5.3. Let highWaterMark be ? ExtractHighWaterMark(strategy, 1).
	hwm, err := streams.ExtractHighWaterMark(strategy.HighWaterMark.Value, strategy.HighWaterMark.Present, 1)
	if err != nil {
		return nil, streamsError(err)
	}
	// 5.4. Perform ? SetUpReadableStreamDefaultControllerFromUnderlyingSource(this,
	// underlyingSource, underlyingSourceDict, highWaterMark,
	// sizeAlgorithm): the dictionary's callbacks are invoked with
	// underlyingSource as their this value.
	var ctl *readableStreamDefaultControllerImpl
	controller := func(c *streams.DefaultController) ReadableStreamController {
		if ctl == nil {
			ctl = &readableStreamDefaultControllerImpl{c: c}
		}
		return ReadableStreamController{Type: ReadableStreamControllerIsReadableStreamDefaultController, ReadableStreamDefaultController: ctl}
	}
	var src streams.UnderlyingSource
	if dict.Start != nil {
		src.Start = func(c *streams.DefaultController) (any, error) {
			v, err := dict.Start.Invoke(this, controller(c))
			if err != nil {
				return nil, err
			}
			return v, nil
		}
	}
	if dict.Pull != nil {
		src.Pull = func(c *streams.DefaultController) streams.Promise {
			return &streamPromise{dict.Pull.Invoke(this, controller(c))}
		}
	}
	if dict.Cancel != nil {
		src.Cancel = func(reason any) streams.Promise {
			return &streamPromise{dict.Cancel.Invoke(this, jsStreamValue(reason))}
		}
	}
	s, err := streams.New(r.streamHost(), src, hwm, size)
	if err != nil {
		return nil, streamsError(err)
	}
	return &readableStreamImpl{realm: r, s: s}, nil
}

// extractSizeAlgorithm is
// https://streams.spec.whatwg.org/#make-size-algorithm-from-size-function:
// nil (every chunk is 1) when the strategy has no size.
func extractSizeAlgorithm(strategy QueuingStrategy) streams.SizeAlgorithm {
	// 1. If strategy["size"] does not exist, return an algorithm that
	// returns 1.
	if strategy.Size == nil {
		return nil
	}
	// 2. Return an algorithm that performs the following steps, taking a
	// chunk argument: 2.1. Return the result of invoking
	// strategy["size"] with argument list « chunk ».
	size := strategy.Size
	return func(chunk any) (float64, error) {
		return size.Invoke(sobek.Undefined(), jsStreamValue(chunk))
	}
}

// newReadableStreamObject is a ReadableStream object for a stream of
// package streams.
func (r *Realm) newReadableStreamObject(s *streams.ReadableStream) *readableStreamImpl {
	return &readableStreamImpl{realm: r, s: s}
}

// Locked is https://streams.spec.whatwg.org/#rs-locked.
func (o *readableStreamImpl) Locked() (bool, error) { return o.s.Locked(), nil }

// Cancel is https://streams.spec.whatwg.org/#rs-cancel.
func (o *readableStreamImpl) Cancel(reason sobek.Value) (*webidl.Promise, error) {
	return promiseOfStream(o.s.Cancel(reason)), nil
}

// GetReader is https://streams.spec.whatwg.org/#rs-get-reader.
func (o *readableStreamImpl) GetReader(options ReadableStreamGetReaderOptions) (ReadableStreamReader, error) {
	// 1. If options["mode"] does not exist, return ?
	// AcquireReadableStreamDefaultReader(this).
	if !options.Mode.Present {
		rd, err := o.s.GetReader()
		if err != nil {
			return ReadableStreamReader{}, streamsError(err)
		}
		return ReadableStreamReader{Type: ReadableStreamReaderIsReadableStreamDefaultReader,
			ReadableStreamDefaultReader: &readableStreamDefaultReaderImpl{realm: o.realm, rd: rd}}, nil
	}
	// 2. Assert: options["mode"] is "byob".
	// 3. Return ? AcquireReadableStreamBYOBReader(this).
	rd, err := streams.AcquireReadableStreamBYOBReader(o.s)
	if err != nil {
		return ReadableStreamReader{}, streamsError(err)
	}
	return ReadableStreamReader{Type: ReadableStreamReaderIsReadableStreamBYOBReader,
		ReadableStreamBYOBReader: &readableStreamBYOBReaderImpl{realm: o.realm, rd: rd}}, nil
}

// Tee is https://streams.spec.whatwg.org/#rs-tee.
func (o *readableStreamImpl) Tee() ([]ReadableStreamMethods, error) {
	b1, b2, err := o.s.Tee()
	if err != nil {
		return nil, streamsError(err)
	}
	return []ReadableStreamMethods{o.realm.newReadableStreamObject(b1), o.realm.newReadableStreamObject(b2)}, nil
}

// AsyncIterate is the asynchronous iterator initialization steps
// (https://streams.spec.whatwg.org/#rs-asynciterator).
func (o *readableStreamImpl) AsyncIterate(options ReadableStreamIteratorOptions) (webidl.AsyncIterator, error) {
	// 1. Let reader be ? AcquireReadableStreamDefaultReader(stream).
	rd, err := streams.AcquireReadableStreamDefaultReader(o.s)
	if err != nil {
		return nil, streamsError(err)
	}
	// 2. Set iterator's reader to reader.
	// 3-4. Let preventCancel be args[0]["preventCancel"] and set
	// iterator's prevent cancel to it.
	return &readableStreamAsyncIterator{rd: rd, preventCancel: options.PreventCancel}, nil
}

// readableStreamAsyncIterator is a ReadableStream's asynchronous
// iterator.
type readableStreamAsyncIterator struct {
	rd            *streams.DefaultReader
	preventCancel bool
}

// Next is https://streams.spec.whatwg.org/#rs-asynciterator-prototype-next.
func (it *readableStreamAsyncIterator) Next(ir *webidl.Realm) *webidl.Promise {
	// 1. Let reader be iterator's reader. 2. Assert: reader.[[stream]] is
	// not undefined.
	rd := it.rd
	// 3. Let promise be a new promise.
	p := ir.NewPromise()
	// 4. Let readRequest be a new read request with the following items:
	// 5. Perform ! ReadableStreamDefaultReaderRead(this, readRequest).
	err := rd.Read(streams.ReadRequest{
		// chunk steps: Resolve promise with chunk.
		Chunk: func(chunk any) { p.Resolve(ir.IterResult(jsStreamValue(chunk), false)) },
		// close steps: Perform ! ReadableStreamDefaultReaderRelease(reader);
		// resolve promise with end of iteration.
		Close: func() {
			rd.ReleaseLock()
			p.Resolve(ir.IterResult(sobek.Undefined(), true))
		},
		// error steps: Perform ! ReadableStreamDefaultReaderRelease(reader);
		// reject promise with e.
		Error: func(e any) {
			rd.ReleaseLock()
			p.Reject(jsStreamValue(e))
		},
	})
	if err != nil {
		p.RejectError(streamsError(err))
	}
	// 6. Return promise.
	return p
}

// Return is https://streams.spec.whatwg.org/#rs-asynciterator-prototype-return.
func (it *readableStreamAsyncIterator) Return(ir *webidl.Realm, arg sobek.Value) *webidl.Promise {
	// 1. Let reader be iterator's reader. 2-3. Asserts.
	rd := it.rd
	if rd.Stream() == nil {
		return ir.PromiseResolvedWith(sobek.Undefined())
	}
	// 4. If iterator's prevent cancel is false:
	if !it.preventCancel {
		// 4.1. Let result be ! ReadableStreamReaderGenericCancel(reader,
		// arg).
		result := rd.Cancel(arg)
		// 4.2. Perform ! ReadableStreamDefaultReaderRelease(reader).
		rd.ReleaseLock()
		// 4.3. Return result.
		return promiseOfStream(result)
	}
	// 5. Perform ! ReadableStreamDefaultReaderRelease(reader).
	rd.ReleaseLock()
	// 6. Return a promise resolved with undefined.
	return ir.PromiseResolvedWith(sobek.Undefined())
}

// PipeTo is https://streams.spec.whatwg.org/#rs-pipe-to.
func (o *readableStreamImpl) PipeTo(destination WritableStreamMethods, options StreamPipeOptions) (*webidl.Promise, error) {
	return promiseOfStream(o.s.PipeTo(destination.idlImpl().s, pipeOptions(options))), nil
}

// PipeThrough is https://streams.spec.whatwg.org/#rs-pipe-through.
func (o *readableStreamImpl) PipeThrough(transform ReadableWritablePair, options StreamPipeOptions) (ReadableStreamMethods, error) {
	if _, err := o.s.PipeThrough(transform.Writable.idlImpl().s, pipeOptions(options)); err != nil {
		return nil, streamsError(err)
	}
	// 6. Return transform["readable"].
	return transform.Readable, nil
}
