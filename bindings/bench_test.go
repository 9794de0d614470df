package bindings

import (
	"fmt"
	"testing"
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
	j.async(fmt.Sprintf("cycle(%d)", b.N))
}

// BenchmarkRequestQueued measures b.N requests queued on one name and
// released one after another.
func BenchmarkRequestQueued(b *testing.B) {
	w := newWorld(b)
	j := w.window("https://example.com/")
	b.ResetTimer()
	j.async(fmt.Sprintf(`
		const ps = [];
		for (let i = 0; i < %d; i++) ps.push(navigator.locks.request('a', () => {}));
		Promise.all(ps).then(done);
	`, b.N))
}
