package bindings

import (
	"context"
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/eventsource"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// This file is EventSource
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#the-eventsource-interface)
// over package eventsource, which parses the stream and runs the
// connection.

// remoteEventTaskSource is HTML's remote event task source, of the
// EventSource tasks.
var remoteEventTaskSource = html.NewTaskSource("remote event")

type eventSourceImpl struct {
	*eventTargetImpl
	es *eventsource.EventSource
}

func (e *eventSourceImpl) WebIDLInterface() string { return "EventSource" }

type eventSourceStatics struct{}

// Constructor is https://html.spec.whatwg.org/multipage/server-sent-events.html#dom-eventsource.
func (eventSourceStatics) Constructor(wr *webidl.Realm, rawURL string, init EventSourceInit) (EventSourceMethods, error) {
	r := realmOf(wr)
	// 1. Let ev be a new EventSource object.
	t := &dom.EventTarget{}
	ev := &eventSourceImpl{eventTargetImpl: r.newEventTargetImpl(t)}
	t.Owner = ev
	// 2-4. Let urlRecord be the result of encoding-parsing a URL given
	//    url, relative to settings; if it is failure, throw a
	//    "SyntaxError" DOMException.
	u, err := ParseURL(rawURL, r.fetchBaseURL())
	if err != nil {
		return nil, dom.NewDOMException("Failed to construct 'EventSource': Cannot open an EventSource to '"+rawURL+"'. The URL is invalid.", dom.SyntaxError)
	}
	c := r.xhrClient()
	// 5-15. (package eventsource)
	ev.es = eventsource.New(eventSourceHost{ev}, eventsource.Client{Fetch: c.Fetch, Origin: c.Origin}, u, init.WithCredentials)
	return ev, nil
}

// eventSourceHost is the eventsource.Host of an EventSource object.
type eventSourceHost struct{ ev *eventSourceImpl }

func (h eventSourceHost) QueueTask(steps func()) bool {
	return h.ev.realm.queueTask(remoteEventTaskSource, steps)
}

func (h eventSourceHost) StartFetch(ctx context.Context, p *fetch.Params, done func(*fetch.Response)) {
	h.ev.realm.startParamsFetch(ctx, p, true, done)
}

// FireEvent fires open and error (simple events), or a MessageEvent.
func (h eventSourceHost) FireEvent(typ string, e *eventsource.Event, origin string) {
	r := h.ev.realm
	if e == nil {
		r.fireEventAt(h.ev.target, typ, false, nil)
		return
	}
	if !h.ev.target.Receives(typ) {
		return
	}
	ev := dom.NewEvent(typ)
	ev.IsTrusted = true
	ev.Detail = &messageEventImpl{eventImpl: &eventImpl{realm: r, ev: ev}, data: r.vm.ToValue(e.Data), origin: origin,
		lastEventID: webidl.DOMString(e.LastEventID), source: sobek.Null()}
	h.ev.target.DispatchEvent(ev)
}

func (e *eventSourceImpl) URL() (string, error)           { return e.es.URL(), nil }
func (e *eventSourceImpl) WithCredentials() (bool, error) { return e.es.WithCredentials(), nil }
func (e *eventSourceImpl) ReadyState() (uint16, error)    { return uint16(e.es.ReadyState()), nil }

func (e *eventSourceImpl) Onopen() (*EventHandlerNonNull, error) { return e.handlerGet("open"), nil }
func (e *eventSourceImpl) SetOnopen(v *EventHandlerNonNull) error {
	e.handlerSet("open", v)
	return nil
}
func (e *eventSourceImpl) Onmessage() (*EventHandlerNonNull, error) {
	return e.handlerGet("message"), nil
}
func (e *eventSourceImpl) SetOnmessage(v *EventHandlerNonNull) error {
	e.handlerSet("message", v)
	return nil
}
func (e *eventSourceImpl) Onerror() (*EventHandlerNonNull, error) { return e.handlerGet("error"), nil }
func (e *eventSourceImpl) SetOnerror(v *EventHandlerNonNull) error {
	e.handlerSet("error", v)
	return nil
}

// Close is the close() method.
func (e *eventSourceImpl) Close() error {
	e.es.Close()
	return nil
}
