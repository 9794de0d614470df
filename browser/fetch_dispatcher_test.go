package browser_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/wpt-runner/server"
)

// upstreamWPT returns the root of an upstream web-platform-tests checkout
// ($WPT_ROOT, else /work/wpt-upstream), or skips the test.
func upstreamWPT(t *testing.T) string {
	t.Helper()
	root := os.Getenv("WPT_ROOT")
	if root == "" {
		root = "/work/wpt-upstream"
	}
	if _, err := os.Stat(filepath.Join(root, "common", "dispatcher", "dispatcher.js")); err != nil {
		t.Skipf("no upstream WPT checkout with common/dispatcher (set WPT_ROOT): %v", err)
	}
	return root
}

// TestFetchDispatcher: upstream /common/dispatcher/dispatcher.js, served
// by the runner's server with its dispatcher.py stash, sends and receives
// messages with fetch() in a window and in a dedicated worker, on the
// page's origin and across origins (the www subdomain).
func TestFetchDispatcher(t *testing.T) {
	root := upstreamWPT(t)
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	const test = `
		async function roundTrip(prefix) {
			const out = [];
			const id = token();
			await send(id, prefix + " one");
			await send(id, prefix + " two");
			out.push(await receive(id), await receive(id));
			// A receive waiting for a later send.
			const id2 = token();
			const later = receive(id2);
			await send(id2, prefix + " later");
			out.push(await later);
			return out;
		}`
	fsys := fstest.MapFS{
		"common/dispatcher/dispatcher.js": {Data: read("common/dispatcher/dispatcher.js")},
		"common/utils.js":                 {Data: read("common/utils.js")},
		"index.html": {Data: []byte(`<script src=/common/utils.js></script>
			<script src=/common/dispatcher/dispatcher.js></script>
			<script>` + test + `</script>`)},
		"worker.js": {Data: []byte(`importScripts("/common/utils.js", "/common/dispatcher/dispatcher.js");` + test + `
			onmessage = async () => postMessage(await roundTrip("worker"));`)},
		"cross.html": {Data: []byte(`<script src=/common/utils.js></script>
			<script src=/common/dispatcher/dispatcher.js></script>`)},
	}
	srv, err := server.Start(server.Config{Root: fsys})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	b := browser.New(browser.Config{Fetcher: browser.HTTPFetcher{Client: srv.Client()}})
	defer b.Close()
	port := srv.HTTPSPorts()[0]
	w, err := b.Open(ctx, fmt.Sprintf("https://web-platform.test:%d/index.html", port))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := eval(t, ctx, w, `roundTrip("window")`), []any{"window one", "window two", "window later"}; !reflect.DeepEqual(got, want) {
		t.Errorf("window: %v, want %v", got, want)
	}
	got := eval(t, ctx, w, `new Promise(resolve => { const wk = new Worker("worker.js"); wk.onmessage = e => resolve(e.data); wk.postMessage(0); })`)
	if want := []any{"worker one", "worker two", "worker later"}; !reflect.DeepEqual(got, want) {
		t.Errorf("worker: %v, want %v", got, want)
	}
	// A page of another origin (a remote executor's situation) sends to
	// the page's queue: the stash is the server's, whatever the host.
	other, err := b.Open(ctx, fmt.Sprintf("https://www.web-platform.test:%d/cross.html", port))
	if err != nil {
		t.Fatal(err)
	}
	eval(t, ctx, w, `window.crossId = token(); window.crossGot = receive(crossId); 0`)
	id := eval(t, ctx, w, `crossId`)
	eval(t, ctx, other, fmt.Sprintf(`send(%q, "from " + location.hostname)`, id))
	if got := eval(t, ctx, w, `crossGot`); got != "from www.web-platform.test" {
		t.Errorf("cross-origin: %v", got)
	}
}
