package streams

// This file is writable streams (https://streams.spec.whatwg.org/#ws):
// WritableStream, WritableStreamDefaultWriter,
// WritableStreamDefaultController and their abstract operations.

// WritableState is a writable stream's [[state]].
type WritableState uint8

// The states of a writable stream.
const (
	Writable WritableState = iota
	WritableClosed
	Erroring
	WritableErrored
)

// AbortController is the host's AbortController a
// WritableStreamDefaultController keeps
// ([[abortController]]): Abort signals abort on its signal with reason.
type AbortController interface {
	Abort(reason any)
}

// pendingAbortRequest is https://streams.spec.whatwg.org/#pending-abort-request.
type pendingAbortRequest struct {
	promise            Promise
	reason             any
	wasAlreadyErroring bool
}

// WritableStream is https://streams.spec.whatwg.org/#writablestream: its
// internal slots.
type WritableStream struct {
	host                 Host
	backpressure         bool
	closeRequest         Promise
	controller           *WritableController
	inFlightWriteRequest Promise
	inFlightCloseRequest Promise
	pendingAbortRequest  *pendingAbortRequest
	state                WritableState
	storedError          any
	writer               *Writer
	writeRequests        []Promise
}

// UnderlyingSink is the underlying sink's algorithms as the host made
// them (nil for the standard's defaults).
type UnderlyingSink struct {
	// Start is the start algorithm: its result becomes a promise
	// resolved with it; an error is the exception it threw.
	Start func(c *WritableController) (any, error)
	// Write, Close and Abort are the write, close and abort algorithms.
	Write func(chunk any, c *WritableController) Promise
	Close func() Promise
	Abort func(reason any) Promise
}

// closeSentinel is the close sentinel
// (https://streams.spec.whatwg.org/#close-sentinel) in a controller's
// queue.
type closeSentinelType struct{}

var closeSentinel = closeSentinelType{}

// WritableController is
// https://streams.spec.whatwg.org/#writablestreamdefaultcontroller.
type WritableController struct {
	queueWithSizes
	abortController       AbortController
	abortAlgorithm        func(any) Promise
	closeAlgorithm        func() Promise
	started               bool
	strategyHWM           float64
	strategySizeAlgorithm SizeAlgorithm
	stream                *WritableStream
	writeAlgorithm        func(any) Promise
}

// Writer is https://streams.spec.whatwg.org/#writablestreamdefaultwriter.
type Writer struct {
	host          Host
	closedPromise trackedPromise
	readyPromise  trackedPromise
	stream        *WritableStream // nil once released
}

// trackedPromise is a promise the standard asks the state of
// ([[PromiseState]] is "pending"): only this package settles it.
type trackedPromise struct {
	p       Promise
	pending bool
}

func newTracked(h Host) trackedPromise { return trackedPromise{p: h.NewPromise(), pending: true} }

func resolvedTracked(h Host) trackedPromise { return trackedPromise{p: h.PromiseResolvedWith(nil)} }

func rejectedTracked(h Host, e any) trackedPromise {
	return trackedPromise{p: h.PromiseRejectedWith(e)}
}

func (t *trackedPromise) resolve() {
	t.p.Resolve(nil)
	t.pending = false
}

func (t *trackedPromise) reject(e any) {
	t.p.Reject(e)
	t.pending = false
}

// NewWritableStream is the WritableStream constructor's steps
// (https://streams.spec.whatwg.org/#ws-constructor) once the host has
// converted the sink and the strategy (step 3's RangeError for a "type"
// is the host's): size nil is the default size algorithm.
func NewWritableStream(host Host, sink UnderlyingSink, highWaterMark float64, size SizeAlgorithm) (*WritableStream, error) {
	// 4. Perform ! InitializeWritableStream(this).
	s := &WritableStream{host: host}
	initializeWritableStream(s)
	// 5-7. sizeAlgorithm, highWaterMark and Perform ?
	// SetUpWritableStreamDefaultControllerFromUnderlyingSink(...).
	if err := setUpWritableStreamDefaultControllerFromUnderlyingSink(s, sink, highWaterMark, size); err != nil {
		return nil, err
	}
	return s, nil
}

// initializeWritableStream is
// https://streams.spec.whatwg.org/#initialize-writable-stream.
func initializeWritableStream(s *WritableStream) {
	// 1. Set stream.[[state]] to "writable".
	s.state = Writable
	// 2-9. storedError, writer, controller, inFlightWriteRequest,
	// closeRequest, inFlightCloseRequest and pendingAbortRequest
	// undefined; writeRequests a new empty list.
	s.storedError, s.writer, s.controller = nil, nil, nil
	s.inFlightWriteRequest, s.closeRequest, s.inFlightCloseRequest, s.pendingAbortRequest = nil, nil, nil, nil
	s.writeRequests = nil
	// 10. Set stream.[[backpressure]] to false.
	s.backpressure = false
}

// setUpWritableStreamDefaultControllerFromUnderlyingSink is
// https://streams.spec.whatwg.org/#set-up-writable-stream-default-controller-from-underlying-sink.
func setUpWritableStreamDefaultControllerFromUnderlyingSink(s *WritableStream, sink UnderlyingSink, hwm float64, size SizeAlgorithm) error {
	h := s.host
	// 1. Let controller be a new WritableStreamDefaultController.
	c := &WritableController{}
	// 2. Let startAlgorithm be an algorithm that returns undefined.
	start := func() (any, error) { return nil, nil }
	// 3-5. writeAlgorithm, closeAlgorithm and abortAlgorithm return a
	// promise resolved with undefined.
	write := func(any) Promise { return h.PromiseResolvedWith(nil) }
	closeAlg := func() Promise { return h.PromiseResolvedWith(nil) }
	abort := func(any) Promise { return h.PromiseResolvedWith(nil) }
	// 6-9. The underlying sink's, when it has them (write is invoked
	// with « chunk, controller »).
	if sink.Start != nil {
		start = func() (any, error) { return sink.Start(c) }
	}
	if sink.Write != nil {
		write = func(chunk any) Promise { return sink.Write(chunk, c) }
	}
	if sink.Close != nil {
		closeAlg = sink.Close
	}
	if sink.Abort != nil {
		abort = sink.Abort
	}
	// 10. Perform ? SetUpWritableStreamDefaultController(stream,
	// controller, startAlgorithm, writeAlgorithm, closeAlgorithm,
	// abortAlgorithm, highWaterMark, sizeAlgorithm).
	return setUpWritableStreamDefaultController(s, c, start, write, closeAlg, abort, hwm, size)
}

// setUpWritableStreamDefaultController is
// https://streams.spec.whatwg.org/#set-up-writable-stream-default-controller.
func setUpWritableStreamDefaultController(s *WritableStream, c *WritableController, start func() (any, error),
	write func(any) Promise, closeAlg func() Promise, abort func(any) Promise, hwm float64, size SizeAlgorithm) error {
	h := s.host
	// 1. Assert: stream implements WritableStream.
	// 2. Assert: stream.[[controller]] is undefined.
	// 3. Set controller.[[stream]] to stream.
	c.stream = s
	// 4. Set stream.[[controller]] to controller.
	s.controller = c
	// 5. Perform ! ResetQueue(controller).
	resetQueue(&c.queueWithSizes)
	// 6. Set controller.[[abortController]] to a new AbortController.
	c.abortController = h.NewAbortController()
	// 7. Set controller.[[started]] to false.
	c.started = false
	// 8. Set controller.[[strategySizeAlgorithm]] to sizeAlgorithm.
	if size == nil {
		size = func(any) (float64, error) { return 1, nil }
	}
	c.strategySizeAlgorithm = size
	// 9. Set controller.[[strategyHWM]] to highWaterMark.
	c.strategyHWM = hwm
	// 10-12. Set the write, close and abort algorithms.
	c.writeAlgorithm, c.closeAlgorithm, c.abortAlgorithm = write, closeAlg, abort
	// 13. Let backpressure be ! WritableStreamDefaultControllerGetBackpressure(controller).
	// 14. Perform ! WritableStreamUpdateBackpressure(stream, backpressure).
	writableStreamUpdateBackpressure(s, writableStreamDefaultControllerGetBackpressure(c))
	// 15. Let startResult be the result of performing startAlgorithm.
	// (This may throw an exception.)
	startResult, err := start()
	if err != nil {
		return err
	}
	// 16. Let startPromise be a promise resolved with startResult.
	h.React(h.PromiseResolvedWith(startResult), func(any) {
		// 17. Upon fulfillment of startPromise,
		// 17.1. Assert: stream.[[state]] is "writable" or "erroring".
		// 17.2. Set controller.[[started]] to true.
		c.started = true
		// 17.3. Perform ! WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller).
		writableStreamDefaultControllerAdvanceQueueIfNeeded(c)
	}, func(r any) {
		// 18. Upon rejection of startPromise with reason r,
		// 18.1. Assert: stream.[[state]] is "writable" or "erroring".
		// 18.2. Set controller.[[started]] to true.
		c.started = true
		// 18.3. Perform ! WritableStreamDealWithRejection(stream, r).
		writableStreamDealWithRejection(s, r)
	})
	return nil
}

// CreateWritableStream is
// https://streams.spec.whatwg.org/#create-writable-stream: a stream for
// the host's own use (a TransformStream's writable side).
func CreateWritableStream(host Host, sink UnderlyingSink, hwm float64, size SizeAlgorithm) (*WritableStream, error) {
	// 1. Assert: ! IsNonNegativeNumber(highWaterMark) is true.
	// 2. Let stream be a new WritableStream.
	// 3. Perform ! InitializeWritableStream(stream).
	// 4. Let controller be a new WritableStreamDefaultController.
	// 5. Perform ? SetUpWritableStreamDefaultController(...).
	// 6. Return stream.
	return NewWritableStream(host, sink, hwm, size)
}

// State is the stream's [[state]].
func (s *WritableStream) State() WritableState { return s.state }

// StoredError is the stream's [[storedError]].
func (s *WritableStream) StoredError() any { return s.storedError }

// Locked is https://streams.spec.whatwg.org/#ws-locked.
func (s *WritableStream) Locked() bool {
	// 1. Return ! IsWritableStreamLocked(this).
	return isWritableStreamLocked(s)
}

// Abort is https://streams.spec.whatwg.org/#ws-abort.
func (s *WritableStream) Abort(reason any) Promise {
	h := s.host
	// 1. If ! IsWritableStreamLocked(this) is true, return a promise
	// rejected with a TypeError exception.
	if isWritableStreamLocked(s) {
		return h.PromiseRejectedWith(h.ErrorValue(&TypeError{Msg: "Cannot abort a locked WritableStream"}))
	}
	// 2. Return ! WritableStreamAbort(this, reason).
	return WritableStreamAbort(s, reason)
}

// Close is https://streams.spec.whatwg.org/#ws-close.
func (s *WritableStream) Close() Promise {
	h := s.host
	// 1. If ! IsWritableStreamLocked(this) is true, return a promise
	// rejected with a TypeError exception.
	if isWritableStreamLocked(s) {
		return h.PromiseRejectedWith(h.ErrorValue(&TypeError{Msg: "Cannot close a locked WritableStream"}))
	}
	// 2. If ! WritableStreamCloseQueuedOrInFlight(this) is true, return a
	// promise rejected with a TypeError exception.
	if writableStreamCloseQueuedOrInFlight(s) {
		return h.PromiseRejectedWith(h.ErrorValue(&TypeError{Msg: "Cannot close a WritableStream that is closing or closed"}))
	}
	// 3. Return ! WritableStreamClose(this).
	return writableStreamClose(s)
}

// GetWriter is https://streams.spec.whatwg.org/#ws-get-writer.
func (s *WritableStream) GetWriter() (*Writer, error) {
	// 1. Return ? AcquireWritableStreamDefaultWriter(this).
	return AcquireWritableStreamDefaultWriter(s)
}

// AcquireWritableStreamDefaultWriter is
// https://streams.spec.whatwg.org/#acquire-writable-stream-default-writer.
func AcquireWritableStreamDefaultWriter(s *WritableStream) (*Writer, error) {
	// 1. Let writer be a new WritableStreamDefaultWriter.
	// 2. Perform ? SetUpWritableStreamDefaultWriter(writer, stream).
	// 3. Return writer.
	return NewWriter(s)
}

// isWritableStreamLocked is
// https://streams.spec.whatwg.org/#is-writable-stream-locked.
func isWritableStreamLocked(s *WritableStream) bool {
	// 1. If stream.[[writer]] is undefined, return false. 2. Return true.
	return s.writer != nil
}

// WritableStreamAbort is https://streams.spec.whatwg.org/#writable-stream-abort.
func WritableStreamAbort(s *WritableStream, reason any) Promise {
	h := s.host
	// 1. If stream.[[state]] is "closed" or "errored", return a promise
	// resolved with undefined.
	if s.state == WritableClosed || s.state == WritableErrored {
		return h.PromiseResolvedWith(nil)
	}
	// 2. Signal abort on stream.[[controller]].[[abortController]] with
	// reason.
	s.controller.abortController.Abort(reason)
	// 3. Let state be stream.[[state]].
	state := s.state
	// 4. If state is "closed" or "errored", return a promise resolved
	// with undefined.
	if state == WritableClosed || state == WritableErrored {
		return h.PromiseResolvedWith(nil)
	}
	// 5. If stream.[[pendingAbortRequest]] is not undefined, return
	// stream.[[pendingAbortRequest]]'s promise.
	if s.pendingAbortRequest != nil {
		return s.pendingAbortRequest.promise
	}
	// 6. Assert: state is "writable" or "erroring".
	// 7. Let wasAlreadyErroring be false.
	wasAlreadyErroring := false
	// 8. If state is "erroring",
	if state == Erroring {
		// 8.1. Set wasAlreadyErroring to true. 8.2. Set reason to undefined.
		wasAlreadyErroring, reason = true, nil
	}
	// 9. Let promise be a new promise.
	promise := h.NewPromise()
	// 10. Set stream.[[pendingAbortRequest]] to a new pending abort
	// request whose promise is promise, reason is reason, and was
	// already erroring is wasAlreadyErroring.
	s.pendingAbortRequest = &pendingAbortRequest{promise: promise, reason: reason, wasAlreadyErroring: wasAlreadyErroring}
	// 11. If wasAlreadyErroring is false, perform !
	// WritableStreamStartErroring(stream, reason).
	if !wasAlreadyErroring {
		writableStreamStartErroring(s, reason)
	}
	// 12. Return promise.
	return promise
}

// writableStreamClose is https://streams.spec.whatwg.org/#writable-stream-close.
func writableStreamClose(s *WritableStream) Promise {
	h := s.host
	// 1. Let state be stream.[[state]].
	state := s.state
	// 2. If state is "closed" or "errored", return a promise rejected
	// with a TypeError exception.
	if state == WritableClosed || state == WritableErrored {
		return h.PromiseRejectedWith(h.ErrorValue(&TypeError{Msg: "The stream is closed or errored and cannot be closed"}))
	}
	// 3-4. Asserts.
	// 5. Let promise be a new promise.
	promise := h.NewPromise()
	// 6. Set stream.[[closeRequest]] to promise.
	s.closeRequest = promise
	// 7. Let writer be stream.[[writer]].
	writer := s.writer
	// 8. If writer is not undefined, and stream.[[backpressure]] is true,
	// and state is "writable", resolve writer.[[readyPromise]] with
	// undefined.
	if writer != nil && s.backpressure && state == Writable {
		writer.readyPromise.resolve()
	}
	// 9. Perform ! WritableStreamDefaultControllerClose(stream.[[controller]]).
	writableStreamDefaultControllerClose(s.controller)
	// 10. Return promise.
	return promise
}

// writableStreamAddWriteRequest is
// https://streams.spec.whatwg.org/#writable-stream-add-write-request.
func writableStreamAddWriteRequest(s *WritableStream) Promise {
	// 1-2. Asserts: locked; state is "writable".
	// 3. Let promise be a new promise.
	promise := s.host.NewPromise()
	// 4. Append promise to stream.[[writeRequests]].
	s.writeRequests = append(s.writeRequests, promise)
	// 5. Return promise.
	return promise
}

// writableStreamDealWithRejection is
// https://streams.spec.whatwg.org/#writable-stream-deal-with-rejection.
func writableStreamDealWithRejection(s *WritableStream, e any) {
	// 1. Let state be stream.[[state]].
	// 2. If state is "writable",
	if s.state == Writable {
		// 2.1. Perform ! WritableStreamStartErroring(stream, error). 2.2. Return.
		writableStreamStartErroring(s, e)
		return
	}
	// 3. Assert: state is "erroring".
	// 4. Perform ! WritableStreamFinishErroring(stream).
	writableStreamFinishErroring(s)
}

// writableStreamStartErroring is
// https://streams.spec.whatwg.org/#writable-stream-start-erroring.
func writableStreamStartErroring(s *WritableStream, reason any) {
	// 1-2. Asserts: storedError is undefined; state is "writable".
	// 3. Let controller be stream.[[controller]]. 4. Assert: controller
	// is not undefined.
	c := s.controller
	// 5. Set stream.[[state]] to "erroring".
	s.state = Erroring
	// 6. Set stream.[[storedError]] to reason.
	s.storedError = reason
	// 7. Let writer be stream.[[writer]].
	// 8. If writer is not undefined, perform !
	// WritableStreamDefaultWriterEnsureReadyPromiseRejected(writer, reason).
	if s.writer != nil {
		writableStreamDefaultWriterEnsureReadyPromiseRejected(s.writer, reason)
	}
	// 9. If ! WritableStreamHasOperationMarkedInFlight(stream) is false and
	// controller.[[started]] is true, perform ! WritableStreamFinishErroring(stream).
	if !writableStreamHasOperationMarkedInFlight(s) && c.started {
		writableStreamFinishErroring(s)
	}
}

// writableStreamFinishErroring is
// https://streams.spec.whatwg.org/#writable-stream-finish-erroring.
func writableStreamFinishErroring(s *WritableStream) {
	h := s.host
	// 1-2. Asserts: state is "erroring"; no operation in flight.
	// 3. Set stream.[[state]] to "errored".
	s.state = WritableErrored
	// 4. Perform ! stream.[[controller]].[[ErrorSteps]]().
	s.controller.errorSteps()
	// 5. Let storedError be stream.[[storedError]].
	storedError := s.storedError
	// 6. For each writeRequest of stream.[[writeRequests]]: 6.1. Reject
	// writeRequest with storedError.
	requests := s.writeRequests
	// 7. Set stream.[[writeRequests]] to an empty list.
	s.writeRequests = nil
	for _, wr := range requests {
		wr.Reject(storedError)
	}
	// 8. If stream.[[pendingAbortRequest]] is undefined,
	if s.pendingAbortRequest == nil {
		// 8.1. Perform ! WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream).
		// 8.2. Return.
		writableStreamRejectCloseAndClosedPromiseIfNeeded(s)
		return
	}
	// 9. Let abortRequest be stream.[[pendingAbortRequest]].
	abortRequest := s.pendingAbortRequest
	// 10. Set stream.[[pendingAbortRequest]] to undefined.
	s.pendingAbortRequest = nil
	// 11. If abortRequest's was already erroring is true,
	if abortRequest.wasAlreadyErroring {
		// 11.1. Reject abortRequest's promise with storedError.
		abortRequest.promise.Reject(storedError)
		// 11.2. Perform ! WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream).
		// 11.3. Return.
		writableStreamRejectCloseAndClosedPromiseIfNeeded(s)
		return
	}
	// 12. Let promise be ! stream.[[controller]].[[AbortSteps]](abortRequest's reason).
	promise := s.controller.abortSteps(abortRequest.reason)
	h.React(promise, func(any) {
		// 13. Upon fulfillment of promise,
		// 13.1. Resolve abortRequest's promise with undefined.
		abortRequest.promise.Resolve(nil)
		// 13.2. Perform ! WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream).
		writableStreamRejectCloseAndClosedPromiseIfNeeded(s)
	}, func(reason any) {
		// 14. Upon rejection of promise with reason reason,
		// 14.1. Reject abortRequest's promise with reason.
		abortRequest.promise.Reject(reason)
		// 14.2. Perform ! WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream).
		writableStreamRejectCloseAndClosedPromiseIfNeeded(s)
	})
}

// writableStreamFinishInFlightWrite is
// https://streams.spec.whatwg.org/#writable-stream-finish-in-flight-write.
func writableStreamFinishInFlightWrite(s *WritableStream) {
	// 1. Assert: stream.[[inFlightWriteRequest]] is not undefined.
	// 2. Resolve stream.[[inFlightWriteRequest]] with undefined.
	s.inFlightWriteRequest.Resolve(nil)
	// 3. Set stream.[[inFlightWriteRequest]] to undefined.
	s.inFlightWriteRequest = nil
}

// writableStreamFinishInFlightWriteWithError is
// https://streams.spec.whatwg.org/#writable-stream-finish-in-flight-write-with-error.
func writableStreamFinishInFlightWriteWithError(s *WritableStream, e any) {
	// 1. Assert: stream.[[inFlightWriteRequest]] is not undefined.
	// 2. Reject stream.[[inFlightWriteRequest]] with error.
	s.inFlightWriteRequest.Reject(e)
	// 3. Set stream.[[inFlightWriteRequest]] to undefined.
	s.inFlightWriteRequest = nil
	// 4. Assert: stream.[[state]] is "writable" or "erroring".
	// 5. Perform ! WritableStreamDealWithRejection(stream, error).
	writableStreamDealWithRejection(s, e)
}

// writableStreamFinishInFlightClose is
// https://streams.spec.whatwg.org/#writable-stream-finish-in-flight-close.
func writableStreamFinishInFlightClose(s *WritableStream) {
	// 1. Assert: stream.[[inFlightCloseRequest]] is not undefined.
	// 2. Resolve stream.[[inFlightCloseRequest]] with undefined.
	s.inFlightCloseRequest.Resolve(nil)
	// 3. Set stream.[[inFlightCloseRequest]] to undefined.
	s.inFlightCloseRequest = nil
	// 4. Let state be stream.[[state]].
	// 5. Assert: stream.[[state]] is "writable" or "erroring".
	// 6. If state is "erroring",
	if s.state == Erroring {
		// 6.1. Set stream.[[storedError]] to undefined.
		s.storedError = nil
		// 6.2. If stream.[[pendingAbortRequest]] is not undefined,
		if s.pendingAbortRequest != nil {
			// 6.2.1. Resolve stream.[[pendingAbortRequest]]'s promise with
			// undefined. 6.2.2. Set stream.[[pendingAbortRequest]] to undefined.
			s.pendingAbortRequest.promise.Resolve(nil)
			s.pendingAbortRequest = nil
		}
	}
	// 7. Set stream.[[state]] to "closed".
	s.state = WritableClosed
	// 8. Let writer be stream.[[writer]].
	// 9. If writer is not undefined, resolve writer.[[closedPromise]]
	// with undefined.
	if s.writer != nil {
		s.writer.closedPromise.resolve()
	}
	// 10-11. Asserts: pendingAbortRequest and storedError are undefined.
}

// writableStreamFinishInFlightCloseWithError is
// https://streams.spec.whatwg.org/#writable-stream-finish-in-flight-close-with-error.
func writableStreamFinishInFlightCloseWithError(s *WritableStream, e any) {
	// 1. Assert: stream.[[inFlightCloseRequest]] is not undefined.
	// 2. Reject stream.[[inFlightCloseRequest]] with error.
	s.inFlightCloseRequest.Reject(e)
	// 3. Set stream.[[inFlightCloseRequest]] to undefined.
	s.inFlightCloseRequest = nil
	// 4. Assert: stream.[[state]] is "writable" or "erroring".
	// 5. If stream.[[pendingAbortRequest]] is not undefined,
	if s.pendingAbortRequest != nil {
		// 5.1. Reject stream.[[pendingAbortRequest]]'s promise with error.
		// 5.2. Set stream.[[pendingAbortRequest]] to undefined.
		s.pendingAbortRequest.promise.Reject(e)
		s.pendingAbortRequest = nil
	}
	// 6. Perform ! WritableStreamDealWithRejection(stream, error).
	writableStreamDealWithRejection(s, e)
}

// writableStreamCloseQueuedOrInFlight is
// https://streams.spec.whatwg.org/#writable-stream-close-queued-or-in-flight.
func writableStreamCloseQueuedOrInFlight(s *WritableStream) bool {
	// 1. If stream.[[closeRequest]] is undefined and
	// stream.[[inFlightCloseRequest]] is undefined, return false.
	// 2. Return true.
	return s.closeRequest != nil || s.inFlightCloseRequest != nil
}

// writableStreamHasOperationMarkedInFlight is
// https://streams.spec.whatwg.org/#writable-stream-has-operation-marked-in-flight.
func writableStreamHasOperationMarkedInFlight(s *WritableStream) bool {
	// 1. If stream.[[inFlightWriteRequest]] is undefined and
	// stream.[[inFlightCloseRequest]] is undefined, return false.
	// 2. Return true.
	return s.inFlightWriteRequest != nil || s.inFlightCloseRequest != nil
}

// writableStreamMarkCloseRequestInFlight is
// https://streams.spec.whatwg.org/#writable-stream-mark-close-request-in-flight.
func writableStreamMarkCloseRequestInFlight(s *WritableStream) {
	// 1-2. Asserts.
	// 3. Set stream.[[inFlightCloseRequest]] to stream.[[closeRequest]].
	s.inFlightCloseRequest = s.closeRequest
	// 4. Set stream.[[closeRequest]] to undefined.
	s.closeRequest = nil
}

// writableStreamMarkFirstWriteRequestInFlight is
// https://streams.spec.whatwg.org/#writable-stream-mark-first-write-request-in-flight.
func writableStreamMarkFirstWriteRequestInFlight(s *WritableStream) {
	// 1-2. Asserts.
	// 3. Let writeRequest be stream.[[writeRequests]][0].
	// 4. Remove writeRequest from stream.[[writeRequests]].
	// 5. Set stream.[[inFlightWriteRequest]] to writeRequest.
	s.inFlightWriteRequest = s.writeRequests[0]
	s.writeRequests[0] = nil
	s.writeRequests = s.writeRequests[1:]
}

// writableStreamRejectCloseAndClosedPromiseIfNeeded is
// https://streams.spec.whatwg.org/#writable-stream-reject-close-and-closed-promise-if-needed.
func writableStreamRejectCloseAndClosedPromiseIfNeeded(s *WritableStream) {
	h := s.host
	// 1. Assert: stream.[[state]] is "errored".
	// 2. If stream.[[closeRequest]] is not undefined,
	if s.closeRequest != nil {
		// 2.1. Assert: stream.[[inFlightCloseRequest]] is undefined.
		// 2.2. Reject stream.[[closeRequest]] with stream.[[storedError]].
		s.closeRequest.Reject(s.storedError)
		// 2.3. Set stream.[[closeRequest]] to undefined.
		s.closeRequest = nil
	}
	// 3. Let writer be stream.[[writer]].
	// 4. If writer is not undefined,
	if w := s.writer; w != nil {
		// 4.1. Reject writer.[[closedPromise]] with stream.[[storedError]].
		w.closedPromise.reject(s.storedError)
		// 4.2. Set writer.[[closedPromise]].[[PromiseIsHandled]] to true.
		h.MarkHandled(w.closedPromise.p)
	}
}

// writableStreamUpdateBackpressure is
// https://streams.spec.whatwg.org/#writable-stream-update-backpressure.
func writableStreamUpdateBackpressure(s *WritableStream, backpressure bool) {
	// 1-2. Asserts: state is "writable"; no close queued or in flight.
	// 3. Let writer be stream.[[writer]].
	// 4. If writer is not undefined and backpressure is not
	// stream.[[backpressure]],
	if w := s.writer; w != nil && backpressure != s.backpressure {
		if backpressure {
			// 4.1. If backpressure is true, set writer.[[readyPromise]] to
			// a new promise.
			w.readyPromise = newTracked(s.host)
		} else {
			// 4.2. Otherwise, 4.2.1. Assert: backpressure is false.
			// 4.2.2. Resolve writer.[[readyPromise]] with undefined.
			w.readyPromise.resolve()
		}
	}
	// 5. Set stream.[[backpressure]] to backpressure.
	s.backpressure = backpressure
}

// NewWriter is https://streams.spec.whatwg.org/#default-writer-constructor.
func NewWriter(s *WritableStream) (*Writer, error) {
	// 1. Perform ? SetUpWritableStreamDefaultWriter(this, stream).
	w := &Writer{host: s.host}
	if err := setUpWritableStreamDefaultWriter(w, s); err != nil {
		return nil, err
	}
	return w, nil
}

// setUpWritableStreamDefaultWriter is
// https://streams.spec.whatwg.org/#set-up-writable-stream-default-writer.
func setUpWritableStreamDefaultWriter(w *Writer, s *WritableStream) error {
	h := s.host
	// 1. If ! IsWritableStreamLocked(stream) is true, throw a TypeError
	// exception.
	if isWritableStreamLocked(s) {
		return &TypeError{Msg: "This stream is already locked to a writer"}
	}
	// 2. Set writer.[[stream]] to stream.
	w.stream = s
	// 3. Set stream.[[writer]] to writer.
	s.writer = w
	// 4. Let state be stream.[[state]].
	switch s.state {
	case Writable:
		// 5. If state is "writable",
		if !writableStreamCloseQueuedOrInFlight(s) && s.backpressure {
			// 5.1. If ! WritableStreamCloseQueuedOrInFlight(stream) is false
			// and stream.[[backpressure]] is true, set
			// writer.[[readyPromise]] to a new promise.
			w.readyPromise = newTracked(h)
		} else {
			// 5.2. Otherwise, set writer.[[readyPromise]] to a promise
			// resolved with undefined.
			w.readyPromise = resolvedTracked(h)
		}
		// 5.3. Set writer.[[closedPromise]] to a new promise.
		w.closedPromise = newTracked(h)
	case Erroring:
		// 6. Otherwise, if state is "erroring",
		// 6.1. Set writer.[[readyPromise]] to a promise rejected with
		// stream.[[storedError]].
		w.readyPromise = rejectedTracked(h, s.storedError)
		// 6.2. Set writer.[[readyPromise]].[[PromiseIsHandled]] to true.
		h.MarkHandled(w.readyPromise.p)
		// 6.3. Set writer.[[closedPromise]] to a new promise.
		w.closedPromise = newTracked(h)
	case WritableClosed:
		// 7. Otherwise, if state is "closed",
		// 7.1-7.2. Set writer.[[readyPromise]] and
		// writer.[[closedPromise]] to promises resolved with undefined.
		w.readyPromise = resolvedTracked(h)
		w.closedPromise = resolvedTracked(h)
	default:
		// 8. Otherwise, 8.1. Assert: state is "errored".
		// 8.2. Let storedError be stream.[[storedError]].
		// 8.3-8.6. Set writer.[[readyPromise]] and
		// writer.[[closedPromise]] to promises rejected with storedError,
		// both handled.
		w.readyPromise = rejectedTracked(h, s.storedError)
		h.MarkHandled(w.readyPromise.p)
		w.closedPromise = rejectedTracked(h, s.storedError)
		h.MarkHandled(w.closedPromise.p)
	}
	return nil
}

// Stream is the writer's [[stream]]: nil once released.
func (w *Writer) Stream() *WritableStream { return w.stream }

// Closed is https://streams.spec.whatwg.org/#default-writer-closed.
func (w *Writer) Closed() Promise {
	// 1. Return this.[[closedPromise]].
	return w.closedPromise.p
}

// Ready is https://streams.spec.whatwg.org/#default-writer-ready.
func (w *Writer) Ready() Promise {
	// 1. Return this.[[readyPromise]].
	return w.readyPromise.p
}

// DesiredSize is https://streams.spec.whatwg.org/#default-writer-desired-size:
// ok false is null.
func (w *Writer) DesiredSize() (float64, bool, error) {
	// 1. If this.[[stream]] is undefined, throw a TypeError exception.
	if w.stream == nil {
		return 0, false, &TypeError{Msg: "This writer has been released"}
	}
	// 2. Return ! WritableStreamDefaultWriterGetDesiredSize(this).
	d, ok := writableStreamDefaultWriterGetDesiredSize(w)
	return d, ok, nil
}

// Abort is https://streams.spec.whatwg.org/#default-writer-abort.
func (w *Writer) Abort(reason any) Promise {
	h := w.host
	// 1. If this.[[stream]] is undefined, return a promise rejected with
	// a TypeError exception.
	if w.stream == nil {
		return h.PromiseRejectedWith(h.ErrorValue(&TypeError{Msg: "This writer has been released and cannot abort its previous stream"}))
	}
	// 2. Return ! WritableStreamDefaultWriterAbort(this, reason).
	// (https://streams.spec.whatwg.org/#writable-stream-default-writer-abort:
	// 1. Let stream be writer.[[stream]]. 2. Assert: stream is not
	// undefined. 3. Return ! WritableStreamAbort(stream, reason).)
	return WritableStreamAbort(w.stream, reason)
}

// Close is https://streams.spec.whatwg.org/#default-writer-close.
func (w *Writer) Close() Promise {
	h := w.host
	// 1. Let stream be this.[[stream]].
	s := w.stream
	// 2. If stream is undefined, return a promise rejected with a
	// TypeError exception.
	if s == nil {
		return h.PromiseRejectedWith(h.ErrorValue(&TypeError{Msg: "This writer has been released and cannot close its previous stream"}))
	}
	// 3. If ! WritableStreamCloseQueuedOrInFlight(stream) is true, return
	// a promise rejected with a TypeError exception.
	if writableStreamCloseQueuedOrInFlight(s) {
		return h.PromiseRejectedWith(h.ErrorValue(&TypeError{Msg: "Cannot close a stream that is closing or closed"}))
	}
	// 4. Return ! WritableStreamDefaultWriterClose(this).
	return writableStreamDefaultWriterClose(w)
}

// ReleaseLock is https://streams.spec.whatwg.org/#default-writer-release-lock.
func (w *Writer) ReleaseLock() {
	// 1. Let stream be this.[[stream]]. 2. If stream is undefined, return.
	if w.stream == nil {
		return
	}
	// 3. Assert: stream.[[writer]] is not undefined.
	// 4. Perform ! WritableStreamDefaultWriterRelease(this).
	writableStreamDefaultWriterRelease(w)
}

// Write is https://streams.spec.whatwg.org/#default-writer-write.
func (w *Writer) Write(chunk any) Promise {
	h := w.host
	// 1. If this.[[stream]] is undefined, return a promise rejected with
	// a TypeError exception.
	if w.stream == nil {
		return h.PromiseRejectedWith(h.ErrorValue(&TypeError{Msg: "This writer has been released and cannot write to its previous stream"}))
	}
	// 2. Return ! WritableStreamDefaultWriterWrite(this, chunk).
	return writableStreamDefaultWriterWrite(w, chunk)
}

// writableStreamDefaultWriterClose is
// https://streams.spec.whatwg.org/#writable-stream-default-writer-close.
func writableStreamDefaultWriterClose(w *Writer) Promise {
	// 1. Let stream be writer.[[stream]]. 2. Assert: stream is not undefined.
	// 3. Return ! WritableStreamClose(stream).
	return writableStreamClose(w.stream)
}

// writableStreamDefaultWriterCloseWithErrorPropagation is
// https://streams.spec.whatwg.org/#writable-stream-default-writer-close-with-error-propagation.
func writableStreamDefaultWriterCloseWithErrorPropagation(w *Writer) Promise {
	h := w.host
	// 1. Let stream be writer.[[stream]]. 2. Assert: stream is not undefined.
	s := w.stream
	// 3. Let state be stream.[[state]].
	// 4. If ! WritableStreamCloseQueuedOrInFlight(stream) is true or state
	// is "closed", return a promise resolved with undefined.
	if writableStreamCloseQueuedOrInFlight(s) || s.state == WritableClosed {
		return h.PromiseResolvedWith(nil)
	}
	// 5. If state is "errored", return a promise rejected with
	// stream.[[storedError]].
	if s.state == WritableErrored {
		return h.PromiseRejectedWith(s.storedError)
	}
	// 6. Assert: state is "writable" or "erroring".
	// 7. Return ! WritableStreamDefaultWriterClose(writer).
	return writableStreamDefaultWriterClose(w)
}

// writableStreamDefaultWriterEnsureClosedPromiseRejected is
// https://streams.spec.whatwg.org/#writable-stream-default-writer-ensure-closed-promise-rejected.
func writableStreamDefaultWriterEnsureClosedPromiseRejected(w *Writer, e any) {
	h := w.host
	if w.closedPromise.pending {
		// 1. If writer.[[closedPromise]].[[PromiseState]] is "pending",
		// reject writer.[[closedPromise]] with error.
		w.closedPromise.reject(e)
	} else {
		// 2. Otherwise, set writer.[[closedPromise]] to a promise rejected
		// with error.
		w.closedPromise = rejectedTracked(h, e)
	}
	// 3. Set writer.[[closedPromise]].[[PromiseIsHandled]] to true.
	h.MarkHandled(w.closedPromise.p)
}

// writableStreamDefaultWriterEnsureReadyPromiseRejected is
// https://streams.spec.whatwg.org/#writable-stream-default-writer-ensure-ready-promise-rejected.
func writableStreamDefaultWriterEnsureReadyPromiseRejected(w *Writer, e any) {
	h := w.host
	if w.readyPromise.pending {
		// 1. If writer.[[readyPromise]].[[PromiseState]] is "pending",
		// reject writer.[[readyPromise]] with error.
		w.readyPromise.reject(e)
	} else {
		// 2. Otherwise, set writer.[[readyPromise]] to a promise rejected
		// with error.
		w.readyPromise = rejectedTracked(h, e)
	}
	// 3. Set writer.[[readyPromise]].[[PromiseIsHandled]] to true.
	h.MarkHandled(w.readyPromise.p)
}

// writableStreamDefaultWriterGetDesiredSize is
// https://streams.spec.whatwg.org/#writable-stream-default-writer-get-desired-size.
func writableStreamDefaultWriterGetDesiredSize(w *Writer) (float64, bool) {
	// 1. Let stream be writer.[[stream]]. 2. Let state be stream.[[state]].
	s := w.stream
	switch s.state {
	case WritableErrored, Erroring:
		// 3. If state is "errored" or "erroring", return null.
		return 0, false
	case WritableClosed:
		// 4. If state is "closed", return 0.
		return 0, true
	}
	// 5. Return ! WritableStreamDefaultControllerGetDesiredSize(stream.[[controller]]).
	return writableStreamDefaultControllerGetDesiredSize(s.controller), true
}

// writableStreamDefaultWriterRelease is
// https://streams.spec.whatwg.org/#writable-stream-default-writer-release.
func writableStreamDefaultWriterRelease(w *Writer) {
	h := w.host
	// 1. Let stream be writer.[[stream]]. 2-3. Asserts.
	s := w.stream
	// 4. Let releasedError be a new TypeError.
	releasedError := h.ErrorValue(&TypeError{Msg: "This writer's lock was released"})
	// 5. Perform ! WritableStreamDefaultWriterEnsureReadyPromiseRejected(writer, releasedError).
	writableStreamDefaultWriterEnsureReadyPromiseRejected(w, releasedError)
	// 6. Perform ! WritableStreamDefaultWriterEnsureClosedPromiseRejected(writer, releasedError).
	writableStreamDefaultWriterEnsureClosedPromiseRejected(w, releasedError)
	// 7. Set stream.[[writer]] to undefined.
	s.writer = nil
	// 8. Set writer.[[stream]] to undefined.
	w.stream = nil
}

// writableStreamDefaultWriterWrite is
// https://streams.spec.whatwg.org/#writable-stream-default-writer-write.
func writableStreamDefaultWriterWrite(w *Writer, chunk any) Promise {
	h := w.host
	// 1. Let stream be writer.[[stream]]. 2. Assert: stream is not undefined.
	s := w.stream
	// 3. Let controller be stream.[[controller]].
	c := s.controller
	// 4. Let chunkSize be ! WritableStreamDefaultControllerGetChunkSize(controller, chunk).
	chunkSize := writableStreamDefaultControllerGetChunkSize(c, chunk)
	// 5. If stream is not equal to writer.[[stream]], return a promise
	// rejected with a TypeError exception.
	if s != w.stream {
		return h.PromiseRejectedWith(h.ErrorValue(&TypeError{Msg: "The writer was released while the chunk's size was computed"}))
	}
	// 6. Let state be stream.[[state]].
	// 7. If state is "errored", return a promise rejected with
	// stream.[[storedError]].
	if s.state == WritableErrored {
		return h.PromiseRejectedWith(s.storedError)
	}
	// 8. If ! WritableStreamCloseQueuedOrInFlight(stream) is true or state
	// is "closed", return a promise rejected with a TypeError exception
	// indicating that the stream is closing or closed.
	if writableStreamCloseQueuedOrInFlight(s) || s.state == WritableClosed {
		return h.PromiseRejectedWith(h.ErrorValue(&TypeError{Msg: "The stream is closing or closed and cannot be written to"}))
	}
	// 9. If state is "erroring", return a promise rejected with
	// stream.[[storedError]].
	if s.state == Erroring {
		return h.PromiseRejectedWith(s.storedError)
	}
	// 10. Assert: state is "writable".
	// 11. Let promise be ! WritableStreamAddWriteRequest(stream).
	promise := writableStreamAddWriteRequest(s)
	// 12. Perform ! WritableStreamDefaultControllerWrite(controller,
	// chunk, chunkSize).
	writableStreamDefaultControllerWrite(c, chunk, chunkSize)
	// 13. Return promise.
	return promise
}

// Signal is https://streams.spec.whatwg.org/#ws-default-controller-signal:
// the host's AbortController (its signal is the attribute).
func (c *WritableController) Signal() AbortController { return c.abortController }

// Error is https://streams.spec.whatwg.org/#ws-default-controller-error.
func (c *WritableController) Error(e any) {
	// 1. Let state be this.[[stream]].[[state]].
	// 2. If state is not "writable", return.
	if c.stream.state != Writable {
		return
	}
	// 3. Perform ! WritableStreamDefaultControllerError(this, e).
	writableStreamDefaultControllerError(c, e)
}

// abortSteps is https://streams.spec.whatwg.org/#ws-default-controller-private-abort.
func (c *WritableController) abortSteps(reason any) Promise {
	// 1. Let result be the result of performing this.[[abortAlgorithm]],
	// passing reason.
	result := c.abortAlgorithm(reason)
	// 2. Perform ! WritableStreamDefaultControllerClearAlgorithms(this).
	writableStreamDefaultControllerClearAlgorithms(c)
	// 3. Return result.
	return result
}

// errorSteps is https://streams.spec.whatwg.org/#ws-default-controller-private-error.
func (c *WritableController) errorSteps() {
	// 1. Perform ! ResetQueue(this).
	resetQueue(&c.queueWithSizes)
}

// writableStreamDefaultControllerAdvanceQueueIfNeeded is
// https://streams.spec.whatwg.org/#writable-stream-default-controller-advance-queue-if-needed.
func writableStreamDefaultControllerAdvanceQueueIfNeeded(c *WritableController) {
	// 1. Let stream be controller.[[stream]].
	s := c.stream
	// 2. If controller.[[started]] is false, return.
	if !c.started {
		return
	}
	// 3. If stream.[[inFlightWriteRequest]] is not undefined, return.
	if s.inFlightWriteRequest != nil {
		return
	}
	// 4. Let state be stream.[[state]].
	// 5. Assert: state is not "closed" or "errored".
	// 6. If state is "erroring",
	if s.state == Erroring {
		// 6.1. Perform ! WritableStreamFinishErroring(stream). 6.2. Return.
		writableStreamFinishErroring(s)
		return
	}
	// 7. If controller.[[queue]] is empty, return.
	if len(c.queue) == 0 {
		return
	}
	// 8. Let value be ! PeekQueueValue(controller).
	value := c.queue[0].value
	if value == any(closeSentinel) {
		// 9. If value is the close sentinel, perform !
		// WritableStreamDefaultControllerProcessClose(controller).
		writableStreamDefaultControllerProcessClose(c)
	} else {
		// 10. Otherwise, perform !
		// WritableStreamDefaultControllerProcessWrite(controller, value).
		writableStreamDefaultControllerProcessWrite(c, value)
	}
}

// writableStreamDefaultControllerClearAlgorithms is
// https://streams.spec.whatwg.org/#writable-stream-default-controller-clear-algorithms.
func writableStreamDefaultControllerClearAlgorithms(c *WritableController) {
	// 1-4. Set the write, close, abort and size algorithms to undefined
	// (what stands in for undefined does nothing; a nil size algorithm is
	// undefined for GetChunkSize).
	h := c.stream.host
	c.writeAlgorithm = func(any) Promise { return h.PromiseResolvedWith(nil) }
	c.closeAlgorithm = func() Promise { return h.PromiseResolvedWith(nil) }
	c.abortAlgorithm = func(any) Promise { return h.PromiseResolvedWith(nil) }
	c.strategySizeAlgorithm = nil
}

// writableStreamDefaultControllerClose is
// https://streams.spec.whatwg.org/#writable-stream-default-controller-close.
func writableStreamDefaultControllerClose(c *WritableController) {
	// 1. Perform ! EnqueueValueWithSize(controller, close sentinel, 0).
	_ = enqueueValueWithSize(&c.queueWithSizes, closeSentinel, 0)
	// 2. Perform ! WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller).
	writableStreamDefaultControllerAdvanceQueueIfNeeded(c)
}

// writableStreamDefaultControllerError is
// https://streams.spec.whatwg.org/#writable-stream-default-controller-error.
func writableStreamDefaultControllerError(c *WritableController, e any) {
	// 1. Let stream be controller.[[stream]].
	// 2. Assert: stream.[[state]] is "writable".
	// 3. Perform ! WritableStreamDefaultControllerClearAlgorithms(controller).
	writableStreamDefaultControllerClearAlgorithms(c)
	// 4. Perform ! WritableStreamStartErroring(stream, error).
	writableStreamStartErroring(c.stream, e)
}

// writableStreamDefaultControllerErrorIfNeeded is
// https://streams.spec.whatwg.org/#writable-stream-default-controller-error-if-needed.
func writableStreamDefaultControllerErrorIfNeeded(c *WritableController, e any) {
	// 1. If controller.[[stream]].[[state]] is "writable", perform !
	// WritableStreamDefaultControllerError(controller, error).
	if c.stream.state == Writable {
		writableStreamDefaultControllerError(c, e)
	}
}

// writableStreamDefaultControllerGetBackpressure is
// https://streams.spec.whatwg.org/#writable-stream-default-controller-get-backpressure.
func writableStreamDefaultControllerGetBackpressure(c *WritableController) bool {
	// 1. Let desiredSize be ! WritableStreamDefaultControllerGetDesiredSize(controller).
	// 2. Return true if desiredSize ≤ 0, or false otherwise.
	return writableStreamDefaultControllerGetDesiredSize(c) <= 0
}

// writableStreamDefaultControllerGetChunkSize is
// https://streams.spec.whatwg.org/#writable-stream-default-controller-get-chunk-size.
func writableStreamDefaultControllerGetChunkSize(c *WritableController, chunk any) float64 {
	// 1. If controller.[[strategySizeAlgorithm]] is undefined, then:
	// 1.1. Assert: controller.[[stream]].[[state]] is not "writable".
	// 1.2. Return 1.
	if c.strategySizeAlgorithm == nil {
		return 1
	}
	// 2. Let returnValue be the result of performing
	// controller.[[strategySizeAlgorithm]], passing in chunk, and
	// interpreting the result as a completion record.
	size, err := c.strategySizeAlgorithm(chunk)
	// 3. If returnValue is an abrupt completion,
	if err != nil {
		// 3.1. Perform ! WritableStreamDefaultControllerErrorIfNeeded(controller,
		// returnValue.[[Value]]). 3.2. Return 1.
		writableStreamDefaultControllerErrorIfNeeded(c, c.stream.host.ErrorValue(err))
		return 1
	}
	// 4. Return returnValue.[[Value]].
	return size
}

// writableStreamDefaultControllerGetDesiredSize is
// https://streams.spec.whatwg.org/#writable-stream-default-controller-get-desired-size.
func writableStreamDefaultControllerGetDesiredSize(c *WritableController) float64 {
	// 1. Return controller.[[strategyHWM]] − controller.[[queueTotalSize]].
	return c.strategyHWM - c.queueTotalSize
}

// writableStreamDefaultControllerProcessClose is
// https://streams.spec.whatwg.org/#writable-stream-default-controller-process-close.
func writableStreamDefaultControllerProcessClose(c *WritableController) {
	// 1. Let stream be controller.[[stream]].
	s := c.stream
	// 2. Perform ! WritableStreamMarkCloseRequestInFlight(stream).
	writableStreamMarkCloseRequestInFlight(s)
	// 3. Perform ! DequeueValue(controller).
	dequeueValue(&c.queueWithSizes)
	// 4. Assert: controller.[[queue]] is empty.
	// 5. Let sinkClosePromise be the result of performing
	// controller.[[closeAlgorithm]].
	sinkClosePromise := c.closeAlgorithm()
	// 6. Perform ! WritableStreamDefaultControllerClearAlgorithms(controller).
	writableStreamDefaultControllerClearAlgorithms(c)
	s.host.React(sinkClosePromise, func(any) {
		// 7. Upon fulfillment of sinkClosePromise, perform !
		// WritableStreamFinishInFlightClose(stream).
		writableStreamFinishInFlightClose(s)
	}, func(reason any) {
		// 8. Upon rejection of sinkClosePromise with reason reason,
		// perform ! WritableStreamFinishInFlightCloseWithError(stream, reason).
		writableStreamFinishInFlightCloseWithError(s, reason)
	})
}

// writableStreamDefaultControllerProcessWrite is
// https://streams.spec.whatwg.org/#writable-stream-default-controller-process-write.
func writableStreamDefaultControllerProcessWrite(c *WritableController, chunk any) {
	// 1. Let stream be controller.[[stream]].
	s := c.stream
	// 2. Perform ! WritableStreamMarkFirstWriteRequestInFlight(stream).
	writableStreamMarkFirstWriteRequestInFlight(s)
	// 3. Let sinkWritePromise be the result of performing
	// controller.[[writeAlgorithm]], passing in chunk.
	sinkWritePromise := c.writeAlgorithm(chunk)
	s.host.React(sinkWritePromise, func(any) {
		// 4. Upon fulfillment of sinkWritePromise,
		// 4.1. Perform ! WritableStreamFinishInFlightWrite(stream).
		writableStreamFinishInFlightWrite(s)
		// 4.2. Let state be stream.[[state]].
		// 4.3. Assert: state is "writable" or "erroring".
		// 4.4. Perform ! DequeueValue(controller).
		dequeueValue(&c.queueWithSizes)
		// 4.5. If ! WritableStreamCloseQueuedOrInFlight(stream) is false
		// and state is "writable",
		if !writableStreamCloseQueuedOrInFlight(s) && s.state == Writable {
			// 4.5.1. Let backpressure be !
			// WritableStreamDefaultControllerGetBackpressure(controller).
			// 4.5.2. Perform ! WritableStreamUpdateBackpressure(stream, backpressure).
			writableStreamUpdateBackpressure(s, writableStreamDefaultControllerGetBackpressure(c))
		}
		// 4.6. Perform ! WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller).
		writableStreamDefaultControllerAdvanceQueueIfNeeded(c)
	}, func(reason any) {
		// 5. Upon rejection of sinkWritePromise with reason,
		// 5.1. If stream.[[state]] is "writable", perform !
		// WritableStreamDefaultControllerClearAlgorithms(controller).
		if s.state == Writable {
			writableStreamDefaultControllerClearAlgorithms(c)
		}
		// 5.2. Perform ! WritableStreamFinishInFlightWriteWithError(stream, reason).
		writableStreamFinishInFlightWriteWithError(s, reason)
	})
}

// writableStreamDefaultControllerWrite is
// https://streams.spec.whatwg.org/#writable-stream-default-controller-write.
func writableStreamDefaultControllerWrite(c *WritableController, chunk any, chunkSize float64) {
	// 1. Let enqueueResult be EnqueueValueWithSize(controller, chunk, chunkSize).
	// 2. If enqueueResult is an abrupt completion,
	if err := enqueueValueWithSize(&c.queueWithSizes, chunk, chunkSize); err != nil {
		// 2.1. Perform ! WritableStreamDefaultControllerErrorIfNeeded(controller,
		// enqueueResult.[[Value]]). 2.2. Return.
		writableStreamDefaultControllerErrorIfNeeded(c, c.stream.host.ErrorValue(err))
		return
	}
	// 3. Let stream be controller.[[stream]].
	s := c.stream
	// 4. If ! WritableStreamCloseQueuedOrInFlight(stream) is false and
	// stream.[[state]] is "writable",
	if !writableStreamCloseQueuedOrInFlight(s) && s.state == Writable {
		// 4.1. Let backpressure be ! WritableStreamDefaultControllerGetBackpressure(controller).
		// 4.2. Perform ! WritableStreamUpdateBackpressure(stream, backpressure).
		writableStreamUpdateBackpressure(s, writableStreamDefaultControllerGetBackpressure(c))
	}
	// 5. Perform ! WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller).
	writableStreamDefaultControllerAdvanceQueueIfNeeded(c)
}
