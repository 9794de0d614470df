package html

import (
	"container/heap"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/petermattis/goid"
)

// Scheduler decides how parallel queues and event loops run. There are two:
// the default goroutine scheduler (NewGoroutineScheduler), where each queue
// and each event loop drains its pending steps on its own goroutine, and the
// deterministic ManualScheduler, where nothing runs until a test says so.
type Scheduler interface {
	core() *schedCore
}

type schedCore struct {
	manual bool
	inline bool // default mode: run a parallel queue's steps on the enqueuer when the queue is idle

	mu      sync.Mutex
	runners []*runner // manual mode: live runners in creation order

	// Manual mode's fake clock and its timers (default mode keeps timers per
	// event loop on the real clock).
	now    time.Duration
	timers timerHeap
}

var timerSeq atomic.Uint64

// GoroutineScheduler is the default scheduler: every parallel queue and
// event loop runs on its own goroutine (started on first use), draining all
// pending steps per wake-up. Timers use the real monotonic clock.
type GoroutineScheduler struct{ c schedCore }

func (s *GoroutineScheduler) core() *schedCore { return &s.c }

// GoroutineOption configures a GoroutineScheduler.
type GoroutineOption func(*schedCore)

// InlineParallelQueues controls whether a parallel queue that is idle runs
// newly enqueued steps at once on the enqueuing goroutine instead of waking
// its own goroutine (default true). Steps still never run concurrently with
// other steps of the same queue and keep their order; as steps enqueued on a
// parallel queue run "in parallel" with their enqueuer, running them before
// Enqueue returns is one of the interleavings the standards allow. It saves a
// goroutine hand-off per hop. Steps must not block (they never should), and
// the enqueuer must not hold a lock the steps take.
func InlineParallelQueues(on bool) GoroutineOption {
	return func(c *schedCore) { c.inline = on }
}

// NewGoroutineScheduler returns a default (goroutine-backed) scheduler.
func NewGoroutineScheduler(opts ...GoroutineOption) *GoroutineScheduler {
	s := &GoroutineScheduler{c: schedCore{inline: true}}
	for _, o := range opts {
		o(&s.c)
	}
	return s
}

// ManualScheduler is a deterministic scheduler for tests: queues and event
// loops never run by themselves. The test steps them (RunOne, RunUntilIdle,
// or a chosen Runner's RunOne) on its own goroutine and moves a fake clock
// with Advance. Everything stays goroutine-safe: other goroutines may enqueue.
type ManualScheduler struct{ c schedCore }

func (s *ManualScheduler) core() *schedCore { return &s.c }

// NewManualScheduler returns a deterministic scheduler.
func NewManualScheduler() *ManualScheduler {
	return &ManualScheduler{c: schedCore{manual: true}}
}

// Runner is a parallel queue or an event loop, as seen by a ManualScheduler.
type Runner interface {
	// RunOne runs the runner's next step or task (for an event loop: one
	// task then its microtask checkpoint). It reports whether one ran.
	RunOne() bool
	// Pending is the number of steps or runnable tasks waiting.
	Pending() int
	// Name describes the runner ("lock task queue", "event loop 3 (window)").
	Name() string
}

// Runnable returns the runners with pending work, in creation order.
func (s *ManualScheduler) Runnable() []Runner {
	if s == nil {
		return nil
	}
	s.c.mu.Lock()
	rs := append([]*runner(nil), s.c.runners...)
	s.c.mu.Unlock()
	var out []Runner
	for _, r := range rs {
		if r.Pending() > 0 {
			out = append(out, r.owner)
		}
	}
	return out
}

// RunOne runs one step of the first runnable runner (in creation order).
// It reports whether anything ran.
func (s *ManualScheduler) RunOne() bool {
	if s == nil {
		return false
	}
	var buf [32]*runner
	s.c.mu.Lock()
	rs := append(buf[:0], s.c.runners...)
	s.c.mu.Unlock()
	for _, r := range rs {
		if r.Pending() > 0 && r.RunOne() {
			return true
		}
	}
	return false
}

// RunUntilIdle runs steps until no runner has pending work (timers that are
// not due do not count). It returns how many ran. It gives up with a panic
// after 100 million steps, which only an endless task chain reaches.
func (s *ManualScheduler) RunUntilIdle() int {
	if s == nil {
		return 0
	}
	n := 0
	for s.RunOne() {
		n++
		if n > 100_000_000 {
			panic("html: ManualScheduler.RunUntilIdle: no quiescence after 1e8 steps")
		}
	}
	return n
}

// Pending is the total number of pending steps and runnable tasks.
func (s *ManualScheduler) Pending() int {
	if s == nil {
		return 0
	}
	s.c.mu.Lock()
	rs := append([]*runner(nil), s.c.runners...)
	s.c.mu.Unlock()
	n := 0
	for _, r := range rs {
		n += r.Pending()
	}
	return n
}

// Now returns the fake clock's time since the scheduler was created.
func (s *ManualScheduler) Now() time.Duration {
	if s == nil {
		return 0
	}
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	return s.c.now
}

// Advance moves the fake clock forward by d and queues, in deadline order
// (ties in start order), the tasks of every timer that became due. It does
// not run them.
func (s *ManualScheduler) Advance(d time.Duration) {
	if s == nil {
		return
	}
	if d < 0 {
		d = 0
	}
	s.c.mu.Lock()
	s.c.now += d
	now := s.c.now
	var due []*Timer
	for len(s.c.timers) > 0 && s.c.timers[0].when <= now {
		t := heap.Pop(&s.c.timers).(*Timer)
		due = append(due, t)
	}
	s.c.mu.Unlock()
	for _, t := range due {
		t.fire()
	}
}

// NextTimer returns how long until the earliest pending timer is due
// (false when there is none).
func (s *ManualScheduler) NextTimer() (time.Duration, bool) {
	if s == nil {
		return 0, false
	}
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	if len(s.c.timers) == 0 {
		return 0, false
	}
	d := s.c.timers[0].when - s.c.now
	if d < 0 {
		d = 0
	}
	return d, true
}

// task is one entry of a runner's queue.
type task struct {
	steps  func()
	obj    Task // set instead of steps by QueueTaskValue
	source TaskSource
	doc    *Document // tasks of a non-fully-active document wait
	timer  *Timer    // a timer's task: skipped when the timer was canceled
}

// runner is the machinery shared by parallel queues and event loops: a
// batched mutex+slice queue drained by one goroutine (default mode), by the
// enqueuer when idle (inline parallel queues), or by the test (manual mode).
type runner struct {
	core  *schedCore
	name  string
	owner Runner
	loop  *EventLoop // nil for a parallel queue

	mu      sync.Mutex
	items   []task
	head    int // manual mode pops from the front
	spare   []task
	running bool // some goroutine owns draining right now
	parked  bool // the goroutine waits on wake
	started bool
	closed  bool
	wake    chan struct{}
	done    chan struct{}

	executing atomic.Bool // steps of this runner are executing (IsRunning)
	// execG is the id of the goroutine executing the runner's steps now
	// (0 when none), for the "called from the wrong goroutine" checks.
	execG   atomic.Int64
	onPanic func(value any, stack []byte)
}

// enter and leave bracket the execution of the runner's steps on the
// calling goroutine.
func (r *runner) enter() {
	r.execG.Store(goid.Get())
	r.executing.Store(true)
}

func (r *runner) leave() {
	r.executing.Store(false)
	r.execG.Store(0)
}

// isCurrent reports whether the calling goroutine is executing the runner's
// steps right now.
func (r *runner) isCurrent() bool {
	g := r.execG.Load()
	return g != 0 && g == goid.Get()
}

// dropTasks tells the owners of tasks that will never run (see Task).
func dropTasks(ts []task) {
	for i := range ts {
		if o := ts[i].obj; o != nil {
			o.DropTask()
		}
	}
}

// run runs the task's steps.
func (t *task) run() {
	if t.obj != nil {
		t.obj.RunTask()
		return
	}
	t.steps()
}

// protect runs f, reporting a panic to onPanic instead of crashing.
func (r *runner) protect(f func()) {
	defer func() {
		if v := recover(); v != nil {
			r.onPanic(v, debug.Stack())
		}
	}()
	f()
}

func newRunner(c *schedCore, name string, owner Runner, loop *EventLoop) *runner {
	r := &runner{core: c, name: name, owner: owner, loop: loop}
	if c.manual {
		c.mu.Lock()
		c.runners = append(c.runners, r)
		c.mu.Unlock()
	}
	return r
}

// push appends a step; in default mode it wakes (or starts) the goroutine,
// or, for an idle parallel queue with inline enabled, runs the step now.
// It reports false if the runner is closed.
func (r *runner) push(t task) bool {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return false
	}
	if r.core.manual {
		r.items = append(r.items, t)
		r.mu.Unlock()
		return true
	}
	if r.loop == nil && r.core.inline && !r.running && len(r.items) == 0 {
		r.running = true
		r.mu.Unlock()
		r.runInline(t)
		return true
	}
	r.items = append(r.items, t)
	if !r.running {
		r.kickLocked()
	}
	r.mu.Unlock()
	return true
}

// kickLocked makes sure the goroutine will look at the queue.
func (r *runner) kickLocked() {
	if !r.started {
		r.started = true
		r.wake = make(chan struct{}, 1)
		r.done = make(chan struct{})
		go r.goLoop()
		return
	}
	if r.parked {
		r.parked = false
		select {
		case r.wake <- struct{}{}:
		default:
		}
	}
}

// runInline runs t on the enqueuing goroutine, then whatever was enqueued
// meanwhile (typically by t itself), for a few rounds; anything left after
// that is handed to the queue's goroutine.
func (r *runner) runInline(t task) {
	ok := false
	defer func() {
		if !ok { // a step panicked: give up ownership
			r.leave()
			r.mu.Lock()
			r.running = false
			if len(r.items) > 0 && !r.closed {
				r.kickLocked()
			}
			r.mu.Unlock()
		}
	}()
	r.enter()
	if r.onPanic != nil {
		r.protect(t.run)
	} else {
		t.run()
	}
	r.leave()
	for round := 0; ; round++ {
		r.mu.Lock()
		if len(r.items) == 0 || r.closed || round == maxInlineRounds {
			r.running = false
			if len(r.items) > 0 && !r.closed {
				r.kickLocked()
			}
			r.mu.Unlock()
			ok = true
			return
		}
		batch := r.items
		r.items = r.spare[:0]
		r.spare = nil
		r.mu.Unlock()
		r.runBatch(batch)
		clear(batch)
		r.mu.Lock()
		r.spare = reuse(batch)
		r.mu.Unlock()
	}
}

// maxInlineRounds bounds how many batches an enqueuer drains inline.
const maxInlineRounds = 4

// goLoop drains batches until the runner is closed (two lock operations
// per batch).
func (r *runner) goLoop() {
	defer close(r.done)
	spins := 0
	r.mu.Lock()
	for {
		for r.running || len(r.items) == 0 {
			if r.closed {
				r.mu.Unlock()
				return
			}
			if spins < 3 {
				// Stay awake briefly: a reply to the steps just run often
				// arrives within a few hundred nanoseconds.
				spins++
				r.mu.Unlock()
				spinYield()
				r.mu.Lock()
				continue
			}
			r.parked = true
			r.mu.Unlock()
			<-r.wake
			r.mu.Lock()
		}
		if r.closed {
			r.mu.Unlock()
			return
		}
		spins = 0
		r.running = true
		batch := r.items
		r.items = r.spare[:0]
		r.spare = nil
		r.mu.Unlock()

		r.runBatch(batch)
		clear(batch)

		r.mu.Lock()
		r.spare = reuse(batch)
		r.running = false
	}
}

func (r *runner) runBatch(batch []task) {
	r.enter()
	defer r.leave()
	if r.loop != nil {
		for i := range batch {
			if !r.loop.runTask(&batch[i]) {
				dropTasks(batch[i:]) // terminated
				return
			}
		}
		return
	}
	for i := range batch {
		if r.onPanic != nil {
			r.protect(batch[i].run)
		} else {
			batch[i].run()
		}
	}
}

// reuse returns an emptied batch slice for reuse, or nil when it grew so
// large in a burst that keeping it would pin memory.
func reuse(b []task) []task {
	if cap(b) > maxReusedBatch {
		return nil
	}
	return b[:0]
}

const maxReusedBatch = 1024

// RunOne (manual mode) runs the next item on the calling goroutine.
func (r *runner) RunOne() bool {
	r.mu.Lock()
	if !r.core.manual || r.running || r.closed || r.head == len(r.items) {
		r.mu.Unlock()
		return false
	}
	t := r.items[r.head]
	r.items[r.head] = task{}
	r.head++
	if r.head == len(r.items) {
		r.items = reuse(r.items)
		r.head = 0
	}
	r.running = true
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.running = false
		r.mu.Unlock()
	}()
	r.enter()
	defer r.leave()
	if r.loop != nil {
		if !r.loop.runTask(&t) {
			dropTasks([]task{t})
		}
		return true
	}
	t.run()
	return true
}

// Pending is the number of queued items.
func (r *runner) Pending() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.items) - r.head
}

func (r *runner) Name() string { return r.name }

// close stops the runner: queued items are dropped and the goroutine exits
// after its current item. It returns the done channel (nil if no goroutine).
func (r *runner) close() chan struct{} {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return r.done
	}
	r.closed = true
	dropped := r.items[r.head:]
	r.items = nil
	r.spare = nil
	r.head = 0
	if r.started && r.parked {
		r.parked = false
		select {
		case r.wake <- struct{}{}:
		default:
		}
	}
	done := r.done
	r.mu.Unlock()
	dropTasks(dropped)
	clear(dropped)
	if r.core.manual {
		c := r.core
		c.mu.Lock()
		for i, x := range c.runners {
			if x == r {
				c.runners = append(c.runners[:i], c.runners[i+1:]...)
				break
			}
		}
		c.mu.Unlock()
	}
	return done
}

func (r *runner) String() string { return fmt.Sprintf("runner(%s)", r.name) }

func (r *runner) doneChan() chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.done
}

// RunAsTask runs f at once on the calling goroutine as if it were a task of
// the event loop l (for l's ownership checks: EventLoop.IsCurrent), without
// going through l's queue and without a microtask checkpoint. It lets a
// deterministic test act as script between two scheduler steps. It panics
// if l does not belong to s, or if a task of l is running.
func (s *ManualScheduler) RunAsTask(l *EventLoop, f func()) {
	if s == nil {
		return
	}
	r := l.r
	if r.core != &s.c {
		panic("html: ManualScheduler.RunAsTask: the event loop belongs to another scheduler")
	}
	r.mu.Lock()
	if r.running {
		r.mu.Unlock()
		panic("html: ManualScheduler.RunAsTask: a task of " + r.name + " is running")
	}
	r.running = true
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.running = false
		r.mu.Unlock()
	}()
	r.enter()
	defer r.leave()
	f()
}
