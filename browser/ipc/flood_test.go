package ipc

import (
	"fmt"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/browser/ipc/lockspb"
	"github.com/gowebengine/weblocks/weblocks"
	"google.golang.org/grpc/codes"
)

// heapWatch samples this process's heap while a test floods it: peak is
// the most it grew over the start.
type heapWatch struct {
	start uint64
	peak  atomic.Uint64
	stop  chan struct{}
	done  chan struct{}
}

func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func watchHeap() *heapWatch {
	w := &heapWatch{start: heapBytes(), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			if h := heapBytes(); h > w.peak.Load() {
				w.peak.Store(h)
			}
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

// growth stops watching and returns the peak growth in MiB.
func (w *heapWatch) growth() float64 {
	close(w.stop)
	<-w.done
	p := w.peak.Load()
	if p < w.start {
		return 0
	}
	return float64(p-w.start) / (1 << 20)
}

// flood sends calls made by call(i), i from 1 to n, until the session
// refuses one (the sends then fail).
func (r *rawRenderer) flood(n int, call func(i uint64) *lockspb.Call) *sync.WaitGroup {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := uint64(1); i <= uint64(n); i++ {
			if r.stream.Send(call(i)) != nil {
				return
			}
		}
	}()
	return &wg
}

// TestFloodMillionRequests: a renderer sending a million lock requests is
// killed at DefaultMaxOutstanding, and the browser process's heap grows
// by a bounded amount meanwhile; another renderer is then served.
func TestFloodMillionRequests(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		ls := NewLockServer(weblocks.NewService(), t.Logf)
		a := tr.newRaw(t, ls, "https://a.test", 0)
		a.register(1, "env-a", "https://a.test")
		heap := watchHeap()
		wg := a.flood(1e6, func(i uint64) *lockspb.Call {
			return &lockspb.Call{Call: &lockspb.Call_Request{Request: &lockspb.Request{Client: 1, Request: i, Name: []byte("L"), Mode: excl, Wait: wait}}}
		})
		a.refused(codes.ResourceExhausted, fmt.Sprintf("over the limit of %d", DefaultMaxOutstanding))
		wg.Wait()
		// About 65,536 waiting requests (the session's, the lock manager's).
		if g := heap.growth(); g > 256 {
			t.Errorf("the heap grew by %.0f MiB during the flood", g)
		} else {
			t.Logf("the heap grew by %.0f MiB at most during the flood", g)
		}
		b := tr.newRaw(t, ls, "https://a.test", 0)
		b.register(1, "env-b", "https://a.test")
		b.request(1, 1, "L", excl, wait)
		if o := b.outcome(); o.Kind != lockspb.OutcomeKind_OUTCOME_KIND_GRANTED {
			t.Fatalf("b: %v", o)
		}
	})
}

// TestFloodLongNames: requests with names of a MiB are refused at
// MaxOutstandingNameBytes, long before the bound on their number.
func TestFloodLongNames(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		ls := NewLockServer(weblocks.NewService(), t.Logf)
		a := tr.newRaw(t, ls, "https://a.test", 0)
		a.register(1, "env-a", "https://a.test")
		name := []byte(strings.Repeat("n", MaxNameBytes))
		wg := a.flood(1e6, func(i uint64) *lockspb.Call {
			return &lockspb.Call{Call: &lockspb.Call_Request{Request: &lockspb.Request{Client: 1, Request: i, Name: name, Mode: lockspb.Mode_MODE_SHARED, Wait: wait}}}
		})
		a.refused(codes.ResourceExhausted, "bytes of lock names in outstanding requests")
		wg.Wait()
	})
}

// TestFloodBuckets: clients of ever new storage keys of the renderer's
// site (each a lock manager in the browser process) are refused past
// MaxStorageKeys.
func TestFloodBuckets(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		ls := NewLockServer(weblocks.NewService(), t.Logf)
		a := tr.newRaw(t, ls, "https://a.test", 0)
		wg := a.flood(1e6, func(i uint64) *lockspb.Call {
			o := fmt.Sprintf("https://s%d.a.test", i)
			return &lockspb.Call{Call: &lockspb.Call_Register{Register: &lockspb.Register{Client: i, Id: fmt.Sprint("env-", i),
				Key: &lockspb.StorageKey{Origin: o, TopLevelSite: "https://a.test"}}}}
		})
		a.refused(codes.ResourceExhausted, "past the limit of 256 buckets")
		wg.Wait()
	})
}

// holdLongName has r's client 1 hold a lock whose name has n bytes (in
// its bucket, every snapshot then has about n bytes) and ask q queries,
// without reading the answers (r does not read).
func holdLongName(r *rawRenderer, n, q int) *sync.WaitGroup {
	r.register(1, "env-stuck", "https://a.test")
	r.request(1, 1, strings.Repeat("h", n), excl, wait)
	return r.flood(q, func(i uint64) *lockspb.Call {
		return &lockspb.Call{Call: &lockspb.Call_Query{Query: &lockspb.Query{Client: 1, Query: i}}}
	})
}

// TestStuckRendererDoesNotBlockOthers: a renderer that never reads its
// session (megabytes of snapshots wait for it, more than the connection's
// flow-control windows take) holds up no other renderer: they request,
// release, contend with it and query.
func TestStuckRendererDoesNotBlockOthers(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		ls := NewLockServer(weblocks.NewService(), t.Logf)
		stuck := tr.newRawPeer(t, ls, Peer{Site: site("https://a.test")}, false)
		wg := holdLongName(stuck, 32<<10, 400) // 400 snapshots of 32 KiB
		wg.Wait()
		n := tr.newRaw(t, ls, "https://a.test", 0)
		n.register(1, "env-n", "https://a.test")
		// The stuck renderer's calls were sent, not necessarily handled:
		// wait until its lock is held.
		var q uint64
		for {
			q++
			if s := n.query(1, q); len(s.Held) == 1 {
				break
			}
		}
		var req uint64
		for i := 0; i < 100; i++ {
			req++
			n.request(1, req, "x", excl, wait)
			o := n.outcome()
			if o.Kind != lockspb.OutcomeKind_OUTCOME_KIND_GRANTED {
				t.Fatalf("cycle %d: %v", i, o)
			}
			n.send(&lockspb.Call{Call: &lockspb.Call_Release{Release: &lockspb.Release{Lock: o.Lock}}})
		}
		req++
		n.request(1, req, strings.Repeat("h", 32<<10), excl, lockspb.WaitMode_WAIT_MODE_IF_AVAILABLE)
		if o := n.outcome(); o.Kind != lockspb.OutcomeKind_OUTCOME_KIND_NOT_AVAILABLE {
			t.Fatalf("the stuck renderer's lock: %v", o)
		}
		if s := n.query(1, q+1); len(s.Held) != 1 || s.Held[0].ClientId != "env-stuck" {
			t.Fatalf("query: %v", clientIDs(s.Held))
		}
		select {
		case reason := <-stuck.killed:
			t.Fatalf("the stuck renderer was killed: %s", reason)
		default:
		}
	})
}

// asyncQueries is a lock service whose queries are answered later, on
// other goroutines, as a busy lock task queue answers them, and only once
// all of the first n have been received: the session goroutine has
// handled every call by then, so it never sends the answers itself (a
// session goroutine that sends them to a renderer not reading waits, and
// the renderer is throttled instead of killed), and sendLoop, the only
// sender, waits on the renderer while the answers pile up.
type asyncQueries struct {
	weblocks.LockService
	n       int
	mu      sync.Mutex
	pending []func()
}

func (a *asyncQueries) Query(c weblocks.Client, dst *weblocks.Snapshot, r weblocks.Receiver) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	answer := func() { a.LockService.Query(c, dst, r) }
	if a.n <= 0 {
		go answer()
		return nil
	}
	a.pending = append(a.pending, answer)
	if len(a.pending) == a.n {
		for _, f := range a.pending {
			go f()
		}
		a.pending, a.n = nil, 0
	}
	return nil
}

// TestNonReaderKilled: a renderer whose unread events pass
// Peer.MaxPendingBytes is killed (its events dropped), and what it held
// is released when its connection ends.
func TestNonReaderKilled(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		ls := NewLockServer(&asyncQueries{LockService: weblocks.NewService(), n: 1000}, t.Logf)
		stuck := tr.newRawPeer(t, ls, Peer{Site: site("https://a.test"), MaxPendingBytes: 4 << 20}, false)
		heap := watchHeap()
		wg := holdLongName(stuck, 32<<10, 1000) // 32 MiB of snapshots
		select {
		case reason := <-stuck.killed:
			if !strings.Contains(reason, "does not read its lock events") {
				t.Fatalf("killed: %s", reason)
			}
		case <-time.After(time.Minute):
			t.Fatal("the renderer that does not read was not killed")
		}
		stuck.served.Close()
		wg.Wait()
		if g := heap.growth(); g > 128 {
			t.Errorf("the heap grew by %.0f MiB", g)
		}
		n := tr.newRaw(t, ls, "https://a.test", 0)
		n.register(1, "env-n", "https://a.test")
		n.request(1, 1, strings.Repeat("h", 32<<10), excl, wait)
		if o := n.outcome(); o.Kind != lockspb.OutcomeKind_OUTCOME_KIND_GRANTED {
			t.Fatalf("after the kill: %v", o)
		}
	})
}
