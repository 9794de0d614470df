package bindings

import (
	"testing"
	"time"

	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// With the default goroutine scheduler: a window and a worker on their own
// event loop goroutines contend for one lock; RunScript blocks until the
// script task ran; results come back over a channel.
func TestGoroutineScheduler(t *testing.T) {
	ua := html.NewUserAgent()
	defer ua.Close()
	doc, err := ua.OpenWindowURL("https://example.com/")
	if err != nil {
		t.Fatal(err)
	}
	results := make(chan string, 16)
	report := func(r *Realm) {
		r.DefineGlobalFunction("report", 1, func(call sobek.FunctionCall) sobek.Value {
			results <- call.Argument(0).String()
			return sobek.Undefined()
		})
	}
	win, err := NewWindowRealm(doc.EnvironmentSettingsObject(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	report(win)
	wenv, err := html.NewDedicatedWorker(doc.EnvironmentSettingsObject(), mustURL(t, "https://example.com/w.js"))
	if err != nil {
		t.Fatal(err)
	}
	wk, err := NewDedicatedWorkerRealm(wenv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	report(wk)
	const script = `
		let n = 0;
		for (let i = 0; i < 50; i++) {
			navigator.locks.request('counter', async lock => {
				const v = globalThis.shared = (globalThis.shared || 0) + 1;
				await new Promise(r => setTimeout(r, 0));
				if (++n === 50) report(self.constructor.name + " done");
			});
		}`
	if err := win.RunScript("w.js", script); err != nil {
		t.Fatal(err)
	}
	if err := wk.RunScript("k.js", script); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	timeout := time.After(20 * time.Second)
	for len(got) < 2 {
		select {
		case s := <-results:
			got[s] = true
		case <-timeout:
			t.Fatalf("timed out; got %v", got)
		}
	}
	if !got["Window done"] || !got["DedicatedWorkerGlobalScope done"] {
		t.Errorf("got %v", got)
	}
	if err := win.RunScript("bad.js", "throw new Error('x')"); err == nil {
		t.Error("RunScript did not return the uncaught exception")
	}
}

// Terminating a worker's agent interrupts a script stuck in an endless
// loop; Interrupt does so without closing the realm.
func TestTerminateInterruptsScript(t *testing.T) {
	ua := html.NewUserAgent()
	defer ua.Close()
	doc, err := ua.OpenWindowURL("https://example.com/")
	if err != nil {
		t.Fatal(err)
	}
	win, err := NewWindowRealm(doc.EnvironmentSettingsObject(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	started := make(chan struct{})
	win.DefineGlobalFunction("started", 0, func(sobek.FunctionCall) sobek.Value { close(started); return sobek.Undefined() })
	done := make(chan error, 1)
	win.QueueScript("spin.js", "started(); for (;;) {}", func(err error) { done <- err })
	<-started
	win.Interrupt("test timeout")
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("interrupted script reported no error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Interrupt did not stop the script")
	}
	if err := win.RunScript("after.js", "1 + 1"); err != nil {
		t.Fatalf("realm unusable after Interrupt: %v", err)
	}

	wenv, err := html.NewDedicatedWorker(doc.EnvironmentSettingsObject(), mustURL(t, "https://example.com/w.js"))
	if err != nil {
		t.Fatal(err)
	}
	wk, err := NewDedicatedWorkerRealm(wenv, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wstarted := make(chan struct{})
	wk.DefineGlobalFunction("started", 0, func(sobek.FunctionCall) sobek.Value { close(wstarted); return sobek.Undefined() })
	wdone := make(chan error, 1)
	go func() { wdone <- wk.RunScript("spin.js", "started(); for (;;) {}") }()
	<-wstarted
	wenv.Agent().Terminate()
	select {
	case err := <-wdone:
		if err == nil {
			t.Fatal("terminated script reported no error")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("terminating the agent did not stop the script")
	}
	if err := wk.RunScript("after.js", "1"); err != ErrRealmClosed {
		t.Fatalf("RunScript on a terminated realm: %v", err)
	}
}
