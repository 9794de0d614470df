package browser_test

import (
	"errors"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/gowebengine/weblocks/browser"
)

// swapSite serves the same pages at every host (FSFetcher ignores it).
var swapSite = fstest.MapFS{
	"page.html": {Data: []byte(`<!doctype html><script>
var log = [];
addEventListener("pageshow", e => log.push("pageshow " + e.persisted));
addEventListener("pagehide", e => log.push("pagehide " + e.persisted));
// Each document holds a lock of its own (no contention between the
// documents of one history: a waiting request would evict a cached one).
var holding = new Promise(held => navigator.locks.request("held-" + location.host + location.search, () => { held(true); return new Promise(() => {}); }));
</script>`)},
}

// A top-level window of a renderer navigated to another site moves to a
// renderer of that site: its Web Locks work there, the embedder's Window
// follows it (Evaluate, URL, RendererPID), and history.back() brings the
// first document back from the back/forward cache of the first renderer,
// which kept it (and its lock) meanwhile.
func TestRendererCrossSiteNavigationSwapsRenderer(t *testing.T) {
	ctx := testCtx(t)
	b := rendererBrowser(t, browser.Config{Fetcher: browser.FSFetcher{FS: swapSite}})
	w, err := b.Open(ctx, "https://a.test/page.html")
	if err != nil {
		t.Fatal(err)
	}
	first := w.RendererPID()
	// A navigation within the site stays in the renderer.
	if got, err := w.Navigate(ctx, "page.html?same"); err != nil || got != w {
		t.Fatalf("Navigate: %v %v", got, err)
	}
	if pid, u := w.RendererPID(), w.URL().String(); pid != first || u != "https://a.test/page.html?same" {
		t.Fatalf("after a navigation within the site: renderer %d (was %d), URL %s", pid, first, u)
	}
	if got := eval(t, ctx, w, `location.search`); got != "?same" {
		t.Fatalf("Evaluate after Navigate: location.search = %v", got)
	}
	if got, err := w.Navigate(ctx, "https://b.test/page.html"); err != nil || got != w {
		t.Fatalf("Navigate: %v %v", got, err)
	}
	if pid := w.RendererPID(); pid == first || pid == 0 {
		t.Fatalf("the window stayed in renderer %d", pid)
	}
	if u := w.URL().String(); u != "https://b.test/page.html" {
		t.Fatalf("URL() = %s", u)
	}
	got := eval(t, ctx, w, `navigator.locks.request("x", () => "granted").then(g => navigator.locks.query().then(s => [g, location.host, s.held.map(l => l.name).sort().join()]))`)
	if want := []any{"granted", "b.test", "held-b.test"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("in the new renderer: %v, want %v", got, want)
	}
	// Back: the first renderer restores its cached document.
	eval(t, ctx, w, `history.back(); 0`)
	waitFor(t, ctx, "the traversal back", func() bool { return w.RendererPID() == first })
	waitFor(t, ctx, "pageshow", func() bool {
		v, err := w.Evaluate(ctx, `log.join()`)
		return err == nil && v == "pageshow false,pagehide true,pageshow true"
	})
	if got := eval(t, ctx, w, `navigator.locks.query().then(s => s.held.some(l => l.name === "held-a.test?same"))`); got != true {
		t.Fatalf("after back: the restored document's lock is not held")
	}
	// Forward again, from Go: the second renderer restores its document.
	if got, err := w.Traverse(ctx, 1); err != nil || got != w {
		t.Fatalf("Traverse(1): %v %v", got, err)
	}
	if pid := w.RendererPID(); pid == first {
		t.Fatal("Traverse(1) stayed in the first renderer")
	}
	if u := w.URL().String(); u != "https://b.test/page.html" {
		t.Fatalf("URL() after Traverse(1) = %s", u)
	}
	if got := eval(t, ctx, w, `log.join()`); got != "pageshow false,pagehide true,pageshow true" {
		t.Fatalf("b.test's events: %v", got)
	}
	// b.test's document kept its lock while it was cached.
	if got := eval(t, ctx, w, `navigator.locks.query().then(s => s.held.map(l => l.name).join())`); got != "held-b.test" {
		t.Fatalf("after forward: held %v", got)
	}
	if got := eval(t, ctx, w, `holding`); got != true {
		t.Fatalf("holding: %v", got)
	}
	if err := w.RendererErr(); err != nil {
		t.Fatal(err)
	}
}

// Without the back/forward cache, the first renderer hosts nothing once
// its window moved to another site's renderer: it ends (no OnExit: it did
// not crash), and the lock its document held is released.
func TestRendererCrossSiteNavigationEndsIdleRenderer(t *testing.T) {
	ctx := testCtx(t)
	exits := make(chan error, 4)
	b := rendererBrowser(t, browser.Config{Fetcher: browser.FSFetcher{FS: swapSite}, DisableBackForwardCache: true,
		Renderer: browser.RendererConfig{OnExit: func(_ *browser.Window, err *browser.RendererExitError) { exits <- err }}})
	w, err := b.Open(ctx, "https://a.test/page.html")
	if err != nil {
		t.Fatal(err)
	}
	other, err := b.Open(ctx, "https://a.test/page.html")
	if err != nil {
		t.Fatal(err)
	}
	first := w.RendererPID()
	eval(t, ctx, w, `location.href = "https://b.test/page.html"; 0`)
	// Evaluate runs in the window's active document, once there is one.
	waitFor(t, ctx, "the new document", func() bool {
		v, err := w.Evaluate(ctx, `location.host`)
		return err == nil && v == "b.test"
	})
	waitFor(t, ctx, "the renderer of the first site to end", func() bool { return syscall.Kill(first, 0) != nil })
	if pid := w.RendererPID(); pid == first {
		t.Fatal("the window is still in its first renderer")
	}
	// The lock of the first document was released: the other window,
	// which waited for it, holds it.
	if got := eval(t, ctx, other, `holding`); got != true {
		t.Fatalf("holding: %v", got)
	}
	select {
	case err := <-exits:
		t.Fatalf("OnExit for a renderer that ended because it hosted nothing: %v", err)
	default:
	}
}

// Navigating a window whose renderer crashed starts a fresh renderer:
// the Window works again (RendererErr nil, Evaluate, locks).
func TestRendererNavigateAfterCrash(t *testing.T) {
	ctx := testCtx(t)
	exits := make(chan *browser.RendererExitError, 4)
	b := rendererBrowser(t, browser.Config{Fetcher: browser.FSFetcher{FS: swapSite},
		Renderer: browser.RendererConfig{OnExit: func(_ *browser.Window, err *browser.RendererExitError) { exits <- err }}})
	w, err := b.Open(ctx, "https://a.test/page.html")
	if err != nil {
		t.Fatal(err)
	}
	dead := w.RendererPID()
	syscall.Kill(dead, syscall.SIGKILL)
	if err := <-exits; !strings.Contains(err.Reason, "killed") {
		t.Fatalf("OnExit: %v", err)
	}
	var re *browser.RendererExitError
	if _, err := w.Evaluate(ctx, "1"); !errors.As(err, &re) {
		t.Fatalf("Evaluate in a crashed window: %v", err)
	}
	if got, err := w.Navigate(ctx, "page.html?again"); err != nil || got != w {
		t.Fatalf("Navigate after the crash: %v %v", got, err)
	}
	if err := w.RendererErr(); err != nil {
		t.Fatalf("RendererErr after the fresh start: %v", err)
	}
	if pid := w.RendererPID(); pid == dead || pid == 0 {
		t.Fatalf("pid %d", pid)
	}
	got := eval(t, ctx, w, `navigator.locks.request("held-a.test?again", {ifAvailable: true}, l => [l === null, location.search])`)
	if want := []any{true, "?again"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("in the fresh renderer: %v, want %v (its page holds the lock again)", got, want)
	}
}
