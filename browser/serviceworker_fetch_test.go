package browser_test

import (
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/gowebengine/weblocks/browser"
)

// fetchSite has a service worker whose fetch handler answers requests by
// path: a Response, a promise of one, a rejection, a value that is not a
// Response, no answer (network fallback), a canceled event, the event's
// client ids, a second respondWith, a late respondWith, and a fetch of
// its own.
var fetchSite = fstest.MapFS{
	"index.html":     {Data: []byte(`<!doctype html><title>fetch</title>`)},
	"app/page.html":  {Data: []byte(`<!doctype html><title>controlled</title>`)},
	"app/data.txt":   {Data: []byte(`from the network`)},
	"app/inner.html": {Data: []byte(`<!doctype html><title>inner</title>`)},
	"app/fetch-sw.js": {Data: []byte(`
const log = [];
self.addEventListener('fetch', e => {
  const path = new URL(e.request.url).pathname.slice('/app/'.length);
  e.handled.then(() => log.push('handled ' + path), err => log.push('rejected ' + path + ' ' + err.name));
  switch (path) {
  case 'response':
    e.respondWith(new Response('from the worker', {status: 201, statusText: 'Made', headers: {'X-Made-By': 'sw'}}));
    break;
  case 'promise':
    e.respondWith(new Promise(r => setTimeout(() => r(new Response('later')), 5)));
    break;
  case 'reject':
    e.respondWith(Promise.reject(new Error('no')));
    break;
  case 'not-a-response':
    e.respondWith(Promise.resolve('text'));
    break;
  case 'cancel':
    e.preventDefault();
    break;
  case 'ids':
    e.respondWith(new Response(JSON.stringify({clientId: e.clientId, resultingClientId: e.resultingClientId,
      replacesClientId: e.replacesClientId, method: e.request.method, url: e.request.url,
      header: e.request.headers.get('X-Test'), trusted: e.isTrusted, cancelable: e.cancelable,
      isFetchEvent: e instanceof FetchEvent})));
    break;
  case 'twice':
    e.respondWith(new Response('first'));
    try { e.respondWith(new Response('second')); } catch (err) { log.push('twice ' + err.name); }
    break;
  case 'late':
    setTimeout(() => {
      try { e.respondWith(new Response('late')); } catch (err) { log.push('late ' + err.name); }
    }, 0);
    break;
  case 'used': {
    const r = new Response('body');
    r.text();
    e.respondWith(r);
    break;
  }
  case 'passthrough':
    e.respondWith(fetch('data.txt'));
    break;
  }
});
self.addEventListener('message', e => {
  if (e.data !== 'construct') {
    e.source.postMessage(log);
    return;
  }
  const out = [];
  for (const init of [undefined, {}, {request: 'not a request'}]) {
    try { new FetchEvent('fetch', init); out.push('constructed'); } catch (err) { out.push(err.name); }
  }
  const ev = new FetchEvent('custom', {request: new Request('made'), clientId: 'c', cancelable: true});
  out.push(ev.type, ev.clientId, ev.resultingClientId, ev.replacesClientId, ev.request.url, ev.isTrusted,
           ev.cancelable, ev instanceof ExtendableEvent, ev.handled instanceof Promise, ev.preloadResponse instanceof Promise);
  try { ev.respondWith(new Response('')); out.push('responded'); } catch (err) { out.push(err.name); }
  self.addEventListener('custom', c => {
    try { c.respondWith(new Response('')); out.push('responded in dispatch'); } catch (err) { out.push(err.name); }
    try { c.respondWith(new Response('')); out.push('responded twice'); } catch (err) { out.push(err.name); }
  }, {once: true});
  self.dispatchEvent(ev);
  e.source.postMessage(out);
});
self.addEventListener('activate', e => e.waitUntil(clients.claim()));
`)},
}

func TestServiceWorkerFetchEvents(t *testing.T) {
	b, w, ctx := open(t, fetchSite, browser.Config{})
	eval(t, ctx, w, `navigator.serviceWorker.register('app/fetch-sw.js', {scope: 'app/'}).then(reg => new Promise(r => {
  const sw = reg.installing;
  sw.addEventListener('statechange', () => sw.state === 'activated' && r());
}))`)
	// The first page is not controlled: its fetches go to the network.
	if got := eval(t, ctx, w, `fetch('app/response').then(r => r.status)`); got != int64(404) {
		t.Fatalf("uncontrolled page's fetch: %v", got)
	}
	p, err := b.Open(ctx, "https://example.test/app/page.html")
	if err != nil {
		t.Fatal(err)
	}
	got := eval(t, ctx, p, `(async () => {
  const out = {};
  const settle = path => fetch(path).then(async r => [r.status, r.statusText, r.type, r.url, await r.text(), r.headers.get('X-Made-By')],
                                         err => err.name);
  for (const path of ['response', 'promise', 'reject', 'not-a-response', 'cancel', 'data.txt', 'twice', 'late', 'used', 'passthrough'])
    out[path] = await settle(path);
  out.ids = await fetch('ids', {headers: {'X-Test': 'yes'}}).then(r => r.json());
  let release;
  await new Promise(g => navigator.locks.request('page', () => new Promise(r => { release = r; g(); })));
  out.lockClientId = (await navigator.locks.query()).held[0].clientId;
  release();
  out.log = await new Promise(resolve => {
    navigator.serviceWorker.addEventListener('message', e => resolve(e.data), {once: true});
    navigator.serviceWorker.controller.postMessage('log');
  });
  return out;
})()`).(map[string]any)

	want := map[string]any{
		"response":       []any{int64(201), "Made", "basic", "https://example.test/app/response", "from the worker", "sw"},
		"promise":        []any{int64(200), "", "basic", "https://example.test/app/promise", "later", nil},
		"reject":         "TypeError",
		"not-a-response": "TypeError",
		"cancel":         "TypeError",
		"data.txt":       []any{int64(200), "OK", "basic", "https://example.test/app/data.txt", "from the network", nil},
		"twice":          []any{int64(200), "", "basic", "https://example.test/app/twice", "first", nil},
		"late":           []any{int64(404), "Not Found", "basic", "https://example.test/app/late", "", nil},
		"used":           "TypeError",
		"passthrough":    []any{int64(200), "OK", "basic", "https://example.test/app/data.txt", "from the network", nil},
	}
	for k, v := range want {
		if !reflect.DeepEqual(got[k], v) {
			t.Errorf("fetch %s:\n got %#v\nwant %#v", k, got[k], v)
		}
	}
	ids := got["ids"].(map[string]any)
	clientID, _ := got["lockClientId"].(string)
	if clientID == "" || ids["clientId"] != clientID {
		t.Errorf("event.clientId %v is not the page's clientId %q", ids["clientId"], clientID)
	}
	wantIDs := map[string]any{"clientId": clientID, "resultingClientId": "", "replacesClientId": "", "method": "GET",
		"url": "https://example.test/app/ids", "header": "yes", "trusted": true, "cancelable": true, "isFetchEvent": true}
	if !reflect.DeepEqual(ids, wantIDs) {
		t.Errorf("fetch event:\n got %#v\nwant %#v", ids, wantIDs)
	}
	constructed := eval(t, ctx, p, `new Promise(resolve => {
  navigator.serviceWorker.addEventListener('message', e => resolve(e.data), {once: true});
  navigator.serviceWorker.controller.postMessage('construct');
})`)
	wantConstructed := []any{"TypeError", "TypeError", "TypeError", "custom", "c", "", "", "https://example.test/app/made",
		false, true, true, true, true, "InvalidStateError", "responded in dispatch", "InvalidStateError"}
	if !reflect.DeepEqual(constructed, wantConstructed) {
		t.Errorf("new FetchEvent:\n got %#v\nwant %#v", constructed, wantConstructed)
	}
	log := map[any]bool{}
	for _, l := range got["log"].([]any) {
		log[l] = true
	}
	for _, l := range []string{"handled response", "handled promise", "rejected reject NetworkError",
		"rejected not-a-response NetworkError", "rejected cancel NetworkError", "handled data.txt",
		"twice InvalidStateError", "handled twice", "late InvalidStateError", "handled late",
		"rejected used NetworkError", "handled passthrough"} {
		if !log[l] {
			t.Errorf("service worker log lacks %q: %v", l, got["log"])
		}
	}
}
