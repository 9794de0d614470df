package goproduct

import (
	"context"
	"io/fs"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/internal/testenv"
	"github.com/gowebengine/weblocks/wpt-runner/product"
	"github.com/gowebengine/weblocks/wpt-runner/server"
	"github.com/gowebengine/weblocks/wpt-runner/suite"
	"github.com/grafana/sobek"
)

// testTree is a WPT tree: the bundled harness plus the given files.
func testTree(t *testing.T, harness []byte, files map[string]string) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	if harness == nil {
		b, err := fs.ReadFile(suite.Root(), "resources/testharness.js")
		if err != nil {
			t.Fatal(err)
		}
		harness = b
	}
	m["resources/testharness.js"] = &fstest.MapFile{Data: harness}
	for name, body := range files {
		m[name] = &fstest.MapFile{Data: []byte(body)}
	}
	return m
}

type harnessEnv struct {
	srv *server.Server
	p   *Product
}

func startProduct(t *testing.T, root fs.FS) *harnessEnv {
	t.Helper()
	srv, err := server.Start(server.Config{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	p := New(Options{Console: func(u, line string) { t.Logf("console %s: %s", u, line) }})
	if err := p.Start(context.Background(), srv.Env(1, t.Logf)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return &harnessEnv{srv: srv, p: p}
}

func (h *harnessEnv) url(path string, https bool) string {
	if https {
		return "https://web-platform.test:" + strconv.Itoa(h.srv.HTTPSPorts()[0]) + path
	}
	return "http://web-platform.test:" + strconv.Itoa(h.srv.HTTPPorts()[0]) + path
}

func (h *harnessEnv) run(t *testing.T, path string, timeout time.Duration) product.TestResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return h.p.RunTest(ctx, product.TestRequest{ID: path, URL: h.url(path, strings.Contains(path, ".https.")), Timeout: timeout})
}

func subtests(r product.TestResult) map[string]product.SubtestResult {
	m := map[string]product.SubtestResult{}
	for _, s := range r.Subtests {
		m[s.Name] = s
	}
	return m
}

func expectAllPass(t *testing.T, r product.TestResult, names ...string) {
	t.Helper()
	if r.Status != product.OK {
		t.Fatalf("harness status %s (%s)\n%s\nsubtests: %+v", r.Status, r.Message, r.Stack, r.Subtests)
	}
	got := subtests(r)
	for _, n := range names {
		s, ok := got[n]
		if !ok {
			t.Errorf("subtest %q missing; got %+v", n, r.Subtests)
			continue
		}
		if s.Status != product.PASS {
			t.Errorf("subtest %q: %s %s", n, s.Status, s.Message)
		}
	}
	if len(r.Subtests) != len(names) {
		t.Errorf("got %d subtests, want %d: %+v", len(r.Subtests), len(names), r.Subtests)
	}
}

const pageHead = `<!doctype html><meta charset=utf-8><title>t</title>
<script src="/resources/testharness.js"></script>
<script src="/resources/testharnessreport.js"></script>
`

func TestScriptsRunInDocumentOrder(t *testing.T) {
	h := startProduct(t, testTree(t, nil, map[string]string{
		"a/order.html": pageHead + `<script>var log = ["inline1", document.readyState];</script>
<script src="one.js"></script>
<script>log.push("inline2");</script>
<script src="sub/two.js"></script>
<script type="text/plain">log.push("not run");</script>
<script type="module">log.push("module");</script>
<script src="missing.js"></script>
<script>
window.addEventListener("DOMContentLoaded", () => log.push("DOMContentLoaded:" + document.readyState));
window.addEventListener("load", () => log.push("load:" + document.readyState));
test(() => {
  assert_array_equals(log, ["inline1", "loading", "one", "inline2", "two"]);
}, "order");
async_test(t => {
  window.addEventListener("load", t.step_func_done(() => {
    // A module script is deferred: it runs after parsing, before DOMContentLoaded.
    assert_array_equals(log.slice(5), ["module", "DOMContentLoaded:interactive", "load:complete"]);
  }));
}, "load events");
test(() => {
  assert_equals(document.getElementsByTagName("script")[5].src, location.origin + "/a/sub/two.js");
  assert_equals(document.title, "t");
  assert_equals(location.pathname, "/a/order.html");
  assert_false(isSecureContext);
}, "document");
</script>`,
		"a/one.js":     `log.push("one");`,
		"a/sub/two.js": `log.push("two");`,
	}))
	r := h.run(t, "/a/order.html", 10*time.Second)
	expectAllPass(t, r, "order", "load events", "document")
}

func TestUncaughtErrorIsHarnessError(t *testing.T) {
	h := startProduct(t, testTree(t, nil, map[string]string{
		"e.html": pageHead + `<script>test(() => {}, "fine");</script>
<script>throw new RangeError("boom");</script>`,
	}))
	r := h.run(t, "/e.html", 10*time.Second)
	if r.Status != product.ERROR || !strings.Contains(r.Message, "boom") {
		t.Fatalf("want ERROR mentioning boom, got %s %q", r.Status, r.Message)
	}
}

func TestSecureContextOverHTTPS(t *testing.T) {
	h := startProduct(t, testTree(t, nil, map[string]string{
		"s.https.html": pageHead + `<script>test(() => {
  assert_true(isSecureContext);
  assert_equals(location.protocol, "https:");
  assert_equals(self.origin, location.origin);
}, "secure");</script>`,
	}))
	expectAllPass(t, h.run(t, "/s.https.html", 10*time.Second), "secure")
}

const workerPage = pageHead + `<script>
promise_test(async t => {
  const w = new Worker("echo.js");
  const got = new Promise(resolve => w.onmessage = e => resolve(e.data));
  const sent = {n: 1, s: "x\uD800", a: [1, {b: true}], d: new Date(5), m: new Map([[1, 2]]), set: new Set(["q"]),
                re: /x/g, u8: new Uint8Array([1, 2]), big: 5n, nested: {deep: {deeper: [null, undefined]}}};
  w.postMessage(sent);
  const back = await got;
  assert_not_equals(back, sent);
  assert_equals(back.echo.n, 1);
  assert_equals(back.echo.s, "x\uD800");
  assert_equals(back.echo.a[1].b, true);
  assert_equals(back.echo.d.getTime(), 5);
  assert_equals(back.echo.m.get(1), 2);
  assert_true(back.echo.set.has("q"));
  assert_equals(back.echo.re.flags, "g");
  assert_equals(back.echo.u8[1], 2);
  assert_equals(back.echo.big, 5n);
  assert_equals(back.echo.nested.deep.deeper[1], undefined);
  assert_true(back.isWorker, "DedicatedWorkerGlobalScope");
  assert_equals(back.location, location.href.replace(/[^/]*$/, "echo.js"));
  w.terminate();
}, "postMessage round trip");

promise_test(async t => {
  const w = new Worker("imports.js");
  const data = await new Promise(resolve => w.onmessage = e => resolve(e.data));
  assert_array_equals(data, ["lib1", "lib2", "NetworkError", "SyntaxError", "thrown from lib"]);
  w.terminate();
}, "importScripts");

promise_test(async t => {
  const w = new Worker("throws.js");
  const ev = await new Promise(resolve => w.onerror = e => { e.preventDefault(); resolve(e); });
  assert_true(ev.message.includes("worker boom"), ev.message);
  w.terminate();
}, "worker error event");

promise_test(async t => {
  const w = new Worker("missing-worker.js");
  const ev = await new Promise(resolve => w.addEventListener("error", resolve));
  assert_equals(ev.type, "error");
}, "worker fetch failure fires error");

promise_test(async t => {
  const w = new Worker("ticker.js");
  let count = 0;
  await new Promise(resolve => w.onmessage = () => { if (++count === 2) resolve(); });
  w.terminate();
  const after = count;
  await new Promise(resolve => step_timeout(resolve, 100));
  assert_equals(count, after, "no messages after terminate()");
}, "terminate stops the worker");

promise_test(async t => {
  const w = new Worker("closer.js");
  const msgs = [];
  await new Promise(resolve => { w.onmessage = e => { msgs.push(e.data); if (e.data === "after close") resolve(); }; });
  await new Promise(resolve => step_timeout(resolve, 100));
  // Messages posted before the worker's agent actually stops are
  // delivered: the closing flag only discards the worker's own tasks.
  assert_array_equals(msgs, ["before", "after close"]);
}, "self.close");

test(() => {
  assert_throws_dom("DataCloneError", () => new Worker("echo.js").postMessage(() => 1));
  assert_throws_dom("SyntaxError", () => new Worker("http://[bad"));
  assert_throws_js(TypeError, () => new Worker());
}, "errors");
</script>`

func TestDedicatedWorkers(t *testing.T) {
	h := startProduct(t, testTree(t, nil, map[string]string{
		"w/page.html": workerPage,
		// A worker error its Worker object does not cancel is reported in
		// the owner's global (HTML "runtime script errors" in workers).
		"w/report.html": pageHead + `<script>
setup({allow_uncaught_exception: true});
promise_test(async t => {
  const w = new Worker("throws.js");
  const seen = [];
  w.addEventListener("error", e => seen.push("worker"));
  const ev = await new Promise(resolve => self.addEventListener("error", function f(e) {
    self.removeEventListener("error", f);
    e.preventDefault();
    resolve(e);
  }));
  assert_array_equals(seen, ["worker"], "the Worker object sees it first");
  assert_true(ev.message.includes("worker boom"), ev.message);
  assert_false(ev.message.includes("GoError"), ev.message);
  assert_true(ev.filename.endsWith("/w/throws.js"), ev.filename);
  assert_equals(ev.lineno, 1);
  assert_equals(ev.error, null);
  w.terminate();
}, "uncanceled worker error reported at the window");
</script>`,
		"w/echo.js": `onmessage = e => postMessage({echo: e.data,
  isWorker: self instanceof DedicatedWorkerGlobalScope && typeof document === "undefined",
  location: location.href});`,
		"w/imports.js": `var got = [];
importScripts("lib1.js", "lib2.js");
try { importScripts("nope.js"); } catch (e) { got.push(e.name); }
try { importScripts("bad-syntax.js"); } catch (e) { got.push(e.name); }
try { importScripts("throws-lib.js"); } catch (e) { got.push(e.message); }
postMessage(got);`,
		"w/lib1.js":       `got.push("lib1");`,
		"w/lib2.js":       `got.push("lib2");`,
		"w/bad-syntax.js": `this is not javascript`,
		"w/throws-lib.js": `throw new Error("thrown from lib");`,
		"w/throws.js":     `throw new Error("worker boom");`,
		"w/ticker.js":     `setInterval(() => postMessage("tick"), 5);`,
		"w/closer.js":     `postMessage("before"); close(); postMessage("after close"); setTimeout(() => postMessage("timer after close"), 0);`,
	}))
	r := h.run(t, "/w/page.html", 20*time.Second)
	expectAllPass(t, r, "postMessage round trip", "importScripts", "worker error event",
		"worker fetch failure fires error", "terminate stops the worker", "self.close", "errors")
	expectAllPass(t, h.run(t, "/w/report.html", 10*time.Second), "uncanceled worker error reported at the window")
}

const anyTest = `// META: title=any test
test(() => { assert_equals(1 + 1, 2); }, "sync in " + (self.document ? "window" : "worker"));
promise_test(async () => {
  await new Promise(r => setTimeout(r, 1));
  assert_true(true);
}, "async");
`

func TestFetchTestsFromWorkerBundledHarness(t *testing.T) {
	h := startProduct(t, testTree(t, nil, map[string]string{"x/basic.any.js": anyTest}))
	expectAllPass(t, h.run(t, "/x/basic.any.worker.html", 10*time.Second), "sync in worker", "async")
	expectAllPass(t, h.run(t, "/x/basic.any.html", 10*time.Second), "sync in window", "async")
}

// upstreamHarness returns upstream testharness.js from the npm package
// wpt-runner (skipping outside CI when npm is unavailable).
func upstreamHarness(t *testing.T) []byte {
	b, err := os.ReadFile(testenv.UpstreamHarness(t, "testharness.js"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestUpstreamTestharness(t *testing.T) {
	h := startProduct(t, testTree(t, upstreamHarness(t), map[string]string{
		"x/basic.any.js": anyTest,
		"x/fail.any.js": `test(() => { assert_equals(1, 2, "one is two"); }, "fails");
promise_test(() => Promise.reject(new TypeError("nope")), "rejects");`,
		"x/err.any.js":    `test(() => {}, "ok"); throw new Error("late boom");`,
		"x/title.html":    pageHead + `<div id=log></div><script>test(() => assert_equals(document.getElementById("log").nodeName, "DIV"), "log div");</script>`,
		"x/nodiv.html":    pageHead + `<script>test(() => {}, "no log div");</script>`,
		"x/timeout.html":  pageHead + `<script>async_test(t => {}, "never finishes");</script>`,
		"x/uncaught.html": pageHead + `<script>promise_test(async () => {}, "p"); Promise.reject(new Error("unhandled one"));</script>`,
	}))
	expectAllPass(t, h.run(t, "/x/basic.any.html", 10*time.Second), "sync in window", "async")
	expectAllPass(t, h.run(t, "/x/basic.any.worker.html", 10*time.Second), "sync in worker", "async")
	expectAllPass(t, h.run(t, "/x/title.html", 10*time.Second), "log div")
	expectAllPass(t, h.run(t, "/x/nodiv.html", 10*time.Second), "no log div")

	for _, path := range []string{"/x/fail.any.html", "/x/fail.any.worker.html"} {
		r := h.run(t, path, 10*time.Second)
		got := subtests(r)
		if r.Status != product.OK || got["fails"].Status != product.FAIL || !strings.Contains(got["fails"].Message, "one is two") ||
			got["rejects"].Status != product.FAIL || !strings.Contains(got["rejects"].Message, "nope") {
			t.Errorf("%s: got %s %q %+v", path, r.Status, r.Message, r.Subtests)
		}
	}
	for _, path := range []string{"/x/err.any.html", "/x/err.any.worker.html"} {
		r := h.run(t, path, 10*time.Second)
		if r.Status != product.ERROR || !strings.Contains(r.Message, "late boom") {
			t.Errorf("%s: want ERROR with late boom, got %s %q", path, r.Status, r.Message)
		}
	}
	r := h.run(t, "/x/uncaught.html", 10*time.Second)
	if r.Status != product.ERROR || !strings.Contains(r.Message, "unhandled one") {
		t.Errorf("uncaught: want ERROR with the rejection, got %s %q", r.Status, r.Message)
	}
	// The harness's own timeout (multiplied down) reports TIMEOUT with the
	// subtest marked TIMEOUT.
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r = h.p.RunTest(ctx, product.TestRequest{URL: h.url("/x/timeout.html?", false), Timeout: 30 * time.Second})
	if r.Status != product.TIMEOUT || len(r.Subtests) != 1 || r.Subtests[0].Status != product.TIMEOUT {
		t.Errorf("timeout: got %s %q %+v after %v", r.Status, r.Message, r.Subtests, time.Since(start))
	}
}

func TestUnsupportedScopes(t *testing.T) {
	h := startProduct(t, testTree(t, nil, map[string]string{"x/basic.any.js": "// META: global=sharedworker,serviceworker\n" + anyTest}))
	for _, scope := range []string{"sharedworker-module", "serviceworker-module"} {
		r := h.run(t, "/x/basic.any."+scope+".html", 10*time.Second)
		if r.Status != product.ERROR || r.Message != "not yet supported by the go product: "+scope {
			t.Errorf("%s: got %s %q", scope, r.Status, r.Message)
		}
	}
}

func TestContextCancelStopsPromptly(t *testing.T) {
	h := startProduct(t, testTree(t, nil, map[string]string{
		"hang.html": pageHead + `<script>setup({explicit_timeout: true}); async_test(() => {}, "hangs");
new Worker("spin.js");</script>`,
		"spin.js": `setInterval(() => {}, 1);`,
	}))
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	r := h.p.RunTest(ctx, product.TestRequest{URL: h.url("/hang.html", false), Timeout: time.Second})
	if r.Status != product.TIMEOUT {
		t.Fatalf("got %s %q", r.Status, r.Message)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("RunTest returned %v after the deadline", d)
	}
}

func TestGoPanicIsCrashForThatTestOnly(t *testing.T) {
	h := startProduct(t, testTree(t, nil, map[string]string{
		"sync.html":  pageHead + `<script>test(() => {}, "a"); __go_panic();</script>`,
		"timer.html": pageHead + `<script>async_test(t => { setTimeout(() => __go_panic(), 1); }, "a");</script>`,
		"fine.html":  pageHead + `<script>test(() => {}, "fine");</script>`,
	}))
	h.p.opts.testHook = func(w *browser.Window) {
		w.DefineFunction("__go_panic", 0, func(sobek.FunctionCall) sobek.Value {
			var m map[string]int
			m["x"] = 1 //lint:ignore SA5000 a Go runtime panic inside the engine, on purpose
			return sobek.Undefined()
		})
	}
	for _, path := range []string{"/sync.html", "/timer.html"} {
		r := h.run(t, path, 10*time.Second)
		if r.Status != product.CRASH || !strings.Contains(r.Message, "nil map") {
			t.Errorf("%s: want CRASH, got %s %q", path, r.Status, r.Message)
		}
	}
	expectAllPass(t, h.run(t, "/fine.html", 10*time.Second), "fine")
}

func TestUserAgentTornDown(t *testing.T) {
	h := startProduct(t, testTree(t, nil, map[string]string{
		"w.html": pageHead + `<script>promise_test(async () => {
  const w = new Worker("tick.js");
  await new Promise(r => w.onmessage = r);
}, "worker alive at the end");</script>`,
		"tick.js": `setInterval(() => postMessage(1), 1);`,
	}))
	expectAllPass(t, h.run(t, "/w.html", 10*time.Second), "worker alive at the end") // warm up the HTTP client
	for i := 0; i < 5; i++ {
		expectAllPass(t, h.run(t, "/w.html", 10*time.Second), "worker alive at the end")
	}
	// No goroutine of the engine (event loops, parallel queues, timers,
	// the product's fetchers) survives its test.
	engineGoroutines := func() (int, string) {
		buf := make([]byte, 4<<20)
		all := string(buf[:runtime.Stack(buf, true)])
		n := 0
		var out []string
		for _, g := range strings.Split(all, "\n\n") {
			if strings.Contains(g, "weblocks/html.") || strings.Contains(g, "weblocks/bindings.") || strings.Contains(g, "weblocks/browser.") ||
				(strings.Contains(g, "goproduct.") && !strings.Contains(g, "goproduct.TestUserAgentTornDown")) {
				n++
				out = append(out, g)
			}
		}
		return n, strings.Join(out, "\n\n")
	}
	deadline := time.Now().Add(60 * time.Second)
	n, stacks := engineGoroutines()
	for n > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		n, stacks = engineGoroutines()
	}
	if n > 0 {
		t.Fatalf("%d engine goroutines left after the tests:\n%s", n, stacks)
	}
}

func TestSharedWorkerScope(t *testing.T) {
	h := startProduct(t, testTree(t, nil, map[string]string{"x/basic.any.js": "// META: global=sharedworker\n" + anyTest +
		`test(() => { assert_true(self instanceof SharedWorkerGlobalScope); assert_equals(self.name, ""); }, "shared global");` + "\n"}))
	expectAllPass(t, h.run(t, "/x/basic.any.sharedworker.html", 10*time.Second), "sync in worker", "async", "shared global")
}
