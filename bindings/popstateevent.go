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

// FirePopStateEvent fires a trusted PopStateEvent named popstate at the
// window, with the document's history state (null: this engine has no
// pushState), as HTML's "update document for history step application"
// does for a same-document history step; call it in a task of this realm.
func (r *Realm) FirePopStateEvent() {
	ev := dom.NewEvent("popstate")
	ev.IsTrusted = true
	ev.Detail = &popStateEventImpl{eventImpl: &eventImpl{realm: r, ev: ev}}
	r.globalTarget.target.DispatchEvent(ev)
}

// popStateEventImpl implements PopStateEvent.
var _ PopStateEventMethods = (*popStateEventImpl)(nil)
