package browser_test

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"sort"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
)

// openCounting opens index.html of fsys with a Fetcher that counts the
// fetches of each path.
func openCounting(t *testing.T, fsys fstest.MapFS) (*browser.Window, context.Context, func(string) int) {
	t.Helper()
	var mu sync.Mutex
	counts := map[string]int{}
	inner := browser.FSFetcher{FS: fsys}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	b := browser.New(browser.Config{Fetcher: browser.FetcherFunc(func(ctx context.Context, u *url.URL) (*browser.Response, error) {
		mu.Lock()
		counts[u.Path]++
		mu.Unlock()
		return inner.Fetch(ctx, u)
	})})
	t.Cleanup(b.Close)
	w, err := b.Open(ctx, "https://example.test/")
	if err != nil {
		t.Fatal(err)
	}
	return w, ctx, func(p string) int {
		mu.Lock()
		defer mu.Unlock()
		return counts[p]
	}
}

func js(src string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(src)} }

const logPage = `<script>window.log = []; document.addEventListener("DOMContentLoaded", () => log.push("DOMContentLoaded"));</script>`

// Module scripts are deferred: they run after the parser-blocking classic
// scripts, in document order, each graph depth first in import order, a
// module evaluated once however many import it, before DOMContentLoaded.
func TestModuleGraphEvaluationOrder(t *testing.T) {
	w, ctx, count := openCounting(t, fstest.MapFS{
		"index.html": js(logPage + `
<script type="module" src="a.js"></script>
<script type="module">import "./b.js"; import "./lib/c.js"; log.push("inline");</script>
<script type="module" src="b.js"></script>
<script>log.push("classic")</script>`),
		"a.js":     js(`import "./lib/c.js"; import "./b.js"; log.push("a");`),
		"b.js":     js(`log.push("b");`),
		"lib/c.js": js(`import "./d.js"; log.push("c");`),
		"lib/d.js": js(`log.push("d " + import.meta.url);`),
	})
	want := []any{"classic", "d https://example.test/lib/d.js", "c", "b", "a", "inline", "DOMContentLoaded"}
	if got := eval(t, ctx, w, `log`); !reflect.DeepEqual(got, want) {
		t.Fatalf("log = %v, want %v", got, want)
	}
	for _, p := range []string{"/a.js", "/b.js", "/lib/c.js", "/lib/d.js"} {
		if n := count(p); n != 1 {
			t.Errorf("%s fetched %d times, want once", p, n)
		}
	}
}

// Cycles link and evaluate (the module first reached last evaluates
// first), and imports are live bindings.
func TestModuleCyclesAndLiveBindings(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": js(logPage + `<script type="module">
import {x, bumpX, yOfX} from "./x.js";
import {y, bumpY} from "./y.js";
log.push("main x=" + x + " y=" + y);
bumpX(); bumpY();
log.push("after x=" + x + " y=" + y + " yOfX=" + yOfX());
</script>`),
		"x.js": js(`import {y, readX} from "./y.js";
export let x = 1;
export function bumpX() { x++; }
export function yOfX() { return y; }
log.push("x runs, y=" + y + ", readX()=" + readX());`),
		"y.js": js(`import {x} from "./x.js";
export let y = 10;
export function bumpY() { y++; }
export function readX() { try { return x; } catch (e) { return e.name; } }
log.push("y runs, x is " + readX());`),
	}, browser.Config{})
	want := []any{"y runs, x is ReferenceError", "x runs, y=10, readX()=1", "main x=1 y=10", "after x=2 y=11 yOfX=11", "DOMContentLoaded"}
	if got := eval(t, ctx, w, `log`); !reflect.DeepEqual(got, want) {
		t.Fatalf("log = %v, want %v", got, want)
	}
}

// Top-level await: a module awaiting suspends only its importers; a
// sibling without the dependency runs meanwhile. The element's load event
// and the following scripts do not wait for it (HTML; Chromium agrees).
func TestModuleTopLevelAwait(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": js(logPage + `<script type="module" src="main.js"></script>
<script type="module">log.push("next module")</script>`),
		"main.js": js(`import "./slow.js"; import "./fast.js"; log.push("main");`),
		"slow.js": js(`log.push("slow start"); await new Promise(r => { window.releaseSlow = r; }); log.push("slow end");`),
		"fast.js": js(`log.push("fast");`),
	}, browser.Config{})
	want := []any{"slow start", "fast", "next module", "DOMContentLoaded"}
	if got := eval(t, ctx, w, `log`); !reflect.DeepEqual(got, want) {
		t.Fatalf("log = %v, want %v", got, want)
	}
	eval(t, ctx, w, `releaseSlow(); 0`)
	want = append(want, "slow end", "main")
	if got := eval(t, ctx, w, `log`); !reflect.DeepEqual(got, want) {
		t.Fatalf("log after the await = %v, want %v", got, want)
	}
}

// import.meta.url is the module's URL; import.meta.resolve resolves
// against it.
func TestImportMeta(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": js(`<script type="module" src="dir/m.js"></script>
<script type="module">window.inlineURL = import.meta.url;</script>`),
		"dir/m.js": js(`window.meta = [import.meta.url, import.meta.resolve("../x.js"), Object.getPrototypeOf(import.meta)];`),
	}, browser.Config{})
	want := []any{"https://example.test/dir/m.js", "https://example.test/x.js", nil}
	if got := eval(t, ctx, w, `meta`); !reflect.DeepEqual(got, want) {
		t.Fatalf("meta = %v, want %v", got, want)
	}
	if got := eval(t, ctx, w, `inlineURL`); got != "https://example.test/" {
		t.Fatalf("inline module's import.meta.url = %v", got)
	}
}

// import() resolves against the calling script: a classic script's URL, a
// module's URL, the document for code run from the embedder; the module is
// evaluated once and the promise is its namespace.
func TestDynamicImportInWindow(t *testing.T) {
	w, ctx, count := openCounting(t, fstest.MapFS{
		"index.html":         js(`<script src="scripts/classic.js"></script><script type="module" src="mods/m.js"></script>`),
		"scripts/classic.js": js(`window.fromClassic = import("./dep.js").then(ns => ns.where);`),
		"scripts/dep.js":     js(`globalThis.depRuns = (globalThis.depRuns || 0) + 1; export const where = "scripts/dep.js";`),
		"mods/m.js":          js(`window.fromModule = import("../scripts/dep.js").then(ns => ns.where + " again");`),
		"top.js":             js(`export default 42;`),
	})
	if got := eval(t, ctx, w, `Promise.all([fromClassic, fromModule])`); !reflect.DeepEqual(got, []any{"scripts/dep.js", "scripts/dep.js again"}) {
		t.Fatalf("imports = %v", got)
	}
	if got := eval(t, ctx, w, `import("./top.js").then(ns => [ns.default, depRuns, ns[Symbol.toStringTag]])`); !reflect.DeepEqual(got, []any{int64(42), int64(1), "Module"}) {
		t.Fatalf("import from the embedder = %v", got)
	}
	if n := count("/scripts/dep.js"); n != 1 {
		t.Errorf("dep.js fetched %d times", n)
	}
}

// Errors: a 404 or a non-JavaScript MIME type anywhere in the graph fires
// error at the element (nothing runs); a syntax error or a bare specifier
// is reported at the window (error event) and the element still fires
// load; import() rejects with the matching errors.
func TestModuleErrors(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": js(`<script>
window.events = [];
addEventListener("error", e => events.push("window error " + e.error.name + (e.error.message.includes("bare") ? " bare" : "")));
function watch(id) { const el = document.getElementById(id); el.onload = () => events.push(id + " load"); el.onerror = () => events.push(id + " error"); }
</script>
<script type="module" id="missing" src="missing.js"></script>
<script type="module" id="deep404" src="imports-missing.js"></script>
<script type="module" id="mime" src="data.txt"></script>
<script type="module" id="syntax" src="syntax.js"></script>
<script type="module" id="bare" src="bare.js"></script>
<script>["missing", "deep404", "mime", "syntax", "bare"].forEach(watch)</script>`),
		"imports-missing.js": js(`import "./nope.js"; window.ran = true;`),
		"data.txt":           js(`window.ran = true;`),
		"syntax.js":          js(`window.ran = true; let let = 1;`),
		"bare.js":            js(`import "bare"; window.ran = true;`),
	}, browser.Config{})
	want := []any{"missing error", "deep404 error", "mime error", "window error SyntaxError", "syntax load", "window error TypeError bare", "bare load"}
	if got := eval(t, ctx, w, `events`); !reflect.DeepEqual(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
	if got := eval(t, ctx, w, `typeof ran`); got != "undefined" {
		t.Fatalf("a module of a failed graph ran")
	}
	got := eval(t, ctx, w, `Promise.all(["./missing.js", "./data.txt", "./syntax.js", "bare", "./imports-missing.js"].map(s => import(s).then(() => "ok", e => e.name)))`)
	if want := []any{"TypeError", "TypeError", "SyntaxError", "TypeError", "TypeError"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("import() errors = %v, want %v", got, want)
	}
}

// nomodule classic scripts are skipped; other types are data blocks.
func TestNoModule(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": js(`<script>window.log = []</script><script nomodule>log.push("nomodule")</script>
<script type="text/plain">log.push("data")</script><script type=" MODULE ">log.push("module")</script>`),
	}, browser.Config{})
	if got := eval(t, ctx, w, `log.join()`); got != "module" {
		t.Fatalf("log = %v", got)
	}
}

// Module workers: new Worker(url, {type: "module"}) runs a module graph
// (imports resolved against the worker's URL, import.meta.url), takes a
// lock the window sees, import() works, importScripts throws TypeError; a
// graph that fails to fetch fires error at the Worker.
func TestModuleWorker(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": js(`<script>
window.msgs = new Promise(resolve => {
  const got = [];
  const worker = new Worker("w/worker.js", {type: "module"});
  worker.onmessage = e => { got.push(e.data); if (got.length === 2) resolve(got); };
});
window.failed = new Promise(resolve => { new Worker("w/none.js", {type: "module"}).onerror = () => resolve("error"); });
</script>`),
		"w/worker.js": js(`import {name} from "./lib.js";
let importScriptsError;
try { importScripts("lib.js"); } catch (e) { importScriptsError = e.name; }
const dyn = await import("./lib.js");
postMessage([name, import.meta.url, importScriptsError, dyn.name === name]);
navigator.locks.request("module-worker-lock", () => { postMessage("holding"); return new Promise(() => {}); });`),
		"w/lib.js": js(`export const name = "lib";`),
	}, browser.Config{})
	want := []any{[]any{"lib", "https://example.test/w/worker.js", "TypeError", true}, "holding"}
	if got := eval(t, ctx, w, `msgs`); !reflect.DeepEqual(got, want) {
		t.Fatalf("worker messages = %v, want %v", got, want)
	}
	if got := eval(t, ctx, w, `navigator.locks.query().then(s => s.held.map(l => l.name).join())`); got != "module-worker-lock" {
		t.Fatalf("held = %v", got)
	}
	if got := eval(t, ctx, w, `failed`); got != "error" {
		t.Fatalf("failed worker: %v", got)
	}
}

// A classic worker can import() modules, resolved against its URL.
func TestDynamicImportInClassicWorker(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html":   js(`<script>window.got = new Promise(r => { new Worker("w/classic.js").onmessage = e => r(e.data); });</script>`),
		"w/classic.js": js(`import("./lib.js").then(ns => postMessage(ns.v), e => postMessage(String(e)));`),
		"w/lib.js":     js(`export const v = "from lib";`),
	}, browser.Config{})
	if got := eval(t, ctx, w, `got`); got != "from lib" {
		t.Fatalf("got %v", got)
	}
}

// Module shared workers: two connections reach one module worker whose
// module graph ran once; a classic SharedWorker of the same URL and name
// gets error (the type differs).
func TestModuleSharedWorker(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": js(`<script>
function ask(sw) { return new Promise(r => { sw.port.onmessage = e => r(e.data); sw.port.postMessage("hi"); }); }
const a = new SharedWorker("sw.js", {type: "module", name: "m"}), b = new SharedWorker("sw.js", {type: "module", name: "m"});
// Once b's connection answered, both connect events fired: ask a again.
window.answers = Promise.all([ask(a), ask(b)]).then(() => Promise.all([ask(a), ask(b)]));
window.mismatch = new Promise(r => { new SharedWorker("sw.js", {name: "m"}).onerror = () => r("error"); });
</script>`),
		"sw.js": js(`import {count} from "./counter.js";
let connections = 0;
onconnect = e => { connections++; const port = e.ports[0]; port.onmessage = () => port.postMessage([count(), connections, import.meta.url]); };`),
		"counter.js": js(`let n = 0; n++; export function count() { return n; }`),
	}, browser.Config{})
	got := eval(t, ctx, w, `answers`)
	want := []any{[]any{int64(1), int64(2), "https://example.test/sw.js"}, []any{int64(1), int64(2), "https://example.test/sw.js"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("answers = %v, want %v", got, want)
	}
	if got := eval(t, ctx, w, `mismatch`); got != "error" {
		t.Fatalf("mismatched type: %v", got)
	}
}

// An exception thrown while a module evaluates (or by its dependency) is
// reported once at the window (error event), not also as an unhandled
// rejection; modules after it in the graph do not run, other graphs do.
func TestModuleEvaluationErrorReportedOnce(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": js(`<script>
window.events = [];
addEventListener("error", e => { events.push("error " + e.error.message); e.preventDefault(); });
addEventListener("unhandledrejection", e => { events.push("unhandledrejection"); e.preventDefault(); });
</script>
<script type="module">import "./throws.js"; events.push("importer ran");</script>
<script type="module">events.push("other graph ran");</script>
<script type="module">await 0; throw new Error("after await");</script>`),
		"throws.js": js(`throw new RangeError("boom");`),
	}, browser.Config{})
	want := []any{"error boom", "other graph ran", "error after await"}
	if got := eval(t, ctx, w, `events`); !reflect.DeepEqual(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
}

// import() in an inline classic script resolves against the document's
// base URL (a base element), also from a callback run later.
func TestDynamicImportFromInlineClassicScript(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": js(`<base href="https://example.test/sub/"><script>
window.now = import("./m.js").then(ns => ns.v);
window.later = new Promise(r => setTimeout(() => r(import("./m.js").then(ns => ns.v + " later")), 0));
</script>`),
		"sub/m.js": js(`export const v = "sub/m.js";`),
	}, browser.Config{})
	if got := eval(t, ctx, w, `Promise.all([now, later])`); !reflect.DeepEqual(got, []any{"sub/m.js", "sub/m.js later"}) {
		t.Fatalf("got %v", got)
	}
}

// corsFetcher serves same-origin files through FSFetcher and answers
// cross-origin requests itself: ok.js with Access-Control-Allow-Origin *,
// denied.js without it. It records the Origin headers it got.
type corsFetcher struct {
	browser.FSFetcher
	mu      sync.Mutex
	origins []string
}

func (f *corsFetcher) FetchRequest(ctx context.Context, req *browser.FetchRequest) (*browser.FetchResponse, error) {
	if req.URL.Host != "other.test" {
		r, err := f.FSFetcher.Fetch(ctx, req.URL)
		if err != nil {
			return nil, err
		}
		return &browser.FetchResponse{Status: r.Status, Header: http.Header{"Content-Type": {r.ContentType}}, Body: r.Body}, nil
	}
	f.mu.Lock()
	f.origins = append(f.origins, req.URL.Path+" "+req.Header.Get("Origin"))
	f.mu.Unlock()
	h := http.Header{"Content-Type": {"text/javascript"}}
	if req.URL.Path == "/ok.js" {
		h.Set("Access-Control-Allow-Origin", "*")
	}
	return &browser.FetchResponse{Status: 200, Header: h, Body: []byte(`window.log.push("ran " + import.meta.url);`)}, nil
}

// A cross-origin module script is fetched in CORS mode: it runs when the
// response allows the document's origin, else its element fires error.
func TestCrossOriginModuleScriptsUseCORS(t *testing.T) {
	f := &corsFetcher{FSFetcher: browser.FSFetcher{FS: fstest.MapFS{
		"index.html": js(`<script>window.log = [];</script>
<script type="module" src="https://other.test/ok.js"></script>
<script type="module" src="https://other.test/denied.js" id="denied"></script>
<script type="module" src="same.js"></script>
<script>document.getElementById("denied").onerror = () => log.push("denied error");</script>`),
		"same.js": js(`log.push("same-origin");`),
	}}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b := browser.New(browser.Config{Fetcher: f})
	defer b.Close()
	w, err := b.Open(ctx, "https://example.test/")
	if err != nil {
		t.Fatal(err)
	}
	want := []any{"ran https://other.test/ok.js", "denied error", "same-origin"}
	if got := eval(t, ctx, w, `log`); !reflect.DeepEqual(got, want) {
		t.Fatalf("log = %v, want %v", got, want)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	sort.Strings(f.origins)
	if want := []string{"/denied.js https://example.test", "/ok.js https://example.test"}; !reflect.DeepEqual(f.origins, want) {
		t.Fatalf("cross-origin requests: %q", f.origins)
	}
}

// A module worker whose graph does not parse (a syntax error, a bare
// specifier) fires error at the Worker, with the error's message.
func TestModuleWorkerParseErrors(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": js(`<script>
function errorOf(url) {
  return new Promise(r => { new Worker(url, {type: "module"}).onerror = e => r(e.message.split(":")[0]); });
}
window.errors = Promise.all([errorOf("syntax.js"), errorOf("bare.js")]);
</script>`),
		"syntax.js": js(`import "./ok.js"; let let = 1;`),
		"bare.js":   js(`import "./ok.js"; import "bare";`),
		"ok.js":     js(``),
	}, browser.Config{})
	if got := eval(t, ctx, w, `errors`); !reflect.DeepEqual(got, []any{"SyntaxError", "TypeError"}) {
		t.Fatalf("errors = %v", got)
	}
}

// Importing a name a module does not export is a SyntaxError when the
// graph links: reported at the window for a script element (nothing in
// the graph runs), a rejection for import().
func TestModuleLinkError(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": js(`<script>
window.events = [];
addEventListener("error", e => { events.push(e.error.name); e.preventDefault(); });
</script>
<script type="module" src="main.js"></script>`),
		"main.js": js(`import {missing} from "./lib.js"; events.push("main ran");`),
		"lib.js":  js(`events.push("lib ran"); export const present = 1;`),
	}, browser.Config{})
	if got := eval(t, ctx, w, `events`); !reflect.DeepEqual(got, []any{"SyntaxError"}) {
		t.Fatalf("events = %v", got)
	}
	if got := eval(t, ctx, w, `import("./main.js").then(() => "ok", e => e.name)`); got != "SyntaxError" {
		t.Fatalf("import() = %v", got)
	}
}

// Deferred classic scripts and module scripts run after the parser-blocking
// scripts, together in document order, before DOMContentLoaded; async
// classic and module scripts run before load; external scripts that ran
// fire load at their element.
func TestDeferAsyncOrder(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": js(logPage + `<script>addEventListener("load", () => log.push("load"));</script>
<script defer src="d1.js" id="d1"></script>
<script type="module">log.push("m")</script>
<script defer src="d2.js"></script>
<script async src="as.js"></script>
<script type="module" async>log.push("am")</script>
<script>document.getElementById("d1").onload = () => log.push("d1 load"); log.push("blocking")</script>`),
		"d1.js": js(`log.push("d1")`),
		"d2.js": js(`log.push("d2")`),
		"as.js": js(`log.push("as")`),
	}, browser.Config{})
	got, _ := eval(t, ctx, w, `log`).([]any)
	at := map[any]int{}
	for i, v := range got {
		at[v] = i
	}
	for _, pair := range [][2]string{
		{"blocking", "d1"}, {"d1", "d1 load"}, {"d1 load", "m"}, {"m", "d2"}, {"d2", "DOMContentLoaded"},
		{"DOMContentLoaded", "load"}, {"as", "load"}, {"am", "load"},
	} {
		a, okA := at[pair[0]]
		b, okB := at[pair[1]]
		if !okA || !okB || a > b {
			t.Errorf("%q must run before %q: log = %v", pair[0], pair[1], got)
		}
	}
	if len(got) != 9 {
		t.Errorf("log = %v, want 9 entries", got)
	}
}

// import() in a service worker rejects with TypeError.
func TestImportInServiceWorkerIsTypeError(t *testing.T) {
	_, w, ctx := open(t, fstest.MapFS{
		"index.html": js(`<!doctype html><title>sw</title>`),
		"sw.js":      js(`const result = import("./m.js").then(() => "imported", e => e.name); self.onmessage = e => e.waitUntil(result.then(r => e.source.postMessage(r)));`),
		"m.js":       js(`export default 1;`),
	}, browser.Config{})
	got := eval(t, ctx, w, `navigator.serviceWorker.register("sw.js").then(reg => new Promise(r => {
  navigator.serviceWorker.onmessage = e => r(e.data);
  (reg.installing || reg.waiting || reg.active).postMessage("result");
}))`)
	if got != "TypeError" {
		t.Fatalf("import() in a service worker: %v", got)
	}
}
