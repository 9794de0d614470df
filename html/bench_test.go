package html

import (
	"sync"
	"testing"
)

// benchPingPong measures one hop: steps on the event loop enqueue steps on
// the parallel queue, which queue a task back on the loop, and so on; each
// arrow is one hop. It reports ns per hop.
func benchPingPong(b *testing.B, sched Scheduler) {
	ua := NewUserAgent(WithScheduler(sched))
	defer ua.Close()
	doc, err := ua.OpenWindowURL("https://bench.test/")
	if err != nil {
		b.Fatal(err)
	}
	loop := doc.EnvironmentSettingsObject().ResponsibleEventLoop()
	q := testQueue(ua)
	done := make(chan struct{})
	n := b.N
	var toLoop, toQueue func()
	toQueue = func() {
		n--
		if n <= 0 {
			close(done)
			return
		}
		q.Enqueue(toLoop)
	}
	toLoop = func() {
		n--
		if n <= 0 {
			close(done)
			return
		}
		loop.QueueTask(testTaskSource, toQueue)
	}
	b.ReportAllocs()
	b.ResetTimer()
	loop.QueueTask(testTaskSource, toQueue)
	<-done
}

func BenchmarkHopInline(b *testing.B) { benchPingPong(b, NewGoroutineScheduler()) }

func BenchmarkHopGoroutines(b *testing.B) {
	benchPingPong(b, NewGoroutineScheduler(InlineParallelQueues(false)))
}

// BenchmarkHopFromForeignGoroutine: a goroutine outside the scheduler queues
// a task and waits for it (the cost of waking a parked event loop).
func BenchmarkHopFromForeignGoroutine(b *testing.B) {
	ua := NewUserAgent()
	defer ua.Close()
	doc, _ := ua.OpenWindowURL("https://bench.test/")
	loop := doc.EnvironmentSettingsObject().ResponsibleEventLoop()
	ch := make(chan struct{}, 1)
	f := func() { ch <- struct{}{} }
	b.ReportAllocs()
	for b.Loop() {
		loop.QueueTask(testTaskSource, f)
		<-ch
	}
}

// BenchmarkQueueThroughput: producers enqueue on one parallel queue
// concurrently (batched draining).
func BenchmarkQueueThroughput(b *testing.B) {
	ua := NewUserAgent(WithScheduler(NewGoroutineScheduler(InlineParallelQueues(false))))
	defer ua.Close()
	q := ua.StartANewParallelQueue()
	var wg sync.WaitGroup
	step := func() { wg.Done() }
	b.ReportAllocs()
	b.ResetTimer()
	wg.Add(b.N)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			q.Enqueue(step)
		}
	})
	wg.Wait()
}

// BenchmarkManualHop: the manual scheduler's cost per step.
func BenchmarkManualHop(b *testing.B) {
	ms := NewManualScheduler()
	ua := NewUserAgent(WithScheduler(ms))
	defer ua.Close()
	q := testQueue(ua)
	f := func() {}
	b.ReportAllocs()
	for b.Loop() {
		q.Enqueue(f)
		ms.RunOne()
	}
}

// benchCycle runs b.N cycles of 4 hops each, as a Web Locks request/release
// cycle does: event loop → lock task queue → event loop → lock task queue →
// event loop. It reports ns per cycle.
func benchCycle(b *testing.B, sched Scheduler) {
	ua := NewUserAgent(WithScheduler(sched))
	defer ua.Close()
	doc, _ := ua.OpenWindowURL("https://bench.test/")
	loop := doc.EnvironmentSettingsObject().ResponsibleEventLoop()
	q := testQueue(ua)
	done := make(chan struct{})
	n := 0
	var start, h1, h2, h3, h4 func()
	start = func() {
		if n == b.N {
			close(done)
			return
		}
		n++
		q.Enqueue(h1)
	}
	h1 = func() { loop.QueueTask(testTaskSource, h2) }
	h2 = func() { q.Enqueue(h3) }
	h3 = func() { loop.QueueTask(testTaskSource, h4) }
	h4 = start
	b.ReportAllocs()
	b.ResetTimer()
	loop.QueueTask(testTaskSource, start)
	<-done
}

func BenchmarkFourHopCycleInline(b *testing.B) { benchCycle(b, NewGoroutineScheduler()) }
func BenchmarkFourHopCycleGoroutines(b *testing.B) {
	benchCycle(b, NewGoroutineScheduler(InlineParallelQueues(false)))
}

// BenchmarkQueueTaskSelf: a task queues the next task on its own loop.
func BenchmarkQueueTaskSelf(b *testing.B) {
	ua := NewUserAgent()
	defer ua.Close()
	doc, _ := ua.OpenWindowURL("https://bench.test/")
	loop := doc.EnvironmentSettingsObject().ResponsibleEventLoop()
	done := make(chan struct{})
	n := 0
	var f func()
	f = func() {
		n++
		if n >= b.N {
			close(done)
			return
		}
		loop.QueueTask(testTaskSource, f)
	}
	b.ReportAllocs()
	b.ResetTimer()
	loop.QueueTask(testTaskSource, f)
	<-done
}

// BenchmarkIsFullyActive: the check every lock request makes.
func BenchmarkIsFullyActive(b *testing.B) {
	ua := NewUserAgent()
	defer ua.Close()
	top, _ := ua.OpenWindowURL("https://bench.test/")
	child, _ := top.CreateChildNavigableURL("https://bench.test/f", ChildNavigableOptions{})
	b.ReportAllocs()
	for b.Loop() {
		if !child.IsFullyActive() {
			b.Fatal("not fully active")
		}
	}
}
