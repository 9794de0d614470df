package bindings

import (
	"fmt"
	"testing"

	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/internal/chromebench"
	"github.com/grafana/sobek"
)

// BenchmarkRequestCycleSideBySide runs the same JavaScript loop — one
// `await navigator.locks.request('a', () => {})` per iteration — in a
// window realm of this engine (manual scheduler, then goroutine
// scheduler) and in headless Chromium
// (a page on http://127.0.0.1, a secure context), in one run, so their
// ns/op can be compared as a ratio.
func BenchmarkRequestCycleSideBySide(b *testing.B) {
	const loop = `(async n => { for (let i = 0; i < n; i++) await navigator.locks.request('a', () => {}); })`
	b.Run("go", func(b *testing.B) {
		w := newWorld(b)
		j := w.window("https://example.com/")
		j.exec("globalThis.cycle = " + loop)
		b.ResetTimer()
		defer reportCPU(b, processCPU())
		j.async(fmt.Sprintf("cycle(%d).then(done)", b.N))
	})
	b.Run("go-goroutines", func(b *testing.B) {
		// The default scheduler: the event loop and the lock task queue
		// on their own goroutines.
		ua := html.NewUserAgent()
		defer ua.Close()
		doc, err := ua.OpenWindowURL("https://example.com/")
		if err != nil {
			b.Fatal(err)
		}
		r, err := NewWindowRealm(doc.EnvironmentSettingsObject(), Options{})
		if err != nil {
			b.Fatal(err)
		}
		finished := make(chan struct{})
		r.DefineGlobalFunction("finished", 0, func(sobek.FunctionCall) sobek.Value { close(finished); return sobek.Undefined() })
		if err := r.RunScript("setup.js", "globalThis.cycle = "+loop); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		if err := r.RunScript("run.js", fmt.Sprintf("cycle(%d).then(finished)", b.N)); err != nil {
			b.Fatal(err)
		}
		<-finished
	})
	b.Run("chromium", func(b *testing.B) { chromebench.Loop(b, loop) })
}

// BenchmarkRequestQueuedSideBySide queues b.N requests on one name (all
// made in one go, then granted and released one after another) in a
// window realm of this engine (manual scheduler) and in headless Chromium,
// in one run.
func BenchmarkRequestQueuedSideBySide(b *testing.B) {
	const queue = `(async n => {
		const ps = [];
		for (let i = 0; i < n; i++) ps.push(navigator.locks.request('q', () => {}));
		await Promise.all(ps);
	})`
	b.Run("go", func(b *testing.B) {
		w := newWorld(b)
		j := w.window("https://example.com/")
		j.exec("globalThis.queue = " + queue)
		b.ResetTimer()
		defer reportCPU(b, processCPU())
		j.async(fmt.Sprintf("queue(%d).then(done)", b.N))
	})
	b.Run("chromium", func(b *testing.B) { chromebench.Loop(b, queue) })
}
