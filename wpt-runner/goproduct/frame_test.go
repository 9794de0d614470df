package goproduct

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The frame page holds Web Locks on request of its parent and answers with
// postMessage: the protocol the upstream web-locks frame tests use, written
// here from scratch.
const lockFrame = `<!doctype html><script>
const held = new Map(); let next = 1;
addEventListener("message", e => {
  const reply = d => parent.postMessage(Object.assign(d, {id: e.data.id}), "*");
  if (e.data.op === "hold") {
    navigator.locks.request(e.data.name, {ifAvailable: !!e.data.ifAvailable}, lock => {
      if (!lock) { reply({failed: true}); return; }
      const n = next++;
      reply({held: n});
      return new Promise(r => held.set(n, r));
    });
  } else if (e.data.op === "release") {
    held.get(e.data.n)(); reply({released: e.data.n});
  } else if (e.data.op === "whoami") {
    reply({origin: location.origin, sameSource: e.source === parent});
  }
});
</script>`

const framePage = pageHead + `<script>
let nextID = 0;
function load(src, attrs = {}) {
  return new Promise(resolve => {
    const f = document.createElement("iframe");
    for (const [k, v] of Object.entries(attrs)) f[k] = v;
    f.addEventListener("load", () => resolve(f), {once: true});
    f.src = src;
    document.body.appendChild(f);
  });
}
function ask(f, data) {
  data.id = nextID++;
  return new Promise(resolve => {
    addEventListener("message", function l(e) {
      if (e.source !== f.contentWindow || e.data.id !== data.id) return;
      removeEventListener("message", l);
      resolve(e.data);
    });
    f.contentWindow.postMessage(data, "*");
  });
}
async function available(name) {
  let got;
  await navigator.locks.request(name, {ifAvailable: true}, l => { got = l !== null; });
  return got;
}

promise_test(async () => {
  const f = await load("frame.html");
  assert_equals(typeof f.contentWindow.postMessage, "function");
  assert_equals(f.contentWindow, f.contentWindow, "contentWindow is stable");
  const r = await ask(f, {op: "whoami"});
  assert_equals(r.origin, location.origin);
  assert_true(r.sameSource, "event.source in the frame is window.parent");
  f.remove();
  assert_equals(f.contentWindow, null, "no contentWindow once removed");
}, "messages both ways, source identity");

promise_test(async () => {
  const f1 = await load("frame.html"), f2 = await load("frame.html");
  const {held} = await ask(f1, {op: "hold", name: "L1"});
  assert_false(await available("L1"), "held by frame 1");
  assert_true((await ask(f2, {op: "hold", name: "L1", ifAvailable: true})).failed, "frame 2 cannot get it");
  await ask(f1, {op: "release", n: held});
  assert_true(await available("L1"), "released");
  f1.remove(); f2.remove();
}, "frames share the origin's lock manager");

promise_test(async () => {
  const f = await load("frame.html");
  await ask(f, {op: "hold", name: "L2"});
  const granted = navigator.locks.request("L2", () => "granted");
  f.remove();
  assert_equals(await granted, "granted");
}, "removing the iframe releases its locks");

promise_test(async () => {
  const f = await load("frame.html");
  await ask(f, {op: "hold", name: "L3"});
  const granted = navigator.locks.request("L3", () => "granted");
  const loaded = new Promise(r => f.addEventListener("load", r, {once: true}));
  f.src = "about:blank";
  assert_equals(await granted, "granted");
  await loaded;
  f.remove();
}, "navigating the iframe releases its locks and fires load");

promise_test(async () => {
  const script = "<script>onmessage = async e => { try { await navigator.locks.request('S', () => {}); parent.postMessage('ok', '*'); } catch (x) { parent.postMessage(x.name, '*'); } };<\/script>";
  for (const [sandbox, want] of [[null, "ok"], ["allow-scripts", "SecurityError"]]) {
    const f = await new Promise(resolve => {
      const f = document.createElement("iframe");
      f.onload = () => resolve(f);
      if (sandbox) f.sandbox = sandbox;
      f.srcdoc = script;
      document.body.appendChild(f);
    });
    const got = new Promise(resolve => addEventListener("message", function l(e) {
      if (e.source === f.contentWindow) { removeEventListener("message", l); resolve(e.data); }
    }));
    f.contentWindow.postMessage("go", "*");
    assert_equals(await got, want, "sandbox " + sandbox);
    f.remove();
  }
}, "srcdoc frames, sandboxed ones have an opaque origin");
</script>`

func TestIframes(t *testing.T) {
	h := startProduct(t, testTree(t, nil, map[string]string{
		"f/page.https.html":  framePage,
		"f/frame.html":       lockFrame,
		"f/frame.https.html": lockFrame,
	}))
	r := h.run(t, "/f/page.https.html", 20*time.Second)
	expectAllPass(t, r, "messages both ways, source identity", "frames share the origin's lock manager",
		"removing the iframe releases its locks", "navigating the iframe releases its locks and fires load",
		"srcdoc frames, sandboxed ones have an opaque origin")
}

const popupPage = pageHead + `<script>
promise_test(async () => {
  const w = window.open("popup.html?name=P1");
  assert_equals(typeof w.postMessage, "function");
  const e = await new Promise(resolve => addEventListener("message", resolve, {once: true}));
  assert_equals(e.source, w, "the message comes from the opened window");
  assert_equals(e.data.opener, true, "the popup has an opener");
  assert_equals(e.data.name, "P1", "URLSearchParams over location.search");
  let free;
  await navigator.locks.request("P1", {ifAvailable: true}, l => { free = l !== null; });
  assert_false(free, "the popup holds the lock");
  const granted = navigator.locks.request("P1", () => "granted");
  w.close();
  assert_equals(await granted, "granted", "closing the popup releases its lock");
  assert_true(w.closed);
}, "window.open, opener messaging and close");

test(() => {
  assert_equals(window.open("popup.html?name=P2", "_blank", "noopener"), null);
}, "noopener gives null");
</script>`

const popupChild = `<!doctype html><script>
const name = new URLSearchParams(location.search).get("name");
navigator.locks.request(name, () => {
  if (opener) opener.postMessage({opener: true, name}, "*");
  return new Promise(() => {});
});
</script>`

func TestWindowOpen(t *testing.T) {
	h := startProduct(t, testTree(t, nil, map[string]string{
		"p/page.https.html":  popupPage,
		"p/popup.html":       popupChild,
		"p/popup.https.html": popupChild,
	}))
	// popup.html is resolved against the https page.
	expectAllPass(t, h.run(t, "/p/page.https.html", 20*time.Second), "window.open, opener messaging and close", "noopener gives null")
}

const urlTest = `test(() => {
  const u = new URL("/a/b?x=1&y=two+words#h", "https://WWW.Example.test:443/c/d");
  assert_equals(u.href, "https://www.example.test/a/b?x=1&y=two+words#h");
  assert_equals(u.origin, "https://www.example.test");
  assert_equals(u.searchParams.get("y"), "two words");
  u.searchParams.set("z", "a b");
  assert_equals(u.search, "?x=1&y=two+words&z=a+b");
  u.host = "other.test:8443";
  assert_equals(u.href, "https://other.test:8443/a/b?x=1&y=two+words&z=a+b#h");
  u.protocol = "http";
  assert_equals(u.origin, "http://other.test:8443");
  assert_throws_js(TypeError, () => new URL("nope"));
  assert_equals(new URL("x.html", location.href).pathname, "/u/x.html");
  assert_equals(new URLSearchParams("?a=1&a=2&b=%20").getAll("a").join(), "1,2");
  assert_equals(new URLSearchParams({k: "v w"}).toString(), "k=v+w");
  assert_equals(String(new URL("about:blank")), "about:blank");
}, "URL and URLSearchParams");`

func TestURL(t *testing.T) {
	h := startProduct(t, testTree(t, nil, map[string]string{"u/url.any.js": urlTest}))
	expectAllPass(t, h.run(t, "/u/url.any.html", 10*time.Second), "URL and URLSearchParams")
	expectAllPass(t, h.run(t, "/u/url.any.worker.html", 10*time.Second), "URL and URLSearchParams")
}

const markupFramePage = pageHead + `<iframe id=f src="frame.html"></iframe>
<script>
const f = document.getElementById("f");
let frameLoaded = false;
f.addEventListener("load", () => { frameLoaded = true; });
async_test(t => {
  window.addEventListener("load", t.step_func(() => {
    assert_true(frameLoaded, "the iframe's load came before the window's");
    addEventListener("message", t.step_func_done(e => {
      assert_equals(e.source, f.contentWindow);
      assert_equals(e.data.origin, location.origin);
    }));
    f.contentWindow.postMessage({op: "whoami", id: 1}, "*");
  }));
}, "iframe in the markup");
</script>`

func TestMarkupIframe(t *testing.T) {
	h := startProduct(t, testTree(t, nil, map[string]string{
		"g/page.html":  markupFramePage,
		"g/frame.html": lockFrame,
	}))
	expectAllPass(t, h.run(t, "/g/page.html", 10*time.Second), "iframe in the markup")
}

// HTML's [[SetPrototypeOf]] of a cross-origin WindowProxy and Location is
// SetImmutablePrototype: a TypeError (Chromium: SecurityError, so the test
// lives in the suite's chromium-deviations).
func TestCrossOriginSetPrototypeOfIsTypeError(t *testing.T) {
	dir := filepath.Join("..", "suite", "testdata", "chromium-deviations")
	files := map[string]string{}
	for _, f := range []string{"cross-origin-set-prototype.https.window.js", "resources/blank-frame.html"} {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		files["chromium-deviations/"+f] = string(b)
	}
	h := startProduct(t, testTree(t, nil, files))
	expectAllPass(t, h.run(t, "/chromium-deviations/cross-origin-set-prototype.https.window.html", 20*time.Second),
		"Object.setPrototypeOf of a cross-origin WindowProxy or Location throws TypeError")
}
