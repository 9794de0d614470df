package html

import (
	"errors"
	"testing"
)

// TestSharedWorkerKey: one shared worker per constructor URL, name and
// storage key; its owner set holds every document that connected.
func TestSharedWorkerKey(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	a := mustOpen(t, ua, "https://a.test/one")
	b := mustOpen(t, ua, "https://a.test/two")
	script := mustURL(t, "https://a.test/sw.js")
	w1, created, err := ObtainSharedWorker(a.EnvironmentSettingsObject(), script, "n")
	if err != nil || !created {
		t.Fatalf("first: %v %v", created, err)
	}
	if w1.Env().Kind() != SharedWorkerEnvironment || w1.Env().Agent().Kind() != SharedWorkerAgent {
		t.Fatalf("kinds: %v %v", w1.Env().Kind(), w1.Env().Agent().Kind())
	}
	if w1.Env().Agent().Cluster() == a.EnvironmentSettingsObject().Agent().Cluster() {
		t.Error("a shared worker agent gets an agent cluster of its own")
	}
	w2, created, err := ObtainSharedWorker(b.EnvironmentSettingsObject(), script, "n")
	if err != nil || created || w2 != w1 {
		t.Fatalf("same key from another document: %p %v %v (want %p)", w2, created, err, w1)
	}
	if w1.Owners() != 2 {
		t.Errorf("owners = %d, want 2", w1.Owners())
	}
	// Another name, another URL, another storage key (the same origin
	// under another top-level site): other workers.
	other := []struct {
		what  string
		owner *Document
		url   string
		name  string
	}{
		{"name", a, "https://a.test/sw.js", "m"},
		{"url", a, "https://a.test/sw.js?x", "n"},
		{"storage key", mustChild(t, mustOpen(t, ua, "https://b.test/"), "https://a.test/framed", ChildNavigableOptions{}), "https://a.test/sw.js", "n"},
	}
	for _, o := range other {
		w, created, err := ObtainSharedWorker(o.owner.EnvironmentSettingsObject(), mustURL(t, o.url), o.name)
		if err != nil || !created || w == w1 || w.Env().ID() == w1.Env().ID() {
			t.Errorf("another %s: created %v, err %v, same %v", o.what, created, err, w == w1)
		}
	}
	if n := len(ua.SharedWorkers()); n != 4 {
		t.Errorf("%d shared workers, want 4", n)
	}
	if _, _, err := ObtainSharedWorker(a.EnvironmentSettingsObject(), mustURL(t, "https://b.test/sw.js"), "n"); !errors.Is(err, ErrWorkerOrigin) {
		t.Errorf("cross-origin script: %v", err)
	}
}

// TestSharedWorkerLifetime: the worker lives while one owner document
// does; unloading the last terminates its agent (running its termination
// steps) and a later constructor gets a new worker.
func TestSharedWorkerLifetime(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	a := mustOpen(t, ua, "https://a.test/one")
	b := mustOpen(t, ua, "https://a.test/two")
	script := mustURL(t, "https://a.test/sw.js")
	w, _, _ := ObtainSharedWorker(a.EnvironmentSettingsObject(), script, "")
	ObtainSharedWorker(b.EnvironmentSettingsObject(), script, "")
	ran := 0
	w.Env().Agent().AddTerminationSteps(func() { ran++ })
	a.Unload()
	if w.Env().Agent().IsTerminated() || w.Owners() != 1 || ran != 0 {
		t.Fatalf("after one owner left: terminated %v, owners %d", w.Env().Agent().IsTerminated(), w.Owners())
	}
	b.Unload()
	if !w.Env().Agent().IsTerminated() || !w.IsClosing() || ran != 1 {
		t.Fatalf("after the last owner left: terminated %v, closing %v, steps ran %d", w.Env().Agent().IsTerminated(), w.IsClosing(), ran)
	}
	if n := len(ua.SharedWorkers()); n != 0 {
		t.Fatalf("%d shared workers left", n)
	}
	c := mustOpen(t, ua, "https://a.test/three")
	w2, created, err := ObtainSharedWorker(c.EnvironmentSettingsObject(), script, "")
	if err != nil || !created || w2 == w || w2.Env().ID() == w.Env().ID() {
		t.Fatalf("after termination: created %v, err %v", created, err)
	}
	if _, _, err := ObtainSharedWorker(a.EnvironmentSettingsObject(), script, ""); !errors.Is(err, ErrTerminated) {
		t.Errorf("from an unloaded document: %v", err)
	}
	// Terminating the worker itself (its script's close()) forgets it too.
	w2.Terminate()
	if n := len(ua.SharedWorkers()); n != 0 || w2.Owners() != 0 {
		t.Fatalf("after Terminate: %d workers, %d owners", n, w2.Owners())
	}
}
