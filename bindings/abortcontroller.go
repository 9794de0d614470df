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

func (c *abortControllerImpl) Abort(reason sobek.Value) error {
	c.c.Abort(toReason(reason))
	return nil
}

// abortControllerImpl implements AbortController.
var _ AbortControllerMethods = (*abortControllerImpl)(nil)
