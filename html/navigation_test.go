package html

import (
	"net/url"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// TestEvictFromBackForwardCache: a document kept in the back/forward cache
// is not fully active and not unloaded; evicting it (or a descendant of
// it) unloads it once, running its cleanup steps, and records the reason;
// the active document cannot be evicted.
func TestEvictFromBackForwardCache(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	a, err := ua.OpenWindowURL("https://a.test/")
	if err != nil {
		t.Fatal(err)
	}
	child, err := a.CreateChildNavigableURL("https://a.test/frame", ChildNavigableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	a.AddUnloadingDocumentCleanupSteps(func() { ran++ })
	b, err := a.Navigable().Navigate(&url.URL{Scheme: "https", Host: "a.test", Path: "/b"}, NavigateOptions{KeepInBFCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if a.InBackForwardCache() != a || child.InBackForwardCache() != a || a.IsFullyActive() || a.IsUnloaded() || ran != 0 {
		t.Fatalf("cached: %v %v fully active %v unloaded %v ran %d", a.InBackForwardCache(), child.InBackForwardCache(), a.IsFullyActive(), a.IsUnloaded(), ran)
	}
	if b.InBackForwardCache() != nil || b.EvictFromBackForwardCache("x") {
		t.Fatal("the active document is not cached")
	}
	if !child.EvictFromBackForwardCache("because") {
		t.Fatal("evicting through a descendant failed")
	}
	if ran != 1 || !a.IsUnloaded() || !child.IsUnloaded() || a.EvictionReason() != "because" || a.InBackForwardCache() != nil {
		t.Fatalf("after eviction: ran %d unloaded %v/%v reason %q", ran, a.IsUnloaded(), child.IsUnloaded(), a.EvictionReason())
	}
	if a.EvictFromBackForwardCache("again") || ran != 1 || len(a.Navigable().BFCachedDocuments()) != 0 {
		t.Fatal("evicted twice")
	}
	if err := a.Navigable().Restore(a, false); err == nil {
		t.Fatal("an evicted document was restored")
	}
}

// TestCachedDocumentSuspendsItsWorkers: the global tasks of a dedicated
// worker (and of its nested worker) of a document kept in the
// back/forward cache wait until the document is restored; a shared
// worker's do not. Eviction drops them.
func TestCachedDocumentSuspendsItsWorkers(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	a := mustOpen(t, ua, "https://a.test/")
	w, err := NewDedicatedWorker(a.EnvironmentSettingsObject(), mustURL(t, "https://a.test/w.js"))
	if err != nil {
		t.Fatal(err)
	}
	nested, err := NewDedicatedWorker(w, mustURL(t, "https://a.test/n.js"))
	if err != nil {
		t.Fatal(err)
	}
	if w.SuspendingDocument() != a || nested.SuspendingDocument() != a || a.EnvironmentSettingsObject().SuspendingDocument() != a {
		t.Fatal("SuspendingDocument does not lead to the owner document")
	}
	if _, err := a.Navigable().Navigate(mustURL(t, "https://a.test/b"), NavigateOptions{KeepInBFCache: true}); err != nil {
		t.Fatal(err)
	}
	var ran atomic.Int32
	for _, env := range []*EnvironmentSettingsObject{w, nested} {
		if !QueueAGlobalTask(DOMManipulationTaskSource, env, func() { ran.Add(1) }) {
			t.Fatal("not queued")
		}
	}
	waitFor(t, "deferred", func() bool {
		return w.ResponsibleEventLoop().DeferredTasks() == 1 && nested.ResponsibleEventLoop().DeferredTasks() == 1
	})
	if ran.Load() != 0 {
		t.Fatal("a suspended worker ran a task")
	}
	if err := a.Navigable().Restore(a, false); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "resumed", func() bool { return ran.Load() == 2 })

	// Cached again, then evicted: the waiting task is dropped.
	if _, err := a.Navigable().Navigate(mustURL(t, "https://a.test/c"), NavigateOptions{KeepInBFCache: true}); err != nil {
		t.Fatal(err)
	}
	QueueAGlobalTask(DOMManipulationTaskSource, w, func() { ran.Add(1) })
	waitFor(t, "deferred again", func() bool { return w.ResponsibleEventLoop().DeferredTasks() == 1 })
	a.EvictFromBackForwardCache("test")
	waitFor(t, "dropped", func() bool { return w.ResponsibleEventLoop().DeferredTasks() == 0 })
	if ran.Load() != 2 {
		t.Fatal("the evicted document's worker ran a task")
	}
}

// TestBroadcastChannelDestinations: a message goes to the other channels
// of the same name and storage key, in creation order, not to the source,
// a closed channel, another name, another origin, or a channel whose
// global is suspended (a cached document's worker).
func TestBroadcastChannelDestinations(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	a := mustOpen(t, ua, "https://a.test/")
	other := mustOpen(t, ua, "https://other.test/")
	cached := mustOpen(t, ua, "https://a.test/cached")
	w, err := NewDedicatedWorker(cached.EnvironmentSettingsObject(), mustURL(t, "https://a.test/w.js"))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	mk := func(env *EnvironmentSettingsObject, name, label string) *BroadcastChannel {
		return NewBroadcastChannel(env, name, func(_ SerializedWithTransfer, origin string) bool {
			mu.Lock()
			got = append(got, label+" "+origin)
			mu.Unlock()
			return true
		})
	}
	src := mk(a.EnvironmentSettingsObject(), "c", "src")
	mk(a.EnvironmentSettingsObject(), "c", "same1")
	mk(a.EnvironmentSettingsObject(), "d", "othername")
	mk(other.EnvironmentSettingsObject(), "c", "otherorigin")
	mk(w, "c", "worker")
	closed := mk(a.EnvironmentSettingsObject(), "c", "closed")
	mk(a.EnvironmentSettingsObject(), "c", "same2")
	closed.Close()
	if _, err := cached.Navigable().Navigate(mustURL(t, "https://a.test/away"), NavigateOptions{KeepInBFCache: true}); err != nil {
		t.Fatal(err)
	}
	if err := src.PostMessage(SerializedWithTransfer{}); err != nil {
		t.Fatal(err)
	}
	if err := closed.PostMessage(SerializedWithTransfer{}); err != ErrBroadcastChannelClosed {
		t.Fatalf("closed channel: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"same1 https://a.test", "same2 https://a.test"}; !slices.Equal(got, want) {
		t.Fatalf("delivered to %v, want %v", got, want)
	}
}
