package weblocks

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/dom"
)

// pageLoop is a host's event loop for the page-side tests: a goroutine
// running the functions sent to it, in order.
type pageLoop chan func()

func newPageLoop(t testing.TB) pageLoop {
	l := make(pageLoop, 1024)
	go func() {
		for f := range l {
			f()
		}
	}()
	t.Cleanup(func() { close(l) })
	return l
}

func (l pageLoop) deliver(f func()) { l <- f }

// do runs f on the loop and waits for it.
func (l pageLoop) do(t testing.TB, f func()) {
	t.Helper()
	done := make(chan struct{})
	l <- func() { f(); close(done) }
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("loop did not run")
	}
}

func pageClient(t testing.TB, s *Service, l pageLoop, id string) Client {
	t.Helper()
	c, err := s.Register(ClientConfig{ID: id, Bucket: testBucket(t), Deliver: DeliverFunc(l.deliver)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var okFacts = Facts{SecureContext: true}

func wait(t testing.TB, f *Future) (any, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	v, err := f.Wait(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		t.Fatal("future did not settle")
	}
	return v, err
}

func domName(err error) string {
	var de *dom.DOMException
	if errors.As(err, &de) {
		return de.Name
	}
	return ""
}

func TestPageEarlyRejections(t *testing.T) {
	s, l := NewService(), newPageLoop(t)
	c := pageClient(t, s, l, "a")
	aborted := dom.NewAbortController()
	aborted.Abort("why")
	live := dom.NewAbortController()
	cb := func(*Lock) Waiting { return nil }
	for _, tc := range []struct {
		name  string
		facts Facts
		lock  Name
		opts  Options
		want  string
	}{
		{"insecure", Facts{}, "x", Options{}, dom.SecurityError},
		{"not fully active", Facts{SecureContext: true, NotFullyActive: true}, "x", Options{}, dom.InvalidStateError},
		{"opaque origin", Facts{SecureContext: true, OpaqueOrigin: true}, "x", Options{}, dom.SecurityError},
		{"reserved name", okFacts, "-x", Options{}, dom.NotSupportedError},
		{"steal and ifAvailable", okFacts, "x", Options{Steal: true, IfAvailable: true}, dom.NotSupportedError},
		{"steal shared", okFacts, "x", Options{Steal: true, Mode: Shared}, dom.NotSupportedError},
		{"signal with steal", okFacts, "x", Options{Steal: true, Signal: live.Signal()}, dom.NotSupportedError},
		{"aborted signal", okFacts, "x", Options{Signal: aborted.Signal()}, ""},
	} {
		f := NewFuture()
		l.do(t, func() { RequestLock(s, c, tc.facts, tc.lock, tc.opts, cb, f) })
		if !f.Settled() {
			t.Fatalf("%s: not rejected at once", tc.name)
		}
		_, err := f.Result()
		if tc.want == "" {
			if st, v := f.outcome(); st != futureRejected || v != "why" {
				t.Errorf("%s: %v, want the signal's reason", tc.name, err)
			}
			continue
		}
		if domName(err) != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want)
		}
	}
	f := NewFuture()
	l.do(t, func() { QueryLocks(s, c, Facts{SecureContext: true, NotFullyActive: true}, f) })
	if _, err := f.Result(); domName(err) != dom.InvalidStateError {
		t.Errorf("query: %v", err)
	}
}

func TestPageRequestCycle(t *testing.T) {
	s, l := NewService(), newPageLoop(t)
	a, b := pageClient(t, s, l, "a"), pageClient(t, s, l, "b")
	hold := NewFuture()
	got := make(chan *Lock, 4)
	var r1, r2, r3 *Future
	l.do(t, func() {
		r1, r2, r3 = NewFuture(), NewFuture(), NewFuture()
		RequestLock(s, a, okFacts, "r", Options{}, func(lock *Lock) Waiting { got <- lock; return hold }, r1)
		RequestLock(s, b, okFacts, "r", Options{IfAvailable: true}, func(lock *Lock) Waiting { got <- lock; return nil }, r2)
		RequestLock(s, b, okFacts, "r", Options{Mode: Shared}, func(lock *Lock) Waiting { got <- lock; return Resolved(nil) }, r3)
	})
	if lock := <-got; lock == nil || lock.Name() != "r" || lock.Mode() != Exclusive {
		t.Fatalf("first grant %v", lock)
	}
	if lock := <-got; lock != nil {
		t.Fatalf("ifAvailable got %v, want null", lock)
	}
	if _, err := wait(t, r2); err != nil {
		t.Fatal(err)
	}
	// The query lists both clients.
	q := NewFuture()
	l.do(t, func() { QueryLocks(s, a, okFacts, q) })
	v, err := wait(t, q)
	if err != nil {
		t.Fatal(err)
	}
	snap := v.(Snapshot)
	if snap.Held.Len() != 1 || snap.Held.At(0).ClientID != "a" || snap.Pending.Len() != 1 || snap.Pending.At(0).ClientID != "b" {
		t.Fatalf("snapshot %v / %v", snap.Held, snap.Pending)
	}
	l.do(t, func() { hold.Resolve("done") })
	if v, err := wait(t, r1); err != nil || v != "done" {
		t.Fatalf("released promise %v %v", v, err)
	}
	if lock := <-got; lock == nil || lock.Mode() != Shared {
		t.Fatalf("second grant %v", lock)
	}
	if _, err := wait(t, r3); err != nil {
		t.Fatal(err)
	}
}

func TestPageSignalAndSteal(t *testing.T) {
	s, l := NewService(), newPageLoop(t)
	a, b := pageClient(t, s, l, "a"), pageClient(t, s, l, "b")
	granted := make(chan struct{}, 4)
	ctrl := dom.NewAbortController()
	var held, waiting, stealer *Future
	l.do(t, func() {
		held, waiting, stealer = NewFuture(), NewFuture(), NewFuture()
		RequestLock(s, a, okFacts, "r", Options{}, func(*Lock) Waiting { granted <- struct{}{}; return NewFuture() }, held)
		RequestLock(s, b, okFacts, "r", Options{Signal: ctrl.Signal()}, func(*Lock) Waiting { t.Error("aborted request granted"); return nil }, waiting)
	})
	<-granted
	reason := errors.New("custom reason")
	l.do(t, func() { ctrl.Abort(reason) })
	if _, err := wait(t, waiting); !errors.Is(err, reason) {
		t.Fatalf("aborted request: %v", err)
	}
	l.do(t, func() {
		RequestLock(s, b, okFacts, "r", Options{Steal: true}, func(*Lock) Waiting { granted <- struct{}{}; return nil }, stealer)
	})
	<-granted
	if _, err := wait(t, held); domName(err) != dom.AbortError {
		t.Fatalf("stolen lock's released promise: %v", err)
	}
	if _, err := wait(t, stealer); err != nil {
		t.Fatal(err)
	}
	// Terminating the client: its new requests are refused.
	if err := s.TerminateClient(a); err != nil {
		t.Fatal(err)
	}
	f := NewFuture()
	l.do(t, func() { RequestLock(s, a, okFacts, "r", Options{}, func(*Lock) Waiting { return nil }, f) })
	if _, err := f.Result(); domName(err) != dom.InvalidStateError {
		t.Fatalf("request of a terminated client: %v", err)
	}
}
