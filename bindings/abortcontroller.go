package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

// abortControllerImpl is the Go implementation behind an AbortController.
type abortControllerImpl struct {
	webidl.Reflector
	c      *dom.AbortController
	signal *abortSignalImpl
}

// newAbortController is the new AbortController() constructor steps.
func (r *Realm) newAbortController() *abortControllerImpl {
	// 1. Let signal be a new AbortSignal object. 2. Set this's signal.
	c := dom.NewAbortController()
	return &abortControllerImpl{c: c, signal: r.signalImpl(c.Signal())}
}

type abortControllerStatics struct{}

// new AbortController()
func (abortControllerStatics) Constructor(r *webidl.Realm) (AbortControllerMethods, error) {
	return realmOf(r).newAbortController(), nil
}

func (c *abortControllerImpl) Signal() (AbortSignalMethods, error) { return c.signal, nil }

// Abort is https://dom.spec.whatwg.org/#dom-abortcontroller-abort, the
// abort(reason) method steps: signal abort on this's signal with reason if
// it is given. The default reason, a new "AbortError"
// DOMException, is made here as an object of this realm (see
// domExceptionReason) when the signal is not aborted yet (signal abort
// returns at once otherwise), so that neither signal.reason nor the
// rejections it causes need to look its wrapper up.
func (c *abortControllerImpl) Abort(reason sobek.Value) error {
	r := c.signal.realm.toReason(reason)
	if r == nil && !c.c.Signal().Aborted() {
		r = c.signal.realm.newDefaultAbortReason()
	}
	// 1. Signal abort on this's signal with reason if it is given.
	c.c.Abort(r)
	return nil
}

// abortControllerImpl implements AbortController.
var _ AbortControllerMethods = (*abortControllerImpl)(nil)
