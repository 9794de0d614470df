package browser_test

import (
	"testing"

	"github.com/gowebengine/weblocks/browser"
)

// TestRendererLocalStorage: windows of one storage key in two renderer
// processes share one localStorage area (the browser process's), as in
// one process; another site's window does not see it; the quota error
// crosses.
func TestRendererLocalStorage(t *testing.T) {
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
	w3, err := b.Open(ctx, "https://b.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	reval(t, ctx, w1, `localStorage.setItem('k', 'v1\uD800'); localStorage.setItem('j', 'v2'); 0`)
	if v := reval(t, ctx, w2, `[localStorage.length, localStorage.key(0), localStorage.key(1), localStorage.key(2), localStorage.getItem('k') === 'v1\uD800', localStorage.getItem('j')].join()`); v != "2,k,j,,true,v2" {
		t.Fatalf("w2 sees %v", v)
	}
	if v := reval(t, ctx, w3, `[localStorage.length, localStorage.getItem('k')].join()`); v != "0," {
		t.Fatalf("another site sees %v", v)
	}
	reval(t, ctx, w2, `localStorage.removeItem('k'); 0`)
	if v := reval(t, ctx, w1, `[localStorage.length, localStorage.key(0)].join()`); v != "1,j" {
		t.Fatalf("after removeItem: %v", v)
	}
	if v := reval(t, ctx, w1, `try { localStorage.setItem('big', 'x'.repeat(6 << 20)); 'stored' } catch (e) { e.name }`); v != "QuotaExceededError" {
		t.Fatalf("over the quota: %v", v)
	}
	if v := reval(t, ctx, w1, `try { localStorage.setItem('big', 'x'.repeat(5 << 20)); 'stored' } catch (e) { e.name }`); v != "QuotaExceededError" {
		t.Fatalf("over the quota in the browser process: %v", v)
	}
	reval(t, ctx, w2, `localStorage.clear(); 0`)
	if v := reval(t, ctx, w1, `localStorage.length`); v != int64(0) {
		t.Fatalf("after clear: %v", v)
	}
}
