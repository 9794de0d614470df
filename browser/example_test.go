package browser_test

import (
	"context"
	"fmt"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
)

// site is a small same-origin site: a page with an iframe and a dedicated
// worker, each of which takes a Web Lock and holds it.
var site = fstest.MapFS{
	"index.html": {Data: []byte(`<!doctype html>
<title>locks</title>
<iframe id=f src="frame.html"></iframe>
<script>
const worker = new Worker("worker.js");
window.workerHolds = new Promise(r => worker.onmessage = e => r(e.data));
window.frameHolds = new Promise(r => window.onmessage = e => r(e.data));
</script>`)},
	"frame.html": {Data: []byte(`<!doctype html><script>
navigator.locks.request("A", () => {
  parent.postMessage("frame holds A", "*");
  return new Promise(() => {}); // held until the frame goes away
});
</script>`)},
	"worker.js": {Data: []byte(`
navigator.locks.request("B", () => {
  postMessage("worker holds B");
  return new Promise(() => {});
});`)},
}

// Example opens a page whose iframe and worker take locks, queues a request
// for the iframe's lock, removes the iframe and awaits the grant.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	b := browser.New(browser.Config{Fetcher: browser.FSFetcher{FS: site}})
	defer b.Close()

	// https: Web Locks need a secure context.
	w, err := b.Open(ctx, "https://example.test/")
	if err != nil {
		fmt.Println(err)
		return
	}
	held, err := w.Evaluate(ctx, `Promise.all([frameHolds, workerHolds])`)
	fmt.Println(held, err)

	// The page waits for the iframe's lock.
	// (The expression's value is not the promise: Evaluate would await it.)
	_, _ = w.Evaluate(ctx, `window.granted = navigator.locks.request("A", () => "page got A"); 0`)
	pending, _ := w.Evaluate(ctx, `navigator.locks.query().then(s => s.pending.map(l => l.name))`)
	fmt.Println("pending:", pending)

	// Removing the iframe unloads its document, which releases its lock.
	_, _ = w.Evaluate(ctx, `document.getElementById("f").remove()`)
	got, err := w.Evaluate(ctx, `granted`)
	fmt.Println(got, err)
	// Output:
	// [frame holds A worker holds B] <nil>
	// pending: [A]
	// page got A <nil>
}
