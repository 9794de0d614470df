package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
)

type pageTransitionEventImpl struct {
	*eventImpl
	persisted bool
}

func (e *pageTransitionEventImpl) baseEvent() *eventImpl { return e.eventImpl }

func (e *pageTransitionEventImpl) WebIDLInterface() string { return "PageTransitionEvent" }

func (e *pageTransitionEventImpl) Persisted() (bool, error) {
	return e.persisted, nil
}

type pageTransitionEventStatics struct{}

// new PageTransitionEvent(type, eventInitDict)
func (pageTransitionEventStatics) Constructor(r *webidl.Realm, typ webidl.DOMString, init PageTransitionEventInit) (PageTransitionEventMethods, error) {
	base := realmOf(r).newEvent(string(typ), init.Bubbles, init.Cancelable, init.Composed)
	e := &pageTransitionEventImpl{eventImpl: base, persisted: init.Persisted}
	base.ev.Detail = e
	return e, nil
}

// FirePageTransitionEvent fires a trusted PageTransitionEvent named typ
// (pageshow or pagehide) with the given persisted at the window; call it
// in a task of this realm.
func (r *Realm) FirePageTransitionEvent(typ string, persisted bool) {
	ev := dom.NewEvent(typ)
	ev.IsTrusted = true
	ev.Detail = &pageTransitionEventImpl{eventImpl: &eventImpl{realm: r, ev: ev}, persisted: persisted}
	r.globalTarget.target.DispatchEvent(ev)
}
