package weblocks

import (
	"errors"
	"sync"
	"sync/atomic"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/storage"
)

// This file is the lock service contract: the narrow interface between a
// host's page side (which runs the request() and query() method steps,
// invokes callbacks and settles promises on its own event loop) and the
// lock managers, which live on the lock task queue. Nothing of a host
// crosses it but a client id, a storage bucket and the host's deliver
// function; no document, event loop or JavaScript value does. (Chromium
// splits Web Locks at the same place: its renderer runs the method steps,
// its browser process holds one lock manager per storage bucket.)
//
// A host registers one Client per environment and bucket it uses
// (Service.Register), requests locks for it (Service.Request), learns each
// request's Outcome through the client's deliver function, releases the
// locks it was granted (Service.Release), aborts requests
// (Service.Abort), queries a bucket's state (Service.Query) and terminates
// the client when its environment goes away (Service.TerminateClient).
// Every call may be made from any goroutine, returns at once, and never
// waits for the host: the work is enqueued on the lock task queue, and
// what the host must learn is delivered to it.

// Bucket names a storage bucket: a storage key and the bucket's name ("" is
// the default bucket, "default"). Each bucket has its own lock manager.
type Bucket struct {
	Key  storage.StorageKey
	Name string
}

func (b Bucket) canonical() Bucket {
	if b.Name == "" {
		b.Name = "default"
	}
	return b
}

// WaitMode says what a request does when it cannot be granted at once.
type WaitMode uint8

const (
	// Wait: the request joins its name's queue and waits its turn.
	Wait WaitMode = iota
	// IfAvailable: the request is granted at once or not at all
	// (OutcomeNotAvailable); the ifAvailable option.
	IfAvailable
	// Steal: the request takes the name from its holders, whose locks
	// are revoked (OutcomeRevoked with an "AbortError"), and is granted
	// ahead of the queue; the steal option (exclusive requests only).
	Steal
)

// OutcomeKind is what became of a request (see Outcome).
type OutcomeKind uint8

const (
	// OutcomeGranted: the lock is held; Outcome.Lock releases it.
	OutcomeGranted OutcomeKind = iota + 1
	// OutcomeNotAvailable: an IfAvailable request could not be granted.
	OutcomeNotAvailable
	// OutcomeAborted: the request was removed from its queue before it
	// was granted: by Service.Abort (Outcome.Reason is the reason given),
	// by the termination of its client (ErrClientTerminated) or by the
	// embedder (ForceRelease: an "AbortError" *dom.DOMException).
	OutcomeAborted
	// OutcomeRevoked: a granted lock was taken away: stolen (an
	// "AbortError" *dom.DOMException), force-released by the embedder,
	// or released by the termination of its client (ErrClientTerminated).
	// It follows an OutcomeGranted of the same request.
	OutcomeRevoked
)

func (k OutcomeKind) String() string {
	switch k {
	case OutcomeGranted:
		return "granted"
	case OutcomeNotAvailable:
		return "not available"
	case OutcomeAborted:
		return "aborted"
	case OutcomeRevoked:
		return "revoked"
	}
	return "unknown"
}

// OutcomeSnapshot: a query's result (Outcome.Snapshot).
const OutcomeSnapshot OutcomeKind = OutcomeRevoked + 1

// Outcome is delivered, through the client's Deliver, to the Receiver given
// to LockService.Request (or Query). A request has exactly one of
// OutcomeGranted, OutcomeNotAvailable and OutcomeAborted, delivered once;
// a granted one may be followed by one OutcomeRevoked. A query has one
// OutcomeSnapshot.
type Outcome struct {
	Kind OutcomeKind
	// Lock is the lock handle (OutcomeGranted, OutcomeRevoked).
	Lock LockHandle
	// Reason is why the request was aborted or the lock revoked.
	Reason any
	// Snapshot is a query's result (OutcomeSnapshot).
	Snapshot *Snapshot
	// Dropped: the host dropped the task that carried this outcome
	// (Task.DropTask: the client's event loop will not run it); Receive
	// then runs on whatever goroutine dropped it.
	Dropped bool
}

// reqHandle and lockHandle are *Service's RequestHandle and LockHandle: the
// request's entry.
type (
	reqHandle  entry
	lockHandle entry
)

func (h *reqHandle) Name() Name  { return h.lock.name }
func (h *reqHandle) Mode() Mode  { return h.lock.mode }
func (h *lockHandle) Name() Name { return h.lock.name }
func (h *lockHandle) Mode() Mode { return h.lock.mode }

// ID returns the client's id.
func (c *client) ID() string { return c.id }

// Errors of the contract's calls.
var (
	ErrNilService       = errors.New("weblocks: nil *Service")
	ErrNilClient        = errors.New("weblocks: nil *Client")
	ErrForeignClient    = errors.New("weblocks: the client was registered with another service")
	ErrClientTerminated = errors.New("weblocks: the client was terminated")
	ErrNilHandle        = errors.New("weblocks: nil handle")
	ErrForeignHandle    = errors.New("weblocks: the handle belongs to another service")
	ErrNilDeliver       = errors.New("weblocks: ClientConfig.Deliver is nil")
	ErrNilOutcome       = errors.New("weblocks: nil outcome function")
	ErrInvalidWaitMode  = errors.New("weblocks: invalid wait mode")
	ErrServiceClosed    = errors.New("weblocks: the service's lock task queue no longer runs")
)

// Service is a lock service: the lock managers of storage buckets (one per
// bucket) and the lock task queue their state lives on. NewService makes
// one for a host of its own; ServiceOf returns the one of an html user
// agent, whose environments use it through this package's other entry
// points.
type Service struct {
	ltq      lockTaskQueue
	observer atomic.Pointer[Observer]

	mu       sync.Mutex
	managers []*LockManager // creation order
	byBucket map[Bucket]*LockManager
}

// NewService returns a lock service with a lock task queue of its own (its
// steps run on a goroutine started when there is work and ending when
// there is none: an idle service holds no goroutine).
func NewService() *Service {
	return &Service{ltq: queueAdapter{&taskQueue{}}}
}

// TaskQueue is a lock task queue a host supplies (NewServiceOn): it runs
// the tasks it is given one after another, in order, on a goroutine of its
// own (never on the caller's), and reports false, running nothing, once it
// no longer runs.
type TaskQueue interface {
	EnqueueTask(t Task) bool
}

// NewServiceOn returns a lock service whose lock task queue is q (package
// htmlhost uses an html user agent's parallel queue, whose scheduler tests
// can drive step by step).
func NewServiceOn(q TaskQueue) *Service {
	return &Service{ltq: queueAdapter{q}}
}

// queueAdapter is a TaskQueue as the service's lock task queue.
type queueAdapter struct{ q TaskQueue }

func (a queueAdapter) Enqueue(steps func()) bool {
	if steps == nil {
		return false
	}
	return a.q.EnqueueTask(funcTask(steps))
}

func (a queueAdapter) EnqueueValue(t Task) bool { return a.q.EnqueueTask(t) }

// managerFor returns the lock manager of bucket, creating it.
func (s *Service) managerFor(b Bucket) *LockManager {
	b = b.canonical()
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.byBucket[b]; m != nil {
		return m
	}
	m := newLockManager(s.ltq)
	m.svc, m.bucket = s, b
	s.addLocked(m)
	return m
}

// addLocked records a new manager (s.mu held). A bucket deleted and made
// again (Storage Buckets) gets a new manager; the service then finds the
// new one.
func (s *Service) addLocked(m *LockManager) {
	if s.byBucket == nil {
		s.byBucket = make(map[Bucket]*LockManager)
	}
	s.byBucket[m.bucket] = m
	s.managers = append(s.managers, m)
}

// Service implements LockService.
var _ LockService = (*Service)(nil)

// Register registers a client: cfg.Deliver is required, the id may be any
// string (several clients may share one, such as an environment using two
// buckets).
func (s *Service) Register(cfg ClientConfig) (Client, error) {
	if s == nil {
		return nil, ErrNilService
	}
	if cfg.Deliver == nil {
		return nil, ErrNilDeliver
	}
	c := &client{
		id:      cfg.ID,
		svc:     s,
		deliver: cfg.Deliver,
		evict:   cfg.Evict,
	}
	c.manager = s.managerFor(cfg.Bucket)
	return c, nil
}

// check validates a contract client.
func (s *Service) check(c Client) (*client, error) {
	if s == nil {
		return nil, ErrNilService
	}
	if c == nil {
		return nil, ErrNilClient
	}
	cl, ok := c.(*client)
	if !ok {
		return nil, ErrForeignClient
	}
	if cl == nil {
		return nil, ErrNilClient
	}
	if cl.svc != s {
		return nil, ErrForeignClient
	}
	if cl.gone.Load() {
		return nil, ErrClientTerminated
	}
	return cl, nil
}

// Request requests a lock on name in mode for client c, and returns the
// request's handle; the request's Outcome is delivered to r through c's
// Deliver. It fails (and nothing is delivered) for a nil, foreign or
// terminated client, a nil receiver, an invalid mode or wait mode, or
// Steal with Shared.
func (s *Service) Request(c Client, name Name, mode Mode, wait WaitMode, r Receiver) (RequestHandle, error) {
	cl, err := s.check(c)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, ErrNilOutcome
	}
	if mode != Exclusive && mode != Shared {
		return nil, errInvalidMode
	}
	if wait > Steal {
		return nil, ErrInvalidWaitMode
	}
	if wait == Steal && mode != Exclusive {
		return nil, dom.NewDOMException("The 'steal' option may only be used with 'exclusive' locks.", dom.NotSupportedError)
	}
	// The page side's request carries the storage of the entry (one
	// allocation for both), once.
	var e *entry
	if pr, ok := r.(*PageRequest); ok && pr.slot.manager == nil {
		e = &pr.slot
	} else {
		e = new(entry)
	}
	// (Field by field: the entry is zero, and a composite literal would
	// copy it whole, with write barriers for every pointer word.)
	e.lock = Lock{name: name.Canonical(), mode: mode}
	e.manager, e.client, e.recv = cl.manager, cl, r
	e.ifAvailable, e.steal = wait == IfAvailable, wait == Steal
	e.phase = queueRequest
	if !s.ltq.EnqueueValue(e) {
		return nil, ErrServiceClosed
	}
	return (*reqHandle)(e), nil
}

// checkHandle validates a handle's entry.
func (s *Service) checkHandle(e *entry) error {
	if s == nil {
		return ErrNilService
	}
	if e == nil {
		return ErrNilHandle
	}
	if e.client.svc != s {
		return ErrForeignHandle
	}
	if e.client.gone.Load() {
		return ErrClientTerminated
	}
	return nil
}

// Abort aborts the request h if it is still waiting: it leaves its queue
// and OutcomeAborted with reason is delivered. A request granted (or
// aborted) already is left alone: its outcome stands. Aborting twice does
// nothing more.
func (s *Service) Abort(h RequestHandle, reason any) error {
	if h == nil {
		return ErrNilHandle
	}
	rh, ok := h.(*reqHandle)
	if !ok {
		return ErrForeignHandle
	}
	e := (*entry)(rh)
	if err := s.checkHandle(e); err != nil {
		return err
	}
	s.ltq.Enqueue(func() {
		if e.state == entryQueued {
			e.manager.abortTheRequest(e)
			e.deliverLoss(OutcomeAborted, reason)
		}
	})
	return nil
}

// Release releases the lock h (granted to it by OutcomeGranted): the next
// waiters may be granted. Releasing a lock released, revoked or
// terminated already does nothing.
func (s *Service) Release(h LockHandle) error {
	if h == nil {
		return ErrNilHandle
	}
	lh, ok := h.(*lockHandle)
	if !ok {
		return ErrForeignHandle
	}
	e := (*entry)(lh)
	if err := s.checkHandle(e); err != nil {
		return err
	}
	s.ltq.EnqueueValue((*releaseTask)(e))
	return nil
}

// releaseTask is a lock as the lock-task-queue task "release the lock".
type releaseTask entry

func (t *releaseTask) RunTask() {
	e := (*entry)(t)
	e.manager.releaseTheLock(e)
}

func (t *releaseTask) DropTask() {}

// Query snapshots the state of the lock manager of c's bucket, as query()
// reports it (held locks and pending requests, with their clients' ids),
// into dst (a new Snapshot for a nil dst), and delivers it to r through
// c's Deliver. Like a request that must wait, it delivers the eviction
// request of every cached client with a lock or request in that manager.
func (s *Service) Query(c Client, dst *Snapshot, r Receiver) error {
	cl, err := s.check(c)
	if err != nil {
		return err
	}
	if r == nil {
		return ErrNilOutcome
	}
	if dst == nil {
		dst = new(Snapshot)
	}
	m := cl.manager
	if !s.ltq.Enqueue(func() {
		m.evictCachedClients()
		m.snapshotTheLockState(dst)
		cl.deliverTask(&delivery{c: cl, recv: r, o: Outcome{Kind: OutcomeSnapshot, Snapshot: dst}})
	}) {
		return ErrServiceClosed
	}
	return nil
}

// SetCached records whether the client's page is in the back/forward
// cache: a cached client keeps its locks and requests, but contention on
// them (a request that must wait for them, a query) and a grant to it
// deliver its Evict request. A client that already keeps another waiting
// when it becomes cached is evicted at once.
func (s *Service) SetCached(c Client, cached bool) error {
	cl, err := s.check(c)
	if err != nil {
		return err
	}
	if !cached {
		cl.cached.Store(false)
		return nil
	}
	if !cl.cached.Swap(true) && !s.ltq.Enqueue(cl.evictIfBlocking) {
		return ErrServiceClosed
	}
	return nil
}

// TerminateClient runs "terminate remaining locks and requests" for c:
// its waiting requests are aborted (OutcomeAborted), its locks released
// (OutcomeRevoked), both with ErrClientTerminated, and the waiters they
// blocked are granted. Every later call with c or its handles fails with
// ErrClientTerminated. Terminating twice does nothing more.
func (s *Service) TerminateClient(c Client) error {
	cl, err := s.check(c)
	if err == ErrClientTerminated {
		return nil
	}
	if err != nil {
		return err
	}
	if cl.gone.Swap(true) {
		return nil
	}
	if !s.ltq.Enqueue(func() { terminateRemainingLocksAndRequests(cl) }) {
		return ErrServiceClosed
	}
	return nil
}

// Managers returns the service's lock managers, in creation order.
func (s *Service) Managers() []*LockManager {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*LockManager(nil), s.managers...)
}

// deliverTask hands t to a contract client's Deliver, on the lock task
// queue. A Deliver that panics loses its own client this task and nothing
// else.
func (c *client) deliverTask(t Task) {
	defer func() { _ = recover() }()
	c.deliver(t)
}

// delivery is an outcome as the Task that delivers it to its receiver
// (the first outcome of a request is delivered by its entry instead). A
// delivery that runs after its client was terminated runs as dropped.
type delivery struct {
	c    *client
	recv Receiver
	o    Outcome
}

func (d *delivery) RunTask() {
	if d.c != nil && d.c.gone.Load() {
		d.o.Dropped = true
	}
	d.recv.Receive(d.o)
}

func (d *delivery) DropTask() {
	d.o.Dropped = true
	d.recv.Receive(d.o)
}

// deliverGranted delivers a request's grant: the entry itself is the task
// (its phase loopDeliverGranted), so a grant allocates nothing.
func (e *entry) deliverGranted() {
	e.phase = loopDeliverGranted
	e.client.deliverTask(e)
}

// deliverNotAvailable delivers OutcomeNotAvailable, the entry being the
// task.
func (e *entry) deliverNotAvailable() {
	e.phase = loopDeliverNotAvailable
	e.client.deliverTask(e)
}

// taskQueue is the lock task queue of a Service made by NewService: steps
// run one after another, in order, on a goroutine that runs while there
// are steps.
type taskQueue struct {
	mu      sync.Mutex
	tasks   []Task
	head    int
	running bool
}

func (q *taskQueue) EnqueueTask(t Task) bool {
	if t == nil {
		return false
	}
	q.mu.Lock()
	q.tasks = append(q.tasks, t)
	start := !q.running
	q.running = true
	q.mu.Unlock()
	if start {
		go q.run()
	}
	return true
}

func (q *taskQueue) run() {
	for {
		q.mu.Lock()
		if q.head == len(q.tasks) {
			q.tasks, q.head = q.tasks[:0], 0
			q.running = false
			q.mu.Unlock()
			return
		}
		t := q.tasks[q.head]
		q.tasks[q.head] = nil
		q.head++
		q.mu.Unlock()
		t.RunTask()
	}
}

// funcTask is steps as a Task.
type funcTask func()

func (f funcTask) RunTask()  { f() }
func (f funcTask) DropTask() {}
