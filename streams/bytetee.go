package streams

// readableByteStreamTee is
// https://streams.spec.whatwg.org/#abstract-opdef-readablebytestreamtee.
func readableByteStreamTee(s *ReadableStream) (*ReadableStream, *ReadableStream, error) {
	h := s.host
	// 1-2. Asserts.
	// 3. Let reader be ? AcquireReadableStreamDefaultReader(stream).
	dr, err := AcquireReadableStreamDefaultReader(s)
	if err != nil {
		return nil, nil, err
	}
	// (cur is the standard's variable reader.)
	var cur reader = dr
	// 4-12. reading, readAgainForBranch1, readAgainForBranch2, canceled1,
	// canceled2 false; reason1, reason2, branch1, branch2 undefined.
	var reading, readAgainForBranch1, readAgainForBranch2, canceled1, canceled2 bool
	var reason1, reason2 any
	var branch1, branch2 *ReadableStream
	// 13. Let cancelPromise be a new promise.
	cancelPromise := h.NewPromise()
	ctl := func(b *ReadableStream) *ByteController { return b.controller.(*ByteController) }
	// errorBoth and cancelWith are the steps for a failed clone.
	cloneFailed := func(e any) {
		readableByteStreamControllerError(ctl(branch1), e)
		readableByteStreamControllerError(ctl(branch2), e)
		cancelPromise.Resolve(ReadableStreamCancel(s, e))
	}
	// 14. Let forwardReaderError be the following steps, taking a
	// thisReader argument:
	forwardReaderError := func(thisReader reader) {
		// 14.1. Upon rejection of thisReader.[[closedPromise]] with reason r,
		h.React(thisReader.generic().closedPromise, nil, func(r any) {
			// 14.1.1. If thisReader is not reader, return.
			if thisReader != cur {
				return
			}
			// 14.1.2-14.1.3. Perform ! ReadableByteStreamControllerError
			// of both branches' controllers with r.
			readableByteStreamControllerError(ctl(branch1), r)
			readableByteStreamControllerError(ctl(branch2), r)
			// 14.1.4. If canceled1 is false or canceled2 is false, resolve
			// cancelPromise with undefined.
			if !canceled1 || !canceled2 {
				cancelPromise.Resolve(nil)
			}
		})
	}
	var pull1Algorithm, pull2Algorithm func(*ByteController) Promise
	// 15. Let pullWithDefaultReader be the following steps:
	pullWithDefaultReader := func() {
		// 15.1. If reader implements ReadableStreamBYOBReader,
		if br, ok := cur.(*BYOBReader); ok {
			// 15.1.1. Assert: reader.[[readIntoRequests]] is empty.
			// 15.1.2. Perform ! ReadableStreamBYOBReaderRelease(reader).
			readableStreamBYOBReaderRelease(br)
			// 15.1.3. Set reader to ! AcquireReadableStreamDefaultReader(stream).
			nr, _ := AcquireReadableStreamDefaultReader(s)
			cur = nr
			// 15.1.4. Perform forwardReaderError, given reader.
			forwardReaderError(cur)
		}
		// 15.2. Let readRequest be a read request with the following items:
		rr := ReadRequest{
			// chunk steps, given chunk: Queue a microtask to perform the
			// following steps:
			Chunk: func(chunk any) {
				h.QueueMicrotask(func() {
					// 1-2. Set readAgainForBranch1 and readAgainForBranch2 to false.
					readAgainForBranch1, readAgainForBranch2 = false, false
					// 3. Let chunk1 and chunk2 be chunk.
					view, err := h.ViewOf(chunk)
					if err != nil {
						cloneFailed(h.ErrorValue(err))
						return
					}
					chunk1, chunk2 := view, view
					// 4. If canceled1 is false and canceled2 is false,
					if !canceled1 && !canceled2 {
						// 4.1. Let cloneResult be CloneAsUint8Array(chunk).
						clone, err := cloneAsUint8Array(h, view)
						// 4.2. If cloneResult is an abrupt completion, error
						// both branches, resolve cancelPromise with !
						// ReadableStreamCancel(stream, cloneResult.[[Value]])
						// and return.
						if err != nil {
							cloneFailed(h.ErrorValue(err))
							return
						}
						// 4.3. Otherwise, set chunk2 to cloneResult.[[Value]].
						chunk2 = clone
					}
					// 5. If canceled1 is false, perform !
					// ReadableByteStreamControllerEnqueue(branch1.[[controller]], chunk1).
					if !canceled1 {
						_ = readableByteStreamControllerEnqueue(ctl(branch1), chunk1)
					}
					// 6. If canceled2 is false, perform !
					// ReadableByteStreamControllerEnqueue(branch2.[[controller]], chunk2).
					if !canceled2 {
						_ = readableByteStreamControllerEnqueue(ctl(branch2), chunk2)
					}
					// 7. Set reading to false.
					reading = false
					// 8. If readAgainForBranch1 is true, perform pull1Algorithm.
					// 9. Otherwise, if readAgainForBranch2 is true, perform
					// pull2Algorithm.
					if readAgainForBranch1 {
						pull1Algorithm(nil)
					} else if readAgainForBranch2 {
						pull2Algorithm(nil)
					}
				})
			},
			// close steps:
			Close: func() {
				// 1. Set reading to false.
				reading = false
				// 2-3. If canceled1 (canceled2) is false, perform !
				// ReadableByteStreamControllerClose of the branch's controller.
				if !canceled1 {
					_ = readableByteStreamControllerClose(ctl(branch1))
				}
				if !canceled2 {
					_ = readableByteStreamControllerClose(ctl(branch2))
				}
				// 4-5. If a branch's controller's pendingPullIntos is not
				// empty, perform ! ReadableByteStreamControllerRespond(it, 0).
				if len(ctl(branch1).pendingPullIntos) > 0 {
					_ = readableByteStreamControllerRespond(ctl(branch1), 0)
				}
				if len(ctl(branch2).pendingPullIntos) > 0 {
					_ = readableByteStreamControllerRespond(ctl(branch2), 0)
				}
				// 6. If canceled1 is false or canceled2 is false, resolve
				// cancelPromise with undefined.
				if !canceled1 || !canceled2 {
					cancelPromise.Resolve(nil)
				}
			},
			// error steps: 1. Set reading to false.
			Error: func(any) { reading = false },
		}
		// 15.3. Perform ! ReadableStreamDefaultReaderRead(reader, readRequest).
		ReadableStreamDefaultReaderRead(cur.(*DefaultReader), rr)
	}
	// 16. Let pullWithBYOBReader be the following steps, given view and
	// forBranch2:
	pullWithBYOBReader := func(view ArrayBufferView, forBranch2 bool) {
		// 16.1. If reader implements ReadableStreamDefaultReader,
		if d, ok := cur.(*DefaultReader); ok {
			// 16.1.1. Assert: reader.[[readRequests]] is empty.
			// 16.1.2. Perform ! ReadableStreamDefaultReaderRelease(reader).
			readableStreamDefaultReaderRelease(d)
			// 16.1.3. Set reader to ! AcquireReadableStreamBYOBReader(stream).
			nr, _ := AcquireReadableStreamBYOBReader(s)
			cur = nr
			// 16.1.4. Perform forwardReaderError, given reader.
			forwardReaderError(cur)
		}
		// 16.2. Let byobBranch be branch2 if forBranch2 is true, and
		// branch1 otherwise. 16.3. Let otherBranch be the other.
		byobBranch, otherBranch := branch1, branch2
		if forBranch2 {
			byobBranch, otherBranch = branch2, branch1
		}
		canceledOf := func() (byobCanceled, otherCanceled bool) {
			if forBranch2 {
				return canceled2, canceled1
			}
			return canceled1, canceled2
		}
		// 16.4. Let readIntoRequest be a read-into request with the
		// following items:
		rir := ReadIntoRequest{
			// chunk steps, given chunk: Queue a microtask to perform the
			// following steps:
			Chunk: func(chunk any) {
				h.QueueMicrotask(func() {
					// 1. Set readAgainForBranch1 and readAgainForBranch2 to false.
					readAgainForBranch1, readAgainForBranch2 = false, false
					// 2-3. Let byobCanceled and otherCanceled be the branches'
					// canceled flags.
					byobCanceled, otherCanceled := canceledOf()
					v, err := h.ViewOf(chunk)
					if err != nil {
						cloneFailed(h.ErrorValue(err))
						return
					}
					if !otherCanceled {
						// 4. If otherCanceled is false,
						// 4.1. Let cloneResult be CloneAsUint8Array(chunk).
						clone, err := cloneAsUint8Array(h, v)
						// 4.2. If cloneResult is an abrupt completion, error
						// both branches, resolve cancelPromise with the
						// cancellation, and return.
						if err != nil {
							cloneFailed(h.ErrorValue(err))
							return
						}
						// 4.3. Otherwise, let clonedChunk be cloneResult.[[Value]].
						// 4.4. If byobCanceled is false, perform !
						// ReadableByteStreamControllerRespondWithNewView(byobBranch.[[controller]], chunk).
						if !byobCanceled {
							_ = readableByteStreamControllerRespondWithNewView(ctl(byobBranch), v)
						}
						// 4.5. Perform ! ReadableByteStreamControllerEnqueue(otherBranch.[[controller]], clonedChunk).
						_ = readableByteStreamControllerEnqueue(ctl(otherBranch), clone)
					} else if !byobCanceled {
						// 5. Otherwise, if byobCanceled is false, perform !
						// ReadableByteStreamControllerRespondWithNewView(byobBranch.[[controller]], chunk).
						_ = readableByteStreamControllerRespondWithNewView(ctl(byobBranch), v)
					}
					// 6. Set reading to false.
					reading = false
					// 7-8. If readAgainForBranch1 is true, perform
					// pull1Algorithm; otherwise, if readAgainForBranch2 is
					// true, perform pull2Algorithm.
					if readAgainForBranch1 {
						pull1Algorithm(nil)
					} else if readAgainForBranch2 {
						pull2Algorithm(nil)
					}
				})
			},
			// close steps, given chunk:
			Close: func(chunk any) {
				// 1. Set reading to false.
				reading = false
				// 2-3. byobCanceled and otherCanceled.
				byobCanceled, otherCanceled := canceledOf()
				// 4. If byobCanceled is false, perform !
				// ReadableByteStreamControllerClose(byobBranch.[[controller]]).
				if !byobCanceled {
					_ = readableByteStreamControllerClose(ctl(byobBranch))
				}
				// 5. If otherCanceled is false, perform !
				// ReadableByteStreamControllerClose(otherBranch.[[controller]]).
				if !otherCanceled {
					_ = readableByteStreamControllerClose(ctl(otherBranch))
				}
				// 6. If chunk is not undefined,
				if chunk != nil {
					// 6.1. Assert: chunk.[[ByteLength]] is 0.
					// 6.2. If byobCanceled is false, perform !
					// ReadableByteStreamControllerRespondWithNewView(byobBranch.[[controller]], chunk).
					if v, err := h.ViewOf(chunk); err == nil && !byobCanceled {
						_ = readableByteStreamControllerRespondWithNewView(ctl(byobBranch), v)
					}
					// 6.3. If otherCanceled is false and
					// otherBranch.[[controller]].[[pendingPullIntos]] is not
					// empty, perform ! ReadableByteStreamControllerRespond(otherBranch.[[controller]], 0).
					if !otherCanceled && len(ctl(otherBranch).pendingPullIntos) > 0 {
						_ = readableByteStreamControllerRespond(ctl(otherBranch), 0)
					}
				}
				// 7. If byobCanceled is false or otherCanceled is false,
				// resolve cancelPromise with undefined.
				if !byobCanceled || !otherCanceled {
					cancelPromise.Resolve(nil)
				}
			},
			// error steps: 1. Set reading to false.
			Error: func(any) { reading = false },
		}
		// 16.5. Perform ! ReadableStreamBYOBReaderRead(reader, view, 1, readIntoRequest).
		readableStreamBYOBReaderRead(cur.(*BYOBReader), view, 1, rir)
	}
	// pullAlgorithm is pull1Algorithm (17) or pull2Algorithm (18).
	pullAlgorithm := func(forBranch2 bool) func(*ByteController) Promise {
		return func(*ByteController) Promise {
			// 17.1. If reading is true,
			if reading {
				// 17.1.1. Set readAgainForBranch1 (readAgainForBranch2) to
				// true. 17.1.2. Return a promise resolved with undefined.
				if forBranch2 {
					readAgainForBranch2 = true
				} else {
					readAgainForBranch1 = true
				}
				return h.PromiseResolvedWith(nil)
			}
			// 17.2. Set reading to true.
			reading = true
			// 17.3. Let byobRequest be ! ReadableByteStreamControllerGetBYOBRequest(branch1.[[controller]]).
			branch := branch1
			if forBranch2 {
				branch = branch2
			}
			byobRequest := readableByteStreamControllerGetBYOBRequest(ctl(branch))
			if byobRequest == nil {
				// 17.4. If byobRequest is null, perform pullWithDefaultReader.
				pullWithDefaultReader()
			} else {
				// 17.5. Otherwise, perform pullWithBYOBReader, given
				// byobRequest.[[view]] and false.
				pullWithBYOBReader(*byobRequest.view, forBranch2)
			}
			// 17.6. Return a promise resolved with undefined.
			return h.PromiseResolvedWith(nil)
		}
	}
	pull1Algorithm, pull2Algorithm = pullAlgorithm(false), pullAlgorithm(true)
	// 19. Let cancel1Algorithm be the following steps, taking a reason
	// argument:
	cancel1 := func(reason any) Promise {
		// 19.1. Set canceled1 to true. 19.2. Set reason1 to reason.
		canceled1, reason1 = true, reason
		// 19.3. If canceled2 is true, 19.3.1. Let compositeReason be !
		// CreateArrayFromList(« reason1, reason2 »). 19.3.2. Let
		// cancelResult be ! ReadableStreamCancel(stream,
		// compositeReason). 19.3.3. Resolve cancelPromise with
		// cancelResult.
		if canceled2 {
			cancelPromise.Resolve(ReadableStreamCancel(s, h.CreateArray([]any{reason1, reason2})))
		}
		// 19.4. Return cancelPromise.
		return cancelPromise
	}
	// 20. Let cancel2Algorithm be the same for branch 2.
	cancel2 := func(reason any) Promise {
		canceled2, reason2 = true, reason
		if canceled1 {
			cancelPromise.Resolve(ReadableStreamCancel(s, h.CreateArray([]any{reason1, reason2})))
		}
		return cancelPromise
	}
	// 21. Let startAlgorithm be an algorithm that returns undefined.
	// 22. Set branch1 to ! CreateReadableByteStream(startAlgorithm,
	// pull1Algorithm, cancel1Algorithm).
	branch1 = createReadableByteStream(h, pull1Algorithm, cancel1)
	// 23. Set branch2 to ! CreateReadableByteStream(startAlgorithm,
	// pull2Algorithm, cancel2Algorithm).
	branch2 = createReadableByteStream(h, pull2Algorithm, cancel2)
	// 24. Perform forwardReaderError, given reader.
	forwardReaderError(cur)
	// 25. Return « branch1, branch2 ».
	return branch1, branch2, nil
}

// createReadableByteStream is
// https://streams.spec.whatwg.org/#abstract-opdef-createreadablebytestream.
func createReadableByteStream(h Host, pull func(*ByteController) Promise, cancel func(any) Promise) *ReadableStream {
	// 1. Let stream be a new ReadableStream.
	s := &ReadableStream{host: h}
	// 2. Perform ! InitializeReadableStream(stream).
	initializeReadableStream(s)
	// 3. Let controller be a new ReadableByteStreamController.
	// 4. Perform ? SetUpReadableByteStreamController(stream, controller,
	// startAlgorithm, pullAlgorithm, cancelAlgorithm, 0, undefined).
	_ = setUpReadableByteStreamControllerFromUnderlyingSource(s, ByteSource{Pull: pull, Cancel: cancel}, 0)
	// 5. Return stream.
	return s
}

// cloneAsUint8Array is https://streams.spec.whatwg.org/#abstract-opdef-cloneasuint8array.
func cloneAsUint8Array(h Host, o ArrayBufferView) (ArrayBufferView, error) {
	// 1. Assert: O is an Object. 2. Assert: O has an
	// [[ViewedArrayBuffer]] internal slot. 3. Assert: !
	// IsDetachedBuffer(O.[[ViewedArrayBuffer]]) is false.
	// 4. Let buffer be ? CloneArrayBuffer(O.[[ViewedArrayBuffer]],
	// O.[[ByteOffset]], O.[[ByteLength]], %ArrayBuffer%).
	buffer, err := h.NewArrayBuffer(o.ByteLength)
	if err != nil {
		return ArrayBufferView{}, err
	}
	copy(h.ArrayBufferBytes(buffer), h.ArrayBufferBytes(o.Buffer)[o.ByteOffset:o.ByteOffset+o.ByteLength])
	// 5. Let array be ! Construct(%Uint8Array%, « buffer »).
	// 6. Return array.
	return ArrayBufferView{Buffer: buffer, ByteLength: o.ByteLength, Constructor: "Uint8Array", ElementSize: 1}, nil
}
