package weblocks

// This file is the lock service contract as a Go interface: LockService,
// and the values that cross it. The page side (page.go, future.go) and
// every host, our own html host included (package htmlhost), talk to the
// lock managers only through it. *Service (service.go) is the
// implementation that holds the lock managers in this process; another
// package may implement the same interface (a client of a lock service in
// another process), and nothing else changes for the page side.
//
// Handles (Client, RequestHandle, LockHandle) are interfaces: a service
// hands out values of its own types and refuses the others
// (ErrForeignClient, ErrForeignHandle). Everything the host must learn is
// delivered as a Task through the client's Deliver function, to be run
// on the client's event loop.

// LockService is the lock service contract. Every method may be called
// from any goroutine, returns at once without waiting for the host, and
// reports bad input (a nil, foreign or terminated client or handle) with
// the package's named errors, never a panic.
type LockService interface {
	// Register registers a client: an environment using the lock
	// manager of one storage bucket (cfg.Deliver is required).
	Register(cfg ClientConfig) (Client, error)
	// Request requests a lock on name in mode for c. Its outcome
	// (OutcomeGranted with a LockHandle, OutcomeNotAvailable or
	// OutcomeAborted; a granted lock may later get one OutcomeRevoked)
	// is delivered to r through c's Deliver. Nothing is delivered when
	// it returns an error.
	Request(c Client, name Name, mode Mode, wait WaitMode, r Receiver) (RequestHandle, error)
	// Abort aborts a request that is still waiting: OutcomeAborted with
	// reason is delivered. A request granted or aborted already is left
	// alone. Idempotent.
	Abort(h RequestHandle, reason any) error
	// Release releases a granted lock; the next waiters may be granted.
	// Idempotent; a lock revoked already is left alone.
	Release(l LockHandle) error
	// Query snapshots the state of the lock manager of c's bucket into
	// dst (a new Snapshot when dst is nil; see QueryInto for reuse) and
	// delivers OutcomeSnapshot with it to r through c's Deliver.
	Query(c Client, dst *Snapshot, r Receiver) error
	// SetCached records whether c's page is in the back/forward cache:
	// a cached client keeps its locks and requests, but contention on
	// them, a query of its bucket and a grant to it call its
	// ClientConfig.Evict.
	SetCached(c Client, cached bool) error
	// TerminateClient terminates c's remaining locks and requests (its
	// environment went away): its requests get OutcomeAborted and its
	// locks OutcomeRevoked, with ErrClientTerminated, and the waiters
	// are granted. Every later call with c or its handles fails with
	// ErrClientTerminated. Idempotent.
	TerminateClient(c Client) error
}

// Client is a client registered with a LockService (Register). Its only
// public property is its id.
type Client interface {
	ID() string
}

// RequestHandle is a request made with LockService.Request; Abort takes
// it.
type RequestHandle interface {
	Name() Name
	Mode() Mode
}

// LockHandle is a granted lock (Outcome.Lock); Release takes it.
type LockHandle interface {
	Name() Name
	Mode() Mode
}

// Task is what a service hands its client's Deliver: the host runs it
// (RunTask) on the client's event loop, in the order delivered, or, when
// that event loop will never run it (the environment is gone), may call
// DropTask instead, from any goroutine. html's event loops take it as an
// html.Task as it is.
type Task interface {
	RunTask()
	DropTask()
}

// Receiver receives a request's or a query's outcomes (LockService.Request,
// LockService.Query). Receive runs in the client's delivered Task, on its
// event loop; when the host drops that task (Task.DropTask), it runs with
// Outcome.Dropped set, on the goroutine that dropped it.
type Receiver interface {
	Receive(o Outcome)
}

// ReceiverFunc is a function as a Receiver.
type ReceiverFunc func(Outcome)

// Receive calls f(o).
func (f ReceiverFunc) Receive(o Outcome) { f(o) }

// ClientConfig is what a host tells the service about a client: an
// environment (a document's or worker's) using the locks of one storage
// bucket.
type ClientConfig struct {
	// ID is the environment's id (its Client.id): query() reports it.
	ID string
	// Bucket is the storage bucket whose lock manager the client uses.
	Bucket Bucket
	// Deliver hands a Task to the host, to run on the client's event
	// loop, soon, in order (see Task): everything the service tells the
	// host goes through it (outcomes, query results, eviction requests).
	// It is called on the lock task queue and must not block or call the
	// service synchronously. A Deliver that panics is recovered from and
	// costs only its own client that task. DeliverFunc adapts a function
	// that posts a func() to an event loop.
	Deliver func(Task)
	// Evict (optional) is the back/forward cache's eviction request: the
	// service calls it, on the lock task queue (so it must not block or
	// call the service synchronously; it is not delivered through
	// Deliver, as a cached page's event loop may not run tasks), when a
	// client marked cached (SetCached) holds or waits for a lock another
	// client requests, is observed by a query, or is granted a lock while
	// cached. The host then evicts the cached page and terminates its
	// clients, which releases their locks. It may be called more than
	// once. An Evict that panics is recovered from.
	Evict func()
}

// DeliverFunc returns a Deliver function for a host whose event loop runs
// func() values: each task's RunTask is posted.
func DeliverFunc(post func(func())) func(Task) {
	return func(t Task) { post(t.RunTask) }
}
