// Package hostile is a suite of hostile tests run against the go product
// in child processes (package isolate): each must end as CRASH, TIMEOUT or
// FAIL for that test alone, and the next test of the same run must pass.
package hostile

import (
	"context"
	"embed"
	"io/fs"
	"os"
	"strconv"
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
	const grace = 500 * time.Millisecond
	p := isolate.New(isolate.Options{Product: "go", MemoryLimit: 384 << 20, MaxStack: 64 << 20, Grace: grace}).(*isolate.Isolated)
	if err := p.Start(context.Background(), srv.Env(1, t.Logf)); err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	tests, _, err := manifest.Discover(root, []string{"hostile"})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]manifest.Test{}
	for _, tc := range tests {
		byID[tc.ID] = tc
	}
	run := func(name string) product.TestResult {
		tc, ok := byID["/hostile/"+name+".window.html"]
		if !ok {
			t.Fatalf("no test %s in %v", name, tests)
		}
		return p.RunTest(context.Background(), product.TestRequest{ID: tc.ID, URL: srv.URL(tc), Global: tc.Global, Timeout: 2 * time.Second})
	}
	checkOK := func(after string) {
		t.Helper()
		r := run("ok")
		if r.Status != product.OK || len(r.Subtests) != 1 || r.Subtests[0].Status != product.PASS {
			t.Errorf("the test after %s: %s %s %+v", after, r.Status, r.Message, r.Subtests)
		}
	}
	checkOK("start-up")
	for _, name := range []string{"json-parse-deep", "eval-deep", "regex-backtracking", "string-doubling", "recursion", "postmessage-deep", "many-workers"} {
		before := p.Processes()
		start := time.Now()
		r := run(name)
		ok := r.Status == product.CRASH || r.Status == product.TIMEOUT || r.Status == product.ERROR
		for _, st := range r.Subtests {
			if st.Status == product.FAIL || st.Status == product.TIMEOUT {
				ok = true
			}
			if st.Status == product.PASS {
				ok = false
			}
		}
		if !ok {
			t.Errorf("%s: %s %q %+v", name, r.Status, r.Message, r.Subtests)
		}
		t.Logf("%s: %s in %v: %.300s", name, r.Status, time.Since(start).Round(time.Millisecond), r.Message)
		if r.Status == product.TIMEOUT || r.Status == product.CRASH {
			// The process that ran the test is gone: nothing it started
			// (a backtracking match) keeps a core busy.
			for _, pid := range before {
				if alive(pid) {
					t.Errorf("%s: process %d still alive after %s", name, pid, r.Status)
				}
			}
		}
		checkOK(name)
	}
}
