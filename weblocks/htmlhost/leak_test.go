package htmlhost

import (
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/html"
	. "github.com/gowebengine/weblocks/weblocks"
	"github.com/gowebengine/weblocks/weblocks/internal/lockdebug"
)

// leakCycles is the number of request/release cycles of TestNoLeak: one
// million, scaled down under the race detector (about 10x slower).
func leakCycles() int {
	if raceEnabled {
		return 100_000
	}
	return 1_000_000
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestNoLeak runs a million request/release cycles (four concurrent chains
// on two names from a window and a worker, so requests also queue, with a
// fresh name now and then) and checks that no goroutine per request is
// started, that the heap does not grow, and that the lock manager's state
// is empty afterwards.
func TestNoLeak(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	baseGoroutines := runtime.NumGoroutine()
	ua := html.NewUserAgent()
	win := openWindow(t, ua, "https://a.test/")
	worker := startWorker(t, win, "https://a.test/w.js")
	total := leakCycles()
	const chains = 4
	var peakGoroutines int
	var mu sync.Mutex
	run := func(n int) {
		var wg sync.WaitGroup
		for c := 0; c < chains; c++ {
			env := win
			if c%2 == 1 {
				env = worker
			}
			wg.Add(1)
			i := 0
			var next func()
			cb := func(l *Lock) Waiting {
				if i%3 == 0 {
					return Resolved(nil)
				}
				return nil
			}
			next = func() {
				if i == n/chains {
					wg.Done()
					return
				}
				i++
				name := Name("n" + strconv.Itoa(i%2))
				if i%1000 == 0 {
					name = Name("fresh" + strconv.Itoa(i))
					if g := runtime.NumGoroutine(); true {
						mu.Lock()
						peakGoroutines = max(peakGoroutines, g)
						mu.Unlock()
					}
				}
				mode := Exclusive
				if i%4 == 0 {
					mode = Shared
				}
				f, err := Request(env, name, Options{Mode: mode}, cb)
				if err != nil {
					t.Error(err)
					wg.Done()
					return
				}
				f.OnSettled(next)
			}
			env.ResponsibleEventLoop().QueueTask(html.DOMManipulationTaskSource, next)
		}
		wg.Wait()
	}
	run(20_000) // warm up: reach the steady state of the pools and queues
	before := heapInUse()
	start := time.Now()
	run(total)
	elapsed := time.Since(start)
	after := heapInUse()

	m := defaultManager(t, win)
	var names, clients int
	var heldEmpty bool
	done := make(chan struct{})
	LockTaskQueue(ua).Enqueue(func() {
		var held int
		names, clients, held = lockdebug.Sizes(m)
		heldEmpty = held == 0
		if err := lockdebug.CheckInvariants(m); err != nil {
			t.Error(err)
		}
		close(done)
	})
	<-done
	t.Logf("%d cycles in %v (%v per cycle), heap %d -> %d bytes, peak goroutines %d (baseline %d)",
		total, elapsed, elapsed/time.Duration(total), before, after, peakGoroutines, baseGoroutines)
	if names > 64 || !heldEmpty || clients > 2 {
		t.Errorf("manager state after all releases: %d names, %d clients, held empty %v", names, clients, heldEmpty)
	}
	// Nothing may grow with the number of cycles: allow 512 KiB of noise
	// (a per-cycle leak of even one byte would show as ~1 MB).
	if after > before+512<<10 {
		t.Errorf("heap grew from %d to %d bytes over %d cycles", before, after, total)
	}
	if peakGoroutines > baseGoroutines+8 {
		t.Errorf("%d goroutines while running (baseline %d): a goroutine per request?", peakGoroutines, baseGoroutines)
	}
	// Terminating everything leaves no goroutine behind.
	worker.Agent().Terminate()
	win.Agent().Terminate()
	ua.Close()
	deadline := time.Now().Add(60 * time.Second)
	for runtime.NumGoroutine() > baseGoroutines && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > baseGoroutines {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines left (baseline %d):\n%s", g, baseGoroutines, buf[:runtime.Stack(buf, true)])
	}
	// The environments' client records are gone too.
	for _, env := range []*html.EnvironmentSettingsObject{win, worker} {
		if envSlot.Get(env) != nil {
			t.Errorf("client record of %s left after termination", env.ID())
		}
	}
}

// Closing a user agent forgets its environments (one user agent per test
// is what the WPT runner does).
func TestNoLeakAcrossUserAgents(t *testing.T) {
	var envs []*html.EnvironmentSettingsObject
	for i := 0; i < 200; i++ {
		ua := html.NewUserAgent()
		env := openWindow(t, ua, "https://a.test/")
		worker := startWorker(t, env, "https://a.test/w.js")
		request(t, env, "r", Options{}).await()
		request(t, worker, "r", Options{}) // pending behind the window's lock
		ua.Close()
		envs = append(envs, env, worker)
	}
	for _, env := range envs {
		if envSlot.Get(env) != nil {
			t.Fatalf("client record of %s kept after its user agent closed", env.ID())
		}
	}
}
