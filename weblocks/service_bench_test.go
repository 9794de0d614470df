package weblocks

import (
	"testing"
)

// BenchmarkServiceCycle is one uncontended request/release cycle through
// the lock service contract alone, with a deliver function that runs the
// outcome at once (on the lock task queue): the service's own cost, with
// the lock task queue hops.
func BenchmarkServiceCycle(b *testing.B) {
	s := NewService()
	c, err := s.Register(ClientConfig{ID: "bench", Bucket: testBucket(b), Deliver: inline})
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan struct{})
	var next func(n int)
	next = func(n int) {
		if n == 0 {
			close(done)
			return
		}
		if _, err := s.Request(c, "r", Exclusive, Wait, ReceiverFunc(func(o Outcome) {
			if err := s.Release(o.Lock); err != nil {
				b.Error(err)
			}
			next(n - 1)
		})); err != nil {
			b.Error(err)
			close(done)
		}
	}
	run := func(n int) {
		done = make(chan struct{})
		next(n)
		<-done
	}
	run(1000) // warm up
	b.ReportAllocs()
	b.ResetTimer()
	cpu := startCPU(b)
	run(b.N)
	cpu.report()
}

// BenchmarkPageCycle is the Go API's cycle (BenchmarkRequestRelease) on
// the page side of the contract: RequestLock with a *Future as the
// released promise, on an event loop of the host's (a goroutine reading a
// channel), the callback returning nil.
func BenchmarkPageCycle(b *testing.B) {
	s, l := NewService(), newPageLoop(b)
	c := pageClient(b, s, l, "bench")
	cb := func(*Lock) Waiting { return nil }
	run := func(n int) {
		done := make(chan struct{})
		var next func()
		i := 0
		next = func() {
			if i == n {
				close(done)
				return
			}
			i++
			f := NewFuture()
			RequestLock(s, c, okFacts, "r", Options{}, cb, f)
			f.OnSettled(func() { l.deliver(next) })
		}
		l.deliver(next)
		<-done
	}
	run(1000)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := startCPU(b)
	run(b.N)
	cpu.report()
}
