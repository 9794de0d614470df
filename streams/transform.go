package streams

// This file is transform streams (https://streams.spec.whatwg.org/#ts):
// TransformStream, TransformStreamDefaultController and their abstract
// operations.

// Thrown is an exception whose value is a stream value (a stored error
// an operation rethrows): the host throws V itself.
type Thrown struct{ V any }

func (t *Thrown) Error() string { return "a stream's stored error" }

// TransformStream is https://streams.spec.whatwg.org/#transformstream:
// its internal slots.
type TransformStream struct {
	host                      Host
	backpressure              bool
	backpressureChangePromise Promise
	controller                *TransformController
	readable                  *ReadableStream
	writable                  *WritableStream
}

// Transformer is the transformer's algorithms as the host made them
// (nil for the standard's defaults).
type Transformer struct {
	// Start is the transformer's start: its result resolves the start
	// promise; an error is the exception it threw.
	Start func(c *TransformController) (any, error)
	// Transform, Flush and Cancel are the transform, flush and cancel
	// algorithms.
	Transform func(chunk any, c *TransformController) Promise
	Flush     func(c *TransformController) Promise
	Cancel    func(reason any) Promise
}

// TransformController is
// https://streams.spec.whatwg.org/#transformstreamdefaultcontroller.
type TransformController struct {
	cancelAlgorithm    func(any) Promise
	finishPromise      Promise
	flushAlgorithm     func() Promise
	stream             *TransformStream
	transformAlgorithm func(any) Promise
}

// NewTransformStream is the TransformStream constructor's steps 5-13
// (https://streams.spec.whatwg.org/#ts-constructor) once the host has
// converted the transformer and the strategies (steps 3-4's
// RangeErrors are the host's): the high water marks are
// ExtractHighWaterMark's results (defaults 1 for the writable side, 0
// for the readable side), nil sizes the defaults.
func NewTransformStream(h Host, t Transformer, writableHWM float64, writableSize SizeAlgorithm,
	readableHWM float64, readableSize SizeAlgorithm) (*TransformStream, error) {
	ts := &TransformStream{host: h}
	// 9. Let startPromise be a new promise.
	startPromise := h.NewPromise()
	// 10. Perform ! InitializeTransformStream(this, startPromise,
	// writableHighWaterMark, writableSizeAlgorithm,
	// readableHighWaterMark, readableSizeAlgorithm).
	if err := initializeTransformStream(ts, startPromise, writableHWM, writableSize, readableHWM, readableSize); err != nil {
		return nil, err
	}
	// 11. Perform ? SetUpTransformStreamDefaultControllerFromTransformer(this,
	// transformer, transformerDict).
	setUpTransformStreamDefaultControllerFromTransformer(ts, t)
	// 12. If transformerDict["start"] exists, then resolve startPromise
	// with the result of invoking transformerDict["start"] with argument
	// list « this.[[controller]] » and callback this value transformer.
	if t.Start != nil {
		v, err := t.Start(ts.controller)
		if err != nil {
			return nil, err
		}
		startPromise.Resolve(v)
	} else {
		// 13. Otherwise, resolve startPromise with undefined.
		startPromise.Resolve(nil)
	}
	return ts, nil
}

// Readable is https://streams.spec.whatwg.org/#ts-readable.
func (ts *TransformStream) Readable() *ReadableStream { return ts.readable }

// Writable is https://streams.spec.whatwg.org/#ts-writable.
func (ts *TransformStream) Writable() *WritableStream { return ts.writable }

// Controller is the stream's [[controller]].
func (ts *TransformStream) Controller() *TransformController { return ts.controller }

// initializeTransformStream is
// https://streams.spec.whatwg.org/#initialize-transform-stream.
func initializeTransformStream(ts *TransformStream, startPromise Promise, writableHWM float64, writableSize SizeAlgorithm,
	readableHWM float64, readableSize SizeAlgorithm) error {
	h := ts.host
	// 1. Let startAlgorithm be an algorithm that returns startPromise.
	start := func() (any, error) { return startPromise, nil }
	// 2-4. The write, abort and close algorithms of the writable side.
	sink := UnderlyingSink{
		Start: func(*WritableController) (any, error) { return start() },
		Write: func(chunk any, _ *WritableController) Promise {
			return transformStreamDefaultSinkWriteAlgorithm(ts, chunk)
		},
		Abort: func(reason any) Promise { return transformStreamDefaultSinkAbortAlgorithm(ts, reason) },
		Close: func() Promise { return transformStreamDefaultSinkCloseAlgorithm(ts) },
	}
	// 5. Set stream.[[writable]] to ! CreateWritableStream(startAlgorithm,
	// writeAlgorithm, closeAlgorithm, abortAlgorithm,
	// writableHighWaterMark, writableSizeAlgorithm).
	w, err := CreateWritableStream(h, sink, writableHWM, writableSize)
	if err != nil {
		return err
	}
	ts.writable = w
	// 6-7. The pull and cancel algorithms of the readable side.
	src := UnderlyingSource{
		Start:  func(*DefaultController) (any, error) { return start() },
		Pull:   func(*DefaultController) Promise { return transformStreamDefaultSourcePullAlgorithm(ts) },
		Cancel: func(reason any) Promise { return transformStreamDefaultSourceCancelAlgorithm(ts, reason) },
	}
	// 8. Set stream.[[readable]] to ! CreateReadableStream(startAlgorithm,
	// pullAlgorithm, cancelAlgorithm, readableHighWaterMark,
	// readableSizeAlgorithm).
	ts.readable = CreateReadableStream(h, src, readableHWM, readableSize)
	// 9. Set stream.[[backpressure]] and
	// stream.[[backpressureChangePromise]] to undefined.
	ts.backpressureChangePromise = nil
	// 10. Perform ! TransformStreamSetBackpressure(stream, true).
	transformStreamSetBackpressure(ts, true)
	// 11. Set stream.[[controller]] to undefined.
	ts.controller = nil
	return nil
}

// transformStreamError is https://streams.spec.whatwg.org/#transform-stream-error.
func transformStreamError(ts *TransformStream, e any) {
	// 1. Perform ! ReadableStreamDefaultControllerError(stream.[[readable]].[[controller]], e).
	ReadableStreamDefaultControllerError(ts.readable.DefaultController(), e)
	// 2. Perform ! TransformStreamErrorWritableAndUnblockWrite(stream, e).
	transformStreamErrorWritableAndUnblockWrite(ts, e)
}

// transformStreamErrorWritableAndUnblockWrite is
// https://streams.spec.whatwg.org/#transform-stream-error-writable-and-unblock-write.
func transformStreamErrorWritableAndUnblockWrite(ts *TransformStream, e any) {
	// 1. Perform ! TransformStreamDefaultControllerClearAlgorithms(stream.[[controller]]).
	transformStreamDefaultControllerClearAlgorithms(ts.controller)
	// 2. Perform ! WritableStreamDefaultControllerErrorIfNeeded(stream.[[writable]].[[controller]], e).
	writableStreamDefaultControllerErrorIfNeeded(ts.writable.controller, e)
	// 3. Perform ! TransformStreamUnblockWrite(stream).
	transformStreamUnblockWrite(ts)
}

// transformStreamSetBackpressure is
// https://streams.spec.whatwg.org/#transform-stream-set-backpressure.
func transformStreamSetBackpressure(ts *TransformStream, backpressure bool) {
	// 1. Assert: stream.[[backpressure]] is not backpressure.
	// 2. If stream.[[backpressureChangePromise]] is not undefined, resolve
	// stream.[[backpressureChangePromise]] with undefined.
	if ts.backpressureChangePromise != nil {
		ts.backpressureChangePromise.Resolve(nil)
	}
	// 3. Set stream.[[backpressureChangePromise]] to a new promise.
	ts.backpressureChangePromise = ts.host.NewPromise()
	// 4. Set stream.[[backpressure]] to backpressure.
	ts.backpressure = backpressure
}

// transformStreamUnblockWrite is
// https://streams.spec.whatwg.org/#transform-stream-unblock-write.
func transformStreamUnblockWrite(ts *TransformStream) {
	// 1. If stream.[[backpressure]] is true, perform !
	// TransformStreamSetBackpressure(stream, false).
	if ts.backpressure {
		transformStreamSetBackpressure(ts, false)
	}
}

// setUpTransformStreamDefaultControllerFromTransformer is
// https://streams.spec.whatwg.org/#set-up-transform-stream-default-controller-from-transformer.
func setUpTransformStreamDefaultControllerFromTransformer(ts *TransformStream, t Transformer) {
	h := ts.host
	// 1. Let controller be a new TransformStreamDefaultController.
	c := &TransformController{}
	// 2. Let transformAlgorithm be the following steps, taking a chunk
	// argument:
	transform := func(chunk any) Promise {
		// 2.1. Let result be TransformStreamDefaultControllerEnqueue(controller, chunk).
		// 2.2. If result is an abrupt completion, return a promise
		// rejected with result.[[Value]].
		if err := transformStreamDefaultControllerEnqueue(c, chunk); err != nil {
			return h.PromiseRejectedWith(h.ErrorValue(err))
		}
		// 2.3. Otherwise, return a promise resolved with undefined.
		return h.PromiseResolvedWith(nil)
	}
	// 3. Let flushAlgorithm be an algorithm which returns a promise
	// resolved with undefined.
	flush := func() Promise { return h.PromiseResolvedWith(nil) }
	// 4. Let cancelAlgorithm be an algorithm which returns a promise
	// resolved with undefined.
	cancel := func(any) Promise { return h.PromiseResolvedWith(nil) }
	// 5-7. The transformer's transform (« chunk, controller »), flush
	// (« controller ») and cancel (« reason »), when it has them.
	if t.Transform != nil {
		transform = func(chunk any) Promise { return t.Transform(chunk, c) }
	}
	if t.Flush != nil {
		flush = func() Promise { return t.Flush(c) }
	}
	if t.Cancel != nil {
		cancel = t.Cancel
	}
	// 8. Perform ! SetUpTransformStreamDefaultController(stream,
	// controller, transformAlgorithm, flushAlgorithm, cancelAlgorithm).
	setUpTransformStreamDefaultController(ts, c, transform, flush, cancel)
}

// setUpTransformStreamDefaultController is
// https://streams.spec.whatwg.org/#set-up-transform-stream-default-controller.
func setUpTransformStreamDefaultController(ts *TransformStream, c *TransformController,
	transform func(any) Promise, flush func() Promise, cancel func(any) Promise) {
	// 1-2. Asserts.
	// 3. Set controller.[[stream]] to stream.
	c.stream = ts
	// 4. Set stream.[[controller]] to controller.
	ts.controller = c
	// 5-7. Set the transform, flush and cancel algorithms.
	c.transformAlgorithm, c.flushAlgorithm, c.cancelAlgorithm = transform, flush, cancel
}

// DesiredSize is https://streams.spec.whatwg.org/#ts-default-controller-desired-size:
// ok false is null.
func (c *TransformController) DesiredSize() (float64, bool) {
	// 1. Let readableController be this.[[stream]].[[readable]].[[controller]].
	// 2. Return ! ReadableStreamDefaultControllerGetDesiredSize(readableController).
	return readableStreamDefaultControllerGetDesiredSize(c.stream.readable.DefaultController())
}

// Enqueue is https://streams.spec.whatwg.org/#ts-default-controller-enqueue.
func (c *TransformController) Enqueue(chunk any) error {
	// 1. Perform ? TransformStreamDefaultControllerEnqueue(this, chunk).
	return transformStreamDefaultControllerEnqueue(c, chunk)
}

// Error is https://streams.spec.whatwg.org/#ts-default-controller-error.
func (c *TransformController) Error(e any) {
	// 1. Perform ? TransformStreamDefaultControllerError(this, reason).
	transformStreamError(c.stream, e)
}

// Terminate is https://streams.spec.whatwg.org/#ts-default-controller-terminate.
func (c *TransformController) Terminate() {
	// 1. Perform ? TransformStreamDefaultControllerTerminate(this).
	transformStreamDefaultControllerTerminate(c)
}

// transformStreamDefaultControllerClearAlgorithms is
// https://streams.spec.whatwg.org/#transform-stream-default-controller-clear-algorithms.
func transformStreamDefaultControllerClearAlgorithms(c *TransformController) {
	// 1-3. Set the transform, flush and cancel algorithms to undefined.
	h := c.stream.host
	c.transformAlgorithm = func(any) Promise { return h.PromiseResolvedWith(nil) }
	c.flushAlgorithm = func() Promise { return h.PromiseResolvedWith(nil) }
	c.cancelAlgorithm = func(any) Promise { return h.PromiseResolvedWith(nil) }
}

// transformStreamDefaultControllerEnqueue is
// https://streams.spec.whatwg.org/#transform-stream-default-controller-enqueue.
func transformStreamDefaultControllerEnqueue(c *TransformController, chunk any) error {
	// 1. Let stream be controller.[[stream]].
	ts := c.stream
	// 2. Let readableController be stream.[[readable]].[[controller]].
	rc := ts.readable.DefaultController()
	// 3. If ! ReadableStreamDefaultControllerCanCloseOrEnqueue(readableController)
	// is false, throw a TypeError exception.
	if !readableStreamDefaultControllerCanCloseOrEnqueue(rc) {
		return &TypeError{Msg: "Readable side is not in a state that permits enqueue"}
	}
	// 4. Let enqueueResult be ReadableStreamDefaultControllerEnqueue(readableController, chunk).
	// 5. If enqueueResult is an abrupt completion,
	if err := ReadableStreamDefaultControllerEnqueue(rc, chunk); err != nil {
		// 5.1. Perform ! TransformStreamErrorWritableAndUnblockWrite(stream,
		// enqueueResult.[[Value]]).
		transformStreamErrorWritableAndUnblockWrite(ts, ts.host.ErrorValue(err))
		// 5.2. Throw stream.[[readable]].[[storedError]].
		return &Thrown{V: ts.readable.storedError}
	}
	// 6. Let backpressure be !
	// ReadableStreamDefaultControllerHasBackpressure(readableController).
	backpressure := !readableStreamDefaultControllerShouldCallPull(rc)
	// 7. If backpressure is not stream.[[backpressure]],
	if backpressure != ts.backpressure {
		// 7.1. Assert: backpressure is true.
		// 7.2. Perform ! TransformStreamSetBackpressure(stream, true).
		transformStreamSetBackpressure(ts, true)
	}
	return nil
}

// transformStreamDefaultControllerPerformTransform is
// https://streams.spec.whatwg.org/#transform-stream-default-controller-perform-transform.
func transformStreamDefaultControllerPerformTransform(c *TransformController, chunk any) Promise {
	h := c.stream.host
	// 1. Let transformPromise be the result of performing
	// controller.[[transformAlgorithm]], passing chunk.
	transformPromise := c.transformAlgorithm(chunk)
	// 2. Return the result of reacting to transformPromise with the
	// following rejection steps given the argument r: 2.1. Perform !
	// TransformStreamError(controller.[[stream]], r). 2.2. Throw r.
	p := h.NewPromise()
	h.React(transformPromise, func(any) { p.Resolve(nil) }, func(r any) {
		transformStreamError(c.stream, r)
		p.Reject(r)
	})
	return p
}

// transformStreamDefaultControllerTerminate is
// https://streams.spec.whatwg.org/#transform-stream-default-controller-terminate.
func transformStreamDefaultControllerTerminate(c *TransformController) {
	// 1. Let stream be controller.[[stream]].
	ts := c.stream
	// 2. Let readableController be stream.[[readable]].[[controller]].
	// 3. Perform ! ReadableStreamDefaultControllerClose(readableController).
	ReadableStreamDefaultControllerClose(ts.readable.DefaultController())
	// 4. Let error be a TypeError exception indicating that the stream
	// has been terminated.
	e := ts.host.ErrorValue(&TypeError{Msg: "The transform stream has been terminated"})
	// 5. Perform ! TransformStreamErrorWritableAndUnblockWrite(stream, error).
	transformStreamErrorWritableAndUnblockWrite(ts, e)
}

// transformStreamDefaultSinkWriteAlgorithm is
// https://streams.spec.whatwg.org/#transform-stream-default-sink-write-algorithm.
func transformStreamDefaultSinkWriteAlgorithm(ts *TransformStream, chunk any) Promise {
	h := ts.host
	// 1. Assert: stream.[[writable]].[[state]] is "writable".
	// 2. Let controller be stream.[[controller]].
	c := ts.controller
	// 3. If stream.[[backpressure]] is true,
	if ts.backpressure {
		// 3.1. Let backpressureChangePromise be stream.[[backpressureChangePromise]].
		// 3.2. Assert: backpressureChangePromise is not undefined.
		// 3.3. Return the result of reacting to backpressureChangePromise
		// with the following fulfillment steps:
		p := h.NewPromise()
		h.React(ts.backpressureChangePromise, func(any) {
			// 3.3.1. Let writable be stream.[[writable]].
			// 3.3.2. Let state be writable.[[state]].
			// 3.3.3. If state is "erroring", throw writable.[[storedError]].
			if ts.writable.state == Erroring {
				p.Reject(ts.writable.storedError)
				return
			}
			// 3.3.4. Assert: state is "writable".
			// 3.3.5. Return ! TransformStreamDefaultControllerPerformTransform(controller, chunk).
			p.Resolve(transformStreamDefaultControllerPerformTransform(c, chunk))
		}, func(r any) { p.Reject(r) })
		return p
	}
	// 4. Return ! TransformStreamDefaultControllerPerformTransform(controller, chunk).
	return transformStreamDefaultControllerPerformTransform(c, chunk)
}

// transformStreamDefaultSinkAbortAlgorithm is
// https://streams.spec.whatwg.org/#transform-stream-default-sink-abort-algorithm.
func transformStreamDefaultSinkAbortAlgorithm(ts *TransformStream, reason any) Promise {
	h := ts.host
	// 1. Let controller be stream.[[controller]].
	c := ts.controller
	// 2. If controller.[[finishPromise]] is not undefined, return
	// controller.[[finishPromise]].
	if c.finishPromise != nil {
		return c.finishPromise
	}
	// 3. Let readable be stream.[[readable]].
	readable := ts.readable
	// 4. Let controller.[[finishPromise]] be a new promise.
	finish := h.NewPromise()
	c.finishPromise = finish
	// 5. Let cancelPromise be the result of performing
	// controller.[[cancelAlgorithm]], passing reason.
	cancelPromise := c.cancelAlgorithm(reason)
	// 6. Perform ! TransformStreamDefaultControllerClearAlgorithms(controller).
	transformStreamDefaultControllerClearAlgorithms(c)
	// 7. React to cancelPromise:
	h.React(cancelPromise, func(any) {
		// 7.1. If cancelPromise was fulfilled, then:
		// 7.1.1. If readable.[[state]] is "errored", reject
		// controller.[[finishPromise]] with readable.[[storedError]].
		if readable.state == Errored {
			finish.Reject(readable.storedError)
			return
		}
		// 7.1.2. Otherwise: 7.1.2.1. Perform !
		// ReadableStreamDefaultControllerError(readable.[[controller]],
		// reason). 7.1.2.2. Resolve controller.[[finishPromise]] with
		// undefined.
		ReadableStreamDefaultControllerError(readable.DefaultController(), reason)
		finish.Resolve(nil)
	}, func(r any) {
		// 7.2. If cancelPromise was rejected with reason r, then:
		// 7.2.1. Perform ! ReadableStreamDefaultControllerError(readable.[[controller]], r).
		ReadableStreamDefaultControllerError(readable.DefaultController(), r)
		// 7.2.2. Reject controller.[[finishPromise]] with r.
		finish.Reject(r)
	})
	// 8. Return controller.[[finishPromise]].
	return finish
}

// transformStreamDefaultSinkCloseAlgorithm is
// https://streams.spec.whatwg.org/#transform-stream-default-sink-close-algorithm.
func transformStreamDefaultSinkCloseAlgorithm(ts *TransformStream) Promise {
	h := ts.host
	// 1. Let controller be stream.[[controller]].
	c := ts.controller
	// 2. If controller.[[finishPromise]] is not undefined, return
	// controller.[[finishPromise]].
	if c.finishPromise != nil {
		return c.finishPromise
	}
	// 3. Let readable be stream.[[readable]].
	readable := ts.readable
	// 4. Let controller.[[finishPromise]] be a new promise.
	finish := h.NewPromise()
	c.finishPromise = finish
	// 5. Let flushPromise be the result of performing
	// controller.[[flushAlgorithm]].
	flushPromise := c.flushAlgorithm()
	// 6. Perform ! TransformStreamDefaultControllerClearAlgorithms(controller).
	transformStreamDefaultControllerClearAlgorithms(c)
	// 7. React to flushPromise:
	h.React(flushPromise, func(any) {
		// 7.1. If flushPromise was fulfilled, then:
		// 7.1.1. If readable.[[state]] is "errored", reject
		// controller.[[finishPromise]] with readable.[[storedError]].
		if readable.state == Errored {
			finish.Reject(readable.storedError)
			return
		}
		// 7.1.2. Otherwise: 7.1.2.1. Perform !
		// ReadableStreamDefaultControllerClose(readable.[[controller]]).
		// 7.1.2.2. Resolve controller.[[finishPromise]] with undefined.
		ReadableStreamDefaultControllerClose(readable.DefaultController())
		finish.Resolve(nil)
	}, func(r any) {
		// 7.2. If flushPromise was rejected with reason r, then:
		// 7.2.1. Perform ! ReadableStreamDefaultControllerError(readable.[[controller]], r).
		ReadableStreamDefaultControllerError(readable.DefaultController(), r)
		// 7.2.2. Reject controller.[[finishPromise]] with r.
		finish.Reject(r)
	})
	// 8. Return controller.[[finishPromise]].
	return finish
}

// transformStreamDefaultSourceCancelAlgorithm is
// https://streams.spec.whatwg.org/#transform-stream-default-source-cancel.
func transformStreamDefaultSourceCancelAlgorithm(ts *TransformStream, reason any) Promise {
	h := ts.host
	// 1. Let controller be stream.[[controller]].
	c := ts.controller
	// 2. If controller.[[finishPromise]] is not undefined, return
	// controller.[[finishPromise]].
	if c.finishPromise != nil {
		return c.finishPromise
	}
	// 3. Let writable be stream.[[writable]].
	writable := ts.writable
	// 4. Let controller.[[finishPromise]] be a new promise.
	finish := h.NewPromise()
	c.finishPromise = finish
	// 5. Let cancelPromise be the result of performing
	// controller.[[cancelAlgorithm]], passing reason.
	cancelPromise := c.cancelAlgorithm(reason)
	// 6. Perform ! TransformStreamDefaultControllerClearAlgorithms(controller).
	transformStreamDefaultControllerClearAlgorithms(c)
	// 7. React to cancelPromise:
	h.React(cancelPromise, func(any) {
		// 7.1. If cancelPromise was fulfilled, then:
		// 7.1.1. If writable.[[state]] is "errored", reject
		// controller.[[finishPromise]] with writable.[[storedError]].
		if writable.state == WritableErrored {
			finish.Reject(writable.storedError)
			return
		}
		// 7.1.2. Otherwise: 7.1.2.1. Perform !
		// WritableStreamDefaultControllerErrorIfNeeded(writable.[[controller]],
		// reason). 7.1.2.2. Perform ! TransformStreamUnblockWrite(stream).
		// 7.1.2.3. Resolve controller.[[finishPromise]] with undefined.
		writableStreamDefaultControllerErrorIfNeeded(writable.controller, reason)
		transformStreamUnblockWrite(ts)
		finish.Resolve(nil)
	}, func(r any) {
		// 7.2. If cancelPromise was rejected with reason r, then:
		// 7.2.1. Perform ! WritableStreamDefaultControllerErrorIfNeeded(writable.[[controller]], r).
		writableStreamDefaultControllerErrorIfNeeded(writable.controller, r)
		// 7.2.2. Perform ! TransformStreamUnblockWrite(stream).
		transformStreamUnblockWrite(ts)
		// 7.2.3. Reject controller.[[finishPromise]] with r.
		finish.Reject(r)
	})
	// 8. Return controller.[[finishPromise]].
	return finish
}

// transformStreamDefaultSourcePullAlgorithm is
// https://streams.spec.whatwg.org/#transform-stream-default-source-pull.
func transformStreamDefaultSourcePullAlgorithm(ts *TransformStream) Promise {
	// 1. Assert: stream.[[backpressure]] is true.
	// 2. Assert: stream.[[backpressureChangePromise]] is not undefined.
	// 3. Perform ! TransformStreamSetBackpressure(stream, false).
	transformStreamSetBackpressure(ts, false)
	// 4. Return stream.[[backpressureChangePromise]].
	return ts.backpressureChangePromise
}
