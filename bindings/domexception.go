package bindings

import (
	"errors"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

// domExceptionImpl is the Go implementation behind a DOMException object.
type domExceptionImpl struct {
	webidl.Reflector
	ex *dom.DOMException
}

// jsReason is a JavaScript value given as an abort reason (or any other
// "any" handed to dom). It is never nil, so dom's nil keeps meaning "not
// given", and null and undefined values survive the trip. realm is the
// realm v belongs to: another realm of its agent gets its view of v (a
// frame's fetch following its parent's signal rejects with the parent's
// reason).
type jsReason struct {
	v     sobek.Value
	realm *Realm
}

// value returns the reason as a value of realm r: v itself in its own
// realm, else r's view of it when the host joins the two realms
// (webidl.Realm.ForeignValue).
func (j *jsReason) value(r *Realm) sobek.Value {
	v := webidl.AnyValue(j.v)
	if j.realm == nil || j.realm == r || r.idl == nil || r.idl.ForeignValue == nil || j.realm.idl == nil {
		return v
	}
	if fv := r.idl.ForeignValue(j.realm.idl, v); fv != nil {
		return fv
	}
	return v
}

// Error makes a jsReason usable where dom or weblocks want an error.
func (j *jsReason) Error() string {
	if j.v == nil {
		return "undefined"
	}
	return j.v.String()
}

// domExceptionReason is a DOMException abort reason that bindings created
// as a JavaScript object up front: the default reason of abort() ("a new
// AbortError DOMException"). dom and weblocks see the *dom.DOMException
// (Unwrap, Error); the realm it was made in gets v, the same object every
// time (signal.reason, the rejection of a request it aborted, the reason of
// a dependent signal); another realm gets its view of v when the host
// joins the two realms, else its own wrapper of ex.
type domExceptionReason struct {
	ex    *dom.DOMException
	v     *sobek.Object
	realm *Realm
}

func (d *domExceptionReason) Error() string { return d.ex.Error() }

func (d *domExceptionReason) Unwrap() error { return d.ex }

// value returns the reason's JavaScript value in realm r: r's view of v
// when r and the realm of v are joined (webidl.Realm.ForeignValue), as
// for a jsReason.
func (d *domExceptionReason) value(r *Realm) sobek.Value {
	if d.realm == r {
		return d.v
	}
	if r.idl != nil && r.idl.ForeignValue != nil && d.realm != nil && d.realm.idl != nil {
		if fv := r.idl.ForeignValue(d.realm.idl, d.v); fv != nil {
			return fv
		}
	}
	return r.domExceptionValue(d.ex)
}

// newDefaultAbortReason is "a new AbortError DOMException" (the default
// reason of abort() and AbortSignal.abort()), created as an object of this
// realm right away. Its implementation keeps no Reflector (the reason
// holds the object), so wrapping it registers the object with the realm's
// slot table only, with the slot stored in the implementation (WrapNew).
//
// The implementation must not reach the object: the slot table holds it
// strongly for as long as the object lives, so a path back to the object
// would keep both forever. It holds the exception; the reason holds both.
func (r *Realm) newDefaultAbortReason() *domExceptionReason {
	impl := &plainDOMException{exStore: *dom.NewAbortReason()}
	impl.ex = &impl.exStore
	d := &domExceptionReason{ex: impl.ex, realm: r}
	if r.idl.Interface("DOMException") == nil {
		d.v = r.domExceptionValue(d.ex).(*sobek.Object)
		return d
	}
	d.v = idlWrapNewDOMException(r.idl, impl, &impl.slot).(*sobek.Object)
	return d
}

// plainDOMException is a DOMException implementation without a Reflector,
// for objects whose identity something else keeps (domExceptionReason).
type plainDOMException struct {
	ex *dom.DOMException
	// exStore and slot are ex and the object's internal slot, allocated
	// with the implementation.
	exStore dom.DOMException
	slot    webidl.Slot
}

func (d *plainDOMException) Name() (webidl.DOMString, error) { return webidl.DOMString(d.ex.Name), nil }

func (d *plainDOMException) Message() (webidl.DOMString, error) {
	return webidl.DOMString(d.ex.Message), nil
}

func (d *plainDOMException) Code() (uint16, error) { return uint16(d.ex.Code()), nil }

// plainDOMException implements DOMException.
var _ DOMExceptionMethods = (*plainDOMException)(nil)

// domExceptionOf returns the dom exception behind a DOMException
// implementation.
func domExceptionOf(impl any) (*dom.DOMException, bool) {
	switch d := impl.(type) {
	case *domExceptionImpl:
		return d.ex, true
	case *plainDOMException:
		return d.ex, true
	}
	return nil, false
}

// errorToJS is the webidl.Realm hook mapping Go errors returned by
// implementations to JavaScript values: DOMExceptions become DOMException
// objects of the realm, JavaScript reasons their value.
func (r *Realm) errorToJS(_ *webidl.Realm, err error) (sobek.Value, bool) {
	var jr *jsReason
	if errors.As(err, &jr) {
		return jr.value(r), true
	}
	var dr *domExceptionReason
	if errors.As(err, &dr) {
		return dr.value(r), true
	}
	var de *dom.DOMException
	if errors.As(err, &de) {
		return r.domExceptionValue(de), true
	}
	var ar *dom.AbortReasonError
	if errors.As(err, &ar) {
		return r.reasonValue(ar.Reason), true
	}
	return nil, false
}

// domExceptionValue returns the DOMException object of the realm for ex:
// the same object every time ex surfaces in this realm (a default abort
// reason read from signal.reason and the lock request it rejected must be
// ===), kept in ex.Owner; a new one for another realm.
func (r *Realm) domExceptionValue(ex *dom.DOMException) sobek.Value {
	if r.idl.Interface("DOMException") == nil {
		// Not installed (cannot happen with the generated bindings):
		// fall back to an Error with the same name and message.
		e := r.idl.NewError(webidl.TypeError, ex.Message)
		_ = e.Set("name", ex.Name)
		return e
	}
	if impl, ok := ex.Owner.(*domExceptionImpl); ok && impl.Realm() == r.idl && impl.Object() != nil {
		return impl.Object()
	}
	impl := &domExceptionImpl{ex: ex}
	v := idlWrapDOMException(r.idl, impl)
	if ex.Owner == nil {
		ex.Owner = impl
	}
	return v
}

// reasonValue converts a reason held by dom or weblocks (an abort reason, a
// rejection reason) to JavaScript.
func (r *Realm) reasonValue(reason any) sobek.Value {
	switch v := reason.(type) {
	case nil:
		return sobek.Undefined()
	case *jsReason:
		return v.value(r)
	case *domExceptionReason:
		return v.value(r)
	case sobek.Value:
		return v
	case *dom.DOMException:
		return r.domExceptionValue(v)
	case error:
		return r.idl.ErrorValue(v)
	}
	return r.vm.ToValue(reason)
}

// toReason converts a JavaScript value of realm r to a dom reason: nil
// for undefined ("not given"), else a *jsReason holding it.
func (r *Realm) toReason(v sobek.Value) any {
	if v == nil || sobek.IsUndefined(v) {
		return nil
	}
	return &jsReason{v: v, realm: r}
}

// isDOMExceptionObject reports whether o is a DOMException platform object.
func (r *Realm) isDOMExceptionObject(o *sobek.Object) bool {
	if r.idl == nil {
		return false
	}
	_, ok := r.idl.Implements(o, "DOMException")
	return ok
}

type domExceptionStatics struct{}

// new DOMException(message, name)
func (domExceptionStatics) Constructor(r *webidl.Realm, message, name webidl.DOMString) (DOMExceptionMethods, error) {
	return &domExceptionImpl{ex: dom.NewDOMException(string(message), string(name))}, nil
}

func (d *domExceptionImpl) Name() (webidl.DOMString, error) { return webidl.DOMString(d.ex.Name), nil }

func (d *domExceptionImpl) Message() (webidl.DOMString, error) {
	return webidl.DOMString(d.ex.Message), nil
}

func (d *domExceptionImpl) Code() (uint16, error) { return uint16(d.ex.Code()), nil }

// domExceptionImpl implements DOMException.
var _ DOMExceptionMethods = (*domExceptionImpl)(nil)
