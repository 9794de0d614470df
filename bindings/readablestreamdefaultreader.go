package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/streams"
	"github.com/grafana/sobek"
)

// readableStreamDefaultReaderImpl is a ReadableStreamDefaultReader
// object.
type readableStreamDefaultReaderImpl struct {
	webidl.Reflector
	realm *Realm
	rd    *streams.DefaultReader
}

type readableStreamDefaultReaderStatics struct{}

// Constructor is https://streams.spec.whatwg.org/#default-reader-constructor.
func (readableStreamDefaultReaderStatics) Constructor(ir *webidl.Realm, stream ReadableStreamMethods) (ReadableStreamDefaultReaderMethods, error) {
	s := stream.idlImpl()
	// 1. Perform ? SetUpReadableStreamDefaultReader(this, stream).
	rd, err := streams.NewDefaultReader(s.s)
	if err != nil {
		return nil, streamsError(err)
	}
	return &readableStreamDefaultReaderImpl{realm: realmOf(ir), rd: rd}, nil
}

// Closed is https://streams.spec.whatwg.org/#generic-reader-closed.
func (o *readableStreamDefaultReaderImpl) Closed() (*webidl.Promise, error) {
	return promiseOfStream(o.rd.Closed()), nil
}

// Read is https://streams.spec.whatwg.org/#default-reader-read.
func (o *readableStreamDefaultReaderImpl) Read() (*webidl.Promise, error) {
	ir := o.realm.idl
	// 2. Let promise be a new promise.
	p := ir.NewPromise()
	// 3. Let readRequest be a new read request with the following items:
	err := o.rd.Read(streams.ReadRequest{
		// chunk steps: Resolve promise with «[ "value" → chunk, "done" →
		// false ]».
		Chunk: func(chunk any) { p.Resolve(ir.IterResult(jsStreamValue(chunk), false)) },
		// close steps: Resolve promise with «[ "value" → undefined, "done"
		// → true ]».
		Close: func() { p.Resolve(ir.IterResult(sobek.Undefined(), true)) },
		// error steps: Reject promise with e.
		Error: func(e any) { p.Reject(jsStreamValue(e)) },
	})
	// 1. If this.[[stream]] is undefined, return a promise rejected with a
	// TypeError exception.
	if err != nil {
		return ir.PromiseRejectedWithError(streamsError(err)), nil
	}
	// 6. Return promise.
	return p, nil
}

// ReleaseLock is https://streams.spec.whatwg.org/#default-reader-release-lock.
func (o *readableStreamDefaultReaderImpl) ReleaseLock() error {
	o.rd.ReleaseLock()
	return nil
}

// Cancel is https://streams.spec.whatwg.org/#generic-reader-cancel.
func (o *readableStreamDefaultReaderImpl) Cancel(reason sobek.Value) (*webidl.Promise, error) {
	return promiseOfStream(o.rd.Cancel(reason)), nil
}
