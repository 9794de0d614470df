package weblocks

import (
	"context"
	"errors"
	"sync"

	"github.com/gowebengine/weblocks/dom"
)

// Waiting is a lock's waiting promise as the lock manager sees it: the lock
// is held until it settles. A Callback returns one; a nil Waiting means a
// promise already fulfilled with undefined (a callback that returned a
// non-promise value).
//
// The JS bindings implement Waiting with the JS promise that WebIDL's
// "invoke" produced from the callback's return value; pure-Go integrators
// return a *Future (see Resolved, Rejected and NewFuture).
type Waiting interface {
	// OnSettled arranges for settled to be called, on the event loop of
	// the environment that made the request, once the promise is
	// fulfilled or rejected (at once if it already is). weblocks calls
	// OnSettled exactly once per waiting promise.
	OnSettled(settled func())
}

// Promise is a host promise that weblocks settles: the released promise of
// a request, or the promise of a query. weblocks calls exactly one of its
// methods, once, on the event loop of the environment that made the call.
type Promise interface {
	// Resolve resolves the promise with value. For a released promise the
	// value is the lock's Waiting (spec: "resolve p with waiting": the
	// released promise adopts the waiting promise's outcome) or nil; for a
	// query it is a Snapshot.
	Resolve(value any)
	// Reject rejects the promise with reason: an "AbortError"
	// *dom.DOMException when the lock was stolen, or the abort reason of the
	// request's signal.
	Reject(reason any)
}

// Future is a plain-Go promise: the released promise and query result of
// the Go API, and a ready-made Waiting for Go callbacks. Its settle methods
// are meant to be called on one event loop, like a JS promise; Done, Wait,
// Settled and Result may be used from any goroutine. Every future the Go API
// returns settles, even when its environment goes away (see the package
// documentation).
type Future struct {
	mu        sync.Mutex
	state     uint8 // futurePending, futureFulfilled or futureRejected
	adopting  bool
	value     any
	first     func()    // the first reaction (most futures have at most one)
	reactions *[]func() // the others (a pointer: a request's entry and future fit a smaller size class)
	done      chan struct{}
}

const (
	futurePending uint8 = iota
	futureFulfilled
	futureRejected
)

// NewFuture returns a pending future.
func NewFuture() *Future { return &Future{} }

// Resolved returns a future fulfilled with v.
func Resolved(v any) *Future { return &Future{state: futureFulfilled, value: v} }

// Rejected returns a future rejected with reason.
func Rejected(reason any) *Future { return &Future{state: futureRejected, value: reason} }

// Resolve resolves f with v. If v is a *Future, f adopts its outcome once it
// settles (like resolving a JS promise with a thenable); if v is another
// Waiting, f is fulfilled with v once v settles. Resolving a future that is
// already resolved does nothing.
func (f *Future) Resolve(v any) {
	if f == nil {
		return // a nil Future is settled already (see errNilFuture)
	}
	f.mu.Lock()
	if f.state != futurePending || f.adopting {
		f.mu.Unlock()
		return
	}
	switch w := v.(type) {
	case *Future:
		if w == f {
			f.settleLocked(futureRejected, errSelfResolution)
			return
		}
		if w != nil {
			f.adopting = true
			f.mu.Unlock()
			if st, val := w.outcome(); st != futurePending {
				f.settle(st, val)
				return
			}
			w.OnSettled(func() {
				st, val := w.outcome()
				f.settle(st, val)
			})
			return
		}
	case Waiting:
		f.adopting = true
		f.mu.Unlock()
		w.OnSettled(func() { f.settle(futureFulfilled, w) })
		return
	}
	f.settleLocked(futureFulfilled, v)
}

// Reject rejects f with reason, unless f is already resolved.
func (f *Future) Reject(reason any) {
	if f == nil {
		return
	}
	f.mu.Lock()
	adopting := f.adopting
	f.mu.Unlock()
	if !adopting {
		f.settle(futureRejected, reason)
	}
}

func (f *Future) settle(state uint8, v any) {
	f.mu.Lock()
	if f.state != futurePending {
		f.mu.Unlock()
		return
	}
	f.settleLocked(state, v)
}

// settleLocked settles the pending f, whose lock the caller holds; it
// unlocks it and runs the reactions.
func (f *Future) settleLocked(state uint8, v any) {
	f.state, f.value = state, v
	first, rs := f.first, f.reactions
	f.first, f.reactions = nil, nil
	if f.done != nil {
		close(f.done)
	}
	f.mu.Unlock()
	if first != nil {
		first()
	}
	if rs != nil {
		for _, r := range *rs {
			r()
		}
	}
}

func (f *Future) outcome() (uint8, any) {
	if f == nil {
		return futureRejected, errNilFuture
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.state, f.value
}

// OnSettled calls settled once f is fulfilled or rejected: at once if it
// already is, else on the goroutine that settles it. It implements Waiting.
// It panics (with a message) if settled is nil.
func (f *Future) OnSettled(settled func()) {
	if settled == nil {
		panic("weblocks: Future.OnSettled(nil)")
	}
	if f == nil {
		settled()
		return
	}
	f.mu.Lock()
	if f.state == futurePending {
		if f.first == nil {
			f.first = settled
		} else {
			if f.reactions == nil {
				f.reactions = new([]func())
			}
			*f.reactions = append(*f.reactions, settled)
		}
		f.mu.Unlock()
		return
	}
	f.mu.Unlock()
	settled()
}

// Settled reports whether f is fulfilled or rejected.
func (f *Future) Settled() bool {
	st, _ := f.outcome()
	return st != futurePending
}

// Result returns f's fulfilment value, or its rejection reason as err (an
// error such as *dom.DOMException stays as is; other reasons are wrapped by
// dom.ReasonError). Both are nil while f is pending.
func (f *Future) Result() (value any, err error) {
	return resultOf(f.outcome())
}

func resultOf(st uint8, v any) (any, error) {
	switch st {
	case futureFulfilled:
		return v, nil
	case futureRejected:
		return nil, dom.ReasonError(v)
	}
	return nil, nil
}

// Done returns a channel that is closed when f settles.
func (f *Future) Done() <-chan struct{} {
	if f == nil {
		return closedDone
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done == nil {
		f.done = make(chan struct{})
		if f.state != futurePending {
			close(f.done)
		}
	}
	return f.done
}

// Wait blocks until f settles or ctx is done, and returns f's Result (ctx's
// error if ctx ends first). Use it from a goroutine that is not f's event
// loop: waiting there would stop the loop that settles f.
func (f *Future) Wait(ctx context.Context) (value any, err error) {
	if st, v := f.outcome(); st != futurePending {
		return resultOf(st, v)
	}
	select {
	case <-f.Done():
		return f.Result()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

var errSelfResolution = errors.New("weblocks: a future cannot be resolved with itself")

// errNilFuture is the outcome of a nil *Future: it behaves as a future
// rejected with this error (Result, Wait, Done, OnSettled), and resolving
// or rejecting it does nothing, so that misuse is an error, not a panic.
var errNilFuture = errors.New("weblocks: nil *Future")

// closedDone is the Done channel of a nil *Future.
var closedDone = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// CallbackPanic is the rejection reason of the waiting promise of a Go
// callback that panicked: like a JS callback that throws, the panic rejects
// the waiting promise, so the lock is released and the released promise
// rejects with it.
type CallbackPanic struct {
	Value any
	Stack []byte
}

func (e *CallbackPanic) Error() string { return "weblocks: lock callback panicked" }

// RequestFuture is the Go API's adapter over the page side: RequestLock
// with a released promise that is a *Future, returned, and whose early
// rejection (the promise the method steps would return rejected) is
// returned as err instead (dom.ReasonError of the reason: a
// *dom.DOMException as it is). The future settles even if the
// environment goes away (see the package documentation).
func RequestFuture(s LockService, c Client, facts Facts, name Name, opts Options, callback Callback) (*Future, error) {
	// The page side's request and its released future in one allocation.
	r := &struct {
		r PageRequest
		f Future
	}{}
	r.r.callback = callback
	r.r.settleGone = true
	r.r.start(s, c, facts, name, opts, &r.f)
	if r.r.h == nil { // rejected early
		_, err := r.f.Result()
		return nil, err
	}
	return &r.f, nil
}

// QueryFuture is the Go API's adapter for query(): QueryLocks with a
// *Future, fulfilled with a Snapshot, or with dst (a *Snapshot, whose
// storage is reused: see QueryInto) when dst is not nil. Early rejections
// are returned as err.
func QueryFuture(s LockService, c Client, facts Facts, dst *Snapshot) (*Future, error) {
	q := &struct {
		q pageQuery
		f Future
	}{}
	q.q.p, q.q.into, q.q.settleGone = &q.f, dst != nil, true
	if err := queryLocks(s, c, facts, &q.q, dst); err != nil {
		return nil, err
	}
	return &q.f, nil
}
