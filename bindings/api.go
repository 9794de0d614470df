package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// Integration API for code that builds on realms (the go product): all of
// these are for the realm's event loop goroutine only (inside a task, or
// right after the realm was created, before its first task ran).

// Env returns the realm's environment settings object.
func (r *Realm) Env() *html.EnvironmentSettingsObject { return r.env }

// IDL returns the realm's WebIDL binding state (interface objects,
// wrappers, conversions).
func (r *Realm) IDL() *webidl.Realm { return r.idl }

// InterfacePrototype returns the interface prototype object of an
// interface installed in the realm (for example "EventTarget" or "Event"),
// or nil.
func (r *Realm) InterfacePrototype(name string) *sobek.Object {
	if io := r.idl.Interface(name); io != nil {
		return io.Prototype
	}
	return nil
}

// NewEventTargetObject creates a platform EventTarget object (with a
// dom.EventTarget inside) whose [[Prototype]] is proto (nil:
// EventTarget.prototype). Use it for objects such as Worker whose
// prototype inherits from EventTarget.prototype; addEventListener,
// dispatchEvent and event handler attributes work on it.
func (r *Realm) NewEventTargetObject(proto *sobek.Object) *sobek.Object {
	impl := r.newEventTargetImpl(&dom.EventTarget{})
	obj := idlWrapEventTarget(r.idl, impl).(*sobek.Object)
	if proto != nil {
		_ = obj.SetPrototype(proto)
	}
	return obj
}

// eventTargetOf returns the EventTarget implementation behind a platform
// object (the global object included), or nil.
func (r *Realm) eventTargetOf(v sobek.Value) *eventTargetImpl {
	if obj, ok := v.(*sobek.Object); ok && obj == r.global {
		return r.globalTarget
	}
	impl, ok := r.idl.Implements(v, "EventTarget")
	if !ok {
		return nil
	}
	if t, ok := impl.(interface{ eventTarget() *eventTargetImpl }); ok {
		return t.eventTarget()
	}
	return nil
}

// DefineEventHandlerAttributes defines event handler IDL attributes
// ("on"+type, enumerable, configurable accessors) on obj, typically an
// interface prototype object or the global object. The accessors work on
// any EventTarget platform object; on the global object an "error"
// handler is an OnErrorEventHandler (five-argument call, true cancels).
func (r *Realm) DefineEventHandlerAttributes(obj *sobek.Object, types ...string) {
	for _, typ := range types {
		typ := typ
		name := "on" + typ
		get := r.newFunction("get "+name, 0, func(call sobek.FunctionCall) sobek.Value {
			t := r.eventTargetOf(r.thisOrGlobal(call.This))
			if t == nil {
				panic(r.idl.NewError(webidl.TypeError, webidl.IllegalInvocation))
			}
			return r.eventHandlerGet(t, typ)
		})
		set := r.newFunction("set "+name, 1, func(call sobek.FunctionCall) sobek.Value {
			this := r.thisOrGlobal(call.This)
			t := r.eventTargetOf(this)
			if t == nil {
				panic(r.idl.NewError(webidl.TypeError, webidl.IllegalInvocation))
			}
			r.eventHandlerSet(t, this, typ, call.Argument(0), typ == "error" && t == r.globalTarget)
			return sobek.Undefined()
		})
		_ = obj.DefineAccessorProperty(name, get, set, sobek.FLAG_TRUE, sobek.FLAG_TRUE)
	}
}

// thisOrGlobal maps an undefined or null this value to the global object.
func (r *Realm) thisOrGlobal(this sobek.Value) sobek.Value {
	if this == nil || sobek.IsUndefined(this) || sobek.IsNull(this) {
		return r.global
	}
	return this
}

// FireEventAt fires a trusted event named typ at target, an EventTarget
// platform object of this realm (the global, a NewEventTargetObject, an
// AbortSignal...). props become own read-only properties of the event
// object ("data", "message", ...). It returns false when a listener
// canceled the event, and true when target is not an EventTarget.
func (r *Realm) FireEventAt(target *sobek.Object, typ string, cancelable bool, props map[string]sobek.Value) bool {
	t := r.eventTargetOf(target)
	if t == nil {
		return true
	}
	return r.fireEventAt(t.target, typ, cancelable, props)
}

// FireBubblingEventAt is FireEventAt for a non-cancelable event whose
// bubbles attribute is true (DOMContentLoaded at a document). The event
// path is target alone: an embedder's node tree is not one.
func (r *Realm) FireBubblingEventAt(target *sobek.Object, typ string) {
	if t := r.eventTargetOf(target); t != nil {
		r.fireEvent(t.target, typ, true, false, nil)
	}
}

// ReportScriptError runs "report an exception" for an error described
// elsewhere (for example a worker's uncaught error re-reported at the
// Worker object's owner).
func (r *Realm) ReportScriptError(se *ScriptError) { r.reportScriptError(se) }

// NewDOMException creates a DOMException object of the realm.
func (r *Realm) NewDOMException(name, message string) sobek.Value {
	return r.domExceptionValue(dom.NewDOMException(message, name))
}

// IsPlatformObject reports whether o is a platform object of this realm
// (an object with a Go implementation behind it).
func (r *Realm) IsPlatformObject(o *sobek.Object) bool {
	return o == r.global || r.idl.ImplOf(o) != nil
}

// DocumentObject returns the window's Document platform object (an
// EventTarget with the Document IDL members); the embedder adds its DOM
// to it or to Document.prototype. Nil for workers.
func (r *Realm) DocumentObject() *sobek.Object {
	w, ok := r.globalImpl.(*windowImpl)
	if !ok {
		return nil
	}
	obj, _ := idlWrapDocument(r.idl, w.document).(*sobek.Object)
	return obj
}

// EventTargetBase implements EventTarget's members for platform objects
// whose interface inherits EventTarget but is generated and implemented
// outside this package (an integrator's IDL; see the example module in
// codegen/testdata/greeter). Embed the value NewEventTargetBase returns
// in the implementation: it provides the EventTarget methods and the
// webidl.Reflector, so the implementation's JavaScript object is the
// event target listeners see.
type EventTargetBase struct{ *eventTargetImpl }

// NewEventTargetBase returns a new EventTarget implementation in the realm
// r (the webidl.Realm of a Realm of this package), for embedding.
func NewEventTargetBase(r *webidl.Realm) EventTargetBase {
	return EventTargetBase{realmOf(r).newEventTargetImpl(&dom.EventTarget{})}
}

// FireEvent fires a trusted event named typ at the target (see
// Realm.FireEventAt) and reports whether it was not canceled.
func (b EventTargetBase) FireEvent(typ string, cancelable bool, props map[string]sobek.Value) bool {
	return b.realm.fireEventAt(b.target, typ, cancelable, props)
}
