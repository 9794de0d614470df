package webidl

import (
	"github.com/grafana/sobek"
)

// Promise is a WebIDL promise type value: a JavaScript promise plus (when
// this realm created it) its resolving functions.
//
// (The sobek promise behind Object is not kept: State and Result look it
// up, which only the rare callers pay for, while every Promise, many of
// them in per-request structures, is a word smaller.)
type Promise struct {
	Object          *sobek.Object
	resolve, reject sobek.Value // the resolving functions (objects)
	realm           *Realm
}

// NewPromise implements "a new promise".
func (r *Realm) NewPromise() *Promise {
	p := new(Promise)
	r.InitPromise(p)
	return p
}

// InitPromise is NewPromise into a Promise the caller allocated (for
// example as a field of a larger structure, to save an allocation).
//
// The promise is made by the intrinsic %Promise% constructor with an
// executor of the realm's that hands over the resolving functions, rather
// than by sobek's Runtime.NewPromise, which wraps both functions in two Go
// closures each: four allocations per promise that settling one of them
// does not need.
func (r *Realm) InitPromise(p *Promise) {
	if r.promiseExecutor == nil {
		r.promiseExecutor = []sobek.Value{r.VM.ToValue(func(call sobek.FunctionCall) sobek.Value {
			r.execResolve, r.execReject = call.Argument(0), call.Argument(1)
			return sobek.Undefined()
		})}
	}
	obj, err := r.VM.New(r.promiseCtor, r.promiseExecutor...)
	if err != nil || r.execResolve == nil {
		// Uncatchable (the realm is closed): a promise that never settles.
		gp, _, _ := r.VM.NewPromise()
		// (undefined resolving functions: settling does nothing.)
		*p = Promise{Object: r.VM.ToValue(gp).(*sobek.Object), resolve: sobek.Undefined(), reject: sobek.Undefined(), realm: r}
		return
	}
	*p = Promise{Object: obj, resolve: r.execResolve, reject: r.execReject, realm: r}
	r.execResolve, r.execReject = nil, nil
}

// settle calls a resolving function of p.
//
// The call goes through the realm's %Function.prototype.call% (a
// sobek.Callable made once) with the resolving function as this: asking
// sobek for a Callable of the resolving function itself (AssertFunction)
// would allocate a closure per settlement. A resolving function runs no
// script before it has read its argument, and the extra native frame is
// not visible to script (a then getter called from it sees the frames
// below, none of them script).
func (p *Promise) settle(f sobek.Value, v sobek.Value) {
	r := p.realm
	fn, ok := f.(*sobek.Object)
	if !ok {
		return // the realm was closed when p was made, or p was settled
	}
	// Once either resolving function has been called, both do nothing
	// (they share [[AlreadyResolved]]): p lets go of them, so a Promise
	// kept after it settled (in a longer-lived structure) does not keep
	// two function objects alive (about 1.3 KB with sobek).
	p.resolve, p.reject = sobek.Undefined(), sobek.Undefined()
	// sobek reports only uncatchable errors here (the runtime was
	// interrupted: the realm is closed); settling then does nothing.
	// The arguments go in the realm's scratch array, not a new variadic
	// slice: sobek passes them on as is, and a resolving function reads its
	// argument before anything else can run (a then getter, the jobs
	// sobek runs on the way out, which may settle other promises and
	// reuse the array).
	args := &r.settleArgs
	args[0], args[1] = sobek.Undefined(), AnyValue(v)
	_, _ = r.funcCall(fn, args[:]...)
	args[1] = nil
}

// PromiseResolvedWith implements "a promise resolved with" v.
func (r *Realm) PromiseResolvedWith(v sobek.Value) *Promise {
	p := r.NewPromise()
	p.Resolve(v)
	return p
}

// PromiseRejectedWith implements "a promise rejected with" reason.
func (r *Realm) PromiseRejectedWith(reason sobek.Value) *Promise {
	p := r.NewPromise()
	p.Reject(reason)
	return p
}

// PromiseRejectedWithError is PromiseRejectedWith the JavaScript value of
// a Go error (see ErrorValue).
func (r *Realm) PromiseRejectedWithError(err error) *Promise {
	return r.PromiseRejectedWith(r.ErrorValue(err))
}

// ToPromise converts a JavaScript value to an IDL Promise<T>: a new promise
// of this realm resolved with v (WebIDL §3.2.23).
func (r *Realm) ToPromise(v sobek.Value) *Promise {
	return r.PromiseResolvedWith(AnyValue(v))
}

// Value returns the promise object.
func (p *Promise) Value() sobek.Value {
	if p == nil {
		return sobek.Null()
	}
	return p.Object
}

// Resolve implements "resolve p with v". It does nothing when p is not
// pending.
func (p *Promise) Resolve(v sobek.Value) {
	if p.resolve == nil {
		panic("webidl: Resolve on a promise this realm did not create")
	}
	p.settle(p.resolve, v)
}

// Reject implements "reject p with reason".
func (p *Promise) Reject(reason sobek.Value) {
	if p.reject == nil {
		panic("webidl: Reject on a promise this realm did not create")
	}
	p.settle(p.reject, reason)
}

// RejectError rejects p with the JavaScript value of err.
func (p *Promise) RejectError(err error) { p.Reject(p.realm.ErrorValue(err)) }

// State returns the promise's state when it is a sobek promise.
func (p *Promise) State() sobek.PromiseState {
	if gp := p.promise(); gp != nil {
		return gp.State()
	}
	return sobek.PromiseStatePending
}

// promise returns the sobek promise, or nil when p's object is not one.
func (p *Promise) promise() *sobek.Promise {
	if p.Object == nil {
		return nil
	}
	gp, _ := p.Object.Export().(*sobek.Promise)
	return gp
}

// Result returns the promise's fulfillment value or rejection reason.
func (p *Promise) Result() sobek.Value {
	gp := p.promise()
	if gp == nil {
		return sobek.Undefined()
	}
	return gp.Result()
}

// React implements "react to" p: it calls onFulfilled or onRejected (either
// may be nil) with the value when p settles and returns the derived
// promise, resolved with what the reaction returned (or with the value /
// rejected with the reason when the corresponding step is nil). A Go
// error returned by a reaction rejects the derived promise.
func (p *Promise) React(onFulfilled, onRejected func(sobek.Value) (sobek.Value, error)) *Promise {
	r := p.realm
	wrap := func(f func(sobek.Value) (sobek.Value, error)) sobek.Value {
		if f == nil {
			return sobek.Undefined()
		}
		return r.VM.ToValue(func(call sobek.FunctionCall) sobek.Value {
			v, err := f(call.Argument(0))
			if err != nil {
				r.Throw(err)
			}
			return AnyValue(v)
		})
	}
	res, err := r.promiseThen(p.Object, wrap(onFulfilled), wrap(onRejected))
	if err != nil {
		// Uncatchable (the realm is closed): a promise that never settles.
		return &Promise{Object: p.Object, realm: r}
	}
	return &Promise{Object: res.(*sobek.Object), realm: r}
}

// MarkHandled implements "mark as handled": a rejection of p is not
// reported as unhandled.
func (p *Promise) MarkHandled() {
	r := p.realm
	noop := r.VM.ToValue(func(sobek.FunctionCall) sobek.Value { return sobek.Undefined() })
	_, _ = r.promiseThen(p.Object, sobek.Undefined(), noop) // errors: the realm is closed
}

// PromiseOperation runs the body of an operation whose return type is a
// promise type: anything it throws becomes a promise rejected with the
// exception (WebIDL §3.7.7 / §3.6.8 "return a promise rejected with").
func (r *Realm) PromiseOperation(body func() sobek.Value) sobek.Value {
	var out sobek.Value
	if ex := r.VM.Try(func() { out = body() }); ex != nil {
		return r.PromiseRejectedWith(ex.Value()).Object
	}
	return out
}
