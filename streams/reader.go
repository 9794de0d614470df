package streams

// ReadRequest is https://streams.spec.whatwg.org/#read-request: exactly
// one of its steps runs, once.
type ReadRequest struct {
	Chunk func(chunk any)
	Close func()
	Error func(e any)
}

// genericReader is the slots both readers have
// (https://streams.spec.whatwg.org/#readablestreamgenericreader).
type genericReader struct {
	host          Host
	stream        *ReadableStream // nil once released
	closedPromise Promise
}

func (r *genericReader) generic() *genericReader { return r }

// reader is a ReadableStreamDefaultReader or a ReadableStreamBYOBReader.
type reader interface{ generic() *genericReader }

// DefaultReader is
// https://streams.spec.whatwg.org/#readablestreamdefaultreader.
type DefaultReader struct {
	genericReader
	readRequests []ReadRequest
}

// NewDefaultReader is
// https://streams.spec.whatwg.org/#default-reader-constructor.
func NewDefaultReader(s *ReadableStream) (*DefaultReader, error) {
	// 1. Perform ? SetUpReadableStreamDefaultReader(this, stream).
	r := &DefaultReader{genericReader: genericReader{host: s.host}}
	if err := setUpReadableStreamDefaultReader(r, s); err != nil {
		return nil, err
	}
	return r, nil
}

// AcquireReadableStreamDefaultReader is
// https://streams.spec.whatwg.org/#acquire-readable-stream-reader.
func AcquireReadableStreamDefaultReader(s *ReadableStream) (*DefaultReader, error) {
	// 1. Let reader be a new ReadableStreamDefaultReader.
	// 2. Perform ? SetUpReadableStreamDefaultReader(reader, stream).
	// 3. Return reader.
	return NewDefaultReader(s)
}

// setUpReadableStreamDefaultReader is
// https://streams.spec.whatwg.org/#set-up-readable-stream-default-reader.
func setUpReadableStreamDefaultReader(r *DefaultReader, s *ReadableStream) error {
	// 1. If ! IsReadableStreamLocked(stream) is true, throw a TypeError
	// exception.
	if IsReadableStreamLocked(s) {
		return &TypeError{Msg: "ReadableStreamDefaultReader constructor can only accept readable streams that are not yet locked to a reader"}
	}
	// 2. Perform ! ReadableStreamReaderGenericInitialize(reader, stream).
	readableStreamReaderGenericInitialize(r, &r.genericReader, s)
	// 3. Set reader.[[readRequests]] to a new empty list.
	r.readRequests = nil
	return nil
}

// readableStreamReaderGenericInitialize is
// https://streams.spec.whatwg.org/#readable-stream-reader-generic-initialize.
func readableStreamReaderGenericInitialize(rd reader, r *genericReader, s *ReadableStream) {
	h := s.host
	// 1. Set reader.[[stream]] to stream.
	r.stream = s
	// 2. Set stream.[[reader]] to reader.
	s.reader = rd
	switch s.state {
	case Readable:
		// 3. If stream.[[state]] is "readable", set
		// reader.[[closedPromise]] to a new promise.
		r.closedPromise = h.NewPromise()
	case Closed:
		// 4. Otherwise, if stream.[[state]] is "closed", set
		// reader.[[closedPromise]] to a promise resolved with undefined.
		r.closedPromise = h.PromiseResolvedWith(nil)
	default:
		// 5. Otherwise: 5.1-5.2. Assert: stream.[[state]] is "errored".
		// Set reader.[[closedPromise]] to a promise rejected with
		// stream.[[storedError]].
		r.closedPromise = h.PromiseRejectedWith(s.storedError)
		// 5.3. Set reader.[[closedPromise]].[[PromiseIsHandled]] to true.
		h.MarkHandled(r.closedPromise)
	}
}

// Stream is the reader's [[stream]]: nil once the reader is released.
func (r *genericReader) Stream() *ReadableStream { return r.stream }

// Closed is https://streams.spec.whatwg.org/#generic-reader-closed.
func (r *genericReader) Closed() Promise {
	// 1. Return this.[[closedPromise]].
	return r.closedPromise
}

// Read is https://streams.spec.whatwg.org/#default-reader-read with
// the host's read request: the host makes the promise and the
// {value, done} results. It returns a TypeError (step 1) when the reader
// is released.
func (r *DefaultReader) Read(rr ReadRequest) error {
	// 1. If this.[[stream]] is undefined, return a promise rejected with a
	// TypeError exception.
	if r.stream == nil {
		return &TypeError{Msg: "This readable stream reader has been released and cannot be used to read from its previous owner stream"}
	}
	// 2-4. (The host's promise and read request.)
	// 5. Perform ! ReadableStreamDefaultReaderRead(this, readRequest).
	ReadableStreamDefaultReaderRead(r, rr)
	// 6. Return promise.
	return nil
}

// ReleaseLock is https://streams.spec.whatwg.org/#default-reader-release-lock.
func (r *DefaultReader) ReleaseLock() {
	// 1. If this.[[stream]] is undefined, return.
	if r.stream == nil {
		return
	}
	// 2. Perform ! ReadableStreamDefaultReaderRelease(this).
	readableStreamDefaultReaderRelease(r)
}

// Cancel is https://streams.spec.whatwg.org/#generic-reader-cancel.
func (r *genericReader) Cancel(reason any) Promise {
	h := r.host
	// 1. If this.[[stream]] is undefined, return a promise rejected with a
	// TypeError exception.
	if r.stream == nil {
		return h.PromiseRejectedWith(h.ErrorValue(&TypeError{Msg: "This readable stream reader has been released and cannot be used to cancel its previous owner stream"}))
	}
	// 2. Return ! ReadableStreamReaderGenericCancel(this, reason).
	return readableStreamReaderGenericCancel(r, reason)
}

// readableStreamReaderGenericCancel is
// https://streams.spec.whatwg.org/#readable-stream-reader-generic-cancel.
func readableStreamReaderGenericCancel(r *genericReader, reason any) Promise {
	// 1. Let stream be reader.[[stream]]. 2. Assert: stream is not
	// undefined.
	// 3. Return ! ReadableStreamCancel(stream, reason).
	return ReadableStreamCancel(r.stream, reason)
}

// readableStreamReaderGenericRelease is
// https://streams.spec.whatwg.org/#readable-stream-reader-generic-release.
func readableStreamReaderGenericRelease(r *genericReader) {
	// 1. Let stream be reader.[[stream]].
	s := r.stream
	h := s.host
	// 2-3. Assert: stream is not undefined; stream.[[reader]] is reader.
	released := &TypeError{Msg: "Releasing the reader's lock"}
	if s.state == Readable {
		// 4. If stream.[[state]] is "readable", reject
		// reader.[[closedPromise]] with a TypeError exception.
		r.closedPromise.Reject(h.ErrorValue(released))
	} else {
		// 5. Otherwise, set reader.[[closedPromise]] to a promise rejected
		// with a TypeError exception.
		r.closedPromise = h.PromiseRejectedWith(h.ErrorValue(released))
	}
	// 6. Set reader.[[closedPromise]].[[PromiseIsHandled]] to true.
	h.MarkHandled(r.closedPromise)
	// 7. Perform ! stream.[[controller]].[[ReleaseSteps]]().
	s.controller.releaseSteps()
	// 8. Set stream.[[reader]] to undefined.
	s.reader = nil
	// 9. Set reader.[[stream]] to undefined.
	r.stream = nil
}

// readableStreamDefaultReaderRelease is
// https://streams.spec.whatwg.org/#abstract-opdef-readablestreamdefaultreaderrelease.
func readableStreamDefaultReaderRelease(r *DefaultReader) {
	h := r.stream.host
	// 1. Perform ! ReadableStreamReaderGenericRelease(reader).
	readableStreamReaderGenericRelease(&r.genericReader)
	// 2. Let e be a new TypeError exception.
	e := h.ErrorValue(&TypeError{Msg: "Releasing the reader's lock"})
	// 3. Perform ! ReadableStreamDefaultReaderErrorReadRequests(reader, e).
	readableStreamDefaultReaderErrorReadRequests(r, e)
}

// readableStreamDefaultReaderErrorReadRequests is
// https://streams.spec.whatwg.org/#abstract-opdef-readablestreamdefaultreadererrorreadrequests.
func readableStreamDefaultReaderErrorReadRequests(r *DefaultReader, e any) {
	// 1. Let readRequests be reader.[[readRequests]].
	readRequests := r.readRequests
	// 2. Set reader.[[readRequests]] to a new empty list.
	r.readRequests = nil
	// 3. For each readRequest of readRequests, perform readRequest's
	// error steps, given e.
	for _, rr := range readRequests {
		rr.Error(e)
	}
}

// ReadableStreamDefaultReaderRead is
// https://streams.spec.whatwg.org/#readable-stream-default-reader-read.
func ReadableStreamDefaultReaderRead(r *DefaultReader, rr ReadRequest) {
	// 1. Let stream be reader.[[stream]]. 2. Assert: stream is not
	// undefined.
	s := r.stream
	// 3. Set stream.[[disturbed]] to true.
	s.disturbed = true
	switch s.state {
	case Closed:
		// 4. If stream.[[state]] is "closed", perform readRequest's close
		// steps.
		rr.Close()
	case Errored:
		// 5. Otherwise, if stream.[[state]] is "errored", perform
		// readRequest's error steps given stream.[[storedError]].
		rr.Error(s.storedError)
	default:
		// 6. Otherwise: 6.1. Assert: stream.[[state]] is "readable".
		// 6.2. Perform ! stream.[[controller]].[[PullSteps]](readRequest).
		s.controller.pullSteps(rr)
	}
}
