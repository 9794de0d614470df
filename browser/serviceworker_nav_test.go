package browser_test

import (
	"fmt"
	"reflect"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
)

// swNavSite has a service worker that answers the navigations under
// app/nav/ with a document of its own, which says the request's
// destination and the event's resultingClientId, and logs each fetch
// event it sees.
var swNavSite = fstest.MapFS{
	"index.html":     {Data: []byte(`<!doctype html><title>nav</title>`)},
	"app/page.html":  {Data: []byte(`<!doctype html><title>controlled</title>`)},
	"app/nav/a.html": {Data: []byte(`<!doctype html><p id=x>from the network</p>`)},
	"app/nav/b.html": {Data: []byte(`<!doctype html><p id=x>from the network</p>`)},
	"app/set.html":   {Data: []byte(`<!doctype html><frameset cols="50%,50%"><frame src="nav/d.html"></frameset>`)},
	"app/nav-sw.js": {Data: []byte(`
const seen = [];
self.addEventListener('fetch', e => {
  const u = new URL(e.request.url);
  if (!u.pathname.startsWith('/app/nav/'))
    return;
  const r = e.request;
  seen.push([u.pathname, r.mode, r.destination, e.clientId, e.resultingClientId, r.isReloadNavigation, r.isHistoryNavigation]);
  e.respondWith(new Response('<!doctype html><p id=x>from the worker: ' + r.destination + ' ' + e.resultingClientId + '</p>',
                             {headers: {'Content-Type': 'text/html'}}));
});
self.addEventListener('message', e => e.source.postMessage(seen));
self.addEventListener('activate', e => e.waitUntil(clients.claim()));
`)},
}

// TestServiceWorkerHandlesNavigations: a service worker answers the
// navigation requests of an iframe, a frame element (inserted, and
// parsed in a frameset) and a window.open'd window (their documents are
// its responses), with destination "iframe", "frame" and "document", mode "navigate", the opener's id as clientId and the new
// document's client id (the clientId of its Web Locks) as
// resultingClientId; the new documents are controlled. A reload's
// request has the reload-navigation flag, a traversal's that loads a
// document the history-navigation flag, and both the clientId of the
// navigable's document they leave; a srcdoc iframe, which is not
// fetched, inherits its container document's service worker.
func TestServiceWorkerHandlesNavigations(t *testing.T) {
	for name, mode := range map[string]browser.ProcessModel{"single-process": browser.SingleProcess, "renderer": browser.RendererProcesses} {
		t.Run(name, func(t *testing.T) { testServiceWorkerHandlesNavigations(t, mode) })
	}
}

func testServiceWorkerHandlesNavigations(t *testing.T, mode browser.ProcessModel) {
	// The page registers the worker, which claims it once active.
	_, p, ctx := openPage(t, swNavSite, browser.Config{Process: mode}, "https://example.test/app/page.html", 20*time.Second)
	if p.InRenderer() != (mode == browser.RendererProcesses) {
		t.Fatalf("the page is in a renderer process: %v", p.InRenderer())
	}
	eval(t, ctx, p, `new Promise(r => {
  navigator.serviceWorker.oncontrollerchange = r;
  navigator.serviceWorker.register('nav-sw.js', {scope: './'});
})`)
	got := eval(t, ctx, p, `(async () => {
  // A window's client id: the clientId of a lock it holds.
  const idOf = win => win.navigator.locks.request('id of ' + win.location.href, {ifAvailable: true},
    async () => (await win.navigator.locks.query()).held.find(l => l.name === 'id of ' + win.location.href).clientId);
  const own = await idOf(window);
  const f = document.createElement('iframe');
  f.src = 'nav/a.html';
  await new Promise(r => { f.onload = r; document.body.appendChild(f); });
  const iframe = [f.contentDocument.getElementById('x').textContent, await idOf(f.contentWindow),
                  f.contentWindow.navigator.serviceWorker.controller !== null];
  const load = async (name, src) => {
    const el = document.createElement(name);
    el.src = src;
    await new Promise(r => { el.onload = r; document.body.appendChild(el); });
    return el;
  };
  const fr = await load('frame', 'nav/c.html');
  const frame = [fr instanceof HTMLFrameElement, fr.contentDocument.getElementById('x').textContent, await idOf(fr.contentWindow)];
  const set = await load('iframe', 'set.html');
  const inner = set.contentDocument.querySelector('frame');
  const frameset = [set.contentDocument.querySelector('frameset') instanceof set.contentWindow.HTMLFrameSetElement,
                    set.contentDocument.querySelector('frameset').cols, inner.contentDocument.getElementById('x').textContent,
                    await idOf(set.contentWindow), await idOf(inner.contentWindow)];
  const popup = window.open('nav/b.html');
  await new Promise(r => popup.document.readyState === 'complete' ? r() : popup.addEventListener('load', r));
  const opened = [popup.document.getElementById('x').textContent, await idOf(popup),
                  popup.navigator.serviceWorker.controller !== null];
  await new Promise(r => { f.onload = r; f.contentWindow.location.reload(); });
  const reloaded = [f.contentDocument.getElementById('x').textContent, await idOf(f.contentWindow)];
  // A traversal back to a.html loads it again: its request's client is
  // the navigable's active document (b.html's, which also calls back()).
  await new Promise(r => { f.onload = r; f.contentWindow.location.href = '/app/nav/b.html'; });
  const before = await idOf(f.contentWindow);
  await new Promise(r => { f.onload = r; f.contentWindow.history.back(); });
  const traversed = [before, f.contentDocument.getElementById('x').textContent, await idOf(f.contentWindow)];
  const s = document.createElement('iframe');
  s.srcdoc = '<p>inline</p>';
  await new Promise(r => { s.onload = r; document.body.appendChild(s); });
  const srcdoc = s.contentWindow.navigator.serviceWorker.controller !== null;
  const seen = await new Promise(resolve => {
    navigator.serviceWorker.addEventListener('message', e => resolve(e.data), {once: true});
    navigator.serviceWorker.controller.postMessage('seen');
  });
  popup.close();
  return {own, iframe, frame, frameset, opened, reloaded, traversed, srcdoc, seen};
})()`).(map[string]any)
	own, _ := got["own"].(string)
	iframe, _ := got["iframe"].([]any)
	opened, _ := got["opened"].([]any)
	reloaded, _ := got["reloaded"].([]any)
	frame, _ := got["frame"].([]any)
	frameset, _ := got["frameset"].([]any)
	traversed, _ := got["traversed"].([]any)
	if own == "" || len(iframe) != 3 || len(frame) != 3 || len(frameset) != 5 || len(opened) != 3 || len(reloaded) != 2 || len(traversed) != 3 {
		t.Fatalf("results: %#v", got)
	}
	iframeID, popupID, reloadID := iframe[1], opened[1], reloaded[1]
	if want := []any{"from the worker: iframe " + fmt.Sprint(iframeID), iframeID, true}; !reflect.DeepEqual(iframe, want) {
		t.Errorf("iframe: got %#v, want %#v", iframe, want)
	}
	if want := []any{"from the worker: document " + fmt.Sprint(popupID), popupID, true}; !reflect.DeepEqual(opened, want) {
		t.Errorf("window.open: got %#v, want %#v", opened, want)
	}
	if want := []any{"from the worker: iframe " + fmt.Sprint(reloadID), reloadID}; !reflect.DeepEqual(reloaded, want) {
		t.Errorf("reloaded iframe: got %#v, want %#v", reloaded, want)
	}
	if want := []any{true, "from the worker: frame " + fmt.Sprint(frame[2]), frame[2]}; !reflect.DeepEqual(frame, want) {
		t.Errorf("frame element: got %#v, want %#v", frame, want)
	}
	if want := []any{true, "50%,50%", "from the worker: frame " + fmt.Sprint(frameset[4]), frameset[3], frameset[4]}; !reflect.DeepEqual(frameset, want) {
		t.Errorf("frameset's frame: got %#v, want %#v", frameset, want)
	}
	if iframeID == popupID || iframeID == reloadID || iframeID == own {
		t.Errorf("client ids are not distinct: page %v, iframe %v, popup %v, reloaded %v", own, iframeID, popupID, reloadID)
	}
	if got["srcdoc"] != true {
		t.Errorf("a srcdoc iframe of a controlled page is not controlled")
	}
	wantSeen := []any{
		[]any{"/app/nav/a.html", "navigate", "iframe", own, iframeID, false, false},
		[]any{"/app/nav/c.html", "navigate", "frame", own, frame[2], false, false},
		[]any{"/app/nav/d.html", "navigate", "frame", frameset[3], frameset[4], false, false},
		[]any{"/app/nav/b.html", "navigate", "document", own, popupID, false, false},
		[]any{"/app/nav/a.html", "navigate", "iframe", iframeID, reloadID, true, false},
		[]any{"/app/nav/b.html", "navigate", "iframe", reloadID, traversed[0], false, false},
		[]any{"/app/nav/a.html", "navigate", "iframe", traversed[0], traversed[2], false, true},
	}
	if want := []any{traversed[0], "from the worker: iframe " + fmt.Sprint(traversed[2]), traversed[2]}; !reflect.DeepEqual(traversed, want) || traversed[0] == traversed[2] {
		t.Errorf("traversed iframe: got %#v, want %#v (distinct ids)", traversed, want)
	}
	if !reflect.DeepEqual(got["seen"], wantSeen) {
		t.Errorf("fetch events:\n got %#v\nwant %#v", got["seen"], wantSeen)
	}
}
