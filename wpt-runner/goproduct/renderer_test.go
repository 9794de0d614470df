package goproduct

import (
	"context"
	"strings"
	"testing"
	"time"

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
