package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/streams"
	"github.com/grafana/sobek"
)

// writableStreamDefaultWriterImpl is a WritableStreamDefaultWriter
// object.
type writableStreamDefaultWriterImpl struct {
	webidl.Reflector
	w *streams.Writer
}

type writableStreamDefaultWriterStatics struct{}

// Constructor is https://streams.spec.whatwg.org/#default-writer-constructor.
func (writableStreamDefaultWriterStatics) Constructor(ir *webidl.Realm, stream WritableStreamMethods) (WritableStreamDefaultWriterMethods, error) {
	// 1. Perform ? SetUpWritableStreamDefaultWriter(this, stream).
	w, err := streams.NewWriter(stream.idlImpl().s)
	if err != nil {
		return nil, streamsError(err)
	}
	return &writableStreamDefaultWriterImpl{w: w}, nil
}

// Closed is https://streams.spec.whatwg.org/#default-writer-closed.
func (o *writableStreamDefaultWriterImpl) Closed() (*webidl.Promise, error) {
	return promiseOfStream(o.w.Closed()), nil
}

// DesiredSize is https://streams.spec.whatwg.org/#default-writer-desired-size.
func (o *writableStreamDefaultWriterImpl) DesiredSize() (webidl.Nullable[float64], error) {
	d, ok, err := o.w.DesiredSize()
	if err != nil {
		return webidl.Nullable[float64]{}, streamsError(err)
	}
	return webidl.Nullable[float64]{Value: d, Null: !ok}, nil
}

// Ready is https://streams.spec.whatwg.org/#default-writer-ready.
func (o *writableStreamDefaultWriterImpl) Ready() (*webidl.Promise, error) {
	return promiseOfStream(o.w.Ready()), nil
}

// Abort is https://streams.spec.whatwg.org/#default-writer-abort.
func (o *writableStreamDefaultWriterImpl) Abort(reason sobek.Value) (*webidl.Promise, error) {
	return promiseOfStream(o.w.Abort(reason)), nil
}

// Close is https://streams.spec.whatwg.org/#default-writer-close.
func (o *writableStreamDefaultWriterImpl) Close() (*webidl.Promise, error) {
	return promiseOfStream(o.w.Close()), nil
}

// ReleaseLock is https://streams.spec.whatwg.org/#default-writer-release-lock.
func (o *writableStreamDefaultWriterImpl) ReleaseLock() error {
	o.w.ReleaseLock()
	return nil
}

// Write is https://streams.spec.whatwg.org/#default-writer-write.
func (o *writableStreamDefaultWriterImpl) Write(chunk sobek.Value) (*webidl.Promise, error) {
	return promiseOfStream(o.w.Write(chunk)), nil
}
