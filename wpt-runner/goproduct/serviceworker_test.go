package goproduct

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// An .any.serviceworker.html page registers the test as a service worker
// and fetches its results (fetch_tests_from_worker over
// navigator.serviceWorker and Client.postMessage).
func TestServiceWorkerScope(t *testing.T) {
	h := startProduct(t, testTree(t, nil, map[string]string{"x/basic.https.any.js": "// META: global=serviceworker\n" + anyTest}))
	expectAllPass(t, h.run(t, "/x/basic.https.any.serviceworker.html", 20*time.Second), "sync in worker", "async")
}

// TestClientIDIsLockClientID runs the suite's Chromium deviation
// clientid-is-client-id.https.window.js in the go product: the clientId
// query() reports for a page's lock is the id of the page's Client that
// its service worker's clients.matchAll() returns. Chromium fails it (its
// clientId is an id of its own), so it is a Go test only.
func TestClientIDIsLockClientID(t *testing.T) {
	dir := filepath.Join("..", "suite", "testdata", "chromium-deviations")
	files := map[string]string{}
	for _, f := range []string{"clientid-is-client-id.https.window.js", "resources/sw-client-ids.js"} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		files["chromium-deviations/"+f] = string(b)
	}
	h := startProduct(t, testTree(t, nil, files))
	expectAllPass(t, h.run(t, "/chromium-deviations/clientid-is-client-id.https.window.html", 20*time.Second),
		"a lock's clientId is the Client.id of its environment")
}

// In a service worker, new Request(url) and fetch(url) resolve a relative
// URL against the worker's script URL (its API base URL), as idlharness.js
// does when it fetches /interfaces/*.idl.
func TestServiceWorkerRelativeURLs(t *testing.T) {
	h := startProduct(t, testTree(t, nil, map[string]string{
		"x/data.txt": "hello from data.txt",
		"x/rel.https.any.js": "// META: global=serviceworker\n" + `
promise_test(async () => {
  assert_equals(new Request("data.txt").url, new URL("data.txt", location.href).href);
  assert_equals(new Request("/x/data.txt").url, location.origin + "/x/data.txt");
  const r = await fetch("data.txt");
  assert_equals(await r.text(), "hello from data.txt");
}, "relative URLs");
`,
	}))
	expectAllPass(t, h.run(t, "/x/rel.https.any.serviceworker.html", 20*time.Second), "relative URLs")
}
