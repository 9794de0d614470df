package htmlhost

import (
	"sync/atomic"
	"testing"

	. "github.com/gowebengine/weblocks/weblocks"
)

// countingService is another implementation of the contract (here one
// that forwards to a Service of its own and counts the calls), as a
// client of a lock service in another process would be.
type countingService struct {
	LockService
	registers, requests, releases, queries atomic.Int32
}

func (s *countingService) Register(cfg ClientConfig) (Client, error) {
	s.registers.Add(1)
	return s.LockService.Register(cfg)
}

func (s *countingService) Request(c Client, name Name, mode Mode, wait WaitMode, r Receiver) (RequestHandle, error) {
	s.requests.Add(1)
	return s.LockService.Request(c, name, mode, wait, r)
}

func (s *countingService) Release(l LockHandle) error {
	s.releases.Add(1)
	return s.LockService.Release(l)
}

func (s *countingService) Query(c Client, dst *Snapshot, r Receiver) error {
	s.queries.Add(1)
	return s.LockService.Query(c, dst, r)
}

// TestUseService: the html host talks to the lock service only through
// the contract, so another implementation plugs in; it must be set before
// an environment uses locks.
func TestUseService(t *testing.T) {
	ua := newUA(t)
	svc := &countingService{LockService: NewService()}
	if err := UseService(ua, svc); err != nil {
		t.Fatal(err)
	}
	env := openWindow(t, ua, "https://a.test/")
	r := request(t, env, "r", Options{})
	h := r.await()
	r2 := request(t, env, "r", Options{})
	r2.notGranted()
	if s := query(t, env); s.Held.Len() != 1 || s.Pending.Len() != 1 || s.Held.At(0).ClientID != env.ID() {
		t.Fatalf("snapshot %v / %v", s.Held, s.Pending)
	}
	h.release(t, nil)
	r2.await()
	if svc.registers.Load() != 1 || svc.requests.Load() != 2 || svc.releases.Load() < 1 || svc.queries.Load() != 1 {
		t.Fatalf("calls: %d registers, %d requests, %d releases, %d queries", svc.registers.Load(), svc.requests.Load(), svc.releases.Load(), svc.queries.Load())
	}
	// The user agent's own service saw none of it.
	if n := len(LockManagers(ua)); n != 0 {
		t.Fatalf("%d lock managers in the user agent's own service", n)
	}
	if err := UseService(ua, NewService()); err != ErrServiceInUse {
		t.Fatalf("UseService after use: %v", err)
	}
}
