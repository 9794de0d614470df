package isolate

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/wpt-runner/product"
)

func TestMain(m *testing.M) {
	MaybeChild() // the children are this test binary
	os.Exit(m.Run())
}

// echo answers every test with its ID as the one subtest's name, the
// child's pid as its message, and dies or hangs when the ID says so.
type echo struct{ env *product.Env }

func (e *echo) Name() string    { return "isolate-echo" }
func (e *echo) Version() string { return "echo 1" }
func (e *echo) Close() error    { return nil }
func (e *echo) Start(_ context.Context, env *product.Env) error {
	e.env = env
	return nil
}

func (e *echo) RunTest(ctx context.Context, req product.TestRequest) product.TestResult {
	switch req.ID {
	case "die":
		os.Stderr.WriteString("fatal error: echo died\n")
		os.Exit(9)
	case "hang":
		select {} // ignores ctx: the parent must kill the child
	case "hosts":
		return product.TestResult{Status: product.OK, Message: strings.Join(e.env.Hosts, ","), Subtests: []product.SubtestResult{{Name: "ca", Status: product.PASS, Message: strconv.Itoa(len(e.env.CACert))}}}
	}
	e.env.Logf("running %s", req.ID)
	return product.TestResult{Status: product.OK, Message: strconv.Itoa(os.Getpid()), Subtests: []product.SubtestResult{{Name: req.ID, Status: product.PASS}}}
}

func init() {
	product.Register(product.Factory{Name: "isolate-echo", New: func(product.Config) (product.Product, error) { return &echo{}, nil }})
}

func TestIsolatedProduct(t *testing.T) {
	logs := make(chan string, 100)
	p := New(Options{Product: "isolate-echo", RecycleAfter: 3, Grace: 100 * time.Millisecond}).(*Isolated)
	env := &product.Env{Hosts: []string{"web-platform.test", "www.web-platform.test"}, CACert: []byte{}, Jobs: 1,
		Logf: func(f string, a ...any) { logs <- fmt.Sprintf(f, a...) }}
	if err := p.Start(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Name() != "isolate-echo" || p.Version() != "echo 1" {
		t.Errorf("name %q version %q", p.Name(), p.Version())
	}
	run := func(id string) product.TestResult {
		return p.RunTest(context.Background(), product.TestRequest{ID: id, Timeout: 200 * time.Millisecond})
	}
	if r := run("hosts"); r.Message != "web-platform.test,www.web-platform.test" {
		t.Errorf("the child's env: %+v", r)
	}
	pids := map[string]bool{}
	for i := 0; i < 4; i++ {
		r := run("t" + strconv.Itoa(i))
		if r.Status != product.OK || len(r.Subtests) != 1 || r.Subtests[0].Name != "t"+strconv.Itoa(i) {
			t.Fatalf("t%d: %+v", i, r)
		}
		pids[r.Message] = true
	}
	if len(pids) != 2 { // 3 tests per child: hosts, t0, t1 | t2, t3
		t.Errorf("children used: %v, want 2 (recycled after 3 tests)", pids)
	}
	select {
	case l := <-logs:
		if l != "running t0" {
			t.Errorf("log %q", l)
		}
	default:
		t.Error("the child's log did not reach Env.Logf")
	}
	r := run("die")
	if r.Status != product.CRASH || !strings.Contains(r.Message, "fatal error: echo died") || !strings.Contains(r.Message, "exit status 9") {
		t.Errorf("die: %+v", r)
	}
	before := p.Processes()
	r = run("hang")
	if r.Status != product.TIMEOUT {
		t.Errorf("hang: %+v", r)
	}
	for _, pid := range before {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
			t.Errorf("the hung child %d is still alive", pid)
		}
	}
	if r := run("after"); r.Status != product.OK {
		t.Errorf("after: %+v", r)
	}
	live := p.Processes()
	p.Close()
	if n := len(p.Processes()); n != 0 {
		t.Errorf("%d children after Close", n)
	}
	for _, pid := range live {
		if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
			t.Errorf("child %d alive after Close", pid)
		}
	}
	if r := run("closed"); r.Status != product.ERROR {
		t.Errorf("after Close: %+v", r)
	}
}

func TestUnknownProductFailsAtStart(t *testing.T) {
	p := New(Options{Product: "no-such-product"})
	err := p.Start(context.Background(), &product.Env{Jobs: 1})
	if err == nil || !strings.Contains(err.Error(), `unknown product "no-such-product"`) {
		t.Errorf("Start: %v", err)
	}
	p.Close()
}

// Through product.SafeRun, as the runner runs it, a child that never
// answers is a TIMEOUT at the runner's deadline (not an ERROR), and a run
// cancelled by an interruption is an ERROR.
func TestDeadlineIsTimeout(t *testing.T) {
	const grace = 300 * time.Millisecond
	p := New(Options{Product: "isolate-echo", Grace: grace}).(*Isolated)
	if err := p.Start(context.Background(), &product.Env{Jobs: 1, Logf: t.Logf}); err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	start := time.Now()
	r := product.SafeRun(context.Background(), p, product.TestRequest{ID: "hang", Timeout: 200 * time.Millisecond}, grace)
	if r.Status != product.TIMEOUT || !strings.Contains(r.Message, "did not finish") {
		t.Errorf("hang: %+v", r)
	}
	if d := time.Since(start); d > time.Minute {
		t.Errorf("hang took %v", d)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = p.RunTest(ctx, product.TestRequest{ID: "hang", Timeout: time.Hour})
	if r.Status != product.ERROR || !strings.Contains(r.Message, "run cancelled") {
		t.Errorf("cancelled: %+v", r)
	}
}

func TestCrashReason(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want string
	}{
		{"echo 'runtime: goroutine stack exceeds 1000-byte limit' >&2; echo 'fatal error: stack overflow' >&2; exit 2", "stack overflow"},
		{"echo 'wpt-runner child: out of memory: 500 MiB in use' >&2; exit 4", "out of memory"},
		{"echo 'fatal error: runtime: out of memory' >&2; exit 2", "out of memory"},
		{"kill -9 $$", "killed by a signal (killed)"},
		{"echo 'panic: boom' >&2; exit 2", "panic"},
		{"echo 'fatal error: concurrent map writes' >&2; exit 2", "concurrent map writes"},
		{"exit 7", "exit status 7"},
	} {
		cmd := exec.Command("sh", "-c", tc.cmd)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		if got := CrashReason(err, stderr.String()); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.cmd, got, tc.want)
		}
	}
}
