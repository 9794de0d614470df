package serviceworker

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/html"
)

// fakeHost runs no script: a script containing "throw" fails to run,
// lifecycle events fail for "install" when failInstall is set, and fetch
// events answer with fetchResult.
type fakeHost struct {
	network fetch.Network

	mu          sync.Mutex
	events      []string
	failInstall bool
	terminated  []*ServiceWorker
	fetchResult func(req *fetch.Request, clientID string) FetchEventResult
	handled     []error
}

func (h *fakeHost) Context() context.Context { return context.Background() }
func (h *fakeHost) Network() fetch.Network   { return h.network }

func (h *fakeHost) Run(w *ServiceWorker) error {
	if w.Env() == nil || w.Env().Agent().Kind() != html.ServiceWorkerAgent {
		return errors.New("no service worker environment")
	}
	if strings.Contains(string(w.Script()), "throw") {
		return errors.New("script error")
	}
	return nil
}

func (h *fakeHost) FireLifecycleEvent(w *ServiceWorker, name string, done func(bool)) {
	h.mu.Lock()
	h.events = append(h.events, name+" "+w.ScriptURL().Path+" "+w.State().String())
	fail := h.failInstall && name == "install"
	h.mu.Unlock()
	done(fail)
}

func (h *fakeHost) DispatchFetchEvent(w *ServiceWorker, req *fetch.Request, clientID, _ string, done func(FetchEventResult)) {
	h.mu.Lock()
	f := h.fetchResult
	h.mu.Unlock()
	r := f(req, clientID)
	r.SettleHandled = func(err error) {
		h.mu.Lock()
		h.handled = append(h.handled, err)
		h.mu.Unlock()
	}
	done(r)
}

func (h *fakeHost) Terminate(w *ServiceWorker) {
	h.mu.Lock()
	h.terminated = append(h.terminated, w)
	h.mu.Unlock()
}

func (h *fakeHost) eventList() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.events...)
}

// scripts is a Network serving JavaScript files by path (a missing path
// is a 404).
type scripts struct {
	mu    sync.Mutex
	files map[string]string
}

func (s *scripts) set(path, src string) {
	s.mu.Lock()
	s.files[path] = src
	s.mu.Unlock()
}

func (s *scripts) Send(_ context.Context, req *fetch.NetworkRequest) (*fetch.NetworkResponse, error) {
	s.mu.Lock()
	src, ok := s.files[req.URL.Path]
	s.mu.Unlock()
	if !ok {
		return &fetch.NetworkResponse{Status: 404, StatusText: "Not Found", Header: http.Header{}}, nil
	}
	return &fetch.NetworkResponse{Status: 200, StatusText: "OK", Header: http.Header{"Content-Type": {"text/javascript"}}, Body: []byte(src)}, nil
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// register runs StartRegister and waits for the job promise.
func register(t *testing.T, client *html.EnvironmentSettingsObject, script, scope string) (*Registration, error) {
	t.Helper()
	var sc *url.URL
	if scope != "" {
		sc = mustURL(t, scope)
	}
	ch := make(chan JobResult, 1)
	if err := StartRegister(client, sc, mustURL(t, script), "classic", "imports", func(r JobResult) { ch <- r }); err != nil {
		return nil, err
	}
	r := <-ch
	return r.Registration, r.Err
}

// waitIdle waits until the job queue is idle (a no-op step after the
// running ones).
func waitIdle(ua *html.UserAgent) {
	done := make(chan struct{})
	stateOf(ua).serial.enqueue(func() { close(done) })
	<-done
}

func newUA(t *testing.T, network fetch.Network) (*html.UserAgent, *fakeHost) {
	t.Helper()
	ua := html.NewUserAgent()
	t.Cleanup(ua.Close)
	h := &fakeHost{network: network}
	SetHost(ua, h)
	return ua, h
}

func openWindow(t *testing.T, ua *html.UserAgent, u string) *html.Document {
	t.Helper()
	doc, err := ua.OpenWindow(mustURL(t, u))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestJobs(t *testing.T) {
	net := &scripts{files: map[string]string{"/app/sw.js": "// v1", "/app/v2.js": "// v2",
		"/app/sub/sw.js": "// sub", "/throws.js": "throw 1"}}
	ua, h := newUA(t, net)
	client := openWindow(t, ua, "https://a.test/app/page.html").EnvironmentSettingsObject()

	// A script that is missing (404) or throws: the job fails with a
	// TypeError and leaves no registration.
	for _, s := range []string{"https://a.test/missing.js", "https://a.test/throws.js"} {
		var te *TypeError
		if _, err := register(t, client, s, "https://a.test/"); !errors.As(err, &te) {
			t.Fatalf("%s: %v, want a TypeError", s, err)
		}
	}
	// The job rejects its promise, then removes the registration and
	// finishes: wait for the job queue before looking.
	waitIdle(ua)
	if regs := Registrations(client); len(regs) != 0 {
		t.Fatalf("registrations after failed jobs: %v", regs)
	}
	// An origin that is not potentially trustworthy: a SecurityError.
	insecure := openWindow(t, ua, "http://a.test/app/page.html").EnvironmentSettingsObject()
	var de *dom.DOMException
	if _, err := register(t, insecure, "http://a.test/app/sw.js", ""); !errors.As(err, &de) || de.Name != dom.SecurityError {
		t.Fatalf("http://a.test: %v, want a SecurityError", err)
	}

	reg, err := register(t, client, "https://a.test/app/sw.js", "")
	if err != nil {
		t.Fatal(err)
	}
	if reg.Scope().String() != "https://a.test/app/" {
		t.Fatalf("default scope %s", reg.Scope())
	}
	waitIdle(ua)
	i, w, a := reg.Workers()
	if i != nil || w != nil || a == nil || a.State() != Activated || string(a.Script()) != "// v1" {
		t.Fatalf("after register: %v %v %v", i, w, a)
	}
	if want := []string{"install /app/sw.js installing", "activate /app/sw.js activating"}; strings.Join(h.eventList(), ",") != strings.Join(want, ",") {
		t.Fatalf("events %v, want %v", h.eventList(), want)
	}
	if a.Env() == nil || a.Env().Agent().Kind() != html.ServiceWorkerAgent || a.Env().ID() == client.ID() {
		t.Fatalf("worker environment: %+v", a.Env())
	}
	// Registering the same script again resolves with the registration.
	if again, err := register(t, client, "https://a.test/app/sw.js", "https://a.test/app/"); err != nil || again != reg {
		t.Fatalf("same script: %v %v", again, err)
	}
	// Match: longest scope prefix, none outside.
	in, out := mustURL(t, "https://a.test/app/x/y"), mustURL(t, "https://a.test/other")
	if MatchServiceWorkerRegistration(client, in) != reg || MatchServiceWorkerRegistration(client, out) != nil {
		t.Fatal("scope match")
	}
	// The registering page is not controlled; a new client in scope is.
	if ActiveServiceWorker(client) != nil {
		t.Fatal("registering page controlled")
	}
	c2 := openWindow(t, ua, "https://a.test/app/x/y").EnvironmentSettingsObject()
	HandleFetchReservedClient(c2)
	if ActiveServiceWorker(c2) != a {
		t.Fatal("page in scope not controlled")
	}
	if got := Clients(a, false); len(got) != 1 || got[0] != c2 {
		t.Fatalf("controlled clients: %v", got)
	}
	if got := Clients(a, true); len(got) != 2 {
		t.Fatalf("all clients: %v", got)
	}
	if snap := TakeSnapshot(ua); snap.Controllers[c2] != a || snap.States[a] != Activated || snap.Registrations[reg][2] != a {
		t.Fatalf("snapshot %+v", snap)
	}
	// Claim: the first page (in scope) becomes controlled.
	if !Claim(a) || ActiveServiceWorker(client) != a {
		t.Fatal("claim")
	}

	// An update job with the same bytes installs nothing; a new script
	// waits while the old worker has clients, until skipWaiting; its
	// clients follow it and the old one is redundant and terminated.
	ch := make(chan JobResult, 1)
	if err := ScheduleUpdate(client, reg, func(r JobResult) { ch <- r }); err != nil {
		t.Fatal(err)
	}
	if r := <-ch; r.Err != nil || r.Registration != reg {
		t.Fatalf("update: %+v", r)
	}
	waitIdle(ua)
	if i, w, a2 := reg.Workers(); i != nil || w != nil || a2 != a {
		t.Fatalf("an unchanged script installed a worker: %v %v %v", i, w, a2)
	}
	net.set("/app/sw.js", "// v1, changed")
	if err := ScheduleUpdate(client, reg, func(r JobResult) { ch <- r }); err != nil {
		t.Fatal(err)
	}
	if r := <-ch; r.Err != nil {
		t.Fatalf("update: %+v", r)
	}
	waitIdle(ua)
	_, w2, a2 := reg.Workers()
	if w2 == nil || a2 != a || w2.State() != Installed || string(w2.Script()) != "// v1, changed" {
		t.Fatalf("the changed script should wait: waiting %v active %v", w2, a2)
	}
	SkipWaiting(w2)
	waitIdle(ua)
	if _, w3, a3 := reg.Workers(); w3 != nil || a3 != w2 || a.State() != Redundant || ActiveServiceWorker(c2) != w2 {
		t.Fatalf("after skipWaiting: waiting %v active %v old %v", w3, a3, a.State())
	}
	if a.Env().Agent().IsTerminated() != true {
		t.Fatal("the redundant worker's agent runs")
	}

	// A failed install makes the worker redundant and removes the new
	// registration.
	h.mu.Lock()
	h.failInstall = true
	h.mu.Unlock()
	reg3, err := register(t, client, "https://a.test/app/sub/sw.js", "https://a.test/app/sub/")
	if err != nil {
		t.Fatal(err)
	}
	waitIdle(ua)
	if i, w, a := reg3.Workers(); i != nil || w != nil || a != nil || !reg3.Unregistered() {
		t.Fatalf("failed install: %v %v %v", i, w, a)
	}
	if MatchServiceWorkerRegistration(client, in) != reg {
		t.Fatal("the failed registration is still matched")
	}
}

// unregister runs an unregister job and waits for its value.
func unregister(t *testing.T, client *html.EnvironmentSettingsObject, reg *Registration) bool {
	t.Helper()
	ch := make(chan JobResult, 1)
	ScheduleUnregister(client, reg, func(r JobResult) { ch <- r })
	r := <-ch
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	return r.Removed
}

// TestUnregister: the registration leaves the map at once; its workers
// stay while a client uses it and become redundant when the last one
// unloads (Try Clear Registration, Handle Service Worker Client Unload).
func TestUnregister(t *testing.T) {
	ua, _ := newUA(t, &scripts{files: map[string]string{"/a/sw.js": "", "/b/sw.js": ""}})
	page := openWindow(t, ua, "https://a.test/page.html")
	client := page.EnvironmentSettingsObject()
	regA, err := register(t, client, "https://a.test/a/sw.js", "")
	if err != nil {
		t.Fatal(err)
	}
	regB, err := register(t, client, "https://a.test/b/sw.js", "")
	if err != nil {
		t.Fatal(err)
	}
	waitIdle(ua)
	_, _, a := regA.Workers()
	_, _, b := regB.Workers()
	controlled := openWindow(t, ua, "https://a.test/b/page.html")
	HandleFetchReservedClient(controlled.EnvironmentSettingsObject())
	if ActiveServiceWorker(controlled.EnvironmentSettingsObject()) != b {
		t.Fatal("not controlled")
	}

	if !unregister(t, client, regA) || unregister(t, client, regA) {
		t.Fatal("unregister A: want true, then false")
	}
	waitIdle(ua)
	if !regA.Unregistered() || a.State() != Redundant || !a.Env().Agent().IsTerminated() {
		t.Fatalf("A without clients: unregistered %v, state %v", regA.Unregistered(), a.State())
	}
	if !unregister(t, client, regB) {
		t.Fatal("unregister B")
	}
	waitIdle(ua)
	if !regB.Unregistered() || b.State() != Activated || MatchServiceWorkerRegistration(client, mustURL(t, "https://a.test/b/x")) != nil {
		t.Fatalf("B with a client: state %v", b.State())
	}
	controlled.Unload()
	waitIdle(ua)
	if b.State() != Redundant || !b.Env().Agent().IsTerminated() {
		t.Fatalf("B after its last client unloaded: %v", b.State())
	}
}

// TestHandleFetch: a controlled client's subresource request goes to the
// fetch event; the event's flags decide between its response, a network
// error and the network (nil).
func TestHandleFetch(t *testing.T) {
	ua, h := newUA(t, &scripts{files: map[string]string{"/sw.js": ""}})
	page := openWindow(t, ua, "https://a.test/page.html")
	client := page.EnvironmentSettingsObject()
	reg, err := register(t, client, "https://a.test/sw.js", "")
	if err != nil {
		t.Fatal(err)
	}
	waitIdle(ua)
	req := fetch.NewRequest(mustURL(t, "https://a.test/data"), &fetch.Client{Origin: client.Origin()})
	ctx := context.Background()
	h.fetchResult = func(*fetch.Request, string) FetchEventResult {
		t.Error("an uncontrolled client's request reached the worker")
		return FetchEventResult{}
	}
	if r := HandleFetch(ctx, client, req); r != nil {
		t.Fatalf("uncontrolled: %v", r)
	}
	controlled := openWindow(t, ua, "https://a.test/in-scope.html").EnvironmentSettingsObject()
	HandleFetchReservedClient(controlled)
	_, _, active := reg.Workers()
	if ActiveServiceWorker(controlled) != active {
		t.Fatal("not controlled")
	}
	answer := &fetch.Response{Type: "default", Status: 201, StatusText: "Made"}
	for _, c := range []struct {
		name        string
		result      FetchEventResult
		want        *fetch.Response // nil: null
		networkErr  bool
		handledFail bool
	}{
		{"answered", FetchEventResult{Dispatched: true, RespondWithEntered: true, Response: answer}, answer, false, false},
		{"not answered", FetchEventResult{Dispatched: true}, nil, false, false},
		{"canceled", FetchEventResult{Dispatched: true, Canceled: true}, nil, true, true},
		{"respondWith rejected", FetchEventResult{Dispatched: true, RespondWithEntered: true, RespondWithError: true}, nil, true, true},
		{"task discarded", FetchEventResult{}, nil, true, false},
	} {
		var gotClient string
		h.mu.Lock()
		h.handled = nil
		h.fetchResult = func(r *fetch.Request, clientID string) FetchEventResult {
			gotClient = clientID
			if r.CurrentURL().String() != "https://a.test/data" {
				t.Errorf("%s: event request %s", c.name, r.CurrentURL())
			}
			return c.result
		}
		h.mu.Unlock()
		got := HandleFetch(ctx, controlled, req)
		switch {
		case c.networkErr:
			if got == nil || !got.IsNetworkError() {
				t.Errorf("%s: %v, want a network error", c.name, got)
			}
		case got != c.want:
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		if gotClient != controlled.ID() {
			t.Errorf("%s: client id %q", c.name, gotClient)
		}
		h.mu.Lock()
		handled := h.handled
		h.mu.Unlock()
		if c.result.Dispatched {
			var de *dom.DOMException
			if len(handled) != 1 || (c.handledFail != errors.As(handled[0], &de)) || (c.handledFail && de.Name != dom.NetworkError) {
				t.Errorf("%s: handled settled with %v", c.name, handled)
			}
		}
	}
}

// gated is a Network whose requests wait for release, then answer 404.
type gated struct {
	arrived chan string
	release chan struct{}
}

func (g *gated) Send(_ context.Context, req *fetch.NetworkRequest) (*fetch.NetworkResponse, error) {
	g.arrived <- req.URL.Path
	<-g.release
	return &fetch.NetworkResponse{Status: 404, StatusText: "Not Found", Header: http.Header{}}, nil
}

// TestEquivalentJobs: a register job scheduled while an equivalent one
// is pending joins it (Schedule Job): both settle with its result, and the
// script is fetched once.
func TestEquivalentJobs(t *testing.T) {
	g := &gated{arrived: make(chan string, 4), release: make(chan struct{})}
	ua, _ := newUA(t, g)
	client := openWindow(t, ua, "https://a.test/page.html").EnvironmentSettingsObject()
	results := make(chan JobResult, 3)
	start := func(script string) {
		if err := StartRegister(client, nil, mustURL(t, script), "classic", "imports", func(r JobResult) { results <- r }); err != nil {
			t.Fatal(err)
		}
	}
	start("https://a.test/sw.js")
	if p := <-g.arrived; p != "/sw.js" {
		t.Fatalf("fetched %s", p)
	}
	start("https://a.test/sw.js") // equivalent: joins the first
	close(g.release)
	for range 2 {
		var te *TypeError
		if r := <-results; !errors.As(r.Err, &te) {
			t.Fatalf("result %+v, want the first job's TypeError", r)
		}
	}
	waitIdle(ua)
	if len(g.arrived) != 0 {
		t.Fatalf("the equivalent job fetched the script again: %s", <-g.arrived)
	}
}

// TestTryActivateWithoutClients: a new worker replaces the active one at
// once when no client uses the registration; it waits while one does,
// and activates when that client unloads.
func TestTryActivateWithoutClients(t *testing.T) {
	net := &scripts{files: map[string]string{"/sw.js": "// v1"}}
	ua, _ := newUA(t, net)
	client := openWindow(t, ua, "https://a.test/page.html").EnvironmentSettingsObject()
	reg, err := register(t, client, "https://a.test/sw.js", "")
	if err != nil {
		t.Fatal(err)
	}
	update := func(src string) {
		t.Helper()
		net.set("/sw.js", src)
		ch := make(chan JobResult, 1)
		if err := ScheduleUpdate(client, reg, func(r JobResult) { ch <- r }); err != nil {
			t.Fatal(err)
		}
		if r := <-ch; r.Err != nil {
			t.Fatal(r.Err)
		}
		waitIdle(ua)
	}
	update("// v2")
	if _, w, a := reg.Workers(); w != nil || a == nil || string(a.Script()) != "// v2" || a.State() != Activated {
		t.Fatalf("without clients: waiting %v, active %v", w, a)
	}
	doc := openWindow(t, ua, "https://a.test/in-scope.html")
	HandleFetchReservedClient(doc.EnvironmentSettingsObject())
	update("// v3")
	_, w, a := reg.Workers()
	if w == nil || string(a.Script()) != "// v2" {
		t.Fatalf("with a client: waiting %v, active %v", w, a)
	}
	doc.Unload()
	waitIdle(ua)
	if _, w2, a2 := reg.Workers(); w2 != nil || a2 != w || a2.State() != Activated {
		t.Fatalf("after the client unloaded: waiting %v, active %v", w2, a2)
	}
}
