package htmlhost

import (
	"runtime"
	"runtime/debug"
	"strconv"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/html"
	. "github.com/gowebengine/weblocks/weblocks"
)

// cpuMeter reports, next to ns/op (wall time, which a loaded machine
// inflates), the CPU time the process spent per op: cpu-ns/op.
type cpuMeter struct {
	b     *testing.B
	start time.Duration
	total time.Duration
}

func startCPU(b *testing.B) *cpuMeter { return &cpuMeter{b: b, start: processCPU()} }

func (m *cpuMeter) pause()  { m.total += processCPU() - m.start }
func (m *cpuMeter) resume() { m.start = processCPU() }

func (m *cpuMeter) report() {
	m.pause()
	if m.total > 0 {
		m.b.ReportMetric(float64(m.total.Nanoseconds())/float64(m.b.N), "cpu-ns/op")
	}
}

// benchEnv returns a window environment of a fresh user agent on the
// default (goroutine) scheduler.
func benchEnv(b *testing.B, opts ...html.Option) (*html.UserAgent, *html.EnvironmentSettingsObject) {
	b.Helper()
	ua := html.NewUserAgent(opts...)
	b.Cleanup(ua.Close)
	d, err := ua.OpenWindowURL("https://a.test/")
	if err != nil {
		b.Fatal(err)
	}
	return ua, d.EnvironmentSettingsObject()
}

// runCycles runs n sequential request/release cycles on env's event loop
// through the Go API: each request is made when the previous released
// promise settles, so every cycle goes through all its hops (request steps
// on the lock task queue, the callback task, the release steps, the
// released promise's task).
func runCycles(b *testing.B, env *html.EnvironmentSettingsObject, n int, wait func(done chan struct{})) {
	done := make(chan struct{})
	cb := func(*Lock) Waiting { return nil }
	i := 0
	var next func()
	next = func() {
		if i == n {
			close(done)
			return
		}
		i++
		f, err := Request(env, "r", Options{}, cb)
		if err != nil {
			b.Error(err)
			close(done)
			return
		}
		f.OnSettled(next)
	}
	env.ResponsibleEventLoop().QueueTask(html.DOMManipulationTaskSource, next)
	wait(done)
}

// BenchmarkRequestRelease is one uncontended request/release cycle through
// the Go API on the default scheduler, including the event-loop hops.
func BenchmarkRequestRelease(b *testing.B) {
	_, env := benchEnv(b)
	runCycles(b, env, 1000, func(done chan struct{}) { <-done }) // warm up
	b.ReportAllocs()
	b.ResetTimer()
	cpu := startCPU(b)
	runCycles(b, env, b.N, func(done chan struct{}) { <-done })
	cpu.report()
}

// BenchmarkRequestReleaseManual is the same cycle on html's manual
// scheduler (every hop a queue push and pop on one goroutine).
func BenchmarkRequestReleaseManual(b *testing.B) {
	sched := html.NewManualScheduler()
	_, env := benchEnv(b, html.WithScheduler(sched))
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
}

// manualWorld is a user agent on the manual scheduler with one window.
type manualWorld struct {
	sched *html.ManualScheduler
	ua    *html.UserAgent
	env   *html.EnvironmentSettingsObject
}

func newManualWorld(b testing.TB) *manualWorld {
	sched := html.NewManualScheduler()
	ua := html.NewUserAgent(html.WithScheduler(sched))
	b.Cleanup(ua.Close)
	d, err := ua.OpenWindowURL("https://a.test/")
	if err != nil {
		b.Fatal(err)
	}
	return &manualWorld{sched: sched, ua: ua, env: d.EnvironmentSettingsObject()}
}

// hold requests name and returns a future that releases the lock when
// settled (its waiting promise).
func (w *manualWorld) hold(b testing.TB, name Name, mode Mode) *Future {
	waiting := NewFuture()
	w.asTask(w.env, func() {
		if _, err := Request(w.env, name, Options{Mode: mode}, func(*Lock) Waiting { return waiting }); err != nil {
			b.Fatal(err)
		}
	})
	return waiting
}

// asTask runs f as script of env would: as one of its loop's tasks.
func (w *manualWorld) asTask(env *html.EnvironmentSettingsObject, f func()) {
	w.sched.RunAsTask(env.ResponsibleEventLoop(), f)
}

// BenchmarkQueuedGrant is the cost per granted request while `pending`
// requests wait on one name: each op releases the holder (which grants the
// next waiter) and queues one more request, keeping the queue length fixed.
func BenchmarkQueuedGrant(b *testing.B) {
	for _, pending := range []int{1000, 10000, 100000} {
		b.Run("pending="+strconv.Itoa(pending), func(b *testing.B) {
			w := newManualWorld(b)
			var waitings []*Future
			for i := 0; i <= pending; i++ {
				waitings = append(waitings, w.hold(b, "r", Exclusive))
			}
			w.sched.RunUntilIdle()
			b.ReportAllocs()
			b.ResetTimer()
			cpu := startCPU(b)
			for i := 0; i < b.N; i++ {
				waitings[i].Resolve(nil) // release the holder: the next is granted
				waitings = append(waitings, w.hold(b, "r", Exclusive))
				w.sched.RunUntilIdle()
			}
			cpu.report()
		})
	}
}

// BenchmarkDistinctNames is a request/release cycle on a fresh name while
// `held` locks on other names are held.
func BenchmarkDistinctNames(b *testing.B) {
	for _, heldN := range []int{1000, 10000, 100000} {
		b.Run("held="+strconv.Itoa(heldN), func(b *testing.B) {
			w := newManualWorld(b)
			for i := 0; i < heldN; i++ {
				w.hold(b, Name("held"+strconv.Itoa(i)), Exclusive)
			}
			w.sched.RunUntilIdle()
			names := make([]Name, 4096)
			for i := range names {
				names[i] = Name("n" + strconv.Itoa(i))
			}
			cb := func(*Lock) Waiting { return nil }
			// Warm up to the steady state first: the held records array
			// reaches its size between compactions (twice the live
			// records) and the names map its size with churn only after
			// about heldN cycles, and the name slots array (compacted
			// once its tombstones outnumber the live names and held
			// locks) after about 2*heldN; that one-time growth would
			// otherwise be charged to the measured cycles, more so for a
			// large heldN.
			for i := 0; i < 2*heldN+len(names); i++ {
				w.asTask(w.env, func() {
					if _, err := Request(w.env, names[i%len(names)], Options{}, cb); err != nil {
						b.Fatal(err)
					}
				})
				w.sched.RunUntilIdle()
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu := startCPU(b)
			for i := 0; i < b.N; i++ {
				w.asTask(w.env, func() {
					if _, err := Request(w.env, names[i%len(names)], Options{}, cb); err != nil {
						b.Fatal(err)
					}
				})
				w.sched.RunUntilIdle()
			}
			cpu.report()
		})
	}
}

// BenchmarkQuery is one query() with `entries` held locks and pending
// requests (half each) in the manager.
func BenchmarkQuery(b *testing.B) { benchQuery(b, false) }

// BenchmarkQueryInto is BenchmarkQuery with QueryInto and one Snapshot
// reused by every query.
func BenchmarkQueryInto(b *testing.B) { benchQuery(b, true) }

func benchQuery(b *testing.B, into bool) {
	for _, entries := range []int{1000, 10000, 100000} {
		b.Run("entries="+strconv.Itoa(entries), func(b *testing.B) {
			w := newManualWorld(b)
			for i := 0; i < entries/2; i++ {
				n := Name("n" + strconv.Itoa(i))
				w.hold(b, n, Exclusive) // held
				w.hold(b, n, Shared)    // pending behind it
			}
			w.sched.RunUntilIdle()
			var dst Snapshot
			query := func() (*Future, error) {
				if into {
					return QueryInto(w.env, &dst)
				}
				return Query(w.env)
			}
			once := func() {
				var f *Future
				var err error
				w.asTask(w.env, func() { f, err = query() })
				if err != nil {
					b.Fatal(err)
				}
				w.sched.RunUntilIdle()
				if !f.Settled() {
					b.Fatal("query did not settle")
				}
			}
			once() // (a reused snapshot grows to size)
			b.ReportAllocs()
			b.ResetTimer()
			cpu := startCPU(b)
			defer cpu.report()
			for i := 0; i < b.N; i++ {
				once()
			}
		})
	}
}

// BenchmarkTerminate is terminating a dedicated worker that holds `locks`
// locks, while other clients of the same manager hold `others` more (the
// cost must follow the worker's own locks only, and the cost per lock must
// be the same for 1k and 100k locks). The collector is off while
// the termination is timed and runs between iterations instead, so that
// the setup's garbage is not counted.
func BenchmarkTerminate(b *testing.B) {
	for _, c := range []struct{ locks, others int }{{1000, 100000}, {10000, 100000}, {1000, 1000}, {10000, 1000}, {100000, 1000}} {
		name := "locks=" + strconv.Itoa(c.locks)
		if c.others != 100000 {
			name += ",others=" + strconv.Itoa(c.others)
		}
		b.Run(name, func(b *testing.B) {
			w := newManualWorld(b)
			for i := 0; i < c.others; i++ {
				w.hold(b, Name("other"+strconv.Itoa(i)), Exclusive)
			}
			w.sched.RunUntilIdle()
			names := make([]Name, c.locks)
			for i := range names {
				names[i] = Name("w" + strconv.Itoa(i))
			}
			cb := func(*Lock) Waiting { return NewFuture() }
			gc := debug.SetGCPercent(-1)
			defer debug.SetGCPercent(gc)
			b.ReportAllocs()
			b.ResetTimer()
			cpu := startCPU(b)
			defer cpu.report()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				cpu.pause()
				if i%8 == 0 {
					runtime.GC()
				}
				worker := startWorker(b, w.env, "https://a.test/w.js")
				w.asTask(worker, func() {
					for _, n := range names {
						if _, err := Request(worker, n, Options{}, cb); err != nil {
							b.Fatal(err)
						}
					}
				})
				w.sched.RunUntilIdle()
				cpu.resume()
				b.StartTimer()
				worker.Agent().Terminate()
				w.sched.RunUntilIdle()
			}
		})
	}
}

// BenchmarkSchedulerHops is the floor set by html's scheduler for one
// cycle: the same four hops as a request/release cycle (event loop -> lock
// task queue -> event loop -> lock task queue -> event loop) with no lock
// manager work, for comparison with BenchmarkRequestRelease.
func BenchmarkSchedulerHops(b *testing.B) {
	ua, env := benchEnv(b)
	loop, ltq := env.ResponsibleEventLoop(), LockTaskQueue(ua)
	run := func(n int) {
		done := make(chan struct{})
		i := 0
		var hop1, hop2, hop3, hop4, next func()
		hop1 = func() { loop.QueueTask(TaskSource, hop2) }
		hop2 = func() { ltq.Enqueue(hop3) }
		hop3 = func() { loop.QueueTask(TaskSource, hop4) }
		next = func() {
			if i == n {
				close(done)
				return
			}
			i++
			ltq.Enqueue(hop1)
		}
		hop4 = next
		loop.QueueTask(html.DOMManipulationTaskSource, next)
		<-done
	}
	run(1000)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := startCPU(b)
	run(b.N)
	cpu.report()
}

// BenchmarkMemoryPerEntry reports the live heap per held lock and per
// pending request in the Go API, with the request's released future and a
// shared callback: held (shared locks, all on one name), held-distinct
// (exclusive locks on distinct names, so each also has its per-name state)
// and pending (all queued on one name). Run it with -benchtime 1x.
func BenchmarkMemoryPerEntry(b *testing.B) {
	const n = 20000
	for _, kind := range []string{"held", "held-distinct", "pending"} {
		b.Run(kind, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				w := newManualWorld(b)
				names := make([]Name, n)
				for j := range names {
					names[j] = Name("name" + strconv.Itoa(j))
				}
				waiting := NewFuture()
				cb := func(*Lock) Waiting { return waiting }
				w.asTask(w.env, func() { Request(w.env, "q", Options{}, cb) })
				w.sched.RunUntilIdle()
				futures := make([]*Future, 0, n)
				before := heapInUse()
				w.asTask(w.env, func() {
					for j := 0; j < n; j++ {
						name, opts := Name("q"), Options{}
						switch kind {
						case "held":
							name, opts.Mode = "s", Shared
						case "held-distinct":
							name = names[j]
						}
						f, err := Request(w.env, name, opts, cb)
						if err != nil {
							b.Fatal(err)
						}
						futures = append(futures, f)
					}
				})
				w.sched.RunUntilIdle()
				after := heapInUse()
				b.ReportMetric(float64(after-before)/n, "B/"+map[string]string{"held": "held-lock", "held-distinct": "held-lock", "pending": "pending-request"}[kind])
				runtime.KeepAlive(futures)
				runtime.KeepAlive(names)
			}
		})
	}
}
