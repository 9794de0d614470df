package bindings

import (
	"testing"
	"time"

	"github.com/dop251/goja"
	"github.com/gowebengine/weblocks/html"
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
		r.DefineGlobalFunction("report", 1, func(call goja.FunctionCall) goja.Value {
			results <- call.Argument(0).String()
			return goja.Undefined()
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
