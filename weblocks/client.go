package weblocks

import (
	"sync"
	"sync/atomic"

	"github.com/gowebengine/weblocks/html"
)

// client is the lock manager's record of one environment (a document's or
// a worker's environment settings object) that requested a lock: its
// clientId, the event loop its callbacks and promises are queued to, and its
// locks and requests in every lock manager it used.
//
// Deliberate deviation from the spec's "Termination of Locks": the spec
// runs "terminate remaining locks and requests" with an agent, both for
// unloading document cleanup steps and for agent termination. For a
// document that would release the locks of every same-origin document that
// shares its similar-origin window agent (for example the parent of an
// unloaded same-origin iframe). So:
//   - a document's unloading cleanup steps terminate the locks and requests
//     of that document's environment (client) only;
//   - an agent's termination terminates those of each of its clients (each
//     client registers its own termination steps with its agent, in the
//     order the clients first requested a lock).
//
// Once a client is gone (its document unloaded or its agent terminated) its
// pending callback tasks do nothing (the locks they were for are released by
// the termination steps queued at the same moment), and it can no longer
// request or query (InvalidStateError).
type client struct {
	env  *html.EnvironmentSettingsObject
	id   string
	loop *html.EventLoop
	ltq  lockTaskQueue
	gone atomic.Bool

	// a contract client's (Service.Register; env and loop are nil): its
	// service, the lock manager of its bucket, the host's deliver function
	// and eviction request, and whether it is cached (Client.SetCached)
	svc     *Service
	manager *LockManager
	deliver func(Task)
	evict   func()
	cached  atomic.Bool

	// registration (guarded by mu)
	mu         sync.Mutex
	registered atomic.Bool
	docHook    html.CleanupStepsID
	agentHook  html.TerminationStepsID

	// the result of "obtain a lock manager" for env, which cannot change
	// during its life
	defaultManager atomic.Pointer[LockManager]

	// lock task queue side
	states     []*clientState
	last       *clientState
	seq        uint32
	terminated bool // its termination steps ran
}

// clientState is a client's part of one lock manager: a list of its
// requests and locks there, in the order they were made.
type clientState struct {
	manager    *LockManager
	client     *client
	head, tail *entry
	idx        int32 // index of the client's id in the manager's clientIDs
}

// TaskSource is the Web Locks "web locks tasks source": every task the
// lock manager queues on an event loop is on it.
var TaskSource = html.NewTaskSource("web locks tasks source")

// clientSlot holds an environment's client record.
var clientSlot = html.NewSlot[*client]()

// uaSlot holds a user agent's lock service (its lock task queue, its lock
// managers and its observer).
var uaSlot = html.NewSlot[*Service]()

// uaQueueSlot holds a user agent's lock task queue.
var uaQueueSlot = html.NewSlot[*html.ParallelQueue]()

func locksOf(ua *html.UserAgent) *Service {
	if s := uaSlot.Get(ua); s != nil {
		return s
	}
	// (Outside GetOrInit: slots may not be used from its init function.)
	ltq := htmlQueue{LockTaskQueue(ua)}
	return uaSlot.GetOrInit(ua, func() *Service { return &Service{ltq: ltq} })
}

// LockTaskQueue returns the user agent's "lock task queue": the result of
// starting a new parallel queue, the first time it is needed.
func LockTaskQueue(ua *html.UserAgent) *html.ParallelQueue {
	return uaQueueSlot.GetOrInit(ua, func() *html.ParallelQueue {
		return ua.StartANewNamedParallelQueue("lock task queue")
	})
}

// lookupClient returns env's client record, or nil.
func lookupClient(env *html.EnvironmentSettingsObject) *client {
	return clientSlot.Get(env)
}

// clientFor returns env's client record, creating it.
func clientFor(env *html.EnvironmentSettingsObject) *client {
	return clientSlot.GetOrInit(env, func() *client {
		return &client{
			env:  env,
			id:   env.ID(),
			loop: env.ResponsibleEventLoop(),
			ltq:  htmlQueue{LockTaskQueue(env.UserAgent())},
		}
	})
}

// queueEntry queues e's next phase (e.phase) as a task on the client's
// responsible event loop, on the web locks task source. If the loop is
// terminated, or terminates before the task runs, e.DropTask runs instead.
func (c *client) queueEntry(e *entry) {
	c.queueTaskValue(e)
}

// queueTaskValue queues t on the client's event loop; t.DropTask runs if it
// never will.
func (c *client) queueTaskValue(t html.Task) {
	// (The task belongs to the client's suspending document, if any: it
	// waits while that document is in the back/forward cache; bfcache.go.)
	if !c.loop.QueueDocumentTaskValue(TaskSource, c.suspendingDocument(), t) {
		t.DropTask()
	}
}

// register makes sure the client's locks and requests are terminated when
// its document unloads or its agent terminates. It runs on the client's
// event loop when the client first requests a lock.
func (c *client) register() bool {
	if c.registered.Load() {
		return !c.gone.Load()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.registered.Load() {
		return !c.gone.Load()
	}
	agent := c.env.Agent()
	c.agentHook = agent.AddTerminationSteps(func() { c.end(false) })
	if c.agentHook == 0 { // the agent already terminated
		c.gone.Store(true)
		return false
	}
	if doc := c.env.AssociatedDocument(); doc != nil {
		c.docHook = doc.AddUnloadingDocumentCleanupSteps(func() { c.end(true) })
		if c.docHook == 0 { // the document was unloaded meanwhile
			agent.RemoveTerminationSteps(c.agentHook)
			c.gone.Store(true)
			return false
		}
	}
	c.registered.Store(true)
	return true
}

// end runs when the client's document unloads (unload is true) or its agent
// terminates: "terminate remaining locks and requests" for this client.
func (c *client) end(unload bool) {
	c.mu.Lock() // wait for a concurrent register to finish
	defer c.mu.Unlock()
	if c.gone.Swap(true) {
		return
	}
	if unload {
		c.env.Agent().RemoveTerminationSteps(c.agentHook)
	} else if doc := c.env.AssociatedDocument(); doc != nil && c.docHook != 0 {
		doc.RemoveUnloadingDocumentCleanupSteps(c.docHook)
	}
	clientSlot.Delete(c.env)
	c.ltq.Enqueue(func() { terminateRemainingLocksAndRequests(c) })
}

// htmlQueue is an html parallel queue as a lock task queue.
type htmlQueue struct{ q *html.ParallelQueue }

func (q htmlQueue) Enqueue(steps func()) bool { return q.q.Enqueue(steps) }
func (q htmlQueue) EnqueueValue(t Task) bool  { return q.q.EnqueueValue(t) }
