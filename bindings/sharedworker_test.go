package bindings

import (
	"net/url"
	"testing"

	"github.com/gowebengine/weblocks/html"
)

// sharedRealm creates the SharedWorkerGlobalScope realm of env.
func (w *world) sharedRealm(env *html.EnvironmentSettingsObject) *jsRealm {
	w.t.Helper()
	j := &jsRealm{w: w, env: env}
	r, err := NewSharedWorkerRealm(env, w.hooks(j))
	if err != nil {
		w.t.Fatal(err)
	}
	j.r = r
	return j
}

// TestSharedWorkerConstructor: two SharedWorker objects (a name given as a
// string and as options) reach one worker global, which gets a connect
// event per object whose port talks to that object's port.
func TestSharedWorkerConstructor(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://example.com/dir/page.html")
	var sw *jsRealm
	var conns []*SharedWorkerConnection
	win.r.SetSharedWorkerHooks(SharedWorkerHooks{Connect: func(c *SharedWorkerConnection) error {
		conns = append(conns, c)
		u, _ := url.Parse(c.URL)
		worker, created, err := html.ObtainSharedWorker(win.env, u, c.Name)
		if err != nil {
			return err
		}
		if created {
			sw = w.sharedRealm(worker.Env())
			sw.r.SetHostHooks(HostHooks{Name: c.Name})
			sw.exec(prelude + `
				log(self instanceof SharedWorkerGlobalScope, self instanceof WorkerGlobalScope, typeof SharedWorker, typeof DedicatedWorkerGlobalScope, typeof postMessage, self.name);
				let n = 0;
				onconnect = e => {
					const p = e.ports[0], k = ++n;
					log("connect", k, e instanceof MessageEvent, e.data === "", e.source === p, p instanceof MessagePort, Object.isFrozen(e.ports));
					p.onmessage = m => p.postMessage(m.data + " via " + k);
				};`)
		}
		sw.r.FireConnect(c.Port)
		return nil
	}})
	win.async(prelude + `
		try { new SharedWorker("https://[bad"); } catch (e) { log("bad url", e.name); }
		const a = new SharedWorker("sw.js", "n");
		const b = new SharedWorker("sw.js", {name: "n"});
		log(a instanceof SharedWorker, a instanceof EventTarget, a.port instanceof MessagePort, a.port === a.port, a.port !== b.port, "onerror" in a);
		let got = 0;
		const seen = e => { log("got", e.data); if (++got === 2) done(); };
		a.port.onmessage = seen;
		a.port.postMessage("a");
		a.port.onmessage = e => { seen(e); b.port.onmessage = seen; b.port.postMessage("b"); };
	`)
	expectLog(t, win, "bad url SyntaxError", "true true true true true true", "got a via 1", "got b via 2")
	expectLog(t, sw, "true true undefined undefined undefined n",
		"connect 1 true true true true true", "connect 2 true true true true true")
	if len(conns) != 2 || conns[0].URL != "https://example.com/dir/sw.js" || conns[1].Name != "n" {
		t.Errorf("connections %+v", conns)
	}
}

// Without an embedder new SharedWorker() is a NotSupportedError; dedicated
// workers have no SharedWorker.
func TestSharedWorkerExposure(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://example.com/")
	if got := win.eval(`try { new SharedWorker("x.js"); "no" } catch (e) { e.name }`); got != "NotSupportedError" {
		t.Errorf("without hooks: %q", got)
	}
	wk := w.worker(win, "https://example.com/w.js")
	if got := wk.eval(`typeof SharedWorker + " " + typeof SharedWorkerGlobalScope + " " + typeof onconnect`); got != "undefined undefined undefined" {
		t.Errorf("in a dedicated worker: %q", got)
	}
	if _, err := NewSharedWorkerRealm(win.env, Options{}); err != ErrWrongEnvironment {
		t.Errorf("shared realm of a window environment: %v", err)
	}
}
