package weblocks

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/storage"
)

// These tests use the lock service contract the way a host of its own
// would: no html type is involved. Deliver runs the delivered function at
// once (on the lock task queue), and outcome functions hand the outcomes
// to the test's goroutine through channels.

func testBucket(t testing.TB) Bucket {
	t.Helper()
	o := origin.Parse("https://example.test")
	return Bucket{Key: storage.StorageKey{Origin: o, TopLevelSite: origin.ObtainSite(o)}}
}

func inline(t Task) { t.RunTask() }

func register(t testing.TB, s *Service, id string) Client {
	t.Helper()
	c, err := s.Register(ClientConfig{ID: id, Bucket: testBucket(t), Deliver: inline})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

type outcomes chan Outcome

func svcRequest(t testing.TB, s *Service, c Client, name Name, mode Mode, wait WaitMode) (RequestHandle, outcomes) {
	t.Helper()
	ch := make(outcomes, 4)
	h, err := s.Request(c, name, mode, wait, ReceiverFunc(func(o Outcome) { ch <- o }))
	if err != nil {
		t.Fatal(err)
	}
	return h, ch
}

func (ch outcomes) next(t testing.TB) Outcome {
	t.Helper()
	select {
	case o := <-ch:
		return o
	case <-time.After(10 * time.Second):
		t.Fatal("no outcome delivered")
		return Outcome{}
	}
}

func (ch outcomes) want(t testing.TB, kind OutcomeKind) Outcome {
	t.Helper()
	o := ch.next(t)
	if o.Kind != kind {
		t.Fatalf("outcome %v (reason %v), want %v", o.Kind, o.Reason, kind)
	}
	return o
}

// none checks that nothing is delivered to ch by the time a query of c's
// bucket (which runs after every step enqueued before it) is answered.
func (ch outcomes) none(t testing.TB, s *Service, c Client) {
	t.Helper()
	svcQuery(t, s, c)
	select {
	case o := <-ch:
		t.Fatalf("unexpected outcome %v", o.Kind)
	default:
	}
}

func svcQuery(t testing.TB, s *Service, c Client) Snapshot {
	t.Helper()
	ch := make(chan Snapshot, 1)
	if err := s.Query(c, nil, ReceiverFunc(func(o Outcome) { ch <- *o.Snapshot })); err != nil {
		t.Fatal(err)
	}
	select {
	case snap := <-ch:
		return snap
	case <-time.After(10 * time.Second):
		t.Fatal("no query result delivered")
		return Snapshot{}
	}
}

func TestServiceFIFOAndModes(t *testing.T) {
	s := NewService()
	a, b := register(t, s, "a"), register(t, s, "b")
	_, h1 := svcRequest(t, s, a, "r", Exclusive, Wait)
	l1 := h1.want(t, OutcomeGranted).Lock
	_, h2 := svcRequest(t, s, b, "r", Shared, Wait)
	_, h3 := svcRequest(t, s, a, "r", Shared, Wait)
	_, h4 := svcRequest(t, s, b, "r", Exclusive, Wait)
	h2.none(t, s, a)
	snap := svcQuery(t, s, b)
	if snap.Held.Len() != 1 || snap.Pending.Len() != 3 {
		t.Fatalf("snapshot %v / %v", snap.Held, snap.Pending)
	}
	if got := []string{snap.Pending.At(0).ClientID, snap.Pending.At(1).ClientID, snap.Pending.At(2).ClientID}; got[0] != "b" || got[1] != "a" || got[2] != "b" {
		t.Fatalf("pending clients %v, want b a b", got)
	}
	if err := s.Release(l1); err != nil {
		t.Fatal(err)
	}
	// Both shared requests are granted together; the exclusive one waits.
	l2 := h2.want(t, OutcomeGranted).Lock
	l3 := h3.want(t, OutcomeGranted).Lock
	h4.none(t, s, a)
	if err := s.Release(l2); err != nil {
		t.Fatal(err)
	}
	h4.none(t, s, a)
	if err := s.Release(l3); err != nil {
		t.Fatal(err)
	}
	l4 := h4.want(t, OutcomeGranted).Lock
	if l4.Name() != "r" || l4.Mode() != Exclusive {
		t.Fatalf("lock %q %v", l4.Name(), l4.Mode())
	}
	// Releasing twice does nothing more.
	if err := s.Release(l1); err != nil {
		t.Fatal(err)
	}
	if snap := svcQuery(t, s, a); snap.Held.Len() != 1 || snap.Held.At(0).ClientID != "b" {
		t.Fatalf("held %v", snap.Held)
	}
}

func TestServiceIfAvailableStealAbort(t *testing.T) {
	s := NewService()
	a, b := register(t, s, "a"), register(t, s, "b")
	_, h1 := svcRequest(t, s, a, "r", Exclusive, Wait)
	l1 := h1.want(t, OutcomeGranted).Lock
	_, h2 := svcRequest(t, s, b, "r", Shared, IfAvailable)
	h2.want(t, OutcomeNotAvailable)
	// A waiting request aborted with a reason of the host's.
	w, h3 := svcRequest(t, s, b, "r", Exclusive, Wait)
	reason := errors.New("custom reason")
	if err := s.Abort(w, reason); err != nil {
		t.Fatal(err)
	}
	if o := h3.want(t, OutcomeAborted); o.Reason != reason {
		t.Fatalf("reason %v", o.Reason)
	}
	if err := s.Abort(w, "again"); err != nil {
		t.Fatal(err)
	}
	h3.none(t, s, a)
	// Steal: the holder's lock is revoked with an AbortError.
	r4, h4 := svcRequest(t, s, b, "r", Exclusive, Steal)
	l4 := h4.want(t, OutcomeGranted).Lock
	o := h1.want(t, OutcomeRevoked)
	var de *dom.DOMException
	if o.Lock != l1 || !errors.As(dom.ReasonError(o.Reason), &de) || de.Name != dom.AbortError {
		t.Fatalf("revoked %v %v", o.Lock == l1, o.Reason)
	}
	// The revoked lock's release changes nothing.
	if err := s.Release(l1); err != nil {
		t.Fatal(err)
	}
	if snap := svcQuery(t, s, a); snap.Held.Len() != 1 || snap.Held.At(0).ClientID != "b" {
		t.Fatalf("held %v", snap.Held)
	}
	// Aborting a granted request leaves it granted.
	if err := s.Abort(r4, "late"); err != nil {
		t.Fatal(err)
	}
	// A lock handle is not a request handle (and the reverse).
	if err := s.Abort(l4, "late"); err != ErrForeignHandle {
		t.Fatalf("Abort(lock handle): %v", err)
	}
	if err := s.Release(r4); err != ErrForeignHandle {
		t.Fatalf("Release(request handle): %v", err)
	}
	h4.none(t, s, a)
	if _, err := s.Request(a, "r", Shared, Steal, ReceiverFunc(func(Outcome) {})); err == nil {
		t.Fatal("steal with shared accepted")
	}
}

func TestServiceTerminateClient(t *testing.T) {
	s := NewService()
	a, b := register(t, s, "a"), register(t, s, "b")
	_, h1 := svcRequest(t, s, a, "r", Exclusive, Wait)
	l1 := h1.want(t, OutcomeGranted).Lock
	_, h2 := svcRequest(t, s, a, "q", Exclusive, Wait)
	h2.want(t, OutcomeGranted)
	_, h3 := svcRequest(t, s, a, "q", Exclusive, Wait) // a waits for itself
	_, h4 := svcRequest(t, s, b, "r", Exclusive, Wait)
	h4.none(t, s, b)
	if err := s.TerminateClient(a); err != nil {
		t.Fatal(err)
	}
	if o := h3.want(t, OutcomeAborted); o.Reason != ErrClientTerminated {
		t.Fatalf("reason %v", o.Reason)
	}
	if o := h1.want(t, OutcomeRevoked); o.Reason != ErrClientTerminated || o.Lock != l1 {
		t.Fatalf("revoked %v", o.Reason)
	}
	h4.want(t, OutcomeGranted)
	if err := s.TerminateClient(a); err != nil {
		t.Fatal("second termination:", err)
	}
	if snap := svcQuery(t, s, b); snap.Held.Len() != 1 || snap.Held.At(0).ClientID != "b" || snap.Pending.Len() != 0 {
		t.Fatalf("snapshot %v / %v", snap.Held, snap.Pending)
	}
	// Every later call with a or its handles fails clearly.
	if _, err := s.Request(a, "r", Exclusive, Wait, ReceiverFunc(func(Outcome) {})); err != ErrClientTerminated {
		t.Fatalf("request: %v", err)
	}
	if err := s.Release(l1); err != ErrClientTerminated {
		t.Fatalf("release: %v", err)
	}
	if err := s.Query(a, nil, ReceiverFunc(func(Outcome) {})); err != ErrClientTerminated {
		t.Fatalf("query: %v", err)
	}
}

func TestServiceBadInput(t *testing.T) {
	s, other := NewService(), NewService()
	a := register(t, s, "a")
	foreign := register(t, other, "f")
	var nilSvc *Service
	if _, err := nilSvc.Register(ClientConfig{Deliver: inline}); err != ErrNilService {
		t.Errorf("nil service: %v", err)
	}
	if _, err := s.Register(ClientConfig{ID: "x"}); err != ErrNilDeliver {
		t.Errorf("nil deliver: %v", err)
	}
	if _, err := s.Request(nil, "r", Exclusive, Wait, ReceiverFunc(func(Outcome) {})); err != ErrNilClient {
		t.Errorf("nil client: %v", err)
	}
	if _, err := s.Request(foreign, "r", Exclusive, Wait, ReceiverFunc(func(Outcome) {})); err != ErrForeignClient {
		t.Errorf("foreign client: %v", err)
	}
	if _, err := s.Request(a, "r", Exclusive, Wait, nil); err != ErrNilOutcome {
		t.Errorf("nil outcome: %v", err)
	}
	if _, err := s.Request(a, "r", Mode(7), Wait, ReceiverFunc(func(Outcome) {})); err == nil {
		t.Error("invalid mode accepted")
	}
	if _, err := s.Request(a, "r", Exclusive, WaitMode(9), ReceiverFunc(func(Outcome) {})); err != ErrInvalidWaitMode {
		t.Errorf("invalid wait mode: %v", err)
	}
	if err := s.Release(nil); err != ErrNilHandle {
		t.Errorf("nil lock handle: %v", err)
	}
	if err := s.Abort(nil, nil); err != ErrNilHandle {
		t.Errorf("nil request handle: %v", err)
	}
	_, fh := svcRequest(t, other, foreign, "r", Exclusive, Wait)
	fl := fh.want(t, OutcomeGranted).Lock
	if err := s.Release(fl); err != ErrForeignHandle {
		t.Errorf("foreign lock handle: %v", err)
	}
	if err := s.Abort((RequestHandle)(fl), nil); err != ErrForeignHandle {
		t.Errorf("foreign request handle: %v", err)
	}
	if err := s.TerminateClient(foreign); err != ErrForeignClient {
		t.Errorf("foreign termination: %v", err)
	}
	if err := s.TerminateClient(nil); err != ErrNilClient {
		t.Errorf("nil termination: %v", err)
	}
	if err := s.Query(nil, nil, ReceiverFunc(func(Outcome) {})); err != ErrNilClient {
		t.Errorf("nil query client: %v", err)
	}
	// Values of another implementation of the contract, and typed nils.
	if _, err := s.Request(otherClient{}, "r", Exclusive, Wait, ReceiverFunc(func(Outcome) {})); err != ErrForeignClient {
		t.Errorf("another implementation's client: %v", err)
	}
	if err := s.SetCached(otherClient{}, true); err != ErrForeignClient {
		t.Errorf("another implementation's client cached: %v", err)
	}
	if err := s.Release(otherHandle{}); err != ErrForeignHandle {
		t.Errorf("another implementation's lock handle: %v", err)
	}
	if err := s.Abort(otherHandle{}, "x"); err != ErrForeignHandle {
		t.Errorf("another implementation's request handle: %v", err)
	}
	var nilClient *client
	if err := s.Query(nilClient, nil, ReceiverFunc(func(Outcome) {})); err != ErrNilClient {
		t.Errorf("typed nil client: %v", err)
	}
	var nilLock *lockHandle
	if err := s.Release(nilLock); err != ErrNilHandle {
		t.Errorf("typed nil lock handle: %v", err)
	}
	if err := s.Query(a, nil, nil); err != ErrNilOutcome {
		t.Errorf("nil query receiver: %v", err)
	}
	// The foreign service's lock is still held by its client.
	if snap := svcQuery(t, other, foreign); snap.Held.Len() != 1 {
		t.Fatalf("foreign lock lost: %v", snap.Held)
	}
}

// otherClient and otherHandle are another implementation's values.
type (
	otherClient struct{}
	otherHandle struct{}
)

func (otherClient) ID() string { return "other" }
func (otherHandle) Name() Name { return "r" }
func (otherHandle) Mode() Mode { return Exclusive }

// A deliver function that panics, or never runs what it is given, costs
// its own client and nobody else.
func TestServiceBadDeliver(t *testing.T) {
	s := NewService()
	var mu sync.Mutex
	var dropped []Task
	panicky, err := s.Register(ClientConfig{ID: "p", Bucket: testBucket(t), Deliver: func(Task) { panic("host bug") }})
	if err != nil {
		t.Fatal(err)
	}
	delivered := make(chan struct{}, 8)
	black, err := s.Register(ClientConfig{ID: "k", Bucket: testBucket(t), Deliver: func(f Task) {
		mu.Lock()
		dropped = append(dropped, f)
		mu.Unlock()
		delivered <- struct{}{}
	}})
	if err != nil {
		t.Fatal(err)
	}
	b := register(t, s, "b")
	for _, c := range []Client{panicky, black} {
		if _, err := s.Request(c, "r", Exclusive, Wait, ReceiverFunc(func(Outcome) {})); err != nil {
			t.Fatal(err)
		}
	}
	_, hb := svcRequest(t, s, b, "r", Exclusive, Wait)
	_, hc := svcRequest(t, s, b, "other", Exclusive, Wait)
	hc.want(t, OutcomeGranted)
	hb.none(t, s, b)
	// The host of the bad clients terminates them: b is granted.
	if err := s.TerminateClient(panicky); err != nil {
		t.Fatal(err)
	}
	// black is granted (its Deliver drops the task) before it is
	// terminated in turn.
	select {
	case <-delivered:
	case <-time.After(10 * time.Second):
		t.Fatal("black was not granted after panicky's termination")
	}
	hb.none(t, s, b)
	if err := s.TerminateClient(black); err != nil {
		t.Fatal(err)
	}
	hb.want(t, OutcomeGranted)
	mu.Lock()
	n := len(dropped)
	mu.Unlock()
	if n != 2 { // its grant, then its revocation
		t.Fatalf("%d functions delivered to the dropping client, want 2", n)
	}
}

func TestServiceBackForwardCache(t *testing.T) {
	s := NewService()
	evictions := make(chan string, 8)
	reg := func(id string) Client {
		c, err := s.Register(ClientConfig{ID: id, Bucket: testBucket(t), Deliver: inline, Evict: func() { evictions <- id }})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a, b, q := reg("a"), reg("b"), reg("q")
	noEviction := func() {
		t.Helper()
		select {
		case id := <-evictions:
			t.Fatalf("%s evicted", id)
		default:
		}
	}
	wantEviction := func(id string) {
		t.Helper()
		select {
		case got := <-evictions:
			if got != id {
				t.Fatalf("%s evicted, want %s", got, id)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s not evicted", id)
		}
	}
	_, ha := svcRequest(t, s, a, "r", Shared, Wait)
	ha.want(t, OutcomeGranted)
	_ = s.SetCached(a, true)
	// Held locks are kept while cached; a shared request that does not
	// wait is no contention.
	_, hb := svcRequest(t, s, b, "r", Shared, Wait)
	lb := hb.want(t, OutcomeGranted).Lock
	noEviction()
	// An exclusive request waits: contention evicts a (not b).
	_, hb2 := svcRequest(t, s, b, "r", Exclusive, Wait)
	hb2.none(t, s, b)
	wantEviction("a") // (the query above evicted a as well)
	wantEviction("a")
	noEviction()
	if err := s.Release(lb); err != nil {
		t.Fatal(err)
	}
	_ = s.SetCached(a, false)
	svcQuery(t, s, q)
	noEviction()
	// A grant to a cached client evicts it.
	_, ha2 := svcRequest(t, s, a, "s", Exclusive, Wait)
	la2 := ha2.want(t, OutcomeGranted).Lock
	_, hq := svcRequest(t, s, q, "s", Exclusive, Wait)
	hq.none(t, s, b)
	_ = s.SetCached(q, true)
	if err := s.Release(la2); err != nil {
		t.Fatal(err)
	}
	hq.want(t, OutcomeGranted)
	wantEviction("q")
	noEviction()
	// A client that already keeps another waiting when it becomes cached
	// (a remote host's SetCached can reach the service after the waiter's
	// request) is evicted at once: for a held lock, and for a queued
	// request with another queued behind it. (hq.none and the like query,
	// and a query evicts the cached clients it sees: none is cached here.)
	_ = s.SetCached(q, false)
	_, hx := svcRequest(t, s, b, "x", Exclusive, Wait)
	hx.want(t, OutcomeGranted)
	_, hax := svcRequest(t, s, a, "x", Exclusive, Wait)
	_, hqx := svcRequest(t, s, q, "x", Exclusive, Wait)
	hax.none(t, s, a)
	hqx.none(t, s, q)
	noEviction()
	_ = s.SetCached(b, true)
	wantEviction("b")
	_ = s.SetCached(a, true)
	wantEviction("a")
	// The last in the queue keeps no one waiting: no eviction.
	_ = s.SetCached(q, true)
	_ = s.SetCached(b, false)
	_ = s.SetCached(a, false)
	if err := s.TerminateClient(b); err != nil {
		t.Fatal(err)
	}
	hax.want(t, OutcomeGranted)
	noEviction()
}

// Every call is safe from any goroutine (run with -race).
func TestServiceConcurrentClients(t *testing.T) {
	s := NewService()
	const n, rounds = 4, 50
	var wg sync.WaitGroup
	counter, inside := 0, 0
	for i := range n {
		c := register(t, s, string(rune('a'+i)))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				done := make(chan struct{})
				_, err := s.Request(c, "r", Exclusive, Wait, ReceiverFunc(func(o Outcome) {
					go func() { // the host's own goroutine holds the lock
						inside++
						if inside != 1 {
							t.Error("two holders of an exclusive lock")
						}
						counter++
						inside--
						if err := s.Release(o.Lock); err != nil {
							t.Error(err)
						}
						close(done)
					}()
				}))
				if err != nil {
					t.Error(err)
					return
				}
				<-done
			}
		}()
	}
	wg.Wait()
	if counter != n*rounds {
		t.Fatalf("counter %d, want %d", counter, n*rounds)
	}
}
