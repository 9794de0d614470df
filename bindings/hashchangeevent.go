package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
)

// hashChangeEventImpl is https://html.spec.whatwg.org/#the-hashchangeevent-interface
type hashChangeEventImpl struct {
	*eventImpl
	oldURL, newURL string
}

func (e *hashChangeEventImpl) baseEvent() *eventImpl { return e.eventImpl }

func (e *hashChangeEventImpl) WebIDLInterface() string { return "HashChangeEvent" }

func (e *hashChangeEventImpl) OldURL() (string, error) { return e.oldURL, nil }

func (e *hashChangeEventImpl) NewURL() (string, error) { return e.newURL, nil }

type hashChangeEventStatics struct{}

// new HashChangeEvent(type, eventInitDict)
func (hashChangeEventStatics) Constructor(r *webidl.Realm, typ webidl.DOMString, init HashChangeEventInit) (HashChangeEventMethods, error) {
	base := realmOf(r).newEvent(string(typ), init.Bubbles, init.Cancelable, init.Composed)
	e := &hashChangeEventImpl{eventImpl: base, oldURL: init.OldURL, newURL: init.NewURL}
	base.ev.Detail = e
	return e, nil
}

// FireHashChangeEvent fires a trusted HashChangeEvent named hashchange
// with the given oldURL and newURL at the window (HTML's "update document
// for history step application", for a same-document navigation that
// changed the fragment); call it in a task of this realm.
func (r *Realm) FireHashChangeEvent(oldURL, newURL string) {
	ev := dom.NewEvent("hashchange")
	ev.IsTrusted = true
	ev.Detail = &hashChangeEventImpl{eventImpl: &eventImpl{realm: r, ev: ev}, oldURL: oldURL, newURL: newURL}
	r.globalTarget.target.DispatchEvent(ev)
}

// hashChangeEventImpl implements HashChangeEvent.
var _ HashChangeEventMethods = (*hashChangeEventImpl)(nil)
