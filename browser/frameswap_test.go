package browser_test

import (
	"testing"
	"testing/fstest"

	"github.com/gowebengine/weblocks/browser"
)

// TestFrameNavigationKeepsContentWindow: while an iframe navigates, the
// scripts of its container document always find a same-origin window
// in it (the old one until the new one is there, as browsers commit a
// navigation at once), never a window they may not access: tasks
// polling the iframe's contentWindow during ten navigations never
// throw.
func TestFrameNavigationKeepsContentWindow(t *testing.T) {
	site := fstest.MapFS{
		"index.html": {Data: []byte(`<!doctype html><title>container</title>`)},
		"a.html":     {Data: []byte(`<!doctype html><p>a</p>`)},
	}
	_, w, ctx := open(t, site, browser.Config{})
	got := eval(t, ctx, w, `(async () => {
  const f = document.createElement('iframe');
  document.body.appendChild(f);
  let polls = 0, stop = false;
  const errors = [];
  const ch = new MessageChannel();
  const poll = () => {
    polls++;
    try {
      if (typeof f.contentWindow.navigator.userAgent !== 'string') errors.push('no navigator');
    } catch (e) {
      errors.push(e.name);
    }
    if (!stop) ch.port2.postMessage(0);
  };
  ch.port1.onmessage = poll;
  poll();
  for (let i = 0; i < 10; i++)
    await new Promise(r => { f.onload = r; f.src = 'a.html?' + i; });
  stop = true;
  return [polls > 10, errors.length + ' ' + [...new Set(errors)].join()];
})()`)
	if got, ok := got.([]any); !ok || len(got) != 2 || got[0] != true || got[1] != "0 " {
		t.Fatalf("more than ten polls during the navigations, errors: %v", got)
	}
}
