package html

import (
	"net/url"
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
