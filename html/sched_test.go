package html

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

func TestInlineQueueRunsOnEnqueuerAndDrainsNested(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	q := ua.StartANewParallelQueue()
	me := stackGoid()
	var log []string
	q.Enqueue(func() {
		if stackGoid() != me {
			t.Error("idle queue did not run inline")
		}
		log = append(log, "outer")
		q.Enqueue(func() {
			log = append(log, "nested")
			if stackGoid() != me {
				t.Error("nested steps left the enqueuer")
			}
		})
		log = append(log, "outer end")
	})
	// Both ran before Enqueue returned, in order, never overlapping.
	if got := fmt.Sprint(log); got != "[outer outer end nested]" {
		t.Fatal(got)
	}
	// With inlining off, steps run on the queue's goroutine.
	ua2 := NewUserAgent(WithScheduler(NewGoroutineScheduler(InlineParallelQueues(false))))
	defer ua2.Close()
	ch := make(chan uint64)
	testQueue(ua2).Enqueue(func() { ch <- stackGoid() })
	if <-ch == me {
		t.Fatal("ran inline with inlining off")
	}
}

func TestInlinePanicReleasesQueue(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	q := ua.StartANewParallelQueue()
	func() {
		defer func() { recover() }()
		q.Enqueue(func() { panic("boom") })
	}()
	if q.IsRunning() {
		t.Fatal("IsRunning after a panic")
	}
	done := make(chan struct{})
	q.Enqueue(func() { close(done) })
	<-done
}

func TestInlineHandsOffLongChains(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	q := ua.StartANewParallelQueue()
	me := stackGoid()
	var other atomic.Bool
	done := make(chan struct{})
	n := 0
	var step func()
	step = func() {
		if stackGoid() != me {
			other.Store(true)
		}
		n++
		if n == 100 {
			close(done)
			return
		}
		q.Enqueue(step)
	}
	q.Enqueue(step)
	<-done
	if !other.Load() {
		t.Fatal("an endless chain must not keep the enqueuer forever")
	}
}

// TestSchedulerStress mixes producers, loops, queues, termination and Close
// on the goroutine scheduler (run with -race).
func TestSchedulerStress(t *testing.T) {
	for _, inline := range []bool{true, false} {
		ua := NewUserAgent(WithScheduler(NewGoroutineScheduler(InlineParallelQueues(inline))))
		top := mustOpen(t, ua, "https://a.test/")
		var loops []*EventLoop
		var agents []*Agent
		for i := 0; i < 4; i++ {
			c := mustChild(t, top, fmt.Sprintf("https://s%d.test/", i), ChildNavigableOptions{})
			w, err := NewDedicatedWorker(c.EnvironmentSettingsObject(), c.URL())
			if err != nil {
				t.Fatal(err)
			}
			loops = append(loops, c.EnvironmentSettingsObject().ResponsibleEventLoop(), w.ResponsibleEventLoop())
			agents = append(agents, w.Agent())
		}
		q := testQueue(ua)
		var ran atomic.Int64
		var wg sync.WaitGroup
		for p := 0; p < 4; p++ {
			wg.Add(1)
			go func(p int) {
				defer wg.Done()
				for i := 0; i < 3000; i++ {
					l := loops[(p+i)%len(loops)]
					q.Enqueue(func() {
						l.QueueTask(testTaskSource, func() {
							ran.Add(1)
							q.Enqueue(func() { ran.Add(1) })
						})
					})
					if i == 1500 && p < len(agents) {
						agents[p].Terminate()
					}
				}
			}(p)
		}
		wg.Wait()
		waitFor(t, "some tasks to run", func() bool { return ran.Load() > 0 })
		ua.Close()
	}
}

func TestPanicHandler(t *testing.T) {
	for _, inline := range []bool{true, false} {
		var mu sync.Mutex
		var got []string
		ua := NewUserAgent(WithScheduler(NewGoroutineScheduler(InlineParallelQueues(inline))),
			WithPanicHandler(func(v any, stack []byte) {
				mu.Lock()
				got = append(got, fmt.Sprint(v))
				mu.Unlock()
				if len(stack) == 0 {
					t.Error("no stack")
				}
			}))
		loop := mustOpen(t, ua, "https://a.test/").EnvironmentSettingsObject().ResponsibleEventLoop()
		loop.SetMicrotaskCheckpoint(func() {})
		done := make(chan struct{})
		loop.QueueTask(DOMManipulationTaskSource, func() { panic("task") })
		testQueue(ua).Enqueue(func() { panic("steps") })
		loop.QueueTask(DOMManipulationTaskSource, func() {
			testQueue(ua).Enqueue(func() { close(done) })
		})
		<-done
		mu.Lock()
		if len(got) != 2 {
			t.Fatalf("inline=%v: reported %v", inline, got)
		}
		mu.Unlock()
		if loop.Now() <= 0 {
			t.Fatal("Now")
		}
		ua.Close()
	}
}

func TestBurstDoesNotPinMemory(t *testing.T) {
	for name, mk := range map[string]func() Scheduler{
		"goroutines": func() Scheduler { return NewGoroutineScheduler(InlineParallelQueues(false)) },
		"manual":     func() Scheduler { return NewManualScheduler() },
	} {
		ua := NewUserAgent(WithScheduler(mk()))
		q := ua.StartANewParallelQueue()
		var ran atomic.Int64
		gate := make(chan struct{})
		if name != "manual" {
			q.Enqueue(func() { <-gate }) // hold the queue while the burst piles up
		}
		for i := 0; i < 100000; i++ {
			q.Enqueue(func() { ran.Add(1) })
		}
		if name == "manual" {
			ua.Scheduler().(*ManualScheduler).RunUntilIdle()
		} else {
			close(gate)
		}
		waitFor(t, "burst", func() bool { return ran.Load() == 100000 })
		q.Enqueue(func() { ran.Add(1) })
		if name == "manual" {
			ua.Scheduler().(*ManualScheduler).RunUntilIdle()
		}
		waitFor(t, "one more", func() bool { return ran.Load() == 100001 })
		q.r.mu.Lock()
		c := cap(q.r.items) + cap(q.r.spare)
		q.r.mu.Unlock()
		if c > 2*maxReusedBatch {
			t.Errorf("%s: queue keeps %d slots after a burst", name, c)
		}
		ua.Close()
	}
}
