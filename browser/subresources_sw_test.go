package browser_test

import (
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/gowebengine/weblocks/browser"
)

// subresourceSWSite has a service worker that answers each request
// under /app/ with a Response saying its destination, and posts every
// destination to all its clients.
var subresourceSWSite = fstest.MapFS{
	"index.html":      {Data: []byte(`<!doctype html><title>subresources</title>`)},
	"app/page.html":   {Data: []byte(`<!doctype html><body></body>`)},
	"app/worker.js":   {Data: []byte(`importScripts('imported.js?imported');`)},
	"app/imported.js": {Data: []byte(``)},
	"app/sw.js": {Data: []byte(`
self.addEventListener('fetch', e => {
  const url = new URL(e.request.url);
  if (!url.search) return;
  e.waitUntil(clients.matchAll({includeUncontrolled: true}).then(cl => {
    for (const c of cl) c.postMessage(url.search.slice(1) + ' ' + e.request.destination + ' ' + e.request.mode);
  }));
});
self.addEventListener('activate', e => e.waitUntil(clients.claim()));
`)},
}

// The subresource requests of a controlled page's elements and style
// sheets reach its service worker with their destination and mode.
func TestSubresourcesThroughServiceWorker(t *testing.T) {
	b, w, ctx := open(t, subresourceSWSite, browser.Config{})
	eval(t, ctx, w, `navigator.serviceWorker.register('app/sw.js', {scope: 'app/'}).then(reg => new Promise(r => {
  const sw = reg.installing;
  sw.addEventListener('statechange', () => sw.state === 'activated' && r());
}))`)
	p, err := b.Open(ctx, "https://example.test/app/page.html")
	if err != nil {
		t.Fatal(err)
	}
	got := eval(t, ctx, p, `(async () => {
  const next = () => new Promise(r => navigator.serviceWorker.addEventListener('message', e => r(e.data), {once: true}));
  const out = [];
  let m = next();
  const div = document.createElement('div');
  div.style = 'background-image: url(bg.png?bg)';
  document.body.append(div);
  out.push(await m);
  m = next();
  const style = document.createElement('style');
  style.textContent = '@import url("sheet.css?import");';
  document.body.append(style);
  out.push(await m);
  m = next();
  const style2 = document.createElement('style');
  style2.textContent = '@font-face { font-family: foo; src: url(font.ttf?css-font); }';
  document.body.append(style2);
  out.push(await m);
  m = next();
  const face = new FontFace('bar', 'url(font.ttf?api-font) format("truetype")');
  const loading = face.load().then(f => f === face, e => e.name);
  out.push(face.status, await m, await loading, face.status);
  out.push(await new FontFace('baz', 'nonsense').loaded.catch(e => e.name));
  // A worker whose script's URL is in the scope: its script's request,
  // and its importScripts() (it is controlled), reach the service worker.
  m = next();
  const m2 = new Promise(r => navigator.serviceWorker.addEventListener('message', e => {
    if (e.data.startsWith('imported')) r(e.data);
  }));
  new Worker('worker.js?worker');
  out.push(await m, await m2);
  return out;
})()`)
	want := []any{"bg image no-cors", "import style no-cors", "css-font font cors",
		"loading", "api-font font cors", "NetworkError", "error", "SyntaxError",
		"worker worker same-origin", "imported script no-cors"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the service worker saw\n  %#v\nwant\n  %#v", got, want)
	}
}
