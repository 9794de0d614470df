package htmlhost

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/gowebengine/weblocks/html"
	. "github.com/gowebengine/weblocks/weblocks"
)

// The browser side lists and force-releases the locks and requests of a
// storage key without a page environment; the holders' and requesters'
// released futures reject with AbortError, as for a steal.
func TestForceReleaseStorageKey(t *testing.T) {
	ua := newUA(t)
	a := openWindow(t, ua, "https://a.test/")
	b := openWindow(t, ua, "https://a.test/b")
	other := openWindow(t, ua, "https://other.test/")
	holdA := request(t, a, "x", Options{})
	ha := holdA.await()
	holdB := request(t, b, "y", Options{Mode: Shared})
	holdB.await()
	waitB := request(t, b, "x", Options{})
	holdO := request(t, other, "x", Options{})
	holdO.await()

	key, _ := a.StorageKey()
	ms := LockManagersOf(ua, key)
	if len(ms) != 1 || ms[0].BucketName() != "default" || ms[0].StorageKey() != key {
		t.Fatalf("LockManagersOf = %v", ms)
	}
	if len(LockManagers(ua)) != 2 {
		t.Fatalf("LockManagers: %d, want 2 (a.test and other.test)", len(LockManagers(ua)))
	}
	s, err := ms[0].Snapshot(waitCtx(t))
	if err != nil || s.Held.Len() != 2 || s.Pending.Len() != 1 || s.Pending.At(0).ClientID != b.ID() {
		t.Fatalf("Snapshot = %+v, %v", s, err)
	}
	r, err := ForceReleaseStorageKey(waitCtx(t), ua, key)
	if err != nil || r != (ForceReleased{Locks: 2, Requests: 1}) {
		t.Fatalf("ForceReleaseStorageKey = %+v, %v", r, err)
	}
	for what, f := range map[string]*Future{"holder a": holdA.released, "holder b": holdB.released, "waiter b": waitB.released} {
		if _, err := f.Wait(waitCtx(t)); !isAbortError(err) {
			t.Errorf("%s: released future %v; want AbortError", what, err)
		}
	}
	if s, _ := ms[0].Snapshot(waitCtx(t)); s.Held.Len()+s.Pending.Len() != 0 {
		t.Fatalf("after ForceRelease: %+v", s)
	}
	if holdO.released.Settled() {
		t.Fatal("another storage key's lock was released")
	}
	// The old holder's later release changes nothing; the name is free.
	onLoop(t, a, func() { ha.waiting.Resolve(nil) })
	if got := ifAvailable(t, b, nil); got != "exclusive" {
		t.Fatalf("after ForceRelease the name is %s, want free", got)
	}
	var m *LockManager
	if _, err := m.ForceRelease(context.Background()); err == nil {
		t.Fatal("nil manager")
	}
}

// The observer sees grants, releases, aborts, steals, terminations and
// force-releases, in order, on the lock task queue.
func TestObserver(t *testing.T) {
	ua := newUA(t)
	var mu sync.Mutex
	var got []string
	SetObserver(ua, func(e Event) {
		mu.Lock()
		got = append(got, e.Kind.String()+" "+string(e.Name))
		mu.Unlock()
	})
	env := openWindow(t, ua, "https://a.test/")
	w := startWorker(t, env, "https://a.test/w.js")
	h := request(t, env, "a", Options{}).await()
	onLoop(t, env, func() { h.waiting.Resolve(nil) })
	query(t, env) // a round trip: the release ran
	request(t, env, "b", Options{}).await()
	request(t, w, "b", Options{Steal: true}).await()
	query(t, env)
	w.Agent().Terminate()
	query(t, env)
	key, _ := env.StorageKey()
	request(t, env, "c", Options{}).await()
	if _, err := ForceReleaseStorageKey(waitCtx(t), ua, key); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	want := []string{"granted a", "released a", "granted b", "stolen b", "granted b", "terminated ", "released b", "granted c", "force-released c"}
	if !slices.Equal(got, want) {
		t.Fatalf("observed %q\nwant     %q", got, want)
	}
	SetObserver(ua, nil)
}

// BenchmarkObserver compares the manual-scheduler cycle of a user agent
// without an observer and with one: the unobserved path pays one nil check
// per event.
func BenchmarkObserver(b *testing.B) {
	for _, observed := range []bool{false, true} {
		name := "unobserved"
		if observed {
			name = "observed"
		}
		b.Run(name, func(b *testing.B) {
			sched := html.NewManualScheduler()
			ua, env := benchEnv(b, html.WithScheduler(sched))
			n := 0
			if observed {
				SetObserver(ua, func(Event) { n++ })
			}
			wait := func(done chan struct{}) {
				for {
					select {
					case <-done:
						return
					default:
						if !sched.RunOne() {
							b.Fatal("stalled")
						}
					}
				}
			}
			runCycles(b, env, 1000, wait)
			b.ReportAllocs()
			b.ResetTimer()
			cpu := startCPU(b)
			runCycles(b, env, b.N, wait)
			cpu.report()
		})
	}
}
