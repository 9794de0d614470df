package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/streams"
	"github.com/grafana/sobek"
)

// transformStreamDefaultControllerImpl is a
// TransformStreamDefaultController object (it has no constructor).
type transformStreamDefaultControllerImpl struct {
	webidl.Reflector
	c *streams.TransformController
}

// DesiredSize is https://streams.spec.whatwg.org/#ts-default-controller-desired-size.
func (o *transformStreamDefaultControllerImpl) DesiredSize() (webidl.Nullable[float64], error) {
	d, ok := o.c.DesiredSize()
	return webidl.Nullable[float64]{Value: d, Null: !ok}, nil
}

// Enqueue is https://streams.spec.whatwg.org/#ts-default-controller-enqueue.
func (o *transformStreamDefaultControllerImpl) Enqueue(chunk sobek.Value) error {
	return streamsError(o.c.Enqueue(chunk))
}

// Error is https://streams.spec.whatwg.org/#ts-default-controller-error.
func (o *transformStreamDefaultControllerImpl) Error(reason sobek.Value) error {
	o.c.Error(reason)
	return nil
}

// Terminate is https://streams.spec.whatwg.org/#ts-default-controller-terminate.
func (o *transformStreamDefaultControllerImpl) Terminate() error {
	o.c.Terminate()
	return nil
}
