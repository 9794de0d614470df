package streams

// This file is readable byte streams
// (https://streams.spec.whatwg.org/#rbs-controller-class):
// ReadableByteStreamController, ReadableStreamBYOBRequest,
// ReadableStreamBYOBReader and their abstract operations. ArrayBuffers
// are the host's (Host's buffer methods); a view is an ArrayBufferView
// record.

// ArrayBufferView is an ArrayBufferView (a typed array or a DataView) as
// package streams sees it: its [[ViewedArrayBuffer]], [[ByteOffset]] and
// [[ByteLength]], and the constructor and element size of its kind.
type ArrayBufferView struct {
	// Buffer is the host's ArrayBuffer.
	Buffer     any
	ByteOffset int
	ByteLength int
	// Constructor names the view's constructor ("Uint8Array",
	// "DataView", ...); ElementSize is its element size (1 for a
	// DataView).
	Constructor string
	ElementSize int
}

// Length is the view's length in elements (a typed array's [[ArrayLength]]).
func (v ArrayBufferView) Length() int {
	if v.ElementSize <= 1 {
		return v.ByteLength
	}
	return v.ByteLength / v.ElementSize
}

// byteQueueEntry is
// https://streams.spec.whatwg.org/#readable-byte-stream-queue-entry.
type byteQueueEntry struct {
	buffer     any
	byteOffset int
	byteLength int
}

// readerType is a pull-into descriptor's reader type.
type readerType uint8

const (
	readerTypeDefault readerType = iota
	readerTypeBYOB
	readerTypeNone
)

// pullIntoDescriptor is https://streams.spec.whatwg.org/#pull-into-descriptor.
type pullIntoDescriptor struct {
	buffer           any
	bufferByteLength int
	byteOffset       int
	byteLength       int
	bytesFilled      int
	minimumFill      int
	elementSize      int
	viewConstructor  string
	readerType       readerType
}

// ByteSource is the underlying byte source's algorithms (nil for the
// standard's defaults), as the host made them.
type ByteSource struct {
	// Start is the start algorithm (see UnderlyingSource.Start).
	Start func(c *ByteController) (any, error)
	// Pull is the pull algorithm: a promise.
	Pull func(c *ByteController) Promise
	// Cancel is the cancel algorithm: a promise.
	Cancel func(reason any) Promise
	// AutoAllocateChunkSize is the source's autoAllocateChunkSize (0
	// when absent).
	AutoAllocateChunkSize int
}

// ByteController is
// https://streams.spec.whatwg.org/#readablebytestreamcontroller.
type ByteController struct {
	stream                *ReadableStream
	autoAllocateChunkSize int
	byobRequest           *BYOBRequest
	cancelAlgorithm       func(any) Promise
	closeRequested        bool
	pullAgain             bool
	pullAlgorithm         func() Promise
	pulling               bool
	pendingPullIntos      []*pullIntoDescriptor
	queue                 []*byteQueueEntry
	queueTotalSize        int
	started               bool
	strategyHWM           float64
}

// BYOBRequest is
// https://streams.spec.whatwg.org/#readablestreambyobrequest.
type BYOBRequest struct {
	controller *ByteController // nil once invalidated
	view       *ArrayBufferView
	// viewObject is the host's object for view, made once.
	viewObject any
}

// ReadIntoRequest is https://streams.spec.whatwg.org/#read-into-request:
// exactly one of its steps runs, once; chunk is the host's view (nil
// for undefined).
type ReadIntoRequest struct {
	Chunk func(chunk any)
	Close func(chunk any)
	Error func(e any)
}

// BYOBReader is https://streams.spec.whatwg.org/#readablestreambyobreader.
type BYOBReader struct {
	genericReader
	readIntoRequests []ReadIntoRequest
}

// NewByteStream is the ReadableStream constructor's step 4 for a byte
// source (https://streams.spec.whatwg.org/#rs-constructor): it runs
// SetUpReadableByteStreamControllerFromUnderlyingSource. highWaterMark is
// ExtractHighWaterMark's result with default 0.
func NewByteStream(host Host, src ByteSource, highWaterMark float64) (*ReadableStream, error) {
	// 3. Perform ! InitializeReadableStream(this).
	s := &ReadableStream{host: host}
	initializeReadableStream(s)
	// 4.1-4.3. (The host checked the strategy has no size and extracted
	// the high water mark.) Perform ?
	// SetUpReadableByteStreamControllerFromUnderlyingSource(...).
	if err := setUpReadableByteStreamControllerFromUnderlyingSource(s, src, highWaterMark); err != nil {
		return nil, err
	}
	return s, nil
}

// SetUpWithByteReadingSupport is
// https://streams.spec.whatwg.org/#readablestream-set-up-with-byte-reading-support:
// a byte stream for the host's own use (a fetch body), fed with
// EnqueueBytes, Close and Error. pull or cancel nil are the defaults
// (a promise resolved with undefined); hwm < 0 is the default, 0.
func SetUpWithByteReadingSupport(host Host, pull func() Promise, cancel func(reason any) Promise, hwm float64) *ReadableStream {
	// 1. Let startAlgorithm be an algorithm that returns undefined.
	// 2. Let pullAlgorithmWrapper be an algorithm that runs these steps:
	// 2.1. Let result be the result of running pullAlgorithm, if
	// pullAlgorithm was given, or null otherwise. If this throws an
	// exception e, return a promise rejected with e. 2.2. If result is a
	// Promise, then return result. 2.3. Return a promise resolved with
	// undefined.
	// 3. Let cancelAlgorithmWrapper be likewise for cancelAlgorithm.
	src := ByteSource{}
	if pull != nil {
		src.Pull = func(*ByteController) Promise { return pull() }
	}
	if cancel != nil {
		src.Cancel = cancel
	}
	// 4. If highWaterMark was not given, set it to 0.
	if hwm < 0 {
		hwm = 0
	}
	// 5. Perform ! InitializeReadableStream(stream).
	s := &ReadableStream{host: host}
	initializeReadableStream(s)
	// 6. Let controller be a new ReadableByteStreamController.
	// 7. Perform ! SetUpReadableByteStreamController(stream, controller,
	// startAlgorithm, pullAlgorithmWrapper, cancelAlgorithmWrapper,
	// highWaterMark, undefined).
	_ = setUpReadableByteStreamControllerFromUnderlyingSource(s, src, hwm)
	return s
}

// EnqueueBytes is https://streams.spec.whatwg.org/#readablestream-enqueue
// for a byte stream set up by the host: chunk is a view.
func EnqueueBytes(s *ReadableStream, chunk ArrayBufferView) error {
	// 1. (stream.[[controller]] is a ReadableByteStreamController.)
	// 2.1-2.2. Asserts.
	c := s.controller.(*ByteController)
	// 2.3. Let byobView be the current BYOB request view for stream.
	// 2.4. If byobView is non-null, and chunk.[[ViewedArrayBuffer]] is
	// byobView.[[ViewedArrayBuffer]], then perform ?
	// ReadableByteStreamControllerRespond(stream.[[controller]],
	// chunk.[[ByteLength]]).
	if r := readableByteStreamControllerGetBYOBRequest(c); r != nil && r.view.Buffer == chunk.Buffer {
		return readableByteStreamControllerRespond(c, chunk.ByteLength)
	}
	// 2.5. Otherwise, perform ? ReadableByteStreamControllerEnqueue(stream.[[controller]], chunk).
	return readableByteStreamControllerEnqueue(c, chunk)
}

// Close is https://streams.spec.whatwg.org/#readablestream-close for a
// stream set up by the host.
func Close(s *ReadableStream) error {
	switch c := s.controller.(type) {
	case *DefaultController:
		// 1. If stream.[[controller]] implements
		// ReadableByteStreamController, ... 2. Otherwise, perform !
		// ReadableStreamDefaultControllerClose(stream.[[controller]]).
		ReadableStreamDefaultControllerClose(c)
	case *ByteController:
		// 1.1. Perform ! ReadableByteStreamControllerClose(stream.[[controller]]).
		if c.closeRequested || s.state != Readable {
			return nil
		}
		if err := readableByteStreamControllerClose(c); err != nil {
			return err
		}
		// 1.2. If stream.[[controller]].[[pendingPullIntos]] is not
		// empty, perform ! ReadableByteStreamControllerRespond(stream.[[controller]], 0).
		if len(c.pendingPullIntos) > 0 {
			return readableByteStreamControllerRespond(c, 0)
		}
	}
	return nil
}

// Error is https://streams.spec.whatwg.org/#readablestream-error for a
// stream set up by the host (or any stream: a fetch aborted mid-body).
func Error(s *ReadableStream, e any) {
	switch c := s.controller.(type) {
	case *DefaultController:
		// 2. Otherwise, perform ! ReadableStreamDefaultControllerError(stream.[[controller]], e).
		ReadableStreamDefaultControllerError(c, e)
	case *ByteController:
		// 1. If stream.[[controller]] implements
		// ReadableByteStreamController, then perform !
		// ReadableByteStreamControllerError(stream.[[controller]], e).
		readableByteStreamControllerError(c, e)
	}
}

// setUpReadableByteStreamControllerFromUnderlyingSource is
// https://streams.spec.whatwg.org/#set-up-readable-byte-stream-controller-from-underlying-source.
func setUpReadableByteStreamControllerFromUnderlyingSource(s *ReadableStream, src ByteSource, hwm float64) error {
	h := s.host
	// 1. Let controller be a new ReadableByteStreamController.
	c := &ByteController{}
	// 2-4. The default start, pull and cancel algorithms.
	start := func() (any, error) { return nil, nil }
	pull := func() Promise { return h.PromiseResolvedWith(nil) }
	cancel := func(any) Promise { return h.PromiseResolvedWith(nil) }
	// 5-7. The underlying source's, when it has them.
	if src.Start != nil {
		start = func() (any, error) { return src.Start(c) }
	}
	if src.Pull != nil {
		pull = func() Promise { return src.Pull(c) }
	}
	if src.Cancel != nil {
		cancel = src.Cancel
	}
	// 8. Let autoAllocateChunkSize be
	// underlyingSourceDict["autoAllocateChunkSize"], if it exists, or
	// undefined otherwise. 9. If autoAllocateChunkSize is 0, then throw a
	// TypeError exception. (The host throws it: 0 stands for undefined
	// here.)
	// 10. Perform ? SetUpReadableByteStreamController(stream, controller,
	// startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark,
	// autoAllocateChunkSize).
	return setUpReadableByteStreamController(s, c, start, pull, cancel, hwm, src.AutoAllocateChunkSize)
}

// setUpReadableByteStreamController is
// https://streams.spec.whatwg.org/#set-up-readable-byte-stream-controller.
func setUpReadableByteStreamController(s *ReadableStream, c *ByteController, start func() (any, error),
	pull func() Promise, cancel func(any) Promise, hwm float64, autoAllocateChunkSize int) error {
	h := s.host
	// 1. Assert: stream.[[controller]] is undefined.
	// 2. If autoAllocateChunkSize is not undefined, 2.1. Assert: ! IsInteger(autoAllocateChunkSize) is true. 2.2. Assert: autoAllocateChunkSize is positive.
	// 3. Set controller.[[stream]] to stream.
	c.stream = s
	// 4. Set controller.[[pullAgain]] and controller.[[pulling]] to false.
	c.pullAgain, c.pulling = false, false
	// 5. Set controller.[[byobRequest]] to null.
	c.byobRequest = nil
	// 6. Perform ! ResetQueue(controller).
	c.queue, c.queueTotalSize = nil, 0
	// 7. Set controller.[[closeRequested]] and controller.[[started]] to false.
	c.closeRequested, c.started = false, false
	// 8. Set controller.[[strategyHWM]] to highWaterMark.
	c.strategyHWM = hwm
	// 9-10. Set controller.[[pullAlgorithm]] and [[cancelAlgorithm]].
	c.pullAlgorithm, c.cancelAlgorithm = pull, cancel
	// 11. Set controller.[[autoAllocateChunkSize]] to autoAllocateChunkSize.
	c.autoAllocateChunkSize = autoAllocateChunkSize
	// 12. Set controller.[[pendingPullIntos]] to a new empty list.
	c.pendingPullIntos = nil
	// 13. Set stream.[[controller]] to controller.
	s.controller = c
	// 14. Let startResult be the result of performing startAlgorithm.
	startResult, err := start()
	if err != nil {
		return err
	}
	// 15. Let startPromise be a promise resolved with startResult.
	h.React(h.PromiseResolvedWith(startResult), func(any) {
		// 16. Upon fulfillment of startPromise,
		// 16.1. Set controller.[[started]] to true.
		c.started = true
		// 16.2-16.3. Assert: controller.[[pulling]] and
		// controller.[[pullAgain]] are false.
		// 16.4. Perform ! ReadableByteStreamControllerCallPullIfNeeded(controller).
		readableByteStreamControllerCallPullIfNeeded(c)
	}, func(r any) {
		// 17. Upon rejection of startPromise with reason r, perform !
		// ReadableByteStreamControllerError(controller, r).
		readableByteStreamControllerError(c, r)
	})
	return nil
}

// BYOBRequest is https://streams.spec.whatwg.org/#rbs-controller-byob-request:
// nil is null.
func (c *ByteController) BYOBRequest() *BYOBRequest {
	// 1. Return ! ReadableByteStreamControllerGetBYOBRequest(this).
	return readableByteStreamControllerGetBYOBRequest(c)
}

// DesiredSize is https://streams.spec.whatwg.org/#rbs-controller-desired-size:
// ok false is null.
func (c *ByteController) DesiredSize() (float64, bool) {
	// 1. Return ! ReadableByteStreamControllerGetDesiredSize(this).
	return readableByteStreamControllerGetDesiredSize(c)
}

// Close is https://streams.spec.whatwg.org/#rbs-controller-close.
func (c *ByteController) Close() error {
	// 1. If this.[[closeRequested]] is true, throw a TypeError exception.
	if c.closeRequested {
		return &TypeError{Msg: "The stream is already closing"}
	}
	// 2. If this.[[stream]].[[state]] is not "readable", throw a
	// TypeError exception.
	if c.stream.state != Readable {
		return &TypeError{Msg: "The stream is not readable: it cannot be closed"}
	}
	// 3. Perform ? ReadableByteStreamControllerClose(this).
	return readableByteStreamControllerClose(c)
}

// Enqueue is https://streams.spec.whatwg.org/#rbs-controller-enqueue:
// the host converted chunk (an ArrayBufferView).
func (c *ByteController) Enqueue(chunk ArrayBufferView) error {
	h := c.stream.host
	// 1. If chunk.[[ByteLength]] is 0, throw a TypeError exception.
	if chunk.ByteLength == 0 {
		return &TypeError{Msg: "The chunk is empty"}
	}
	// 2. If chunk.[[ViewedArrayBuffer]].[[ArrayBufferByteLength]] is 0,
	// throw a TypeError exception.
	if h.ArrayBufferByteLength(chunk.Buffer) == 0 {
		return &TypeError{Msg: "The chunk's buffer is empty or detached"}
	}
	// 3. If this.[[closeRequested]] is true, throw a TypeError exception.
	if c.closeRequested {
		return &TypeError{Msg: "Cannot enqueue a chunk into a closing stream"}
	}
	// 4. If this.[[stream]].[[state]] is not "readable", throw a
	// TypeError exception.
	if c.stream.state != Readable {
		return &TypeError{Msg: "Cannot enqueue a chunk into a stream that is not readable"}
	}
	// 5. Return ? ReadableByteStreamControllerEnqueue(this, chunk).
	return readableByteStreamControllerEnqueue(c, chunk)
}

// Error is https://streams.spec.whatwg.org/#rbs-controller-error.
func (c *ByteController) Error(e any) {
	// 1. Perform ! ReadableByteStreamControllerError(this, e).
	readableByteStreamControllerError(c, e)
}

// cancelSteps is
// https://streams.spec.whatwg.org/#rbs-controller-private-cancel.
func (c *ByteController) cancelSteps(reason any) Promise {
	// 1. Perform ! ReadableByteStreamControllerClearPendingPullIntos(this).
	readableByteStreamControllerClearPendingPullIntos(c)
	// 2. Perform ! ResetQueue(this).
	c.queue, c.queueTotalSize = nil, 0
	// 3. Let result be the result of performing this.[[cancelAlgorithm]],
	// passing in reason.
	result := c.cancelAlgorithm(reason)
	// 4. Perform ! ReadableByteStreamControllerClearAlgorithms(this).
	readableByteStreamControllerClearAlgorithms(c)
	// 5. Return result.
	return result
}

// pullSteps is
// https://streams.spec.whatwg.org/#rbs-controller-private-pull.
func (c *ByteController) pullSteps(rr ReadRequest) {
	h := c.stream.host
	// 1. Let stream be this.[[stream]].
	s := c.stream
	// 2. Assert: ! ReadableStreamHasDefaultReader(stream) is true.
	// 3. If this.[[queueTotalSize]] > 0,
	if c.queueTotalSize > 0 {
		// 3.1. Assert: ! ReadableStreamGetNumReadRequests(stream) is 0.
		// 3.2. Perform ! ReadableByteStreamControllerFillReadRequestFromQueue(this, readRequest).
		readableByteStreamControllerFillReadRequestFromQueue(c, rr)
		// 3.3. Return.
		return
	}
	// 4. Let autoAllocateChunkSize be this.[[autoAllocateChunkSize]].
	// 5. If autoAllocateChunkSize is not undefined,
	if n := c.autoAllocateChunkSize; n > 0 {
		// 5.1. Let buffer be Construct(%ArrayBuffer%, « autoAllocateChunkSize »).
		buffer, err := h.NewArrayBuffer(n)
		// 5.2. If buffer is an abrupt completion, 5.2.1. Perform
		// readRequest's error steps, given buffer.[[Value]]. 5.2.2. Return.
		if err != nil {
			rr.Error(h.ErrorValue(err))
			return
		}
		// 5.3. Let pullIntoDescriptor be a new pull-into descriptor with
		// buffer, buffer byte length autoAllocateChunkSize, byte offset 0,
		// byte length autoAllocateChunkSize, bytes filled 0, minimum fill
		// 1, element size 1, view constructor %Uint8Array%, reader type
		// "default".
		// 5.4. Append pullIntoDescriptor to this.[[pendingPullIntos]].
		c.pendingPullIntos = append(c.pendingPullIntos, &pullIntoDescriptor{
			buffer: buffer, bufferByteLength: n, byteLength: n, minimumFill: 1,
			elementSize: 1, viewConstructor: "Uint8Array", readerType: readerTypeDefault,
		})
	}
	// 6. Perform ! ReadableStreamAddReadRequest(stream, readRequest).
	readableStreamAddReadRequest(s, rr)
	// 7. Perform ! ReadableByteStreamControllerCallPullIfNeeded(this).
	readableByteStreamControllerCallPullIfNeeded(c)
}

// releaseSteps is
// https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontroller-releasesteps.
func (c *ByteController) releaseSteps() {
	// 1. If this.[[pendingPullIntos]] is not empty,
	if len(c.pendingPullIntos) > 0 {
		// 1.1. Let firstPendingPullInto be this.[[pendingPullIntos]][0].
		first := c.pendingPullIntos[0]
		// 1.2. Set firstPendingPullInto's reader type to "none".
		first.readerType = readerTypeNone
		// 1.3. Set this.[[pendingPullIntos]] to the list « firstPendingPullInto ».
		c.pendingPullIntos = []*pullIntoDescriptor{first}
	}
}

// View is https://streams.spec.whatwg.org/#rs-byob-request-view: the
// host's view object (nil is null).
func (r *BYOBRequest) View() any { return r.viewObject }

// Respond is https://streams.spec.whatwg.org/#rs-byob-request-respond.
func (r *BYOBRequest) Respond(bytesWritten int) error {
	// 1. If this.[[controller]] is undefined, throw a TypeError exception.
	if r.controller == nil {
		return &TypeError{Msg: "This BYOB request has been invalidated"}
	}
	// 2. If ! IsDetachedBuffer(this.[[view]].[[ArrayBuffer]]) is true,
	// throw a TypeError exception.
	if r.controller.stream.host.IsDetachedBuffer(r.view.Buffer) {
		return &TypeError{Msg: "The BYOB request's buffer has been detached"}
	}
	// 3. Assert: this.[[view]].[[ByteLength]] > 0.
	// 4. Assert: this.[[view]].[[ViewedArrayBuffer]].[[ByteLength]] > 0.
	// 5. Perform ? ReadableByteStreamControllerRespond(this.[[controller]], bytesWritten).
	return readableByteStreamControllerRespond(r.controller, bytesWritten)
}

// RespondWithNewView is
// https://streams.spec.whatwg.org/#rs-byob-request-respond-with-new-view.
func (r *BYOBRequest) RespondWithNewView(view ArrayBufferView) error {
	// 1. If this.[[controller]] is undefined, throw a TypeError exception.
	if r.controller == nil {
		return &TypeError{Msg: "This BYOB request has been invalidated"}
	}
	// 2. If ! IsDetachedBuffer(view.[[ViewedArrayBuffer]]) is true, throw
	// a TypeError exception.
	if r.controller.stream.host.IsDetachedBuffer(view.Buffer) {
		return &TypeError{Msg: "The view's buffer has been detached"}
	}
	// 3. Return ? ReadableByteStreamControllerRespondWithNewView(this.[[controller]], view).
	return readableByteStreamControllerRespondWithNewView(r.controller, view)
}

// readableByteStreamControllerCallPullIfNeeded is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-call-pull-if-needed.
func readableByteStreamControllerCallPullIfNeeded(c *ByteController) {
	// 1. Let shouldPull be ! ReadableByteStreamControllerShouldCallPull(controller).
	// 2. If shouldPull is false, return.
	if !readableByteStreamControllerShouldCallPull(c) {
		return
	}
	// 3. If controller.[[pulling]] is true, 3.1. Set
	// controller.[[pullAgain]] to true. 3.2. Return.
	if c.pulling {
		c.pullAgain = true
		return
	}
	// 4. Assert: controller.[[pullAgain]] is false.
	// 5. Set controller.[[pulling]] to true.
	c.pulling = true
	// 6. Let pullPromise be the result of performing controller.[[pullAlgorithm]].
	pullPromise := c.pullAlgorithm()
	c.stream.host.React(pullPromise, func(any) {
		// 7. Upon fulfillment of pullPromise,
		// 7.1. Set controller.[[pulling]] to false.
		c.pulling = false
		// 7.2. If controller.[[pullAgain]] is true,
		if c.pullAgain {
			// 7.2.1. Set controller.[[pullAgain]] to false.
			c.pullAgain = false
			// 7.2.2. Perform ! ReadableByteStreamControllerCallPullIfNeeded(controller).
			readableByteStreamControllerCallPullIfNeeded(c)
		}
	}, func(e any) {
		// 8. Upon rejection of pullPromise with reason e, perform !
		// ReadableByteStreamControllerError(controller, e).
		readableByteStreamControllerError(c, e)
	})
}

// readableByteStreamControllerClearAlgorithms is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-clear-algorithms.
func readableByteStreamControllerClearAlgorithms(c *ByteController) {
	// 1. Set controller.[[pullAlgorithm]] to undefined. 2. Set
	// controller.[[cancelAlgorithm]] to undefined. (What stands in for
	// undefined does nothing.)
	h := c.stream.host
	c.pullAlgorithm = func() Promise { return h.PromiseResolvedWith(nil) }
	c.cancelAlgorithm = func(any) Promise { return h.PromiseResolvedWith(nil) }
}

// readableByteStreamControllerClearPendingPullIntos is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-clear-pending-pull-intos.
func readableByteStreamControllerClearPendingPullIntos(c *ByteController) {
	// 1. Perform ! ReadableByteStreamControllerInvalidateBYOBRequest(controller).
	readableByteStreamControllerInvalidateBYOBRequest(c)
	// 2. Set controller.[[pendingPullIntos]] to a new empty list.
	c.pendingPullIntos = nil
}

// readableByteStreamControllerClose is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-close.
func readableByteStreamControllerClose(c *ByteController) error {
	// 1. Let stream be controller.[[stream]].
	s := c.stream
	// 2. If controller.[[closeRequested]] is true or stream.[[state]] is
	// not "readable", return.
	if c.closeRequested || s.state != Readable {
		return nil
	}
	// 3. If controller.[[queueTotalSize]] > 0,
	if c.queueTotalSize > 0 {
		// 3.1. Set controller.[[closeRequested]] to true. 3.2. Return.
		c.closeRequested = true
		return nil
	}
	// 4. If controller.[[pendingPullIntos]] is not empty,
	if len(c.pendingPullIntos) > 0 {
		// 4.1. Let firstPendingPullInto be controller.[[pendingPullIntos]][0].
		first := c.pendingPullIntos[0]
		// 4.2. If the remainder after dividing firstPendingPullInto's
		// bytes filled by firstPendingPullInto's element size is not 0,
		if first.bytesFilled%first.elementSize != 0 {
			// 4.2.1. Let e be a new TypeError exception.
			err := &TypeError{Msg: "Insufficient bytes to fill elements in the given buffer"}
			// 4.2.2. Perform ! ReadableByteStreamControllerError(controller, e).
			readableByteStreamControllerError(c, s.host.ErrorValue(err))
			// 4.2.3. Throw e.
			return err
		}
	}
	// 5. Perform ! ReadableByteStreamControllerClearAlgorithms(controller).
	readableByteStreamControllerClearAlgorithms(c)
	// 6. Perform ! ReadableStreamClose(stream).
	readableStreamClose(s)
	return nil
}

// readableByteStreamControllerCommitPullIntoDescriptor is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-commit-pull-into-descriptor.
func readableByteStreamControllerCommitPullIntoDescriptor(s *ReadableStream, pid *pullIntoDescriptor) {
	// 1. Assert: stream.[[state]] is not "errored".
	// 2. Assert: pullIntoDescriptor.reader type is not "none".
	// 3. Let done be false.
	done := false
	// 4. If stream.[[state]] is "closed", 4.1. Assert: the remainder after
	// dividing bytes filled by element size is 0. 4.2. Set done to true.
	if s.state == Closed {
		done = true
	}
	// 5. Let filledView be ! ReadableByteStreamControllerConvertPullIntoDescriptor(pullIntoDescriptor).
	filledView := readableByteStreamControllerConvertPullIntoDescriptor(s.host, pid)
	// 6. If pullIntoDescriptor's reader type is "default",
	if pid.readerType == readerTypeDefault {
		// 6.1. Perform ! ReadableStreamFulfillReadRequest(stream, filledView, done).
		readableStreamFulfillReadRequest(s, filledView, done)
		return
	}
	// 7. Otherwise, 7.1. Assert: reader type is "byob". 7.2. Perform !
	// ReadableStreamFulfillReadIntoRequest(stream, filledView, done).
	readableStreamFulfillReadIntoRequest(s, filledView, done)
}

// readableByteStreamControllerConvertPullIntoDescriptor is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-convert-pull-into-descriptor.
func readableByteStreamControllerConvertPullIntoDescriptor(h Host, pid *pullIntoDescriptor) any {
	// 1. Let bytesFilled be pullIntoDescriptor's bytes filled.
	// 2. Let elementSize be pullIntoDescriptor's element size.
	// 3-4. Asserts: bytesFilled ≤ byte length; bytesFilled mod
	// elementSize is 0.
	// 5. Let buffer be ! TransferArrayBuffer(pullIntoDescriptor's buffer).
	buffer, _ := h.TransferArrayBuffer(pid.buffer)
	// 6. Return ! Construct(pullIntoDescriptor's view constructor, «
	// buffer, pullIntoDescriptor's byte offset, bytesFilled ÷ elementSize »).
	return h.NewView(ArrayBufferView{Buffer: buffer, ByteOffset: pid.byteOffset, ByteLength: pid.bytesFilled,
		Constructor: pid.viewConstructor, ElementSize: pid.elementSize})
}

// readableByteStreamControllerEnqueue is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-enqueue.
func readableByteStreamControllerEnqueue(c *ByteController, chunk ArrayBufferView) error {
	h := c.stream.host
	// 1. Let stream be controller.[[stream]].
	s := c.stream
	// 2. If controller.[[closeRequested]] is true or stream.[[state]] is
	// not "readable", return.
	if c.closeRequested || s.state != Readable {
		return nil
	}
	// 3-5. Let buffer, byteOffset and byteLength be chunk's.
	buffer, byteOffset, byteLength := chunk.Buffer, chunk.ByteOffset, chunk.ByteLength
	// 6. If ! IsDetachedBuffer(buffer) is true, throw a TypeError exception.
	if h.IsDetachedBuffer(buffer) {
		return &TypeError{Msg: "The chunk's buffer is detached"}
	}
	// 7. Let transferredBuffer be ? TransferArrayBuffer(buffer).
	transferredBuffer, err := h.TransferArrayBuffer(buffer)
	if err != nil {
		return err
	}
	// 8. If controller.[[pendingPullIntos]] is not empty,
	if len(c.pendingPullIntos) > 0 {
		// 8.1. Let firstPendingPullInto be controller.[[pendingPullIntos]][0].
		first := c.pendingPullIntos[0]
		// 8.2. If ! IsDetachedBuffer(firstPendingPullInto's buffer) is
		// true, throw a TypeError exception.
		if h.IsDetachedBuffer(first.buffer) {
			return &TypeError{Msg: "The BYOB request's buffer has been detached"}
		}
		// 8.3. Perform ! ReadableByteStreamControllerInvalidateBYOBRequest(controller).
		readableByteStreamControllerInvalidateBYOBRequest(c)
		// 8.4. Set firstPendingPullInto's buffer to ! TransferArrayBuffer(firstPendingPullInto's buffer).
		first.buffer, _ = h.TransferArrayBuffer(first.buffer)
		// 8.5. If firstPendingPullInto's reader type is "none", perform ?
		// ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue(controller, firstPendingPullInto).
		if first.readerType == readerTypeNone {
			readableByteStreamControllerEnqueueDetachedPullIntoToQueue(c, first)
		}
	}
	switch {
	case readableStreamHasDefaultReader(s):
		// 9. If ! ReadableStreamHasDefaultReader(stream) is true,
		// 9.1. Perform ! ReadableByteStreamControllerProcessReadRequestsUsingQueue(controller).
		readableByteStreamControllerProcessReadRequestsUsingQueue(c)
		// 9.2. If ! ReadableStreamGetNumReadRequests(stream) is 0,
		if readableStreamGetNumReadRequests(s) == 0 {
			// 9.2.1. Assert: controller.[[pendingPullIntos]] is empty.
			// 9.2.2. Perform ! ReadableByteStreamControllerEnqueueChunkToQueue(controller,
			// transferredBuffer, byteOffset, byteLength).
			readableByteStreamControllerEnqueueChunkToQueue(c, transferredBuffer, byteOffset, byteLength)
		} else {
			// 9.3. Otherwise, 9.3.1. Assert: controller.[[queue]] is empty.
			// 9.3.2. If controller.[[pendingPullIntos]] is not empty,
			if len(c.pendingPullIntos) > 0 {
				// 9.3.2.1. Assert: controller.[[pendingPullIntos]][0]'s
				// reader type is "default". 9.3.2.2. Perform !
				// ReadableByteStreamControllerShiftPendingPullInto(controller).
				readableByteStreamControllerShiftPendingPullInto(c)
			}
			// 9.3.3. Let transferredView be ! Construct(%Uint8Array%, «
			// transferredBuffer, byteOffset, byteLength »).
			transferredView := h.NewView(ArrayBufferView{Buffer: transferredBuffer, ByteOffset: byteOffset,
				ByteLength: byteLength, Constructor: "Uint8Array", ElementSize: 1})
			// 9.3.4. Perform ! ReadableStreamFulfillReadRequest(stream, transferredView, false).
			readableStreamFulfillReadRequest(s, transferredView, false)
		}
	case readableStreamHasBYOBReader(s):
		// 10. Otherwise, if ! ReadableStreamHasBYOBReader(stream) is true,
		// 10.1. Perform ! ReadableByteStreamControllerEnqueueChunkToQueue(controller,
		// transferredBuffer, byteOffset, byteLength).
		readableByteStreamControllerEnqueueChunkToQueue(c, transferredBuffer, byteOffset, byteLength)
		// 10.2. Let filledPullIntos be the result of performing !
		// ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller).
		filledPullIntos := readableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(c)
		// 10.3. For each filledPullInto of filledPullIntos, perform !
		// ReadableByteStreamControllerCommitPullIntoDescriptor(stream, filledPullInto).
		for _, pid := range filledPullIntos {
			readableByteStreamControllerCommitPullIntoDescriptor(s, pid)
		}
	default:
		// 11. Otherwise, 11.1. Assert: ! IsReadableStreamLocked(stream) is
		// false. 11.2. Perform ! ReadableByteStreamControllerEnqueueChunkToQueue(controller,
		// transferredBuffer, byteOffset, byteLength).
		readableByteStreamControllerEnqueueChunkToQueue(c, transferredBuffer, byteOffset, byteLength)
	}
	// 12. Perform ! ReadableByteStreamControllerCallPullIfNeeded(controller).
	readableByteStreamControllerCallPullIfNeeded(c)
	return nil
}

// readableByteStreamControllerEnqueueChunkToQueue is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-enqueue-chunk-to-queue.
func readableByteStreamControllerEnqueueChunkToQueue(c *ByteController, buffer any, byteOffset, byteLength int) {
	// 1. Append a new readable byte stream queue entry with buffer,
	// byteOffset and byteLength to controller.[[queue]].
	c.queue = append(c.queue, &byteQueueEntry{buffer: buffer, byteOffset: byteOffset, byteLength: byteLength})
	// 2. Set controller.[[queueTotalSize]] to controller.[[queueTotalSize]] + byteLength.
	c.queueTotalSize += byteLength
}

// readableByteStreamControllerEnqueueClonedChunkToQueue is
// https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontrollerenqueueclonedchunktoqueue.
func readableByteStreamControllerEnqueueClonedChunkToQueue(c *ByteController, buffer any, byteOffset, byteLength int) {
	h := c.stream.host
	// 1. Let cloneResult be CloneArrayBuffer(buffer, byteOffset,
	// byteLength, %ArrayBuffer%).
	clone, err := h.NewArrayBuffer(byteLength)
	// 2. If cloneResult is an abrupt completion,
	if err != nil {
		// 2.1. Perform ! ReadableByteStreamControllerError(controller,
		// cloneResult.[[Value]]). 2.2. Return cloneResult.
		readableByteStreamControllerError(c, h.ErrorValue(err))
		return
	}
	copy(h.ArrayBufferBytes(clone), h.ArrayBufferBytes(buffer)[byteOffset:byteOffset+byteLength])
	// 3. Perform ! ReadableByteStreamControllerEnqueueChunkToQueue(controller,
	// cloneResult.[[Value]], 0, byteLength).
	readableByteStreamControllerEnqueueChunkToQueue(c, clone, 0, byteLength)
}

// readableByteStreamControllerEnqueueDetachedPullIntoToQueue is
// https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontrollerenqueuedetachedpullintotoqueue.
func readableByteStreamControllerEnqueueDetachedPullIntoToQueue(c *ByteController, pid *pullIntoDescriptor) {
	// 1. Assert: pullIntoDescriptor's reader type is "none".
	// 2. If pullIntoDescriptor's bytes filled > 0, perform ?
	// ReadableByteStreamControllerEnqueueClonedChunkToQueue(controller,
	// pullIntoDescriptor's buffer, byte offset, bytes filled).
	if pid.bytesFilled > 0 {
		readableByteStreamControllerEnqueueClonedChunkToQueue(c, pid.buffer, pid.byteOffset, pid.bytesFilled)
	}
	// 3. Perform ! ReadableByteStreamControllerShiftPendingPullInto(controller).
	readableByteStreamControllerShiftPendingPullInto(c)
}

// readableByteStreamControllerError is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-error.
func readableByteStreamControllerError(c *ByteController, e any) {
	// 1. Let stream be controller.[[stream]].
	s := c.stream
	// 2. If stream.[[state]] is not "readable", return.
	if s.state != Readable {
		return
	}
	// 3. Perform ! ReadableByteStreamControllerClearPendingPullIntos(controller).
	readableByteStreamControllerClearPendingPullIntos(c)
	// 4. Perform ! ResetQueue(controller).
	c.queue, c.queueTotalSize = nil, 0
	// 5. Perform ! ReadableByteStreamControllerClearAlgorithms(controller).
	readableByteStreamControllerClearAlgorithms(c)
	// 6. Perform ! ReadableStreamError(stream, e).
	readableStreamError(s, e)
}

// readableByteStreamControllerFillHeadPullIntoDescriptor is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-fill-head-pull-into-descriptor.
func readableByteStreamControllerFillHeadPullIntoDescriptor(c *ByteController, size int, pid *pullIntoDescriptor) {
	// 1. Assert: either controller.[[pendingPullIntos]] is empty, or
	// controller.[[pendingPullIntos]][0] is pullIntoDescriptor.
	// 2. Assert: controller.[[byobRequest]] is null.
	// 3. Set pullIntoDescriptor's bytes filled to bytes filled + size.
	pid.bytesFilled += size
}

// readableByteStreamControllerFillPullIntoDescriptorFromQueue is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-fill-pull-into-descriptor-from-queue.
func readableByteStreamControllerFillPullIntoDescriptorFromQueue(c *ByteController, pid *pullIntoDescriptor) bool {
	h := c.stream.host
	// 1. Let maxBytesToCopy be min(controller.[[queueTotalSize]],
	// pullIntoDescriptor's byte length − pullIntoDescriptor's bytes filled).
	maxBytesToCopy := min(c.queueTotalSize, pid.byteLength-pid.bytesFilled)
	// 2. Let maxBytesFilled be pullIntoDescriptor's bytes filled + maxBytesToCopy.
	maxBytesFilled := pid.bytesFilled + maxBytesToCopy
	// 3. Let totalBytesToCopyRemaining be maxBytesToCopy.
	totalBytesToCopyRemaining := maxBytesToCopy
	// 4. Let ready be false.
	ready := false
	// 5. Assert: pullIntoDescriptor's bytes filled < minimum fill.
	// 6. Let remainderBytes be the remainder after dividing maxBytesFilled
	// by pullIntoDescriptor's element size.
	remainderBytes := maxBytesFilled % pid.elementSize
	// 7. Let maxAlignedBytes be maxBytesFilled − remainderBytes.
	maxAlignedBytes := maxBytesFilled - remainderBytes
	// 8. If maxAlignedBytes ≥ pullIntoDescriptor's minimum fill,
	if maxAlignedBytes >= pid.minimumFill {
		// 8.1. Set totalBytesToCopyRemaining to maxAlignedBytes −
		// pullIntoDescriptor's bytes filled. 8.2. Set ready to true.
		totalBytesToCopyRemaining = maxAlignedBytes - pid.bytesFilled
		ready = true
	}
	// 9. Let queue be controller.[[queue]].
	// 10. While totalBytesToCopyRemaining > 0,
	for totalBytesToCopyRemaining > 0 {
		// 10.1. Let headOfQueue be queue[0].
		head := c.queue[0]
		// 10.2. Let bytesToCopy be min(totalBytesToCopyRemaining,
		// headOfQueue's byte length).
		bytesToCopy := min(totalBytesToCopyRemaining, head.byteLength)
		// 10.3. Let destStart be pullIntoDescriptor's byte offset +
		// pullIntoDescriptor's bytes filled.
		destStart := pid.byteOffset + pid.bytesFilled
		// 10.4-10.5. Let descriptorBuffer and queuedBuffer be the
		// buffers. 10.6-10.7. Assert: ! CanCopyDataBlockBytes(...).
		// 10.8. Perform ! CopyDataBlockBytes(descriptorBuffer.[[ArrayBufferData]],
		// destStart, queuedBuffer.[[ArrayBufferData]], headOfQueue's byte
		// offset, bytesToCopy).
		copy(h.ArrayBufferBytes(pid.buffer)[destStart:destStart+bytesToCopy],
			h.ArrayBufferBytes(head.buffer)[head.byteOffset:head.byteOffset+bytesToCopy])
		// 10.9. If headOfQueue's byte length is bytesToCopy,
		if head.byteLength == bytesToCopy {
			// 10.9.1. Remove queue[0].
			c.queue[0] = nil
			c.queue = c.queue[1:]
		} else {
			// 10.10. Otherwise, 10.10.1. Set headOfQueue's byte offset to
			// headOfQueue's byte offset + bytesToCopy. 10.10.2. Set
			// headOfQueue's byte length to headOfQueue's byte length −
			// bytesToCopy.
			head.byteOffset += bytesToCopy
			head.byteLength -= bytesToCopy
		}
		// 10.11. Set controller.[[queueTotalSize]] to
		// controller.[[queueTotalSize]] − bytesToCopy.
		c.queueTotalSize -= bytesToCopy
		// 10.12. Perform ! ReadableByteStreamControllerFillHeadPullIntoDescriptor(controller,
		// bytesToCopy, pullIntoDescriptor).
		readableByteStreamControllerFillHeadPullIntoDescriptor(c, bytesToCopy, pid)
		// 10.13. Set totalBytesToCopyRemaining to
		// totalBytesToCopyRemaining − bytesToCopy.
		totalBytesToCopyRemaining -= bytesToCopy
	}
	// 11. If ready is false, 11.1-11.3. Assert: queueTotalSize is 0;
	// bytes filled > 0; bytes filled < minimum fill.
	// 12. Return ready.
	return ready
}

// readableByteStreamControllerFillReadRequestFromQueue is
// https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontrollerfillreadrequestfromqueue.
func readableByteStreamControllerFillReadRequestFromQueue(c *ByteController, rr ReadRequest) {
	// 1. Assert: controller.[[queueTotalSize]] > 0.
	// 2. Let entry be controller.[[queue]][0].
	entry := c.queue[0]
	// 3. Remove entry from controller.[[queue]].
	c.queue[0] = nil
	c.queue = c.queue[1:]
	// 4. Set controller.[[queueTotalSize]] to controller.[[queueTotalSize]]
	// − entry's byte length.
	c.queueTotalSize -= entry.byteLength
	// 5. Perform ! ReadableByteStreamControllerHandleQueueDrain(controller).
	readableByteStreamControllerHandleQueueDrain(c)
	// 6. Let view be ! Construct(%Uint8Array%, « entry's buffer, entry's
	// byte offset, entry's byte length »).
	view := c.stream.host.NewView(ArrayBufferView{Buffer: entry.buffer, ByteOffset: entry.byteOffset,
		ByteLength: entry.byteLength, Constructor: "Uint8Array", ElementSize: 1})
	// 7. Perform readRequest's chunk steps, given view.
	rr.Chunk(view)
}

// readableByteStreamControllerGetBYOBRequest is
// https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontrollergetbyobrequest.
func readableByteStreamControllerGetBYOBRequest(c *ByteController) *BYOBRequest {
	// 1. If controller.[[byobRequest]] is null and
	// controller.[[pendingPullIntos]] is not empty,
	if c.byobRequest == nil && len(c.pendingPullIntos) > 0 {
		// 1.1. Let firstDescriptor be controller.[[pendingPullIntos]][0].
		first := c.pendingPullIntos[0]
		// 1.2. Let view be ! Construct(%Uint8Array%, « firstDescriptor's
		// buffer, firstDescriptor's byte offset + firstDescriptor's bytes
		// filled, firstDescriptor's byte length − firstDescriptor's bytes
		// filled »).
		view := &ArrayBufferView{Buffer: first.buffer, ByteOffset: first.byteOffset + first.bytesFilled,
			ByteLength: first.byteLength - first.bytesFilled, Constructor: "Uint8Array", ElementSize: 1}
		// 1.3. Let byobRequest be a new ReadableStreamBYOBRequest.
		// 1.4. Set byobRequest.[[controller]] to controller.
		// 1.5. Set byobRequest.[[view]] to view.
		// 1.6. Set controller.[[byobRequest]] to byobRequest.
		c.byobRequest = &BYOBRequest{controller: c, view: view, viewObject: c.stream.host.NewView(*view)}
	}
	// 2. Return controller.[[byobRequest]].
	return c.byobRequest
}

// readableByteStreamControllerGetDesiredSize is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-get-desired-size.
func readableByteStreamControllerGetDesiredSize(c *ByteController) (float64, bool) {
	// 1. Let state be controller.[[stream]].[[state]].
	switch c.stream.state {
	case Errored:
		// 2. If state is "errored", return null.
		return 0, false
	case Closed:
		// 3. If state is "closed", return 0.
		return 0, true
	}
	// 4. Return controller.[[strategyHWM]] − controller.[[queueTotalSize]].
	return c.strategyHWM - float64(c.queueTotalSize), true
}

// readableByteStreamControllerHandleQueueDrain is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-handle-queue-drain.
func readableByteStreamControllerHandleQueueDrain(c *ByteController) {
	// 1. Assert: controller.[[stream]].[[state]] is "readable".
	// 2. If controller.[[queueTotalSize]] is 0 and
	// controller.[[closeRequested]] is true,
	if c.queueTotalSize == 0 && c.closeRequested {
		// 2.1. Perform ! ReadableByteStreamControllerClearAlgorithms(controller).
		readableByteStreamControllerClearAlgorithms(c)
		// 2.2. Perform ! ReadableStreamClose(controller.[[stream]]).
		readableStreamClose(c.stream)
		return
	}
	// 3. Otherwise, perform ! ReadableByteStreamControllerCallPullIfNeeded(controller).
	readableByteStreamControllerCallPullIfNeeded(c)
}

// readableByteStreamControllerInvalidateBYOBRequest is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-invalidate-byob-request.
func readableByteStreamControllerInvalidateBYOBRequest(c *ByteController) {
	// 1. If controller.[[byobRequest]] is null, return.
	if c.byobRequest == nil {
		return
	}
	// 2. Set controller.[[byobRequest]].[[controller]] to undefined.
	c.byobRequest.controller = nil
	// 3. Set controller.[[byobRequest]].[[view]] to null.
	c.byobRequest.view, c.byobRequest.viewObject = nil, nil
	// 4. Set controller.[[byobRequest]] to null.
	c.byobRequest = nil
}

// readableByteStreamControllerProcessPullIntoDescriptorsUsingQueue is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-process-pull-into-descriptors-using-queue.
func readableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(c *ByteController) []*pullIntoDescriptor {
	// 1. Assert: controller.[[closeRequested]] is false.
	// 2. Let filledPullIntos be a new empty list.
	var filled []*pullIntoDescriptor
	// 3. While controller.[[pendingPullIntos]] is not empty,
	for len(c.pendingPullIntos) > 0 {
		// 3.1. If controller.[[queueTotalSize]] is 0, then break.
		if c.queueTotalSize == 0 {
			break
		}
		// 3.2. Let pullIntoDescriptor be controller.[[pendingPullIntos]][0].
		pid := c.pendingPullIntos[0]
		// 3.3. If ! ReadableByteStreamControllerFillPullIntoDescriptorFromQueue(controller,
		// pullIntoDescriptor) is true,
		if readableByteStreamControllerFillPullIntoDescriptorFromQueue(c, pid) {
			// 3.3.1. Perform ! ReadableByteStreamControllerShiftPendingPullInto(controller).
			readableByteStreamControllerShiftPendingPullInto(c)
			// 3.3.2. Append pullIntoDescriptor to filledPullIntos.
			filled = append(filled, pid)
		}
	}
	// 4. Return filledPullIntos.
	return filled
}

// readableByteStreamControllerProcessReadRequestsUsingQueue is
// https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamcontrollerprocessreadrequestsusingqueue.
func readableByteStreamControllerProcessReadRequestsUsingQueue(c *ByteController) {
	// 1. Let reader be controller.[[stream]].[[reader]].
	// 2. Assert: reader implements ReadableStreamDefaultReader.
	reader := c.stream.reader.(*DefaultReader)
	// 3. While reader.[[readRequests]] is not empty,
	for len(reader.readRequests) > 0 {
		// 3.1. If controller.[[queueTotalSize]] is 0, return.
		if c.queueTotalSize == 0 {
			return
		}
		// 3.2. Let readRequest be reader.[[readRequests]][0].
		rr := reader.readRequests[0]
		// 3.3. Remove readRequest from reader.[[readRequests]].
		reader.readRequests[0] = ReadRequest{}
		reader.readRequests = reader.readRequests[1:]
		// 3.4. Perform ! ReadableByteStreamControllerFillReadRequestFromQueue(controller, readRequest).
		readableByteStreamControllerFillReadRequestFromQueue(c, rr)
	}
}

// readableByteStreamControllerPullInto is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-pull-into.
func readableByteStreamControllerPullInto(c *ByteController, view ArrayBufferView, min int, rir ReadIntoRequest) {
	h := c.stream.host
	// 1. Let stream be controller.[[stream]].
	s := c.stream
	// 2. Let elementSize be 1. 3. Let ctor be %DataView%. 4. If view has
	// a [[TypedArrayName]] internal slot, set elementSize and ctor from
	// the typed array constructors table.
	elementSize, ctor := max(view.ElementSize, 1), view.Constructor
	// 5. Let minimumFill be min × elementSize.
	minimumFill := min * elementSize
	// 6-7. Asserts: 0 ≤ minimumFill ≤ view.[[ByteLength]]; minimumFill
	// mod elementSize is 0.
	// 8. Let byteOffset be view.[[ByteOffset]].
	// 9. Let byteLength be view.[[ByteLength]].
	byteOffset, byteLength := view.ByteOffset, view.ByteLength
	// 10. Let bufferResult be TransferArrayBuffer(view.[[ViewedArrayBuffer]]).
	buffer, err := h.TransferArrayBuffer(view.Buffer)
	// 11. If bufferResult is an abrupt completion, 11.1. Perform
	// readIntoRequest's error steps, given bufferResult.[[Value]].
	// 11.2. Return.
	if err != nil {
		rir.Error(h.ErrorValue(err))
		return
	}
	// 12. Let buffer be bufferResult.[[Value]].
	// 13. Let pullIntoDescriptor be a new pull-into descriptor with
	// buffer, buffer byte length buffer.[[ArrayBufferByteLength]], byte
	// offset byteOffset, byte length byteLength, bytes filled 0, minimum
	// fill minimumFill, element size elementSize, view constructor ctor,
	// reader type "byob".
	pid := &pullIntoDescriptor{buffer: buffer, bufferByteLength: h.ArrayBufferByteLength(buffer),
		byteOffset: byteOffset, byteLength: byteLength, minimumFill: minimumFill,
		elementSize: elementSize, viewConstructor: ctor, readerType: readerTypeBYOB}
	// 14. If controller.[[pendingPullIntos]] is not empty,
	if len(c.pendingPullIntos) > 0 {
		// 14.1. Append pullIntoDescriptor to controller.[[pendingPullIntos]].
		c.pendingPullIntos = append(c.pendingPullIntos, pid)
		// 14.2. Perform ! ReadableStreamAddReadIntoRequest(stream, readIntoRequest).
		readableStreamAddReadIntoRequest(s, rir)
		// 14.3. Return.
		return
	}
	// 15. If stream.[[state]] is "closed",
	if s.state == Closed {
		// 15.1. Let emptyView be ! Construct(ctor, « pullIntoDescriptor's
		// buffer, pullIntoDescriptor's byte offset, 0 »).
		emptyView := h.NewView(ArrayBufferView{Buffer: pid.buffer, ByteOffset: pid.byteOffset,
			Constructor: ctor, ElementSize: elementSize})
		// 15.2. Perform readIntoRequest's close steps, given emptyView.
		rir.Close(emptyView)
		// 15.3. Return.
		return
	}
	// 16. If controller.[[queueTotalSize]] > 0,
	if c.queueTotalSize > 0 {
		// 16.1. If ! ReadableByteStreamControllerFillPullIntoDescriptorFromQueue(controller,
		// pullIntoDescriptor) is true,
		if readableByteStreamControllerFillPullIntoDescriptorFromQueue(c, pid) {
			// 16.1.1. Let filledView be ! ReadableByteStreamControllerConvertPullIntoDescriptor(pullIntoDescriptor).
			filledView := readableByteStreamControllerConvertPullIntoDescriptor(h, pid)
			// 16.1.2. Perform ! ReadableByteStreamControllerHandleQueueDrain(controller).
			readableByteStreamControllerHandleQueueDrain(c)
			// 16.1.3. Perform readIntoRequest's chunk steps, given filledView.
			rir.Chunk(filledView)
			// 16.1.4. Return.
			return
		}
		// 16.2. If controller.[[closeRequested]] is true,
		if c.closeRequested {
			// 16.2.1. Let e be a new TypeError exception.
			e := h.ErrorValue(&TypeError{Msg: "Insufficient bytes to fill elements in the given buffer"})
			// 16.2.2. Perform ! ReadableByteStreamControllerError(controller, e).
			readableByteStreamControllerError(c, e)
			// 16.2.3. Perform readIntoRequest's error steps, given e.
			rir.Error(e)
			// 16.2.4. Return.
			return
		}
	}
	// 17. Append pullIntoDescriptor to controller.[[pendingPullIntos]].
	c.pendingPullIntos = append(c.pendingPullIntos, pid)
	// 18. Perform ! ReadableStreamAddReadIntoRequest(stream, readIntoRequest).
	readableStreamAddReadIntoRequest(s, rir)
	// 19. Perform ! ReadableByteStreamControllerCallPullIfNeeded(controller).
	readableByteStreamControllerCallPullIfNeeded(c)
}

// readableByteStreamControllerRespond is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-respond.
func readableByteStreamControllerRespond(c *ByteController, bytesWritten int) error {
	h := c.stream.host
	// 1. Assert: controller.[[pendingPullIntos]] is not empty.
	// 2. Let firstDescriptor be controller.[[pendingPullIntos]][0].
	first := c.pendingPullIntos[0]
	// 3. Let state be controller.[[stream]].[[state]].
	if c.stream.state == Closed {
		// 4. If state is "closed", 4.1. If bytesWritten is not 0, throw a
		// TypeError exception.
		if bytesWritten != 0 {
			return &TypeError{Msg: "bytesWritten must be 0 when calling respond() on a closed stream"}
		}
	} else {
		// 5. Otherwise, 5.1. Assert: state is "readable".
		// 5.2. If bytesWritten is 0, throw a TypeError exception.
		if bytesWritten == 0 {
			return &TypeError{Msg: "bytesWritten must be greater than 0 when calling respond() on a readable stream"}
		}
		// 5.3. If firstDescriptor's bytes filled + bytesWritten >
		// firstDescriptor's byte length, throw a RangeError exception.
		if first.bytesFilled+bytesWritten > first.byteLength {
			return &RangeError{Msg: "bytesWritten out of range"}
		}
	}
	// 6. Set firstDescriptor's buffer to ! TransferArrayBuffer(firstDescriptor's buffer).
	first.buffer, _ = h.TransferArrayBuffer(first.buffer)
	// 7. Perform ? ReadableByteStreamControllerRespondInternal(controller, bytesWritten).
	readableByteStreamControllerRespondInternal(c, bytesWritten)
	return nil
}

// readableByteStreamControllerRespondInClosedState is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-respond-in-closed-state.
func readableByteStreamControllerRespondInClosedState(c *ByteController, first *pullIntoDescriptor) {
	// 1. Assert: the remainder after dividing firstDescriptor's bytes
	// filled by firstDescriptor's element size is 0.
	// 2. If firstDescriptor's reader type is "none", perform !
	// ReadableByteStreamControllerShiftPendingPullInto(controller).
	if first.readerType == readerTypeNone {
		readableByteStreamControllerShiftPendingPullInto(c)
	}
	// 3. Let stream be controller.[[stream]].
	s := c.stream
	// 4. If ! ReadableStreamHasBYOBReader(stream) is true,
	if readableStreamHasBYOBReader(s) {
		// 4.1. Let filledPullIntos be a new empty list.
		var filled []*pullIntoDescriptor
		// 4.2. While filledPullIntos's size < !
		// ReadableStreamGetNumReadIntoRequests(stream),
		for len(filled) < readableStreamGetNumReadIntoRequests(s) {
			// 4.2.1. Let pullIntoDescriptor be !
			// ReadableByteStreamControllerShiftPendingPullInto(controller).
			// 4.2.2. Append pullIntoDescriptor to filledPullIntos.
			filled = append(filled, readableByteStreamControllerShiftPendingPullInto(c))
		}
		// 4.3. For each filledPullInto of filledPullIntos, perform !
		// ReadableByteStreamControllerCommitPullIntoDescriptor(stream, filledPullInto).
		for _, pid := range filled {
			readableByteStreamControllerCommitPullIntoDescriptor(s, pid)
		}
	}
}

// readableByteStreamControllerRespondInReadableState is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-respond-in-readable-state.
func readableByteStreamControllerRespondInReadableState(c *ByteController, bytesWritten int, pid *pullIntoDescriptor) {
	// 1. Assert: pullIntoDescriptor's bytes filled + bytesWritten ≤
	// pullIntoDescriptor's byte length.
	// 2. Perform ! ReadableByteStreamControllerFillHeadPullIntoDescriptor(controller,
	// bytesWritten, pullIntoDescriptor).
	readableByteStreamControllerFillHeadPullIntoDescriptor(c, bytesWritten, pid)
	// 3. If pullIntoDescriptor's reader type is "none",
	if pid.readerType == readerTypeNone {
		// 3.1. Perform ? ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue(controller,
		// pullIntoDescriptor).
		readableByteStreamControllerEnqueueDetachedPullIntoToQueue(c, pid)
		// 3.2. Let filledPullIntos be the result of performing !
		// ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller).
		// 3.3. For each filledPullInto of filledPullIntos, perform !
		// ReadableByteStreamControllerCommitPullIntoDescriptor(controller.[[stream]], filledPullInto).
		for _, f := range readableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(c) {
			readableByteStreamControllerCommitPullIntoDescriptor(c.stream, f)
		}
		// 3.4. Return.
		return
	}
	// 4. If pullIntoDescriptor's bytes filled < pullIntoDescriptor's
	// minimum fill, return.
	if pid.bytesFilled < pid.minimumFill {
		return
	}
	// 5. Perform ! ReadableByteStreamControllerShiftPendingPullInto(controller).
	readableByteStreamControllerShiftPendingPullInto(c)
	// 6. Let remainderSize be the remainder after dividing
	// pullIntoDescriptor's bytes filled by pullIntoDescriptor's element size.
	remainderSize := pid.bytesFilled % pid.elementSize
	// 7. If remainderSize > 0,
	if remainderSize > 0 {
		// 7.1. Let end be pullIntoDescriptor's byte offset +
		// pullIntoDescriptor's bytes filled.
		end := pid.byteOffset + pid.bytesFilled
		// 7.2. Perform ? ReadableByteStreamControllerEnqueueClonedChunkToQueue(controller,
		// pullIntoDescriptor's buffer, end − remainderSize, remainderSize).
		readableByteStreamControllerEnqueueClonedChunkToQueue(c, pid.buffer, end-remainderSize, remainderSize)
	}
	// 8. Set pullIntoDescriptor's bytes filled to pullIntoDescriptor's
	// bytes filled − remainderSize.
	pid.bytesFilled -= remainderSize
	// 9. Let filledPullIntos be the result of performing !
	// ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller).
	filled := readableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(c)
	// 10. Perform ! ReadableByteStreamControllerCommitPullIntoDescriptor(controller.[[stream]],
	// pullIntoDescriptor).
	readableByteStreamControllerCommitPullIntoDescriptor(c.stream, pid)
	// 11. For each filledPullInto of filledPullIntos, perform !
	// ReadableByteStreamControllerCommitPullIntoDescriptor(controller.[[stream]], filledPullInto).
	for _, f := range filled {
		readableByteStreamControllerCommitPullIntoDescriptor(c.stream, f)
	}
}

// readableByteStreamControllerRespondInternal is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-respond-internal.
func readableByteStreamControllerRespondInternal(c *ByteController, bytesWritten int) {
	// 1. Let firstDescriptor be controller.[[pendingPullIntos]][0].
	first := c.pendingPullIntos[0]
	// 2. Assert: ! CanTransferArrayBuffer(firstDescriptor's buffer) is true.
	// 3. Perform ! ReadableByteStreamControllerInvalidateBYOBRequest(controller).
	readableByteStreamControllerInvalidateBYOBRequest(c)
	// 4. Let state be controller.[[stream]].[[state]].
	if c.stream.state == Closed {
		// 5. If state is "closed", 5.1. Assert: bytesWritten is 0.
		// 5.2. Perform ! ReadableByteStreamControllerRespondInClosedState(controller, firstDescriptor).
		readableByteStreamControllerRespondInClosedState(c, first)
	} else {
		// 6. Otherwise, 6.1-6.2. Assert: state is "readable"; bytesWritten
		// > 0. 6.3. Perform ? ReadableByteStreamControllerRespondInReadableState(controller,
		// bytesWritten, firstDescriptor).
		readableByteStreamControllerRespondInReadableState(c, bytesWritten, first)
	}
	// 7. Perform ! ReadableByteStreamControllerCallPullIfNeeded(controller).
	readableByteStreamControllerCallPullIfNeeded(c)
}

// readableByteStreamControllerRespondWithNewView is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-respond-with-new-view.
func readableByteStreamControllerRespondWithNewView(c *ByteController, view ArrayBufferView) error {
	h := c.stream.host
	// 1. Assert: controller.[[pendingPullIntos]] is not empty.
	// 2. Assert: ! IsDetachedBuffer(view.[[ViewedArrayBuffer]]) is false.
	// 3. Let firstDescriptor be controller.[[pendingPullIntos]][0].
	first := c.pendingPullIntos[0]
	// 4. Let state be controller.[[stream]].[[state]].
	if c.stream.state == Closed {
		// 5. If state is "closed", 5.1. If view.[[ByteLength]] is not 0,
		// throw a TypeError exception.
		if view.ByteLength != 0 {
			return &TypeError{Msg: "The view's length must be 0 when calling respondWithNewView() on a closed stream"}
		}
	} else if view.ByteLength == 0 {
		// 6. Otherwise, 6.1. Assert: state is "readable". 6.2. If
		// view.[[ByteLength]] is 0, throw a TypeError exception.
		return &TypeError{Msg: "The view's length must be greater than 0 when calling respondWithNewView() on a readable stream"}
	}
	// 7. If firstDescriptor's byte offset + firstDescriptor' bytes filled
	// is not view.[[ByteOffset]], throw a RangeError exception.
	if first.byteOffset+first.bytesFilled != view.ByteOffset {
		return &RangeError{Msg: "The region specified by view does not match byobRequest"}
	}
	// 8. If firstDescriptor's buffer byte length is not
	// view.[[ViewedArrayBuffer]].[[ByteLength]], throw a RangeError exception.
	if first.bufferByteLength != h.ArrayBufferByteLength(view.Buffer) {
		return &RangeError{Msg: "The buffer of view has different capacity than byobRequest"}
	}
	// 9. If firstDescriptor's bytes filled + view.[[ByteLength]] >
	// firstDescriptor's byte length, throw a RangeError exception.
	if first.bytesFilled+view.ByteLength > first.byteLength {
		return &RangeError{Msg: "The region specified by view is larger than byobRequest"}
	}
	// 10. Let viewByteLength be view.[[ByteLength]].
	viewByteLength := view.ByteLength
	// 11. Set firstDescriptor's buffer to ? TransferArrayBuffer(view.[[ViewedArrayBuffer]]).
	buf, err := h.TransferArrayBuffer(view.Buffer)
	if err != nil {
		return err
	}
	first.buffer = buf
	// 12. Perform ? ReadableByteStreamControllerRespondInternal(controller, viewByteLength).
	readableByteStreamControllerRespondInternal(c, viewByteLength)
	return nil
}

// readableByteStreamControllerShiftPendingPullInto is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-shift-pending-pull-into.
func readableByteStreamControllerShiftPendingPullInto(c *ByteController) *pullIntoDescriptor {
	// 1. Assert: controller.[[byobRequest]] is null.
	// 2. Let descriptor be controller.[[pendingPullIntos]][0].
	d := c.pendingPullIntos[0]
	// 3. Remove descriptor from controller.[[pendingPullIntos]].
	c.pendingPullIntos[0] = nil
	c.pendingPullIntos = c.pendingPullIntos[1:]
	// 4. Return descriptor.
	return d
}

// readableByteStreamControllerShouldCallPull is
// https://streams.spec.whatwg.org/#readable-byte-stream-controller-should-call-pull.
func readableByteStreamControllerShouldCallPull(c *ByteController) bool {
	// 1. Let stream be controller.[[stream]].
	s := c.stream
	// 2. If stream.[[state]] is not "readable", return false.
	// 3. If controller.[[closeRequested]] is true, return false.
	// 4. If controller.[[started]] is false, return false.
	if s.state != Readable || c.closeRequested || !c.started {
		return false
	}
	// 5. If ! ReadableStreamHasDefaultReader(stream) is true and !
	// ReadableStreamGetNumReadRequests(stream) > 0, return true.
	if readableStreamHasDefaultReader(s) && readableStreamGetNumReadRequests(s) > 0 {
		return true
	}
	// 6. If ! ReadableStreamHasBYOBReader(stream) is true and !
	// ReadableStreamGetNumReadIntoRequests(stream) > 0, return true.
	if readableStreamHasBYOBReader(s) && readableStreamGetNumReadIntoRequests(s) > 0 {
		return true
	}
	// 7. Let desiredSize be ! ReadableByteStreamControllerGetDesiredSize(controller).
	// 8. Assert: desiredSize is not null.
	desiredSize, _ := readableByteStreamControllerGetDesiredSize(c)
	// 9. If desiredSize > 0, return true. 10. Return false.
	return desiredSize > 0
}

// readableStreamAddReadIntoRequest is
// https://streams.spec.whatwg.org/#readable-stream-add-read-into-request.
func readableStreamAddReadIntoRequest(s *ReadableStream, rir ReadIntoRequest) {
	// 1. Assert: stream.[[reader]] implements ReadableStreamBYOBReader.
	// 2. Assert: stream.[[state]] is "readable" or "closed".
	// 3. Append readRequest to stream.[[reader]].[[readIntoRequests]].
	rd := s.reader.(*BYOBReader)
	rd.readIntoRequests = append(rd.readIntoRequests, rir)
}

// readableStreamFulfillReadIntoRequest is
// https://streams.spec.whatwg.org/#readable-stream-fulfill-read-into-request.
func readableStreamFulfillReadIntoRequest(s *ReadableStream, chunk any, done bool) {
	// 1. Assert: ! ReadableStreamHasBYOBReader(stream) is true.
	// 2. Let reader be stream.[[reader]].
	reader := s.reader.(*BYOBReader)
	// 3. Assert: reader.[[readIntoRequests]] is not empty.
	// 4. Let readIntoRequest be reader.[[readIntoRequests]][0].
	rir := reader.readIntoRequests[0]
	// 5. Remove readIntoRequest from reader.[[readIntoRequests]].
	reader.readIntoRequests[0] = ReadIntoRequest{}
	reader.readIntoRequests = reader.readIntoRequests[1:]
	// 6. If done is true, perform readIntoRequest's close steps, given chunk.
	if done {
		rir.Close(chunk)
		return
	}
	// 7. Otherwise, perform readIntoRequest's chunk steps, given chunk.
	rir.Chunk(chunk)
}

// readableStreamGetNumReadIntoRequests is
// https://streams.spec.whatwg.org/#readable-stream-get-num-read-into-requests.
func readableStreamGetNumReadIntoRequests(s *ReadableStream) int {
	// 1. Assert: ! ReadableStreamHasBYOBReader(stream) is true.
	// 2. Return stream.[[reader]].[[readIntoRequests]]'s size.
	return len(s.reader.(*BYOBReader).readIntoRequests)
}

// readableStreamHasBYOBReader is
// https://streams.spec.whatwg.org/#readable-stream-has-byob-reader.
func readableStreamHasBYOBReader(s *ReadableStream) bool {
	// 1. Let reader be stream.[[reader]]. 2. If reader is undefined,
	// return false. 3. If reader implements ReadableStreamBYOBReader,
	// return true. 4. Return false.
	_, ok := s.reader.(*BYOBReader)
	return ok
}

// NewBYOBReader is https://streams.spec.whatwg.org/#byob-reader-constructor.
func NewBYOBReader(s *ReadableStream) (*BYOBReader, error) {
	// 1. Perform ? SetUpReadableStreamBYOBReader(this, stream).
	r := &BYOBReader{genericReader: genericReader{host: s.host}}
	if err := setUpReadableStreamBYOBReader(r, s); err != nil {
		return nil, err
	}
	return r, nil
}

// AcquireReadableStreamBYOBReader is
// https://streams.spec.whatwg.org/#acquire-readable-stream-byob-reader.
func AcquireReadableStreamBYOBReader(s *ReadableStream) (*BYOBReader, error) {
	// 1. Let reader be a new ReadableStreamBYOBReader.
	// 2. Perform ? SetUpReadableStreamBYOBReader(reader, stream).
	// 3. Return reader.
	return NewBYOBReader(s)
}

// setUpReadableStreamBYOBReader is
// https://streams.spec.whatwg.org/#set-up-readable-stream-byob-reader.
func setUpReadableStreamBYOBReader(r *BYOBReader, s *ReadableStream) error {
	// 1. If ! IsReadableStreamLocked(stream) is true, throw a TypeError exception.
	if IsReadableStreamLocked(s) {
		return &TypeError{Msg: "ReadableStreamBYOBReader constructor can only accept readable streams that are not yet locked to a reader"}
	}
	// 2. If stream.[[controller]] does not implement
	// ReadableByteStreamController, throw a TypeError exception.
	if _, ok := s.controller.(*ByteController); !ok {
		return &TypeError{Msg: "Cannot construct a ReadableStreamBYOBReader for a stream not constructed with a byte source"}
	}
	// 3. Perform ! ReadableStreamReaderGenericInitialize(reader, stream).
	readableStreamReaderGenericInitialize(r, &r.genericReader, s)
	// 4. Set reader.[[readIntoRequests]] to a new empty list.
	r.readIntoRequests = nil
	return nil
}

// Read is https://streams.spec.whatwg.org/#byob-reader-read once the host
// converted view and options: min is options["min"]. It returns the
// TypeError or RangeError the promise is rejected with (steps 1-6).
func (r *BYOBReader) Read(view ArrayBufferView, min uint64, rir ReadIntoRequest) error {
	h := r.host
	// 1. If view.[[ByteLength]] is 0, return a promise rejected with a
	// TypeError exception.
	if view.ByteLength == 0 {
		return &TypeError{Msg: "This readable stream reader cannot be used to read into an empty view"}
	}
	// 2. If view.[[ViewedArrayBuffer]].[[ArrayBufferByteLength]] is 0,
	// return a promise rejected with a TypeError exception.
	if h.ArrayBufferByteLength(view.Buffer) == 0 {
		return &TypeError{Msg: "This readable stream reader cannot be used to read into a view on an empty buffer"}
	}
	// 3. If ! IsDetachedBuffer(view.[[ViewedArrayBuffer]]) is true,
	// return a promise rejected with a TypeError exception.
	if h.IsDetachedBuffer(view.Buffer) {
		return &TypeError{Msg: "This readable stream reader cannot be used to read into a view on a detached buffer"}
	}
	// 4. If options["min"] is 0, return a promise rejected with a
	// TypeError exception.
	if min == 0 {
		return &TypeError{Msg: "options.min must be greater than 0"}
	}
	// 5. If view has a [[TypedArrayName]] internal slot, 5.1. If
	// options["min"] > view.[[ArrayLength]], return a promise rejected
	// with a RangeError exception.
	// 6. Otherwise (i.e., it is a DataView), 6.1. If options["min"] >
	// view.[[ByteLength]], return a promise rejected with a RangeError
	// exception.
	if min > uint64(view.Length()) {
		return &RangeError{Msg: "options.min must be less than or equal to the view's length"}
	}
	// 7. If this.[[stream]] is undefined, return a promise rejected with a
	// TypeError exception.
	if r.stream == nil {
		return &TypeError{Msg: "This readable stream reader has been released and cannot be used to read from its previous owner stream"}
	}
	// 8-10. (The host's promise and read-into request.)
	// 11. Perform ! ReadableStreamBYOBReaderRead(this, view, options["min"], readIntoRequest).
	readableStreamBYOBReaderRead(r, view, int(min), rir)
	// 12. Return promise.
	return nil
}

// ReleaseLock is https://streams.spec.whatwg.org/#byob-reader-release-lock.
func (r *BYOBReader) ReleaseLock() {
	// 1. If this.[[stream]] is undefined, return.
	if r.stream == nil {
		return
	}
	// 2. Perform ! ReadableStreamBYOBReaderRelease(this).
	readableStreamBYOBReaderRelease(r)
}

// readableStreamBYOBReaderRead is
// https://streams.spec.whatwg.org/#readable-stream-byob-reader-read.
func readableStreamBYOBReaderRead(r *BYOBReader, view ArrayBufferView, min int, rir ReadIntoRequest) {
	// 1. Let stream be reader.[[stream]]. 2. Assert: stream is not undefined.
	s := r.stream
	// 3. Set stream.[[disturbed]] to true.
	s.disturbed = true
	// 4. If stream.[[state]] is "errored", perform readIntoRequest's error
	// steps given stream.[[storedError]].
	if s.state == Errored {
		rir.Error(s.storedError)
		return
	}
	// 5. Otherwise, perform ! ReadableByteStreamControllerPullInto(stream.[[controller]],
	// view, min, readIntoRequest).
	readableByteStreamControllerPullInto(s.controller.(*ByteController), view, min, rir)
}

// readableStreamBYOBReaderRelease is
// https://streams.spec.whatwg.org/#abstract-opdef-readablestreambyobreaderrelease.
func readableStreamBYOBReaderRelease(r *BYOBReader) {
	h := r.host
	// 1. Perform ! ReadableStreamReaderGenericRelease(reader).
	readableStreamReaderGenericRelease(&r.genericReader)
	// 2. Let e be a new TypeError exception.
	e := h.ErrorValue(&TypeError{Msg: "Releasing the reader's lock"})
	// 3. Perform ! ReadableStreamBYOBReaderErrorReadIntoRequests(reader, e).
	readableStreamBYOBReaderErrorReadIntoRequests(r, e)
}

// readableStreamBYOBReaderErrorReadIntoRequests is
// https://streams.spec.whatwg.org/#abstract-opdef-readablestreambyobreadererrorreadintorequests.
func readableStreamBYOBReaderErrorReadIntoRequests(r *BYOBReader, e any) {
	// 1. Let readIntoRequests be reader.[[readIntoRequests]].
	rirs := r.readIntoRequests
	// 2. Set reader.[[readIntoRequests]] to a new empty list.
	r.readIntoRequests = nil
	// 3. For each readIntoRequest of readIntoRequests, perform
	// readIntoRequest's error steps, given e.
	for _, rir := range rirs {
		rir.Error(e)
	}
}
