package streams

import "math"

// State is a readable stream's [[state]].
type State uint8

// The states of a readable stream.
const (
	Readable State = iota
	Closed
	Errored
)

// ReadableStream is https://streams.spec.whatwg.org/#readablestream: its
// internal slots.
type ReadableStream struct {
	host        Host
	state       State
	storedError any
	disturbed   bool
	reader      reader
	controller  controller
}

// controller is a ReadableStreamDefaultController or a
// ReadableByteStreamController: the internal methods a stream calls.
type controller interface {
	cancelSteps(reason any) Promise
	pullSteps(rr ReadRequest)
	releaseSteps()
}

// UnderlyingSource is the underlying source's algorithms, as the
// host made them from the underlying source dictionary (or its own Go
// source): nil Start, Pull or Cancel stands for the standard's default.
type UnderlyingSource struct {
	// Start is the start algorithm: its result (a value or a thenable)
	// becomes a promise resolved with it; an error is the exception it
	// threw, which the constructor rethrows.
	Start func(c *DefaultController) (any, error)
	// Pull is the pull algorithm: a promise.
	Pull func(c *DefaultController) Promise
	// Cancel is the cancel algorithm: a promise.
	Cancel func(reason any) Promise
}

// New is the ReadableStream constructor's steps for a default stream
// (https://streams.spec.whatwg.org/#rs-constructor, steps 3 and 5) once
// the host has converted the underlying source and the strategy: it
// runs SetUpReadableStreamDefaultControllerFromUnderlyingSource. size nil
// is the default size algorithm (every chunk is 1); highWaterMark is
// ExtractHighWaterMark's result.
func New(host Host, src UnderlyingSource, highWaterMark float64, size SizeAlgorithm) (*ReadableStream, error) {
	// 3. Perform ! InitializeReadableStream(this).
	s := &ReadableStream{host: host}
	initializeReadableStream(s)
	// 5.2-5.4. sizeAlgorithm, highWaterMark, and set up the controller.
	if err := setUpReadableStreamDefaultControllerFromUnderlyingSource(s, src, highWaterMark, size); err != nil {
		return nil, err
	}
	return s, nil
}

// initializeReadableStream is
// https://streams.spec.whatwg.org/#initialize-readable-stream.
func initializeReadableStream(s *ReadableStream) {
	// 1-4. state "readable", reader and storedError undefined, disturbed
	// false.
	s.state = Readable
	s.reader = nil
	s.storedError = nil
	s.disturbed = false
}

// setUpReadableStreamDefaultControllerFromUnderlyingSource is
// https://streams.spec.whatwg.org/#set-up-readable-stream-default-controller-from-underlying-source.
func setUpReadableStreamDefaultControllerFromUnderlyingSource(s *ReadableStream, src UnderlyingSource, hwm float64, size SizeAlgorithm) error {
	h := s.host
	// 1. Let controller be a new ReadableStreamDefaultController.
	c := &DefaultController{}
	// 2. Let startAlgorithm be an algorithm that returns undefined.
	start := func() (any, error) { return nil, nil }
	// 3. Let pullAlgorithm be an algorithm that returns a promise resolved
	// with undefined.
	pull := func() Promise { return h.PromiseResolvedWith(nil) }
	// 4. Let cancelAlgorithm be an algorithm that returns a promise
	// resolved with undefined.
	cancel := func(any) Promise { return h.PromiseResolvedWith(nil) }
	// 5. If underlyingSourceDict["start"] exists, then set startAlgorithm
	// to an algorithm which returns the result of invoking it.
	if src.Start != nil {
		start = func() (any, error) { return src.Start(c) }
	}
	// 6. If underlyingSourceDict["pull"] exists, then set pullAlgorithm
	// to an algorithm which returns the result of invoking it.
	if src.Pull != nil {
		pull = func() Promise { return src.Pull(c) }
	}
	// 7. If underlyingSourceDict["cancel"] exists, then set
	// cancelAlgorithm to an algorithm which takes an argument reason and
	// returns the result of invoking it.
	if src.Cancel != nil {
		cancel = src.Cancel
	}
	// 8. Perform ? SetUpReadableStreamDefaultController(...).
	return setUpReadableStreamDefaultController(s, c, start, pull, cancel, hwm, size)
}

// setUpReadableStreamDefaultController is
// https://streams.spec.whatwg.org/#set-up-readable-stream-default-controller.
func setUpReadableStreamDefaultController(s *ReadableStream, c *DefaultController, start func() (any, error),
	pull func() Promise, cancel func(any) Promise, hwm float64, size SizeAlgorithm) error {
	h := s.host
	// 1. Assert: stream.[[controller]] is undefined.
	// 2. Set controller.[[stream]] to stream.
	c.stream = s
	// 3. Perform ! ResetQueue(controller).
	resetQueue(&c.queueWithSizes)
	// 4. Set controller.[[started]], controller.[[closeRequested]],
	// controller.[[pullAgain]], and controller.[[pulling]] to false.
	c.started, c.closeRequested, c.pullAgain, c.pulling = false, false, false, false
	// 5. Set controller.[[strategySizeAlgorithm]] to sizeAlgorithm and
	// controller.[[strategyHWM]] to highWaterMark.
	if size == nil {
		size = func(any) (float64, error) { return 1, nil }
	}
	c.strategySizeAlgorithm, c.strategyHWM = size, hwm
	// 6-7. Set controller.[[pullAlgorithm]] and [[cancelAlgorithm]].
	c.pullAlgorithm, c.cancelAlgorithm = pull, cancel
	// 8. Set stream.[[controller]] to controller.
	s.controller = c
	// 9. Let startResult be the result of performing startAlgorithm. (This
	// might throw an exception.)
	startResult, err := start()
	if err != nil {
		return err
	}
	// 10. Let startPromise be a promise resolved with startResult.
	startPromise := h.PromiseResolvedWith(startResult)
	h.React(startPromise, func(any) {
		// 11. Upon fulfillment of startPromise,
		// 11.1. Set controller.[[started]] to true.
		c.started = true
		// 11.2-11.3. Assert: controller.[[pulling]] and
		// controller.[[pullAgain]] are false.
		// 11.4. Perform ! ReadableStreamDefaultControllerCallPullIfNeeded(controller).
		readableStreamDefaultControllerCallPullIfNeeded(c)
	}, func(r any) {
		// 12. Upon rejection of startPromise with reason r,
		// 12.1. Perform ! ReadableStreamDefaultControllerError(controller, r).
		ReadableStreamDefaultControllerError(c, r)
	})
	return nil
}

// CreateReadableStream is
// https://streams.spec.whatwg.org/#create-readable-stream: a stream for
// the host's own use (a fetch body, a tee branch). hwm < 0 stands for
// the default, 1.
func CreateReadableStream(host Host, src UnderlyingSource, hwm float64, size SizeAlgorithm) *ReadableStream {
	// 1. If highWaterMark was not passed, set it to 1.
	if hwm < 0 {
		hwm = 1
	}
	// 2. If sizeAlgorithm was not passed, set it to an algorithm that
	// returns 1. (setUpReadableStreamDefaultController does.)
	// 3. Assert: ! IsNonNegativeNumber(highWaterMark) is true.
	// 4. Let stream be a new ReadableStream.
	s := &ReadableStream{host: host}
	// 5. Perform ! InitializeReadableStream(stream).
	initializeReadableStream(s)
	// 6-7. Let controller be a new ReadableStreamDefaultController and
	// perform ? SetUpReadableStreamDefaultController(...): the host's
	// start algorithm does not throw.
	if err := setUpReadableStreamDefaultControllerFromUnderlyingSource(s, src, hwm, size); err != nil {
		// (Only a start algorithm that throws gets here: the stream is
		// errored with it.)
		ReadableStreamDefaultControllerError(s.controller.(*DefaultController), host.ErrorValue(err))
	}
	// 8. Return stream.
	return s
}

// State is the stream's [[state]].
func (s *ReadableStream) State() State { return s.state }

// StoredError is the stream's [[storedError]] (nil unless errored).
func (s *ReadableStream) StoredError() any { return s.storedError }

// Disturbed is the stream's [[disturbed]]: it has been read or canceled.
func (s *ReadableStream) Disturbed() bool { return s.disturbed }

// DefaultController is the stream's [[controller]] when it is a
// ReadableStreamDefaultController (nil for a byte stream).
func (s *ReadableStream) DefaultController() *DefaultController {
	c, _ := s.controller.(*DefaultController)
	return c
}

// ByteController is the stream's [[controller]] when it is a
// ReadableByteStreamController (nil for a default stream).
func (s *ReadableStream) ByteController() *ByteController {
	c, _ := s.controller.(*ByteController)
	return c
}

// Locked is https://streams.spec.whatwg.org/#rs-locked.
func (s *ReadableStream) Locked() bool {
	// 1. Return ! IsReadableStreamLocked(this).
	return IsReadableStreamLocked(s)
}

// Cancel is https://streams.spec.whatwg.org/#rs-cancel.
func (s *ReadableStream) Cancel(reason any) Promise {
	// 1. If ! IsReadableStreamLocked(this) is true, return a promise
	// rejected with a TypeError exception.
	if IsReadableStreamLocked(s) {
		return s.host.PromiseRejectedWith(s.host.ErrorValue(&TypeError{Msg: "Cannot cancel a locked ReadableStream"}))
	}
	// 2. Return ! ReadableStreamCancel(this, reason).
	return ReadableStreamCancel(s, reason)
}

// GetReader is https://streams.spec.whatwg.org/#rs-get-reader for a
// default reader (the host refuses the "byob" mode).
func (s *ReadableStream) GetReader() (*DefaultReader, error) {
	// 1. If options["mode"] does not exist, return ?
	// AcquireReadableStreamDefaultReader(this).
	return AcquireReadableStreamDefaultReader(s)
}

// Tee is https://streams.spec.whatwg.org/#rs-tee.
func (s *ReadableStream) Tee() (*ReadableStream, *ReadableStream, error) {
	// 1. Return ? ReadableStreamTee(this, false).
	return ReadableStreamTee(s, false)
}

// IsReadableStreamLocked is
// https://streams.spec.whatwg.org/#is-readable-stream-locked.
func IsReadableStreamLocked(s *ReadableStream) bool {
	// 1. If stream.[[reader]] is undefined, return false. 2. Return true.
	return s.reader != nil
}

// ReadableStreamCancel is
// https://streams.spec.whatwg.org/#readable-stream-cancel.
func ReadableStreamCancel(s *ReadableStream, reason any) Promise {
	h := s.host
	// 1. Set stream.[[disturbed]] to true.
	s.disturbed = true
	// 2. If stream.[[state]] is "closed", return a promise resolved with
	// undefined.
	if s.state == Closed {
		return h.PromiseResolvedWith(nil)
	}
	// 3. If stream.[[state]] is "errored", return a promise rejected with
	// stream.[[storedError]].
	if s.state == Errored {
		return h.PromiseRejectedWith(s.storedError)
	}
	// 4. Perform ! ReadableStreamClose(stream).
	readableStreamClose(s)
	// 5. Let reader be stream.[[reader]].
	// 6. If reader is not undefined and reader implements
	// ReadableStreamBYOBReader,
	if reader, ok := s.reader.(*BYOBReader); ok {
		// 6.1. Let readIntoRequests be reader.[[readIntoRequests]].
		readIntoRequests := reader.readIntoRequests
		// 6.2. Set reader.[[readIntoRequests]] to an empty list.
		reader.readIntoRequests = nil
		// 6.3. For each readIntoRequest of readIntoRequests, perform
		// readIntoRequest's close steps, given undefined.
		for _, rr := range readIntoRequests {
			rr.Close(nil)
		}
	}
	// 7. Let sourceCancelPromise be !
	// stream.[[controller]].[[CancelSteps]](reason).
	sourceCancelPromise := s.controller.cancelSteps(reason)
	// 8. Return the result of reacting to sourceCancelPromise with a
	// fulfillment step that returns undefined.
	p := h.NewPromise()
	h.React(sourceCancelPromise, func(any) { p.Resolve(nil) }, func(r any) { p.Reject(r) })
	return p
}

// readableStreamClose is
// https://streams.spec.whatwg.org/#readable-stream-close.
func readableStreamClose(s *ReadableStream) {
	// 1. Assert: stream.[[state]] is "readable".
	// 2. Set stream.[[state]] to "closed".
	s.state = Closed
	// 3. Let reader be stream.[[reader]].
	reader := s.reader
	// 4. If reader is undefined, return.
	if reader == nil {
		return
	}
	// 5. Resolve reader.[[closedPromise]] with undefined.
	reader.generic().closedPromise.Resolve(nil)
	// 6. If reader implements ReadableStreamDefaultReader,
	dr, ok := reader.(*DefaultReader)
	if !ok {
		return
	}
	// 6.1. Let readRequests be reader.[[readRequests]].
	readRequests := dr.readRequests
	// 6.2. Set reader.[[readRequests]] to an empty list.
	dr.readRequests = nil
	// 6.3. For each readRequest of readRequests, perform readRequest's
	// close steps.
	for _, rr := range readRequests {
		rr.Close()
	}
}

// readableStreamError is
// https://streams.spec.whatwg.org/#readable-stream-error.
func readableStreamError(s *ReadableStream, e any) {
	// 1. Assert: stream.[[state]] is "readable".
	// 2. Set stream.[[state]] to "errored".
	s.state = Errored
	// 3. Set stream.[[storedError]] to e.
	s.storedError = e
	// 4. Let reader be stream.[[reader]].
	reader := s.reader
	// 5. If reader is undefined, return.
	if reader == nil {
		return
	}
	// 6. Reject reader.[[closedPromise]] with e.
	reader.generic().closedPromise.Reject(e)
	// 7. Set reader.[[closedPromise]].[[PromiseIsHandled]] to true.
	s.host.MarkHandled(reader.generic().closedPromise)
	switch rd := reader.(type) {
	case *DefaultReader:
		// 8. If reader implements ReadableStreamDefaultReader, perform !
		// ReadableStreamDefaultReaderErrorReadRequests(reader, e).
		readableStreamDefaultReaderErrorReadRequests(rd, e)
	case *BYOBReader:
		// 9. Otherwise, 9.1. Assert: reader implements
		// ReadableStreamBYOBReader. 9.2. Perform !
		// ReadableStreamBYOBReaderErrorReadIntoRequests(reader, e).
		readableStreamBYOBReaderErrorReadIntoRequests(rd, e)
	}
}

// readableStreamAddReadRequest is
// https://streams.spec.whatwg.org/#readable-stream-add-read-request.
func readableStreamAddReadRequest(s *ReadableStream, rr ReadRequest) {
	// 1-2. Assert: stream.[[reader]] implements
	// ReadableStreamDefaultReader; stream.[[state]] is "readable".
	// 3. Append readRequest to stream.[[reader]].[[readRequests]].
	rd := s.reader.(*DefaultReader)
	rd.readRequests = append(rd.readRequests, rr)
}

// readableStreamFulfillReadRequest is
// https://streams.spec.whatwg.org/#readable-stream-fulfill-read-request.
func readableStreamFulfillReadRequest(s *ReadableStream, chunk any, done bool) {
	// 1. Assert: ! ReadableStreamHasDefaultReader(stream) is true.
	// 2. Let reader be stream.[[reader]].
	reader := s.reader.(*DefaultReader)
	// 3. Assert: reader.[[readRequests]] is not empty.
	// 4. Let readRequest be reader.[[readRequests]][0].
	rr := reader.readRequests[0]
	// 5. Remove readRequest from reader.[[readRequests]].
	reader.readRequests[0] = ReadRequest{}
	reader.readRequests = reader.readRequests[1:]
	// 6. If done is true, perform readRequest's close steps.
	if done {
		rr.Close()
		return
	}
	// 7. Otherwise, perform readRequest's chunk steps, given chunk.
	rr.Chunk(chunk)
}

// readableStreamGetNumReadRequests is
// https://streams.spec.whatwg.org/#readable-stream-get-num-read-requests.
func readableStreamGetNumReadRequests(s *ReadableStream) int {
	// 1. Assert: ! ReadableStreamHasDefaultReader(stream) is true.
	// 2. Return stream.[[reader]].[[readRequests]]'s size.
	return len(s.reader.(*DefaultReader).readRequests)
}

// readableStreamHasDefaultReader is
// https://streams.spec.whatwg.org/#readable-stream-has-default-reader.
func readableStreamHasDefaultReader(s *ReadableStream) bool {
	// 1. Let reader be stream.[[reader]]. 2. If reader is undefined,
	// return false. 3. If reader implements ReadableStreamDefaultReader,
	// return true. 4. Return false.
	_, ok := s.reader.(*DefaultReader)
	return ok
}

// ReadableStreamTee is https://streams.spec.whatwg.org/#readable-stream-tee.
func ReadableStreamTee(s *ReadableStream, cloneForBranch2 bool) (*ReadableStream, *ReadableStream, error) {
	// 1-2. Assert: stream implements ReadableStream; cloneForBranch2 is a
	// boolean.
	// 3. If stream.[[controller]] implements ReadableByteStreamController,
	// return ? ReadableByteStreamTee(stream).
	if _, ok := s.controller.(*ByteController); ok {
		return readableByteStreamTee(s)
	}
	// 4. Return ? ReadableStreamDefaultTee(stream, cloneForBranch2).
	return readableStreamDefaultTee(s, cloneForBranch2)
}

// readableStreamDefaultTee is
// https://streams.spec.whatwg.org/#abstract-opdef-readablestreamdefaulttee.
func readableStreamDefaultTee(s *ReadableStream, cloneForBranch2 bool) (*ReadableStream, *ReadableStream, error) {
	h := s.host
	// 1-2. Asserts.
	// 3. Let reader be ? AcquireReadableStreamDefaultReader(stream).
	reader, err := AcquireReadableStreamDefaultReader(s)
	if err != nil {
		return nil, nil, err
	}
	// 4-9. reading, readAgain, canceled1, canceled2 false; reason1,
	// reason2, branch1, branch2 undefined.
	var reading, readAgain, canceled1, canceled2 bool
	var reason1, reason2 any
	var branch1, branch2 *ReadableStream
	// 10. Let cancelPromise be a new promise.
	cancelPromise := h.NewPromise()
	// 11. Let pullAlgorithm be the following steps:
	var pullAlgorithm func(*DefaultController) Promise
	pullAlgorithm = func(*DefaultController) Promise {
		// 11.1. If reading is true,
		if reading {
			// 11.1.1. Set readAgain to true.
			readAgain = true
			// 11.1.2. Return a promise resolved with undefined.
			return h.PromiseResolvedWith(nil)
		}
		// 11.2. Set reading to true.
		reading = true
		// 11.3. Let readRequest be a read request with the following
		// items:
		rr := ReadRequest{
			Chunk: func(chunk any) {
				// chunk steps: Queue a microtask to perform the following
				// steps:
				h.QueueMicrotask(func() {
					// 1. Set readAgain to false.
					readAgain = false
					// 2. Let chunk1 and chunk2 be chunk.
					chunk1, chunk2 := chunk, chunk
					// 3. If canceled2 is false and cloneForBranch2 is true,
					if !canceled2 && cloneForBranch2 {
						// 3.1. Let cloneResult be StructuredClone(chunk2).
						cloneResult, err := h.StructuredClone(chunk2)
						// 3.2. If cloneResult is an abrupt completion,
						if err != nil {
							e := h.ErrorValue(err)
							// 3.2.1. Perform !
							// ReadableStreamDefaultControllerError(branch1.[[controller]],
							// cloneResult.[[Value]]).
							ReadableStreamDefaultControllerError(branch1.DefaultController(), e)
							// 3.2.2. Likewise for branch2.
							ReadableStreamDefaultControllerError(branch2.DefaultController(), e)
							// 3.2.3. Resolve cancelPromise with !
							// ReadableStreamCancel(stream, cloneResult.[[Value]]).
							cancelPromise.Resolve(ReadableStreamCancel(s, e))
							// 3.2.4. Return.
							return
						}
						// 3.3. Otherwise, set chunk2 to cloneResult.[[Value]].
						chunk2 = cloneResult
					}
					// 4. If canceled1 is false, perform !
					// ReadableStreamDefaultControllerEnqueue(branch1.[[controller]], chunk1).
					if !canceled1 {
						_ = ReadableStreamDefaultControllerEnqueue(branch1.DefaultController(), chunk1)
					}
					// 5. If canceled2 is false, perform !
					// ReadableStreamDefaultControllerEnqueue(branch2.[[controller]], chunk2).
					if !canceled2 {
						_ = ReadableStreamDefaultControllerEnqueue(branch2.DefaultController(), chunk2)
					}
					// 6. Set reading to false.
					reading = false
					// 7. If readAgain is true, perform pullAlgorithm.
					if readAgain {
						pullAlgorithm(nil)
					}
				})
			},
			Close: func() {
				// close steps: 1. Set reading to false.
				reading = false
				// 2. If canceled1 is false, perform !
				// ReadableStreamDefaultControllerClose(branch1.[[controller]]).
				if !canceled1 {
					ReadableStreamDefaultControllerClose(branch1.DefaultController())
				}
				// 3. Likewise for branch2.
				if !canceled2 {
					ReadableStreamDefaultControllerClose(branch2.DefaultController())
				}
				// 4. If canceled1 is false or canceled2 is false, resolve
				// cancelPromise with undefined.
				if !canceled1 || !canceled2 {
					cancelPromise.Resolve(nil)
				}
			},
			Error: func(any) {
				// error steps: 1. Set reading to false.
				reading = false
			},
		}
		// 11.4. Perform ! ReadableStreamDefaultReaderRead(reader,
		// readRequest).
		ReadableStreamDefaultReaderRead(reader, rr)
		// 11.5. Return a promise resolved with undefined.
		return h.PromiseResolvedWith(nil)
	}
	// 12. Let cancel1Algorithm be the following steps, taking a reason
	// argument:
	cancel1 := func(reason any) Promise {
		// 12.1. Set canceled1 to true. 12.2. Set reason1 to reason.
		canceled1, reason1 = true, reason
		// 12.3. If canceled2 is true,
		if canceled2 {
			// 12.3.1. Let compositeReason be !
			// CreateArrayFromList(« reason1, reason2 »).
			compositeReason := h.CreateArray([]any{reason1, reason2})
			// 12.3.2. Let cancelResult be ! ReadableStreamCancel(stream,
			// compositeReason).
			cancelResult := ReadableStreamCancel(s, compositeReason)
			// 12.3.3. Resolve cancelPromise with cancelResult.
			cancelPromise.Resolve(cancelResult)
		}
		// 12.4. Return cancelPromise.
		return cancelPromise
	}
	// 13. Let cancel2Algorithm be the following steps, taking a reason
	// argument:
	cancel2 := func(reason any) Promise {
		canceled2, reason2 = true, reason
		if canceled1 {
			compositeReason := h.CreateArray([]any{reason1, reason2})
			cancelPromise.Resolve(ReadableStreamCancel(s, compositeReason))
		}
		return cancelPromise
	}
	// 14. Let startAlgorithm be an algorithm that returns undefined.
	// 15. Set branch1 to ! CreateReadableStream(startAlgorithm,
	// pullAlgorithm, cancel1Algorithm).
	branch1 = CreateReadableStream(h, UnderlyingSource{Pull: pullAlgorithm, Cancel: cancel1}, -1, nil)
	// 16. Set branch2 to ! CreateReadableStream(startAlgorithm,
	// pullAlgorithm, cancel2Algorithm).
	branch2 = CreateReadableStream(h, UnderlyingSource{Pull: pullAlgorithm, Cancel: cancel2}, -1, nil)
	// 17. Upon rejection of reader.[[closedPromise]] with reason r,
	h.React(reader.closedPromise, nil, func(r any) {
		// 17.1. Perform ! ReadableStreamDefaultControllerError(branch1.[[controller]], r).
		ReadableStreamDefaultControllerError(branch1.DefaultController(), r)
		// 17.2. Perform ! ReadableStreamDefaultControllerError(branch2.[[controller]], r).
		ReadableStreamDefaultControllerError(branch2.DefaultController(), r)
		// 17.3. If canceled1 is false or canceled2 is false, resolve
		// cancelPromise with undefined.
		if !canceled1 || !canceled2 {
			cancelPromise.Resolve(nil)
		}
	})
	// 18. Return « branch1, branch2 ».
	return branch1, branch2, nil
}

// DefaultController is
// https://streams.spec.whatwg.org/#readablestreamdefaultcontroller.
type DefaultController struct {
	stream *ReadableStream
	queueWithSizes
	started               bool
	closeRequested        bool
	pullAgain             bool
	pulling               bool
	strategySizeAlgorithm SizeAlgorithm
	strategyHWM           float64
	pullAlgorithm         func() Promise
	cancelAlgorithm       func(any) Promise
}

// DesiredSize is https://streams.spec.whatwg.org/#rs-default-controller-desired-size:
// ok false is null.
func (c *DefaultController) DesiredSize() (size float64, ok bool) {
	// 1. Return ! ReadableStreamDefaultControllerGetDesiredSize(this).
	return readableStreamDefaultControllerGetDesiredSize(c)
}

// Close is https://streams.spec.whatwg.org/#rs-default-controller-close.
func (c *DefaultController) Close() error {
	// 1. If ! ReadableStreamDefaultControllerCanCloseOrEnqueue(this) is
	// false, throw a TypeError exception.
	if !readableStreamDefaultControllerCanCloseOrEnqueue(c) {
		return &TypeError{Msg: "Cannot close a ReadableStream that is closed, errored or closing"}
	}
	// 2. Perform ! ReadableStreamDefaultControllerClose(this).
	ReadableStreamDefaultControllerClose(c)
	return nil
}

// Enqueue is https://streams.spec.whatwg.org/#rs-default-controller-enqueue.
func (c *DefaultController) Enqueue(chunk any) error {
	// 1. If ! ReadableStreamDefaultControllerCanCloseOrEnqueue(this) is
	// false, throw a TypeError exception.
	if !readableStreamDefaultControllerCanCloseOrEnqueue(c) {
		return &TypeError{Msg: "Cannot enqueue a chunk into a ReadableStream that is closed, errored or closing"}
	}
	// 2. Perform ? ReadableStreamDefaultControllerEnqueue(this, chunk).
	return ReadableStreamDefaultControllerEnqueue(c, chunk)
}

// Error is https://streams.spec.whatwg.org/#rs-default-controller-error.
func (c *DefaultController) Error(e any) {
	// 1. Perform ! ReadableStreamDefaultControllerError(this, e).
	ReadableStreamDefaultControllerError(c, e)
}

// cancelSteps is
// https://streams.spec.whatwg.org/#rs-default-controller-private-cancel.
func (c *DefaultController) cancelSteps(reason any) Promise {
	// 1. Perform ! ResetQueue(this).
	resetQueue(&c.queueWithSizes)
	// 2. Let result be the result of performing this.[[cancelAlgorithm]],
	// passing reason.
	result := c.cancelAlgorithm(reason)
	// 3. Perform ! ReadableStreamDefaultControllerClearAlgorithms(this).
	readableStreamDefaultControllerClearAlgorithms(c)
	// 4. Return result.
	return result
}

// pullSteps is
// https://streams.spec.whatwg.org/#rs-default-controller-private-pull.
func (c *DefaultController) pullSteps(rr ReadRequest) {
	// 1. Let stream be this.[[stream]].
	s := c.stream
	// 2. If this.[[queue]] is not empty,
	if len(c.queue) > 0 {
		// 2.1. Let chunk be ! DequeueValue(this).
		chunk := dequeueValue(&c.queueWithSizes)
		// 2.2. If this.[[closeRequested]] is true and this.[[queue]] is
		// empty,
		if c.closeRequested && len(c.queue) == 0 {
			// 2.2.1. Perform ! ReadableStreamDefaultControllerClearAlgorithms(this).
			readableStreamDefaultControllerClearAlgorithms(c)
			// 2.2.2. Perform ! ReadableStreamClose(stream).
			readableStreamClose(s)
		} else {
			// 2.3. Otherwise, perform !
			// ReadableStreamDefaultControllerCallPullIfNeeded(this).
			readableStreamDefaultControllerCallPullIfNeeded(c)
		}
		// 2.4. Perform readRequest's chunk steps, given chunk.
		rr.Chunk(chunk)
		return
	}
	// 3. Otherwise,
	// 3.1. Perform ! ReadableStreamAddReadRequest(stream, readRequest).
	readableStreamAddReadRequest(s, rr)
	// 3.2. Perform ! ReadableStreamDefaultControllerCallPullIfNeeded(this).
	readableStreamDefaultControllerCallPullIfNeeded(c)
}

// releaseSteps is
// https://streams.spec.whatwg.org/#abstract-opdef-readablestreamdefaultcontroller-releasesteps.
func (c *DefaultController) releaseSteps() {
	// 1. Return.
}

// readableStreamDefaultControllerCallPullIfNeeded is
// https://streams.spec.whatwg.org/#readable-stream-default-controller-call-pull-if-needed.
func readableStreamDefaultControllerCallPullIfNeeded(c *DefaultController) {
	// 1. Let shouldPull be !
	// ReadableStreamDefaultControllerShouldCallPull(controller).
	// 2. If shouldPull is false, return.
	if !readableStreamDefaultControllerShouldCallPull(c) {
		return
	}
	// 3. If controller.[[pulling]] is true,
	if c.pulling {
		// 3.1. Set controller.[[pullAgain]] to true. 3.2. Return.
		c.pullAgain = true
		return
	}
	// 4. Assert: controller.[[pullAgain]] is false.
	// 5. Set controller.[[pulling]] to true.
	c.pulling = true
	// 6. Let pullPromise be the result of performing
	// controller.[[pullAlgorithm]].
	pullPromise := c.pullAlgorithm()
	c.stream.host.React(pullPromise, func(any) {
		// 7. Upon fulfillment of pullPromise,
		// 7.1. Set controller.[[pulling]] to false.
		c.pulling = false
		// 7.2. If controller.[[pullAgain]] is true,
		if c.pullAgain {
			// 7.2.1. Set controller.[[pullAgain]] to false.
			c.pullAgain = false
			// 7.2.2. Perform !
			// ReadableStreamDefaultControllerCallPullIfNeeded(controller).
			readableStreamDefaultControllerCallPullIfNeeded(c)
		}
	}, func(e any) {
		// 8. Upon rejection of pullPromise with reason e,
		// 8.1. Perform ! ReadableStreamDefaultControllerError(controller, e).
		ReadableStreamDefaultControllerError(c, e)
	})
}

// readableStreamDefaultControllerShouldCallPull is
// https://streams.spec.whatwg.org/#readable-stream-default-controller-should-call-pull.
func readableStreamDefaultControllerShouldCallPull(c *DefaultController) bool {
	// 1. Let stream be controller.[[stream]].
	s := c.stream
	// 2. If ! ReadableStreamDefaultControllerCanCloseOrEnqueue(controller)
	// is false, return false.
	if !readableStreamDefaultControllerCanCloseOrEnqueue(c) {
		return false
	}
	// 3. If controller.[[started]] is false, return false.
	if !c.started {
		return false
	}
	// 4. If ! IsReadableStreamLocked(stream) is true and !
	// ReadableStreamGetNumReadRequests(stream) > 0, return true.
	if IsReadableStreamLocked(s) && readableStreamGetNumReadRequests(s) > 0 {
		return true
	}
	// 5. Let desiredSize be !
	// ReadableStreamDefaultControllerGetDesiredSize(controller).
	desiredSize, _ := readableStreamDefaultControllerGetDesiredSize(c)
	// 6. Assert: desiredSize is not null.
	// 7. If desiredSize > 0, return true. 8. Return false.
	return desiredSize > 0
}

// readableStreamDefaultControllerClearAlgorithms is
// https://streams.spec.whatwg.org/#readable-stream-default-controller-clear-algorithms.
func readableStreamDefaultControllerClearAlgorithms(c *DefaultController) {
	// 1-3. Set the pull, cancel and size algorithms to undefined (they
	// hold the underlying source; what stands in for undefined does
	// nothing).
	h := c.stream.host
	c.pullAlgorithm = func() Promise { return h.PromiseResolvedWith(nil) }
	c.cancelAlgorithm = func(any) Promise { return h.PromiseResolvedWith(nil) }
	c.strategySizeAlgorithm = func(any) (float64, error) { return 1, nil }
}

// ReadableStreamDefaultControllerClose is
// https://streams.spec.whatwg.org/#readable-stream-default-controller-close.
func ReadableStreamDefaultControllerClose(c *DefaultController) {
	// 1. If ! ReadableStreamDefaultControllerCanCloseOrEnqueue(controller)
	// is false, return.
	if !readableStreamDefaultControllerCanCloseOrEnqueue(c) {
		return
	}
	// 2. Let stream be controller.[[stream]].
	s := c.stream
	// 3. Set controller.[[closeRequested]] to true.
	c.closeRequested = true
	// 4. If controller.[[queue]] is empty,
	if len(c.queue) == 0 {
		// 4.1. Perform ! ReadableStreamDefaultControllerClearAlgorithms(controller).
		readableStreamDefaultControllerClearAlgorithms(c)
		// 4.2. Perform ! ReadableStreamClose(stream).
		readableStreamClose(s)
	}
}

// ReadableStreamDefaultControllerEnqueue is
// https://streams.spec.whatwg.org/#readable-stream-default-controller-enqueue.
func ReadableStreamDefaultControllerEnqueue(c *DefaultController, chunk any) error {
	// 1. If ! ReadableStreamDefaultControllerCanCloseOrEnqueue(controller)
	// is false, return.
	if !readableStreamDefaultControllerCanCloseOrEnqueue(c) {
		return nil
	}
	// 2. Let stream be controller.[[stream]].
	s := c.stream
	// 3. If ! IsReadableStreamLocked(stream) is true and !
	// ReadableStreamGetNumReadRequests(stream) > 0, perform !
	// ReadableStreamFulfillReadRequest(stream, chunk, false).
	if IsReadableStreamLocked(s) && readableStreamGetNumReadRequests(s) > 0 {
		readableStreamFulfillReadRequest(s, chunk, false)
	} else {
		// 4. Otherwise,
		// 4.1. Let result be the result of performing
		// controller.[[strategySizeAlgorithm]], passing in chunk.
		size, err := c.strategySizeAlgorithm(chunk)
		// 4.2. If result is an abrupt completion,
		if err != nil {
			// 4.2.1. Perform ! ReadableStreamDefaultControllerError(controller,
			// result.[[Value]]). 4.2.2. Return result.
			ReadableStreamDefaultControllerError(c, s.host.ErrorValue(err))
			return err
		}
		// 4.3. Let chunkSize be result.[[Value]].
		// 4.4. Let enqueueResult be EnqueueValueWithSize(controller, chunk,
		// chunkSize).
		// 4.5. If enqueueResult is an abrupt completion,
		if err := enqueueValueWithSize(&c.queueWithSizes, chunk, size); err != nil {
			// 4.5.1. Perform ! ReadableStreamDefaultControllerError(controller,
			// enqueueResult.[[Value]]). 4.5.2. Return enqueueResult.
			ReadableStreamDefaultControllerError(c, s.host.ErrorValue(err))
			return err
		}
	}
	// 5. Perform ! ReadableStreamDefaultControllerCallPullIfNeeded(controller).
	readableStreamDefaultControllerCallPullIfNeeded(c)
	return nil
}

// ReadableStreamDefaultControllerError is
// https://streams.spec.whatwg.org/#readable-stream-default-controller-error.
func ReadableStreamDefaultControllerError(c *DefaultController, e any) {
	// 1. Let stream be controller.[[stream]].
	s := c.stream
	// 2. If stream.[[state]] is not "readable", return.
	if s.state != Readable {
		return
	}
	// 3. Perform ! ResetQueue(controller).
	resetQueue(&c.queueWithSizes)
	// 4. Perform ! ReadableStreamDefaultControllerClearAlgorithms(controller).
	readableStreamDefaultControllerClearAlgorithms(c)
	// 5. Perform ! ReadableStreamError(stream, e).
	readableStreamError(s, e)
}

// readableStreamDefaultControllerGetDesiredSize is
// https://streams.spec.whatwg.org/#readable-stream-default-controller-get-desired-size.
func readableStreamDefaultControllerGetDesiredSize(c *DefaultController) (float64, bool) {
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
	return c.strategyHWM - c.queueTotalSize, true
}

// readableStreamDefaultControllerCanCloseOrEnqueue is
// https://streams.spec.whatwg.org/#readable-stream-default-controller-can-close-or-enqueue.
func readableStreamDefaultControllerCanCloseOrEnqueue(c *DefaultController) bool {
	// 1. Let state be controller.[[stream]].[[state]].
	// 2. If controller.[[closeRequested]] is false and state is
	// "readable", return true. 3. Otherwise, return false.
	return !c.closeRequested && c.stream.state == Readable
}

// enqueueValueWithSize is
// https://streams.spec.whatwg.org/#enqueue-value-with-size.
func enqueueValueWithSize(c *queueWithSizes, value any, size float64) error {
	// 1. Assert: container has [[queue]] and [[queueTotalSize]] internal
	// slots.
	// 2. If ! IsNonNegativeNumber(size) is false, throw a RangeError
	// exception.
	if !isNonNegativeNumber(size) {
		return &RangeError{Msg: "The chunk's size must be a non-negative number"}
	}
	// 3. If size is +∞, throw a RangeError exception.
	if math.IsInf(size, 1) {
		return &RangeError{Msg: "The chunk's size must be finite"}
	}
	// 4. Append a new value-with-size with value value and size size to
	// container.[[queue]].
	c.queue = append(c.queue, queueEntry{value: value, size: size})
	// 5. Set container.[[queueTotalSize]] to container.[[queueTotalSize]]
	// + size.
	c.queueTotalSize += size
	return nil
}

// dequeueValue is https://streams.spec.whatwg.org/#dequeue-value.
func dequeueValue(c *queueWithSizes) any {
	// 1-2. Asserts: container has the slots; its queue is not empty.
	// 3. Let valueWithSize be container.[[queue]][0].
	e := c.queue[0]
	// 4. Remove valueWithSize from container.[[queue]].
	c.queue[0] = queueEntry{}
	c.queue = c.queue[1:]
	// 5. Set container.[[queueTotalSize]] to container.[[queueTotalSize]]
	// − valueWithSize's size.
	c.queueTotalSize -= e.size
	// 6. If container.[[queueTotalSize]] < 0, set it to 0. (This can
	// occur due to rounding errors.)
	if c.queueTotalSize < 0 {
		c.queueTotalSize = 0
	}
	// 7. Return valueWithSize's value.
	return e.value
}

// resetQueue is https://streams.spec.whatwg.org/#reset-queue.
func resetQueue(c *queueWithSizes) {
	// 1. Assert: container has [[queue]] and [[queueTotalSize]] internal
	// slots.
	// 2. Set container.[[queue]] to a new empty list.
	c.queue = nil
	// 3. Set container.[[queueTotalSize]] to 0.
	c.queueTotalSize = 0
}
