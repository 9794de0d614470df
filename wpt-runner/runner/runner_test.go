package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/wpt-runner/isolate"
	"github.com/gowebengine/weblocks/wpt-runner/product"
)

func TestMain(m *testing.M) {
	isolate.MaybeChild() // children of --isolate are this test binary
	os.Exit(m.Run())
}

// fakeProduct fetches each test URL through the runner's client (so the
// server and host mapping are exercised) and decides the outcome from the
// test's name.
type fakeProduct struct {
	name string
	env  *product.Env
	hang chan struct{}
}

func (f *fakeProduct) Name() string    { return f.name }
func (f *fakeProduct) Version() string { return "1.0" }
func (f *fakeProduct) Close() error    { return nil }
func (f *fakeProduct) Start(ctx context.Context, env *product.Env) error {
	f.env = env
	return nil
}

func (f *fakeProduct) RunTest(ctx context.Context, req product.TestRequest) product.TestResult {
	select {
	case fakeRan <- struct{}{}:
	default:
	}
	resp, err := f.env.HTTPClient.Get(req.URL)
	if err != nil {
		return product.TestResult{Status: product.ERROR, Message: err.Error()}
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !bytes.Contains(body, []byte("testharness")) {
		return product.TestResult{Status: product.ERROR, Message: "bad wrapper " + resp.Status}
	}
	switch {
	case strings.Contains(req.ID, "panic"):
		panic("engine bug")
	case strings.Contains(req.ID, "exit"):
		// A fatal error in the engine: only ever run isolated.
		fmt.Fprintln(os.Stderr, "fatal error: the engine fell over")
		os.Exit(7)
	case strings.Contains(req.ID, "hang"):
		select {
		case hangStarted <- struct{}{}:
		default:
		}
		<-f.hang // wedged, ignores ctx
	case strings.Contains(req.ID, "differ") && f.name == "fake2":
		return product.TestResult{Status: product.OK, Subtests: []product.SubtestResult{{Name: "a", Status: product.PASS}, {Name: "b", Status: product.PASS}}}
	case strings.Contains(req.ID, "differ"):
		return product.TestResult{Status: product.OK, Subtests: []product.SubtestResult{{Name: "a", Status: product.PASS}, {Name: "b", Status: product.FAIL, Message: "b broke"}}}
	}
	return product.TestResult{Status: product.OK, Subtests: []product.SubtestResult{{Name: "a " + req.Global, Status: product.PASS}}}
}

// slowStart is a product that starts only once the fake product has run a
// test (or fails to start after a while), and fails to start when its name
// says so.
type slowStart struct{ fakeProduct }

func (s *slowStart) Start(ctx context.Context, env *product.Env) error {
	s.env = env
	if s.name == "failstart" {
		return errors.New("no such browser")
	}
	select {
	case <-fakeRan:
		return nil
	case <-time.After(10 * time.Second):
		return errors.New("the fake product ran no test while this one started")
	}
}

var (
	fakeRan     = make(chan struct{}, 1)
	hang        = make(chan struct{})
	hangStarted = make(chan struct{}, 1)
)

func init() {
	for _, n := range []string{"fake", "fake2"} {
		product.Register(product.Factory{Name: n, New: func(product.Config) (product.Product, error) {
			return &fakeProduct{name: n, hang: hang}, nil
		}})
	}
}

func init() {
	for _, n := range []string{"slowstart", "failstart"} {
		product.Register(product.Factory{Name: n, New: func(product.Config) (product.Product, error) {
			return &slowStart{fakeProduct{name: n, hang: hang}}, nil
		}})
	}
}

// The products start at the same time, and one runs its tests while
// another is still starting; a product that fails to start fails the run.
func TestProductsStartConcurrently(t *testing.T) {
	root := writeTree(t, map[string]string{"a/1.window.js": "test(()=>{});\n", "a/2.window.js": "test(()=>{});\n"})
	select {
	case <-fakeRan:
	default:
	}
	code, out, errOut := runCmd(t, "--wpt-root", root, "--products", "slowstart,fake", "--jobs", "1")
	if code != 0 || !strings.Contains(out, "slowstart: 2 tests, 2/2 subtests passed") || !strings.Contains(out, "fake: 2 tests, 2/2 subtests passed") {
		t.Errorf("exit code %d:\n%s\n%s", code, out, errOut)
	}
	code, _, errOut = runCmd(t, "--wpt-root", root, "--products", "fake,failstart", "--jobs", "1")
	if code != ExitFailed || !strings.Contains(errOut, "starting failstart: no such browser") {
		t.Errorf("exit code %d:\n%s", code, errOut)
	}
}

// writeTree writes files into a new directory, with an empty
// resources/testharness.js unless files has one (or maps it to "-", for
// none).
func writeTree(t *testing.T, files map[string]string) string {
	dir := t.TempDir()
	if _, ok := files["resources/testharness.js"]; !ok {
		files["resources/testharness.js"] = ""
	}
	if files["resources/testharness.js"] == "-" {
		delete(files, "resources/testharness.js")
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestRunCompareAndReports(t *testing.T) {
	root := writeTree(t, map[string]string{
		"resources/testharness.js": "",
		"a/pass.any.js":            "test(()=>{});\n",
		"a/differ.window.js":       "test(()=>{});\n",
		"a/resources/x.any.js":     "test(()=>{});\n",
	})
	reports := filepath.Join(t.TempDir(), "out")
	code, out, errOut := runCmd(t, "--wpt-root", root, "--products", "fake,fake2", "--report-dir", reports, "a")
	if code != 1 {
		t.Errorf("exit code %d, want 1 (b FAILs in fake)\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"/a/differ.window.html    1/2   2/2",
		"/a/pass.any.html         1/1   1/1",
		"/a/pass.any.worker.html  1/1   1/1",
		"/a/differ.window.html\n  b:\n      fake:      FAIL: b broke\n      fake2:     PASS",
		"fake: 3 tests, 3/4 subtests passed, 1 unexpected results, ",
		"UNEXPECTED FAIL (expected PASS) /a/differ.window.html | b: b broke",
		"fake2: 3 tests, 4/4 subtests passed, 0 unexpected results, ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"wptreport-fake.json", "wptreport-fake2.json", "report.html"} {
		if _, err := os.Stat(filepath.Join(reports, f)); err != nil {
			t.Error(err)
		}
	}
	var rep struct {
		RunInfo map[string]any `json:"run_info"`
		Results []struct {
			Test     string `json:"test"`
			Status   string `json:"status"`
			Subtests []struct {
				Name, Status string
			} `json:"subtests"`
		} `json:"results"`
	}
	data, _ := os.ReadFile(filepath.Join(reports, "wptreport-fake.json"))
	if err := json.Unmarshal(data, &rep); err != nil || rep.RunInfo["product"] != "fake" || len(rep.Results) != 3 || rep.Results[0].Test != "/a/differ.window.html" {
		t.Errorf("wptreport: %v %s", err, data)
	}

	// With expectations the failure is expected: exit 0.
	exp := writeTree(t, map[string]string{"a/differ.window.js.ini": "[differ.window.html]\n  [b]\n    expected:\n      if product == \"fake\": FAIL\n"})
	logFile := filepath.Join(t.TempDir(), "one.json")
	code, out, errOut = runCmd(t, "--wpt-root", root, "--products", "fake", "--expectations", exp, "--log-wptreport", logFile, filepath.Join(root, "a", "differ.window.js"))
	if code != 0 {
		t.Errorf("exit code %d with expectations\n%s\n%s", code, out, errOut)
	}
	data, _ = os.ReadFile(logFile)
	if !bytes.Contains(data, []byte(`"test": "/a/differ.window.html"`)) || bytes.Contains(data, []byte(`pass.any`)) {
		t.Errorf("--log-wptreport: %s", data)
	}
}

func TestRunCrashAndTimeoutDoNotStopTheRun(t *testing.T) {
	root := writeTree(t, map[string]string{
		"a/1-panic.window.js": "test(()=>{});\n",
		"a/2-hang.window.js":  "test(()=>{});\n",
		"a/3-pass.window.js":  "test(()=>{});\n",
	})
	code, out, errOut := runCmd(t, "--wpt-root", root, "--products", "fake", "--jobs", "1", "--timeout-multiplier", "0.01", "--grace", "100ms")
	if code != 1 {
		t.Errorf("exit code %d", code)
	}
	for _, want := range []string{
		"/a/1-panic.window.html  0/0 CRASH",
		"/a/2-hang.window.html   0/0 TIMEOUT",
		"/a/3-pass.window.html   1/1",
		"UNEXPECTED CRASH (expected OK) /a/1-panic.window.html | (harness status): panic: engine bug",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s\n%s", want, out, errOut)
		}
	}
}

// An isolated product's fatal error costs only the test in progress.
func TestIsolatedCrashDoesNotStopTheRun(t *testing.T) {
	root := writeTree(t, map[string]string{
		"a/1-exit.window.js":  "test(()=>{});\n",
		"a/2-pass.window.js":  "test(()=>{});\n",
		"a/3-exit.window.js":  "test(()=>{});\n",
		"a/4-pass.window.js":  "test(()=>{});\n",
		"a/5-panic.window.js": "test(()=>{});\n",
		"a/6-pass.window.js":  "test(()=>{});\n",
	})
	code, out, errOut := runCmd(t, "--wpt-root", root, "--products", "fake", "--isolate", "fake", "--jobs", "1")
	if code != 1 {
		t.Errorf("exit code %d", code)
	}
	for _, want := range []string{
		"/a/1-exit.window.html   0/0 CRASH",
		"/a/2-pass.window.html   1/1",
		"/a/3-exit.window.html   0/0 CRASH",
		"/a/4-pass.window.html   1/1",
		"/a/5-panic.window.html  0/0 CRASH",
		"/a/6-pass.window.html   1/1",
		"fatal error: the engine fell over",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s\n%s", want, out, errOut)
		}
	}
}

func TestArgErrors(t *testing.T) {
	root := writeTree(t, map[string]string{"a/x.window.js": ""})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--products", "nope"}, "unknown product"},
		{[]string{"--wpt-root", root, "--products", "fake", "missing"}, "no test or directory"},
		{[]string{"--wpt-root", "/nonexistent"}, "not a directory"},
		{[]string{"--wpt-root", root, "--products", "fake,fake2", "--log-wptreport", "x.json"}, "one product"},
		{[]string{"--timeout-multiplier", "0"}, "positive"},
		{[]string{"--wpt-root", root, "--products", "fake", "--expectations", "/nonexistent"}, "--expectations"},
		{[]string{"--wpt-root", root, "--products", "fake", "/etc"}, "outside --wpt-root"},
		{[]string{"--wpt-root", writeTree(t, map[string]string{"resources/testharness.js": "-", "a/x.window.js": ""}), "--products", "fake"}, "has no resources/testharness.js"},
	} {
		code, _, errOut := runCmd(t, tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: code %d, stderr %q, want %q", tc.args, code, errOut, tc.want)
		}
	}
}

func TestDefaultProductsAndPlaceholder(t *testing.T) {
	// The bundled suite runs by default; without --products the go product
	// runs, and chromium only when installed (with a message otherwise).
	code, out, errOut := runCmd(t, "--chromium", "/nonexistent/chromium", "--timeout-multiplier", "0.3", "--grace", "1s", "web-locks/mode.https.any.js")
	if !strings.Contains(errOut, "not running the chromium product") || !strings.Contains(errOut, "apt-get install -y chromium") {
		t.Errorf("no chromium message: %s", errOut)
	}
	if !strings.Contains(out, "/web-locks/mode.https.any.html") || !strings.Contains(out, "go:") {
		t.Errorf("output: %s", out)
	}
	if f, _ := product.Lookup("go"); f.Placeholder && code != 1 {
		t.Errorf("placeholder go product: exit %d, want 1", code)
	}
}

func TestFlagsValidatedUpFront(t *testing.T) {
	root := writeTree(t, map[string]string{"a/x.window.js": "test(()=>{});\n"})
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--timeout-multiplier", "NaN"}, "--timeout-multiplier must be a positive number"},
		{[]string{"--timeout-multiplier", "Inf"}, "--timeout-multiplier must be a positive number"},
		{[]string{"--timeout-multiplier", "1e9"}, "no larger than 100"},
		{[]string{"--timeout-multiplier", "-1"}, "--timeout-multiplier must be a positive number"},
		{[]string{"--grace", "-1s"}, "--grace must be between 0"},
		{[]string{"--jobs", "0"}, "--jobs must be between 1"},
		{[]string{"--total-chunks", "0"}, "--total-chunks must be between 1"},
		{[]string{"--total-chunks", "2", "--this-chunk", "3"}, "--this-chunk must be between 1 and --total-chunks (2)"},
		{[]string{"--this-chunk", "0"}, "--this-chunk must be between 1"},
		{[]string{"--child-memory-limit", "1"}, "--child-memory-limit"},
		{[]string{"--wpt-root", root, "--products", "fake", "--report-dir", filepath.Join(file, "sub")}, "--report-dir"},
		{[]string{"--wpt-root", root, "--products", "fake", "--log-wptreport", filepath.Join(t.TempDir(), "no", "such", "dir.json")}, "--log-wptreport"},
	} {
		code, out, errOut := runCmd(t, tc.args...)
		if code != ExitFailed || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: code %d, stderr %q, want %q", tc.args, code, errOut, tc.want)
		}
		// Nothing ran.
		if strings.Contains(errOut, "serving") || out != "" {
			t.Errorf("%v: the run started:\n%s%s", tc.args, out, errOut)
		}
	}
}

func TestChunksAsWptrunnerHash(t *testing.T) {
	// int(hashlib.md5(path).hexdigest(), 16) % total, as wptrunner's
	// PathHashChunker computes it, for a few paths.
	for _, tc := range []struct {
		source string
		mod    []int // for 2, 3 and 7 chunks
	}{
		{"web-locks/query.https.any.js", []int{1, 1, 0}},
		{"a/1.window.js", []int{0, 0, 0}},
		{"a/2.window.js", []int{1, 1, 2}},
		{"a/3.any.js", []int{1, 2, 2}},
	} {
		for i, total := range []int{2, 3, 7} {
			for chunk := 1; chunk <= total; chunk++ {
				if got, want := inChunk(tc.source, chunk, total), chunk-1 == tc.mod[i]; got != want {
					t.Errorf("%s in chunk %d of %d: %v", tc.source, chunk, total, got)
				}
			}
		}
	}

	// Two chunks on two "machines", merged into one report.
	root := writeTree(t, map[string]string{
		"a/1.window.js":   "test(()=>{});\n",
		"a/2.window.js":   "test(()=>{});\n",
		"a/3.any.js":      "test(()=>{});\n",
		"a/differ.any.js": "test(()=>{});\n",
	})
	var files []string
	seen := map[string]int{}
	for chunk := 1; chunk <= 2; chunk++ {
		dir := filepath.Join(t.TempDir(), "out")
		code, out, errOut := runCmd(t, "--wpt-root", root, "--products", "fake,fake2", "--report-dir", dir,
			"--total-chunks", "2", "--this-chunk", strconv.Itoa(chunk))
		if code != ExitOK && code != ExitUnexpected {
			t.Fatalf("chunk %d: exit %d\n%s%s", chunk, code, out, errOut)
		}
		for _, id := range []string{"/a/1.window.html", "/a/2.window.html", "/a/3.any.html", "/a/3.any.worker.html", "/a/differ.any.html"} {
			if strings.Contains(out, id+" ") {
				seen[id]++
			}
		}
		files = append(files, filepath.Join(dir, "wptreport-fake.json"), filepath.Join(dir, "wptreport-fake2.json"))
	}
	for _, id := range []string{"/a/1.window.html", "/a/2.window.html", "/a/3.any.html", "/a/3.any.worker.html", "/a/differ.any.html"} {
		if seen[id] != 1 {
			t.Errorf("%s ran in %d chunks", id, seen[id])
		}
	}
	merged := filepath.Join(t.TempDir(), "merged")
	var out, errOut bytes.Buffer
	code := runMerge(append([]string{"--report-dir", merged}, files...), &out, &errOut)
	if code != ExitUnexpected { // differ FAILs in fake
		t.Errorf("merge: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	html, err := os.ReadFile(filepath.Join(merged, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"/a/1.window.html", "/a/2.window.html", "/a/3.any.html", "/a/3.any.worker.html", "/a/differ.any.html"} {
		if !strings.Contains(string(html), `data-test="`+id+`"`) {
			t.Errorf("merged report.html lacks %s", id)
		}
	}
	if !strings.Contains(out.String(), "fake: 6 tests") || !strings.Contains(out.String(), "fake2: 6 tests") {
		t.Errorf("merge output:\n%s", out.String())
	}
	if code := runMerge(append([]string{"--report-dir", merged}, files[0], files[0]), io.Discard, &errOut); code != ExitFailed || !strings.Contains(errOut.String(), "already") {
		t.Errorf("merging a file twice: exit %d %s", code, errOut.String())
	}
}

func TestInterruptWritesResultsSoFar(t *testing.T) {
	root := writeTree(t, map[string]string{
		"a/1-pass.window.js": "test(()=>{});\n",
		"a/2-hang.window.js": "test(()=>{});\n",
		"a/3-pass.window.js": "test(()=>{});\n",
	})
	dir := filepath.Join(t.TempDir(), "out")
	select {
	case <-hangStarted: // left by an earlier test
	default:
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-hangStarted // the signal arrives while the second test runs
		cancel()
	}()
	var out, errOut bytes.Buffer
	code := Run(ctx, []string{"--wpt-root", root, "--products", "fake", "--jobs", "1", "--report-dir", dir}, &out, &errOut)
	if code != ExitInterrupted {
		t.Errorf("exit %d, want %d\n%s%s", code, ExitInterrupted, out.String(), errOut.String())
	}
	data, err := os.ReadFile(filepath.Join(dir, "wptreport-fake.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Results []struct{ Test, Status string } `json:"results"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range rep.Results {
		got[r.Test] = r.Status
	}
	want := map[string]string{"/a/1-pass.window.html": "OK", "/a/2-hang.window.html": "SKIP", "/a/3-pass.window.html": "SKIP"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("results %v, want %v", got, want)
	}
	if !strings.Contains(out.String(), "interrupted: 2 test runs not run") {
		t.Errorf("output:\n%s", out.String())
	}
}

func TestExpectationWarningsAndMarks(t *testing.T) {
	root := writeTree(t, map[string]string{
		"resources/testharness.js": "",
		"a/differ.window.js":       "test(()=>{});\n",
	})
	exp := writeTree(t, map[string]string{
		"a/differ.window.js.ini": "[differ.window.html]\n  [b]\n    expected:\n      if product == \"fake\": FAIL\n  [gone]\n    expected: FAIL\n[old.window.html]\n  expected: ERROR\n",
	})
	code, out, errOut := runCmd(t, "--wpt-root", root, "--products", "fake,fake2", "--expectations", exp)
	if code != ExitOK {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"warning: expectations: a/differ.window.js.ini: [differ.window.html] has no subtest [gone]",
		"warning: expectations: a/differ.window.js.ini: [old.window.html] is not a test of a/differ.window.js",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if !strings.Contains(out, "fake:      FAIL (expected): b broke") {
		t.Errorf("the expected failure is not marked:\n%s", out)
	}
	bad := writeTree(t, map[string]string{"a/differ.window.js.ini": "[differ.window.html]\n  [b]\n    expected: FAILED\n"})
	if code, _, errOut := runCmd(t, "--wpt-root", root, "--products", "fake", "--expectations", bad); code != ExitFailed || !strings.Contains(errOut, `invalid status "FAILED"`) {
		t.Errorf("invalid status: exit %d %s", code, errOut)
	}
}

// --help lists the subcommands and the registered products.
func TestHelpListsProductsAndSubcommands(t *testing.T) {
	code, out, errOut := runCmd(t, "--help")
	if code != ExitOK {
		t.Errorf("exit %d", code)
	}
	for _, want := range []string{"merge", "Products (--products):", "  go ", "isolated by default", "  chromium ", "  fake ", "-wpt-root"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("--help lacks %q:\n%s%s", want, out, errOut)
		}
	}
}

// Crash tests run in the go product (isolated) without testharness.js in
// the tree; they PASS or TIMEOUT, appear in the table, the summary and the
// wptreport, and expectations apply to them.
func TestCrashtestsRun(t *testing.T) {
	root := writeTree(t, map[string]string{
		"resources/testharness.js": "-",
		"a/crashtests/ok.html":     `<!DOCTYPE html><html class="test-wait"><script>setTimeout(() => document.documentElement.removeAttribute("class"), 10);</script>`,
		"a/stuck-crash.html":       `<!DOCTYPE html><html class="test-wait"><p>never finishes`,
	})
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errOut := runCmd(t, "--wpt-root", root, "--products", "go", "--timeout-multiplier", "0.1", "--grace", "1s", "--report-dir", dir)
	if code != ExitUnexpected {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	for _, want := range []string{
		"/a/crashtests/ok.html  PASS",
		"/a/stuck-crash.html    TIMEOUT",
		"go: 2 tests, 0/0 subtests passed, 1/2 crash tests passed, 1 unexpected results",
		"UNEXPECTED TIMEOUT (expected PASS) /a/stuck-crash.html",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s%s", want, out, errOut)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "wptreport-go.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"test": "/a/crashtests/ok.html",
   "status": "PASS"`)) {
		t.Errorf("wptreport:\n%s", data)
	}
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil || !bytes.Contains(html, []byte(`data-test="/a/stuck-crash.html"`)) || !bytes.Contains(html, []byte(`data-test="/a/crashtests/ok.html"`)) {
		t.Errorf("report.html lacks the crash tests: %v", err)
	}
	exp := writeTree(t, map[string]string{"a/stuck-crash.html.ini": "[stuck-crash.html]\n  expected: TIMEOUT\n"})
	if code, out, errOut := runCmd(t, "--wpt-root", root, "--products", "go", "--timeout-multiplier", "0.1", "--grace", "1s", "--expectations", exp); code != ExitOK {
		t.Errorf("with expectations: exit %d\n%s%s", code, out, errOut)
	}
}
