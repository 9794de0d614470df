package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/streams"
	"github.com/grafana/sobek"
)

// readableByteStreamControllerImpl is a ReadableByteStreamController
// object (it has no constructor).
type readableByteStreamControllerImpl struct {
	webidl.Reflector
	realm *Realm
	c     *streams.ByteController
	// req is the object of the controller's current BYOB request.
	req *readableStreamBYOBRequestImpl
}

// ByobRequest is https://streams.spec.whatwg.org/#rbs-controller-byob-request.
func (o *readableByteStreamControllerImpl) ByobRequest() (ReadableStreamBYOBRequestMethods, error) {
	req := o.c.BYOBRequest()
	if req == nil {
		return nil, nil
	}
	if o.req == nil || o.req.req != req {
		o.req = &readableStreamBYOBRequestImpl{realm: o.realm, req: req}
	}
	return o.req, nil
}

// DesiredSize is https://streams.spec.whatwg.org/#rbs-controller-desired-size.
func (o *readableByteStreamControllerImpl) DesiredSize() (webidl.Nullable[float64], error) {
	d, ok := o.c.DesiredSize()
	return webidl.Nullable[float64]{Value: d, Null: !ok}, nil
}

// Close is https://streams.spec.whatwg.org/#rbs-controller-close.
func (o *readableByteStreamControllerImpl) Close() error { return streamsError(o.c.Close()) }

// Enqueue is https://streams.spec.whatwg.org/#rbs-controller-enqueue.
func (o *readableByteStreamControllerImpl) Enqueue(chunk ArrayBufferView) error {
	v, err := o.realm.streamView(arrayBufferViewValue(chunk))
	if err != nil {
		return err
	}
	return streamsError(o.c.Enqueue(v))
}

// Error is https://streams.spec.whatwg.org/#rbs-controller-error.
func (o *readableByteStreamControllerImpl) Error(e sobek.Value) error {
	o.c.Error(e)
	return nil
}
