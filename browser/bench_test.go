package browser_test

import (
	"context"
	"fmt"
	"net/url"
	"runtime"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
)

// BenchmarkWindowRealm opens top-level windows on a tiny document: the
// window's agent, environment, realm (every generated interface), document
// and host globals. live-B/realm is the heap still in use per open window.
func BenchmarkWindowRealm(b *testing.B) {
	br := browser.New(browser.Config{Fetcher: browser.FSFetcher{FS: fstest.MapFS{}}})
	defer br.Close()
	u, _ := url.Parse("https://example.test/")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var windows []*browser.Window
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for b.Loop() {
		w, err := br.StartHTML(u, "<!doctype html><title>t</title>")
		if err != nil {
			b.Fatal(err)
		}
		select {
		case <-w.Loaded():
		case <-ctx.Done():
			b.Fatal("load did not fire")
		}
		windows = append(windows, w)
	}
	b.StopTimer()
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(len(windows)), "live-B/realm")
	runtime.KeepAlive(windows)
	for _, w := range windows {
		w.Close()
	}
}

// pingPong is a page with a same-origin iframe and a worker that echo
// every message; roundTrips(target, n) resolves after n round trips.
var pingPong = fstest.MapFS{
	"index.html": {Data: []byte(`<iframe id=f src="echo.html"></iframe><script>
const worker = new Worker("echo.js");
function roundTrips(kind, n) {
  return new Promise(resolve => {
    let left = n;
    const port = kind === "worker" ? worker : window;
    const target = kind === "worker" ? worker : document.getElementById("f").contentWindow;
    const post = kind === "worker" ? d => target.postMessage(d) : d => target.postMessage(d, "*");
    port.onmessage = e => { if (--left <= 0) resolve(n); else post(e.data); };
    post({n: 1});
  });
}
</script>`)},
	"echo.html": {Data: []byte(`<script>onmessage = e => parent.postMessage(e.data, "*");</script>`)},
	"echo.js":   {Data: []byte(`onmessage = e => postMessage(e.data);`)},
}

// BenchmarkPostMessageRoundTrip: a small object sent to a same-origin
// iframe's window or a dedicated worker and echoed back (structured clone
// both ways, a task on each side).
func BenchmarkPostMessageRoundTrip(b *testing.B) {
	for _, kind := range []string{"iframe", "worker"} {
		b.Run(kind, func(b *testing.B) {
			br := browser.New(browser.Config{Fetcher: browser.FSFetcher{FS: pingPong}})
			defer br.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			w, err := br.Open(ctx, "https://example.test/")
			if err != nil {
				b.Fatal(err)
			}
			// Warm up (the worker's script has run once it answers).
			if _, err := w.Evaluate(ctx, fmt.Sprintf("roundTrips(%q, 10)", kind)); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			if _, err := w.Evaluate(ctx, fmt.Sprintf("roundTrips(%q, %d)", kind, b.N)); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkCrossWindowCall: a call from a page to a function of its
// same-origin iframe (through the agent's membrane), against a call to a
// function of the page itself.
func BenchmarkCrossWindowCall(b *testing.B) {
	site := fstest.MapFS{
		"index.html": {Data: []byte(`<iframe id=f src="frame.html"></iframe><script>
function add(a, b) { return a + b; }
function loop(fn, n) { let s = 0; for (let i = 0; i < n; i++) s = fn(s, 1); return s; }
</script>`)},
		"frame.html": {Data: []byte(`<script>function add(a, b) { return a + b; }</script>`)},
	}
	for _, c := range []struct{ name, fn string }{
		{"same-window", "add"},
		{"iframe", `document.getElementById("f").contentWindow.add`},
	} {
		b.Run(c.name, func(b *testing.B) {
			br := browser.New(browser.Config{Fetcher: browser.FSFetcher{FS: site}})
			defer br.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			w, err := br.Open(ctx, "https://example.test/")
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			got, err := w.Evaluate(ctx, fmt.Sprintf("loop(%s, %d)", c.fn, b.N))
			if err != nil || got != int64(b.N) {
				b.Fatalf("loop: %v %v", got, err)
			}
		})
	}
}
