package html

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/gowebengine/weblocks/storage"
)

// UserAgent is an HTML user agent: one per browser profile, and every
// private browsing session is a separate one. It owns the storage shed and
// every agent and queue it started; other specifications keep their
// per-user-agent state (such as Web Locks' lock task queue) in its data
// slots (Slot).
type UserAgent struct {
	sched   Scheduler
	shed    *storage.Shed
	private bool
	onPanic func(any, []byte)

	slots slotTable

	// navMu guards navigables and documents (tree shape and activity).
	navMu sync.RWMutex

	mu               sync.Mutex
	closed           bool
	bfcacheObservers []func()
	queues           []*ParallelQueue
	agents           map[*Agent]struct{}
	nextAgent        uint64
	nextQueue        uint64
}

// Option configures a UserAgent.
type Option func(*UserAgent)

// WithScheduler makes the user agent run its queues and event loops on s
// (default: a new GoroutineScheduler).
func WithScheduler(s Scheduler) Option { return func(ua *UserAgent) { ua.sched = s } }

// WithPanicHandler makes the goroutine scheduler recover panics of tasks,
// microtask checkpoints and parallel queue steps of this user agent and
// report them to h (with the stack) instead of crashing the process; the
// loop or queue goes on with its next task. (With the manual scheduler,
// panics reach the goroutine that runs the step either way.)
func WithPanicHandler(h func(value any, stack []byte)) Option {
	return func(ua *UserAgent) { ua.onPanic = h }
}

// Private marks the user agent as a private browsing session.
func Private() Option { return func(ua *UserAgent) { ua.private = true } }

// NewUserAgent creates a user agent.
func NewUserAgent(opts ...Option) *UserAgent {
	ua := &UserAgent{agents: make(map[*Agent]struct{})}
	for _, o := range opts {
		o(ua)
	}
	if ua.sched == nil {
		ua.sched = NewGoroutineScheduler()
	}
	if ua.shed == nil {
		ua.shed = storage.NewShed()
	}
	return ua
}

// ErrNoUserAgent is returned by the methods of a nil or zero-value
// *UserAgent, and of navigables and documents that do not belong to one: a
// user agent is made by NewUserAgent.
var ErrNoUserAgent = errors.New("html: user agent not created by html.NewUserAgent")

// created reports whether ua was made by NewUserAgent.
func (ua *UserAgent) created() bool { return ua != nil && ua.sched != nil && ua.shed != nil }

// NewPrivateBrowsingSession returns a new user agent for a private browsing
// session of this one: same scheduler, its own (empty) storage shed and lock
// task queue, so nothing is shared with ua.
func (ua *UserAgent) NewPrivateBrowsingSession() *UserAgent {
	return NewUserAgent(WithScheduler(ua.sched), Private(), WithPanicHandler(ua.onPanic))
}

// IsPrivate reports whether this is a private browsing session.
func (ua *UserAgent) IsPrivate() bool { return ua.private }

// Scheduler returns the user agent's scheduler.
func (ua *UserAgent) Scheduler() Scheduler { return ua.sched }

// StorageShed returns the user agent's storage shed.
func (ua *UserAgent) StorageShed() *storage.Shed { return ua.shed }

// StartANewParallelQueue is "start a new parallel queue".
func (ua *UserAgent) StartANewParallelQueue() *ParallelQueue {
	ua.mu.Lock()
	ua.nextQueue++
	n := ua.nextQueue
	ua.mu.Unlock()
	return ua.startQueue("parallel queue " + itoa(n))
}

// StartANewNamedParallelQueue is "start a new parallel queue" for a queue
// a specification names (such as Web Locks' "lock task queue"); the name
// shows in Runner.Name and traces.
func (ua *UserAgent) StartANewNamedParallelQueue(name string) *ParallelQueue {
	return ua.startQueue(name)
}

func (ua *UserAgent) startQueue(name string) *ParallelQueue {
	// 1. Let parallelQueue be a new parallel queue.
	q := &ParallelQueue{ua: ua}
	q.r = newRunner(ua.sched.core(), name, q, nil)
	if !ua.sched.core().manual {
		q.r.onPanic = ua.onPanic
	}
	// 2. Run the following steps in parallel: while true, dequeue and run
	//    steps (the runner does this on its goroutine, or the test does).
	ua.mu.Lock()
	if ua.closed {
		ua.mu.Unlock()
		q.r.close()
		return q
	}
	ua.queues = append(ua.queues, q)
	ua.mu.Unlock()
	// 3. Return parallelQueue.
	return q
}

func (ua *UserAgent) forgetAgent(a *Agent) {
	ua.mu.Lock()
	delete(ua.agents, a)
	ua.mu.Unlock()
}

// Agents returns the user agent's live agents (any order).
func (ua *UserAgent) Agents() []*Agent {
	if ua == nil {
		return nil
	}
	ua.mu.Lock()
	defer ua.mu.Unlock()
	out := make([]*Agent, 0, len(ua.agents))
	for a := range ua.agents {
		out = append(out, a)
	}
	return out
}

// Close terminates every agent (running their termination steps) and stops
// every parallel queue. It waits up to a few seconds for the goroutines to
// exit, except those executing a step right now (e.g. the caller's own, when
// Close is called from a task), which exit once that step returns. Use
// CloseContext to choose how long to wait.
func (ua *UserAgent) Close() {
	if ua == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = ua.CloseContext(ctx)
}

// CloseContext is Close, waiting for the goroutines until ctx is done (it
// then returns ctx's error; the goroutines still exit on their own).
func (ua *UserAgent) CloseContext(ctx context.Context) error {
	if ua == nil {
		return nil
	}
	ua.mu.Lock()
	if ua.closed {
		ua.mu.Unlock()
		return nil
	}
	ua.closed = true
	agents := make([]*Agent, 0, len(ua.agents))
	for a := range ua.agents {
		agents = append(agents, a)
	}
	queues := ua.queues
	ua.queues = nil
	ua.mu.Unlock()
	var waits []chan struct{}
	var runners []*runner
	for _, a := range agents {
		a.Terminate()
		runners = append(runners, a.loop.r)
		waits = append(waits, a.loop.r.doneChan())
	}
	for _, q := range queues {
		runners = append(runners, q.r)
		waits = append(waits, q.r.close())
	}
	for i, w := range waits {
		if w == nil || runners[i].executing.Load() {
			continue
		}
		select {
		case <-w:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func itoa(n uint64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
