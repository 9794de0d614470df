package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/streams"
	"github.com/grafana/sobek"
)

// readableStreamBYOBRequestImpl is a ReadableStreamBYOBRequest object
// (it has no constructor).
type readableStreamBYOBRequestImpl struct {
	webidl.Reflector
	realm *Realm
	req   *streams.BYOBRequest
}

// View is https://streams.spec.whatwg.org/#rs-byob-request-view.
func (o *readableStreamBYOBRequestImpl) View() (webidl.Nullable[ArrayBufferView], error) {
	// 1. Return this.[[view]].
	v, _ := o.req.View().(sobek.Value)
	if v == nil {
		return webidl.Nullable[ArrayBufferView]{Null: true}, nil
	}
	return webidl.Nullable[ArrayBufferView]{Value: ArrayBufferView{Type: ArrayBufferViewIsUint8Array,
		Uint8Array: webidl.BufferSource{Object: v.(*sobek.Object), Kind: "Uint8Array"}}}, nil
}

// Respond is https://streams.spec.whatwg.org/#rs-byob-request-respond.
func (o *readableStreamBYOBRequestImpl) Respond(bytesWritten uint64) error {
	return streamsError(o.req.Respond(int(min(bytesWritten, 1<<53))))
}

// RespondWithNewView is
// https://streams.spec.whatwg.org/#rs-byob-request-respond-with-new-view.
func (o *readableStreamBYOBRequestImpl) RespondWithNewView(view ArrayBufferView) error {
	v, err := o.realm.streamView(arrayBufferViewValue(view))
	if err != nil {
		return err
	}
	return streamsError(o.req.RespondWithNewView(v))
}
