package bindings

import (
	"fmt"
	"testing"
)

// BenchmarkRequestAbort measures aborting a queued request through its
// signal: b.N requests wait behind a held lock, each with its own
// AbortController, and are aborted one after another (the perfcompare
// "abort" workload).
func BenchmarkRequestAbort(b *testing.B) {
	w := newWorld(b)
	j := w.window("https://example.com/")
	j.exec(fmt.Sprintf(`
		globalThis.release = null;
		navigator.locks.request('x', () => new Promise(r => { release = r; }));
		globalThis.cs = []; globalThis.ps = [];
		for (let i = 0; i < %d; i++) {
			const c = new AbortController();
			cs.push(c);
			ps.push(navigator.locks.request('x', {signal: c.signal}, () => {}).then(
				() => { throw new Error('an aborted request was granted'); },
				e => { if (e.name !== 'AbortError') throw e; }));
		}
	`, b.N))
	b.ResetTimer()
	defer reportCPU(b, processCPU())
	j.async(`
		for (const c of cs) c.abort();
		Promise.all(ps).then(() => { release(); done(); });
	`)
}
