package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/wpt-runner/isolate"
	"github.com/gowebengine/weblocks/wpt-runner/runner"
	"github.com/gowebengine/weblocks/wpt-runner/suite"
)

func TestMain(m *testing.M) {
	isolate.MaybeChild() // the product's child processes are this test binary
	os.Exit(m.Run())
}

// The example's product runs, in child processes, a bundled test and the
// example's own test of its Greeting interface and fetcher; --help lists
// it.
func TestThirdPartyProduct(t *testing.T) {
	run := func(args ...string) (int, string, string) {
		t.Helper()
		var out, errOut bytes.Buffer
		code := runner.Run(context.Background(), args, &out, &errOut)
		return code, out.String(), errOut.String()
	}

	// One test of the bundled suite.
	dir := t.TempDir()
	code, out, errOut := run("--products", "go-greeting", "--report-dir", dir, "/web-locks/mode.https.any.html")
	if code != runner.ExitOK || !strings.Contains(out, "go-greeting: 1 tests") {
		t.Errorf("bundled test: exit %d\n%s%s", code, out, errOut)
	}
	data, err := os.ReadFile(filepath.Join(dir, "wptreport-go-greeting.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		RunInfo map[string]any `json:"run_info"`
		Results []struct{ Test, Status string }
	}
	if err := json.Unmarshal(data, &rep); err != nil || rep.RunInfo["product"] != "go-greeting" || len(rep.Results) != 1 || rep.Results[0].Status != "OK" {
		t.Errorf("wptreport: %v %s", err, data)
	}

	// The example's own test, in a tree with the bundled harness.
	root := t.TempDir()
	harness, err := fs.ReadFile(suite.Root(), "resources/testharness.js")
	if err != nil {
		t.Fatal(err)
	}
	test, err := os.ReadFile(filepath.Join("testdata", "greeting", "greeting.window.js"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"resources/testharness.js": harness, "greeting/greeting.window.js": test} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut = run("--wpt-root", root, "--products", "go-greeting,go")
	if code != runner.ExitUnexpected {
		t.Errorf("greeting test: exit %d, want 1 (the go product has no Greeting)\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"go-greeting: 1 tests, 2/2 subtests passed",
		"go: 1 tests, 0/2 subtests passed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s%s", want, out, errOut)
		}
	}
}
