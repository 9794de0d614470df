package goproduct

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/wpt-runner/manifest"
	"github.com/gowebengine/weblocks/wpt-runner/product"
	"github.com/gowebengine/weblocks/wpt-runner/server"
	"github.com/gowebengine/weblocks/wpt-runner/suite"
)

// TestBundledSuite runs the bundled Web Locks suite in the go product and
// reports per-file results. Every file must reach a harness status other
// than CRASH/TIMEOUT, and every crash test PASS; subtest failures are engine (weblocks/bindings)
// conformance gaps and are logged, not failed here — the runner compares
// them with Chromium.
func TestBundledSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	srv, err := server.Start(server.Config{Root: suite.Root()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	p := New(Options{})
	if err := p.Start(context.Background(), srv.Env(1, t.Logf)); err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	tests, _, err := manifest.Discover(suite.Root(), nil)
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(tests, func(i, j int) bool { return tests[i].ID < tests[j].ID })
	var lines []string
	pass, total := 0, 0
	for _, tc := range tests {
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		r := product.SafeRun(ctx, p, product.TestRequest{ID: tc.ID, URL: srv.URL(tc), Global: tc.Global, Timeout: 10 * time.Second, Crashtest: tc.Crashtest}, 2*time.Second)
		cancel()
		n := 0
		for _, s := range r.Subtests {
			if s.Status == product.PASS {
				n++
			} else {
				t.Logf("%s: %q %s %s", tc.ID, s.Name, s.Status, s.Message)
			}
		}
		pass += n
		total += len(r.Subtests)
		lines = append(lines, fmt.Sprintf("%-60s %-8s %3d/%-3d %s", tc.ID, r.Status, n, len(r.Subtests), r.Message))
		if r.Status == product.CRASH || r.Status == product.TIMEOUT || tc.Crashtest && r.Status != product.PASS {
			t.Errorf("%s: %s %s\n%s", tc.ID, r.Status, r.Message, r.Stack)
		}
	}
	t.Logf("bundled suite in the go product: %d/%d subtests pass\n%s", pass, total, strings.Join(lines, "\n"))
}
