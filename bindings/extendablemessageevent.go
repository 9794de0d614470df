package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/grafana/sobek"
)

type extendableMessageEventImpl struct {
	*extendableEventImpl
	data        sobek.Value
	origin      string
	lastEventID webidl.DOMString
	source      webidl.Nullable[ClientOrServiceWorkerOrMessagePort]
	ports       []MessagePortMethods
}

func (e *extendableMessageEventImpl) WebIDLInterface() string { return "ExtendableMessageEvent" }

func (e *extendableMessageEventImpl) Data() (sobek.Value, error) { return e.data, nil }

func (e *extendableMessageEventImpl) Origin() (string, error) { return e.origin, nil }

func (e *extendableMessageEventImpl) LastEventID() (webidl.DOMString, error) {
	return e.lastEventID, nil
}

func (e *extendableMessageEventImpl) Source() (webidl.Nullable[ClientOrServiceWorkerOrMessagePort], error) {
	return e.source, nil
}

func (e *extendableMessageEventImpl) Ports() ([]MessagePortMethods, error) {
	if e.ports == nil {
		return []MessagePortMethods{}, nil
	}
	return e.ports, nil
}

type extendableMessageEventStatics struct{}

// new ExtendableMessageEvent(type, eventInitDict)
func (extendableMessageEventStatics) Constructor(r *webidl.Realm, typ webidl.DOMString, init ExtendableMessageEventInit) (ExtendableMessageEventMethods, error) {
	base := realmOf(r).newEvent(string(typ), init.Bubbles, init.Cancelable, init.Composed)
	data := init.Data
	if data == nil {
		data = sobek.Null()
	}
	e := &extendableMessageEventImpl{extendableEventImpl: &extendableEventImpl{eventImpl: base}, data: data,
		origin: init.Origin, lastEventID: init.LastEventID, source: init.Source, ports: init.Ports}
	base.ev.Detail = e
	return e, nil
}
