package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/streams"
	"github.com/grafana/sobek"
)

// readableStreamDefaultControllerImpl is a
// ReadableStreamDefaultController object (it has no constructor).
type readableStreamDefaultControllerImpl struct {
	webidl.Reflector
	c *streams.DefaultController
}

// DesiredSize is https://streams.spec.whatwg.org/#rs-default-controller-desired-size.
func (o *readableStreamDefaultControllerImpl) DesiredSize() (webidl.Nullable[float64], error) {
	d, ok := o.c.DesiredSize()
	return webidl.Nullable[float64]{Value: d, Null: !ok}, nil
}

// Close is https://streams.spec.whatwg.org/#rs-default-controller-close.
func (o *readableStreamDefaultControllerImpl) Close() error { return streamsError(o.c.Close()) }

// Enqueue is https://streams.spec.whatwg.org/#rs-default-controller-enqueue.
func (o *readableStreamDefaultControllerImpl) Enqueue(chunk sobek.Value) error {
	return streamsError(o.c.Enqueue(chunk))
}

// Error is https://streams.spec.whatwg.org/#rs-default-controller-error.
func (o *readableStreamDefaultControllerImpl) Error(e sobek.Value) error {
	o.c.Error(e)
	return nil
}
