package streams

// AbortSignal is the host's AbortSignal a pipe watches
// (StreamPipeOptions' signal).
type AbortSignal interface {
	// Aborted is the signal's aborted flag.
	Aborted() bool
	// Reason is its abort reason.
	Reason() any
	// AddAlgorithm adds steps to its abort algorithms; remove removes
	// them.
	AddAlgorithm(steps func()) (remove func())
}

// PipeOptions are StreamPipeOptions
// (https://streams.spec.whatwg.org/#dictdef-streampipeoptions): Signal
// nil is none.
type PipeOptions struct {
	PreventClose, PreventAbort, PreventCancel bool
	Signal                                    AbortSignal
}

// PipeTo is https://streams.spec.whatwg.org/#rs-pipe-to once the host
// converted the arguments.
func (s *ReadableStream) PipeTo(dest *WritableStream, opts PipeOptions) Promise {
	h := s.host
	// 1. If ! IsReadableStreamLocked(this) is true, return a promise
	// rejected with a TypeError exception.
	if IsReadableStreamLocked(s) {
		return h.PromiseRejectedWith(h.ErrorValue(&TypeError{Msg: "Cannot pipe a locked ReadableStream"}))
	}
	// 2. If ! IsWritableStreamLocked(destination) is true, return a
	// promise rejected with a TypeError exception.
	if isWritableStreamLocked(dest) {
		return h.PromiseRejectedWith(h.ErrorValue(&TypeError{Msg: "Cannot pipe to a locked WritableStream"}))
	}
	// 3. Let signal be options["signal"] if it exists, or undefined
	// otherwise.
	// 4. Return ! ReadableStreamPipeTo(this, destination,
	// options["preventClose"], options["preventAbort"],
	// options["preventCancel"], signal).
	return ReadableStreamPipeTo(s, dest, opts)
}

// PipeThrough is https://streams.spec.whatwg.org/#rs-pipe-through once
// the host converted the transform pair: it returns the promise of the
// pipe (which the host marks handled) or the TypeError of steps 1-2.
func (s *ReadableStream) PipeThrough(writable *WritableStream, opts PipeOptions) (Promise, error) {
	// 1. If ! IsReadableStreamLocked(this) is true, throw a TypeError
	// exception.
	if IsReadableStreamLocked(s) {
		return nil, &TypeError{Msg: "Cannot pipe a locked ReadableStream"}
	}
	// 2. If ! IsWritableStreamLocked(transform["writable"]) is true, throw
	// a TypeError exception.
	if isWritableStreamLocked(writable) {
		return nil, &TypeError{Msg: "Cannot pipe to a locked WritableStream"}
	}
	// 3. Let signal be options["signal"] if it exists, or undefined
	// otherwise.
	// 4. Let promise be ! ReadableStreamPipeTo(this, transform["writable"],
	// options["preventClose"], options["preventAbort"],
	// options["preventCancel"], signal).
	promise := ReadableStreamPipeTo(s, writable, opts)
	// 5. Set promise.[[PromiseIsHandled]] to true.
	s.host.MarkHandled(promise)
	// 6. Return transform["readable"]. (The host does.)
	return promise, nil
}

// ReadableStreamPipeTo is
// https://streams.spec.whatwg.org/#readable-stream-pipe-to. Chunks are
// read with a default reader, for byte streams too (step 6 leaves the
// choice to the implementation).
func ReadableStreamPipeTo(source *ReadableStream, dest *WritableStream, opts PipeOptions) Promise {
	h := source.host
	// 1-5. Asserts.
	// 6-7. Let reader be ! AcquireReadableStreamDefaultReader(source).
	reader, _ := AcquireReadableStreamDefaultReader(source)
	// 8. Let writer be ! AcquireWritableStreamDefaultWriter(dest).
	writer, _ := AcquireWritableStreamDefaultWriter(dest)
	// 9. Set source.[[disturbed]] to true.
	source.disturbed = true
	// 10. Let shuttingDown be false.
	shuttingDown := false
	// 11. Let promise be a new promise.
	promise := h.NewPromise()
	// currentWrite is the promise of the last write the pipe made.
	currentWrite := h.PromiseResolvedWith(nil)
	var removeAbort func()

	// Finalize: https://streams.spec.whatwg.org/#rs-pipeTo-finalize.
	finalize := func(isError bool, e any) {
		// 1. Perform ! WritableStreamDefaultWriterRelease(writer).
		writableStreamDefaultWriterRelease(writer)
		// 2. If reader implements ReadableStreamBYOBReader, perform !
		// ReadableStreamBYOBReaderRelease(reader). 3. Otherwise, perform !
		// ReadableStreamDefaultReaderRelease(reader).
		readableStreamDefaultReaderRelease(reader)
		// 4. If signal is not undefined, remove abortAlgorithm from signal.
		if removeAbort != nil {
			removeAbort()
		}
		if isError {
			// 5. If error was given, reject promise with error.
			promise.Reject(e)
		} else {
			// 6. Otherwise, resolve promise with undefined.
			promise.Resolve(nil)
		}
	}
	// waitForWrites waits until every chunk that has been read has been
	// written (the writes' promises have settled).
	var waitForWrites func(then func())
	waitForWrites = func(then func()) {
		old := currentWrite
		settled := func(any) {
			if old != currentWrite {
				waitForWrites(then)
				return
			}
			then()
		}
		h.React(old, settled, settled)
	}
	// Shutdown with an action:
	// https://streams.spec.whatwg.org/#rs-pipeTo-shutdown-with-action.
	shutdownWithAction := func(action func() Promise, isError bool, originalError any) {
		// 1. If shuttingDown is true, abort these substeps.
		if shuttingDown {
			return
		}
		// 2. Set shuttingDown to true.
		shuttingDown = true
		rest := func() {
			// 4. Let p be the result of performing action.
			p := action()
			h.React(p, func(any) {
				// 5. Upon fulfillment of p, finalize, passing along
				// originalError if it was given.
				finalize(isError, originalError)
			}, func(newError any) {
				// 6. Upon rejection of p with reason newError, finalize
				// with newError.
				finalize(true, newError)
			})
		}
		// 3. If dest.[[state]] is "writable" and !
		// WritableStreamCloseQueuedOrInFlight(dest) is false, 3.1. If any
		// chunks have been read but not yet written, write them to dest.
		// 3.2. Wait until every chunk that has been read has been written.
		if dest.state == Writable && !writableStreamCloseQueuedOrInFlight(dest) {
			waitForWrites(rest)
			return
		}
		rest()
	}
	// Shutdown: https://streams.spec.whatwg.org/#rs-pipeTo-shutdown.
	shutdown := func(isError bool, e any) {
		// 1. If shuttingDown is true, abort these substeps.
		if shuttingDown {
			return
		}
		// 2. Set shuttingDown to true.
		shuttingDown = true
		// 3. If dest.[[state]] is "writable" and !
		// WritableStreamCloseQueuedOrInFlight(dest) is false, wait until
		// every chunk that has been read has been written.
		// 4. Finalize, passing along error if it was given.
		if dest.state == Writable && !writableStreamCloseQueuedOrInFlight(dest) {
			waitForWrites(func() { finalize(isError, e) })
			return
		}
		finalize(isError, e)
	}

	// 12. If signal is not undefined,
	if signal := opts.Signal; signal != nil {
		// 12.1. Let abortAlgorithm be the following steps:
		abortAlgorithm := func() {
			// 12.1.1. Let error be signal's abort reason.
			e := signal.Reason()
			// 12.1.2. Let actions be an empty ordered set.
			var actions []func() Promise
			// 12.1.3. If preventAbort is false, append the following action
			// to actions: 12.1.3.1. If dest.[[state]] is "writable", return
			// ! WritableStreamAbort(dest, error). 12.1.3.2. Otherwise,
			// return a promise resolved with undefined.
			if !opts.PreventAbort {
				actions = append(actions, func() Promise {
					if dest.state == Writable {
						return WritableStreamAbort(dest, e)
					}
					return h.PromiseResolvedWith(nil)
				})
			}
			// 12.1.4. If preventCancel is false, append the following
			// action to actions: 12.1.4.1. If source.[[state]] is
			// "readable", return ! ReadableStreamCancel(source, error).
			// 12.1.4.2. Otherwise, return a promise resolved with undefined.
			if !opts.PreventCancel {
				actions = append(actions, func() Promise {
					if source.state == Readable {
						return ReadableStreamCancel(source, e)
					}
					return h.PromiseResolvedWith(nil)
				})
			}
			// 12.1.5. Shutdown with an action consisting of getting a
			// promise to wait for all of the actions in actions, and with
			// error.
			shutdownWithAction(func() Promise { return waitForAll(h, actions) }, true, e)
		}
		// 12.2. If signal is aborted, perform abortAlgorithm and return
		// promise.
		if signal.Aborted() {
			abortAlgorithm()
			return promise
		}
		// 12.3. Add abortAlgorithm to signal.
		removeAbort = signal.AddAlgorithm(abortAlgorithm)
	}

	// 13. In parallel but not really, read all chunks from source and
	// write them to dest, following the error and close propagation
	// conditions below (checked first, as they may apply already).
	// Errors must be propagated forward: if source.[[state]] is or
	// becomes "errored",
	onSourceErrored := func(storedError any) {
		if !opts.PreventAbort {
			// if preventAbort is false, shutdown with an action of !
			// WritableStreamAbort(dest, source.[[storedError]]) and with
			// source.[[storedError]].
			shutdownWithAction(func() Promise { return WritableStreamAbort(dest, storedError) }, true, storedError)
			return
		}
		// Otherwise, shutdown with source.[[storedError]].
		shutdown(true, storedError)
	}
	// Errors must be propagated backward: if dest.[[state]] is or
	// becomes "errored",
	onDestErrored := func(storedError any) {
		if !opts.PreventCancel {
			// if preventCancel is false, shutdown with an action of !
			// ReadableStreamCancel(source, dest.[[storedError]]) and with
			// dest.[[storedError]].
			shutdownWithAction(func() Promise { return ReadableStreamCancel(source, storedError) }, true, storedError)
			return
		}
		// Otherwise, shutdown with dest.[[storedError]].
		shutdown(true, storedError)
	}
	// Closing must be propagated forward: if source.[[state]] is or
	// becomes "closed",
	onSourceClosed := func() {
		if !opts.PreventClose {
			// if preventClose is false, shutdown with an action of !
			// WritableStreamDefaultWriterCloseWithErrorPropagation(writer).
			shutdownWithAction(func() Promise { return writableStreamDefaultWriterCloseWithErrorPropagation(writer) }, false, nil)
			return
		}
		// Otherwise, shutdown.
		shutdown(false, nil)
	}

	if source.state == Errored {
		onSourceErrored(source.storedError)
	} else {
		h.React(reader.closedPromise, nil, func(e any) { onSourceErrored(e) })
	}
	if dest.state == WritableErrored {
		onDestErrored(dest.storedError)
	} else {
		h.React(writer.closedPromise.p, nil, func(e any) { onDestErrored(e) })
	}
	if source.state == Closed {
		onSourceClosed()
	} else {
		h.React(reader.closedPromise, func(any) { onSourceClosed() }, nil)
	}
	// Closing must be propagated backward: if !
	// WritableStreamCloseQueuedOrInFlight(dest) is true or
	// dest.[[state]] is "closed",
	if writableStreamCloseQueuedOrInFlight(dest) || dest.state == WritableClosed {
		// Assert: no chunks have been read or written. Let destClosed be
		// a new TypeError.
		destClosed := h.ErrorValue(&TypeError{Msg: "The destination WritableStream is closed or closing"})
		if !opts.PreventCancel {
			// If preventCancel is false, shutdown with an action of !
			// ReadableStreamCancel(source, destClosed) and with destClosed.
			shutdownWithAction(func() Promise { return ReadableStreamCancel(source, destClosed) }, true, destClosed)
		} else {
			// Otherwise, shutdown with destClosed.
			shutdown(true, destClosed)
		}
	}
	// The read-write loop: wait for the writer to be ready (backpressure:
	// a desired size ≤ 0 or null waits), read a chunk with an internal
	// read request (no promise a script could observe), write it.
	var step func()
	step = func() {
		if shuttingDown {
			return
		}
		h.React(writer.readyPromise.p, func(any) {
			if shuttingDown {
				return
			}
			ReadableStreamDefaultReaderRead(reader, ReadRequest{
				Chunk: func(chunk any) {
					currentWrite = writableStreamDefaultWriterWrite(writer, chunk)
					h.MarkHandled(currentWrite)
					h.QueueMicrotask(step)
				},
				// The close and error steps: the propagation above shuts
				// the pipe down.
				Close: func() {},
				Error: func(any) {},
			})
		}, nil)
	}
	step()
	// 14. Return promise.
	return promise
}

// waitForAll is https://webidl.spec.whatwg.org/#wait-for-all with
// success and failure steps that settle the promise it returns (getting
// a promise to wait for all).
func waitForAll(h Host, actions []func() Promise) Promise {
	p := h.NewPromise()
	n := len(actions)
	if n == 0 {
		p.Resolve(nil)
		return p
	}
	rejected := false
	for _, a := range actions {
		h.React(a(), func(any) {
			n--
			if n == 0 && !rejected {
				p.Resolve(nil)
			}
		}, func(e any) {
			if !rejected {
				rejected = true
				p.Reject(e)
			}
		})
	}
	return p
}
