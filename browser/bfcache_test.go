package browser_test

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/weblocks"
	"github.com/gowebengine/weblocks/weblocks/htmlhost"
)

var bfSite = fstest.MapFS{
	"a.html": {Data: []byte(`<script>
var mark = "a";
navigator.locks.request("L", () => { record("held"); return new Promise(() => {}); });
addEventListener("pagehide", e => record("a pagehide " + e.persisted + " " + (e instanceof PageTransitionEvent)));
addEventListener("pageshow", e => record("a pageshow " + e.persisted + " " + document.visibilityState));
document.addEventListener("visibilitychange", () => record("a visibility " + document.visibilityState + " " + document.hidden));
</script>`)},
	"b.html":      {Data: []byte(`<script>addEventListener("pageshow", e => record("b pageshow " + e.persisted));</script>`)},
	"waiter.html": {Data: []byte(`<p>waiter</p>`)},
}

func heldNames(t *testing.T, ctx context.Context, w *browser.Window) []string {
	t.Helper()
	st, err := w.LockState(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range st.Held {
		out = append(out, string(l.Name))
	}
	return out
}

func openBF(t *testing.T) (*browser.Browser, *browser.Window, *recorder, context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	rec := &recorder{}
	b := browser.New(browser.Config{Fetcher: browser.FSFetcher{FS: bfSite}, InitWindow: rec.init})
	t.Cleanup(b.Close)
	a, err := b.Open(ctx, "https://example.test/a.html")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "held", func() bool { return len(rec.lines("held")) == 1 })
	return b, a, rec, ctx
}

// navigateAway navigates a to b.html and returns b's window once loaded.
func navigateAway(t *testing.T, ctx context.Context, a *browser.Window, rec *recorder) *browser.Window {
	t.Helper()
	eval(t, ctx, a, `location.href = "b.html"; 0`)
	waitFor(t, ctx, "b", func() bool { return len(rec.lines("b pageshow")) > 0 })
	return a.Current()
}

// TestBFCacheKeepsLocksAndRestores: a page holding a lock navigates away;
// it is kept in the back/forward cache (pagehide persisted, no unload), is
// not fully active (its query and request reject with InvalidStateError)
// and keeps its lock; history.back restores the same window with
// pageshow.persisted true, still holding it.
func TestBFCacheKeepsLocksAndRestores(t *testing.T) {
	_, a, rec, ctx := openBF(t)
	if got := eval(t, ctx, a, `history.length`); got != int64(1) {
		t.Fatalf("history.length = %v", got)
	}
	bw := navigateAway(t, ctx, a, rec)
	if bw == nil || bw == a || bw.URL().Path != "/b.html" {
		t.Fatalf("current window: %v", bw)
	}
	if !a.InBackForwardCache() || a.Document().IsFullyActive() {
		t.Fatalf("a: cached %v, fully active %v", a.InBackForwardCache(), a.Document().IsFullyActive())
	}
	if got := heldNames(t, ctx, a); !reflect.DeepEqual(got, []string{"L"}) {
		t.Fatalf("cached page holds %v", got)
	}
	env := a.Document().EnvironmentSettingsObject()
	var de *dom.DOMException
	var qerr, rerr error
	if err := env.ResponsibleEventLoop().RunOnLoop(ctx, func() error {
		_, qerr = htmlhost.Query(env)
		_, rerr = htmlhost.Request(env, "M", weblocks.Options{}, func(*weblocks.Lock) weblocks.Waiting { return nil })
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !errors.As(qerr, &de) || de.Name != dom.InvalidStateError {
		t.Fatalf("query from the cached document: %v", qerr)
	}
	if !errors.As(rerr, &de) || de.Name != dom.InvalidStateError {
		t.Fatalf("request from the cached document: %v", rerr)
	}
	if got := eval(t, ctx, bw, `history.length`); got != int64(2) {
		t.Fatalf("history.length in b = %v", got)
	}
	eval(t, ctx, bw, `history.back(); 0`)
	waitFor(t, ctx, "restore", func() bool { return a.Current() == a && len(rec.lines("a pageshow true")) == 1 })
	if got := eval(t, ctx, a, `document.visibilityState`); got != "visible" {
		t.Fatalf("visibilityState after restore: %v", got)
	}
	if got := eval(t, ctx, a, `mark + history.length`); got != "a2" {
		t.Fatalf("restored page: %v", got)
	}
	if got := rec.lines("a page", "a visibility"); !reflect.DeepEqual(got, []string{"a pageshow false visible", "a pagehide true true", "a visibility hidden true", "a visibility visible false", "a pageshow true visible"}) {
		t.Fatalf("a's events: %v", got)
	}
	if got := heldNames(t, ctx, a); !reflect.DeepEqual(got, []string{"L"}) {
		t.Fatalf("restored page holds %v", got)
	}
	if a.NotRestoredReasons() != nil || !bw.InBackForwardCache() {
		t.Fatalf("reasons %v, b cached %v", a.NotRestoredReasons(), bw.InBackForwardCache())
	}
	// Forward restores b.
	eval(t, ctx, a, `history.forward(); 0`)
	waitFor(t, ctx, "forward", func() bool { return a.Current() == bw && len(rec.lines("b pageshow true")) == 1 })
	if err := a.Browser().RunUntilIdle(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestBFCacheContentionEvicts: another window requests the lock a cached
// page holds: the page is evicted (its lock released, the waiter granted),
// and going back loads it again, with the eviction as NotRestoredReasons.
func TestBFCacheContentionEvicts(t *testing.T) {
	b, a, rec, ctx := openBF(t)
	bw := navigateAway(t, ctx, a, rec)
	if !a.InBackForwardCache() {
		t.Fatal("a is not cached")
	}
	waiter, err := b.Open(ctx, "https://example.test/waiter.html")
	if err != nil {
		t.Fatal(err)
	}
	if got := eval(t, ctx, waiter, `navigator.locks.request("L", () => "granted")`); got != "granted" {
		t.Fatalf("waiter: %v", got)
	}
	if a.InBackForwardCache() || a.Document().EvictionReason() != htmlhost.EvictionReasonContention {
		t.Fatalf("a cached %v, eviction reason %q", a.InBackForwardCache(), a.Document().EvictionReason())
	}
	if got := heldNames(t, ctx, a); len(got) != 0 {
		t.Fatalf("evicted page holds %v", got)
	}
	eval(t, ctx, bw, `history.back(); 0`)
	waitFor(t, ctx, "a again", func() bool { c := a.Current(); return c != nil && c != a && c != bw && len(rec.lines("held")) == 2 })
	again := a.Current()
	if got := again.NotRestoredReasons(); !slices.Equal(got, []string{htmlhost.EvictionReasonContention}) {
		t.Fatalf("NotRestoredReasons = %v", got)
	}
	if got := eval(t, ctx, again, `history.length`); got != int64(2) {
		t.Fatalf("history.length = %v", got)
	}
	// The evicted window's realm is gone: the browser can become idle.
	if err := b.RunUntilIdle(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestBFCacheUnloadListenerNotCached: a page with an unload listener is
// not salvageable: it unloads and its lock is released at once.
func TestBFCacheUnloadListenerNotCached(t *testing.T) {
	_, a, rec, ctx := openBF(t)
	eval(t, ctx, a, `addEventListener("unload", () => record("a unload")); 0`)
	bw := navigateAway(t, ctx, a, rec)
	if a.InBackForwardCache() || !a.Document().IsUnloaded() {
		t.Fatal("a was kept")
	}
	if got := rec.lines("a pagehide", "a unload"); !reflect.DeepEqual(got, []string{"a pagehide false true", "a unload"}) {
		t.Fatalf("events: %v", got)
	}
	if got := eval(t, ctx, bw, `navigator.locks.request("L", {ifAvailable: true}, l => l !== null)`); got != true {
		t.Fatal("L still held")
	}
	eval(t, ctx, bw, `history.back(); 0`)
	waitFor(t, ctx, "a again", func() bool { c := a.Current(); return c != nil && c != a && c != bw })
	if got := a.Current().NotRestoredReasons(); !slices.Equal(got, []string{browser.NotRestoredUnloadListener}) {
		t.Fatalf("NotRestoredReasons = %v", got)
	}
}

// TestBFCacheCloseDestroysCached: closing the window's traversable destroys
// its cached documents too, which releases their locks.
func TestBFCacheCloseDestroysCached(t *testing.T) {
	b, a, rec, ctx := openBF(t)
	bw := navigateAway(t, ctx, a, rec)
	waiter, err := b.Open(ctx, "https://example.test/waiter.html")
	if err != nil {
		t.Fatal(err)
	}
	if !a.InBackForwardCache() {
		t.Fatal("a is not cached")
	}
	a.Close()
	if err := b.RunUntilIdle(ctx); err != nil {
		t.Fatal(err)
	}
	if !a.Document().IsUnloaded() || !bw.Document().IsUnloaded() {
		t.Fatal("documents of the closed window survive")
	}
	if got := eval(t, ctx, waiter, `navigator.locks.request("L", {ifAvailable: true}, l => l !== null)`); got != true {
		t.Fatal("L still held")
	}
}
