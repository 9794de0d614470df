// Package hostile is a suite of hostile tests run against the go product
// in child processes (package isolate), as the runner runs them: each must
// end with its exact status (TIMEOUT when it does not finish, CRASH with
// its reason when its process dies), costing only its own result, and the
// next test of the same run must pass.
package hostile

import (
	"context"
	"embed"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	_ "github.com/gowebengine/weblocks/wpt-runner/goproduct"
	"github.com/gowebengine/weblocks/wpt-runner/isolate"
	"github.com/gowebengine/weblocks/wpt-runner/manifest"
	"github.com/gowebengine/weblocks/wpt-runner/product"
	"github.com/gowebengine/weblocks/wpt-runner/server"
	"github.com/gowebengine/weblocks/wpt-runner/suite"
)

func TestMain(m *testing.M) {
	isolate.MaybeChild() // the children are this test binary
	os.Exit(m.Run())
}

//go:embed testdata/hostile
var hostileFS embed.FS

// tree is the bundled suite's harness plus the hostile tests.
func tree(t testing.TB) fs.FS {
	t.Helper()
	harness, err := fs.ReadFile(suite.Root(), "resources/testharness.js")
	if err != nil {
		t.Fatal(err)
	}
	m := fstest.MapFS{"resources/testharness.js": {Data: harness}}
	entries, err := hostileFS.ReadDir("testdata/hostile")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := hostileFS.ReadFile("testdata/hostile/" + e.Name())
		if err != nil {
			t.Fatal(err)
		}
		m["hostile/"+e.Name()] = &fstest.MapFile{Data: data}
	}
	return m
}

func alive(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return err == nil
}

// hostileCases are the hostile tests and the exact result each must have:
// the harness status, and for a CRASH the reason the message starts with.
// A test that cannot finish gets a short harness timeout; one that must
// crash a long one, so that it crashes well within it even on a loaded
// machine.
var hostileCases = []struct {
	name    string
	status  product.Status
	reason  string         // CRASH: the message's start (isolate.CrashReason)
	subtest product.Status // OK: the one subtest's status
	message string         // ERROR: what the message contains
	// roomy runs the test in children with the default memory limit
	// (2 GiB) rather than 384 MiB: the test is heavy but within the
	// default limit, and would run out of 384 MiB if given the time.
	roomy bool
}{
	// Go stack overflows inside the engine's recursion.
	{name: "json-parse-deep", status: product.CRASH, reason: "stack overflow"},
	{name: "eval-deep", status: product.CRASH, reason: "stack overflow"},
	// Never ends by itself.
	{name: "regex-backtracking", status: product.TIMEOUT},
	{name: "while-true", status: product.TIMEOUT},
	// Out of memory.
	{name: "string-doubling", status: product.CRASH, reason: "out of memory"},
	{name: "allocate-until-oom", status: product.CRASH, reason: "out of memory"},
	{name: "postmessage-deep", status: product.CRASH, reason: "out of memory"},
	{name: "many-workers", status: product.CRASH, reason: "out of memory"},
	// JavaScript recursion is bounded: a RangeError. Deviation: browsers
	// catch it in the subtest (FAIL); here it escapes it, the harness
	// reports an ERROR and the subtest times out.
	{name: "recursion", status: product.ERROR, message: "RangeError: Maximum call stack size exceeded"},
	// Heavy, but within the default limit: the async tests never
	// complete.
	{name: "ten-thousand-workers", status: product.TIMEOUT, roomy: true},
	{name: "ten-thousand-iframes", status: product.TIMEOUT, roomy: true},
	{name: "many-popups", status: product.TIMEOUT, roomy: true},
	// A million held locks need more than the 384 MiB the children get here.
	{name: "million-locks.https", status: product.CRASH, reason: "out of memory"},
}

// The isolated go product ends every hostile test with its exact status
// (a test that does not finish is a TIMEOUT, a child that dies a CRASH
// with its reason, never an ERROR), runs through product.SafeRun as the
// runner does (the child's own timer fires before the runner's deadline),
// and the next test of the same product passes.
func TestHostileTestsCostOnlyTheirOwnResult(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes and runs hostile tests; skipped in -short mode")
	}
	root := tree(t)
	srv, err := server.Start(server.Config{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	const grace = 2 * time.Second
	p := isolate.New(isolate.Options{Product: "go", MemoryLimit: 384 << 20, MaxStack: 64 << 20, Grace: grace}).(*isolate.Isolated)
	roomy := isolate.New(isolate.Options{Product: "go", MaxStack: 64 << 20, Grace: grace}).(*isolate.Isolated)
	for _, p := range []*isolate.Isolated{p, roomy} {
		if err := p.Start(context.Background(), srv.Env(1, t.Logf)); err != nil {
			t.Fatal(err)
		}
		defer p.Close()
	}

	tests, _, err := manifest.Discover(root, []string{"hostile"})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]manifest.Test{}
	for _, tc := range tests {
		byID[tc.ID] = tc
	}
	run := func(p *isolate.Isolated, name string, timeout time.Duration) product.TestResult {
		tc, ok := byID["/hostile/"+name+".window.html"]
		if !ok {
			t.Fatalf("no test %s in %v", name, tests)
		}
		return product.SafeRun(context.Background(), p, product.TestRequest{ID: tc.ID, URL: srv.URL(tc), Global: tc.Global, Timeout: timeout}, grace)
	}
	checkOK := func(t *testing.T, after string) {
		t.Helper()
		r := run(p, "ok", 30*time.Second)
		if r.Status != product.OK || len(r.Subtests) != 1 || r.Subtests[0].Status != product.PASS {
			t.Errorf("the test after %s: %s %s %+v", after, r.Status, r.Message, r.Subtests)
		}
	}
	checkOK(t, "start-up")
	for _, c := range hostileCases {
		t.Run(c.name, func(t *testing.T) {
			prod := p
			if c.roomy {
				prod = roomy
			}
			before := prod.Processes()
			timeout := time.Minute // ends well before: a CRASH or a result
			if c.status == product.TIMEOUT {
				timeout = time.Second
			}
			start := time.Now()
			r := run(prod, c.name, timeout)
			took := time.Since(start)
			t.Logf("%s: %s in %v: %.300s", c.name, r.Status, took.Round(time.Millisecond), r.Message)
			switch {
			case r.Status != c.status:
				t.Errorf("%s: %s %q %+v, want %s", c.name, r.Status, r.Message, r.Subtests, c.status)
			case c.status == product.CRASH && !strings.HasPrefix(r.Message, c.reason+": "):
				t.Errorf("%s: CRASH %q, want the reason %q", c.name, r.Message, c.reason)
			case c.status == product.ERROR && !strings.Contains(r.Message, c.message):
				t.Errorf("%s: ERROR %q, want it to say %q", c.name, r.Message, c.message)
			case c.status == product.OK && (len(r.Subtests) != 1 || r.Subtests[0].Status != c.subtest):
				t.Errorf("%s: subtests %+v, want one %s", c.name, r.Subtests, c.subtest)
			case c.status == product.TIMEOUT && took > timeout+3*grace:
				t.Errorf("%s: TIMEOUT after %v, long past the runner's deadline of %v", c.name, took, timeout+grace)
			}
			if r.Status == product.TIMEOUT || r.Status == product.CRASH {
				// The process that ran the test is gone: nothing it started
				// (a backtracking match) keeps a core busy.
				for _, pid := range before {
					if alive(pid) {
						t.Errorf("%s: process %d still alive after %s", c.name, pid, r.Status)
					}
				}
			}
			checkOK(t, c.name)
		})
	}
}
