package goproduct

import (
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
