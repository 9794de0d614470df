package suite

import (
	"io/fs"
	"os"
	"testing"
)

// TestProbe runs one page with a report script that records when each
// subtest finished (a development aid: PROBE_DIR=dir PROBE_URL=/x.html).
func TestProbe(t *testing.T) {
	dir := os.Getenv("PROBE_DIR")
	if dir == "" {
		t.Skip("set PROBE_DIR and PROBE_URL")
	}
	timing := `
var __start = performance.now();
add_result_callback(function (t) { t.message = Math.round(performance.now() - __start) + "ms " + (t.message || ""); });
` + reportJS
	res := runAll(t, &server{root: Root(), more: []fs.FS{os.DirFS(dir)}, override: map[string][]byte{"/resources/testharnessreport.js": []byte(timing)}}, []string{os.Getenv("PROBE_URL")})
	for u, r := range res {
		t.Logf("%s\n%s", u, r)
	}
}
