package html

import (
	"container/heap"
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// TaskSource is an HTML task source: a value, compared with ==. The generic
// ones of the HTML Standard are below; other specifications make theirs
// with NewTaskSource (Web Locks: htmlhost.TaskSource, package weblocks/htmlhost).
type TaskSource uint16

// Generic and specific task sources.
const (
	DOMManipulationTaskSource TaskSource = iota
	UserInteractionTaskSource
	NetworkingTaskSource
	NavigationAndTraversalTaskSource
	RenderingTaskSource
	TimerTaskSource
	PostedMessageTaskSource
)

var (
	taskSourceMu    sync.Mutex
	taskSourceNames = []string{"DOM manipulation", "user interaction", "networking",
		"navigation and traversal", "rendering", "timer", "posted message"}
)

// NewTaskSource registers a new task source with a descriptive name.
func NewTaskSource(name string) TaskSource {
	taskSourceMu.Lock()
	defer taskSourceMu.Unlock()
	taskSourceNames = append(taskSourceNames, name)
	return TaskSource(len(taskSourceNames) - 1)
}

func (s TaskSource) String() string {
	taskSourceMu.Lock()
	defer taskSourceMu.Unlock()
	if int(s) < len(taskSourceNames) {
		return taskSourceNames[s]
	}
	return "unknown task source"
}

// EventLoop is an HTML event loop: one per agent. Its tasks run one at a
// time, in the order they were queued, on ONE goroutine (its own in default
// mode; the test's in manual mode), each followed by the microtask
// checkpoint hook. A terminated loop drops queued and new tasks.
//
// All methods are goroutine-safe.
type EventLoop struct {
	r          *runner
	agent      *Agent
	checkpoint atomic.Pointer[func()]
	terminated atomic.Bool
	currentSrc TaskSource // source of the running task (loop goroutine only)
	slots      slotTable

	tmu     sync.Mutex
	timers  timerHeap // default mode only
	rt      *time.Timer
	base    time.Time
	deferMu sync.Mutex
	// deferred holds tasks of documents that are not fully active (bfcache):
	// they run when the document becomes fully active again.
	deferred []task
}

func newEventLoop(c *schedCore, name string) *EventLoop {
	l := &EventLoop{base: time.Now()}
	l.r = newRunner(c, name, l, l)
	return l
}

// Agent returns the agent the event loop belongs to.
func (l *EventLoop) Agent() *Agent { return l.agent }

// RunOne (manual scheduler) runs the next task and the microtask checkpoint.
func (l *EventLoop) RunOne() bool { return l.r.RunOne() }

// Pending is the number of queued tasks (deferred ones not included).
func (l *EventLoop) Pending() int { return l.r.Pending() }

// Name describes the event loop.
func (l *EventLoop) Name() string { return l.r.name }

// SetMicrotaskCheckpoint sets the hook run after every task ("perform a
// microtask checkpoint"): the JS layer drains its job queue there.
func (l *EventLoop) SetMicrotaskCheckpoint(f func()) {
	if f == nil {
		l.checkpoint.Store(nil)
		return
	}
	l.checkpoint.Store(&f)
}

// IsRunning reports whether a task of this loop is executing now.
func (l *EventLoop) IsRunning() bool { return l.r.executing.Load() }

// IsTerminated reports whether the loop was terminated.
func (l *EventLoop) IsTerminated() bool { return l.terminated.Load() }

// QueueTask is "queue a task" on source with steps and a null document.
// It reports whether the task was queued: false when the loop is
// terminated (or steps is nil), in which case the task will never run.
// A queued task may still be dropped if the loop terminates before it runs;
// use QueueTaskValue to be told.
func (l *EventLoop) QueueTask(source TaskSource, steps func()) bool {
	return l.QueueDocumentTask(source, nil, steps)
}

// Task is a task whose owner wants to know if it will never run. A task
// queued with QueueTaskValue gets exactly one call: RunTask on the event
// loop when it runs, or DropTask when it is dropped after being queued (its
// loop terminated, or its document was destroyed). DropTask is called on
// the goroutine that terminated the loop or destroyed the document, not on
// the loop: it must only touch goroutine-safe state.
type Task interface {
	RunTask()
	DropTask()
}

// QueueTaskValue is QueueTask for a Task value (no closure needed). It
// reports whether t was queued; when it was not, neither of t's methods is
// called.
func (l *EventLoop) QueueTaskValue(source TaskSource, t Task) bool {
	if l.terminated.Load() || t == nil {
		return false
	}
	return l.r.push(task{obj: t, source: source})
}

// QueueDocumentTaskValue is QueueDocumentTask for a Task value: t runs
// only while doc is fully active (nil: always), and gets DropTask if doc is
// destroyed first.
func (l *EventLoop) QueueDocumentTaskValue(source TaskSource, doc *Document, t Task) bool {
	if l.terminated.Load() || t == nil {
		return false
	}
	return l.r.push(task{obj: t, source: source, doc: doc})
}

// QueueDocumentTask is "queue a task" on source with steps and document
// doc: the task runs only while doc is fully active (tasks of a document
// that is not fully active wait; those of a destroyed document are dropped).
// It reports whether the task was queued (see QueueTask).
func (l *EventLoop) QueueDocumentTask(source TaskSource, doc *Document, steps func()) bool {
	// 1. If event loop was not given, set it to the implied event loop.
	// 2. If document was not given, set it to the implied document.
	// 3. Let task be a new task. 4. Set task's steps to steps.
	// 5. Set task's source to source. 6. Set task's document to document.
	// 7. Set task's script evaluation environment settings object set to « ».
	// 8. Let queue be the task queue to which source is associated on event
	//    loop. 9. Append task to queue.
	if l.terminated.Load() || steps == nil {
		return false
	}
	return l.r.push(task{steps: steps, source: source, doc: doc})
}

// QueueGlobalTask is "queue a global task" on source given the global of
// env: the task's document is env's associated Document (nil for workers).
// The task is queued on l, which should be env's responsible event loop.
// It reports whether the task was queued (see QueueTask).
func (l *EventLoop) QueueGlobalTask(source TaskSource, env *EnvironmentSettingsObject, steps func()) bool {
	// 1. Let event loop be global's relevant agent's event loop.
	// 2. Let document be global's associated Document, if global is a
	//    Window object; otherwise null.
	// 3. Queue a task given source, event loop, document, and steps.
	//    (A dedicated worker's tasks get its owner document, so that they
	//    wait while it is not fully active: SuspendingDocument.)
	var doc *Document
	if env != nil {
		doc = env.SuspendingDocument()
	}
	return l.QueueDocumentTask(source, doc, steps)
}

// QueueAGlobalTask is "queue a global task" on env's responsible event loop.
// It reports whether the task was queued (see QueueTask).
func QueueAGlobalTask(source TaskSource, env *EnvironmentSettingsObject, steps func()) bool {
	if env == nil {
		return false // no global, no event loop: nothing queued
	}
	return env.ResponsibleEventLoop().QueueGlobalTask(source, env, steps)
}

// ErrLoopTerminated is returned by RunOnLoop when the event loop is (or
// becomes) terminated before f ran.
var ErrLoopTerminated = errors.New("html: event loop terminated")

// RunOnLoop runs f as a task on the event loop l (on an "embedder" task
// source) and waits until it returned. It
// returns f's error; ErrLoopTerminated when the loop terminated before f
// ran; or ctx's error when ctx is done first (f may then still run later).
// Called from a task of l itself, it runs f at once instead of deadlocking.
// With a ManualScheduler, some other goroutine must run the loop's tasks.
func (l *EventLoop) RunOnLoop(ctx context.Context, f func() error) error {
	if f == nil {
		return errors.New("html: RunOnLoop: nil function")
	}
	if l.r.isCurrent() {
		return f()
	}
	t := &runOnLoopTask{f: f, done: make(chan struct{})}
	if !l.QueueTaskValue(embedderTaskSource, t) {
		return ErrLoopTerminated
	}
	select {
	case <-t.done:
		return t.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// embedderTaskSource is the task source of RunOnLoop's tasks.
var embedderTaskSource = NewTaskSource("embedder")

type runOnLoopTask struct {
	f    func() error
	err  error
	done chan struct{}
}

func (t *runOnLoopTask) RunTask() {
	defer close(t.done)
	t.err = t.f()
}

func (t *runOnLoopTask) DropTask() {
	t.err = ErrLoopTerminated
	close(t.done)
}

// IsCurrent reports whether the calling goroutine is running a task of this
// event loop (or its microtask checkpoint) right now.
func (l *EventLoop) IsCurrent() bool { return l.r.isCurrent() }

// CheckCurrent returns a *WrongGoroutineError unless the calling goroutine
// is running a task of this event loop right now. Objects that belong to an
// event loop use it to detect calls from other goroutines; it costs a few
// nanoseconds.
func (l *EventLoop) CheckCurrent() error {
	if l.r.isCurrent() {
		return nil
	}
	return &WrongGoroutineError{Loop: l.r.name}
}

// WrongGoroutineError reports a call, from a goroutine that is not running
// the loop's task, into something that belongs to an event loop.
type WrongGoroutineError struct {
	Loop string // the name of the event loop the object belongs to
}

func (e *WrongGoroutineError) Error() string {
	return "called from the wrong goroutine: this belongs to " + e.Loop + " and must be used from its tasks (see EventLoop.RunOnLoop)"
}

// CurrentTaskSource returns the task source of the task running now (only
// meaningful on the loop's goroutine).
func (l *EventLoop) CurrentTaskSource() TaskSource { return l.currentSrc }

// runTask runs one task and the microtask checkpoint; false if terminated.
// The caller marks the runner as executing.
func (l *EventLoop) runTask(t *task) bool {
	if l.terminated.Load() {
		return false
	}
	if t.timer != nil && t.timer.canceled.Load() {
		return true
	}
	if d := t.doc; d != nil {
		switch d.runnability() {
		case docDropTasks:
			dropTasks([]task{*t})
			return true
		case docDeferTasks:
			l.deferMu.Lock()
			l.deferred = append(l.deferred, *t)
			l.deferMu.Unlock()
			d.noteDeferred(l)
			// The document may have become fully active (or been destroyed)
			// meanwhile, after its deferred tasks were released: look again.
			switch d.runnability() {
			case docRunTasks:
				d.releaseDeferred(false)
			case docDropTasks:
				d.releaseDeferred(true)
			}
			return true
		}
	}
	l.currentSrc = t.source
	if l.r.onPanic != nil {
		l.r.protect(t.run)
		// Perform a microtask checkpoint.
		if cp := l.checkpoint.Load(); cp != nil {
			l.r.protect(*cp)
		}
	} else {
		t.run()
		// Perform a microtask checkpoint.
		if cp := l.checkpoint.Load(); cp != nil {
			(*cp)()
		}
	}
	return true
}

// requeueDeferred moves the deferred tasks of doc back into the queue, in
// their original order (the document became fully active again), or drops
// them (the document was destroyed).
func (l *EventLoop) requeueDeferred(doc *Document, drop bool) {
	l.deferMu.Lock()
	var keep, back, dropped []task
	for _, t := range l.deferred {
		if t.doc == doc {
			if !drop {
				back = append(back, t)
			} else {
				dropped = append(dropped, t)
			}
		} else {
			keep = append(keep, t)
		}
	}
	l.deferred = keep
	l.deferMu.Unlock()
	dropTasks(dropped)
	for _, t := range back {
		l.r.push(t)
	}
}

// DeferredTasks is the number of tasks waiting for their document to become
// fully active again.
func (l *EventLoop) DeferredTasks() int {
	l.deferMu.Lock()
	defer l.deferMu.Unlock()
	return len(l.deferred)
}

// terminate stops the loop: queued tasks and timers are dropped, later
// tasks are ignored, the goroutine exits after the current task.
func (l *EventLoop) terminate() chan struct{} {
	if l.terminated.Swap(true) {
		return l.r.done
	}
	c := l.r.core
	if c.manual {
		c.mu.Lock()
		for i := 0; i < len(c.timers); {
			if c.timers[i].loop == l {
				heap.Remove(&c.timers, i)
				continue
			}
			i++
		}
		c.mu.Unlock()
	} else {
		l.tmu.Lock()
		if l.rt != nil {
			l.rt.Stop()
		}
		for _, t := range l.timers {
			t.index = -1
		}
		l.timers = nil
		l.tmu.Unlock()
	}
	l.deferMu.Lock()
	deferred := l.deferred
	l.deferred = nil
	l.deferMu.Unlock()
	done := l.r.close()
	dropTasks(deferred)
	return done
}

// Timer is a pending "run steps after a timeout".
type Timer struct {
	loop     *EventLoop
	when     time.Duration // on the loop's clock
	seq      uint64
	source   TaskSource
	steps    func()
	doc      *Document
	index    int // heap index; -1 when not in a heap
	canceled atomic.Bool
	fired    atomic.Bool
	ranSteps atomic.Bool
}

// Cancel stops the timer; it reports whether its steps had not started
// (they never will now). Goroutine-safe; a task already queued for the timer
// is skipped.
func (t *Timer) Cancel() bool {
	if t.canceled.Swap(true) {
		return false
	}
	l := t.loop
	c := l.r.core
	if c.manual {
		c.mu.Lock()
		if t.index >= 0 {
			heap.Remove(&c.timers, t.index)
		}
		c.mu.Unlock()
	} else {
		l.tmu.Lock()
		if t.index >= 0 {
			heap.Remove(&l.timers, t.index)
		}
		l.tmu.Unlock()
	}
	return !t.ranSteps.Load()
}

func (t *Timer) fire() {
	t.fired.Store(true)
	if t.canceled.Load() {
		return
	}
	t.loop.r.push(task{steps: t.run, source: t.source, doc: t.doc, timer: t})
}

func (t *Timer) run() {
	t.ranSteps.Store(true)
	t.steps()
}

// Now is the loop's clock: the manual scheduler's fake time, otherwise the
// monotonic time since the loop was created. Timers are measured on it.
func (l *EventLoop) Now() time.Duration {
	c := l.r.core
	if c.manual {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.now
	}
	return time.Since(l.base)
}

// StartTimer is "run steps after a timeout": after d, a task running steps
// is queued on source (with document doc, may be nil). Timers started
// earlier with an equal or shorter timeout run first. The returned Timer can
// be canceled (clearTimeout). On a terminated loop it never fires.
//
// The standard's completionSteps run in parallel; here the completion step
// is always "queue a task on source running steps", which is what every
// caller (setTimeout's timer initialization steps, AbortSignal.timeout) does.
func (l *EventLoop) StartTimer(d time.Duration, source TaskSource, doc *Document, steps func()) *Timer {
	// 1. Assert: this is running in parallel. (Any goroutine.)
	// 2. Let startTime be the current high resolution time given global.
	// 3. Set global's map of active timers[timerKey] to startTime plus milliseconds.
	if d < 0 {
		d = 0
	}
	t := &Timer{loop: l, source: source, steps: steps, doc: doc, seq: timerSeq.Add(1), index: -1}
	if l.terminated.Load() {
		t.canceled.Store(true)
		return t
	}
	// 4. Wait until milliseconds milliseconds have passed.
	// 5. (Window: wait while the Document is not fully active: its task
	//    waits instead, see QueueDocumentTask.)
	// 6. Wait until any invocations of this algorithm that had the same
	//    global and orderingIdentifier, that started before this one, and
	//    whose milliseconds is less than or equal to this one's, have
	//    completed. (The heap orders timers by deadline, then start order,
	//    for all timers of the loop.)
	c := l.r.core
	if c.manual {
		c.mu.Lock()
		t.when = c.now + d
		heap.Push(&c.timers, t)
		c.mu.Unlock()
		return t
	}
	l.tmu.Lock()
	t.when = time.Since(l.base) + d
	heap.Push(&l.timers, t)
	if l.timers[0] == t {
		if l.rt == nil {
			l.rt = time.AfterFunc(d, l.fireDue)
		} else {
			l.rt.Reset(d)
		}
	}
	l.tmu.Unlock()
	// 7. Perform completionSteps (Timer.fire queues the task).
	// 8. Remove global's map of active timers[timerKey] (Timer.Cancel).
	return t
}

// fireDue (default mode) queues the tasks of all due timers in order and
// re-arms the runtime timer for the next one.
func (l *EventLoop) fireDue() {
	l.tmu.Lock()
	now := time.Since(l.base)
	var due []*Timer
	for len(l.timers) > 0 && l.timers[0].when <= now {
		due = append(due, heap.Pop(&l.timers).(*Timer))
	}
	if len(l.timers) > 0 && !l.terminated.Load() {
		l.rt.Reset(l.timers[0].when - now)
	}
	l.tmu.Unlock()
	for _, t := range due {
		t.fire()
	}
}

// RunStepsAfterTimeout implements dom.Timers: after ms milliseconds, steps
// run as a task on the timer task source of this loop.
func (l *EventLoop) RunStepsAfterTimeout(ms uint64, steps func()) {
	const maxMs = uint64(1<<63-1) / uint64(time.Millisecond)
	if ms > maxMs {
		ms = maxMs
	}
	l.StartTimer(time.Duration(ms)*time.Millisecond, TimerTaskSource, nil, steps)
}

// PendingTimers is the number of timers waiting to become due.
func (l *EventLoop) PendingTimers() int {
	c := l.r.core
	if c.manual {
		c.mu.Lock()
		defer c.mu.Unlock()
		n := 0
		for _, t := range c.timers {
			if t.loop == l {
				n++
			}
		}
		return n
	}
	l.tmu.Lock()
	defer l.tmu.Unlock()
	return len(l.timers)
}

// timerHeap orders timers by (deadline, start order).
type timerHeap []*Timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if h[i].when != h[j].when {
		return h[i].when < h[j].when
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index = i
	h[j].index = j
}
func (h *timerHeap) Push(x any) {
	t := x.(*Timer)
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *timerHeap) Pop() any {
	old := *h
	n := len(old)
	t := old[n-1]
	old[n-1] = nil
	t.index = -1
	*h = old[:n-1]
	return t
}
