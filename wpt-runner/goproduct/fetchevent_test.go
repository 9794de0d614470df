package goproduct

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFetchEventClientIDIsLockClientID runs the suite's Chromium deviation
// fetch-event-client-id.https.window.js in the go product: a controlled
// frame's fetch reaches its service worker, whose FetchEvent.clientId is
// the clientId query() reports for the frame's lock (what upstream's
// web-locks/clientids.https.html checks). Chromium fails it, so it is a
// Go test only.
func TestFetchEventClientIDIsLockClientID(t *testing.T) {
	dir := filepath.Join("..", "suite", "testdata", "chromium-deviations")
	files := map[string]string{}
	for _, f := range []string{"fetch-event-client-id.https.window.js", "resources/sw-fetch-client-id.js", "resources/controlled/frame.html"} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		files["chromium-deviations/"+f] = string(b)
	}
	h := startProduct(t, testTree(t, nil, files))
	expectAllPass(t, h.run(t, "/chromium-deviations/fetch-event-client-id.https.window.html", 20*time.Second),
		"a lock's clientId is the clientId of its environment's fetch events")
}
