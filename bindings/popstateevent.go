package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

// popStateEventImpl is https://html.spec.whatwg.org/#the-popstateevent-interface
type popStateEventImpl struct {
	*eventImpl
	state                 sobek.Value
	hasUAVisualTransition bool
}

func (e *popStateEventImpl) baseEvent() *eventImpl { return e.eventImpl }

func (e *popStateEventImpl) WebIDLInterface() string { return "PopStateEvent" }

func (e *popStateEventImpl) State() (sobek.Value, error) {
	if e.state == nil {
		return sobek.Null(), nil
	}
	return e.state, nil
}

func (e *popStateEventImpl) HasUAVisualTransition() (bool, error) {
	return e.hasUAVisualTransition, nil
}

type popStateEventStatics struct{}

// new PopStateEvent(type, eventInitDict)
func (popStateEventStatics) Constructor(r *webidl.Realm, typ webidl.DOMString, init PopStateEventInit) (PopStateEventMethods, error) {
	base := realmOf(r).newEvent(string(typ), init.Bubbles, init.Cancelable, init.Composed)
	e := &popStateEventImpl{eventImpl: base, state: init.State, hasUAVisualTransition: init.HasUAVisualTransition}
	base.ev.Detail = e
	return e, nil
}

// firePopStateEvent fires a trusted PopStateEvent named popstate with the
// given state (nil: null) at the window, as HTML's "update document for
// history step application" does for a same-document history step.
func (r *Realm) firePopStateEvent(state sobek.Value) {
	ev := dom.NewEvent("popstate")
	ev.IsTrusted = true
	ev.Detail = &popStateEventImpl{eventImpl: &eventImpl{realm: r, ev: ev}, state: state}
	r.globalTarget.target.DispatchEvent(ev)
}

// popStateEventImpl implements PopStateEvent.
var _ PopStateEventMethods = (*popStateEventImpl)(nil)
