package html

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/dom"
)

func schedulers() map[string]func() Scheduler {
	return map[string]func() Scheduler{
		"inline":     func() Scheduler { return NewGoroutineScheduler() },
		"goroutines": func() Scheduler { return NewGoroutineScheduler(InlineParallelQueues(false)) },
	}
}

func TestEventLoopOrderOneGoroutineCheckpoint(t *testing.T) {
	for name, mk := range schedulers() {
		t.Run(name, func(t *testing.T) {
			ua := NewUserAgent(WithScheduler(mk()))
			defer ua.Close()
			loop := mustOpen(t, ua, "https://a.test/").EnvironmentSettingsObject().ResponsibleEventLoop()
			var mu sync.Mutex
			var log []string
			gids := map[uint64]bool{}
			inTask := atomic.Int32{}
			loop.SetMicrotaskCheckpoint(func() {
				mu.Lock()
				log = append(log, "cp")
				mu.Unlock()
			})
			const P, N = 4, 200
			var wg sync.WaitGroup
			done := make(chan struct{})
			var count atomic.Int32
			for p := 0; p < P; p++ {
				wg.Add(1)
				go func(p int) {
					defer wg.Done()
					for i := 0; i < N; i++ {
						src := TaskSource(p % 3)
						loop.QueueTask(src, func() {
							if inTask.Add(1) != 1 {
								t.Error("two tasks at once")
							}
							if !loop.IsRunning() || loop.CurrentTaskSource() != src {
								t.Error("IsRunning/CurrentTaskSource")
							}
							mu.Lock()
							gids[stackGoid()] = true
							log = append(log, fmt.Sprintf("%d:%d", p, i))
							mu.Unlock()
							inTask.Add(-1)
							if count.Add(1) == P*N {
								close(done)
							}
						})
					}
				}(p)
			}
			wg.Wait()
			<-done
			waitFor(t, "last checkpoint", func() bool { mu.Lock(); defer mu.Unlock(); return len(log) == 2*P*N })
			mu.Lock()
			defer mu.Unlock()
			if len(gids) != 1 {
				t.Fatalf("tasks ran on %d goroutines", len(gids))
			}
			next := make([]int, P)
			for i, e := range log {
				if i%2 == 1 {
					if e != "cp" {
						t.Fatalf("no checkpoint after task at %d: %s", i, e)
					}
					continue
				}
				var p, n int
				fmt.Sscanf(e, "%d:%d", &p, &n)
				if n != next[p] {
					t.Fatalf("producer %d: task %d ran before %d", p, n, next[p])
				}
				next[p]++
			}
			if loop.IsRunning() {
				t.Fatal("IsRunning outside a task")
			}
		})
	}
}

func TestParallelQueueOrderAndExclusion(t *testing.T) {
	for name, mk := range schedulers() {
		t.Run(name, func(t *testing.T) {
			ua := NewUserAgent(WithScheduler(mk()))
			defer ua.Close()
			q := ua.StartANewParallelQueue()
			if lq := testQueue(ua); q == lq || lq != testQueue(ua) {
				t.Fatal("lock task queue identity")
			}
			var running atomic.Int32
			last := make([]int, 4)
			var wg sync.WaitGroup
			var total atomic.Int32
			for p := 0; p < 4; p++ {
				wg.Add(1)
				go func(p int) {
					defer wg.Done()
					for i := 1; i <= 2000; i++ {
						q.Enqueue(func() {
							if running.Add(1) != 1 {
								t.Error("steps ran concurrently")
							}
							if !q.IsRunning() {
								t.Error("IsRunning false inside steps")
							}
							if last[p] != i-1 {
								t.Errorf("producer %d: %d after %d", p, i, last[p])
							}
							last[p] = i
							// Nested enqueue from inside the queue runs later, in order.
							if i%500 == 0 {
								q.Enqueue(func() { total.Add(1) })
							}
							total.Add(1)
							running.Add(-1)
						})
					}
				}(p)
			}
			wg.Wait()
			waitFor(t, "all steps", func() bool { return total.Load() == 4*2000+4*4 })
			if q.IsRunning() {
				t.Fatal("IsRunning outside steps")
			}
		})
	}
}

func TestManualSchedulerInterleavings(t *testing.T) {
	ms, ua := manualUA()
	defer ua.Close()
	a := mustOpen(t, ua, "https://a.test/")
	b := mustOpen(t, ua, "https://b.test/")
	la := a.EnvironmentSettingsObject().ResponsibleEventLoop()
	lb := b.EnvironmentSettingsObject().ResponsibleEventLoop()
	ltq := testQueue(ua)
	var log []string
	la.SetMicrotaskCheckpoint(func() { log = append(log, "cpA") })
	ltq.Enqueue(func() { log = append(log, "q1") })
	ltq.Enqueue(func() { log = append(log, "q2") })
	la.QueueTask(DOMManipulationTaskSource, func() { log = append(log, "a1") })
	lb.QueueTask(DOMManipulationTaskSource, func() { log = append(log, "b1") })
	if ms.Pending() != 4 || len(log) != 0 {
		t.Fatal("manual scheduler ran something by itself")
	}
	rs := ms.Runnable()
	if len(rs) != 3 {
		t.Fatalf("%d runnable", len(rs))
	}
	// Pick an interleaving: b, then the queue, then a, then the queue.
	var pick = func(r Runner) {
		if !r.RunOne() {
			t.Fatal("RunOne false")
		}
	}
	pick(lb)
	pick(ltq)
	pick(la)
	if got := fmt.Sprint(log); got != "[b1 q1 a1 cpA]" {
		t.Fatal(got)
	}
	if ms.RunUntilIdle() != 1 || ms.Pending() != 0 || ms.RunOne() {
		t.Fatal("RunUntilIdle")
	}
	if ltq.RunOne() {
		t.Fatal("RunOne on empty queue")
	}
	for _, r := range []Runner{ltq, la} {
		if r.Name() == "" {
			t.Fatal("names")
		}
	}
}

func TestManualTimersOrderAndCancel(t *testing.T) {
	ms, ua := manualUA()
	defer ua.Close()
	loop := mustOpen(t, ua, "https://a.test/").EnvironmentSettingsObject().ResponsibleEventLoop()
	var log []string
	add := func(name string, ms time.Duration) *Timer {
		return loop.StartTimer(ms*time.Millisecond, TimerTaskSource, nil, func() {
			log = append(log, name)
			if loop.CurrentTaskSource() != TimerTaskSource {
				t.Error("timer task source")
			}
		})
	}
	add("t100a", 100)
	add("t50", 50)
	c := add("canceled", 60)
	add("t100b", 100)
	late := add("late", 100)
	add("t0", 0)
	if !c.Cancel() || c.Cancel() {
		t.Fatal("Cancel result")
	}
	if loop.PendingTimers() != 5 {
		t.Fatal("pending timers", loop.PendingTimers())
	}
	if d, ok := ms.NextTimer(); !ok || d != 0 {
		t.Fatal("NextTimer", d, ok)
	}
	ms.Advance(0)
	ms.RunUntilIdle()
	ms.Advance(99 * time.Millisecond)
	// Due and queued, then canceled before its task runs: it must not run.
	ms.Advance(time.Millisecond)
	if !late.Cancel() {
		t.Fatal("a queued timer task that has not run can be canceled")
	}
	ms.RunUntilIdle()
	if got := fmt.Sprint(log); got != "[t0 t50 t100a t100b]" {
		t.Fatal(got)
	}
	if ms.Now() != 100*time.Millisecond || loop.PendingTimers() != 0 {
		t.Fatal("clock / timers")
	}
	if _, ok := ms.NextTimer(); ok {
		t.Fatal("NextTimer with none")
	}
	// dom.Timers: AbortSignal.timeout through the event loop.
	var _ dom.Timers = loop
	s := dom.AbortSignalTimeout(loop, 30)
	ms.Advance(29 * time.Millisecond)
	ms.RunUntilIdle()
	if s.Aborted() {
		t.Fatal("aborted early")
	}
	ms.Advance(time.Millisecond)
	if s.Aborted() {
		t.Fatal("aborted before the timer task ran")
	}
	ms.RunUntilIdle()
	if e, ok := s.Reason().(*dom.DOMException); !ok || e.Name != dom.TimeoutError {
		t.Fatalf("reason %v", s.Reason())
	}
}

func TestRealTimers(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	loop := mustOpen(t, ua, "https://a.test/").EnvironmentSettingsObject().ResponsibleEventLoop()
	var mu sync.Mutex
	var log []string
	done := make(chan struct{})
	rec := func(s string) func() {
		return func() {
			mu.Lock()
			log = append(log, s)
			n := len(log)
			mu.Unlock()
			if n == 4 {
				close(done)
			}
		}
	}
	start := time.Now()
	loop.QueueTask(TimerTaskSource, func() {
		loop.StartTimer(20*time.Millisecond, TimerTaskSource, nil, rec("20a"))
		loop.StartTimer(5*time.Millisecond, TimerTaskSource, nil, rec("5"))
		loop.StartTimer(20*time.Millisecond, TimerTaskSource, nil, rec("20b"))
		x := loop.StartTimer(10*time.Millisecond, TimerTaskSource, nil, rec("canceled"))
		x.Cancel()
		loop.RunStepsAfterTimeout(30, rec("30"))
	})
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("timers did not fire")
	}
	if el := time.Since(start); el < 30*time.Millisecond {
		t.Fatalf("fired after %v", el)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := fmt.Sprint(log); got != "[5 20a 20b 30]" {
		t.Fatal(got)
	}
	time.Sleep(15 * time.Millisecond)
	if len(log) != 4 {
		t.Fatal("canceled timer ran")
	}
	// A long timer is dropped with its loop.
	tm := loop.StartTimer(time.Hour, TimerTaskSource, nil, func() {})
	loop.Agent().Terminate()
	if loop.PendingTimers() != 0 || !tm.Cancel() {
		t.Fatal("timers survive termination")
	}
	if loop.StartTimer(0, TimerTaskSource, nil, func() { t.Error("ran") }); loop.PendingTimers() != 0 {
		t.Fatal("timer on a terminated loop")
	}
}

func TestTerminationOrdering(t *testing.T) {
	ms, ua := manualUA()
	defer ua.Close()
	doc := mustOpen(t, ua, "https://a.test/")
	env := doc.EnvironmentSettingsObject()
	w, err := NewDedicatedWorker(env, mustURL(t, "https://a.test/w.js"))
	if err != nil {
		t.Fatal(err)
	}
	ww, err := NewDedicatedWorker(w, mustURL(t, "https://a.test/ww.js"))
	if err != nil {
		t.Fatal(err)
	}
	var log []string
	agent := w.Agent()
	agent.AddTerminationSteps(func() { log = append(log, "w1") })
	id := agent.AddTerminationSteps(func() { log = append(log, "removed") })
	agent.AddTerminationSteps(func() { log = append(log, "w3") })
	agent.RemoveTerminationSteps(id)
	ww.Agent().AddTerminationSteps(func() { log = append(log, "ww") })
	wl := w.ResponsibleEventLoop()
	wl.QueueTask(DOMManipulationTaskSource, func() { log = append(log, "queued task") })
	wl.StartTimer(time.Second, TimerTaskSource, nil, func() { log = append(log, "timer") })
	if len(w.Workers()) != 1 || len(env.Workers()) != 1 {
		t.Fatal("Workers()")
	}
	agent.Terminate()
	agent.Terminate()
	if got := fmt.Sprint(log); got != "[ww w1 w3]" {
		t.Fatal(got)
	}
	if !agent.IsTerminated() || !wl.IsTerminated() || !ww.Agent().IsTerminated() {
		t.Fatal("not terminated")
	}
	if agent.AddTerminationSteps(func() {}) != 0 {
		t.Fatal("steps added after termination")
	}
	wl.QueueTask(DOMManipulationTaskSource, func() { log = append(log, "late task") })
	ms.Advance(time.Hour)
	ms.RunUntilIdle()
	if got := fmt.Sprint(log); got != "[ww w1 w3]" {
		t.Fatal("tasks ran on a terminated loop:", got)
	}
	if env.Agent().IsTerminated() {
		t.Fatal("worker termination terminated its owner")
	}
	if len(env.Workers()) != 0 {
		t.Fatal("terminated worker still listed")
	}
}

func TestWorkerTerminatesWithOwnerDocument(t *testing.T) {
	_, ua := manualUA()
	defer ua.Close()
	top := mustOpen(t, ua, "https://a.test/")
	child := mustChild(t, top, "https://a.test/frame", ChildNavigableOptions{})
	w, err := NewDedicatedWorker(child.EnvironmentSettingsObject(), mustURL(t, "https://a.test/w.js"))
	if err != nil {
		t.Fatal(err)
	}
	var log []string
	child.AddUnloadingDocumentCleanupSteps(func() { log = append(log, "child cleanup") })
	w.Agent().AddTerminationSteps(func() { log = append(log, "worker terminated") })
	child.Navigable().Destroy()
	if got := fmt.Sprint(log); got != "[child cleanup worker terminated]" {
		t.Fatal(got)
	}
	if top.EnvironmentSettingsObject().Agent().IsTerminated() {
		t.Fatal("window agent with a live document terminated")
	}
}

func TestCloseStopsGoroutines(t *testing.T) {
	before := runtimeGoroutines()
	for i := 0; i < 3; i++ {
		ua := NewUserAgent()
		d := mustOpen(t, ua, "https://a.test/")
		c := mustChild(t, d, "https://b.test/", ChildNavigableOptions{})
		w, _ := NewDedicatedWorker(c.EnvironmentSettingsObject(), mustURL(t, "https://b.test/w"))
		var wg sync.WaitGroup
		for _, l := range []*EventLoop{d.EnvironmentSettingsObject().ResponsibleEventLoop(), c.EnvironmentSettingsObject().ResponsibleEventLoop(), w.ResponsibleEventLoop()} {
			wg.Add(1)
			l.QueueTask(DOMManipulationTaskSource, wg.Done)
		}
		wg.Wait()
		done := make(chan struct{})
		testQueue(ua).Enqueue(func() { close(done) })
		<-done
		ua.StartANewParallelQueue().Enqueue(func() {})
		d.EnvironmentSettingsObject().ResponsibleEventLoop().StartTimer(time.Hour, TimerTaskSource, nil, func() {})
		ua.Close()
		ua.Close()
		if len(ua.Agents()) != 0 {
			t.Fatal("agents after Close")
		}
		if _, err := ua.OpenWindowURL("https://a.test/"); err == nil {
			t.Fatal("OpenWindow after Close")
		}
	}
	waitFor(t, "goroutines to exit", func() bool { return runtimeGoroutines() <= before })
}

func TestManyHopsNoAllocs(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	loop := mustOpen(t, ua, "https://a.test/").EnvironmentSettingsObject().ResponsibleEventLoop()
	q := testQueue(ua)
	done := make(chan struct{}, 1)
	n := 0
	var toQ, toL func()
	toQ = func() { q.Enqueue(toL) }
	toL = func() {
		n++
		if n%1000 == 0 {
			done <- struct{}{}
			return
		}
		loop.QueueTask(testTaskSource, toQ)
	}
	loop.QueueTask(testTaskSource, toQ)
	<-done
	allocs := testing.AllocsPerRun(20, func() {
		loop.QueueTask(testTaskSource, toQ)
		<-done
	})
	if allocs > 5 { // 2000 hops per run
		t.Fatalf("%v allocations per 2000 hops", allocs)
	}
}
