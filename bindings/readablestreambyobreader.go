package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/streams"
	"github.com/grafana/sobek"
)

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
