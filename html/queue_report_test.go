package html

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/petermattis/goid"
)

// goid.Get reads the goroutine id from the runtime's g structure; check it
// against the id the runtime prints, so a Go release that moves the field
// fails here rather than making every ownership check wrong.
func TestGoidMatchesRuntime(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if a, b := goid.Get(), stackGoid(); uint64(a) != b {
				t.Errorf("goid.Get() = %d, runtime says %d", a, b)
			}
		}()
	}
	wg.Wait()
}

func TestQueueTaskReportsTermination(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	env := mustOpen(t, ua, "https://a.test/").EnvironmentSettingsObject()
	loop := env.ResponsibleEventLoop()
	if !loop.QueueTask(DOMManipulationTaskSource, func() {}) {
		t.Fatal("QueueTask on a live loop reported false")
	}
	if !QueueAGlobalTask(DOMManipulationTaskSource, env, func() {}) {
		t.Fatal("QueueAGlobalTask on a live loop reported false")
	}
	env.Agent().Terminate()
	if loop.QueueTask(DOMManipulationTaskSource, func() { t.Error("ran") }) {
		t.Error("QueueTask on a terminated loop reported true")
	}
	if QueueAGlobalTask(DOMManipulationTaskSource, env, func() { t.Error("ran") }) {
		t.Error("QueueAGlobalTask on a terminated loop reported true")
	}
	if loop.QueueTask(DOMManipulationTaskSource, nil) {
		t.Error("QueueTask(nil) reported true")
	}
}

type recTask struct {
	ran, dropped atomic.Int32
	done         chan struct{}
}

func (r *recTask) RunTask()  { r.ran.Add(1); close(r.done) }
func (r *recTask) DropTask() { r.dropped.Add(1); close(r.done) }

// A task queued before the loop terminated, that never ran, is reported
// dropped exactly once.
func TestQueueTaskValueDropped(t *testing.T) {
	ms, ua := manualUA()
	defer ua.Close()
	env := mustOpen(t, ua, "https://a.test/").EnvironmentSettingsObject()
	ms.RunUntilIdle()
	loop := env.ResponsibleEventLoop()
	rt := &recTask{done: make(chan struct{})}
	if !loop.QueueTaskValue(DOMManipulationTaskSource, rt) {
		t.Fatal("not queued")
	}
	env.Agent().Terminate()
	<-rt.done
	ms.RunUntilIdle()
	if rt.ran.Load() != 0 || rt.dropped.Load() != 1 {
		t.Fatalf("ran %d, dropped %d; want 0, 1", rt.ran.Load(), rt.dropped.Load())
	}
	rt2 := &recTask{done: make(chan struct{})}
	if loop.QueueTaskValue(DOMManipulationTaskSource, rt2) || rt2.dropped.Load() != 0 {
		t.Fatal("QueueTaskValue on a terminated loop: want false and no DropTask")
	}
}

func TestQueueTaskValueRuns(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	loop := mustOpen(t, ua, "https://a.test/").EnvironmentSettingsObject().ResponsibleEventLoop()
	rt := &recTask{done: make(chan struct{})}
	loop.QueueTaskValue(DOMManipulationTaskSource, rt)
	<-rt.done
	if rt.ran.Load() != 1 || rt.dropped.Load() != 0 {
		t.Fatalf("ran %d, dropped %d", rt.ran.Load(), rt.dropped.Load())
	}
}

func TestRunOnLoop(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	env := mustOpen(t, ua, "https://a.test/").EnvironmentSettingsObject()
	loop := env.ResponsibleEventLoop()
	if loop.IsCurrent() || loop.CheckCurrent() == nil {
		t.Fatal("the test goroutine is not the loop")
	}
	want := errors.New("x")
	var inner error
	err := loop.RunOnLoop(context.Background(), func() error {
		if !loop.IsCurrent() || loop.CheckCurrent() != nil {
			t.Error("RunOnLoop's f is not on the loop")
		}
		// Nested: runs at once instead of deadlocking.
		inner = loop.RunOnLoop(context.Background(), func() error { return want })
		return want
	})
	if err != want || inner != want {
		t.Fatalf("RunOnLoop = %v, nested %v; want %v", err, inner, want)
	}
	var we *WrongGoroutineError
	if err := loop.CheckCurrent(); !errors.As(err, &we) || we.Loop != loop.Name() {
		t.Fatalf("CheckCurrent = %v; want a WrongGoroutineError naming %q", err, loop.Name())
	}
	// A blocked loop: ctx ends the wait.
	block := make(chan struct{})
	loop.QueueTask(DOMManipulationTaskSource, func() { <-block })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := loop.RunOnLoop(ctx, func() error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("RunOnLoop with a canceled ctx = %v", err)
	}
	close(block)
	env.Agent().Terminate()
	if err := loop.RunOnLoop(context.Background(), func() error { return nil }); !errors.Is(err, ErrLoopTerminated) {
		t.Fatalf("RunOnLoop on a terminated loop = %v", err)
	}
}

// A task queued, then dropped by termination before it ran, ends the wait.
func TestRunOnLoopDropped(t *testing.T) {
	ms, ua := manualUA()
	defer ua.Close()
	env := mustOpen(t, ua, "https://a.test/").EnvironmentSettingsObject()
	ms.RunUntilIdle()
	errc := make(chan error, 1)
	go func() {
		errc <- env.ResponsibleEventLoop().RunOnLoop(context.Background(), func() error { return nil })
	}()
	waitFor(t, "the task to be queued", func() bool { return env.ResponsibleEventLoop().Pending() == 1 })
	env.Agent().Terminate()
	if err := <-errc; !errors.Is(err, ErrLoopTerminated) {
		t.Fatalf("RunOnLoop = %v; want ErrLoopTerminated", err)
	}
}

func TestCloseContext(t *testing.T) {
	ua := NewUserAgent()
	env := mustOpen(t, ua, "https://a.test/").EnvironmentSettingsObject()
	block, started := make(chan struct{}), make(chan struct{})
	// A task that blocks on another goroutine's behalf keeps its loop
	// goroutine busy; CloseContext returns when ctx ends.
	env.ResponsibleEventLoop().QueueTask(DOMManipulationTaskSource, func() { close(started); <-block })
	<-started
	q := ua.StartANewParallelQueue()
	qblock := make(chan struct{})
	qstarted := make(chan struct{})
	go q.Enqueue(func() { close(qstarted); <-qblock })
	<-qstarted
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ua.CloseContext(ctx); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("CloseContext = %v", err)
	}
	close(block)
	close(qblock)
	if err := ua.CloseContext(context.Background()); err != nil {
		t.Fatalf("second CloseContext = %v", err)
	}
}
