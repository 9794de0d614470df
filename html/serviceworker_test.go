package html

import (
	"errors"
	"net/url"
	"sync"
	"testing"
)

// fakeSWHost runs no script: Run fails for URLs ending in "bad.js" and
// lifecycle events fail for "install" when failInstall is set.
type fakeSWHost struct {
	ua          *UserAgent
	mu          sync.Mutex
	events      []string
	failInstall bool
	terminated  []*ServiceWorker
}

func (h *fakeSWHost) Run(w *ServiceWorker) error {
	if w.ScriptURL().Path == "/bad.js" {
		return errors.New("script error")
	}
	_, err := NewServiceWorkerEnvironment(h.ua, w)
	return err
}

func (h *fakeSWHost) FireLifecycleEvent(w *ServiceWorker, name string, done func(bool)) {
	h.mu.Lock()
	h.events = append(h.events, name+" "+w.ScriptURL().Path+" "+w.State().String())
	fail := h.failInstall && name == "install"
	h.mu.Unlock()
	done(fail)
}

func (h *fakeSWHost) Terminate(w *ServiceWorker) {
	h.mu.Lock()
	h.terminated = append(h.terminated, w)
	h.mu.Unlock()
	if env := w.Env(); env != nil {
		env.Agent().Terminate()
	}
}

func register(t *testing.T, client *EnvironmentSettingsObject, script, scope string) (*ServiceWorkerRegistration, error) {
	t.Helper()
	su, _ := url.Parse(script)
	sc, _ := url.Parse(scope)
	type res struct {
		reg *ServiceWorkerRegistration
		err error
	}
	ch := make(chan res, 1)
	ScheduleRegister(client, su, sc, func(reg *ServiceWorkerRegistration, _ *ServiceWorkerSnapshot, err error) { ch <- res{reg, err} })
	r := <-ch
	return r.reg, r.err
}

// waitIdle waits until the job queue is idle (a no-op job after the
// register job has run).
func waitIdle(ua *UserAgent) {
	done := make(chan struct{})
	registryOf(ua).queue.Enqueue(func() { close(done) })
	<-done
}

func TestServiceWorkerJobs(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	h := &fakeSWHost{ua: ua}
	SetServiceWorkerHost(ua, h)
	u, _ := url.Parse("https://a.test/app/page.html")
	doc, err := ua.OpenWindow(u)
	if err != nil {
		t.Fatal(err)
	}
	client := doc.EnvironmentSettingsObject()

	// A script that fails: the job fails and leaves no registration.
	if _, err := register(t, client, "https://a.test/bad.js", "https://a.test/"); !errors.Is(err, ErrServiceWorkerScript) {
		t.Fatalf("bad script: %v", err)
	}
	if regs := ServiceWorkerRegistrations(client); len(regs) != 0 {
		t.Fatalf("registrations after a failed job: %v", regs)
	}

	reg, err := register(t, client, "https://a.test/app/sw.js", "https://a.test/app/")
	if err != nil {
		t.Fatal(err)
	}
	waitIdle(ua)
	i, w, a := reg.Workers()
	if i != nil || w != nil || a == nil || a.State() != SWActivated {
		t.Fatalf("after register: %v %v %v", i, w, a)
	}
	if want := []string{"install /app/sw.js installing", "activate /app/sw.js activating"}; len(h.events) != 2 || h.events[0] != want[0] || h.events[1] != want[1] {
		t.Fatalf("events %v, want %v", h.events, want)
	}
	if a.Env() == nil || a.Env().Kind() != ServiceWorkerEnvironment || a.Env().ID() == client.ID() {
		t.Fatalf("worker environment: %+v", a.Env())
	}
	// Registering the same script again resolves with the registration.
	if again, err := register(t, client, "https://a.test/app/sw.js", "https://a.test/app/"); err != nil || again != reg {
		t.Fatalf("same script: %v %v", again, err)
	}
	// Match: longest scope prefix, none outside.
	in, _ := url.Parse("https://a.test/app/x/y")
	out, _ := url.Parse("https://a.test/other")
	if MatchServiceWorkerRegistration(client, in) != reg || MatchServiceWorkerRegistration(client, out) != nil {
		t.Fatal("scope match")
	}
	// The registering page is not controlled; a new client in scope is.
	if ControllerOf(client) != nil {
		t.Fatal("registering page controlled")
	}
	doc2, _ := ua.OpenWindow(in)
	c2 := doc2.EnvironmentSettingsObject()
	SetUpServiceWorkerClient(c2)
	if ControllerOf(c2) != a {
		t.Fatal("page in scope not controlled")
	}
	if got := ServiceWorkerClients(a, false); len(got) != 1 || got[0] != c2 {
		t.Fatalf("controlled clients: %v", got)
	}
	if got := ServiceWorkerClients(a, true); len(got) != 2 {
		t.Fatalf("all clients: %v", got)
	}
	// Claim: the first page (in scope) becomes controlled.
	if !Claim(a) || ControllerOf(client) != a {
		t.Fatal("claim")
	}

	// A new worker waits while the old one has controllees, until
	// skipWaiting; its clients follow it and the old one is redundant.
	h.events = nil
	if _, err := register(t, client, "https://a.test/app/v2.js", "https://a.test/app/"); err != nil {
		t.Fatal(err)
	}
	waitIdle(ua)
	_, w2, a2 := reg.Workers()
	if w2 == nil || a2 != a || w2.State() != SWInstalled {
		t.Fatalf("v2 should wait: waiting %v active %v", w2, a2)
	}
	w2.SetSkipWaiting()
	waitIdle(ua)
	if _, w3, a3 := reg.Workers(); w3 != nil || a3 != w2 || a.State() != SWRedundant || ControllerOf(c2) != w2 {
		t.Fatalf("after skipWaiting: waiting %v active %v old %v", w3, a3, a.State())
	}
	// (the first is the worker whose script failed)
	if len(h.terminated) != 2 || h.terminated[1] != a {
		t.Fatalf("terminated %v", h.terminated)
	}

	// A failed install makes the worker redundant.
	h.failInstall = true
	reg3, err := register(t, client, "https://a.test/app/sub/sw.js", "https://a.test/app/sub/")
	if err != nil {
		t.Fatal(err)
	}
	waitIdle(ua)
	if i, w, a := reg3.Workers(); i != nil || w != nil || a != nil {
		t.Fatalf("failed install: %v %v %v", i, w, a)
	}
	if MatchServiceWorkerRegistration(client, in) != reg {
		t.Fatal("the failed registration is still matched")
	}
	if !reg.Unregister() || reg.Unregister() || MatchServiceWorkerRegistration(client, in) != nil {
		t.Fatal("unregister")
	}
}
