package product

import (
	"context"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestStatusMapping(t *testing.T) {
	// testharness.js: Test.statuses PASS=0 FAIL=1 TIMEOUT=2 NOTRUN=3
	// PRECONDITION_FAILED=4; TestsStatus.statuses OK=0 ERROR=1 TIMEOUT=2
	// PRECONDITION_FAILED=3.
	for n, want := range []Status{PASS, FAIL, TIMEOUT, NOTRUN, PRECONDITION_FAILED} {
		if got, err := SubtestStatus(n); err != nil || got != want {
			t.Errorf("SubtestStatus(%d) = %v %v, want %v", n, got, err, want)
		}
	}
	for n, want := range []Status{OK, ERROR, TIMEOUT, PRECONDITION_FAILED} {
		if got, err := HarnessStatus(n); err != nil || got != want {
			t.Errorf("HarnessStatus(%d) = %v %v, want %v", n, got, err, want)
		}
	}
	for _, n := range []int{-1, 5} {
		if _, err := SubtestStatus(n); err == nil {
			t.Errorf("SubtestStatus(%d) accepted", n)
		}
	}
	if _, err := HarnessStatus(4); err == nil {
		t.Error("HarnessStatus(4) accepted")
	}
}

func TestParseReport(t *testing.T) {
	got, err := ParseReport([]byte(`{"status":2,"message":"Test timed out","stack":null,"tests":[
		{"name":"a","status":0,"message":null,"stack":null},
		{"name":"b","status":1,"message":"assert_true: expected true got false","stack":"at x"},
		{"name":"c","status":2,"message":"Test timed out"},
		{"name":"d","status":3,"message":null},
		{"name":"e","status":4,"message":"unsupported"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := TestResult{Status: TIMEOUT, Message: "Test timed out", Subtests: []SubtestResult{
		{Name: "a", Status: PASS},
		{Name: "b", Status: FAIL, Message: "assert_true: expected true got false", Stack: "at x"},
		{Name: "c", Status: TIMEOUT, Message: "Test timed out"},
		{Name: "d", Status: NOTRUN},
		{Name: "e", Status: PRECONDITION_FAILED, Message: "unsupported"},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	for _, bad := range []string{`nope`, `{}`, `{"status":7,"tests":[]}`, `{"status":0,"tests":[{"name":"x"}]}`, `{"status":0,"tests":[{"name":"x","status":9}]}`} {
		if _, err := ParseReport([]byte(bad)); err == nil {
			t.Errorf("ParseReport(%s) accepted", bad)
		}
	}
}

// fake is a product whose RunTest is a function.
type fake struct {
	run func(ctx context.Context, req TestRequest) TestResult
}

func (f fake) Name() string                      { return "fake" }
func (f fake) Start(context.Context, *Env) error { return nil }
func (f fake) Version() string                   { return "" }
func (f fake) Close() error                      { return nil }
func (f fake) RunTest(ctx context.Context, req TestRequest) TestResult {
	return f.run(ctx, req)
}

func TestSafeRunHangingTestTimesOut(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	p := fake{run: func(ctx context.Context, req TestRequest) TestResult {
		<-block // wedged: ignores ctx
		return TestResult{Status: OK}
	}}
	start := time.Now()
	res := SafeRun(context.Background(), p, TestRequest{Timeout: 100 * time.Millisecond}, 100*time.Millisecond)
	if res.Status != TIMEOUT || !strings.Contains(res.Message, "did not finish") {
		t.Errorf("got %+v", res)
	}
	if d := time.Since(start); d < 200*time.Millisecond || d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestSafeRunContextDeadline(t *testing.T) {
	// A well-behaved product sees its context end at Timeout+grace.
	var sawDeadline atomic.Bool
	p := fake{run: func(ctx context.Context, req TestRequest) TestResult {
		dl, ok := ctx.Deadline()
		sawDeadline.Store(ok && time.Until(dl) > 50*time.Millisecond && time.Until(dl) <= 300*time.Millisecond)
		<-ctx.Done()
		return TestResult{Status: TIMEOUT, Message: "product noticed"}
	}}
	res := SafeRun(context.Background(), p, TestRequest{Timeout: 200 * time.Millisecond}, 100*time.Millisecond)
	if res.Status != TIMEOUT || res.Message != "product noticed" || !sawDeadline.Load() {
		t.Errorf("got %+v, deadline ok %v", res, sawDeadline.Load())
	}
}

func TestSafeRunPanicIsCrash(t *testing.T) {
	p := fake{run: func(ctx context.Context, req TestRequest) TestResult {
		var m map[string]int
		m["boom"]++ //lint:ignore SA5000 panics on purpose: assignment to entry in nil map
		return TestResult{Status: OK}
	}}
	res := SafeRun(context.Background(), p, TestRequest{Timeout: time.Second}, time.Second)
	if res.Status != CRASH || !strings.Contains(res.Message, "nil map") || !strings.Contains(res.Stack, "product_test.go") {
		t.Errorf("got %+v", res)
	}
	// The next test in the same product runs normally.
	ok := fake{run: func(context.Context, TestRequest) TestResult {
		return TestResult{Status: OK, Subtests: []SubtestResult{{Name: "a", Status: PASS}}}
	}}
	if res := SafeRun(context.Background(), ok, TestRequest{Timeout: time.Second}, time.Second); res.Status != OK || len(res.Subtests) != 1 {
		t.Errorf("got %+v", res)
	}
}

func TestSafeRunValidatesStatuses(t *testing.T) {
	p := fake{run: func(context.Context, TestRequest) TestResult {
		return TestResult{Status: PASS}
	}}
	if res := SafeRun(context.Background(), p, TestRequest{Timeout: time.Second}, 0); res.Status != ERROR {
		t.Errorf("harness status PASS accepted: %+v", res)
	}
	p = fake{run: func(context.Context, TestRequest) TestResult {
		return TestResult{Status: OK, Subtests: []SubtestResult{{Name: "x", Status: OK}}}
	}}
	if res := SafeRun(context.Background(), p, TestRequest{Timeout: time.Second}, 0); res.Subtests[0].Status != FAIL {
		t.Errorf("subtest status OK accepted: %+v", res)
	}
}

func TestRegistry(t *testing.T) {
	f, ok := Lookup("go")
	if !ok || !f.Placeholder {
		t.Fatal("go placeholder not registered")
	}
	p, _ := f.New(Config{})
	if res := p.RunTest(context.Background(), TestRequest{}); res.Status != ERROR || res.Message != "go product not built yet" {
		t.Errorf("placeholder: %+v", res)
	}
	newFake := func(Config) (Product, error) { return fake{}, nil }
	// The registry is process-wide: leave it as found, so that the test
	// can run again (go test -count=2).
	t.Cleanup(func() {
		regMu.Lock()
		delete(registry, "test-real")
		delete(registry, "test-ph")
		regMu.Unlock()
	})
	Register(Factory{Name: "test-real", New: newFake})
	Register(Factory{Name: "test-real", New: newFake, Placeholder: true}) // ignored
	func() {
		defer func() {
			if recover() == nil {
				t.Error("registering a real product twice did not panic")
			}
		}()
		Register(Factory{Name: "test-real", New: newFake})
	}()
	Register(Factory{Name: "test-ph", New: newFake, Placeholder: true})
	Register(Factory{Name: "test-ph", New: newFake}) // replaces the placeholder
	if f, _ := Lookup("test-ph"); f.Placeholder {
		t.Error("placeholder not replaced")
	}
	names := strings.Join(Names(), ",")
	if !strings.Contains(names, "go") || !strings.Contains(names, "test-ph") {
		t.Errorf("Names() = %s", names)
	}
}

func TestSafeRunCrashtestStatuses(t *testing.T) {
	for _, tc := range []struct {
		status Status
		want   Status
	}{{PASS, PASS}, {CRASH, CRASH}, {TIMEOUT, TIMEOUT}, {OK, ERROR}, {FAIL, ERROR}} {
		p := fake{run: func(context.Context, TestRequest) TestResult { return TestResult{Status: tc.status} }}
		if res := SafeRun(context.Background(), p, TestRequest{Timeout: time.Second, Crashtest: true}, 0); res.Status != tc.want {
			t.Errorf("crash test reported %s: %+v, want %s", tc.status, res, tc.want)
		}
	}
}
