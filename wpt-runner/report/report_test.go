package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/internal/testenv"
	"github.com/gowebengine/weblocks/wpt-runner/product"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	testenv.Golden(t, filepath.Join("testdata", name), got, *update)
}

// sampleRuns are two products' results on three tests.
func sampleRuns() (*Run, *Run) {
	t0 := time.UnixMilli(1700000000000)
	goRun := &Run{Product: "go", Version: "dev", TimeStart: t0, TimeEnd: t0.Add(5 * time.Second), Results: map[string]product.TestResult{
		"/web-locks/a.https.any.html": {Status: product.OK, Duration: 120 * time.Millisecond, Subtests: []product.SubtestResult{
			{Name: "grant order", Status: product.PASS},
			{Name: "steal", Status: product.FAIL, Message: "assert_equals: expected 1 but got 2"},
		}},
		"/web-locks/a.https.any.worker.html": {Status: product.CRASH, Message: "panic: boom", Duration: time.Second},
		"/web-locks/b.https.any.html?x=1": {Status: product.OK, Subtests: []product.SubtestResult{
			{Name: "same", Status: product.PASS},
		}},
	}}
	chRun := &Run{Product: "chromium", Version: "Chromium 156", TimeStart: t0, TimeEnd: t0.Add(7 * time.Second), Results: map[string]product.TestResult{
		"/web-locks/a.https.any.html": {Status: product.OK, Duration: 80 * time.Millisecond, Subtests: []product.SubtestResult{
			{Name: "grant order", Status: product.PASS},
			{Name: "steal", Status: product.PASS},
			{Name: "only in chromium", Status: product.TIMEOUT, Message: "Test timed out"},
		}},
		"/web-locks/a.https.any.worker.html": {Status: product.OK, Subtests: []product.SubtestResult{
			{Name: "grant order", Status: product.PASS},
		}},
		"/web-locks/b.https.any.html?x=1": {Status: product.OK, Subtests: []product.SubtestResult{
			{Name: "same", Status: product.PASS},
		}},
	}}
	return goRun, chRun
}

func TestWPTReport(t *testing.T) {
	goRun, _ := sampleRuns()
	var buf bytes.Buffer
	if err := WriteWPTReport(&buf, goRun, nil); err != nil {
		t.Fatal(err)
	}
	out := strings.Replace(buf.String(), `"processor": "`+runtimeArch()+`"`, `"processor": "ARCH"`, 1)
	golden(t, "wptreport-go.json", out)
	// The format's required fields are there and typed as wptrunner writes them.
	var generic map[string]any
	if err := json.Unmarshal(buf.Bytes(), &generic); err != nil {
		t.Fatal(err)
	}
	if generic["run_info"].(map[string]any)["product"] != "go" || generic["time_start"].(float64) != 1700000000000 {
		t.Errorf("run_info/time_start: %v", generic)
	}
	res := generic["results"].([]any)[0].(map[string]any)
	if res["test"] != "/web-locks/a.https.any.html" || res["message"] != nil || res["duration"].(float64) != 120 {
		t.Errorf("result: %v", res)
	}
	// Round trip.
	back, err := ReadWPTReport(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range goRun.Results {
		got := back.Results[id]
		want.Duration = want.Duration.Truncate(time.Millisecond)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: got %+v, want %+v", id, got, want)
		}
	}
	if back.Product != "go" || back.Version != "dev" {
		t.Errorf("run info lost: %+v", back)
	}
}

func TestWPTReportExpected(t *testing.T) {
	goRun, _ := sampleRuns()
	exp := NewExpectations(fstest.MapFS{
		"web-locks/a.https.any.js.ini": {Data: []byte("[a.https.any.html]\n  [steal]\n    expected: [PASS, FAIL]\n  [grant order]\n    expected: FAIL\n")},
	})
	var buf bytes.Buffer
	if err := WriteWPTReport(&buf, goRun, exp); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	// "grant order" PASSed but FAIL was expected; "steal" FAIL is allowed
	// as intermittent; the CRASH was expected to be OK.
	if !strings.Contains(s, `"name": "grant order",
     "status": "PASS",
     "message": null,
     "expected": "FAIL"`) || strings.Count(s, `"expected"`) != 2 || !strings.Contains(s, `"expected": "OK"`) {
		t.Errorf("expected fields wrong:\n%s", s)
	}
}

func TestCompareTableAndDifferences(t *testing.T) {
	goRun, chRun := sampleRuns()
	cmp := Compare([]*Run{goRun, chRun})
	var buf bytes.Buffer
	cmp.WriteTable(&buf)
	buf.WriteString("--\n")
	n := cmp.WriteDifferences(&buf)
	golden(t, "compare.txt", buf.String())
	if n != 4 || cmp.DiffCount() != 4 {
		t.Errorf("differences = %d / %d, want 4", n, cmp.DiffCount())
	}
	if cmp.Tests[2].Differs {
		t.Error("identical test marked as differing")
	}
}

func TestHTML(t *testing.T) {
	goRun, chRun := sampleRuns()
	goRun.Results["/web-locks/<script>.html"] = product.TestResult{Status: product.OK, Subtests: []product.SubtestResult{{Name: "<b>x</b>", Status: product.PASS}}}
	var buf bytes.Buffer
	if err := Compare([]*Run{goRun, chRun}).WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	s := buf.String()
	if strings.Contains(s, "<b>x</b>") || strings.Contains(s, "<script>.html") {
		t.Error("names not escaped")
	}
	if got := strings.Count(s, ` diff"`); got != 6 { // 4 differences + the missing test's harness row + its subtest
		t.Errorf("%d highlighted rows, want 6", got)
	}
	golden(t, "report.html", s)
}

func TestExpectations(t *testing.T) {
	exp := NewExpectations(fstest.MapFS{
		"web-locks/a.https.any.js.ini": {Data: []byte(`# comment
[a.https.any.worker.html]
  expected:
    if product == "go": CRASH
    if (product == "chromium") and not debug: TIMEOUT
    ERROR
  bug: https://example.invalid/1
  [subtest \] with bracket]
    expected: FAIL  # trailing comment
  [intermittent]
    expected:
      if os == "linux" or product == "x": [PASS, TIMEOUT]

[a.https.any.html?x=1]
  disabled:
    if product == "go": not ready
`)},
		"web-locks/e.html.ini": {Data: []byte("[e.html]\n  expected: TIMEOUT\n")},
		"other/__dir__.ini":    {Data: []byte("disabled:\n  if product == \"go\": https://bug.invalid/2\n")},
	})
	if err := exp.Check(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		product, test, subtest string
		want                   Expected
	}{
		{"go", "/web-locks/a.https.any.worker.html", "", Expected{product.CRASH}},
		{"chromium", "/web-locks/a.https.any.worker.html", "", Expected{product.TIMEOUT}},
		{"other", "/web-locks/a.https.any.worker.html", "", Expected{product.ERROR}},
		{"go", "/web-locks/a.https.any.worker.html", "subtest ] with bracket", Expected{product.FAIL}},
		{"go", "/web-locks/a.https.any.worker.html", "intermittent", Expected{product.PASS, product.TIMEOUT}},
		{"go", "/web-locks/a.https.any.worker.html", "unlisted", Expected{product.PASS}},
		{"go", "/web-locks/a.https.any.html", "", Expected{product.OK}},
		{"go", "/web-locks/e.html", "", Expected{product.TIMEOUT}},
		{"go", "/web-locks/none.any.html", "", Expected{product.OK}},
	} {
		var got Expected
		if tc.subtest == "" {
			got = exp.Test(tc.product, tc.test)
		} else {
			got = exp.Subtest(tc.product, tc.test, tc.subtest)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s %s %q: got %v, want %v", tc.product, tc.test, tc.subtest, got, tc.want)
		}
	}
	if !exp.Disabled("go", "/web-locks/a.https.any.html?x=1") || exp.Disabled("chromium", "/web-locks/a.https.any.html?x=1") {
		t.Error("disabled")
	}
	if !exp.Disabled("go", "/other/deep/x.any.html") || exp.Disabled("chromium", "/other/x.any.html") || exp.Disabled("go", "/web-locks/e.html") {
		t.Error("__dir__.ini disabled")
	}
	var nilExp *Expectations
	if !reflect.DeepEqual(nilExp.Test("go", "/x.html"), Expected{product.OK}) || !reflect.DeepEqual(nilExp.Subtest("go", "/x.html", "s"), Expected{product.PASS}) || nilExp.Disabled("go", "/x.html") {
		t.Error("nil expectations")
	}
	bad := NewExpectations(fstest.MapFS{"x.ini": {Data: []byte("[a.html]\n  expected:\n    if product = 'go': FAIL\n")}})
	if err := bad.Check(); err == nil {
		t.Error("bad condition accepted")
	}
	bad = NewExpectations(fstest.MapFS{"x.ini": {Data: []byte("[a.html\n")}})
	if err := bad.Check(); err == nil {
		t.Error("bad heading accepted")
	}
}

func TestFindUnexpected(t *testing.T) {
	goRun, _ := sampleRuns()
	un := FindUnexpected(goRun, nil)
	if len(un) != 2 || un[0].Subtest != "steal" || un[1].Status != product.CRASH {
		t.Fatalf("got %+v", un)
	}
	exp := NewExpectations(fstest.MapFS{
		"web-locks/a.https.any.js.ini": {Data: []byte("[a.https.any.html]\n  [steal]\n    expected: FAIL\n[a.https.any.worker.html]\n  expected: CRASH\n")},
	})
	if un := FindUnexpected(goRun, exp); len(un) != 0 {
		t.Errorf("got %+v", un)
	}
	// An expected failure that passes is unexpected too.
	exp = NewExpectations(fstest.MapFS{"web-locks/b.https.any.js.ini": {Data: []byte("[b.https.any.html?x=1]\n  [same]\n    expected: FAIL\n")}})
	if un := FindUnexpected(goRun, exp); len(un) != 3 {
		t.Errorf("got %+v", un)
	}
}

func TestExpectedMarks(t *testing.T) {
	goRun, chRun := sampleRuns()
	exp := NewExpectations(fstest.MapFS{
		"web-locks/a.https.any.js.ini": {Data: []byte("[a.https.any.html]\n  [steal]\n    expected:\n      if product == \"go\": FAIL\n  [grant order]\n    expected:\n      if product == \"chromium\": FAIL\n[a.https.any.worker.html]\n  expected:\n    if product == \"go\": CRASH\n")},
	})
	cmp := CompareWith([]*Run{goRun, chRun}, exp)
	var buf bytes.Buffer
	cmp.WriteDifferences(&buf)
	out := buf.String()
	for _, want := range []string{
		"go:        FAIL (expected): assert_equals",
		"go:        CRASH (expected): panic: boom",
		"chromium:  TIMEOUT (unexpected; expected PASS): Test timed out",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("differences lack %q:\n%s", want, out)
		}
	}
	// Without expectations nothing is marked.
	buf.Reset()
	Compare([]*Run{goRun, chRun}).WriteDifferences(&buf)
	if strings.Contains(buf.String(), "expected)") || strings.Contains(buf.String(), "unexpected") {
		t.Errorf("marks without expectations:\n%s", buf.String())
	}
	buf.Reset()
	if err := cmp.WriteHTML(&buf); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	if n := strings.Count(html, `<span class="mark expected"`); n != 2 {
		t.Errorf("%d expected marks in the HTML, want 2 (go's steal FAIL and CRASH)", n)
	}
	if n := strings.Count(html, `<span class="mark unexpected"`); n != 2 {
		t.Errorf("%d unexpected marks in the HTML, want 2 (chromium's grant order PASS and its TIMEOUT)", n)
	}
}

func TestCheckRejectsInvalidStatuses(t *testing.T) {
	for _, tc := range []struct{ ini, want string }{
		{"[a.html]\n  expected: FAILED\n", `invalid status "FAILED"`},
		{"[a.html]\n  expected: PASS\n", `invalid status "PASS"`},      // a subtest status for a test
		{"[a.html]\n  [s]\n    expected: OK\n", `invalid status "OK"`}, // a harness status for a subtest
		{"[a.html]\n  [s]\n    expected:\n      if product == \"go\": [PASS, FAILED]\n", `invalid status "FAILED"`},
	} {
		err := NewExpectations(fstest.MapFS{"a.html.ini": {Data: []byte(tc.ini)}}).Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %s", tc.ini, err, tc.want)
		}
	}
	ok := "[a.html]\n  expected: [TIMEOUT, CRASH]\n  [s]\n    expected: [FAIL, NOTRUN, PRECONDITION_FAILED]\n"
	if err := NewExpectations(fstest.MapFS{"a.html.ini": {Data: []byte(ok)}}).Check(); err != nil {
		t.Error(err)
	}
}

func TestLintUnknownEntries(t *testing.T) {
	tree := fstest.MapFS{
		"web-locks/a.https.any.js": {Data: []byte("test(() => {});\n")},
	}
	exp := NewExpectations(fstest.MapFS{
		"web-locks/a.https.any.js.ini": {Data: []byte("[a.https.any.html]\n  [steal]\n    expected: FAIL\n  [renamed subtest]\n    expected: FAIL\n[a.https.any.sharedworker.html]\n  expected: ERROR\n[a.https.any.worker.html]\n  [not run so not checked]\n    expected: FAIL\n")},
		"web-locks/gone.any.js.ini":    {Data: []byte("[gone.any.html]\n  expected: ERROR\n")},
		"web-locks/__dir__.ini":        {Data: []byte("disabled: no\n")},
	})
	goRun, _ := sampleRuns()
	delete(goRun.Results, "/web-locks/a.https.any.worker.html")
	got := exp.Lint(tree, []*Run{goRun})
	want := []string{
		"web-locks/a.https.any.js.ini: [a.https.any.html] has no subtest [renamed subtest]",
		"web-locks/a.https.any.js.ini: [a.https.any.sharedworker.html] is not a test of web-locks/a.https.any.js",
		"web-locks/gone.any.js.ini: no test source web-locks/gone.any.js in the tree",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Lint:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A crash test is expected to PASS (not OK), has no subtests, and its
// expectations take crash test statuses.
func TestCrashtests(t *testing.T) {
	const pass, crash = "/web-locks/crashtests/a.https.html", "/web-locks/b-crash.html"
	r := &Run{Product: "go", Results: map[string]product.TestResult{
		pass:                       {Status: product.PASS},
		crash:                      {Status: product.CRASH, Message: "panic in the engine"},
		"/web-locks/c.any.html":    {Status: product.OK},
		"/web-locks/d.window.html": {Status: product.PASS}, // a testharness test cannot PASS
	}}
	got := map[string]Expected{}
	for _, u := range FindUnexpected(r, nil) {
		got[u.Test] = u.Expected
	}
	want := map[string]Expected{crash: {product.PASS}, "/web-locks/d.window.html": {product.OK}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("unexpected: %v, want %v", got, want)
	}
	var buf bytes.Buffer
	if err := WriteWPTReport(&buf, r, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"test": "/web-locks/crashtests/a.https.html",
   "status": "PASS",
   "message": null,
   "duration": 0,
   "subtests": []`) {
		t.Errorf("wptreport:\n%s", buf.String())
	}
	buf.Reset()
	Compare([]*Run{r}).WriteTable(&buf)
	for _, line := range []string{"/web-locks/b-crash.html             CRASH", "/web-locks/crashtests/a.https.html  PASS"} {
		if !strings.Contains(buf.String(), line) {
			t.Errorf("table lacks %q:\n%s", line, buf.String())
		}
	}

	exp := NewExpectations(fstest.MapFS{
		"web-locks/b-crash.html.ini":            {Data: []byte("[b-crash.html]\n  expected:\n    if product == \"go\": CRASH\n")},
		"web-locks/crashtests/a.https.html.ini": {Data: []byte("[a.https.html]\n  expected: [PASS, TIMEOUT]\n")},
	})
	if err := exp.Check(); err != nil {
		t.Errorf("Check: %v", err)
	}
	if un := FindUnexpected(r, exp); len(un) != 1 || un[0].Test != "/web-locks/d.window.html" {
		t.Errorf("with expectations: %+v", un)
	}
	bad := NewExpectations(fstest.MapFS{"web-locks/b-crash.html.ini": {Data: []byte("[b-crash.html]\n  expected: OK\n")}})
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), `invalid status "OK"`) {
		t.Errorf("OK for a crash test: %v", err)
	}
}
