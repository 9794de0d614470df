package browser_test

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gowebengine/weblocks/browser"
)

var swSite = fstest.MapFS{
	"index.html":    {Data: []byte(`<!doctype html><title>sw</title>`)},
	"app/page.html": {Data: []byte(`<!doctype html><title>in scope</title>`)},
	// The worker logs its lifecycle to every client, and answers
	// messages: "claim", "ids" (matchAll), "lock" (take a lock and report
	// its clientId with query()).
	"app/sw.js": {Data: []byte(`
const log = [];
const tell = async m => { log.push(m); };
self.addEventListener('install', e => {
  tell('install');
  e.waitUntil(new Promise(r => setTimeout(r, 20)).then(() => tell('install settled')));
});
self.addEventListener('activate', e => { tell('activate ' + self.registration.active.state); });
self.addEventListener('message', e => {
  e.waitUntil((async () => {
    let reply;
    switch (e.data) {
    case 'log': reply = log; break;
    case 'claim': await clients.claim(); reply = 'claimed'; break;
    case 'hold':
      await new Promise(granted => navigator.locks.request('held-by-sw', () => { granted(); return new Promise(() => {}); }));
      reply = 'holding';
      break;
    case 'ids': {
      const all = await clients.matchAll({includeUncontrolled: true, type: 'all'});
      const controlled = await clients.matchAll();
      reply = {all: all.map(c => [c.id, c.type, c.url, c.frameType]), controlled: controlled.map(c => c.id),
               get: (await clients.get(e.source.id)).url, missing: await clients.get('x')};
      break;
    }
    case 'lock':
      reply = await navigator.locks.request('sw-lock', async () => {
        const s = await navigator.locks.query();
        return [s.held[0].clientId, self instanceof ServiceWorkerGlobalScope, typeof navigator.locks.request];
      });
      break;
    }
    e.source.postMessage(reply);
  })());
});
`)},
	"app/v2.js":  {Data: []byte(`self.oninstall = () => self.skipWaiting(); self.onmessage = e => e.source.postMessage('v2');`)},
	"app/bad.js": {Data: []byte(`throw new Error('bad script');`)},
}

// ask posts msg to the active worker of the page's registration and
// waits for the reply at navigator.serviceWorker.
const ask = `window.ask = (w, msg) => new Promise(resolve => {
  navigator.serviceWorker.addEventListener('message', e => resolve(e.data), {once: true});
  w.postMessage(msg);
}); 0`

func TestServiceWorkerLifecycle(t *testing.T) {
	b, w, ctx := open(t, swSite, browser.Config{})
	eval(t, ctx, w, ask)
	got := eval(t, ctx, w, `(async () => {
  const states = [];
  const reg = await navigator.serviceWorker.register('app/sw.js', {scope: 'app/'});
  const sw = reg.installing;
  states.push(sw.state);
  sw.onstatechange = () => states.push(sw.state);
  reg.onupdatefound = () => states.push('updatefound ' + (reg.installing === sw));
  let readyResolved = false;
  navigator.serviceWorker.ready.then(() => { readyResolved = true; });
  await new Promise(r => { if (sw.state === 'activated') r(); else sw.addEventListener('statechange', () => sw.state === 'activated' && r()); });
  const again = await navigator.serviceWorker.getRegistration('app/x');
  return [states.join(), readyResolved, again === reg, reg.scope, sw.scriptURL, reg.active === sw,
          reg.installing, reg.waiting, navigator.serviceWorker.controller,
          await navigator.serviceWorker.getRegistration('/elsewhere'), await ask(sw, 'log')];
})()`)
	// ready waits for a registration whose scope matches this page: none.
	want := []any{"installing,updatefound true,installed,activating,activated", false, true, "https://example.test/app/", "https://example.test/app/sw.js",
		true, nil, nil, nil, nil, []any{"install", "install settled", "activate activating"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("lifecycle:\n got %#v\nwant %#v", got, want)
	}

	// A page loaded in scope after activation is controlled.
	p, err := b.Open(ctx, "https://example.test/app/page.html")
	if err != nil {
		t.Fatal(err)
	}
	eval(t, ctx, p, ask)
	if got := eval(t, ctx, p, `navigator.serviceWorker.ready.then(r => [navigator.serviceWorker.controller === r.active, r.active.scriptURL])`); !reflect.DeepEqual(got, []any{true, "https://example.test/app/sw.js"}) {
		t.Fatalf("controller and ready of a page in scope: %v", got)
	}
	// Clients: both pages; only the new one is controlled; Client.id is
	// the clientId of the page's locks.
	ids := eval(t, ctx, p, `(async () => {
  let release;
  await new Promise(g => navigator.locks.request('page-lock', () => new Promise(r => { release = r; g(); })));
  const clientId = (await navigator.locks.query()).held[0].clientId;
  release();
  const r = await ask(navigator.serviceWorker.controller, 'ids');
  return [clientId, r];
})()`).([]any)
	clientID, reply := ids[0].(string), ids[1].(map[string]any)
	all := reply["all"].([]any)
	if len(all) != 2 {
		t.Fatalf("matchAll includeUncontrolled: %v", all)
	}
	var found bool
	for _, c := range all {
		c := c.([]any)
		if c[0] == clientID {
			found = true
			if c[1] != "window" || c[2] != "https://example.test/app/page.html" || c[3] != "top-level" {
				t.Errorf("page client: %v", c)
			}
		}
	}
	if !found {
		t.Errorf("the page's lock clientId %s is no Client.id of %v", clientID, all)
	}
	if c := reply["controlled"].([]any); len(c) != 1 || c[0] != clientID {
		t.Errorf("controlled clients %v, want [%s]", c, clientID)
	}
	if reply["get"] != "https://example.test/app/page.html" || reply["missing"] != nil {
		t.Errorf("clients.get: %v", reply)
	}
	// The worker's own locks: navigator.locks works in its global.
	lock := eval(t, ctx, p, `ask(navigator.serviceWorker.controller, 'lock')`).([]any)
	if lock[0] == clientID || lock[0] == "" || lock[1] != true || lock[2] != "function" {
		t.Errorf("service worker lock: %v", lock)
	}
}

func TestServiceWorkerClaimAndSkipWaiting(t *testing.T) {
	b, w, ctx := open(t, swSite, browser.Config{})
	// A page in scope that registers: not controlled until claim().
	p, err := b.Open(ctx, "https://example.test/app/page.html")
	if err != nil {
		t.Fatal(err)
	}
	_ = w
	eval(t, ctx, p, ask)
	got := eval(t, ctx, p, `(async () => {
  const reg = await navigator.serviceWorker.register('sw.js');
  await navigator.serviceWorker.ready;
  const before = navigator.serviceWorker.controller;
  const changed = new Promise(r => navigator.serviceWorker.oncontrollerchange = () => r(navigator.serviceWorker.controller.scriptURL));
  const claimed = await ask(reg.active, 'claim');
  const holding = await ask(reg.active, 'hold');
  const free = await navigator.locks.request('held-by-sw', {ifAvailable: true}, l => l !== null);
  return [before, claimed, await changed, holding, free];
})()`)
	if want := []any{nil, "claimed", "https://example.test/app/sw.js", "holding", false}; !reflect.DeepEqual(got, want) {
		t.Fatalf("claim: got %v, want %v", got, want)
	}
	// A new script with skipWaiting replaces the active worker, and the
	// controlled page follows it.
	got = eval(t, ctx, p, `(async () => {
  const old = navigator.serviceWorker.controller;
  const changed = new Promise(r => navigator.serviceWorker.oncontrollerchange = () => r(navigator.serviceWorker.controller.scriptURL));
  const reg = await navigator.serviceWorker.register('v2.js', {scope: './'});
  const url = await changed;
  await new Promise(r => old.state === 'redundant' ? r() : old.addEventListener('statechange', () => old.state === 'redundant' && r()));
  // The redundant worker's agent is terminated: its lock is released.
  const free = await navigator.locks.request('held-by-sw', l => l !== null);
  return [url, old.state, await ask(navigator.serviceWorker.controller, 'hi'), free];
})()`)
	if want := []any{"https://example.test/app/v2.js", "redundant", "v2", true}; !reflect.DeepEqual(got, want) {
		t.Fatalf("skipWaiting: got %v, want %v", got, want)
	}
}

func TestServiceWorkerRegisterErrors(t *testing.T) {
	_, w, ctx := open(t, swSite, browser.Config{})
	got := eval(t, ctx, w, `(async () => {
  const out = [];
  for (const [url, opts] of [['app/bad.js', {scope: 'app/'}], ['app/missing.js', {}], ['app/sw.js', {scope: '/'}],
                             ['https://other.test/sw.js', {}], ['data:text/javascript,1', {}], ['app%2fsw.js', {}],
                             ['app/sw.js', {type: 'module'}]]) {
    try { await navigator.serviceWorker.register(url, opts); out.push('ok'); } catch (e) { out.push(e.name); }
  }
  out.push(await navigator.serviceWorker.getRegistration('app/'));
  out.push((await navigator.serviceWorker.getRegistrations()).length);
  return out;
})()`)
	want := []any{"TypeError", "TypeError", "SecurityError", "SecurityError", "TypeError", "TypeError", "NotSupportedError", nil, int64(0)}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("errors:\n got %v\nwant %v", got, want)
	}
	if got := eval(t, ctx, w, `typeof ExtendableEvent + typeof Clients + typeof ServiceWorkerContainer`); !strings.HasPrefix(got.(string), "undefinedundefined") {
		t.Fatalf("service-worker-only interfaces in a window: %v", got)
	}
}
