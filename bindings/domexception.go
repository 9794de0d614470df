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
// given", and null and undefined values survive the trip.
type jsReason struct{ v sobek.Value }

// Error makes a jsReason usable where dom or weblocks want an error.
func (j *jsReason) Error() string {
	if j.v == nil {
		return "undefined"
	}
	return j.v.String()
}

// errorToJS is the webidl.Realm hook mapping Go errors returned by
// implementations to JavaScript values: DOMExceptions become DOMException
// objects of the realm, JavaScript reasons their value.
func (r *Realm) errorToJS(_ *webidl.Realm, err error) (sobek.Value, bool) {
	var jr *jsReason
	if errors.As(err, &jr) {
		return webidl.AnyValue(jr.v), true
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
	v := r.idl.Wrap(impl, "DOMException")
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
		return webidl.AnyValue(v.v)
	case sobek.Value:
		return v
	case *dom.DOMException:
		return r.domExceptionValue(v)
	case error:
		return r.idl.ErrorValue(v)
	}
	return r.vm.ToValue(reason)
}

// toReason converts a JavaScript value to a dom reason: nil for undefined
// ("not given"), else a *jsReason holding it.
func toReason(v sobek.Value) any {
	if v == nil || sobek.IsUndefined(v) {
		return nil
	}
	return &jsReason{v: v}
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
