package htmlhost

import (
	"net/url"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/html"
	. "github.com/gowebengine/weblocks/weblocks"
)

// cacheAway navigates env's document away, keeping it in the back/forward
// cache, and returns it.
func cacheAway(t *testing.T, env *html.EnvironmentSettingsObject) *html.Document {
	t.Helper()
	doc := env.AssociatedDocument()
	if _, err := doc.Navigable().Navigate(&url.URL{Scheme: "https", Host: "a.test", Path: "/next"}, html.NavigateOptions{KeepInBFCache: true}); err != nil {
		t.Fatal(err)
	}
	if doc.InBackForwardCache() != doc {
		t.Fatal("not cached")
	}
	return doc
}

// TestBFCacheContentionEvicts: a cached document keeps its lock while no
// one else wants it (another name does not count); a request for it from
// another window or a worker, or a query, evicts the document, which
// releases the lock and grants the waiter.
func TestBFCacheContentionEvicts(t *testing.T) {
	for _, how := range []string{"window", "worker", "query"} {
		t.Run(how, func(t *testing.T) {
			ua := newUA(t)
			a := openWindow(t, ua, "https://a.test/")
			request(t, a, "L", Options{}).await()
			doc := cacheAway(t, a)
			other := openWindow(t, ua, "https://a.test/other")
			request(t, other, "M", Options{}).await()
			if doc.InBackForwardCache() != doc {
				t.Fatal("a request for another name evicted the cached document")
			}
			var r *tracked
			switch how {
			case "window":
				r = request(t, other, "L", Options{})
			case "worker":
				r = request(t, startWorker(t, other, "https://a.test/w.js"), "L", Options{})
			case "query":
				s := query(t, other)
				if s.Held.Len() != 2 {
					t.Fatalf("query saw %v", s.Held)
				}
				// The query alone evicts: L becomes available.
				deadline := time.Now().Add(10 * time.Second)
				for !doc.IsUnloaded() && time.Now().Before(deadline) {
					time.Sleep(time.Millisecond)
				}
				r = request(t, other, "L", Options{IfAvailable: true})
			}
			if h := r.await(); h.lock == nil {
				t.Fatal("L was not available")
			}
			if doc.InBackForwardCache() != nil || doc.EvictionReason() != EvictionReasonContention || !doc.IsUnloaded() {
				t.Fatalf("after contention: cached %v reason %q", doc.InBackForwardCache(), doc.EvictionReason())
			}
		})
	}
}

// TestBFCacheQueryEvictsOnlyClientsWithEntries: a query evicts a cached
// document whose only entry is a pending request, and leaves alone a
// cached document that used the lock manager but released its lock before
// it was cached (query looks at each client of the manager, not at each
// entry: a client counts only while it has a lock or request there).
func TestBFCacheQueryEvictsOnlyClientsWithEntries(t *testing.T) {
	ua := newUA(t)
	other := openWindow(t, ua, "https://a.test/other")
	// done first, so it is ahead of waiter in the manager's client order
	// (evictions run in that order).
	done := openWindow(t, ua, "https://a.test/done")
	r := request(t, done, "D", Options{})
	r.await().release(t, nil)
	if _, err := result(t, r.released); err != nil {
		t.Fatal(err)
	}
	request(t, other, "P", Options{}).await()
	waiter := openWindow(t, ua, "https://a.test/waiter")
	request(t, waiter, "P", Options{}).notGranted()
	doneDoc, waiterDoc := cacheAway(t, done), cacheAway(t, waiter)
	s := query(t, other)
	if s.Held.Len() != 1 || s.Pending.Len() != 1 {
		t.Fatalf("query saw held %v pending %v", s.Held, s.Pending)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !waiterDoc.IsUnloaded() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if !waiterDoc.IsUnloaded() || waiterDoc.EvictionReason() != EvictionReasonContention {
		t.Fatalf("the document with a pending request: unloaded %v reason %q", waiterDoc.IsUnloaded(), waiterDoc.EvictionReason())
	}
	if doneDoc.InBackForwardCache() != doneDoc {
		t.Fatalf("the document without locks or requests was evicted (reason %q)", doneDoc.EvictionReason())
	}
}

// TestBFCacheContentionEvictsSharedWorkerOwners: a shared worker whose
// only owner document is cached holds a lock; a request for it from
// another window, or a query, evicts the owner document, which terminates
// the worker and releases its lock (Chromium does the same: upstream
// bfcache/contention.https.window.js with context=shared-worker). While
// an owner is active, the worker is not evicted and the request waits.
func TestBFCacheContentionEvictsSharedWorkerOwners(t *testing.T) {
	for _, how := range []string{"request", "query", "active owner"} {
		t.Run(how, func(t *testing.T) {
			ua := newUA(t)
			a := openWindow(t, ua, "https://a.test/")
			sw, _, err := html.ObtainSharedWorker(a, &url.URL{Scheme: "https", Host: "a.test", Path: "/sw.js"}, "")
			if err != nil {
				t.Fatal(err)
			}
			other := openWindow(t, ua, "https://a.test/other")
			if how == "active owner" {
				if _, _, err := html.ObtainSharedWorker(other, &url.URL{Scheme: "https", Host: "a.test", Path: "/sw.js"}, ""); err != nil {
					t.Fatal(err)
				}
			}
			held := request(t, sw.Env(), "L", Options{}).await()
			if held.lock == nil {
				t.Fatal("the shared worker did not get L")
			}
			doc := cacheAway(t, a)
			switch how {
			case "request":
				if h := request(t, other, "L", Options{}).await(); h.lock == nil {
					t.Fatal("L was not granted")
				}
			case "query":
				query(t, other)
				deadline := time.Now().Add(60 * time.Second)
				for !doc.IsUnloaded() && time.Now().Before(deadline) {
					time.Sleep(time.Millisecond)
				}
				if h := request(t, other, "L", Options{IfAvailable: true}).await(); h.lock == nil {
					t.Fatal("L was not available after the query")
				}
			case "active owner":
				r := request(t, other, "L", Options{})
				r.notGranted()
				if doc.InBackForwardCache() != doc {
					t.Fatal("the cached owner was evicted although the worker has an active owner")
				}
				return
			}
			if doc.EvictionReason() != EvictionReasonContention || !doc.IsUnloaded() {
				t.Fatalf("after contention: cached %v reason %q", doc.InBackForwardCache(), doc.EvictionReason())
			}
		})
	}
}
