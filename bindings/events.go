package bindings

import (
	"time"

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

// eventValue returns the JavaScript object for a dom.Event, creating (and
// caching in ev.Detail) its wrapper the first time.
func (r *Realm) eventValue(ev *dom.Event) sobek.Value {
	impl, ok := ev.Detail.(*eventImpl)
	var wrapped any = impl
	if sub, isSub := ev.Detail.(eventSubclass); isSub {
		impl, ok, wrapped = sub.baseEvent(), true, sub
	}
	if !ok {
		impl = &eventImpl{ev: ev}
		ev.Detail = impl
		wrapped = impl
	}
	impl.realm = r
	if !impl.hasStamp {
		impl.stamp, impl.hasStamp = r.nowMillis(), true
	}
	if obj := impl.Object(); obj != nil {
		return obj
	}
	v := r.idl.Wrap(wrapped, "Event")
	if obj, ok := v.(*sobek.Object); ok {
		for _, p := range impl.extra {
			_ = obj.DefineDataProperty(p.name, p.value, sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_TRUE)
		}
	}
	return v
}

// addEventListener is the EventTarget addEventListener(type, callback,
// options) method steps over dom, with callback a JavaScript
// EventListener (a function or an object with handleEvent) or null.
func (r *Realm) addEventListener(t *dom.EventTarget, this sobek.Value, typ string, callback sobek.Value, opts dom.ListenerOptions) {
	// 2. If listener's callback is null, then return (dom does the rest).
	cbObj, ok := callback.(*sobek.Object)
	if !ok {
		return
	}
	opts.Key = cbObj
	t.AddEventListener(typ, func(ev *dom.Event) {
		r.callEventListener(cbObj, this, ev)
	}, opts)
}

// callEventListener invokes a JavaScript EventListener callback interface
// value with the event ("call a user object's operation" handleEvent),
// reporting any exception.
func (r *Realm) callEventListener(cb *sobek.Object, this sobek.Value, ev *dom.Event) {
	evv := r.eventValue(ev)
	var err error
	if f, ok := sobek.AssertFunction(cb); ok {
		// If value is callable: the callback this value is the event's
		// currentTarget.
		_, err = f(this, evv)
	} else {
		var inner error
		if ex := r.vm.Try(func() {
			// Let X be ? Get(value, "handleEvent"); if not callable,
			// throw a TypeError.
			h := cb.Get("handleEvent")
			f, ok := sobek.AssertFunction(h)
			if !ok {
				r.idl.ThrowTypeError("The 'handleEvent' property of the event listener is not callable")
			}
			_, inner = f(cb, evv)
		}); ex != nil {
			err = ex
		} else {
			err = inner // keeps the thrower's position
		}
	}
	if err != nil {
		r.reportError(err)
	}
}

// eventHandlerGet is the getter of an event handler IDL attribute: the
// handler's value or null.
func (r *Realm) eventHandlerGet(impl *eventTargetImpl, typ string) sobek.Value {
	if h := impl.handlers[typ]; h != nil && h.value != nil {
		return h.value
	}
	return sobek.Null()
}

// eventHandlerSet is the setter of an event handler IDL attribute. With
// [LegacyTreatNonObjectAsNull], a non-object value is null. A non-null
// value activates the handler (adds its listener once, keeping its place
// in the listener list); null deactivates it.
func (r *Realm) eventHandlerSet(impl *eventTargetImpl, this sobek.Value, typ string, v sobek.Value, special bool) {
	if impl.handlers == nil {
		impl.handlers = map[string]*eventHandler{}
	}
	h := impl.handlers[typ]
	if h == nil {
		h = &eventHandler{special: special}
		impl.handlers[typ] = h
	}
	obj, isObj := v.(*sobek.Object)
	if !isObj {
		// Deactivate: remove the listener, forget the value.
		h.value = nil
		if h.listener != 0 {
			impl.target.RemoveListener(h.listener)
			h.listener = 0
		}
		return
	}
	h.value = obj
	if h.listener == 0 {
		h.listener = impl.target.AddEventListener(typ, func(ev *dom.Event) {
			r.processEventHandler(h, this, ev)
		}, dom.ListenerOptions{})
	}
}

// processEventHandler is the "event handler processing algorithm".
func (r *Realm) processEventHandler(h *eventHandler, this sobek.Value, ev *dom.Event) {
	// 1-2. Let callback be the event handler's value; if null, return.
	f, ok := sobek.AssertFunction(h.value)
	if h.value == nil {
		return
	}
	if !ok {
		// [LegacyTreatNonObjectAsNull]: a non-callable object is not
		// invoked.
		return
	}
	evv := r.eventValue(ev)
	var ret sobek.Value
	var err error
	impl, _ := ev.Detail.(*eventImpl)
	// 3. Special error event handling: an ErrorEvent named error whose
	// currentTarget implements WindowOrWorkerGlobalScope.
	if h.special && ev.Type == "error" && impl != nil && impl.extra != nil {
		args := make([]sobek.Value, 0, 5)
		for _, name := range []string{"message", "filename", "lineno", "colno", "error"} {
			args = append(args, extraProp(impl, name))
		}
		ret, err = f(this, args...)
		if err == nil && ret != nil && ret.StrictEquals(r.vm.ToValue(true)) {
			// If return value is true, set event's canceled flag.
			ev.PreventDefault()
		}
	} else {
		ret, err = f(this, evv)
		// Otherwise, if return value is false, set the canceled flag.
		if err == nil && ret != nil && ret.StrictEquals(r.vm.ToValue(false)) {
			ev.PreventDefault()
		}
	}
	if err != nil {
		r.reportError(err)
	}
}

func extraProp(impl *eventImpl, name string) sobek.Value {
	for _, p := range impl.extra {
		if p.name == name {
			return p.value
		}
	}
	return sobek.Undefined()
}

// fireErrorEvent fires an ErrorEvent-shaped event named error at the
// global ("report an exception" step 6) and returns notHandled.
func (r *Realm) fireErrorEvent(se *ScriptError) bool {
	if r.globalTarget == nil || r.idl.Interface("Event") == nil {
		return true
	}
	ev := dom.NewEvent("error")
	ev.Cancelable = true
	ev.IsTrusted = true
	errVal := se.Value
	if errVal == nil {
		errVal = sobek.Null()
	}
	ev.Detail = &eventImpl{ev: ev, extra: []eventProp{
		{"message", r.vm.ToValue(se.Message)},
		{"filename", r.vm.ToValue(se.Filename)},
		{"lineno", r.vm.ToValue(se.Line)},
		{"colno", r.vm.ToValue(se.Column)},
		{"error", errVal},
	}}
	return r.globalTarget.target.DispatchEvent(ev)
}

// firePromiseRejectionEvent fires a PromiseRejectionEvent-shaped event at
// the global and returns the dispatch result (false when canceled).
func (r *Realm) firePromiseRejectionEvent(typ string, p *sobek.Promise, cancelable bool) bool {
	if r.globalTarget == nil || r.idl.Interface("Event") == nil {
		return true
	}
	ev := dom.NewEvent(typ)
	ev.Cancelable = cancelable
	ev.IsTrusted = true
	ev.Detail = &eventImpl{ev: ev, extra: []eventProp{
		{"promise", r.vm.ToValue(p)},
		{"reason", p.Result()},
	}}
	return r.globalTarget.target.DispatchEvent(ev)
}

// FireEvent fires a trusted event of type typ at the realm's global object
// (for example load or message), with extra own properties on the event
// object (name, value pairs such as "data", value). It returns false when a
// listener canceled it. Loop goroutine only.
func (r *Realm) FireEvent(typ string, cancelable bool, props map[string]sobek.Value) bool {
	if r.globalTarget == nil {
		return true
	}
	return r.fireEventAt(r.globalTarget.target, typ, cancelable, props)
}

func (r *Realm) fireEventAt(t *dom.EventTarget, typ string, cancelable bool, props map[string]sobek.Value) bool {
	return r.fireEvent(t, typ, false, cancelable, props)
}

func (r *Realm) fireEvent(t *dom.EventTarget, typ string, bubbles, cancelable bool, props map[string]sobek.Value) bool {
	ev := dom.NewEvent(typ)
	ev.Bubbles, ev.Cancelable = bubbles, cancelable
	ev.IsTrusted = true
	impl := &eventImpl{ev: ev}
	for k, v := range props {
		impl.extra = append(impl.extra, eventProp{k, v})
	}
	ev.Detail = impl
	return t.DispatchEvent(ev)
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

// nowMillis is performance.now(): milliseconds since the realm's time
// origin on the loop's clock, coarsened to 5 microseconds.
func (r *Realm) nowMillis() float64 {
	d := (r.host.now() - r.timeOrigin).Truncate(5 * time.Microsecond)
	return float64(d) / float64(time.Millisecond)
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

// bindToLoop binds a platform object's DOM target to the realm's event loop
// (realms over an html environment), so that Go code touching it from
// another goroutine panics with the loop's name instead of racing.
func (r *Realm) bindToLoop(t *dom.EventTarget) {
	if r.env != nil {
		t.BindToLoop(r.env.ResponsibleEventLoop())
	}
}
