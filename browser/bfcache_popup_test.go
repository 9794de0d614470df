package browser_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/weblocks/htmlhost"
)

var popupSite = fstest.MapFS{
	"opener.html": {Data: []byte(`<p>opener</p>`)},
	"p.html": {Data: []byte(`<script>
addEventListener("pageshow", e => record("p pageshow " + e.persisted));
var w = new Worker("w.js");
w.onmessage = e => record("p worker " + e.data);
</script>`)},
	"w.js": {Data: []byte(`navigator.locks.request("L", () => { postMessage("granted"); });
navigator.locks.query().then(s => postMessage("pending " + s.pending.length));`)},
	"q.html": {Data: []byte(`<script>addEventListener("pageshow", e => record("q pageshow " + e.persisted));</script>`)},
}

// windowsByPath records every window the browser makes, by URL path.
type windowsByPath struct {
	rec *recorder
	mu  sync.Mutex
	m   map[string][]*browser.Window
}

func (ws *windowsByPath) init(w *browser.Window) {
	ws.rec.init(w)
	ws.mu.Lock()
	ws.m[w.URL().Path] = append(ws.m[w.URL().Path], w)
	ws.mu.Unlock()
}

func (ws *windowsByPath) get(path string) []*browser.Window {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return slices.Clone(ws.m[path])
}

// TestBFCacheNoopenerPopupWorkerGrantEvicts: a popup opened with noopener
// is a top-level traversable without an opener, so it is kept in the
// back/forward cache; its dedicated worker's request, pending on a lock
// the opener holds, is granted while the popup is cached: the grant's
// callback does not run (the worker is suspended), the popup is evicted
// (as in Chromium), the lock is released, and going back loads the popup
// again with the eviction as NotRestoredReasons.
func TestBFCacheNoopenerPopupWorkerGrantEvicts(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws := &windowsByPath{rec: &recorder{}, m: map[string][]*browser.Window{}}
	rec := ws.rec
	b := browser.New(browser.Config{Fetcher: browser.FSFetcher{FS: popupSite}, InitWindow: ws.init})
	defer b.Close()
	opener, err := b.Open(ctx, "https://example.test/opener.html")
	if err != nil {
		t.Fatal(err)
	}
	if got := eval(t, ctx, opener, `new Promise(r => navigator.locks.request("L", () => { r("held"); return new Promise(rel => { self.release = rel; }); }))`); got != "held" {
		t.Fatalf("opener: %v", got)
	}
	if got := eval(t, ctx, opener, `window.open("p.html", "_blank", "noopener")`); got != nil {
		t.Fatalf("window.open with noopener returned %v", got)
	}
	waitFor(t, ctx, "worker pending", func() bool { return len(rec.lines("p worker pending 1")) == 1 })
	p := ws.get("/p.html")[0]
	eval(t, ctx, p, `location.href = "q.html"; 0`)
	waitFor(t, ctx, "q", func() bool { return len(rec.lines("q pageshow false")) == 1 })
	if !p.InBackForwardCache() {
		t.Fatal("the noopener popup was not kept in the back/forward cache")
	}
	q := p.Current()
	eval(t, ctx, opener, `release(); 0`)
	waitFor(t, ctx, "eviction", func() bool { return p.Document().EvictionReason() == htmlhost.EvictionReasonContention })
	// The eviction is recorded before the evicted page's worker has been
	// terminated on the lock task queue: wait for the lock to be free (the
	// context bounds the wait), rather than checking once.
	waitFor(t, ctx, "L released after the eviction", func() bool {
		return eval(t, ctx, opener, `navigator.locks.request("L", {ifAvailable: true}, l => l !== null)`) == true
	})
	if err := b.RunUntilIdle(ctx); err != nil {
		t.Fatal(err)
	}
	if got := rec.lines("p worker granted"); len(got) != 0 {
		t.Fatalf("the cached page's worker ran its callback: %v", got)
	}
	eval(t, ctx, q, `history.back(); 0`)
	waitFor(t, ctx, "p again", func() bool { return len(ws.get("/p.html")) == 2 && len(rec.lines("p pageshow false")) == 2 })
	again := ws.get("/p.html")[1]
	if got := again.NotRestoredReasons(); !slices.Equal(got, []string{htmlhost.EvictionReasonContention}) {
		t.Fatalf("NotRestoredReasons = %v", got)
	}
	waitFor(t, ctx, "granted in the new page", func() bool { return len(rec.lines("p worker granted")) == 1 })
}

// TestBFCachePopupWithOpenerNotCached: a popup that keeps its opener is
// not kept (its opener could script it).
func TestBFCachePopupWithOpenerNotCached(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws := &windowsByPath{rec: &recorder{}, m: map[string][]*browser.Window{}}
	b := browser.New(browser.Config{Fetcher: browser.FSFetcher{FS: popupSite}, InitWindow: ws.init})
	defer b.Close()
	opener, err := b.Open(ctx, "https://example.test/opener.html")
	if err != nil {
		t.Fatal(err)
	}
	eval(t, ctx, opener, `self.popup = window.open("p.html"); 0`)
	waitFor(t, ctx, "p", func() bool { return len(ws.rec.lines("p pageshow false")) == 1 })
	p := ws.get("/p.html")[0]
	eval(t, ctx, p, `location.href = "q.html"; 0`)
	waitFor(t, ctx, "q", func() bool { return len(ws.rec.lines("q pageshow false")) == 1 })
	if p.InBackForwardCache() || !p.Document().IsUnloaded() {
		t.Fatal("a popup with an opener was kept")
	}
	eval(t, ctx, p.Current(), `history.back(); 0`)
	waitFor(t, ctx, "p again", func() bool { return len(ws.get("/p.html")) == 2 })
	if got := ws.get("/p.html")[1].NotRestoredReasons(); !slices.Equal(got, []string{browser.NotRestoredOpener}) {
		t.Fatalf("NotRestoredReasons = %v", got)
	}
}

// TestBFCacheSuspendsWorkerTimers: the timers of a cached page's
// dedicated worker stop firing while the page is cached (the worker is
// suspended, so the browser becomes idle) and fire again once it is
// restored.
func TestBFCacheSuspendsWorkerTimers(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	site := fstest.MapFS{
		"opener.html": {Data: []byte(`<script>
var ticks = 0;
new BroadcastChannel("ticks").onmessage = () => { ticks++; };
</script>`)},
		"t.html": {Data: []byte(`<script>
addEventListener("pageshow", e => record("t pageshow " + e.persisted));
new Worker("ticker.js");
</script>`)},
		"ticker.js": {Data: []byte(`const bc = new BroadcastChannel("ticks");
(function tick() { bc.postMessage("tick"); setTimeout(tick, 1); })();`)},
		"q.html": {Data: []byte(`<script>addEventListener("pageshow", e => record("q pageshow " + e.persisted));</script>`)},
	}
	ws := &windowsByPath{rec: &recorder{}, m: map[string][]*browser.Window{}}
	b := browser.New(browser.Config{Fetcher: browser.FSFetcher{FS: site}, InitWindow: ws.init})
	defer b.Close()
	opener, err := b.Open(ctx, "https://example.test/opener.html")
	if err != nil {
		t.Fatal(err)
	}
	eval(t, ctx, opener, `window.open("t.html", "_blank", "noopener"); 0`)
	waitFor(t, ctx, "ticking", func() bool { n, _ := opener.Evaluate(ctx, `ticks`); return n != int64(0) })
	p := ws.get("/t.html")[0]
	eval(t, ctx, p, `location.href = "q.html"; 0`)
	waitFor(t, ctx, "q", func() bool { return len(ws.rec.lines("q pageshow false")) == 1 })
	if !p.InBackForwardCache() {
		t.Fatal("the page was not cached")
	}
	idleCtx, idleCancel := context.WithTimeout(ctx, 5*time.Second)
	defer idleCancel()
	if err := b.RunUntilIdle(idleCtx); err != nil {
		t.Fatalf("the cached page's worker kept running: %v", err)
	}
	before := eval(t, ctx, opener, `ticks`)
	// Let the opener's own timers run for a while: a running ticker
	// (1 ms period) would post many ticks meanwhile; a suspended one none.
	eval(t, ctx, opener, `new Promise(r => setTimeout(r, 50))`)
	if err := b.RunUntilIdle(ctx); err != nil {
		t.Fatal(err)
	}
	if after := eval(t, ctx, opener, `ticks`); after != before {
		t.Fatalf("ticks went on while cached: %v then %v", before, after)
	}
	eval(t, ctx, p.Current(), `history.back(); 0`)
	waitFor(t, ctx, "restored", func() bool { return len(ws.rec.lines("t pageshow true")) == 1 })
	waitFor(t, ctx, "ticking again", func() bool { n, _ := opener.Evaluate(ctx, `ticks`); return n != before })
}
