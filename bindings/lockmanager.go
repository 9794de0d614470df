package bindings

import (
	"errors"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/weblocks"
	"github.com/gowebengine/weblocks/weblocks/htmlhost"
	"github.com/grafana/sobek"
)

// lockManagerImpl is the Go implementation behind a LockManager object:
// navigator.locks of an environment (manager nil: the environment's default
// lock manager, obtained by the method steps) or a storage bucket's locks.
type lockManagerImpl struct {
	webidl.Reflector
	realm   *Realm
	manager *htmlhost.Manager
	// frame is the storage of a lock callback's this value and argument
	// while it is invoked (see lockRequest.Granted), so that a pending
	// request does not carry it; frameBusy: a callback invoked with it is
	// running (a nested grant uses storage of its own).
	frame     [2]sobek.Value
	frameBusy bool
	// lastLock is the implementation of the last Lock object made, which
	// the next grant of the same name and mode shares (see lockImpl).
	lastLock *lockImpl
}

// lockImplFor returns a Lock implementation for name and mode: the last
// one made when it has both, else a new one.
func (m *lockManagerImpl) lockImplFor(name weblocks.Name, mode weblocks.Mode) *lockImpl {
	if l := m.lastLock; l != nil && l.mode == mode && l.name == name {
		return l
	}
	l := &lockImpl{name: name, mode: mode}
	m.lastLock = l
	return l
}

// request is the request(name, callback) and request(name, options,
// callback) method steps: the arguments are already converted; the steps
// themselves run in weblocks. It returns the released promise.
func (m *lockManagerImpl) request(name webidl.DOMString, opts weblocks.Options, callback *webidl.CallbackFunction) *webidl.Promise {
	r := m.realm
	q := &lockRequest{m: m, callback: callback}
	// 10. Let promise be a new promise. (Created first so every early
	// rejection of steps 3-9 goes to it as well.)
	r.idl.InitPromise(&q.released)
	name16 := weblocks.Name(name) // both are WTF-8: lossless
	// q is the callback too (its Granted method) and holds weblocks'
	// storage for the request.
	htmlhost.RequestIn(r.env, m.manager, name16, opts, q, &q.state)
	return &q.released
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
		htmlhost.QueryPromise(r.env, p)
	}
	return promise
}

// lockRequest is the bindings' state of one request() call, in one
// allocation: it is the weblocks.HostRequest (the released promise
// weblocks settles, the LockGrantedCallback adapter, its Granted method,
// and the lock's waiting promise) and weblocks' own state of the request.
// (The Lock object's implementation is separate: see lockImpl.)
//
// The released promise takes the waiting promise's outcome as soon as the
// waiting promise settles, in the same reaction that starts the release (as
// Chromium does: it resolves the released promise with the waiting
// promise's value when its reaction runs, without waiting for the lock
// manager's round trip). So released settles after waiting, and its
// reactions run before the next waiter's callback. The lock manager's later
// "resolve released with waiting" then finds it settled; a steal that
// reaches the page first rejects it with an AbortError instead.
type lockRequest struct {
	m        *lockManagerImpl // the LockManager the request was made with
	callback *webidl.CallbackFunction
	released webidl.Promise
	// The waiting promise: when the callback returned a value that is not
	// an object (and did not throw), waiting is nil and value is that
	// value (waiting would be a promise already fulfilled with it);
	// otherwise waiting is the promise made from the callback's completion.
	value   sobek.Value
	waiting *webidl.Promise
	// settled records that released was resolved or rejected.
	settled bool
	state   weblocks.PageRequest
}

// realm is the request's realm (its LockManager's).
func (q *lockRequest) realm() *Realm { return q.m.realm }

// Granted adapts the JavaScript LockGrantedCallback to weblocks: it is
// invoked ("invoke a callback function", return type Promise<any>) with a
// new Lock object, or null for an ifAvailable request that was not
// granted. The callback's completion becomes the waiting promise: a throw
// gives a rejected promise, a plain value a resolved one.
func (q *lockRequest) Granted(lock *weblocks.Lock) weblocks.Waiting {
	r := q.realm()
	arg := sobek.Null()
	if lock != nil {
		l := q.m.lockImplFor(lock.Name(), lock.Mode())
		arg = idlWrapNewLock(r.idl, l, &l.slot)
	}
	// The this value and the argument go in the manager's storage (a
	// variadic slice would be allocated, and storage in q would make
	// every pending request larger). sobek copies them before the
	// callback runs script; a nested grant (an event loop spun inside the
	// callback) gets storage of its own.
	var frame []sobek.Value
	if m := q.m; !m.frameBusy {
		m.frameBusy = true
		defer func() { m.frame[1], m.frameBusy = nil, false }()
		frame = m.frame[:]
	} else {
		frame = make([]sobek.Value, 2)
	}
	frame[0], frame[1] = sobek.Undefined(), arg
	v, err := q.callback.InvokeFrame(frame)
	// The callback is invoked once: q (which lives until the lock is
	// released) lets go of it.
	q.callback = nil
	switch {
	case err != nil:
		var js *webidl.JSError
		if errors.As(err, &js) {
			q.waiting = r.idl.PromiseRejectedWith(webidl.AnyValue(js.Value))
		} else {
			q.waiting = r.idl.PromiseRejectedWithError(err)
		}
	case isObject(v):
		// Maybe a thenable: resolving waiting with it may take
		// reactions (and call a then getter), so it gets a real promise.
		q.waiting = r.idl.ToPromise(v)
	default:
		// A promise resolved with a primitive is fulfilled at once with
		// it: no promise is needed to know its outcome.
		q.value = webidl.AnyValue(v)
	}
	return q
}

func isObject(v sobek.Value) bool {
	_, ok := v.(*sobek.Object)
	return ok
}

// jsOnStack reports whether JavaScript is running in the realm (a Go
// function called from script is running).
func (r *Realm) jsOnStack() bool {
	return len(r.vm.CaptureCallStack(1, r.stackBuf[:0])) > 0
}

// WaitingSettled reports whether the waiting promise's reaction may run at
// once (weblocks.HostRequest): weblocks then runs the settled steps
// (enqueueing the release) itself and calls SettleReleased, with no
// OnSettled closure.
//
// That is when the callback returned a value that is not an object (and
// did not throw): the waiting promise would be fulfilled with it, and its
// reaction would be the only job in sobek's queue (the callback's own
// jobs ran when it returned), run as soon as the grant task's call into
// JavaScript returned. Running the reaction's steps directly is not
// observable, provided no JavaScript is on the stack (else the job would
// wait for it, and OnSettled makes it a job like any other).
func (q *lockRequest) WaitingSettled() bool {
	return q.waiting == nil && !q.realm().jsOnStack()
}

// SettleReleased is the rest of the waiting promise's reaction when
// WaitingSettled reported true: the released promise takes the value, so
// the lock manager's later "resolve released with waiting" (a no-op, see
// Resolve) needs no task.
func (q *lockRequest) SettleReleased() { q.resolveReleased(q.value) }

// OnSettled arranges, in one reaction to the waiting promise, for settled
// (which enqueues the release on the lock task queue) to run and then for
// the released promise to take the waiting promise's outcome. weblocks
// calls it once, as the last step of the grant task, unless WaitingSettled
// reported true; when the waiting promise is already settled, the
// reaction runs before OnSettled returns.
func (q *lockRequest) OnSettled(settled func()) {
	r := q.realm()
	if q.waiting == nil {
		// A primitive value while JavaScript is on the stack (not
		// expected: grant tasks run from the event loop): the reaction
		// must be a job like any other.
		q.waiting = r.idl.PromiseResolvedWith(q.value)
	}
	// One function for both outcomes: waiting's state tells which. (A
	// closure, as the method value was: settled lives in it, not in
	// every request.)
	react := r.vm.ToValue(func(call sobek.FunctionCall) sobek.Value { return q.waitingSettled(call, settled) })
	r.promiseThen(q.waiting.Object, react, react)
}

// waitingSettled is the reaction to the waiting promise.
func (q *lockRequest) waitingSettled(call sobek.FunctionCall, settled func()) sobek.Value {
	settled()
	if q.waiting.State() == sobek.PromiseStateRejected {
		q.rejectReleased(call.Argument(0))
	} else {
		q.resolveReleased(call.Argument(0))
	}
	// released is settled now, so Resolve will not read waiting: q lets go
	// of it.
	q.waiting = nil
	return sobek.Undefined()
}

func (q *lockRequest) resolveReleased(v sobek.Value) {
	if !q.settled {
		q.settled = true
		q.released.Resolve(v)
	}
}

func (q *lockRequest) rejectReleased(reason sobek.Value) {
	if !q.settled {
		q.settled = true
		q.released.Reject(reason)
	}
}

// Resolve is weblocks' "resolve p with waiting" (the waiting promise is q
// itself, or nil). The released promise has normally taken waiting's
// outcome already, in the reaction OnSettled installed; for an ifAvailable
// request that was not granted it adopts the waiting promise here.
func (q *lockRequest) Resolve(value any) {
	if q.settled {
		return
	}
	switch v := value.(type) {
	case *lockRequest:
		if v.waiting == nil {
			// The promise the spec resolves released with (adopting it
			// takes the same reactions as before).
			v.waiting = q.realm().idl.PromiseResolvedWith(v.value)
		}
		q.resolveReleased(v.waiting.Object)
	case nil:
		q.resolveReleased(sobek.Undefined())
	default:
		(&jsPromise{realm: q.realm(), p: &q.released}).Resolve(value)
		q.settled = true
	}
}

// Reject rejects the released promise with reason converted to
// JavaScript: a DOMException for *dom.DOMException, the original value for
// a JavaScript abort reason.
func (q *lockRequest) Reject(reason any) {
	q.rejectReleased(q.realm().reasonValue(reason))
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
	case weblocks.Snapshot:
		p.p.Resolve(r.snapshotValue(v))
	case *weblocks.Snapshot:
		p.p.Resolve(r.snapshotValue(*v))
	case nil:
		p.p.Resolve(sobek.Undefined())
	case weblocks.Waiting:
		// A Go Waiting (not from this realm): fulfilled with undefined
		// once it settles.
		v.OnSettled(func() { r.queueTask(htmlhost.TaskSource, func() { p.p.Resolve(sobek.Undefined()) }) })
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
func (r *Realm) snapshotValue(s weblocks.Snapshot) sobek.Value {
	list := func(infos weblocks.LockList) sobek.Value {
		vals := make([]any, infos.Len())
		for i, info := range infos.All() {
			// Dictionary members in lexicographic order: clientId,
			// mode, name.
			o := r.vm.NewObject()
			_ = o.Set("clientId", info.ClientID)
			_ = o.Set("mode", info.Mode.String())
			_ = o.Set("name", sobek.StringFromUTF16(info.Name.UTF16()))
			vals[i] = o
		}
		return r.vm.NewArray(vals...)
	}
	o := r.vm.NewObject()
	_ = o.Set("held", list(s.Held))
	_ = o.Set("pending", list(s.Pending))
	return o
}

func (m *lockManagerImpl) RequestWithCallback(name webidl.DOMString, callback *LockGrantedCallback) (*webidl.Promise, error) {
	// 1. If options was not passed, then let options be a new LockOptions
	// dictionary with default members.
	return m.request(name, weblocks.Options{}, callback.CallbackFunction), nil
}

func (m *lockManagerImpl) RequestWithOptions(name webidl.DOMString, options LockOptions, callback *LockGrantedCallback) (*webidl.Promise, error) {
	o := weblocks.Options{IfAvailable: options.IfAvailable, Steal: options.Steal}
	if options.Mode != "" {
		o.Mode, _ = weblocks.ParseMode(string(options.Mode))
	}
	if options.Signal != nil {
		o.Signal = options.Signal.idlImpl().sig
	}
	return m.request(name, o, callback.CallbackFunction), nil
}

func (m *lockManagerImpl) Query() (*webidl.Promise, error) { return m.query(), nil }

// lockManagerImpl implements LockManager.
var _ LockManagerMethods = (*lockManagerImpl)(nil)

// lockRequest is its request's host request: released promise, callback
// and waiting promise.
var _ weblocks.HostRequest = (*lockRequest)(nil)
