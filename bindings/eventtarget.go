package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

// eventTargetImpl is the Go implementation behind EventTarget objects
// created by script (new EventTarget()) and the base of every other
// target: it adapts the dom.EventTarget to JavaScript listeners.
type eventTargetImpl struct {
	webidl.Reflector
	realm  *Realm
	target *dom.EventTarget
	// handlers holds the event handlers of the target's event handler
	// IDL attributes (onabort, onerror, ...), by event type.
	handlers map[string]*eventHandler
}

// eventHandler is an "event handler": its value and the listener it
// registered when first activated.
type eventHandler struct {
	value    sobek.Value // null when not set
	listener dom.ListenerID
	special  bool // OnErrorEventHandler on a global: 5-argument call
}

func (r *Realm) newEventTargetImpl(t *dom.EventTarget) *eventTargetImpl {
	r.bindToLoop(t)
	impl := &eventTargetImpl{realm: r, target: t}
	if t.Owner == nil {
		t.Owner = impl
	}
	return impl
}

// dispatchEventSteps is the dispatchEvent(event) method steps.
func (r *Realm) dispatchEventSteps(t *dom.EventTarget, ev *dom.Event) (bool, error) {
	// 1. If event's dispatch flag is set, or if its initialized flag is
	// not set, then throw an "InvalidStateError" DOMException.
	if ev.EventPhase() != dom.None { // dispatching: the phase is set only then
		return false, dom.NewDOMException("The event is already being dispatched.", dom.InvalidStateError)
	}
	// 2. Initialize event's isTrusted attribute to false.
	ev.IsTrusted = false
	// 3. Return the result of dispatching event to this.
	return t.DispatchEvent(ev), nil
}

// listenerOptions flattens the options argument of add/removeEventListener
// ((AddEventListenerOptions or boolean)).
type listenerOptions struct {
	capture, once bool
	passive       *bool
	signal        *dom.AbortSignal
}

// addEventListenerSteps is the addEventListener(type, callback, options)
// method steps.
func (r *Realm) addEventListenerSteps(t *eventTargetImpl, this sobek.Value, typ string, callback sobek.Value, o listenerOptions) {
	// "flatten more": passive defaults to false (no default-passive
	// targets here).
	passive := o.passive != nil && *o.passive
	r.addEventListener(t.target, this, typ, callback, dom.ListenerOptions{
		Capture: o.capture, Once: o.once, Passive: passive, Signal: o.signal,
	})
}

// removeEventListenerSteps is removeEventListener(type, callback, options).
func (r *Realm) removeEventListenerSteps(t *eventTargetImpl, typ string, callback sobek.Value, capture bool) {
	if obj, ok := callback.(*sobek.Object); ok {
		t.target.RemoveEventListener(typ, obj, capture)
	}
}

type eventTargetStatics struct{}

// new EventTarget()
func (eventTargetStatics) Constructor(r *webidl.Realm) (EventTargetMethods, error) {
	return realmOf(r).newEventTargetImpl(&dom.EventTarget{}), nil
}

func (t *eventTargetImpl) handlerGet(typ string) *EventHandlerNonNull {
	v := t.realm.eventHandlerGet(t, typ)
	if webidl.IsNullish(v) {
		return nil
	}
	return &EventHandlerNonNull{CallbackFunction: t.realm.idl.ToCallbackFunction(v, true)}
}

func (t *eventTargetImpl) handlerSet(typ string, v *EventHandlerNonNull) {
	var val sobek.Value = sobek.Null()
	if v != nil && v.CallbackFunction != nil {
		val = v.Value()
	}
	t.realm.eventHandlerSet(t, t.thisValue(), typ, val, typ == "error" && t == t.realm.globalTarget)
}

func (t *eventTargetImpl) errorHandlerGet() *OnErrorEventHandlerNonNull {
	v := t.realm.eventHandlerGet(t, "error")
	if webidl.IsNullish(v) {
		return nil
	}
	return &OnErrorEventHandlerNonNull{CallbackFunction: t.realm.idl.ToCallbackFunction(v, true)}
}

func (t *eventTargetImpl) errorHandlerSet(v *OnErrorEventHandlerNonNull) {
	var val sobek.Value = sobek.Null()
	if v != nil && v.CallbackFunction != nil {
		val = v.Value()
	}
	t.realm.eventHandlerSet(t, t.thisValue(), "error", val, t == t.realm.globalTarget)
}

// thisValue is the JavaScript object of the target (the callback this
// value of its listeners).
func (t *eventTargetImpl) thisValue() sobek.Value {
	if t == t.realm.globalTarget {
		return t.realm.global
	}
	if obj := t.Object(); obj != nil {
		return obj
	}
	return sobek.Undefined()
}

func (t *eventTargetImpl) eventTarget() *eventTargetImpl { return t }

func (t *eventTargetImpl) AddEventListener(typ webidl.DOMString, callback *EventListener, options AddEventListenerOptionsOrBoolean) error {
	var o listenerOptions
	switch options.Type {
	case AddEventListenerOptionsOrBooleanIsBoolean:
		o.capture = options.Boolean
	case AddEventListenerOptionsOrBooleanIsAddEventListenerOptions:
		d := options.AddEventListenerOptions
		o.capture, o.once = d.Capture, d.Once
		if d.Passive.Present {
			p := d.Passive.Value
			o.passive = &p
		}
		if d.Signal != nil {
			o.signal = d.Signal.idlImpl().sig
		}
	}
	var cb sobek.Value = sobek.Null()
	if callback != nil && callback.CallbackInterface != nil {
		cb = callback.Object
	}
	t.realm.addEventListenerSteps(t, t.thisValue(), string(typ), cb, o)
	return nil
}

func (t *eventTargetImpl) RemoveEventListener(typ webidl.DOMString, callback *EventListener, options EventListenerOptionsOrBoolean) error {
	capture := false
	switch options.Type {
	case EventListenerOptionsOrBooleanIsBoolean:
		capture = options.Boolean
	case EventListenerOptionsOrBooleanIsEventListenerOptions:
		capture = options.EventListenerOptions.Capture
	}
	var cb sobek.Value = sobek.Null()
	if callback != nil && callback.CallbackInterface != nil {
		cb = callback.Object
	}
	t.realm.removeEventListenerSteps(t, string(typ), cb, capture)
	return nil
}

func (t *eventTargetImpl) DispatchEvent(event EventMethods) (bool, error) {
	return t.realm.dispatchEventSteps(t.target, baseEventOf(event).ev)
}

// eventTargetImpl implements EventTarget.
var _ EventTargetMethods = (*eventTargetImpl)(nil)
