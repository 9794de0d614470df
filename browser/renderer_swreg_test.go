package browser_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/browser/ipc/rendererpb"
	"github.com/gowebengine/weblocks/serviceworker"
)

// swRegSite serves the cross-process service worker tests.
var swRegSite = fstest.MapFS{
	"index.html": {Data: []byte(`<!doctype html><title>sw</title>`)},
	// sw.js answers /echo with the fetch event's client id, and claims
	// the clients of every renderer when asked.
	"sw.js": {Data: []byte(`
		addEventListener('fetch', e => {
			if (new URL(e.request.url).pathname === '/echo') e.respondWith(new Response('sw:' + e.clientId));
		});
		addEventListener('message', e => {
			const d = e.data;
			if (d === 'claim') clients.claim().then(() => e.source.postMessage('claimed'));
			else if (d.q === 'all') clients.matchAll({includeUncontrolled: d.all}).then(cs =>
				e.source.postMessage(cs.map(c => c.type + ':' + c.frameType + ':' + c.id).sort().join()));
			else if (d.q === 'get') clients.get(d.id).then(c => e.source.postMessage(c ? c.url + ' ' + c.type + ' ' + (c.id === d.id) : 'none'));
			else if (d.q === 'port') d.port.postMessage('via the port, from ' + e.source.id);
			else if (d.q === 'source') e.source.postMessage(e.source.id + ' ' + e.origin);
		});`)},
}

// activated registers sw.js in a window and waits for its worker to be
// activated.
const activated = `navigator.serviceWorker.register('/sw.js').then(r => new Promise(done => {
	const w = r.installing || r.waiting || r.active;
	if (w.state === 'activated') return done('activated');
	w.addEventListener('statechange', () => { if (w.state === 'activated') done('activated'); });
}))`

// TestRendererServiceWorkerRegistry: the registration map is the
// browser process's. A registration made in one renderer is seen by a
// same-origin window of another renderer (getRegistration,
// getRegistrations, ready, with the same registration id everywhere), which
// unregisters it for both; a window opened after the registration in a
// third renderer is controlled, and its fetch events go to the worker,
// which runs in the first renderer.
func TestRendererServiceWorkerRegistry(t *testing.T) {
	ctx := testCtx(t)
	b := rendererBrowser(t, browser.Config{Fetcher: browser.FSFetcher{FS: swRegSite}})
	w1, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	w2, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if w1.RendererPID() == w2.RendererPID() {
		t.Fatal("the two windows share a renderer")
	}
	if v := reval(t, ctx, w2, `navigator.serviceWorker.getRegistration('/').then(r => String(r))`); v != "undefined" {
		t.Fatalf("a registration before register(): %v", v)
	}
	if v := reval(t, ctx, w1, activated); v != "activated" {
		t.Fatalf("register in w1: %v", v)
	}
	// w2's mirror follows the browser process's state (a command of its
	// own), so it may see the registration a moment after w1's promise.
	const seen = `navigator.serviceWorker.getRegistration('/').then(r => r ? r.scope + ' ' + (r.active && r.active.scriptURL + ' ' + r.active.state) : 'none')`
	for {
		v := reval(t, ctx, w2, seen)
		if v == "https://a.test/ https://a.test/sw.js activated" {
			break
		}
		if v != "none" {
			t.Fatalf("w2's registration: %v", v)
		}
	}
	if v := reval(t, ctx, w2, `navigator.serviceWorker.getRegistrations().then(rs => rs.length + ' ' + rs[0].scope)`); v != "1 https://a.test/" {
		t.Fatalf("w2's registrations: %v", v)
	}
	if v := reval(t, ctx, w2, `navigator.serviceWorker.ready.then(r => r.active.scriptURL)`); v != "https://a.test/sw.js" {
		t.Fatalf("w2's ready: %v", v)
	}
	// A new window of a third renderer is controlled by the worker, which
	// runs in w1's renderer: its fetch event crosses processes.
	w3, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if v := reval(t, ctx, w3, `String(navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL)`); v != "https://a.test/sw.js" {
		t.Fatalf("w3's controller: %v", v)
	}
	v := reval(t, ctx, w3, `fetch('/echo').then(r => r.text())`)
	if s, _ := v.(string); !strings.HasPrefix(s, "sw:") || len(s) < 10 {
		t.Fatalf("w3's fetch: %v", v)
	}
	// w2 is not controlled (it was created before the registration):
	// clients.claim() in the worker (w1's renderer) claims it.
	if v := reval(t, ctx, w2, `String(navigator.serviceWorker.controller)`); v != "null" {
		t.Fatalf("w2's controller before claim: %v", v)
	}
	reval(t, ctx, w1, `navigator.serviceWorker.getRegistration().then(r => { r.active.postMessage('claim'); return 0; })`)
	if v := reval(t, ctx, w2, `new Promise(r => {
		const c = () => navigator.serviceWorker.controller ? r(navigator.serviceWorker.controller.scriptURL) : false;
		c() === false && navigator.serviceWorker.addEventListener('controllerchange', c);
	})`); v != "https://a.test/sw.js" {
		t.Fatalf("w2's controller after claim: %v", v)
	}
	if v := reval(t, ctx, w2, `fetch('/echo').then(r => r.text())`); !strings.HasPrefix(v.(string), "sw:") {
		t.Fatalf("w2's fetch after claim: %v", v)
	}
	// w2 unregisters it: w1 no longer sees it.
	if v := reval(t, ctx, w2, `navigator.serviceWorker.getRegistration('/').then(r => r.unregister())`); v != true {
		t.Fatalf("unregister from w2: %v", v)
	}
	for {
		v := reval(t, ctx, w1, `navigator.serviceWorker.getRegistration('/').then(r => String(r))`)
		if v == "undefined" {
			break
		}
		if v != "[object ServiceWorkerRegistration]" {
			t.Fatalf("w1's registration after unregister: %v", v)
		}
	}
}

// forgeServiceWorker is the forger renderer's forged service worker
// report or call (TestRendererForgedServiceWorker).
func forgeServiceWorker(host rendererpb.HostClient, ctl rendererpb.Host_ControlClient, how string) {
	other := &rendererpb.StorageKey{Origin: "https://b.test", TopLevelSite: "https://b.test"}
	own := &rendererpb.StorageKey{Origin: "https://a.test", TopLevelSite: "https://a.test"}
	client := &rendererpb.SWClientInfo{Id: "forged-client", Url: "https://b.test/", Origin: "https://b.test", Key: other, Window: true, Secure: true}
	var rep *rendererpb.Report
	switch how {
	case "job":
		rep = &rendererpb.Report{Report: &rendererpb.Report_SwJob{SwJob: &rendererpb.SWJob{Call: 1, Type: "register", Key: other,
			Scope: "https://b.test/", Script: "https://b.test/sw.js", Client: client}}}
	case "client":
		rep = &rendererpb.Report{Report: &rendererpb.Report_SwClient{SwClient: &rendererpb.SWClient{Client: client}}}
	case "origin":
		// A client of its site claiming another origin's key.
		client.Key = own
		rep = &rendererpb.Report{Report: &rendererpb.Report_SwClient{SwClient: &rendererpb.SWClient{Client: client}}}
	case "worker":
		rep = &rendererpb.Report{Report: &rendererpb.Report_SwWorkerCall{SwWorkerCall: &rendererpb.SWWorkerCall{Worker: os.Getenv("FORGED_SW_WORKER"), Op: "claim"}}}
	case "flood":
		// More clients than a renderer may have.
		for i := range 1<<16 + 1 {
			ctl.Send(&rendererpb.Report{Report: &rendererpb.Report_SwClient{SwClient: &rendererpb.SWClient{Client: &rendererpb.SWClientInfo{
				Id: fmt.Sprint("client-", i), Url: "https://a.test/", Origin: "https://a.test", Key: own, Window: true, Secure: true}}}})
		}
		select {}
	case "fetch":
		host.ServiceWorkerFetch(context.Background(), &rendererpb.SWFetchRequest{Worker: os.Getenv("FORGED_SW_WORKER"), ClientId: os.Getenv("FORGED_SW_CLIENT"),
			Request: &rendererpb.SWRequest{Method: "GET", Url: "https://a.test/echo"}})
		select {}
	}
	ctl.Send(rep)
	for {
		if _, err := ctl.Recv(); err != nil {
			select {}
		}
	}
}

// TestRendererForgedServiceWorker: the browser process refuses, logs and
// kills a renderer whose service worker job or client is for a storage
// key of another site, whose client's origin is not its storage key's,
// that calls clients.claim() for a worker it does not run, that asks for
// a fetch event for another renderer's client, or that makes more
// clients than a renderer may have.
func TestRendererForgedServiceWorker(t *testing.T) {
	for how, want := range map[string]string{
		"job":    "a service worker client of the storage key of https://b.test",
		"client": "a service worker client of the storage key of https://b.test",
		"origin": "a service worker client of origin https://b.test for the storage key of https://a.test",
		"worker": "a call of service worker ",
		"fetch":  "a fetch event for client ",
		"flood":  "service worker client client-65536 (too many clients)",
	} {
		t.Run(how, func(t *testing.T) {
			ctx := testCtx(t)
			var mu sync.Mutex
			var logged []string
			var n int
			var worker, client string
			b := rendererBrowser(t, browser.Config{
				Fetcher: browser.FSFetcher{FS: swRegSite},
				Console: func(line string) {
					mu.Lock()
					logged = append(logged, line)
					mu.Unlock()
				},
				Renderer: browser.RendererConfig{Command: func() (*exec.Cmd, error) {
					cmd := exec.Command(os.Args[0])
					mu.Lock()
					n++
					if n == 2 {
						cmd.Env = append(os.Environ(), forgerEnv+"=sw:"+how, "FORGED_SW_WORKER="+worker, "FORGED_SW_CLIENT="+client)
					}
					mu.Unlock()
					return cmd, nil
				}},
			})
			w1, err := b.Open(ctx, "https://a.test/index.html")
			if err != nil {
				t.Fatal(err)
			}
			// The honest renderer runs a worker; its id and w1's client id
			// are what the forger names.
			if v := reval(t, ctx, w1, activated); v != "activated" {
				t.Fatalf("register: %v", v)
			}
			// The worker's id (the browser process's), and w1's client id
			// (its fetch event's, once the worker claimed it).
			reval(t, ctx, w1, `navigator.serviceWorker.getRegistration().then(r => new Promise(res => {
				navigator.serviceWorker.oncontrollerchange = () => res(0);
				r.active.postMessage('claim');
			}))`)
			id, _ := reval(t, ctx, w1, `fetch('/echo').then(r => r.text())`).(string)
			mu.Lock()
			for w := range serviceworker.TakeSnapshot(b.UserAgent()).States {
				worker = w.ID()
			}
			client = strings.TrimPrefix(id, "sw:")
			mu.Unlock()
			if worker == "" || client == id {
				t.Fatalf("no worker (%q) or client (%q)", worker, id)
			}
			_, err = b.Open(ctx, "https://a.test/index.html")
			var re *browser.RendererExitError
			if !errors.As(err, &re) || !strings.Contains(re.Reason, "killed by the browser process: "+want) {
				t.Fatalf("got %v", err)
			}
			mu.Lock()
			found := false
			for _, l := range logged {
				found = found || strings.Contains(l, "refused "+want)
			}
			mu.Unlock()
			if !found {
				t.Fatalf("not logged: %q", logged)
			}
			// The honest renderer still works with its registration.
			if v := reval(t, ctx, w1, `navigator.serviceWorker.getRegistrations().then(rs => rs.length)`); v != int64(1) {
				t.Fatalf("w1's registrations: %v", v)
			}
		})
	}
}

// askWorker posts q to the active worker from a window and resolves with the
// worker's answer (a message at navigator.serviceWorker, or through
// the port q carries).
const askWorker = `q => navigator.serviceWorker.getRegistration().then(r => new Promise(res => {
	if (q.q === 'port') {
		const ch = new MessageChannel();
		ch.port1.onmessage = e => res(e.data);
		r.active.postMessage({q: 'port', port: ch.port2}, [ch.port2]);
		return;
	}
	navigator.serviceWorker.onmessage = e => res(e.data);
	r.active.postMessage(q);
}))`

// TestRendererServiceWorkerClients: a worker that runs in one renderer
// sees the clients of the other renderers of its storage key
// (clients.matchAll(), clients.get(), with the environments' ids, which
// its fetch events name), and messages cross between it and them both
// ways (ServiceWorker.postMessage with a transferred MessagePort,
// Client.postMessage).
func TestRendererServiceWorkerClients(t *testing.T) {
	ctx := testCtx(t)
	b := rendererBrowser(t, browser.Config{Fetcher: browser.FSFetcher{FS: swRegSite}})
	w1, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	w2, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if v := reval(t, ctx, w1, activated); v != "activated" {
		t.Fatalf("register in w1: %v", v)
	}
	w3, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	echo := func(w *browser.Window) string {
		v, _ := reval(t, ctx, w, `fetch('/echo').then(r => r.text())`).(string)
		id, ok := strings.CutPrefix(v, "sw:")
		if !ok || id == "" {
			t.Fatalf("fetch('/echo'): %q", v)
		}
		return id
	}
	id3 := echo(w3)
	for reval(t, ctx, w2, `navigator.serviceWorker.getRegistration().then(r => String(r && r.active))`) != "[object ServiceWorker]" {
	}
	// w2 (renderer 2) asks the worker (renderer 1) about the clients.
	q := func(w *browser.Window, arg string) any { return reval(t, ctx, w, "("+askWorker+")("+arg+")") }
	if v := q(w2, `{q: 'all', all: false}`); v != "window:top-level:"+id3 {
		t.Fatalf("the controlled clients: %v", v)
	}
	all, _ := q(w2, `{q: 'all', all: true}`).(string)
	if n := strings.Count(all, "window:top-level:"); n != 3 || !strings.Contains(all, id3) {
		t.Fatalf("every client: %q", all)
	}
	if v := q(w2, `{q: 'get', id: '`+id3+`'}`); v != "https://a.test/index.html window true" {
		t.Fatalf("clients.get(w3's id): %v", v)
	}
	// The message's source is w2's Client (its id one of the list's), and
	// the worker answers through a transferred port.
	src, _ := q(w2, `{q: 'source'}`).(string)
	id2, origin, _ := strings.Cut(src, " ")
	if origin != "https://a.test" || id2 == "" || id2 == id3 || !strings.Contains(all, id2) {
		t.Fatalf("the source of w2's message: %q (clients %q)", src, all)
	}
	if v := q(w2, `{q: 'port'}`); v != "via the port, from "+id2 {
		t.Fatalf("through the port: %v", v)
	}
}

// TestRendererSharedWorkerOutlivesClosedWindow: the embedder closes the
// window whose renderer runs a shared worker that a window of another
// renderer uses: the worker runs on there (its count, its lock), and
// once its last owner left, it is terminated (its lock released) and its
// renderer ends.
func TestRendererSharedWorkerOutlivesClosedWindow(t *testing.T) {
	ctx := testCtx(t)
	b, _ := msgBrowser(t, browser.Config{})
	var ws []*browser.Window
	for range 3 {
		w, err := b.Open(ctx, "https://a.test/index.html")
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	w1, w2, w3 := ws[0], ws[1], ws[2]
	reval(t, ctx, w1, useCounter)
	reval(t, ctx, w2, useCounter)
	if v := reval(t, ctx, w2, `inc().then(() => { sw.port.postMessage('lock'); return swwait(); })`); v != "locked" {
		t.Fatalf("the worker's lock: %v", v)
	}
	pid := w1.RendererPID()
	w1.Close()
	if v := reval(t, ctx, w2, `inc()`); v != int64(2) {
		t.Fatalf("the worker after the embedder closed its first owner's window: %v", v)
	}
	if v := reval(t, ctx, w3, swLockHolders); v == "" {
		t.Fatal("sw-lock is not held")
	}
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("the worker's renderer: %v", err)
	}
	// w2 leaves (an unload listener keeps its document out of the
	// back/forward cache): the worker has no owner left.
	reval(t, ctx, w2, `addEventListener('unload', () => {}); location.href = '/other.html'; 0`)
	for reval(t, ctx, w3, swLockHolders) != "" {
	}
	// Its renderer, hosting nothing, ends (polled: nothing tells the
	// embedder of it).
	for syscall.Kill(pid, 0) == nil {
		select {
		case <-ctx.Done():
			t.Fatal("the worker's renderer did not end")
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// TestRendererServiceWorkerRestart: when the renderer that runs a
// service worker is killed, the worker runs again in another renderer of
// its site at its next fetch event, for a client of that renderer.
func TestRendererServiceWorkerRestart(t *testing.T) {
	ctx := testCtx(t)
	b := rendererBrowser(t, browser.Config{Fetcher: browser.FSFetcher{FS: swRegSite}})
	w1, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if v := reval(t, ctx, w1, activated); v != "activated" {
		t.Fatalf("register in w1: %v", v)
	}
	w2, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	first := reval(t, ctx, w2, `fetch('/echo').then(r => r.text())`)
	if s, _ := first.(string); !strings.HasPrefix(s, "sw:") {
		t.Fatalf("w2's fetch: %v", first)
	}
	if err := syscall.Kill(w1.RendererPID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// (The embedder learns of the end; the browser process then knows
	// the worker stopped.)
	for w1.RendererErr() == nil {
		reval(t, ctx, w2, `0`)
	}
	// A message runs the worker again (in w2's renderer, the site's only
	// one), then a fetch event.
	if v := reval(t, ctx, w2, "("+askWorker+")({q: 'source'})"); v != strings.TrimPrefix(first.(string), "sw:")+" https://a.test" {
		t.Fatalf("a message after the worker's renderer was killed: %v", v)
	}
	if v := reval(t, ctx, w2, `fetch('/echo').then(r => r.text())`); v != first {
		t.Fatalf("w2's fetch after the worker's renderer was killed: %v (before: %v)", v, first)
	}
}
