package browser_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
)

// embedSite's holder has no unload listener, so it can be kept in the
// back/forward cache.
var embedSite = fstest.MapFS{
	"holder.html": {Data: []byte(`<script>
navigator.locks.request("L", () => { record("held"); return new Promise(() => {}); });
addEventListener("pagehide", e => record("pagehide " + e.persisted));
</script>`)},
	"next.html":   navSite["next.html"],
	"waiter.html": navSite["waiter.html"],
}

// Window.Navigate and Window.Traverse return when the navigation or
// traversal has completed, with the window then active; Evaluate on a
// cached window fails at once; EvictFromBackForwardCache releases a
// cached page's lock.
func TestEmbedderNavigateAndTraverse(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var rec recorder
	b := browser.New(browser.Config{Fetcher: browser.FSFetcher{FS: embedSite}, InitWindow: rec.init})
	defer b.Close()
	holder, err := b.Open(ctx, "https://example.test/holder.html")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "held", func() bool { return len(rec.lines("held")) == 1 })
	next, err := holder.Navigate(ctx, "next.html")
	if err != nil {
		t.Fatal(err)
	}
	if next == holder || next.URL().Path != "/next.html" || holder.Current() != next {
		t.Fatalf("Navigate returned %v (current %v)", next, holder.Current())
	}
	if got := eval(t, ctx, next, `document.readyState + " " + page`); got != "complete next" {
		t.Fatalf("the new window: %v", got)
	}
	if !holder.InBackForwardCache() {
		t.Fatal("the holder is not cached")
	}
	start := time.Now()
	if _, err := holder.Evaluate(ctx, "1"); !errors.Is(err, browser.ErrNotFullyActive) || time.Since(start) > 5*time.Second {
		t.Fatalf("Evaluate on a cached window: %v after %v", err, time.Since(start))
	}
	// A fragment navigation returns the same window.
	if w, err := next.Navigate(ctx, "#frag"); err != nil || w != next || next.URL().Fragment != "frag" {
		t.Fatalf("fragment Navigate: %v, %v, %v", w, err, next.URL())
	}
	if w, err := next.Traverse(ctx, -1); err != nil || w != next || next.URL().Fragment != "" {
		t.Fatalf("same-document Traverse: %v, %v, %v", w, err, next.URL())
	}
	if _, err := next.Traverse(ctx, -5); err == nil || !strings.Contains(err.Error(), "no session history entry") {
		t.Fatalf("Traverse(-5): %v", err)
	}
	back, err := next.Traverse(ctx, -1)
	if err != nil || back != holder {
		t.Fatalf("Traverse back: %v, %v", back, err)
	}
	if got := eval(t, ctx, holder, `navigator.locks.query().then(s => s.held.map(l => l.name))`); !reflect.DeepEqual(got, []any{"L"}) {
		t.Fatalf("restored holder holds %v", got)
	}
	// Away again, then evicted by the embedder: its lock is free, and
	// going back loads the page again. (A request or query for the lock
	// would have evicted it too: Web Locks' rules for cached pages.)
	if _, err := holder.Navigate(ctx, "waiter.html"); err != nil {
		t.Fatal(err)
	}
	waiter, err := b.Open(ctx, "https://example.test/waiter.html")
	if err != nil {
		t.Fatal(err)
	}
	if !holder.InBackForwardCache() {
		t.Fatal("not cached")
	}
	if !holder.EvictFromBackForwardCache() {
		t.Fatal("EvictFromBackForwardCache: not cached")
	}
	if holder.EvictFromBackForwardCache() {
		t.Fatal("evicted twice")
	}
	if got := eval(t, ctx, waiter, `navigator.locks.request("L", {ifAvailable: true}, l => l ? "granted" : "not available")`); got != "granted" {
		t.Fatalf("waiter: %v", got)
	}
	cur := holder.Current()
	again, err := cur.Traverse(ctx, -1)
	if err != nil || again == holder {
		t.Fatalf("Traverse to the evicted entry: %v, %v", again, err)
	}
	if r := again.NotRestoredReasons(); !reflect.DeepEqual(r, []string{browser.NotRestoredEvictedByEmbedder}) {
		t.Fatalf("NotRestoredReasons %v", r)
	}
	// A load that fails is an error that says why (a 404 is a document).
	if _, err := again.Navigate(ctx, "ftp://example.test/x"); err == nil || !strings.Contains(err.Error(), `cannot fetch "ftp:" URLs`) {
		t.Fatalf("Navigate to an ftp: URL: %v", err)
	}
}

// With Config.DisableBackForwardCache, a document navigated away from is
// unloaded at once (its lock released) and going back loads it again.
func TestBackForwardCacheDisabled(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var rec recorder
	b := browser.New(browser.Config{Fetcher: browser.FSFetcher{FS: embedSite}, InitWindow: rec.init, DisableBackForwardCache: true})
	defer b.Close()
	holder, err := b.Open(ctx, "https://example.test/holder.html")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, ctx, "held", func() bool { return len(rec.lines("held")) == 1 })
	next, err := holder.Navigate(ctx, "next.html")
	if err != nil {
		t.Fatal(err)
	}
	if holder.InBackForwardCache() {
		t.Fatal("cached although the cache is off")
	}
	if got := rec.lines("pagehide"); !reflect.DeepEqual(got, []string{"pagehide false"}) {
		t.Fatalf("events: %v", got)
	}
	if got := eval(t, ctx, next, `navigator.locks.query().then(s => s.held.length)`); got != int64(0) {
		t.Fatalf("held after unload: %v", got)
	}
	back, err := next.Traverse(ctx, -1)
	if err != nil {
		t.Fatal(err)
	}
	if r := back.NotRestoredReasons(); !reflect.DeepEqual(r, []string{browser.NotRestoredCacheDisabled}) {
		t.Fatalf("NotRestoredReasons %v", r)
	}
}
