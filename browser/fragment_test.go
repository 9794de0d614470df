package browser_test

import (
	"reflect"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
)

var fragmentSite = fstest.MapFS{
	"page.html": {Data: []byte(`<script>
var log = [];
navigator.locks.request("L", () => { log.push("held"); return new Promise(() => {}); });
addEventListener("pagehide", () => log.push("pagehide"));
addEventListener("unload", () => log.push("unload"));
addEventListener("popstate", e => log.push("popstate " + e.state + " " + location.hash));
const frag = u => u.includes("#") ? u.slice(u.indexOf("#")) : "(none)";
onhashchange = e => log.push("hashchange " + frag(e.oldURL) + " -> " + frag(e.newURL) + " " + (e instanceof HashChangeEvent));
var marker = {};
</script>`)},
}

// A fragment navigation keeps the document, its realm and its lock: no
// pagehide or unload; popstate fires at once and hashchange in a task, a
// new session history entry is made, and history.back() traverses to the
// first entry within the same document.
func TestFragmentNavigationKeepsDocumentAndLocks(t *testing.T) {
	_, w, ctx := openPage(t, fragmentSite, browser.Config{}, "https://example.test/page.html", 60*time.Second)
	<-w.Loaded()
	waitFor(t, ctx, "held", func() bool { return eval(t, ctx, w, `log.includes("held")`) == true })
	got := eval(t, ctx, w, `new Promise(resolve => {
  const before = history.length;
  location.hash = "a";
  const sync = log.slice();
  addEventListener("hashchange", () => setTimeout(() => resolve([before, history.length, location.href, document.URL, sync.join("|")])), {once: true});
})`)
	want := []any{int64(1), int64(2), "https://example.test/page.html#a", "https://example.test/page.html#a", "held|popstate null #a"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after location.hash: %v, want %v", got, want)
	}
	if w.Current() != w {
		t.Fatal("a fragment navigation made a new window")
	}
	// Every fragment-only navigating member takes the same path.
	eval(t, ctx, w, `location.href = "#b"; location.assign("page.html#c"); location.replace("#d"); 0`)
	got = eval(t, ctx, w, `new Promise(r => setTimeout(() => r([history.length, location.hash, log.filter(l => l.startsWith("hashchange")).join("|")]), 0))`)
	want = []any{int64(4), "#d", "hashchange (none) -> #a true|hashchange #a -> #b true|hashchange #b -> #c true|hashchange #c -> #d true"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after more fragment navigations: %v, want %v", got, want)
	}
	// history.back() is a same-document traversal: popstate, hashchange,
	// the same document.
	got = eval(t, ctx, w, `new Promise(resolve => {
  log.length = 0;
  addEventListener("hashchange", () => resolve([location.hash, history.length, log.join("|")]), {once: true});
  history.back();
})`)
	want = []any{"#b", int64(4), "popstate null #b|hashchange #d -> #b true"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after history.back(): %v, want %v", got, want)
	}
	// The lock is still held by the same document, nobody unloaded it.
	got = eval(t, ctx, w, `navigator.locks.query().then(s => [s.held.length, log.includes("pagehide"), log.includes("unload"), typeof marker])`)
	if want := []any{int64(1), false, false, "object"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after the fragment navigations: %v, want %v", got, want)
	}
	if u := w.URL().String(); u != "https://example.test/page.html#b" {
		t.Fatalf("Window.URL() = %s", u)
	}
}

// pushState and replaceState change the document's URL (Window.URL too)
// and its history state without an event, keep the lock, and make or
// replace entries that traversals come back to with their states.
func TestPushStateKeepsDocumentAndLocks(t *testing.T) {
	_, w, ctx := openPage(t, fragmentSite, browser.Config{}, "https://example.test/page.html", 60*time.Second)
	<-w.Loaded()
	waitFor(t, ctx, "held", func() bool { return eval(t, ctx, w, `log.includes("held")`) == true })
	got := eval(t, ctx, w, `history.pushState({a: 1}, "", "/other?x"); history.replaceState({a: 2}, ""); [history.length, location.href, history.state.a, log.join("|")]`)
	if want := []any{int64(2), "https://example.test/other?x", int64(2), "held"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after pushState: %v, want %v", got, want)
	}
	if u := w.URL().String(); u != "https://example.test/other?x" {
		t.Fatalf("Window.URL() = %s", u)
	}
	got = eval(t, ctx, w, `new Promise(resolve => {
  addEventListener("popstate", e => resolve([e.state, history.state, location.pathname]), {once: true});
  history.back();
})`)
	if want := []any{nil, nil, "/page.html"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after back: %v, want %v", got, want)
	}
	got = eval(t, ctx, w, `new Promise(resolve => {
  addEventListener("popstate", e => resolve([e.state.a, history.state === e.state, location.search]), {once: true});
  history.forward();
})`)
	if want := []any{int64(2), true, "?x"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("after forward: %v, want %v", got, want)
	}
	if got := eval(t, ctx, w, `navigator.locks.query().then(s => s.held.length)`); got != int64(1) {
		t.Fatalf("held locks: %v", got)
	}
}
