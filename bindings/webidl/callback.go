package webidl

import (
	"reflect"

	"github.com/grafana/sobek"
)

// CallbackFunction is an IDL callback function value: a callable object
// (or, with [LegacyTreatNonObjectAsNull], any object) and the realm it was
// converted in.
type CallbackFunction struct {
	Object *sobek.Object
	// callable calls Object; it is made on first use by Invoke (a
	// sobek.Callable costs an allocation or two, which a callback invoked
	// once through InvokeFrame does without).
	callable sobek.Callable
	// function records that Object is callable.
	function bool
	Realm    *Realm
}

// funcType is the type sobek exports function objects as.
var funcType = reflect.TypeOf((func(sobek.FunctionCall) sobek.Value)(nil))

// isCallable reports IsCallable(obj). Ordinary, arrow, async, bound and
// built-in functions are recognized without asking sobek for a Callable
// (which allocates); anything else (a proxy, a class constructor) is asked.
func isCallable(obj *sobek.Object) bool {
	if obj.ExportType() == funcType {
		return true
	}
	_, ok := sobek.AssertFunction(obj)
	return ok
}

// ToCallbackFunction converts v to a callback function type: a TypeError
// unless callable. With legacyTreatNonObjectAsNull a non-object gives nil
// (null) and a non-callable object is accepted (invoking it does nothing).
func (r *Realm) ToCallbackFunction(v sobek.Value, legacyTreatNonObjectAsNull bool) *CallbackFunction {
	obj, isObj := v.(*sobek.Object)
	if legacyTreatNonObjectAsNull && !isObj {
		return nil
	}
	ok := isObj && isCallable(obj)
	if !ok && !legacyTreatNonObjectAsNull {
		r.ThrowTypeError("The provided value is not a function")
	}
	return &CallbackFunction{Object: obj, function: ok, Realm: r}
}

// Value returns the callback's object, or null.
func (c *CallbackFunction) Value() sobek.Value {
	if c == nil {
		return sobek.Null()
	}
	return c.Object
}

// Invoke implements "invoke a callback function" with this value thisArg
// (nil for undefined). It returns the completion value or a *JSError with
// what the callback threw. A non-callable [LegacyTreatNonObjectAsNull]
// object returns undefined.
func (c *CallbackFunction) Invoke(thisArg sobek.Value, args ...sobek.Value) (sobek.Value, error) {
	if !c.function {
		return sobek.Undefined(), nil
	}
	if c.callable == nil {
		c.callable, _ = sobek.AssertFunction(c.Object)
	}
	if thisArg == nil {
		thisArg = sobek.Undefined()
	}
	var res sobek.Value
	var err error
	if ex := c.Realm.VM.Try(func() { res, err = c.callable(thisArg, args...) }); ex != nil {
		return nil, &JSError{Value: ex.Value()}
	}
	return callResult(res, err)
}

// InvokeFrame is Invoke with the this value and the arguments in one
// slice the caller owns: frame[0] is the this value (nil for undefined),
// frame[1:] the arguments. The call goes through the realm's
// %Function.prototype.call%, so a callback invoked once costs no
// sobek.Callable. frame must stay untouched until InvokeFrame returns.
func (c *CallbackFunction) InvokeFrame(frame []sobek.Value) (sobek.Value, error) {
	r := c.Realm
	if !c.function {
		return sobek.Undefined(), nil
	}
	if c.callable != nil || r.funcCall == nil {
		return c.Invoke(frame[0], frame[1:]...)
	}
	if frame[0] == nil {
		frame[0] = sobek.Undefined()
	}
	// A sobek.Callable catches what the call throws itself (an
	// *sobek.Exception in err, uncatchable errors included), so no Try
	// of our own is wrapped around it.
	res, err := r.funcCall(c.Object, frame...)
	return callResult(res, err)
}

// callResult turns the outcome of a sobek.Callable into Invoke's.
func callResult(res sobek.Value, err error) (sobek.Value, error) {
	if err != nil {
		if ex, ok := err.(*sobek.Exception); ok {
			return nil, &JSError{Value: ex.Value()}
		}
		return nil, err
	}
	return res, nil
}

// InvokePromise is Invoke for a callback whose return type is a promise
// type: the completion value is converted to a promise, and an exception
// becomes a rejected promise (it never returns an error for a JavaScript
// exception).
func (c *CallbackFunction) InvokePromise(thisArg sobek.Value, args ...sobek.Value) *Promise {
	r := c.Realm
	v, err := c.Invoke(thisArg, args...)
	if err != nil {
		if js, ok := err.(*JSError); ok {
			return r.PromiseRejectedWith(AnyValue(js.Value))
		}
		return r.PromiseRejectedWithError(err)
	}
	return r.ToPromise(v)
}

// CallbackInterface is an IDL callback interface value: any object.
type CallbackInterface struct {
	Object *sobek.Object
	Realm  *Realm
}

// ToCallbackInterface converts v to a callback interface type: a TypeError
// unless v is an object.
func (r *Realm) ToCallbackInterface(v sobek.Value) *CallbackInterface {
	obj, ok := v.(*sobek.Object)
	if !ok {
		r.ThrowTypeError("The provided value is not an object")
	}
	return &CallbackInterface{Object: obj, Realm: r}
}

// Value returns the callback object, or null.
func (c *CallbackInterface) Value() sobek.Value {
	if c == nil {
		return sobek.Null()
	}
	return c.Object
}

// CallOperation implements "call a user object's operation" opName: if the
// object is callable (single-operation callback interfaces) it is called
// with thisArg; otherwise its opName property must be callable and is
// called with the object as this.
func (c *CallbackInterface) CallOperation(opName string, thisArg sobek.Value, args ...sobek.Value) (sobek.Value, error) {
	r := c.Realm
	var res sobek.Value
	var err error
	if ex := r.VM.Try(func() {
		// 1-4. Let X be O.
		x := sobek.Value(c.Object)
		fn, callable := sobek.AssertFunction(x)
		if thisArg == nil {
			thisArg = sobek.Undefined()
		}
		// 5. If IsCallable(O) is false:
		if !callable {
			// 5.1. Let getResult be Get(O, opName).
			x = c.Object.Get(opName)
			// 5.3-5.4. If IsCallable(X) is false, throw a TypeError.
			fn, callable = sobek.AssertFunction(x)
			if !callable {
				r.ThrowTypeError("The '%s' property of the callback interface is not callable", opName)
			}
			// 5.5. Set thisArg to O.
			thisArg = c.Object
		}
		res, err = fn(thisArg, args...)
	}); ex != nil {
		return nil, &JSError{Value: ex.Value()}
	}
	if err != nil {
		if ex, ok := err.(*sobek.Exception); ok {
			return nil, &JSError{Value: ex.Value()}
		}
		return nil, err
	}
	return res, nil
}
