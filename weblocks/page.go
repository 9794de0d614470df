package weblocks

import (
	"runtime/debug"
	"sync/atomic"

	"github.com/gowebengine/weblocks/dom"
)

// This file is the page side of the lock service contract: the request()
// and query() method steps of a LockManager object, as a function of the
// contract (a Service and the environment's Client) and of what the host
// knows about the environment (Facts), for hosts of their own. They run on
// the environment's event loop, where the host's deliver function runs
// what the service delivers; callbacks are invoked and promises settled
// there.

// Facts are what the page side needs to know about the environment making
// the call (this's relevant settings object).
type Facts struct {
	// SecureContext: the environment is a secure context. LockManager is
	// [SecureContext]: a host should not expose navigator.locks in other
	// environments; the page side refuses them with a "SecurityError".
	SecureContext bool
	// OpaqueOrigin: the environment's origin is opaque, so it has no
	// storage key and "obtain a lock manager" fails.
	OpaqueOrigin bool
	// NotFullyActive: the environment's relevant global object's
	// associated Document is not fully active (false for workers).
	NotFullyActive bool
	// Terminated: the environment went away (its document was unloaded
	// or its agent terminated): requests and queries are rejected with an
	// "InvalidStateError" DOMException.
	Terminated bool
}

// Signal is what the method steps need of an AbortSignal. *dom.AbortSignal
// is one; a host may supply its own.
type Signal interface {
	Aborted() bool
	Reason() any
	// AddAlgorithm adds steps to run, on the signal's event loop, when it
	// is aborted; RemoveAlgorithm removes them.
	AddAlgorithm(steps func()) dom.AlgorithmID
	RemoveAlgorithm(id dom.AlgorithmID)
}

// checkFacts runs the method steps' checks of the environment: step 3 of
// request() (step 2 of query()): a document that is not fully active;
// step 4 (3): "obtain a lock manager" fails for an opaque origin; and
// LockManager's [SecureContext].
func checkFacts(f Facts) error {
	if !f.SecureContext {
		e := *ErrInsecureContext
		return &e
	}
	// If environment's relevant global object's associated Document is not
	// fully active, then return a promise rejected with an
	// "InvalidStateError" DOMException.
	if f.NotFullyActive {
		return dom.NewDOMException("The document is not fully active.", dom.InvalidStateError)
	}
	if f.Terminated {
		return dom.NewDOMException("The environment was terminated.", dom.InvalidStateError)
	}
	// Let manager be the result of obtaining a lock manager given
	// environment. If that returned failure, then return a promise
	// rejected with a "SecurityError" DOMException.
	if f.OpaqueOrigin {
		return dom.NewDOMException("Web Locks are not available in this context: its origin is opaque.", dom.SecurityError)
	}
	return nil
}

// checkOptions runs steps 5 to 9 of the request() method steps, and
// returns the reason of the rejected promise they would return, or nil.
func checkOptions(name Name, opts Options) any {
	// 5. If name starts with U+002D HYPHEN-MINUS (-), then return a promise
	//    rejected with a "NotSupportedError" DOMException.
	if name.reserved() {
		return dom.NewDOMException("Lock names starting with '-' are reserved.", dom.NotSupportedError)
	}
	// 6. If both options["steal"] and options["ifAvailable"] are true, then
	//    return a promise rejected with a "NotSupportedError" DOMException.
	if opts.Steal && opts.IfAvailable {
		return dom.NewDOMException("The 'steal' and 'ifAvailable' options cannot be used together.", dom.NotSupportedError)
	}
	// 7. If options["steal"] is true and options["mode"] is not
	//    "exclusive", then return a promise rejected with a
	//    "NotSupportedError" DOMException.
	if opts.Steal && opts.Mode != Exclusive {
		return dom.NewDOMException("The 'steal' option may only be used with 'exclusive' locks.", dom.NotSupportedError)
	}
	// 8. If options["signal"] exists, and either of options["steal"] or
	//    options["ifAvailable"] is true, then return a promise rejected with
	//    a "NotSupportedError" DOMException.
	if opts.Signal != nil && (opts.Steal || opts.IfAvailable) {
		return dom.NewDOMException("The 'signal' option cannot be used with 'steal' or 'ifAvailable'.", dom.NotSupportedError)
	}
	// 9. If options["signal"] exists and is aborted, then return a promise
	//    rejected with options["signal"]'s abort reason.
	if opts.Signal != nil && opts.Signal.Aborted() {
		return opts.Signal.Reason()
	}
	if opts.Mode != Exclusive && opts.Mode != Shared {
		return errInvalidMode
	}
	return nil
}

// normalized returns opts with a nil *dom.AbortSignal as no signal.
func (opts Options) normalized() Options {
	if s, ok := opts.Signal.(*dom.AbortSignal); ok && s == nil {
		opts.Signal = nil
	}
	return opts
}

// RequestLock runs https://w3c.github.io/web-locks/#dom-lockmanager-request
// (the request(name, options, callback) method steps) for the environment
// whose client (of the lock manager of its storage bucket) is c, on that
// environment's event loop: p is the released promise, which receives
// every outcome, the early rejections before RequestLock returns.
func RequestLock(s LockService, c Client, facts Facts, name Name, opts Options, callback Callback, p Promise) {
	if p == nil {
		panic("weblocks: nil Promise")
	}
	r := &PageRequest{}
	r.callback = callback
	r.start(s, c, facts, name, opts, p)
}

// HostRequest is what a host's binding passes to RequestHost for one
// request: its released promise, its callback and, once the callback has
// run, its waiting promise, in one value (so that the page side keeps no
// function value per request). The JS bindings' request state is one.
type HostRequest interface {
	// Promise is the released promise.
	Promise
	// Granted is the request's callback (LockGrantedCallback): it is
	// invoked with the lock, or nil when an ifAvailable request could not
	// be granted, and returns the waiting promise.
	Granted(lock *Lock) Waiting
	// WaitingSettled is asked, after Granted returned a waiting promise
	// for a granted lock, whether that promise's reaction may run at once
	// (it is settled, and running its steps now cannot be observed).
	// When it reports true the page side does not call OnSettled: it
	// releases the lock itself and then calls SettleReleased, in the same
	// task.
	WaitingSettled() bool
	// SettleReleased settles the released promise with the waiting
	// promise's outcome ("resolve p with waiting", early).
	SettleReleased()
}

// PageRequest is the page side's state of one request. A binding may embed
// it in its own per-request structure and pass it to RequestHost, saving
// an allocation. A PageRequest serves one request only, and must not be
// copied once used.
type PageRequest struct {
	s LockService
	// h is the request's handle, then (once granted) the lock's handle
	// (the two interfaces have one method set).
	h        RequestHandle
	callback Callback
	p        Promise // the released promise (a HostRequest when hosted)
	sig      *pageSignal
	// rejected: p was settled (signal aborted, stolen, terminated, or
	// resolved). Atomic: when the environment is gone, a dropped delivery
	// runs on whichever goroutine drops it (the lock task queue) while the
	// event loop may still run another of the request's deliveries.
	rejected atomic.Bool
	hosted   bool // p is a HostRequest, whose Granted is the callback
	// settleGone: p is the Go API's Future, which settles even when the
	// environment goes away (see the package documentation)
	settleGone bool
	// slot is the storage of the request's entry when s is a *Service
	// (see Service.Request): the page side's request and the service's
	// record of it are then one allocation.
	slot entry
}

// pageSignal is a request's signal and the id of its abort algorithm (a
// separate allocation: most requests have no signal).
type pageSignal struct {
	signal Signal
	algID  dom.AlgorithmID
}

// RequestHost is RequestLock for a host request h (its callback, released
// and waiting promises), with r as the page side's storage.
func RequestHost(s LockService, c Client, facts Facts, name Name, opts Options, h HostRequest, r *PageRequest) {
	if h == nil {
		panic("weblocks: nil HostRequest")
	}
	r.hosted = true
	r.start(s, c, facts, name, opts, h)
}

// start runs the method steps for r (its callback or host set).
func (r *PageRequest) start(s LockService, c Client, facts Facts, name Name, opts Options, p Promise) {
	r.p = p
	// 1. If options was not passed, then let options be a new LockOptions
	//    dictionary with default members. (The zero Options.)
	opts = opts.normalized()
	// 2. Let environment be this's relevant settings object. (facts)
	// 3. If environment's relevant global object's associated Document is
	//    not fully active, then return a promise rejected with an
	//    "InvalidStateError" DOMException.
	// 4. Let manager be the result of obtaining a lock manager given
	//    environment. If that returned failure, then return a promise
	//    rejected with a "SecurityError" DOMException. (c's bucket's.)
	if err := checkFacts(facts); err != nil {
		p.Reject(err)
		return
	}
	// (Every spelling of one DOMString is one lock: see Name.)
	name = name.Canonical()
	// 5.-9. (checkOptions)
	if reason := checkOptions(name, opts); reason != nil {
		p.Reject(reason)
		return
	}
	if r.callback == nil && !r.hosted {
		p.Reject(errNilCallback)
		return
	}
	// 10. Let promise be a new promise. (p)
	// 11. Request a lock with promise, the current agent, environment's id,
	//     manager, callback, name, options["mode"], options["ifAvailable"],
	//     options["steal"], and options["signal"].
	r.requestALock(s, c, name, opts)
	// 12. Return promise.
}

// requestALock is "request a lock" on the page side: the steps that run on
// the event loop, with those on the lock task queue behind the contract's
// Request.
func (r *PageRequest) requestALock(s LockService, c Client, name Name, opts Options) {
	r.s = s
	wait := Wait
	switch {
	case opts.IfAvailable:
		wait = IfAvailable
	case opts.Steal:
		wait = Steal
	}
	// 1. Let request be a new lock request. 3. Enqueue the following steps
	//    to the lock task queue: ... (LockService.Request)
	h, err := s.Request(c, name, opts.Mode, wait, r)
	if err != nil {
		if err == ErrClientTerminated {
			err = dom.NewDOMException("The environment was terminated.", dom.InvalidStateError)
		}
		r.reject(err)
		return
	}
	r.h = h
	// 2. If signal is present, then add the algorithm signal to abort the
	//    request request with signal to signal. (After the request was
	//    made, in the same task: nothing can run in between.)
	if opts.Signal != nil {
		r.sig = &pageSignal{signal: opts.Signal}
		if as, ok := opts.Signal.(*dom.AbortSignal); ok {
			r.sig.algID = as.AddAlgorithmValue((*pageAbortAlgorithm)(r))
		} else {
			r.sig.algID = opts.Signal.AddAlgorithm(r.signalToAbortTheRequest)
		}
	}
	// 4. Return request.
}

// abortAlgorithm is a request as its signal's abort algorithm, without a
// closure.
type pageAbortAlgorithm PageRequest

func (a *pageAbortAlgorithm) RunAbortAlgorithm() { (*PageRequest)(a).signalToAbortTheRequest() }

// signalToAbortTheRequest implements "signal to abort the request" on the
// page side.
func (r *PageRequest) signalToAbortTheRequest() {
	// 1. Enqueue the steps to abort the request request to the lock task
	//    queue.
	_ = r.s.Abort(r.h, r.sig.signal.Reason())
	// 2. Reject request's promise with signal's abort reason.
	r.reject(r.sig.signal.Reason())
}

func (r *PageRequest) reject(reason any) {
	if r.rejected.CompareAndSwap(false, true) {
		r.p.Reject(reason)
	}
}

// Receive is the request's Receiver: it runs on the event loop (the host's
// Deliver runs it), or where a dropped delivery is dropped.
func (r *PageRequest) Receive(o Outcome) {
	if o.Dropped {
		r.dropped(o)
		return
	}
	switch o.Kind {
	case OutcomeGranted:
		r.granted(o.Lock)
	case OutcomeNotAvailable:
		// "request a lock" 5.1, ifAvailable and not grantable:
		// 1. Let r be the result of invoking callback with null as the only
		//    argument.
		w := r.invoke(nil)
		// 2. Resolve promise with r and abort these steps.
		r.resolve(w)
	case OutcomeAborted, OutcomeRevoked:
		if o.Reason == ErrClientTerminated {
			// Lost with the environment: a host promise is left alone
			// (its realm is going away); the Go API's future settles.
			if r.settleGone {
				r.reject(environmentGone())
			}
			return
		}
		// Aborted by the signal (rejected already), stolen ("Reject lock's
		// released promise with an "AbortError" DOMException"), or
		// force-released.
		r.reject(o.Reason)
	}
}

// dropped handles an outcome whose task the host dropped (the event loop
// is gone): a granted lock is released (nobody can use it), and the Go
// API's future settles.
func (r *PageRequest) dropped(o Outcome) {
	if o.Kind == OutcomeGranted {
		_ = r.s.Release(o.Lock)
	}
	if r.settleGone {
		r.reject(environmentGone())
	}
}

// granted is step 14 of "process the lock request queue": the steps
// enqueued on the callback's relevant settings object's responsible event
// loop.
func (r *PageRequest) granted(lock LockHandle) {
	r.h = lock
	// 1. If signal is present, then run these steps:
	if r.sig != nil {
		// 1. If signal is aborted, then run these steps:
		if r.sig.signal.Aborted() {
			// 1. Enqueue the following step to the lock task queue:
			//    1. Release the lock lock.
			_ = r.s.Release(lock)
			// 2. Return.
			return
		}
		// 2. Remove the algorithm signal to abort the request request from
		//    signal.
		r.sig.signal.RemoveAlgorithm(r.sig.algID)
	}
	// 3. Let r be the result of invoking callback with a new Lock object
	//    associated with lock as the only argument.
	// (The Lock of the local service's entry when it is r's slot.)
	l := &r.slot.lock
	if r.slot.manager == nil {
		l = &Lock{name: lock.Name(), mode: lock.Mode()}
	}
	w := r.invoke(l)
	// 4. Resolve waiting with r.
	// When lock's waiting promise settles (fulfills or rejects), enqueue
	// the following steps on the lock task queue:
	//   1. Release the lock lock.
	//   2. Resolve lock's released promise with lock's waiting promise.
	// (The released promise is resolved on the event loop as the release
	// is enqueued: it lives there.)
	if w == nil {
		_ = r.s.Release(lock)
		r.resolve(nil)
		return
	}
	if h, ok := r.p.(HostRequest); ok && r.hosted && any(w) == any(h) && h.WaitingSettled() {
		// What OnSettled would do at once, without a closure; the host
		// settles the released promise itself.
		_ = r.s.Release(lock)
		if !r.rejected.Load() {
			h.SettleReleased()
		}
		return
	}
	w.OnSettled(func() {
		_ = r.s.Release(r.h)
		r.resolve(w)
	})
}

func (r *PageRequest) resolve(w Waiting) {
	if r.rejected.CompareAndSwap(false, true) { // (settled: p is settled once)
		r.p.Resolve(w)
	}
}

// invoke calls the callback, a panic rejecting the waiting promise (see
// CallbackPanic).
func (r *PageRequest) invoke(lock *Lock) (w Waiting) {
	defer func() {
		if v := recover(); v != nil {
			w = Rejected(&CallbackPanic{Value: v, Stack: debug.Stack()})
		}
	}()
	if r.hosted {
		return r.p.(HostRequest).Granted(lock)
	}
	cb := r.callback
	r.callback = nil
	return cb(lock)
}

// QueryLocks runs https://w3c.github.io/web-locks/#dom-lockmanager-query
// (the query() method steps) for the environment whose client is c, on
// its event loop: p is resolved with a Snapshot (or rejected).
func QueryLocks(s LockService, c Client, facts Facts, p Promise) {
	if p == nil {
		panic("weblocks: nil Promise")
	}
	queryLocks(s, c, facts, &pageQuery{p: p}, nil)
}

// pageQuery is a query of the page side: its promise, resolved with the
// Snapshot (or, for QueryInto, the *Snapshot given).
type pageQuery struct {
	p          Promise
	into       bool
	settleGone bool
}

func (q *pageQuery) Receive(o Outcome) {
	switch {
	case o.Dropped:
		if q.settleGone {
			q.p.Reject(environmentGone())
		}
	case q.into:
		q.p.Resolve(o.Snapshot)
	default:
		q.p.Resolve(*o.Snapshot)
	}
}

func queryLocks(s LockService, c Client, facts Facts, q *pageQuery, dst *Snapshot) error {
	// 1. Let environment be this's relevant settings object. (facts)
	// 2. If environment's relevant global object's associated Document is
	//    not fully active, then return a promise rejected with an
	//    "InvalidStateError" DOMException.
	// 3. Let manager be the result of obtaining a lock manager given
	//    environment. If that returned failure, then return a promise
	//    rejected with a "SecurityError" DOMException.
	if err := checkFacts(facts); err != nil {
		q.p.Reject(err)
		return err
	}
	// 4. Let promise be a new promise. (p)
	// 5. Enqueue the steps to snapshot the lock state for manager with
	//    promise to the lock task queue. (Its result is delivered to the
	//    event loop, where promise is resolved.)
	if err := s.Query(c, dst, q); err != nil {
		if err == ErrClientTerminated {
			err = dom.NewDOMException("The environment was terminated.", dom.InvalidStateError)
		}
		q.p.Reject(err)
		return err
	}
	// 6. Return promise.
	return nil
}
