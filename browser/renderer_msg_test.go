package browser_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/gowebengine/weblocks/browser"
)

// msgSite serves the cross-process messaging tests.
var msgSite = fstest.MapFS{
	"index.html": {Data: []byte(`<!doctype html><title>opener</title>`)},
	// popup.html answers every message with what it saw, and tells its
	// opener it runs.
	"popup.html": {Data: []byte(`<!doctype html><title>popup</title><script>
		onmessage = e => {
			const d = e.data;
			if (d && d.port) {
				d.port.onmessage = m => d.port.postMessage('port got ' + m.data);
				d.port.postMessage('hello through the port');
				return;
			}
			e.source.postMessage({echo: d, origin: e.origin, sourceIsOpener: e.source === opener, bytes: d && d.buf ? new Uint8Array(d.buf).join() : ''}, '*');
		};
		opener.postMessage({ready: location.origin, closed: opener.closed}, 'https://a.test');
	</script>`)},
	"other.html": {Data: []byte(`<!doctype html><title>other</title>`)},
}

// windowsByURL collects the embedder's windows of renderer processes as
// they load (through the "msg23-loaded" renderer init).
type windowsByURL struct {
	mu   sync.Mutex
	seen map[string]chan *browser.Window
}

func (ws *windowsByURL) ch(u string) chan *browser.Window {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.seen == nil {
		ws.seen = map[string]chan *browser.Window{}
	}
	c := ws.seen[u]
	if c == nil {
		c = make(chan *browser.Window, 1)
		ws.seen[u] = c
	}
	return c
}

func (ws *windowsByURL) wait(t *testing.T, ctx context.Context, u string) *browser.Window {
	t.Helper()
	select {
	case w := <-ws.ch(u):
		return w
	case <-ctx.Done():
		t.Fatalf("no window of %s loaded", u)
		return nil
	}
}

func init() {
	browser.RegisterRendererInit("msg23-loaded", func(w *browser.Window, post func(string)) {
		go func() {
			<-w.Loaded()
			post("loaded " + w.URL().String())
		}()
	})
}

// msgBrowser is a browser of RendererProcesses over msgSite whose windows
// ws learns.
func msgBrowser(t *testing.T, cfg browser.Config) (*browser.Browser, *windowsByURL) {
	ws := &windowsByURL{}
	cfg.Fetcher = browser.FSFetcher{FS: msgSite}
	cfg.Renderer.Inits = append(cfg.Renderer.Inits, "msg23-loaded")
	cfg.Renderer.OnMessage = func(w *browser.Window, msg string) {
		if u, ok := strings.CutPrefix(msg, "loaded "); ok && w != nil {
			select {
			case ws.ch(u) <- w:
			default:
			}
		}
	}
	return rendererBrowser(t, cfg), ws
}

// TestRendererPostMessage: a window opens another site's page, which runs
// in another renderer process; the two exchange postMessage both ways,
// with the right origin and source (the source is the stand-in that
// window.open and window.opener give), structured clone over the wire
// (transferred ArrayBuffers too), and a DataCloneError thrown in the
// sender before anything is sent.
func TestRendererPostMessage(t *testing.T) {
	ctx := testCtx(t)
	b, ws := msgBrowser(t, browser.Config{})
	w1, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	reval(t, ctx, w1, `window.msgs = []; window.next = null;
		onmessage = e => { msgs.push(e); if (next) { next(e); next = null; } };
		window.wait = () => msgs.length ? Promise.resolve(msgs.shift()) : new Promise(r => next = () => r(msgs.shift()));
		window.popup = open('https://b.test/popup.html'); typeof popup`)
	popup := ws.wait(t, ctx, "https://b.test/popup.html")
	if popup.RendererPID() == w1.RendererPID() || popup.RendererPID() == 0 {
		t.Fatalf("the popup runs in renderer %d, its opener in %d", popup.RendererPID(), w1.RendererPID())
	}
	if v := reval(t, ctx, w1, `wait().then(e => [e.data.ready, e.data.closed, e.origin, e.source === popup, popup.closed].join())`); v != "https://b.test,false,https://b.test,true,false" {
		t.Fatalf("the popup's first message: %v", v)
	}
	v := reval(t, ctx, w1, `{ const buf = new Uint8Array([1, 2, 3]).buffer;
		popup.postMessage({n: 7, m: new Map([[1, 's\uD800']]), buf}, 'https://b.test', [buf]);
		const detached = buf.byteLength;
		wait().then(e => [detached, e.data.echo.n, e.data.echo.m.get(1) === 's\uD800', e.data.bytes, e.data.origin, e.data.sourceIsOpener, e.origin, e.source === popup].join()) }`)
	if v != "0,7,true,1,2,3,https://a.test,true,https://b.test,true" {
		t.Fatalf("the round trip: %v", v)
	}
	// Non-cloneable: DataCloneError in the sender; the popup gets nothing.
	if v := reval(t, ctx, w1, `try { popup.postMessage({f() {}}, '*'); 'sent' } catch (e) { e.name }`); v != "DataCloneError" {
		t.Fatalf("a function: %v", v)
	}
	// A targetOrigin that is not the popup's: dropped (the next message
	// is the answer to the one after).
	reval(t, ctx, w1, `popup.postMessage('to c', 'https://c.test'); popup.postMessage('to b.test but not https', 'http://b.test'); popup.postMessage('last', '*'); 0`)
	if v := reval(t, ctx, w1, `wait().then(e => e.data.echo)`); v != "last" {
		t.Fatalf("after the mismatched target origins: %v", v)
	}
	if v := reval(t, ctx, w1, `try { popup.postMessage('x', 'not a url'); 'sent' } catch (e) { e.name }`); v != "SyntaxError" {
		t.Fatalf("a bad target origin: %v", v)
	}
}
