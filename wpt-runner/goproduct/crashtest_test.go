package goproduct

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/wpt-runner/product"
	"github.com/grafana/sobek"
)

// Crash tests: PASS once the page has loaded and its root lost the class
// "test-wait", TIMEOUT when it keeps it, CRASH for a panic of the engine
// and for locks left behind once the page is closed.
func TestCrashtests(t *testing.T) {
	const holder = `<!DOCTYPE html><script>navigator.locks.request("x", () => new Promise(() => {})); navigator.locks.request("x", () => {});</script>`
	h := startProduct(t, testTree(t, nil, map[string]string{
		"c/pass.https.html":    `<!DOCTYPE html><html class="a test-wait b"><script>setTimeout(() => document.documentElement.setAttribute("class", "a b"), 20);</script>`,
		"c/no-wait.https.html": `<!DOCTYPE html><p>no test-wait`,
		"c/wait.https.html":    `<!DOCTYPE html><html class="test-wait"><p>never finishes`,
		"c/holder.https.html":  holder,
		"c/panic.https.html":   `<!DOCTYPE html><html class="test-wait"><script>setTimeout(() => __go_panic(), 1);</script>`,
		"c/leak.https.html":    `<!DOCTYPE html><script>__go_leak();</script>`,
	}))
	stop := make(chan struct{})
	defer close(stop)
	h.p.opts.testHook = func(w *browser.Window) {
		// A goroutine of the engine that outlives its browser.
		w.DefineFunction("__go_leak", 0, func(sobek.FunctionCall) sobek.Value {
			go func() { <-stop }()
			return sobek.Undefined()
		})
		w.DefineFunction("__go_panic", 0, func(sobek.FunctionCall) sobek.Value {
			var m map[string]int
			m["x"] = 1 //lint:ignore SA5000 a Go runtime panic inside the engine, on purpose
			return sobek.Undefined()
		})
	}
	run := func(path string, timeout time.Duration) product.TestResult {
		t.Helper()
		return product.SafeRun(context.Background(), h.p, product.TestRequest{ID: path, URL: h.url(path, true), Timeout: timeout, Crashtest: true}, time.Second)
	}
	for _, tc := range []struct {
		path    string
		timeout time.Duration
		status  product.Status
		message string
	}{
		{"/c/pass.https.html", time.Minute, product.PASS, ""},
		{"/c/no-wait.https.html", time.Minute, product.PASS, ""},
		// The page's own locks are released when it is closed.
		{"/c/holder.https.html", time.Minute, product.PASS, ""},
		{"/c/wait.https.html", 500 * time.Millisecond, product.TIMEOUT, `class "test-wait" removed`},
		{"/c/panic.https.html", time.Minute, product.CRASH, "panic in the engine"},
		{"/c/nonexistent.https.html", time.Minute, product.ERROR, "404"},
		{"/c/leak.https.html", time.Minute, product.CRASH, "goroutines of the engine still running"},
	} {
		r := run(tc.path, tc.timeout)
		if r.Status != tc.status || !strings.Contains(r.Message, tc.message) || len(r.Subtests) != 0 {
			t.Errorf("%s: %s %q, want %s %q", tc.path, r.Status, r.Message, tc.status, tc.message)
		}
	}

	// A client of the user agent that outlives the page keeps its lock:
	// the check after the page is closed sees it (here a second window;
	// in a real failure, a client whose termination lost its locks).
	h.p.opts.crashtestHook = func(ctx context.Context, b *browser.Browser, _ *browser.Window) {
		if _, err := b.Open(ctx, h.url("/c/holder.https.html", true)); err != nil {
			t.Errorf("opening a second window: %v", err)
		}
	}
	start := time.Now()
	r := run("/c/pass.https.html", time.Minute)
	if r.Status != product.CRASH || !strings.Contains(r.Message, `lock state left behind`) || !strings.Contains(r.Message, `held "x" (exclusive)`) || !strings.Contains(r.Message, `pending "x" (exclusive)`) {
		t.Errorf("a lock left behind: %s %q", r.Status, r.Message)
	}
	t.Logf("lock check gave up after %v", time.Since(start))
}
