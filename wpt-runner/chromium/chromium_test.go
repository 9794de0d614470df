package chromium

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/gowebengine/weblocks/internal/testenv"
	"github.com/gowebengine/weblocks/wpt-runner/manifest"
	"github.com/gowebengine/weblocks/wpt-runner/product"
	"github.com/gowebengine/weblocks/wpt-runner/report"
	"github.com/gowebengine/weblocks/wpt-runner/server"
)

// One browser and one server for the whole test binary; every test file
// still gets its own browser context.
var shared struct {
	once  sync.Once
	err   error
	c     *Chromium
	srv   *server.Server
	tests map[string]manifest.Test
	tree  *servedTree
}

// servedTree is the shared server's tree with one-shot hooks run when the
// server opens a file, so that a test can act when a page has got that far
// (an event) instead of after a fixed sleep.
type servedTree struct {
	fs.FS
	mu    sync.Mutex
	hooks map[string]func()
}

func (s *servedTree) Open(name string) (fs.File, error) {
	s.mu.Lock()
	hook := s.hooks[name]
	delete(s.hooks, name)
	s.mu.Unlock()
	if hook != nil {
		hook()
	}
	return s.FS.Open(name)
}

// onServe returns a channel closed when the server next opens name.
func (s *servedTree) onServe(name string) <-chan struct{} {
	ch := make(chan struct{})
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hooks == nil {
		s.hooks = map[string]func(){}
	}
	s.hooks[name] = func() { close(ch) }
	return ch
}

// testLog routes the shared browser's diagnostics to the test running now
// (a testing.T must not be used after its test has completed).
var testLog struct {
	mu sync.Mutex
	t  *testing.T
}

func logf(format string, args ...any) {
	testLog.mu.Lock()
	defer testLog.mu.Unlock()
	if testLog.t != nil {
		testLog.t.Logf(format, args...)
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.c != nil {
		shared.c.Close()
	}
	if shared.srv != nil {
		shared.srv.Close()
	}
	os.Exit(code)
}

// compatTree is a small WPT tree whose harness is upstream testharness.js
// (from the npm package wpt-runner) and whose tests exercise the runner's
// wrappers, substitutions and reporting.
func compatTree(t *testing.T) fstest.MapFS {
	read := func(p string) *fstest.MapFile {
		data, err := os.ReadFile(testenv.UpstreamHarness(t, p))
		if err != nil {
			t.Fatalf("upstream harness: %v", err)
		}
		return &fstest.MapFile{Data: data}
	}
	return fstest.MapFS{
		"resources/testharness.js":         read("testharness.js"),
		"resources/idlharness.js":          read("idlharness.js"),
		"resources/webidl2/lib/webidl2.js": read("webidl2/lib/webidl2.js"),
		"compat/resources/helper.js":       {Data: []byte("self.helperLoaded = true;\n")},
		"compat/basics.any.js": {Data: []byte(`// META: global=window,dedicatedworker,sharedworker
// META: script=resources/helper.js
// META: title=basics
test(() => { assert_true(self.helperLoaded); }, 'META script loaded');
test(() => { assert_equals(GLOBAL.isWindow(), typeof document !== 'undefined'); }, 'GLOBAL matches the scope');
test(() => { assert_equals(1, 2, 'one is two'); }, 'fails with a message');
promise_test(async t => {
  await promise_rejects_js(t, TypeError, Promise.reject(new TypeError('x')));
  await promise_rejects_dom(t, 'AbortError', Promise.reject(new DOMException('y', 'AbortError')));
}, 'promise rejections');
async_test(t => { step_timeout(t.step_func_done(() => {}), 10); }, 'async test');
test(() => { throw new OptionalFeatureUnsupportedError('nope'); }, 'precondition');
`)},
		"compat/https.https.any.js": {Data: []byte(`// META: global=window,serviceworker
test(() => { assert_true(self.isSecureContext); assert_equals(location.protocol, 'https:'); }, 'secure context over https');
`)},
		"compat/variants.window.js": {Data: []byte(`// META: variant=?a=1
// META: variant=?a=2
test(() => { assert_equals(location.search.length, 4); }, 'variant ' + location.search);
`)},
		"compat/sub.sub.html": {Data: []byte(`<!doctype html>
<script src="/resources/testharness.js"></script>
<script src="/resources/testharnessreport.js"></script>
<script>
test(() => { assert_equals(location.hostname, "{{host}}"); assert_equals(location.port, "{{ports[http][0]}}"); }, 'substituted host and port');
promise_test(async () => {
  const u = "http://{{domains[www]}}:{{ports[http][0]}}/common/dispatcher/dispatcher.py?uuid={{uuid()}}";
  assert_equals(await (await fetch(u, {method: 'POST', body: 'hello'})).text(), 'done');
  assert_equals(await (await fetch(u)).text(), 'hello');
  assert_equals(await (await fetch(u)).text(), 'not ready');
}, 'cross-origin dispatcher queue');
</script>`)},
		"compat/idl.https.window.js": {Data: []byte(`// META: script=/resources/WebIDLParser.js
// META: script=/resources/idlharness.js
test(() => {
  const idl = new IdlArray();
  idl.add_idls('[SecureContext, Exposed=(Window,Worker)] interface LockManager { Promise<LockManagerSnapshot> query(); };');
  idl.add_untested_idls('dictionary LockManagerSnapshot {};');
  idl.add_objects({LockManager: ['navigator.locks']});
  idl.test();
}, 'idlharness ran');
`)},
		"compat/timeout.any.js": {Data: []byte(`// META: global=window
setup({timeout_multiplier: 0.1}); // the harness times out after 1 s
test(() => {}, 'passes');
async_test(t => {}, 'never finishes');
`)},
		"compat/slow.window.js": {Data: []byte(`promise_test(() => new Promise(resolve => setTimeout(resolve, 2000)), 'takes two seconds');
`)},
		"compat/error.window.js": {Data: []byte(`test(() => {}, 'passes');
throw new Error('top-level boom');
`)},
		"compat/hang.html": {Data: []byte(`<!doctype html>
<script src="/resources/testharness.js"></script>
<script src="/resources/testharnessreport.js"></script>
<script>test(() => {}, 'before the loop'); for (;;) {}</script>`)},
		"compat/noharness.html": {Data: []byte(`<!doctype html><p>not a test
<script src="/resources/testharness.js"></script>`)},
		"compat/alert.html": {Data: []byte(`<!doctype html>
<script src="/resources/testharness.js"></script>
<script src="/resources/testharnessreport.js"></script>
<script>alert('hi'); test(() => {}, 'after alert');</script>`)},
		// leak.https.window.js checks that no state of an earlier run of
		// itself is left, then leaves some of every kind behind.
		"compat/leak.https.window.js": {Data: []byte(`test(() => { assert_equals(localStorage.length, 0); }, 'no localStorage item');
test(() => { assert_equals(document.cookie, ''); }, 'no cookie');
promise_test(async () => {
  const {held, pending} = await navigator.locks.query();
  assert_array_equals(held.concat(pending).map(l => l.name), []);
}, 'no lock held or requested');
promise_test(async () => { assert_equals((await indexedDB.databases()).length, 0); }, 'no IndexedDB database');
promise_test(async () => { assert_array_equals(await caches.keys(), []); }, 'no Cache API cache');
promise_test(async () => { assert_equals((await navigator.serviceWorker.getRegistrations()).length, 0); }, 'no service worker registration');
promise_test(async () => {
  localStorage.setItem('leak', '1');
  document.cookie = 'leak=1; max-age=3600';
  await new Promise((resolve, reject) => {
    const r = indexedDB.open('leak');
    r.onsuccess = () => { r.result.close(); resolve(); };
    r.onerror = () => reject(r.error);
  });
  await caches.open('leak');
  await navigator.serviceWorker.register('resources/leak-sw.js', {scope: 'resources/leak-scope/'});
  // ifAvailable: a run that finds the locks of an earlier one held ends.
  await new Promise(resolve => navigator.locks.request('window', {ifAvailable: true}, () => { resolve(); return new Promise(() => {}); }));
  const w = new SharedWorker('resources/leak-shared-worker.js');
  await new Promise(resolve => { w.port.onmessage = resolve; });
  const popup = new Promise(resolve => addEventListener('message', e => { if (e.data === 'popup') resolve(); }));
  assert_not_equals(window.open('resources/leak-popup.html'), null, 'the popup opened');
  await popup;
  const {held} = await navigator.locks.query();
  assert_array_equals(held.map(l => l.name).sort(), ['popup', 'shared worker', 'window']);
}, 'leaves a lock in a window, a shared worker and a popup, storage of every kind and a service worker registration');
`)},
		"compat/resources/leak-sw.js": {Data: []byte("// An empty service worker.\n")},
		"compat/resources/leak-shared-worker.js": {Data: []byte(`onconnect = e => {
  navigator.locks.request('shared worker', {ifAvailable: true}, () => { e.ports[0].postMessage('held'); return new Promise(() => {}); });
};
`)},
		// part.https.window.js checks that a cross-site frame finds no
		// storage of an earlier run, then leaves some behind.
		"compat/part.https.window.js": {Data: []byte(`promise_test(async () => {
  const f = document.createElement('iframe');
  f.src = 'https://not-web-platform.test:' + location.port + '/compat/resources/part-frame.html';
  const got = new Promise(resolve => addEventListener('message', e => resolve(e.data)));
  document.body.appendChild(f);
  const d = await got;
  assert_equals(d, 'ls=0 idb=0 caches=0', 'partitioned leftovers');
}, 'no partitioned leftovers');
`)},
		"compat/resources/part-frame.html": {Data: []byte(`<!doctype html>
<script>(async () => {
  const msg = 'ls=' + localStorage.length + ' idb=' + (await indexedDB.databases()).length + ' caches=' + (await caches.keys()).length;
  localStorage.setItem('x', '1');
  await new Promise(r => { const q = indexedDB.open('part'); q.onsuccess = () => { q.result.close(); r(); }; });
  await caches.open('part');
  parent.postMessage(msg, '*');
})();</script>`)},
		"compat/resources/leak-popup.html": {Data: []byte(`<!doctype html>
<script>navigator.locks.request('popup', {ifAvailable: true}, () => { opener.postMessage('popup', '*'); return new Promise(() => {}); });</script>`)},
		"compat/locks-a.https.window.js": {Data: []byte(`promise_test(async () => {
  const q = await navigator.locks.query();
  assert_equals(q.held.length, 0, 'no lock leaked from another test');
  navigator.locks.request('leak', () => new Promise(() => {}));
}, 'holds a lock forever');
`)},
		"compat/crashtests/finishes.html": {Data: []byte(`<!DOCTYPE html><html class="a test-wait"><script>setTimeout(() => document.documentElement.classList.remove('test-wait'), 50);</script>`)},
		"compat/crashtests/waits.html":    {Data: []byte(`<!DOCTYPE html><html class="test-wait"><p>never finishes`)},
		"compat/loads-crash.html":         {Data: []byte(`<!DOCTYPE html><p>no test-wait`)},
		"compat/locks-b.https.window.js": {Data: []byte(`promise_test(async () => {
  const q = await navigator.locks.query();
  assert_equals(q.held.length, 0, 'no lock leaked from another test');
  navigator.locks.request('leak', () => new Promise(() => {}));
}, 'holds a lock forever');
`)},
	}
}

// setup starts the shared browser and server (once).
func setup(t *testing.T) (*Chromium, *server.Server, map[string]manifest.Test) {
	t.Helper()
	path := testenv.Chromium(t)
	testLog.mu.Lock()
	testLog.t = t
	testLog.mu.Unlock()
	t.Cleanup(func() {
		testLog.mu.Lock()
		if testLog.t == t {
			testLog.t = nil
		}
		testLog.mu.Unlock()
	})
	tree := compatTree(t)
	shared.once.Do(func() {
		shared.tree = &servedTree{FS: tree}
		tests, _, err := manifest.Discover(tree, nil)
		if err != nil {
			shared.err = err
			return
		}
		shared.tests = map[string]manifest.Test{}
		for _, x := range tests {
			shared.tests[x.ID] = x
		}
		srv, err := server.Start(server.Config{Root: shared.tree, TimeoutMultiplier: 1})
		if err != nil {
			shared.err = err
			return
		}
		shared.srv = srv
		c := New(path)
		if err := c.Start(context.Background(), srv.Env(2, logf)); err != nil {
			shared.err = err
			return
		}
		shared.c = c
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.c, shared.srv, shared.tests
}

func runIDs(t *testing.T, ids ...string) map[string]product.TestResult {
	return runIDsWithin(t, 10*time.Second, 4*time.Second, ids...)
}

// runIDsWithin runs tests with the given harness timeout and grace, two
// at a time as with --jobs 2.
func runIDsWithin(t *testing.T, timeout, grace time.Duration, ids ...string) map[string]product.TestResult {
	c, srv, tests := setup(t)
	out := map[string]product.TestResult{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2) // as many as the product's --jobs
	for _, id := range ids {
		test, ok := tests[id]
		if !ok {
			t.Fatalf("no test %s", id)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			req := product.TestRequest{ID: id, URL: srv.URL(test), Global: test.Global, Timeout: timeout, TimeoutMultiplier: 1, Crashtest: test.Crashtest}
			res := product.SafeRun(context.Background(), c, req, grace)
			mu.Lock()
			out[id] = res
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

func subtests(r product.TestResult) map[string]product.SubtestResult {
	m := map[string]product.SubtestResult{}
	for _, s := range r.Subtests {
		m[s.Name] = s
	}
	return m
}

func TestUpstreamHarnessInEveryScope(t *testing.T) {
	ids := []string{"/compat/basics.any.html", "/compat/basics.any.worker.html", "/compat/basics.any.sharedworker.html"}
	results := runIDs(t, ids...)
	for _, id := range ids {
		r := results[id]
		if r.Status != product.OK {
			t.Errorf("%s: harness %s %q", id, r.Status, r.Message)
			continue
		}
		st := subtests(r)
		want := map[string]product.Status{
			"META script loaded": product.PASS, "GLOBAL matches the scope": product.PASS,
			"fails with a message": product.FAIL, "promise rejections": product.PASS,
			"async test": product.PASS, "precondition": product.PRECONDITION_FAILED,
		}
		if len(st) != len(want) {
			t.Errorf("%s: subtests %+v", id, r.Subtests)
		}
		for name, status := range want {
			if st[name].Status != status {
				t.Errorf("%s | %s: %s %q, want %s", id, name, st[name].Status, st[name].Message, status)
			}
		}
		if m := st["fails with a message"].Message; !strings.Contains(m, "one is two") || !strings.Contains(m, "expected 2 but got 1") {
			t.Errorf("%s: failure message %q", id, m)
		}
	}
}

func TestHTTPSServiceWorkerVariantsSubAndIDL(t *testing.T) {
	ids := []string{"/compat/https.https.any.html", "/compat/https.https.any.serviceworker.html",
		"/compat/variants.window.html?a=1", "/compat/variants.window.html?a=2",
		"/compat/sub.sub.html", "/compat/idl.https.window.html"}
	results := runIDs(t, ids...)
	for _, id := range ids {
		r := results[id]
		if r.Status != product.OK || len(r.Subtests) == 0 {
			t.Errorf("%s: %s %q %+v", id, r.Status, r.Message, r.Subtests)
			continue
		}
		for _, s := range r.Subtests {
			if s.Status != product.PASS {
				t.Errorf("%s | %s: %s %s", id, s.Name, s.Status, s.Message)
			}
		}
	}
	if st := subtests(results["/compat/variants.window.html?a=2"]); st["variant ?a=2"].Status != product.PASS {
		t.Errorf("variant name: %+v", results["/compat/variants.window.html?a=2"].Subtests)
	}
	if n := len(results["/compat/idl.https.window.html"].Subtests); n < 5 {
		t.Errorf("idlharness produced only %d subtests", n)
	}
}

// Crash tests: PASS once loaded and without the class "test-wait" on the
// root, TIMEOUT when it stays.
func TestCrashtests(t *testing.T) {
	results := runIDs(t, "/compat/crashtests/finishes.html", "/compat/loads-crash.html")
	for id, r := range runIDsWithin(t, time.Second, 2*time.Second, "/compat/crashtests/waits.html") {
		results[id] = r
	}
	for id, want := range map[string]product.Status{
		"/compat/crashtests/finishes.html": product.PASS,
		"/compat/loads-crash.html":         product.PASS,
		"/compat/crashtests/waits.html":    product.TIMEOUT,
	} {
		if r := results[id]; r.Status != want || len(r.Subtests) != 0 {
			t.Errorf("%s: %+v, want %s", id, r, want)
		}
	}
	if r := results["/compat/crashtests/waits.html"]; !strings.Contains(r.Message, "test-wait") {
		t.Errorf("the crash test's TIMEOUT does not say what it waited for: %q", r.Message)
	}
}

func TestStatuses(t *testing.T) {
	start := time.Now()
	results := runIDs(t, "/compat/timeout.any.html", "/compat/error.window.html", "/compat/noharness.html", "/compat/alert.html")
	for id, r := range runIDsWithin(t, time.Second, time.Second, "/compat/hang.html") {
		results[id] = r
	}
	// The harness's own timeout: harness TIMEOUT, the unfinished test TIMEOUT.
	r := results["/compat/timeout.any.html"]
	st := subtests(r)
	if r.Status != product.TIMEOUT || st["passes"].Status != product.PASS || st["never finishes"].Status != product.TIMEOUT {
		t.Errorf("timeout: %+v", r)
	}
	r = results["/compat/error.window.html"]
	if r.Status != product.ERROR || !strings.Contains(r.Message, "top-level boom") {
		t.Errorf("error: %+v", r)
	}
	// A page stuck in a loop never reports: the runner's TIMEOUT.
	if r := results["/compat/hang.html"]; r.Status != product.TIMEOUT {
		t.Errorf("hang: %+v", r)
	}
	if r := results["/compat/noharness.html"]; r.Status != product.ERROR || !strings.Contains(r.Message, "testharnessreport.js") {
		t.Errorf("no harness: %+v", r)
	}
	if r := results["/compat/alert.html"]; r.Status != product.OK || len(r.Subtests) != 1 || r.Subtests[0].Status != product.PASS {
		t.Errorf("alert: %+v", r)
	}
	if d := time.Since(start); d > time.Minute { // only a wedged run takes this long
		t.Errorf("status tests took %v", d)
	}
}

func TestNoLockLeftByAnEarlierTest(t *testing.T) {
	// Each test holds a lock forever and checks that none is held when it
	// starts; run one after the other in the same browser.
	for _, id := range []string{"/compat/locks-a.https.window.html", "/compat/locks-b.https.window.html", "/compat/locks-a.https.window.html"} {
		r := runIDs(t, id)[id]
		if r.Status != product.OK || len(r.Subtests) != 1 || r.Subtests[0].Status != product.PASS {
			t.Errorf("%s: %+v", id, r)
		}
	}
}

func TestReportHTMLInChromium(t *testing.T) {
	c, _, _ := setup(t)
	t0 := time.Now()
	a := &report.Run{Product: "go", TimeStart: t0, TimeEnd: t0, Results: map[string]product.TestResult{
		"/x.any.html": {Status: product.OK, Subtests: []product.SubtestResult{{Name: "s1", Status: product.PASS}, {Name: "s2", Status: product.FAIL, Message: "boom"}}},
		"/y.any.html": {Status: product.OK, Subtests: []product.SubtestResult{{Name: "s", Status: product.PASS}}},
	}}
	b := &report.Run{Product: "chromium", TimeStart: t0, TimeEnd: t0, Results: map[string]product.TestResult{
		"/x.any.html": {Status: product.OK, Subtests: []product.SubtestResult{{Name: "s1", Status: product.PASS}, {Name: "s2", Status: product.PASS}}},
		"/y.any.html": {Status: product.OK, Subtests: []product.SubtestResult{{Name: "s", Status: product.PASS}}},
	}}
	file := filepath.Join(t.TempDir(), "report.html")
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.Compare([]*report.Run{a, b}).WriteHTML(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	tabCtx, cancel := chromedp.NewContext(c.BrowserContext())
	defer cancel()
	ctx, cancel2 := context.WithTimeout(tabCtx, 20*time.Second)
	defer cancel2()
	if err := chromedp.Do(tabCtx); err != nil {
		t.Fatal(err)
	}
	type page struct {
		Diffs       int      `json:"diffs"`
		DiffText    []string `json:"diffText"`
		Highlighted bool     `json:"highlighted"`
		PlainBg     string   `json:"plainBg"`
		Count       string   `json:"count"`
		Headers     []string `json:"headers"`
		VisibleDiff []int    `json:"visibleDiff"`
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[page](`(() => {
		const diffs = [...document.querySelectorAll('tr.diff')];
		const plain = document.querySelector('tr.subtest:not(.diff)');
		return {
			diffs: diffs.length,
			diffText: diffs.map(r => r.innerText.replace(/\s+/g, ' ').trim()),
			highlighted: diffs.every(r => getComputedStyle(r.cells[0]).backgroundColor !== getComputedStyle(plain.cells[0]).backgroundColor),
			plainBg: getComputedStyle(plain.cells[0]).backgroundColor,
			count: document.getElementById('differences').textContent,
			headers: [...document.querySelectorAll('thead th')].map(th => th.textContent),
			visibleDiff: (() => {
				const visible = () => [...document.querySelectorAll('tbody tr')].filter(r => r.offsetParent !== null).length;
				const before = visible();
				const box = document.getElementById('only-diff');
				box.click();
				const after = visible();
				return [before, after];
			})(),
		};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Diffs != 1 || got.Count != "1" || !got.Highlighted || !strings.Contains(got.DiffText[0], "s2") ||
		!strings.Contains(got.DiffText[0], "FAIL") || !strings.Contains(got.DiffText[0], "boom") || !strings.Contains(got.DiffText[0], "PASS") ||
		strings.Join(got.Headers, ",") != "test / subtest,go,chromium" ||
		// 5 rows; with "show only differences": the test /x.any.html and its s2.
		got.VisibleDiff[0] != 5 || got.VisibleDiff[1] != 2 {
		t.Errorf("report page: %+v", got)
	}
}

func TestBrowserRestartAfterCrash(t *testing.T) {
	c, _, _ := setup(t)
	before := runIDs(t, "/compat/variants.window.html?a=1")["/compat/variants.window.html?a=1"]
	if before.Status != product.OK {
		t.Fatalf("before: %+v", before)
	}
	b := chromedp.FromContext(c.BrowserContext()).Browser
	if err := b.Process().Kill(); err != nil {
		t.Fatal(err)
	}
	// chromedp reaps the process and fails every call from then on. The
	// bound only keeps a broken build from hanging; on a loaded machine
	// the answer takes a while.
	deadline := time.Now().Add(crashDrillTimeout)
	for alive(c.BrowserContext()) {
		if time.Now().After(deadline) {
			t.Fatal("the killed browser still answers")
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The tabs opened ahead of time are dead; the product notices, starts
	// a new browser and the run goes on. The restart counts against the
	// first test's time: give it the time a loaded machine needs.
	for _, id := range []string{"/compat/variants.window.html?a=1", "/compat/variants.window.html?a=2", "/compat/sub.sub.html"} {
		r := runIDsWithin(t, crashDrillTimeout, 4*time.Second, id)[id]
		if r.Status != product.OK {
			t.Errorf("%s after the crash: %+v", id, r)
		}
	}
}

// crashDrillTimeout bounds a test that includes restarting Chromium, which
// takes seconds on a loaded 2-core machine. Tests end as soon as their
// result is in, so a generous bound costs nothing when all is well.
const crashDrillTimeout = 60 * time.Second

// A closed product leaves nothing in the temporary directory: neither its
// profile nor the org.chromium.Chromium.* directories Chromium creates.
func TestNoTemporaryDirectoriesLeft(t *testing.T) {
	path := testenv.Chromium(t)
	_, srv, tests := setup(t) // the shared browser lives elsewhere
	// Short: Chromium's singleton socket path must fit in 108 bytes.
	tmp, err := os.MkdirTemp("", "c")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	t.Setenv("TMPDIR", tmp)
	c := New(path)
	if err := c.Start(context.Background(), srv.Env(1, logf)); err != nil {
		t.Fatal(err)
	}
	id := "/compat/variants.window.html?a=1"
	test, ok := tests[id]
	if !ok {
		t.Fatalf("no test %s", id)
	}
	res := product.SafeRun(context.Background(), c, product.TestRequest{ID: id, URL: srv.URL(test), Global: test.Global, Timeout: 10 * time.Second, TimeoutMultiplier: 1}, 4*time.Second)
	if res.Status != product.OK {
		t.Errorf("%s: %s %s", id, res.Status, res.Message)
	}
	if entries, _ := os.ReadDir(tmp); len(entries) == 0 {
		t.Error("the browser's temporary directory is not under TMPDIR")
	}
	c.Close()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left behind: %s", filepath.Join(tmp, e.Name()))
	}
}

// A page that cannot load is an ERROR that says so, not a TIMEOUT.
func TestUnreachablePage(t *testing.T) {
	c, _, _ := setup(t)
	// Nothing listens on port 1.
	req := product.TestRequest{ID: "/unreachable.html", URL: "https://web-platform.test:1/unreachable.html", Timeout: 10 * time.Second, TimeoutMultiplier: 1}
	res := product.SafeRun(context.Background(), c, req, 4*time.Second)
	if res.Status != product.ERROR || !strings.Contains(res.Message, "loading https://web-platform.test:1/unreachable.html") {
		t.Errorf("unreachable page: %+v", res)
	}
}

// The windows the product opens start no WebUI renderers of their own
// (DisabledFeatures): a test page is the only web content of its browser
// context.
func TestNoBrowserUIPagesPerWindow(t *testing.T) {
	c, srv, tests := setup(t)
	id := "/compat/locks-a.https.window.html"
	test := tests[id]
	b := chromedp.FromContext(c.BrowserContext()).Browser
	var found []string
	var mu sync.Mutex
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Look while the test runs: the product disposes of the
		// browser context when it ends.
		for i := 0; i < 100; i++ {
			ts, err := cdp.Call(context.Background(), b, target.GetTargets, target.GetTargetsParams{})
			if err == nil {
				for _, ti := range ts.TargetInfos {
					if ti.Type == "browser_ui" && ti.BrowserContextID != "" {
						mu.Lock()
						found = append(found, ti.URL)
						mu.Unlock()
					}
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	res := product.SafeRun(context.Background(), c, product.TestRequest{ID: id, URL: srv.URL(test), Timeout: 10 * time.Second, TimeoutMultiplier: 1}, 4*time.Second)
	<-done
	if res.Status != product.OK {
		t.Errorf("%s: %+v", id, res)
	}
	if len(found) > 0 {
		t.Errorf("browser UI pages in the test's windows: %v", found)
	}
}

// A browser that dies while a test runs is restarted, and the test runs
// again in the new one.
func TestBrowserDiesDuringTest(t *testing.T) {
	c, _, _ := setup(t)
	if r := runIDs(t, "/compat/variants.window.html?a=1")["/compat/variants.window.html?a=1"]; r.Status != product.OK {
		t.Fatalf("before: %+v", r)
	}
	proc := chromedp.FromContext(c.BrowserContext()).Browser.Process()
	// The browser is killed when the page asks for the test's script,
	// that is while the test runs (it then waits two seconds).
	started := shared.tree.onServe("compat/slow.window.js")
	killed := make(chan error, 1)
	go func() {
		<-started
		killed <- proc.Kill()
	}()
	id := "/compat/slow.window.html"
	r := runIDsWithin(t, crashDrillTimeout, 4*time.Second, id)[id]
	select {
	case err := <-killed:
		if err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatal("the page never asked for its test script")
	}
	if r.Status != product.OK || len(r.Subtests) != 1 || r.Subtests[0].Status != product.PASS {
		t.Errorf("%s: %+v", id, r)
	}
	if chromedp.FromContext(c.BrowserContext()).Browser.Process().Pid == proc.Pid {
		t.Error("the browser was not restarted")
	}
}

// leakID is the test that leaves state behind (see compatTree).
const leakID = "/compat/leak.https.window.html"

// A test finds nothing that an earlier test left in its browser context:
// no lock (held by a window, a shared worker or a popup), no storage, no
// service worker registration. The second run uses the context of the
// first.
func TestContextCleanedBetweenTests(t *testing.T) {
	c, _, _ := setup(t)
	for i := 0; i < 3; i++ {
		r := runAfterCleaning(t, c, i, leakID)
		if r.Status != product.OK || len(r.Subtests) != 7 {
			t.Fatalf("run %d: %+v", i, r)
		}
		for _, s := range r.Subtests {
			if s.Status != product.PASS {
				t.Errorf("run %d: %s: %s %s", i, s.Name, s.Status, s.Message)
			}
		}
	}
}

// Without the cleaning, the second run of the leak test sees everything
// the first left: the test above can fail.
func TestLeftoversSeenWithoutCleaning(t *testing.T) {
	c, _, _ := setup(t)
	b := chromedp.FromContext(c.BrowserContext()).Browser
	c.pool.mu.Lock()
	c.pool.noClean = true
	c.pool.mu.Unlock()
	defer func() {
		// Drop the contexts used without cleaning.
		c.waitCleaned()
		c.pool.mu.Lock()
		c.pool.noClean = false
		idle := c.pool.idle
		c.pool.idle = nil
		c.pool.mu.Unlock()
		for _, sl := range idle {
			dispose(b, sl)
			c.slotGone()
		}
	}()
	c.waitCleaned()
	first := runIDs(t, leakID)[leakID]
	if st := subtests(first); first.Status != product.OK || st["no lock held or requested"].Status != product.PASS {
		t.Fatalf("first run: %+v", first)
	}
	c.waitCleaned()
	second := subtests(runIDs(t, leakID)[leakID])
	for _, name := range []string{"no localStorage item", "no cookie", "no lock held or requested", "no IndexedDB database", "no Cache API cache", "no service worker registration"} {
		if second[name].Status != product.FAIL {
			t.Errorf("%s: %s, want FAIL (the leftover went unnoticed)", name, second[name].Status)
		}
	}
	if m := second["no lock held or requested"].Message; !strings.Contains(m, "popup") || !strings.Contains(m, "shared worker") || !strings.Contains(m, "window") {
		t.Errorf("left locks: %q", m)
	}
}

// An idle context whose anchor went away (its session detached) is not
// reused, and it is disposed of rather than left in the browser.
func TestDetachedIdleContextDisposed(t *testing.T) {
	c, _, _ := setup(t)
	b := chromedp.FromContext(c.BrowserContext()).Browser
	const id = "/compat/locks-a.https.window.html"
	if r := runIDs(t, id)[id]; r.Status != product.OK {
		t.Fatalf("first run: %+v", r)
	}
	c.waitCleaned()
	c.pool.mu.Lock()
	idle := append([]*slot(nil), c.pool.idle...)
	c.pool.mu.Unlock()
	if len(idle) == 0 {
		t.Fatal("no idle context after a test")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, sl := range idle {
		if _, err := cdp.Call(ctx, b, target.CloseTarget, target.CloseTargetParams{TargetID: sl.anchor}); err != nil {
			t.Fatal(err)
		}
	}
	for _, sl := range idle {
		select {
		case <-sl.s.done:
		case <-ctx.Done():
			t.Fatal("the anchor's session did not detach")
		}
	}
	if r := runIDs(t, id)[id]; r.Status != product.OK {
		t.Fatalf("second run: %+v", r)
	}
	gone := func() bool {
		bcs, err := cdp.Call(ctx, b, target.GetBrowserContexts, cdp.Empty{})
		if err != nil {
			t.Fatal(err)
		}
		for _, sl := range idle {
			for _, id := range bcs.BrowserContextIDs {
				if id == sl.id {
					return false
				}
			}
		}
		return true
	}
	for !gone() {
		select {
		case <-ctx.Done():
			t.Fatal("a context whose anchor closed was left in the browser")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// A cross-site frame's storage, which Chromium keys by the top-level site
// too (partitioned), is cleared as well: the second and third runs, in
// the context of the first, find none.
func TestPartitionedStorageCleaned(t *testing.T) {
	c, _, _ := setup(t)
	const id = "/compat/part.https.window.html"
	for i := 0; i < 3; i++ {
		r := runAfterCleaning(t, c, i, id)
		if st := subtests(r)["no partitioned leftovers"]; r.Status != product.OK || st.Status != product.PASS {
			t.Errorf("run %d: %s %+v", i, r.Status, r.Subtests)
		}
	}
}

// runAfterCleaning runs test id once no context is being cleaned, and
// (for every run but the first, i > 0) reports an error if it did not
// run in a reused browser context.
func runAfterCleaning(t *testing.T, c *Chromium, i int, id string) product.TestResult {
	t.Helper()
	c.waitCleaned()
	c.pool.mu.Lock()
	reused := c.pool.reused
	c.pool.mu.Unlock()
	r := runIDs(t, id)[id]
	c.pool.mu.Lock()
	if i > 0 && c.pool.reused == reused {
		t.Errorf("run %d did not reuse a browser context", i)
	}
	c.pool.mu.Unlock()
	return r
}
