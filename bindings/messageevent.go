package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

type messageEventImpl struct {
	*eventImpl
	data        sobek.Value
	origin      string
	lastEventID webidl.DOMString
	source      sobek.Value // null, a WindowProxy or a MessagePort
	ports       []MessagePortMethods
}

func (e *messageEventImpl) baseEvent() *eventImpl { return e.eventImpl }

func (e *messageEventImpl) WebIDLInterface() string { return "MessageEvent" }

func (e *messageEventImpl) Data() (sobek.Value, error) { return e.data, nil }

func (e *messageEventImpl) Origin() (string, error) { return e.origin, nil }

func (e *messageEventImpl) LastEventID() (webidl.DOMString, error) {
	return e.lastEventID, nil
}

func (e *messageEventImpl) Ports() ([]MessagePortMethods, error) {
	if e.ports == nil {
		return []MessagePortMethods{}, nil
	}
	return e.ports, nil
}

func (e *messageEventImpl) Source() (webidl.Nullable[MessageEventSource], error) {
	if webidl.IsNullish(e.source) {
		return webidl.Null[MessageEventSource](), nil
	}
	if p, ok := e.realm.idl.ImplOf(e.source).(*messagePortImpl); ok {
		return webidl.NonNull(MessageEventSource{Type: MessageEventSourceIsMessagePort, MessagePort: p}), nil
	}
	if w, ok := e.realm.idl.ImplOf(e.source).(*windowImpl); ok && e.source == e.realm.global {
		return webidl.NonNull(MessageEventSource{Type: MessageEventSourceIsWindow, Window: w}), nil
	}
	// A WindowProxy the embedder made (another realm's window).
	return webidl.NonNull(MessageEventSource{Type: MessageEventSourceIsWindow, Window: hostWindow{Value: e.source}}), nil
}

type messageEventStatics struct{}

// new MessageEvent(type, eventInitDict)
func (messageEventStatics) Constructor(r *webidl.Realm, typ webidl.DOMString, init MessageEventInit) (MessageEventMethods, error) {
	rr := realmOf(r)
	base := rr.newEvent(string(typ), init.Bubbles, init.Cancelable, init.Composed)
	e := &messageEventImpl{eventImpl: base, data: init.Data, origin: init.Origin, lastEventID: init.LastEventID, source: sobek.Null(), ports: init.Ports}
	if e.data == nil {
		e.data = sobek.Null()
	}
	if !init.Source.Null {
		switch init.Source.Value.Type {
		case MessageEventSourceIsMessagePort:
			e.source = idlWrapMessagePort(r, init.Source.Value.MessagePort)
		case MessageEventSourceIsWindow:
			e.source = idlWrapWindow(r, init.Source.Value.Window)
		}
	}
	base.ev.Detail = e
	return e, nil
}

// fireMessageEvent fires a trusted MessageEvent named typ at t.
func (r *Realm) fireMessageEvent(t *dom.EventTarget, typ string, data sobek.Value, origin string, ports []*sobek.Object, source sobek.Value) {
	ev := dom.NewEvent(typ)
	ev.IsTrusted = true
	e := &messageEventImpl{eventImpl: &eventImpl{realm: r, ev: ev}, data: data, origin: origin, source: source}
	if source == nil {
		e.source = sobek.Null()
	}
	for _, p := range ports {
		if impl, ok := r.idl.ImplOf(p).(*messagePortImpl); ok {
			e.ports = append(e.ports, impl)
		}
	}
	ev.Detail = e
	t.DispatchEvent(ev)
}

// DeliverMessage deserializes msg in this realm and fires a message event
// at target (nil: the global object) with the given origin and source
// (nil: null), or a messageerror event when deserialization fails. It is
// the last step of window.postMessage and worker messaging; call it in a
// task of this realm (posted message task source).
func (r *Realm) DeliverMessage(target *sobek.Object, msg html.SerializedWithTransfer, origin string, source sobek.Value) {
	t := r.globalTarget
	if target != nil {
		if et := r.eventTargetOf(target); et != nil {
			t = et
		}
	}
	data, ports, err := r.StructuredDeserializeWithTransfer(msg)
	if err != nil {
		r.fireMessageEvent(t.target, "messageerror", sobek.Null(), origin, nil, source)
		return
	}
	r.fireMessageEvent(t.target, "message", data, origin, ports, source)
}
