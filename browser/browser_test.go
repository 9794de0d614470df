package browser_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
	"github.com/grafana/sobek"
)

func open(t *testing.T, fsys fstest.MapFS, cfg browser.Config) (*browser.Browser, *browser.Window, context.Context) {
	t.Helper()
	return openPage(t, fsys, cfg, "https://example.test/", 20*time.Second)
}

// openPage opens u in a new browser over fsys, with a context ending after
// timeout (the browser closes with the test).
func openPage(t *testing.T, fsys fstest.MapFS, cfg browser.Config, u string, timeout time.Duration) (*browser.Browser, *browser.Window, context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	cfg.Fetcher = browser.FSFetcher{FS: fsys}
	b := browser.New(cfg)
	t.Cleanup(b.Close)
	w, err := b.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	return b, w, ctx
}

func eval(t *testing.T, ctx context.Context, w *browser.Window, expr string) any {
	t.Helper()
	v, err := w.Evaluate(ctx, expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// TestIframeRemovalReleasesLocks: the page's iframe and worker hold locks;
// the page queues behind both; removing the iframe grants the page the
// iframe's lock while the worker keeps its own, and terminating the worker
// grants the other.
func TestIframeRemovalReleasesLocks(t *testing.T) {
	_, w, ctx := open(t, site, browser.Config{})
	if got := eval(t, ctx, w, `Promise.all([frameHolds, workerHolds])`); !reflect.DeepEqual(got, []any{"frame holds A", "worker holds B"}) {
		t.Fatalf("holders: %v", got)
	}
	eval(t, ctx, w, `window.gotA = navigator.locks.request("A", () => "A"); window.gotB = navigator.locks.request("B", () => "B"); 0`)
	snapshot := `navigator.locks.query().then(s => [s.held.map(l => l.name).sort().join(), s.pending.map(l => l.name).sort().join()])`
	if got := eval(t, ctx, w, snapshot); !reflect.DeepEqual(got, []any{"A,B", "A,B"}) {
		t.Fatalf("before removal: %v", got)
	}
	eval(t, ctx, w, `document.getElementById("f").remove()`)
	if got := eval(t, ctx, w, `gotA`); got != "A" {
		t.Fatalf("gotA = %v", got)
	}
	if got := eval(t, ctx, w, snapshot); !reflect.DeepEqual(got, []any{"B", "B"}) {
		t.Fatalf("after removal: %v", got)
	}
	eval(t, ctx, w, `worker.terminate()`)
	if got := eval(t, ctx, w, `gotB`); got != "B" {
		t.Fatalf("gotB = %v", got)
	}
}

func TestEvaluateErrors(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{"index.html": {Data: []byte(`<script>var x = 1;</script>`)}}, browser.Config{})
	if got := eval(t, ctx, w, `x + 1`); got != int64(2) {
		t.Fatalf("x + 1 = %#v", got)
	}
	_, err := w.Evaluate(ctx, `throw new TypeError("nope")`)
	var ee *browser.EvalError
	if !errors.As(err, &ee) || ee.Rejected || !strings.Contains(ee.Message, "TypeError: nope") {
		t.Fatalf("throw: %v", err)
	}
	_, err = w.Evaluate(ctx, `Promise.reject(new RangeError("later"))`)
	if !errors.As(err, &ee) || !ee.Rejected || !strings.Contains(ee.Message, "RangeError: later") {
		t.Fatalf("reject: %v", err)
	}
	_, err = w.Evaluate(ctx, `(`)
	if !errors.As(err, &ee) || !strings.Contains(ee.Message, "SyntaxError") {
		t.Fatalf("syntax error: %v", err)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := w.Evaluate(short, `new Promise(() => {})`); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("never-settling promise: %v", err)
	}
}

func TestRunUntilIdle(t *testing.T) {
	b, w, ctx := open(t, fstest.MapFS{
		"index.html": {Data: []byte(`<script>
window.steps = [];
setTimeout(() => { steps.push("timer"); new Worker("w.js").onmessage = e => steps.push(e.data); }, 5);
</script>`)},
		"w.js": {Data: []byte(`setTimeout(() => postMessage("worker"), 5);`)},
	}, browser.Config{})
	if err := b.RunUntilIdle(ctx); err != nil {
		t.Fatal(err)
	}
	if got := eval(t, ctx, w, `steps.join()`); got != "timer,worker" {
		t.Fatalf("after RunUntilIdle: %v", got)
	}
	eval(t, ctx, w, `setInterval(() => {}, 1); 0`)
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if err := b.RunUntilIdle(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("with an interval: %v", err)
	}
}

func TestHooks(t *testing.T) {
	var mu sync.Mutex
	var errs, console []string
	var inits int
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": {Data: []byte(`<iframe srcdoc="<script>hello('frame')</script>"></iframe>
<script>console.log(hello("page")); Promise.reject(new Error("unhandled")); undefinedName;</script>`)},
	}, browser.Config{
		Console: func(line string) { mu.Lock(); console = append(console, line); mu.Unlock() },
		OnError: func(e *browser.ScriptError) { mu.Lock(); errs = append(errs, e.Error()); mu.Unlock() },
		InitWindow: func(w *browser.Window) {
			mu.Lock()
			inits++
			mu.Unlock()
			w.Realm().DefineGlobalFunction("hello", 1, func(c sobek.FunctionCall) sobek.Value {
				return w.Realm().Runtime().ToValue("hello " + c.Argument(0).String())
			})
		},
	})
	_ = w.Browser().RunUntilIdle(ctx)
	mu.Lock()
	defer mu.Unlock()
	if inits != 3 {
		t.Errorf("InitWindow ran %d times, want 3 (the page, the iframe's initial about:blank and its srcdoc document)", inits)
	}
	if len(console) == 0 || console[0] != "log: hello page" {
		t.Errorf("console: %q", console)
	}
	if len(errs) != 2 || !strings.Contains(errs[0], "Uncaught ReferenceError: undefinedName") || !strings.Contains(errs[1], "Unhandled rejection: Error: unhandled") {
		t.Errorf("errors: %q", errs)
	}
}

func TestPanicIsBrowserError(t *testing.T) {
	var got any
	b, w, ctx := open(t, fstest.MapFS{"index.html": {Data: []byte(`<p>`)}}, browser.Config{
		OnPanic: func(v any, _ []byte) { got = v },
		InitWindow: func(w *browser.Window) {
			w.DefineFunction("boom", 0, func(sobek.FunctionCall) sobek.Value { panic("boom") })
		},
	})
	if _, err := w.Evaluate(ctx, `boom()`); err == nil {
		t.Fatal("no error")
	}
	var pe *browser.PanicError
	if !errors.As(b.Err(), &pe) || pe.Value != "boom" || got != "boom" {
		t.Fatalf("Err() = %v, OnPanic got %v", b.Err(), got)
	}
}

// TestUnloadEventOrder: removing an iframe fires pagehide then unload at
// its window, then at its own iframe's window (parent first, as browsers
// do); then its documents' locks are released.
func TestUnloadEventOrder(t *testing.T) {
	var mu sync.Mutex
	var log []string
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": {Data: []byte(`<iframe id=f src="outer.html"></iframe>`)},
		"outer.html": {Data: []byte(`<iframe src="inner.html"></iframe><script>
for (const t of ["pagehide", "unload"]) addEventListener(t, e => console.log("outer " + e.type));
</script>`)},
		"inner.html": {Data: []byte(`<script>
navigator.locks.request("held", () => new Promise(() => {}));
for (const t of ["pagehide", "unload"]) addEventListener(t, e => console.log("inner " + e.type));
</script>`)},
	}, browser.Config{Console: func(line string) {
		mu.Lock()
		log = append(log, line)
		mu.Unlock()
	}})
	if got := eval(t, ctx, w, `navigator.locks.query().then(s => s.held.length)`); got != int64(1) {
		t.Fatalf("held before removal: %v", got)
	}
	eval(t, ctx, w, `document.getElementById("f").remove()`)
	mu.Lock()
	got := strings.Join(log, ", ")
	mu.Unlock()
	if want := "log: outer pagehide, log: outer unload, log: inner pagehide, log: inner unload"; got != want {
		t.Errorf("events: %s\nwant    %s", got, want)
	}
	if got := eval(t, ctx, w, `navigator.locks.request("held", {ifAvailable: true}, l => l !== null)`); got != true {
		t.Fatalf("lock not released: %v", got)
	}
}

// TestCrossWindowAccess: a same-origin iframe's objects are reached
// synchronously: its locks are requested in its realm (the promise is the
// frame's), functions, exceptions and promises cross, identity holds; a
// same-site iframe of another origin is cross-origin (SecurityError except
// for postMessage and the other allowed members).
func TestCrossWindowAccess(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": {Data: []byte(`<iframe id=f src="frame.html"></iframe>
<iframe id=x src="https://other.example.test/frame.html"></iframe>`)},
		"frame.html": {Data: []byte(`<script>
function add(a, b) { return a + b; }
function fail() { throw new RangeError("in frame"); }
var shared = {n: 1};
</script>`)},
	}, browser.Config{})
	// Each check is a function body returning true.
	checks := []string{
		`const f = document.getElementById("f").contentWindow; return f !== window && f === document.getElementById("f").contentWindow`,
		`const f = document.getElementById("f").contentWindow; return f.add(2, 3) === 5 && f.shared === f.shared && f.shared.n === 1`,
		`const f = document.getElementById("f").contentWindow; const p = f.navigator.locks.request("x", l => l.name); return p instanceof f.Promise && !(p instanceof Promise)`,
		`const f = document.getElementById("f").contentWindow; try { f.fail(); return false } catch (e) { return e instanceof f.RangeError && e.message === "in frame" }`,
		`const f = document.getElementById("f").contentWindow; return f.parent === window && f.top === window && top === window && document.getElementById("f").contentDocument.defaultView === f`,
		`const x = document.getElementById("x").contentWindow; try { x.navigator; return false } catch (e) { return e.name === "SecurityError" }`,
		`const x = document.getElementById("x").contentWindow; return typeof x.postMessage === "function" && document.getElementById("x").contentDocument === null`,
	}
	for _, c := range checks {
		if got := eval(t, ctx, w, "(() => { "+c+" })()"); got != true {
			t.Errorf("%s: %v", c, got)
		}
	}
	if got := eval(t, ctx, w, `document.getElementById("f").contentWindow.navigator.locks.request("y", l => l.name)`); got != "y" {
		t.Errorf("lock through the frame's navigator: %v", got)
	}
}

// TestLocationNavigatesFrame: assigning location.href in an iframe's
// window replaces it with the new document's window (the old one unloads
// and releases its lock); the iframe fires load.
func TestLocationNavigatesFrame(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": {Data: []byte(`<iframe id=f src="a.html"></iframe>`)},
		"a.html":     {Data: []byte(`<script>navigator.locks.request("a", () => new Promise(() => {}));</script>`)},
		"b.html":     {Data: []byte(`<script>var page = "b";</script>`)},
	}, browser.Config{})
	eval(t, ctx, w, `new Promise(r => navigator.locks.query().then(s => s.held.length === 1 && r()))`)
	got := eval(t, ctx, w, `(async () => {
  const f = document.getElementById("f");
  const loaded = new Promise(r => f.addEventListener("load", r, {once: true}));
  f.contentWindow.location.href = "b.html";
  await loaded;
  const lock = await navigator.locks.request("a", {ifAvailable: true}, l => l !== null);
  return [f.contentWindow.page, f.contentWindow.location.pathname, lock].join();
})()`)
	if got != "b,/b.html,true" {
		t.Fatalf("after navigation: %v", got)
	}
}

func TestCurrentScript(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": {Data: []byte(`<script id=a>var first = document.currentScript.id;</script><script src="b.js" id=b></script>`)},
		"b.js":       {Data: []byte(`var second = document.currentScript.id;`)},
	}, browser.Config{})
	if got := eval(t, ctx, w, `[first, second, document.currentScript].join()`); got != "a,b," {
		t.Fatalf("currentScript: %v", got)
	}
}
