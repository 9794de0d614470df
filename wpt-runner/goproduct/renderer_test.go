package goproduct

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/wpt-runner/product"
	"github.com/gowebengine/weblocks/wpt-runner/server"
)

// TestRendererProcesses: with RendererProcesses, a test page runs in a
// renderer process (its Web Locks through the browser process's lock
// service) and reports as in one process; a page that overflows its
// stack is that test's CRASH, and the next test runs.
func TestRendererProcesses(t *testing.T) {
	root := testTree(t, nil, map[string]string{
		"locks.https.html": pageHead + `<script>
promise_test(async () => {
  const got = await navigator.locks.request('L', async () => (await navigator.locks.query()).held.length);
  assert_equals(got, 1);
}, 'a lock in a renderer');
test(() => assert_not_equals(typeof navigator.locks, 'undefined'), 'navigator.locks');
</script>`,
		"hostile.html": pageHead + `<script>JSON.parse('['.repeat(5e6) + ']'.repeat(5e6));</script>`,
	})
	srv, err := server.Start(server.Config{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	p := New(Options{Name: "go-renderer", RendererProcesses: true})
	if err := p.Start(context.Background(), srv.Env(1, t.Logf)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	h := &harnessEnv{srv: srv, p: p}
	expectAllPass(t, h.run(t, "/locks.https.html", time.Minute), "a lock in a renderer", "navigator.locks")
	r := h.run(t, "/hostile.html", time.Minute)
	if r.Status != product.CRASH || !strings.HasPrefix(r.Message, "stack overflow") {
		t.Fatalf("hostile page: %s %s", r.Status, r.Message)
	}
	expectAllPass(t, h.run(t, "/locks.https.html", time.Minute), "a lock in a renderer", "navigator.locks")
	if p.Name() != "go-renderer" {
		t.Fatal(p.Name())
	}
}

// TestRendererCrashtests: with RendererProcesses, a crash test's page runs
// in a renderer process too, not in the runner's process: a page whose
// worker allocates a 4 GiB typed array it never touches passes (as in
// the upstream crashtests/after-worker-termination), a page that
// overflows its stack is that test's CRASH with the renderer's reason,
// and the runner goes on with the next test.
func TestRendererCrashtests(t *testing.T) {
	root := testTree(t, nil, map[string]string{
		"c/pass.https.html": `<!DOCTYPE html><html class="test-wait"><script>
navigator.locks.request("x", () => document.documentElement.classList.remove("test-wait"));
</script>`,
		"c/worker-alloc.https.html": `<!DOCTYPE html><html class="test-wait"><script>
const worker = new Worker(URL.createObjectURL(new Blob(['postMessage("hi"); self.reportError(new Int16Array(2 ** 31)); navigator.locks.request("y", () => {});'])));
worker.onmessage = () => {
  worker.terminate();
  setTimeout(() => document.documentElement.classList.remove("test-wait"), 100);
};
</script>`,
		"c/hostile.https.html": `<!DOCTYPE html><html class="test-wait"><script>JSON.parse('['.repeat(5e6) + ']'.repeat(5e6));</script>`,
	})
	srv, err := server.Start(server.Config{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	p := New(Options{Name: "go-renderer", RendererProcesses: true})
	if err := p.Start(context.Background(), srv.Env(1, t.Logf)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	h := &harnessEnv{srv: srv, p: p}
	var pids []int
	p.opts.crashtestHook = func(_ context.Context, _ *browser.Browser, w *browser.Window) {
		pids = append(pids, w.RendererPID())
	}
	run := func(path string) product.TestResult {
		t.Helper()
		return product.SafeRun(context.Background(), p, product.TestRequest{ID: path, URL: h.url(path, true), Timeout: time.Minute, Crashtest: true}, time.Second)
	}
	if r := run("/c/pass.https.html"); r.Status != product.PASS {
		t.Fatalf("pass: %s %s", r.Status, r.Message)
	}
	// Before the hostile pages: a crash test's page in the runner's own
	// process would take the test binary down with it.
	if len(pids) != 1 || pids[0] == 0 || pids[0] == os.Getpid() {
		t.Fatalf("the crash test's window ran in renderer pid %v, want a renderer process (this process: %d)", pids, os.Getpid())
	}
	if r := run("/c/worker-alloc.https.html"); r.Status != product.PASS {
		t.Errorf("worker-alloc: %s %s", r.Status, r.Message)
	}
	if r := run("/c/hostile.https.html"); r.Status != product.CRASH || !strings.HasPrefix(r.Message, "stack overflow") {
		t.Errorf("hostile: %s %s", r.Status, r.Message)
	}
	if r := run("/c/pass.https.html"); r.Status != product.PASS {
		t.Errorf("pass after the crash: %s %s", r.Status, r.Message)
	}
}
