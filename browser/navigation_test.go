package browser_test

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
	"github.com/grafana/sobek"
)

// recorder gives every window a record(s) function appending to a log.
type recorder struct {
	mu  sync.Mutex
	log []string
}

func (r *recorder) init(w *browser.Window) {
	w.DefineFunction("record", 1, func(c sobek.FunctionCall) sobek.Value {
		r.mu.Lock()
		r.log = append(r.log, c.Argument(0).String())
		r.mu.Unlock()
		return sobek.Undefined()
	})
}

func (r *recorder) lines(prefixes ...string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, l := range r.log {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

var navSite = fstest.MapFS{
	"holder.html": {Data: []byte(`<script>
navigator.locks.request("L", () => { record("held"); return new Promise(() => {}); });
addEventListener("pagehide", e => record("pagehide " + e.persisted));
addEventListener("unload", () => record("unload"));
</script>`)},
	"next.html":   {Data: []byte(`<script>var page = "next";</script>`)},
	"waiter.html": {Data: []byte(`<p>waiter</p>`)},
}

// waitFor polls cond until it holds or ctx ends.
func waitFor(t *testing.T, ctx context.Context, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("waiting for %s: %v", what, ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestTopLevelNavigationReleasesLocks: a top-level window holding a lock
// navigates (every navigating member of Location); pagehide (persisted
// false) and unload fire at the old document, then its unloading document
// cleanup steps release the lock and the waiter in another window gets it.
func TestTopLevelNavigationReleasesLocks(t *testing.T) {
	for _, nav := range []string{`location.href = "next.html"`, `location.assign("next.html")`, `location.replace("next.html")`, `location.reload()`,
		`location.pathname = "/next.html"`, `location.search = "?x=1"`, `location.protocol = "https"`, `location.host = "example.test"`, `location.hostname = "example.test"`, `location.port = "443"`, `window.location = "next.html"`} {
		t.Run(nav, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			var rec recorder
			b := browser.New(browser.Config{Fetcher: browser.FSFetcher{FS: navSite}, InitWindow: rec.init})
			defer b.Close()
			holder, err := b.Open(ctx, "https://example.test/holder.html")
			if err != nil {
				t.Fatal(err)
			}
			waiter, err := b.Open(ctx, "https://example.test/waiter.html")
			if err != nil {
				t.Fatal(err)
			}
			waitFor(t, ctx, "held", func() bool { return len(rec.lines("held")) == 1 })
			eval(t, ctx, waiter, `window.p = navigator.locks.request("L", () => { record("granted"); return "got"; }); 0`)
			eval(t, ctx, waiter, `new Promise(r => { const poll = () => navigator.locks.query().then(s => s.pending.length ? r() : setTimeout(poll, 1)); poll(); })`)
			if got := rec.lines("granted"); len(got) != 0 {
				t.Fatalf("granted while held: %v", got)
			}
			eval(t, ctx, holder, nav+`; 0`)
			if got := eval(t, ctx, waiter, `p`); got != "got" {
				t.Fatalf("waiter got %v", got)
			}
			want := []string{"held", "pagehide false", "unload", "granted"}
			// These navigate to the document's own URL, as reload does.
			sameURL := nav == `location.reload()` || strings.Contains(nav, "protocol") || strings.Contains(nav, "host") || strings.Contains(nav, "port")
			if got := rec.lines("held", "pagehide", "unload", "granted"); sameURL || strings.Contains(nav, "search") {
				// The new holder document (the same page) takes the lock
				// again after the waiter.
				if len(got) < 4 || !reflect.DeepEqual(got[:4], want) {
					t.Fatalf("log: %v", got)
				}
			} else if !reflect.DeepEqual(got, want) {
				t.Fatalf("log: %v, want %v", got, want)
			}
			waitFor(t, ctx, "the new window", func() bool { c := holder.Current(); return c != nil && c != holder })
			cur := holder.Current()
			switch {
			case strings.Contains(nav, "search"):
				if cur.URL().String() != "https://example.test/holder.html?x=1" {
					t.Fatalf("current window at %v", cur.URL())
				}
			case sameURL:
				if cur.URL().String() != "https://example.test/holder.html" {
					t.Fatalf("current window at %v", cur.URL())
				}
			case cur.URL().Path != "/next.html":
				t.Fatalf("current window at %v", cur.URL())
			}
			if err := b.RunUntilIdle(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}
