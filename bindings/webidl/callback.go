package webidl

import (
	"github.com/dop251/goja"
)

// CallbackFunction is an IDL callback function value: a callable object
// (or, with [LegacyTreatNonObjectAsNull], any object) and the realm it was
// converted in.
type CallbackFunction struct {
	Object   *goja.Object
	callable goja.Callable
	Realm    *Realm
}

// ToCallbackFunction converts v to a callback function type: a TypeError
// unless callable. With legacyTreatNonObjectAsNull a non-object gives nil
// (null) and a non-callable object is accepted (invoking it does nothing).
func (r *Realm) ToCallbackFunction(v goja.Value, legacyTreatNonObjectAsNull bool) *CallbackFunction {
	obj, isObj := v.(*goja.Object)
	if legacyTreatNonObjectAsNull && !isObj {
		return nil
	}
	fn, ok := goja.AssertFunction(v)
	if !ok && !legacyTreatNonObjectAsNull {
		r.ThrowTypeError("The provided value is not a function")
	}
	return &CallbackFunction{Object: obj, callable: fn, Realm: r}
}

// Value returns the callback's object, or null.
func (c *CallbackFunction) Value() goja.Value {
	if c == nil {
		return goja.Null()
	}
	return c.Object
}

// Invoke implements "invoke a callback function" with this value thisArg
// (nil for undefined). It returns the completion value or a *JSError with
// what the callback threw. A non-callable [LegacyTreatNonObjectAsNull]
// object returns undefined.
func (c *CallbackFunction) Invoke(thisArg goja.Value, args ...goja.Value) (goja.Value, error) {
	if c.callable == nil {
		return goja.Undefined(), nil
	}
	if thisArg == nil {
		thisArg = goja.Undefined()
	}
	var res goja.Value
	var err error
	if ex := c.Realm.VM.Try(func() { res, err = c.callable(thisArg, args...) }); ex != nil {
		return nil, &JSError{Value: ex.Value()}
	}
	if err != nil {
		if ex, ok := err.(*goja.Exception); ok {
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
func (c *CallbackFunction) InvokePromise(thisArg goja.Value, args ...goja.Value) *Promise {
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
	Object *goja.Object
	Realm  *Realm
}

// ToCallbackInterface converts v to a callback interface type: a TypeError
// unless v is an object.
func (r *Realm) ToCallbackInterface(v goja.Value) *CallbackInterface {
	obj, ok := v.(*goja.Object)
	if !ok {
		r.ThrowTypeError("The provided value is not an object")
	}
	return &CallbackInterface{Object: obj, Realm: r}
}

// Value returns the callback object, or null.
func (c *CallbackInterface) Value() goja.Value {
	if c == nil {
		return goja.Null()
	}
	return c.Object
}

// CallOperation implements "call a user object's operation" opName: if the
// object is callable (single-operation callback interfaces) it is called
// with thisArg; otherwise its opName property must be callable and is
// called with the object as this.
func (c *CallbackInterface) CallOperation(opName string, thisArg goja.Value, args ...goja.Value) (goja.Value, error) {
	r := c.Realm
	var res goja.Value
	var err error
	if ex := r.VM.Try(func() {
		// 1-4. Let X be O.
		x := goja.Value(c.Object)
		fn, callable := goja.AssertFunction(x)
		if thisArg == nil {
			thisArg = goja.Undefined()
		}
		// 5. If IsCallable(O) is false:
		if !callable {
			// 5.1. Let getResult be Get(O, opName).
			x = c.Object.Get(opName)
			// 5.3-5.4. If IsCallable(X) is false, throw a TypeError.
			fn, callable = goja.AssertFunction(x)
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
		if ex, ok := err.(*goja.Exception); ok {
			return nil, &JSError{Value: ex.Value()}
		}
		return nil, err
	}
	return res, nil
}
