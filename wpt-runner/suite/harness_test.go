package suite

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gowebengine/weblocks/internal/testenv"
)

// upstreamHarness returns upstream testharness.js from the npm package
// wpt-runner (skipping without npm, failing under CI).
func upstreamHarness(t *testing.T) []byte {
	b, err := os.ReadFile(testenv.UpstreamHarness(t, "testharness.js"))
	if err != nil {
		t.Fatalf("reading upstream testharness.js: %v", err)
	}
	return b
}

func harnessURLs(t *testing.T) []string { return wrapperURLs(t, os.DirFS("testdata"), "harness") }

// TestHarnessMatchesUpstream runs the harness self-tests (deliberately
// failing asserts, rejections, cleanups, uncaught errors, timeouts...) and a
// few suite files under this package's testharness.js and under upstream's,
// in Chromium, and requires the same harness status, the same subtests in the
// same order with the same statuses, and the same messages for failing
// asserts.
func TestHarnessMatchesUpstream(t *testing.T) {
	testenv.Chromium(t)
	upstream := upstreamHarness(t)
	urls := harnessURLs(t)
	urls = append(urls,
		"/web-locks/request-basics.https.any.html",
		"/web-locks/request-basics.https.any.worker.html",
		"/web-locks/signal.https.any.html",
		"/web-locks/signal.https.any.worker.html",
		"/web-locks/agents.https.window.html",
	)
	if os.Getenv("SUITE_ALL_UPSTREAM") != "" {
		// Every suite file, not only a sample (slower).
		urls = append(harnessURLs(t), testURLs(t, Root())...)
	}
	ours := runAll(t, layers{Root(), os.DirFS("testdata")}, urls)
	theirs := runAll(t, layers{fstest.MapFS{"resources/testharness.js": {Data: upstream}}, Root(), os.DirFS("testdata")}, urls)
	for _, u := range urls {
		o, ok1 := ours[u]
		u2, ok2 := theirs[u]
		if !ok1 || !ok2 {
			continue
		}
		if diff := compareResults(o, u2); diff != "" {
			t.Errorf("%s: ours and upstream differ: %s\nours:\n%s\nupstream:\n%s", u, diff, o, u2)
		} else {
			t.Logf("%s: harness %s, %d subtests agree", u, harnessStatus[o.Status], len(o.Tests))
		}
	}
	// The self-tests must exercise every status, or they prove little.
	seen := map[string]bool{}
	for _, r := range ours {
		seen["harness "+harnessStatus[r.Status]] = true
		for _, st := range r.Tests {
			seen[subtestStatus[st.Status]] = true
		}
	}
	for _, want := range []string{"harness OK", "harness ERROR", "harness TIMEOUT", "PASS", "FAIL", "TIMEOUT", "NOTRUN", "PRECONDITION_FAILED"} {
		if !seen[want] {
			t.Errorf("no self-test produced %s", want)
		}
	}
}

func compareResults(a, b fileResult) string {
	if a.Status != b.Status {
		return "harness status " + harnessStatus[a.Status] + " vs " + harnessStatus[b.Status]
	}
	if len(a.Tests) != len(b.Tests) {
		return "different numbers of subtests"
	}
	for i := range a.Tests {
		x, y := a.Tests[i], b.Tests[i]
		if x.Name != y.Name || x.Status != y.Status {
			return "subtest " + x.Name + " / " + y.Name
		}
		if !sameMessage(x.Message, y.Message) {
			return "message of " + x.Name
		}
	}
	return ""
}

func sameMessage(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// nodeDriver runs a harness and one test file in Node.js as a bare
// JavaScript shell (no document, no worker scope: the environment a minimal
// engine gives), and prints the completion data as JSON.
const nodeDriver = `
const fs = require('fs');
const vm = require('vm');
const [harness, testFile] = process.argv.slice(1);
globalThis.self = globalThis;
vm.runInThisContext(fs.readFileSync(harness, 'utf8'), {filename: harness});
add_completion_callback((tests, status) => {
  process.stdout.write(JSON.stringify({
    status: status.status,
    message: status.message === undefined ? null : status.message,
    tests: tests.map(t => ({name: t.name, status: t.status, message: t.message === undefined ? null : t.message})),
  }));
});
setup({explicit_done: true});
vm.runInThisContext(fs.readFileSync(testFile, 'utf8'), {filename: testFile});
done();
`

func runInNode(t *testing.T, node, harness, testFile string) fileResult {
	t.Helper()
	cmd := exec.Command(node, "-e", nodeDriver, harness, testFile)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s %s: %v\n%s%s", harness, testFile, err, out, stderr.String())
	}
	var res fileResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("node output for %s: %v\n%s", testFile, err, out)
	}
	return res
}

// TestHarnessInShellMatchesUpstream runs the harness self-tests in Node.js
// as a plain JavaScript shell, under this package's harness and upstream's,
// and requires identical results: the harness must work without a DOM.
func TestHarnessInShellMatchesUpstream(t *testing.T) {
	node := testenv.Node(t)
	upstream := testenv.UpstreamHarness(t, "testharness.js")
	ours, err := filepath.Abs(filepath.Join("wpt", "resources", "testharness.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"asserts.any.js", "async.any.js", "duplicate.any.js", "returned-value.any.js",
		"precondition.any.js", "cleanup-value.any.js", "explicit-done.any.js"} {
		file := filepath.Join("testdata", "harness", f)
		o := runInNode(t, node, ours, file)
		u := runInNode(t, node, upstream, file)
		if diff := compareResults(o, u); diff != "" {
			t.Errorf("%s: ours and upstream differ: %s\nours:\n%s\nupstream:\n%s", f, diff, o, u)
		} else {
			t.Logf("%s: harness %s, %d subtests agree", f, harnessStatus[o.Status], len(o.Tests))
		}
	}
}
