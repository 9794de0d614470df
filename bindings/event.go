package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

// eventImpl is the Go implementation behind a JavaScript Event object: the
// dom.Event plus, for events the realm fires itself (error,
// unhandledrejection), the extra attributes of ErrorEvent or
// PromiseRejectionEvent, defined as own properties of the wrapper.
type eventImpl struct {
	webidl.Reflector
	realm *Realm
	ev    *dom.Event
	extra []eventProp
	// stopped mirrors the stop propagation flag for cancelBubble.
	stopped bool
	// stamp is the event's timeStamp on the realm's clock (the clock of
	// performance.now()), taken when the event object was created or
	// first reached script.
	stamp    float64
	hasStamp bool
}

type eventProp struct {
	name  string
	value sobek.Value
}

// eventValue returns the JavaScript object for a dom.Event, creating (and
// caching in ev.Detail) its wrapper the first time.
func (r *Realm) eventValue(ev *dom.Event) sobek.Value {
	impl, ok := ev.Detail.(*eventImpl)
	var wrapped EventMethods = impl
	if sub, isSub := ev.Detail.(eventSubclass); isSub {
		impl, ok, wrapped = sub.baseEvent(), true, sub
	}
	if !ok {
		impl = &eventImpl{ev: ev}
		ev.Detail = impl
		wrapped = impl
	}
	if obj := impl.Object(); obj != nil {
		if impl.Realm() == r.idl {
			return obj
		}
		// An event object of another realm of the agent (a page's event
		// dispatched at its frame's target): this realm's view of it.
		return idlWrapEvent(r.idl, wrapped)
	}
	impl.realm = r
	if !impl.hasStamp {
		impl.stamp, impl.hasStamp = r.nowMillis(), true
	}
	v := idlWrapEvent(r.idl, wrapped)
	if obj, ok := v.(*sobek.Object); ok {
		for _, p := range impl.extra {
			_ = obj.DefineDataProperty(p.name, p.value, sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_TRUE)
		}
	}
	return v
}

// newEvent is the Event constructor steps: a new, untrusted event of type
// typ with the EventInit members.
func (r *Realm) newEvent(typ string, bubbles, cancelable, composed bool) *eventImpl {
	ev := dom.NewEvent(typ)
	ev.Bubbles, ev.Cancelable, ev.Composed = bubbles, cancelable, composed
	impl := &eventImpl{realm: r, ev: ev, stamp: r.nowMillis(), hasStamp: true}
	ev.Detail = impl
	return impl
}

type eventStatics struct{}

// new Event(type, eventInitDict)
func (eventStatics) Constructor(r *webidl.Realm, typ webidl.DOMString, init EventInit) (EventMethods, error) {
	return realmOf(r).newEvent(string(typ), init.Bubbles, init.Cancelable, init.Composed), nil
}

func (e *eventImpl) Type() (webidl.DOMString, error) { return webidl.DOMString(e.ev.Type), nil }

func (e *eventImpl) targetImpl(t *dom.EventTarget) EventTargetMethods {
	if t == nil {
		return nil
	}
	if m, ok := t.Owner.(EventTargetMethods); ok {
		return m
	}
	return nil
}

func (e *eventImpl) Target() (EventTargetMethods, error) { return e.targetImpl(e.ev.Target()), nil }

func (e *eventImpl) SrcElement() (EventTargetMethods, error) { return e.targetImpl(e.ev.Target()), nil }

func (e *eventImpl) CurrentTarget() (EventTargetMethods, error) {
	return e.targetImpl(e.ev.CurrentTarget()), nil
}

func (e *eventImpl) EventPhase() (uint16, error) { return uint16(e.ev.EventPhase()), nil }

func (e *eventImpl) CancelBubble() (bool, error) { return e.stopped, nil }

func (e *eventImpl) SetCancelBubble(v bool) error {
	if v {
		e.stopped = true
		e.ev.StopPropagation()
	}
	return nil
}

func (e *eventImpl) Bubbles() (bool, error) { return e.ev.Bubbles, nil }

func (e *eventImpl) Cancelable() (bool, error) { return e.ev.Cancelable, nil }

func (e *eventImpl) ReturnValue() (bool, error) { return !e.ev.DefaultPrevented(), nil }

func (e *eventImpl) SetReturnValue(v bool) error {
	if !v {
		e.ev.PreventDefault()
	}
	return nil
}

func (e *eventImpl) DefaultPrevented() (bool, error) { return e.ev.DefaultPrevented(), nil }

func (e *eventImpl) Composed() (bool, error) { return e.ev.Composed, nil }

func (e *eventImpl) IsTrusted() (bool, error) { return e.ev.IsTrusted, nil }

func (e *eventImpl) TimeStamp() (float64, error) { return e.stamp, nil }

func (e *eventImpl) ComposedPath() ([]EventTargetMethods, error) {
	if t := e.targetImpl(e.ev.CurrentTarget()); t != nil {
		return []EventTargetMethods{t}, nil
	}
	return []EventTargetMethods{}, nil
}

func (e *eventImpl) StopPropagation() error {
	e.stopped = true
	e.ev.StopPropagation()
	return nil
}

func (e *eventImpl) StopImmediatePropagation() error {
	e.stopped = true
	e.ev.StopImmediatePropagation()
	return nil
}

func (e *eventImpl) PreventDefault() error {
	e.ev.PreventDefault()
	return nil
}

func (e *eventImpl) InitEvent(typ webidl.DOMString, bubbles, cancelable bool) error {
	// 1. If this's dispatch flag is set, then return.
	if e.ev.EventPhase() != dom.None {
		return nil
	}
	// 2. Initialize this with type, bubbles, and cancelable.
	e.ev.Type, e.ev.Bubbles, e.ev.Cancelable = string(typ), bubbles, cancelable
	e.stopped = false
	return nil
}

// eventImpl implements Event.
var _ EventMethods = (*eventImpl)(nil)

// eventSubclass is implemented by the implementations of Event
// subinterfaces (MessageEvent) that embed *eventImpl.
type eventSubclass interface {
	EventMethods
	baseEvent() *eventImpl
}

func baseEventOf(e EventMethods) *eventImpl {
	if s, ok := e.(eventSubclass); ok {
		return s.baseEvent()
	}
	return nil
}

// baseEvent makes *eventImpl an eventSubclass too.
func (e *eventImpl) baseEvent() *eventImpl { return e }
