package bindings

import (
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

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
	if !t.Receives(typ) {
		// No listener (event handlers included) could receive the event:
		// creating and dispatching it would have no effect (see
		// dom.FireEvent).
		return true
	}
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

// bindToLoop binds a platform object's DOM target to the realm's event loop
// (realms over an html environment), so that Go code touching it from
// another goroutine panics with the loop's name instead of racing.
func (r *Realm) bindToLoop(t *dom.EventTarget) {
	if r.env != nil {
		t.BindToLoop(r.env.ResponsibleEventLoop())
	}
}

// HasEventListeners reports whether the window or worker global has event
// listeners for typ (for example unload, which makes a document
// unsalvageable for the back/forward cache). Call it in a task of this
// realm.
func (r *Realm) HasEventListeners(typ string) bool {
	return r.globalTarget.target.HasListeners(typ)
}
