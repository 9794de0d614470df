package webidl

import (
	"errors"
	"fmt"

	"github.com/grafana/sobek"
)

// ErrorKind names an ECMAScript native error type a binding can throw.
type ErrorKind string

// The simple exception types of WebIDL §"Error names".
const (
	TypeError      ErrorKind = "TypeError"
	RangeError     ErrorKind = "RangeError"
	SyntaxError    ErrorKind = "SyntaxError"
	ReferenceError ErrorKind = "ReferenceError"
	EvalError      ErrorKind = "EvalError"
	URIError       ErrorKind = "URIError"
)

// SimpleError is a Go error that becomes an ECMAScript native error (a
// WebIDL "simple exception") when it reaches JavaScript.
type SimpleError struct {
	Kind    ErrorKind
	Message string
}

func (e *SimpleError) Error() string { return string(e.Kind) + ": " + e.Message }

// NewTypeError returns a SimpleError of kind TypeError.
func NewTypeError(format string, args ...any) *SimpleError {
	return &SimpleError{Kind: TypeError, Message: fmt.Sprintf(format, args...)}
}

// NewRangeError returns a SimpleError of kind RangeError.
func NewRangeError(format string, args ...any) *SimpleError {
	return &SimpleError{Kind: RangeError, Message: fmt.Sprintf(format, args...)}
}

// JSError is a Go error carrying an arbitrary JavaScript exception value
// (for example what a callback threw). Converting it back to JavaScript
// throws the same value.
type JSError struct {
	Value sobek.Value
}

func (e *JSError) Error() string {
	if e.Value == nil {
		return "JavaScript exception: undefined"
	}
	if o, ok := e.Value.(*sobek.Object); ok {
		if s := o.Get("stack"); s != nil && !sobek.IsUndefined(s) {
			return s.String()
		}
	}
	return "JavaScript exception: " + e.Value.String()
}

// ErrorValue turns a Go error into the JavaScript value to throw:
// JSError and *sobek.Exception give their value, SimpleError a native error,
// anything the realm's ErrorToJS hook accepts its result, and any other
// error a TypeError carrying its text (never silently dropped).
func (r *Realm) ErrorValue(err error) sobek.Value {
	var jsErr *JSError
	if errors.As(err, &jsErr) {
		if jsErr.Value == nil {
			return sobek.Undefined()
		}
		return jsErr.Value
	}
	var ex *sobek.Exception
	if errors.As(err, &ex) {
		return ex.Value()
	}
	var se *SimpleError
	if errors.As(err, &se) {
		return r.NewError(se.Kind, se.Message)
	}
	if r.ErrorToJS != nil {
		if v, ok := r.ErrorToJS(r, err); ok {
			return v
		}
	}
	return r.NewError(TypeError, err.Error())
}

// NewError creates a native error object of the given kind in the realm.
// A TypeError is made by %TypeError% through sobek's Go API, whatever
// script has put in the global TypeError property.
func (r *Realm) NewError(kind ErrorKind, message string) *sobek.Object {
	if kind == TypeError {
		return r.VM.NewTypeError("%s", message)
	}
	ctor, _ := r.VM.GlobalObject().Get(string(kind)).(*sobek.Object)
	if ctor == nil {
		return r.VM.NewTypeError("%s", message)
	}
	obj, err := r.VM.New(ctor, r.VM.ToValue(message))
	if err != nil {
		panic(err)
	}
	return obj
}

// Throw throws err into JavaScript: it never returns. Binding code calls it
// from inside a sobek native function.
func (r *Realm) Throw(err error) {
	panic(r.ErrorValue(err))
}

// ThrowTypeError throws a new TypeError.
func (r *Realm) ThrowTypeError(format string, args ...any) {
	panic(r.NewError(TypeError, fmt.Sprintf(format, args...)))
}

// ThrowRangeError throws a new RangeError.
func (r *Realm) ThrowRangeError(format string, args ...any) {
	panic(r.NewError(RangeError, fmt.Sprintf(format, args...)))
}

// Catch runs f and returns what it threw as a JSError (nil when f
// returned normally). Go panics that are not JavaScript throws propagate.
func (r *Realm) Catch(f func()) (err error) {
	if ex := r.VM.Try(f); ex != nil {
		return &JSError{Value: ex.Value()}
	}
	return nil
}

// IllegalInvocation is the TypeError message of failed brand checks.
const IllegalInvocation = "Illegal invocation"
