package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/streams"
	"github.com/grafana/sobek"
)

// writableStreamDefaultControllerImpl is a
// WritableStreamDefaultController object (it has no constructor).
type writableStreamDefaultControllerImpl struct {
	webidl.Reflector
	c *streams.WritableController
}

// Signal is https://streams.spec.whatwg.org/#ws-default-controller-signal.
func (o *writableStreamDefaultControllerImpl) Signal() (AbortSignalMethods, error) {
	// 1. Return this.[[abortController]]'s signal.
	return o.c.Signal().(streamAbortController).c.signal, nil
}

// Error is https://streams.spec.whatwg.org/#ws-default-controller-error.
func (o *writableStreamDefaultControllerImpl) Error(e sobek.Value) error {
	o.c.Error(e)
	return nil
}
