package weblocks

import (
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
func RequestLock(s *Service, c *Client, facts Facts, name Name, opts Options, callback Callback, p Promise) {
	if p == nil {
		panic("weblocks: nil Promise")
	}
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
	if callback == nil {
		p.Reject(errNilCallback)
		return
	}
	// 10. Let promise be a new promise. (p)
	// 11. Request a lock with promise, the current agent, environment's id,
	//     manager, callback, name, options["mode"], options["ifAvailable"],
	//     options["steal"], and options["signal"].
	requestALockPage(s, c, name, opts, callback, p)
	// 12. Return promise.
}

// pageRequest is a request of the page side: the part of a lock request
// and of its lock that lives on the requester's event loop.
type pageRequest struct {
	s        *Service
	h        *RequestHandle
	callback Callback
	p        Promise
	signal   Signal
	algID    dom.AlgorithmID
	rejected bool // p was rejected (signal aborted, stolen, terminated)
}

// requestALockPage is "request a lock" on the page side: the steps that
// run on the event loop, with those on the lock task queue behind the
// contract's Request.
func requestALockPage(s *Service, c *Client, name Name, opts Options, callback Callback, p Promise) {
	r := &pageRequest{s: s, callback: callback, p: p, signal: opts.Signal}
	wait := Wait
	switch {
	case opts.IfAvailable:
		wait = IfAvailable
	case opts.Steal:
		wait = Steal
	}
	// 1. Let request be a new lock request. 3. Enqueue the following steps
	//    to the lock task queue: ... (Service.Request)
	h, err := s.Request(c, name, opts.Mode, wait, r.outcome)
	if err != nil {
		if err == ErrClientTerminated {
			err = dom.NewDOMException("The environment was terminated.", dom.InvalidStateError)
		}
		p.Reject(err)
		return
	}
	r.h = h
	// 2. If signal is present, then add the algorithm signal to abort the
	//    request request with signal to signal. (After the request was
	//    made, in the same task: nothing can run in between.)
	if r.signal != nil {
		r.algID = r.signal.AddAlgorithm(r.signalToAbortTheRequest)
	}
	// 4. Return request.
}

// signalToAbortTheRequest implements "signal to abort the request" on the
// page side.
func (r *pageRequest) signalToAbortTheRequest() {
	// 1. Enqueue the steps to abort the request request to the lock task
	//    queue.
	_ = r.s.Abort(r.h, r.signal.Reason())
	// 2. Reject request's promise with signal's abort reason.
	r.reject(r.signal.Reason())
}

func (r *pageRequest) reject(reason any) {
	if !r.rejected {
		r.rejected = true
		r.p.Reject(reason)
	}
}

// outcome runs on the event loop (the host's deliver function runs it).
func (r *pageRequest) outcome(o Outcome) {
	switch o.Kind {
	case OutcomeGranted:
		r.granted(o.Lock)
	case OutcomeNotAvailable:
		// "request a lock" 5.1, ifAvailable and not grantable:
		// 1. Let r be the result of invoking callback with null as the only
		//    argument.
		w := r.invoke(nil)
		// 2. Resolve promise with r and abort these steps.
		r.p.Resolve(w)
	case OutcomeAborted, OutcomeRevoked:
		// Aborted by the signal (rejected already), stolen ("Reject lock's
		// released promise with an "AbortError" DOMException"), or lost
		// with the client's termination.
		r.reject(o.Reason)
	}
}

// granted is step 14 of "process the lock request queue": the steps
// enqueued on the callback's relevant settings object's responsible event
// loop.
func (r *pageRequest) granted(lock *LockHandle) {
	// 1. If signal is present, then run these steps:
	if r.signal != nil {
		// 1. If signal is aborted, then run these steps:
		if r.signal.Aborted() {
			// 1. Enqueue the following step to the lock task queue:
			//    1. Release the lock lock.
			_ = r.s.Release(lock)
			// 2. Return.
			return
		}
		// 2. Remove the algorithm signal to abort the request request from
		//    signal.
		r.signal.RemoveAlgorithm(r.algID)
	}
	// 3. Let r be the result of invoking callback with a new Lock object
	//    associated with lock as the only argument.
	w := r.invoke(&Lock{name: lock.lock.name, mode: lock.lock.mode})
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
	w.OnSettled(func() {
		_ = r.s.Release(lock)
		r.resolve(w)
	})
}

func (r *pageRequest) resolve(w Waiting) {
	if !r.rejected {
		r.p.Resolve(w)
	}
}

// invoke calls the callback, a panic rejecting the waiting promise (see
// CallbackPanic).
func (r *pageRequest) invoke(lock *Lock) (w Waiting) {
	defer func() {
		if v := recover(); v != nil {
			w = Rejected(&CallbackPanic{Value: v})
		}
	}()
	cb := r.callback
	r.callback = nil
	return cb(lock)
}

// QueryLocks runs https://w3c.github.io/web-locks/#dom-lockmanager-query
// (the query() method steps) for the environment whose client is c, on
// its event loop: p is resolved with a Snapshot (or rejected).
func QueryLocks(s *Service, c *Client, facts Facts, p Promise) {
	if p == nil {
		panic("weblocks: nil Promise")
	}
	// 1. Let environment be this's relevant settings object. (facts)
	// 2. If environment's relevant global object's associated Document is
	//    not fully active, then return a promise rejected with an
	//    "InvalidStateError" DOMException.
	// 3. Let manager be the result of obtaining a lock manager given
	//    environment. If that returned failure, then return a promise
	//    rejected with a "SecurityError" DOMException.
	if err := checkFacts(facts); err != nil {
		p.Reject(err)
		return
	}
	// 4. Let promise be a new promise. (p)
	// 5. Enqueue the steps to snapshot the lock state for manager with
	//    promise to the lock task queue. (Its result is delivered to the
	//    event loop, where promise is resolved.)
	if err := s.Query(c, func(snap Snapshot) { p.Resolve(snap) }); err != nil {
		if err == ErrClientTerminated {
			err = dom.NewDOMException("The environment was terminated.", dom.InvalidStateError)
		}
		p.Reject(err)
	}
	// 6. Return promise.
}
