package bindings

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/html"
)

// BenchmarkRequestCycle measures one `await navigator.locks.request(name,
// () => {})` from JavaScript: method steps, lock task queue, grant task,
// callback invocation, waiting/released promises (manual scheduler: no
// goroutine hand-offs). Chromium: about 156 µs per cycle (REFERENCE.md).
func BenchmarkRequestCycle(b *testing.B) {
	w := newWorld(b)
	j := w.window("https://example.com/")
	j.exec(`
		globalThis.cycle = async n => {
			for (let i = 0; i < n; i++) await navigator.locks.request('a', () => {});
			done();
		};
	`)
	b.ResetTimer()
	cpu := processCPU()
	j.async(fmt.Sprintf("cycle(%d)", b.N))
	reportCPU(b, cpu)
}

// reportCPU reports the process CPU time since start per operation.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(processCPU()-start)/float64(b.N), "cpu-ns/op")
}

// BenchmarkRequestQueued measures b.N requests queued on one name and
// released one after another.
func BenchmarkRequestQueued(b *testing.B) {
	w := newWorld(b)
	j := w.window("https://example.com/")
	b.ResetTimer()
	defer reportCPU(b, processCPU())
	j.async(fmt.Sprintf(`
		const ps = [];
		for (let i = 0; i < %d; i++) ps.push(navigator.locks.request('a', () => {}));
		Promise.all(ps).then(done);
	`, b.N))
}

// BenchmarkNewWindowRealm measures creating a window realm (a sobek
// runtime with every interface exposed to Window installed), and reports
// the live heap each realm keeps (live-B/realm: the heap in use after a
// GC with b.N realms alive, less the heap before, divided by b.N).
func BenchmarkNewWindowRealm(b *testing.B) {
	benchmarkNewWindowRealms(b, nil)
}

// benchmarkNewWindowRealms creates b.N window realms, calls then (if not
// nil) on each, and reports CPU per realm and the live heap each keeps.
func benchmarkNewWindowRealms(b *testing.B, then func(*Realm)) {
	ua := html.NewUserAgent(html.WithScheduler(html.NewManualScheduler()))
	defer ua.Close()
	doc, err := ua.OpenWindowURL("https://example.com/")
	if err != nil {
		b.Fatal(err)
	}
	env := doc.EnvironmentSettingsObject()
	keep := make([]*Realm, 0, b.N)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	cpu := processCPU()
	for i := 0; i < b.N; i++ {
		r := newRealm(&htmlHost{env: env, loop: env.ResponsibleEventLoop()}, WindowGlobal, Options{})
		r.env = env
		if err := r.setUp(envInfo{url: env.CreationURL(), origin: env.Origin().Serialize(), secure: true}); err != nil {
			b.Fatal(err)
		}
		if then != nil {
			then(r)
		}
		keep = append(keep, r)
	}
	reportCPU(b, cpu)
	b.StopTimer()
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(b.N), "live-B/realm")
	runtime.KeepAlive(keep)
}

// BenchmarkRequestHeldDistinct measures b.N locks on distinct names
// acquired together (each callback returns one shared pending promise)
// and then released.
func BenchmarkRequestHeldDistinct(b *testing.B) {
	w := newWorld(b)
	j := w.window("https://example.com/")
	b.ResetTimer()
	defer reportCPU(b, processCPU())
	j.async(fmt.Sprintf(`
		let release;
		const hold = new Promise(r => { release = r; });
		let count = 0;
		const ps = [];
		for (let i = 0; i < %d; i++) ps.push(navigator.locks.request('h' + i, () => { if (++count === %d) release(); return hold; }));
		Promise.all(ps).then(done);
	`, b.N, b.N))
}

// BenchmarkQuery measures query() while 1000 locks are held, per entry of
// the snapshot (b.N queries of 1000 held entries each).
func BenchmarkQuery(b *testing.B) {
	const held = 1000
	w := newWorld(b)
	j := w.window("https://example.com/")
	j.exec(fmt.Sprintf(`
		globalThis.hold = new Promise(r => { globalThis.release = r; });
		for (let i = 0; i < %d; i++) navigator.locks.request('h' + i, () => hold);
	`, held))
	b.ResetTimer()
	defer reportCPU(b, processCPU())
	j.async(fmt.Sprintf(`
		(async () => {
			for (let i = 0; i < %d; i++) {
				const s = await navigator.locks.query();
				if (s.held.length !== %d) throw new Error('held ' + s.held.length);
			}
			release();
			done();
		})();
	`, b.N, held))
}
