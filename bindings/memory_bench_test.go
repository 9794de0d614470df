package bindings

import (
	"fmt"
	"runtime"
	"testing"
)

// BenchmarkMemoryPerJSEntry reports the live heap per pending JavaScript
// lock request (queued behind a held lock) and per held JavaScript lock
// (distinct names, each callback returning one shared pending promise):
// the heap in use after a GC with the entries alive, less the heap
// before, divided by their number. It includes what script itself keeps
// (the returned promise in an array, the callback arrow function).
func BenchmarkMemoryPerJSEntry(b *testing.B) {
	const n = 20000
	cases := []struct{ name, unit, src string }{
		{"pending", "B/pending-request", `
			globalThis.keep = [];
			navigator.locks.request('q', () => new Promise(r => { globalThis.release = r; }));
			for (let i = 0; i < %d; i++) keep.push(navigator.locks.request('q', () => {}));`},
		{"held", "B/held-lock", `
			globalThis.keep = [];
			const hold = new Promise(r => { globalThis.release = r; });
			for (let i = 0; i < %d; i++) keep.push(navigator.locks.request('h' + i, () => hold));`},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				w := newWorld(b)
				j := w.window("https://example.com/")
				j.exec(`globalThis.keep = []; for (let i = 0; i < 1000; i++) keep.push(Promise.resolve(i)); keep = null;`)
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				j.exec(fmt.Sprintf(c.src, n))
				runtime.GC()
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/n, c.unit)
				j.exec(`release(); keep = null;`)
				runtime.KeepAlive(w)
			}
		})
	}
}
