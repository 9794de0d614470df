package weblocks

import (
	"errors"
	"fmt"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/storage"
)

// Errors for Go callers that bypass WebIDL's conversions (which would throw
// a TypeError).
var (
	errNilCallback = errors.New("weblocks: nil callback")
	errInvalidMode = errors.New("weblocks: invalid lock mode")
	errNilEnv      = errors.New("weblocks: nil environment settings object")
	errNilManager  = errors.New("weblocks: nil *LockManager")
	errNilSnapshot = errors.New("weblocks: nil *Snapshot")
)

// ErrInsecureContext matches (with errors.Is) the error of a Request or
// Query from an environment that is not a secure context: LockManager is
// [SecureContext], so script in such an environment has no navigator.locks
// at all, and the Go API refuses the same environments. Each failure
// returns its own copy (a *dom.DOMException named "SecurityError").
var ErrInsecureContext = &dom.DOMException{Name: dom.SecurityError,
	Message: "Web Locks are only available in secure contexts ([SecureContext]); this environment is not one"}

// checkCaller checks what WebIDL and the event loop would guarantee script:
// env exists, the caller runs on env's event loop, and env is a secure
// context (LockManager is [SecureContext]).
func checkCaller(env *html.EnvironmentSettingsObject) error {
	if env == nil {
		return errNilEnv
	}
	// (A terminated loop runs nothing any more, so nobody can be on it:
	// the method steps then reject with "InvalidStateError".)
	if loop := env.ResponsibleEventLoop(); !loop.IsCurrent() && !loop.IsTerminated() {
		return fmt.Errorf("weblocks: %w", loop.CheckCurrent())
	}
	if !env.IsSecureContext() {
		e := *ErrInsecureContext
		return &e
	}
	return nil
}

// checkPromiseCaller is checkCaller for the host-promise entry points,
// which cannot report a wrong-goroutine call through p (settling a host
// promise from another goroutine is the very race to avoid): they panic
// with the message instead. The other failures reject p.
func checkPromiseCaller(env *html.EnvironmentSettingsObject, p Promise) error {
	if p == nil {
		panic("weblocks: nil Promise")
	}
	err := checkCaller(env)
	if err != nil {
		// (Only here: a target variable for errors.As escapes, an
		// allocation per request on the common path otherwise.)
		var wg *html.WrongGoroutineError
		if errors.As(err, &wg) {
			panic(err.Error())
		}
	}
	return err
}

// Options are the LockOptions of a request. The zero value is the default:
// an exclusive lock, waiting as long as needed, no steal, no signal.
type Options struct {
	Mode        Mode
	IfAvailable bool
	Steal       bool
	Signal      Signal // nil: not present (a *dom.AbortSignal or a host's own)
}

// StorageEndpoint is the "web-locks" storage endpoint identifier: a lock
// manager is the associated value of a bucket's "web-locks" bottle.
const StorageEndpoint = "web-locks"

func init() {
	// The Web Locks API registers its storage endpoint: identifier
	// "web-locks", types « "local" », quota null.
	if err := storage.RegisterEndpoint(storage.Endpoint{Identifier: StorageEndpoint, Types: []storage.StorageType{storage.Local}}); err != nil {
		panic(err)
	}
}

// ObtainALockManager implements "obtain a lock manager": the lock manager of
// env's default storage bucket. It fails with a "SecurityError"
// *dom.DOMException when env has no storage key (an opaque origin).
func ObtainALockManager(env *html.EnvironmentSettingsObject) (*LockManager, error) {
	// 1. Let map be the result of obtaining a local storage bottle map given
	//    environment and "web-locks".
	bottleMap, err := storage.ObtainALocalStorageBottleMap(env, StorageEndpoint)
	// 2. If map is failure, then return failure.
	if err != nil {
		return nil, dom.NewDOMException("Web Locks are not available in this context: "+err.Error(), dom.SecurityError)
	}
	// 3. Let bottle be map's associated storage bottle.
	// 4. Return bottle's associated lock manager.
	return lockManagerOf(bottleMap.Bottle(), env.UserAgent()), nil
}

// LockManagerForBucket returns the lock manager of a storage bucket of the
// user agent ua (for the Storage Buckets API's bucket.locks); nil (whose
// methods report a nil manager) when ua or bucket is nil.
func LockManagerForBucket(ua *html.UserAgent, bucket *storage.Bucket) *LockManager {
	if ua == nil || bucket == nil {
		return nil
	}
	return lockManagerOf(bucket.Bottle(StorageEndpoint), ua)
}

// lockManagerOf returns the bottle's associated lock manager.
func lockManagerOf(bottle *storage.Bottle, ua *html.UserAgent) *LockManager {
	return bottle.Associated(func() any {
		b := bottle.Bucket()
		return locksOf(ua).managerOfBottle(Bucket{Key: b.Shelf().Key(), Name: b.Name()}, bottle)
	}).(*LockManager)
}

// Request runs the request(name, options, callback) method steps of env's
// LockManager object (navigator.locks in env): it requests a lock on name in
// env's lock manager and returns the released promise as a Future. It must
// be called on env's event loop; callback runs there too.
//
// The promise the method steps would return rejected is returned as err
// instead: a *dom.DOMException ("InvalidStateError", "SecurityError" or
// "NotSupportedError"), or the options' signal's abort reason (via
// dom.ReasonError) when it is already aborted.
func Request(env *html.EnvironmentSettingsObject, name Name, opts Options, callback Callback) (*Future, error) {
	return requestFuture(env, nil, name, opts, callback, false)
}

// RequestPromise is Request for a host-provided released promise p (the JS
// bindings pass their JS promise): every outcome, including the method
// steps' early rejections, goes to p, which is settled on env's event loop
// (early rejections before RequestPromise returns).
func RequestPromise(env *html.EnvironmentSettingsObject, name Name, opts Options, callback Callback, p Promise) {
	if err := checkPromiseCaller(env, p); err != nil {
		p.Reject(err)
		return
	}
	requestMethodSteps(env, nil, name, opts, callback, p, nil, false, isFuture(p))
}

// Request is like the package-level Request, in lock manager m instead of
// env's default one (for a storage bucket's lock manager).
func (m *LockManager) Request(env *html.EnvironmentSettingsObject, name Name, opts Options, callback Callback) (*Future, error) {
	return requestFuture(env, m, name, opts, callback, true)
}

// RequestPromise is RequestPromise in lock manager m.
func (m *LockManager) RequestPromise(env *html.EnvironmentSettingsObject, name Name, opts Options, callback Callback, p Promise) {
	if err := checkPromiseCaller(env, p); err != nil {
		p.Reject(err)
		return
	}
	if m == nil {
		p.Reject(errNilManager)
		return
	}
	requestMethodSteps(env, m, name, opts, callback, p, nil, false, isFuture(p))
}

// isFuture reports whether a host promise is a *Future: it then gets the
// Go API's guarantee (it settles even when its environment goes away),
// which the engine applies to every request made with one (goAPI) without
// knowing the type.
func isFuture(p Promise) bool {
	_, ok := p.(*Future)
	return ok
}

// RequestState is the storage weblocks needs for one lock request. A binding
// may embed it in its own per-request structure and pass it to RequestIn,
// saving the allocation RequestPromise makes. A RequestState serves one request
// only, and must not be copied once used.
type RequestState struct{ e entry }

// RequestIn is RequestPromise in lock manager m (env's default lock
// manager when m is nil) for the host request h (its callback, released
// and waiting promises), with req as the request's storage.
func RequestIn(env *html.EnvironmentSettingsObject, m *LockManager, name Name, opts Options, h HostRequest, req *RequestState) {
	if err := checkPromiseCaller(env, h); err != nil {
		h.Reject(err)
		return
	}
	requestMethodSteps(env, m, name, opts, nil, h, &req.e, true, false)
}

func requestFuture(env *html.EnvironmentSettingsObject, m *LockManager, name Name, opts Options, callback Callback, explicit bool) (*Future, error) {
	if explicit && m == nil {
		return nil, errNilManager
	}
	if err := checkCaller(env); err != nil {
		return nil, err
	}
	// The entry and its released future in one allocation.
	r := &struct {
		e entry
		f Future
	}{}
	if err := requestMethodSteps(env, m, name, opts, callback, &r.f, &r.e, false, true); err != nil {
		return nil, err
	}
	return &r.f, nil
}

// requestMethodSteps are the request() method steps. A returned error is
// the reason p was rejected with (early rejection).
//
// hosted: p is a HostRequest (RequestIn), whose Granted method is the
// callback (callback is nil); goAPI: p is the Go API's Future, which
// settles even if the environment goes away.
func requestMethodSteps(env *html.EnvironmentSettingsObject, manager *LockManager, name Name, opts Options, callback Callback, p Promise, e *entry, hosted, goAPI bool) error {
	reject := func(reason any) error {
		p.Reject(reason)
		return dom.ReasonError(reason)
	}
	opts = opts.normalized()
	// 1. If options was not passed, then let options be a new LockOptions
	//    dictionary with default members. (The zero Options.)
	// 2. Let environment be this's relevant settings object.
	// 3. If environment's relevant global object's associated Document is
	//    not fully active, then return a promise rejected with an
	//    "InvalidStateError" DOMException.
	if err := checkActive(env); err != nil {
		return reject(err)
	}
	c := lookupClient(env)
	// 4. Let manager be the result of obtaining a lock manager given
	//    environment. If that returned failure, then return a promise
	//    rejected with a "SecurityError" DOMException.
	defaultManager := manager == nil
	if defaultManager {
		if c != nil {
			manager = c.defaultManager.Load()
		}
		if manager == nil {
			var err error
			if manager, err = ObtainALockManager(env); err != nil {
				return reject(err)
			}
		}
	}
	// (Every spelling of one DOMString is one lock: see Name.)
	name = name.Canonical()
	// 5.-9. (checkOptions: page.go)
	if reason := checkOptions(name, opts); reason != nil {
		return reject(reason)
	}
	if callback == nil && !hosted {
		return reject(errNilCallback)
	}
	if s, ok := opts.Signal.(*dom.AbortSignal); ok {
		// The signal belongs to env's event loop from now on: aborting it
		// from another goroutine panics instead of racing with the grant.
		s.BindToLoop(env.ResponsibleEventLoop())
	}
	if c == nil {
		c = clientFor(env)
	}
	if !c.register() {
		return reject(dom.NewDOMException("The environment was terminated.", dom.InvalidStateError))
	}
	if defaultManager && c.defaultManager.Load() == nil {
		c.defaultManager.Store(manager)
	}
	// 10. Let promise be a new promise. (p)
	// 11. Request a lock with promise, the current agent, environment's id,
	//     manager, callback, name, options["mode"], options["ifAvailable"],
	//     options["steal"], and options["signal"].
	if e == nil {
		e = new(entry)
	}
	*e = entry{
		lock:        Lock{name: name, mode: opts.Mode},
		manager:     manager,
		client:      c,
		callback:    callback,
		promise:     p,
		ifAvailable: opts.IfAvailable,
		steal:       opts.Steal,
		goAPI:       goAPI,
	}
	if opts.Signal != nil {
		e.sig = &signalRef{signal: opts.Signal}
	}
	requestALock(e)
	// 12. Return promise.
	return nil
}

// checkActive is step 3 of the request() and query() method steps, plus a
// check that the environment's agent still runs (a terminated environment
// cannot request locks: its termination steps already ran).
func checkActive(env *html.EnvironmentSettingsObject) error {
	if doc := env.AssociatedDocument(); doc != nil && !doc.IsFullyActive() {
		return dom.NewDOMException("The document is not fully active.", dom.InvalidStateError)
	}
	if env.ResponsibleEventLoop().IsTerminated() {
		return dom.NewDOMException("The environment was terminated.", dom.InvalidStateError)
	}
	return nil
}

// Query runs the query() method steps of env's LockManager object: the
// result is a Future fulfilled with a Snapshot of env's lock manager. It
// must be called on env's event loop. Early rejections are returned as err
// (a *dom.DOMException: "InvalidStateError" or "SecurityError").
func Query(env *html.EnvironmentSettingsObject) (*Future, error) {
	return queryFuture(env, nil, nil, false, false)
}

// QueryInto is Query that stores the snapshot in dst, reusing dst's
// storage (its lists' arrays), and fulfills the future with dst (a
// *Snapshot) instead of a new Snapshot. Once dst's storage has grown to
// the manager's size, a query allocates nothing per entry, so a caller
// that queries repeatedly adds no garbage (and so no collector work)
// proportional to the number of locks. dst must not be used (read,
// copied or passed to another QueryInto) until the future settles; the
// lists of an earlier result in dst, and copies of them, are overwritten
// by it. The LockInfo values read from a list (names and client ids are
// immutable strings) stay valid.
func QueryInto(env *html.EnvironmentSettingsObject, dst *Snapshot) (*Future, error) {
	return queryFuture(env, nil, dst, false, true)
}

// QueryPromise is Query for a host promise p, resolved with a Snapshot.
func QueryPromise(env *html.EnvironmentSettingsObject, p Promise) {
	if err := checkPromiseCaller(env, p); err != nil {
		p.Reject(err)
		return
	}
	queryMethodSteps(env, nil, p, nil, isFuture(p))
}

// Query is Query in lock manager m.
func (m *LockManager) Query(env *html.EnvironmentSettingsObject) (*Future, error) {
	return queryFuture(env, m, nil, true, false)
}

// QueryInto is QueryInto in lock manager m.
func (m *LockManager) QueryInto(env *html.EnvironmentSettingsObject, dst *Snapshot) (*Future, error) {
	return queryFuture(env, m, dst, true, true)
}

// queryFuture is Query and QueryInto (into), in m when explicit (else in
// env's default lock manager), like requestFuture.
func queryFuture(env *html.EnvironmentSettingsObject, m *LockManager, dst *Snapshot, explicit, into bool) (*Future, error) {
	if explicit && m == nil {
		return nil, errNilManager
	}
	if err := checkCaller(env); err != nil {
		return nil, err
	}
	if into && dst == nil {
		return nil, errNilSnapshot
	}
	f := NewFuture()
	if err := queryMethodSteps(env, m, f, dst, true); err != nil {
		return nil, err
	}
	return f, nil
}

// QueryPromise is QueryPromise in lock manager m.
func (m *LockManager) QueryPromise(env *html.EnvironmentSettingsObject, p Promise) {
	if err := checkPromiseCaller(env, p); err != nil {
		p.Reject(err)
		return
	}
	if m == nil {
		p.Reject(errNilManager)
		return
	}
	queryMethodSteps(env, m, p, nil, isFuture(p))
}

// queryMethodSteps runs the query() method steps; the snapshot goes into
// dst (resolving p with dst) or, for a nil dst, into a new Snapshot
// (resolving p with it).
//
// goAPI: p is the Go API's Future (see queryTask).
func queryMethodSteps(env *html.EnvironmentSettingsObject, manager *LockManager, p Promise, dst *Snapshot, goAPI bool) error {
	reject := func(err error) error {
		p.Reject(err)
		return err
	}
	// 1. Let environment be this's relevant settings object.
	// 2. If environment's relevant global object's associated Document is
	//    not fully active, then return a promise rejected with an
	//    "InvalidStateError" DOMException.
	if err := checkActive(env); err != nil {
		return reject(err)
	}
	// 3. Let manager be the result of obtaining a lock manager given
	//    environment. If that returned failure, then return a promise
	//    rejected with a "SecurityError" DOMException.
	if manager == nil {
		var err error
		if manager, err = ObtainALockManager(env); err != nil {
			return reject(err)
		}
	}
	// 4. Let promise be a new promise. (p)
	// 5. Enqueue the steps to snapshot the lock state for manager with
	//    promise to the lock task queue.
	loop := env.ResponsibleEventLoop()
	manager.ltq.Enqueue(func() {
		manager.evictCachedClients() // bfcache.go
		t := &queryTask{p: p, dst: dst, goAPI: goAPI}
		if dst == nil {
			manager.snapshotTheLockState(&t.s)
		} else {
			manager.snapshotTheLockState(dst)
		}
		// (Resolve promise: queued as a task on the environment's event
		// loop, where the promise lives.)
		if !loop.QueueTaskValue(TaskSource, t) {
			t.DropTask()
		}
	})
	// 6. Return promise.
	return nil
}

// queryTask resolves a query's promise with its snapshot on the
// requester's event loop. If that loop terminated first, a Go API future is
// rejected at once like a gone environment's released futures (see
// abandon); a host promise is left alone.
type queryTask struct {
	p   Promise
	s   Snapshot  // the result (nil dst)
	dst *Snapshot // the caller's snapshot (QueryInto)
	// goAPI: p is the Go API's Future
	goAPI bool
}

func (t *queryTask) RunTask() {
	if t.dst != nil {
		t.p.Resolve(t.dst)
		return
	}
	t.p.Resolve(t.s)
}

func (t *queryTask) DropTask() {
	if t.goAPI {
		t.p.Reject(environmentGone())
	}
}
