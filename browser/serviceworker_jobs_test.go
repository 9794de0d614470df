package browser_test

import (
	"context"
	"net/url"
	"reflect"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
)

// TestServiceWorkerUpdateAndUnregister: registration.update() fetches the
// script again (package serviceworker's update job): the same bytes
// install nothing, new bytes install a new worker; unregister() of a
// registration no client uses makes its worker redundant (Try Clear
// Registration), and the job's value is whether it removed one.
func TestServiceWorkerUpdateAndUnregister(t *testing.T) {
	var mu sync.Mutex
	version, fetches := "1", 0
	site := browser.FSFetcher{FS: fstest.MapFS{"index.html": {Data: []byte(`<!doctype html><title>update</title>`)}}}
	fetcher := browser.FetcherFunc(func(ctx context.Context, u *url.URL) (*browser.Response, error) {
		if u.Path != "/u/sw.js" {
			return site.Fetch(ctx, u)
		}
		mu.Lock()
		defer mu.Unlock()
		fetches++
		return &browser.Response{URL: u, Status: 200, ContentType: "text/javascript",
			Body: []byte(`self.oninstall = () => self.skipWaiting(); self.onmessage = e => e.source.postMessage('v` + version + `');`)}, nil
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b := browser.New(browser.Config{Fetcher: fetcher})
	defer b.Close()
	w, err := b.Open(ctx, "https://example.test/")
	if err != nil {
		t.Fatal(err)
	}
	eval(t, ctx, w, ask)
	eval(t, ctx, w, `(async () => {
  const reg = await navigator.serviceWorker.register('u/sw.js');
  const sw = reg.installing;
  await new Promise(r => sw.state === 'activated' ? r() : sw.addEventListener('statechange', () => sw.state === 'activated' && r()));
  window.reg = reg;
  window.first = sw;
  return 0;
})()`)
	got := eval(t, ctx, w, `(async () => {
  const same = await reg.update();
  return [same === reg, reg.installing, reg.waiting, reg.active === first, await ask(reg.active, 'which')];
})()`)
	if want := []any{true, nil, nil, true, "v1"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("update with the same script: got %v, want %v", got, want)
	}
	mu.Lock()
	if fetches != 2 {
		t.Errorf("the script was fetched %d times, want 2 (register, update)", fetches)
	}
	version = "2"
	mu.Unlock()
	got = eval(t, ctx, w, `(async () => {
  const found = new Promise(r => reg.onupdatefound = r);
  await reg.update();
  await found;
  const sw = reg.installing;
  await new Promise(r => sw.state === 'activated' ? r() : sw.addEventListener('statechange', () => sw.state === 'activated' && r()));
  await new Promise(r => first.state === 'redundant' ? r() : first.addEventListener('statechange', () => first.state === 'redundant' && r()));
  return [reg.active === sw, first.state, await ask(reg.active, 'which')];
})()`)
	if want := []any{true, "redundant", "v2"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("update with a new script: got %v, want %v", got, want)
	}
	got = eval(t, ctx, w, `(async () => {
  const sw = reg.active;
  const redundant = new Promise(r => sw.addEventListener('statechange', () => sw.state === 'redundant' && r()));
  const removed = await reg.unregister();
  await redundant;
  return [removed, await reg.unregister(), sw.state, await navigator.serviceWorker.getRegistration('u/'),
          await reg.update().then(() => 'updated', e => e.name)];
})()`)
	if want := []any{true, false, "redundant", nil, "InvalidStateError"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("unregister: got %v, want %v", got, want)
	}
}
