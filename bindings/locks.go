package bindings

import (
	"github.com/dop251/goja"
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/weblocks"
)

// lockManagerImpl is the Go implementation behind a LockManager object:
// navigator.locks of an environment (manager nil: the environment's default
// lock manager, obtained by the method steps) or a storage bucket's locks.
type lockManagerImpl struct {
	webidl.Reflector
	realm   *Realm
	manager *weblocks.LockManager
}

// lockImpl is the Go implementation behind a Lock object: a new one for
// every grant.
type lockImpl struct {
	webidl.Reflector
	lock *weblocks.Lock
}

// lockRequestOptions is a converted LockOptions dictionary.
type lockRequestOptions struct {
	mode        weblocks.Mode
	ifAvailable bool
	steal       bool
	signal      *dom.AbortSignal // nil: not present
}

// request is the request(name, callback) and request(name, options,
// callback) method steps: the arguments are already converted; the steps
// themselves run in weblocks. It returns the released promise.
func (m *lockManagerImpl) request(name webidl.DOMString, opts lockRequestOptions, callback *webidl.CallbackFunction) *webidl.Promise {
	r := m.realm
	// 10. Let promise be a new promise. (Created first so every early
	// rejection of steps 3-9 goes to it as well.)
	released := r.idl.NewPromise()
	env := r.env
	name16 := weblocks.Name(name) // both are WTF-8: lossless
	wopts := weblocks.Options{Mode: opts.mode, IfAvailable: opts.ifAvailable, Steal: opts.steal, Signal: opts.signal}
	cb := r.lockGrantedCallback(callback, released)
	p := &jsPromise{realm: r, p: released}
	if m.manager != nil {
		m.manager.RequestPromise(env, name16, wopts, cb, p)
	} else {
		weblocks.RequestPromise(env, name16, wopts, cb, p)
	}
	return released
}

// query is the query() method steps (in weblocks); it returns the promise
// that is resolved with a LockManagerSnapshot.
func (m *lockManagerImpl) query() *webidl.Promise {
	r := m.realm
	promise := r.idl.NewPromise()
	p := &jsPromise{realm: r, p: promise}
	if m.manager != nil {
		m.manager.QueryPromise(r.env, p)
	} else {
		weblocks.QueryPromise(r.env, p)
	}
	return promise
}

// lockGrantedCallback adapts a JavaScript LockGrantedCallback to weblocks:
// it is invoked ("invoke a callback function", return type Promise<any>)
// with a new Lock object, or null for an ifAvailable request that was not
// granted. The callback's completion becomes the waiting promise: a throw
// gives a rejected promise, a plain value a resolved one.
//
// The released promise takes the waiting promise's outcome as soon as the
// waiting promise settles, in the same reaction that starts the release (as
// Chromium does: it resolves the released promise with the waiting
// promise's value when its reaction runs, without waiting for the lock
// manager's round trip). So released settles after waiting, and its
// reactions run before the next waiter's callback. The lock manager's later
// "resolve released with waiting" then finds it settled; a steal that
// reaches the page first rejects it with an AbortError instead.
func (r *Realm) lockGrantedCallback(callback *webidl.CallbackFunction, released *webidl.Promise) weblocks.Callback {
	return func(lock *weblocks.Lock) weblocks.Waiting {
		arg := goja.Null()
		if lock != nil {
			arg = r.idl.Wrap(&lockImpl{lock: lock}, "Lock")
		}
		waiting := callback.InvokePromise(goja.Undefined(), arg)
		return &jsWaiting{realm: r, p: waiting, released: released}
	}
}

// jsWaiting is a waiting promise: the JavaScript promise made from the
// callback's result, and the released promise that takes its outcome.
type jsWaiting struct {
	realm    *Realm
	p        *webidl.Promise
	released *webidl.Promise
}

// OnSettled arranges, in one reaction to the waiting promise, for settled
// (which enqueues the release on the lock task queue) to run and then for
// the released promise to take the waiting promise's outcome. weblocks
// calls it once, as the last step of the grant task; when the waiting
// promise is already settled, the reaction runs before OnSettled returns.
func (w *jsWaiting) OnSettled(settled func()) {
	r := w.realm
	onFulfilled := r.vm.ToValue(func(call goja.FunctionCall) goja.Value {
		settled()
		w.released.Resolve(call.Argument(0))
		return goja.Undefined()
	})
	onRejected := r.vm.ToValue(func(call goja.FunctionCall) goja.Value {
		settled()
		w.released.Reject(call.Argument(0))
		return goja.Undefined()
	})
	r.promiseThen(w.p.Object, onFulfilled, onRejected)
}

// jsPromise is a promise weblocks settles (a released promise or a query
// promise) backed by a JavaScript promise. weblocks calls it on the
// realm's event loop, in a task, so resolving here runs the reactions at
// the end of that task.
type jsPromise struct {
	realm *Realm
	p     *webidl.Promise
}

// Resolve resolves the JavaScript promise: with the waiting promise itself
// for a released promise ("resolve p with waiting", so it adopts the
// waiting promise's outcome), with a LockManagerSnapshot dictionary for a
// query.
func (p *jsPromise) Resolve(value any) {
	r := p.realm
	switch v := value.(type) {
	case *jsWaiting:
		p.p.Resolve(v.p.Object)
	case weblocks.Snapshot:
		p.p.Resolve(r.snapshotValue(v))
	case *weblocks.Snapshot:
		p.p.Resolve(r.snapshotValue(*v))
	case nil:
		p.p.Resolve(goja.Undefined())
	case weblocks.Waiting:
		// A Go Waiting (not from this realm): fulfilled with undefined
		// once it settles.
		v.OnSettled(func() { r.queueTask(weblocks.TaskSource, func() { p.p.Resolve(goja.Undefined()) }) })
	default:
		p.p.Resolve(r.vm.ToValue(v))
	}
}

// Reject rejects the JavaScript promise with reason converted to
// JavaScript: a DOMException for *dom.DOMException, the original value for
// a JavaScript abort reason.
func (p *jsPromise) Reject(reason any) {
	p.p.Reject(p.realm.reasonValue(reason))
}

// snapshotValue converts a Snapshot to a LockManagerSnapshot dictionary.
func (r *Realm) snapshotValue(s weblocks.Snapshot) goja.Value {
	list := func(infos []weblocks.LockInfo) goja.Value {
		vals := make([]any, len(infos))
		for i, info := range infos {
			// Dictionary members in lexicographic order: clientId,
			// mode, name.
			o := r.vm.NewObject()
			_ = o.Set("clientId", info.ClientID)
			_ = o.Set("mode", info.Mode.String())
			_ = o.Set("name", goja.StringFromUTF16(info.Name.UTF16()))
			vals[i] = o
		}
		return r.vm.NewArray(vals...)
	}
	o := r.vm.NewObject()
	_ = o.Set("held", list(s.Held))
	_ = o.Set("pending", list(s.Pending))
	return o
}
