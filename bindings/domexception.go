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

// quotaExceededErrorImpl is the Go implementation behind a
// QuotaExceededError object: a DOMException with a quota and a requested
// amount.
type quotaExceededErrorImpl struct {
	*domExceptionImpl
	quota, requested webidl.Nullable[float64]
}

// https://webidl.spec.whatwg.org/#dom-quotaexceedederror-quotaexceedederror
//
// newQuotaExceededError implements the new QuotaExceededError(message,
// options) constructor steps.
func newQuotaExceededError(message webidl.DOMString, options QuotaExceededErrorOptions) (*quotaExceededErrorImpl, error) {
	// 1. Set this's name to "QuotaExceededError".
	// 2. Set this's message to message.
	q := &quotaExceededErrorImpl{
		domExceptionImpl: &domExceptionImpl{ex: dom.NewDOMException(string(message), dom.QuotaExceededError)},
		quota:            webidl.Null[float64](),
		requested:        webidl.Null[float64](),
	}
	// 3. If options["quota"] is present: if it is less than 0, throw a
	// RangeError; set this's quota to it.
	if options.Quota.Present {
		if options.Quota.Value < 0 {
			return nil, webidl.NewRangeError("Failed to construct 'QuotaExceededError': quota must not be negative")
		}
		q.quota = webidl.NonNull(options.Quota.Value)
	}
	// 4. The same for options["requested"] and this's requested.
	if options.Requested.Present {
		if options.Requested.Value < 0 {
			return nil, webidl.NewRangeError("Failed to construct 'QuotaExceededError': requested must not be negative")
		}
		q.requested = webidl.NonNull(options.Requested.Value)
	}
	// 5. If this's quota and requested are not null and requested is less
	// than quota, throw a RangeError.
	if !q.quota.Null && !q.requested.Null && q.requested.Value < q.quota.Value {
		return nil, webidl.NewRangeError("Failed to construct 'QuotaExceededError': requested must not be less than quota")
	}
	return q, nil
}

func (q *quotaExceededErrorImpl) Quota() (webidl.Nullable[float64], error) { return q.quota, nil }
func (q *quotaExceededErrorImpl) Requested() (webidl.Nullable[float64], error) {
	return q.requested, nil
}

type quotaExceededErrorStatics struct{}

// new QuotaExceededError(message, options)
func (quotaExceededErrorStatics) Constructor(r *webidl.Realm, message webidl.DOMString, options QuotaExceededErrorOptions) (QuotaExceededErrorMethods, error) {
	return newQuotaExceededError(message, options)
}
