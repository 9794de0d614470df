package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/streams"
	"github.com/grafana/sobek"
)

// This file is the Streams Standard's writable and transform streams and
// pipes in JavaScript (https://streams.spec.whatwg.org/#ws-class,
// #ts-class, #rs-pipe-to): WritableStream, WritableStreamDefaultWriter,
// WritableStreamDefaultController, TransformStream and
// TransformStreamDefaultController over package streams.

// streamAbortController is an AbortController of the realm as package
// streams' AbortController (a writable stream controller's signal).
type streamAbortController struct{ c *abortControllerImpl }

// Abort signals abort with reason (undefined is the default
// AbortError), as AbortController's abort() does.
func (a streamAbortController) Abort(reason any) { _ = a.c.Abort(jsStreamValue(reason)) }

func (h streamHost) NewAbortController() streams.AbortController {
	return streamAbortController{h.r.newAbortController()}
}

// streamAbortSignal is an AbortSignal as package streams' AbortSignal (a
// pipe's signal).
type streamAbortSignal struct{ s *abortSignalImpl }

func (a streamAbortSignal) Aborted() bool { return a.s.sig.Aborted() }
func (a streamAbortSignal) Reason() any   { return a.s.abortReason() }
func (a streamAbortSignal) AddAlgorithm(steps func()) func() {
	id := a.s.sig.AddAlgorithm(steps)
	return func() { a.s.sig.RemoveAlgorithm(id) }
}

// pipeOptions converts StreamPipeOptions.
func pipeOptions(o StreamPipeOptions) streams.PipeOptions {
	opts := streams.PipeOptions{PreventClose: o.PreventClose, PreventAbort: o.PreventAbort, PreventCancel: o.PreventCancel}
	if o.Signal != nil {
		opts.Signal = streamAbortSignal{o.Signal.idlImpl()}
	}
	return opts
}

// writableStreamImpl is a WritableStream object.
type writableStreamImpl struct {
	webidl.Reflector
	realm *Realm
	s     *streams.WritableStream
}

type writableStreamStatics struct{}

// Constructor is https://streams.spec.whatwg.org/#ws-constructor.
func (writableStreamStatics) Constructor(ir *webidl.Realm, underlyingSink *sobek.Object, strategy QueuingStrategy) (WritableStreamMethods, error) {
	r := realmOf(ir)
	// 1. If underlyingSink is missing, set it to null.
	// 2. Let underlyingSinkDict be underlyingSink, converted to an IDL
	// value of type UnderlyingSink.
	var dict UnderlyingSink
	idlReadDictUnderlyingSink(ir, underlyingSink, &dict)
	// 3. If underlyingSinkDict["type"] exists, throw a RangeError
	// exception.
	if dict.Type != nil {
		return nil, webidl.NewRangeError("Failed to construct 'WritableStream': Invalid type is specified")
	}
	// 4. Perform ! InitializeWritableStream(this) (streams).
	// 5. Let sizeAlgorithm be ! ExtractSizeAlgorithm(strategy).
	size := extractSizeAlgorithm(strategy)
	// 6. Let highWaterMark be ? ExtractHighWaterMark(strategy, 1).
	hwm, err := streams.ExtractHighWaterMark(strategy.HighWaterMark.Value, strategy.HighWaterMark.Present, 1)
	if err != nil {
		return nil, streamsError(err)
	}
	// 7. Perform ? SetUpWritableStreamDefaultControllerFromUnderlyingSink(this,
	// underlyingSink, underlyingSinkDict, highWaterMark, sizeAlgorithm):
	// the callbacks are invoked with underlyingSink as their this value.
	this := sobek.Value(sobek.Undefined())
	if underlyingSink != nil {
		this = underlyingSink
	}
	var ctl *writableStreamDefaultControllerImpl
	controller := func(c *streams.WritableController) *writableStreamDefaultControllerImpl {
		if ctl == nil {
			ctl = &writableStreamDefaultControllerImpl{c: c}
		}
		return ctl
	}
	var sink streams.UnderlyingSink
	if dict.Start != nil {
		sink.Start = func(c *streams.WritableController) (any, error) {
			v, err := dict.Start.Invoke(this, controller(c))
			if err != nil {
				return nil, err
			}
			return v, nil
		}
	}
	if dict.Write != nil {
		sink.Write = func(chunk any, c *streams.WritableController) streams.Promise {
			return &streamPromise{dict.Write.Invoke(this, jsStreamValue(chunk), controller(c))}
		}
	}
	if dict.Close != nil {
		sink.Close = func() streams.Promise { return &streamPromise{dict.Close.Invoke(this)} }
	}
	if dict.Abort != nil {
		sink.Abort = func(reason any) streams.Promise {
			return &streamPromise{dict.Abort.Invoke(this, jsStreamValue(reason))}
		}
	}
	s, err := streams.NewWritableStream(r.streamHost(), sink, hwm, size)
	if err != nil {
		return nil, streamsError(err)
	}
	return &writableStreamImpl{realm: r, s: s}, nil
}

// Locked is https://streams.spec.whatwg.org/#ws-locked.
func (o *writableStreamImpl) Locked() (bool, error) { return o.s.Locked(), nil }

// Abort is https://streams.spec.whatwg.org/#ws-abort.
func (o *writableStreamImpl) Abort(reason sobek.Value) (*webidl.Promise, error) {
	return promiseOfStream(o.s.Abort(reason)), nil
}

// Close is https://streams.spec.whatwg.org/#ws-close.
func (o *writableStreamImpl) Close() (*webidl.Promise, error) {
	return promiseOfStream(o.s.Close()), nil
}

// GetWriter is https://streams.spec.whatwg.org/#ws-get-writer.
func (o *writableStreamImpl) GetWriter() (WritableStreamDefaultWriterMethods, error) {
	w, err := o.s.GetWriter()
	if err != nil {
		return nil, streamsError(err)
	}
	return &writableStreamDefaultWriterImpl{w: w}, nil
}
