package browser_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/browser"
)

// TestRendererBroadcastChannel: a BroadcastChannel message posted in one
// renderer reaches the same-named channels of the same storage key in
// the others (structured clone over the wire), through the browser
// process.
func TestRendererBroadcastChannel(t *testing.T) {
	ctx := testCtx(t)
	b := rendererBrowser(t, browser.Config{})
	var ws []*browser.Window
	for range 3 {
		w, err := b.Open(ctx, "https://a.test/index.html")
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	for _, w := range ws[1:] {
		reval(t, ctx, w, `window.got = new Promise(r => { const c = new BroadcastChannel('c'); c.onmessage = e => r(e.data); }); 0`)
	}
	// A channel of the sender's own renderer gets it too, as in one
	// process; the sender itself does not.
	reval(t, ctx, ws[0], `window.mine = new Promise(r => { new BroadcastChannel('c').onmessage = e => r(e.data.n); });
		const c = new BroadcastChannel('c'); c.onmessage = () => { throw new Error('to itself'); };
		c.postMessage({n: 7, s: 'x\uD800', m: new Map([[1, [true, null]]]), d: new Date(5)}); 0`)
	if v := reval(t, ctx, ws[0], `mine`); v != int64(7) {
		t.Fatalf("the sender's renderer: %v", v)
	}
	for _, w := range ws[1:] {
		v := reval(t, ctx, w, `got.then(d => [d.n, d.s === 'x\uD800', d.m.get(1)[0], d.m.get(1)[1], d.d.getTime()].join())`)
		if v != "7,true,true,,5" {
			t.Fatalf("%v got %v", w.RendererPID(), v)
		}
	}
}

// TestRendererForgedKeyKilled: a renderer broadcasting, or using
// localStorage, for another site's storage key is killed.
func TestRendererForgedKeyKilled(t *testing.T) {
	for forge, want := range map[string]string{
		"broadcast": "killed by the browser process: a broadcast for the storage key of https://b.test",
		"storage":   "killed by the browser process: a localStorage call for the storage key of https://b.test",
	} {
		t.Run(forge, func(t *testing.T) {
			b := rendererBrowser(t, browser.Config{Renderer: browser.RendererConfig{Command: func() (*exec.Cmd, error) {
				cmd := exec.Command(os.Args[0])
				cmd.Env = append(os.Environ(), forgerEnv+"="+forge)
				return cmd, nil
			}}})
			_, err := b.Open(testCtx(t), "https://a.test/index.html")
			var re *browser.RendererExitError
			if !errors.As(err, &re) || !strings.Contains(re.Reason, want) {
				t.Fatalf("got %v", err)
			}
		})
	}
}

// TestRendererBroadcastFlood: a renderer posting more than the browser
// process queues for another (50 MB of messages) is throttled, not the
// reader killed: every message arrives, in order.
func TestRendererBroadcastFlood(t *testing.T) {
	ctx := testCtx(t)
	b := rendererBrowser(t, browser.Config{})
	w1, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	w2, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	reval(t, ctx, w2, `window.got = new Promise(r => { let n = 0; new BroadcastChannel('f').onmessage = e => { if (e.data.i !== n) r('out of order at ' + n); if (++n === 5000) r(n); }; }); 0`)
	reval(t, ctx, w1, `{ const c = new BroadcastChannel('f'), pad = 'x'.repeat(10000); for (let i = 0; i < 5000; i++) c.postMessage({i, pad}); } 0`)
	if v := reval(t, ctx, w2, `got`); v != int64(5000) {
		t.Fatalf("w2: %v", v)
	}
	if err := w2.RendererErr(); err != nil {
		t.Fatal(err)
	}
}
