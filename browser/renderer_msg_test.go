package browser_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/browser/ipc/rendererpb"
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
				d.port.onmessage = m => {
					if (m.data === 'close') d.port.close();
					else if (m.data && m.data.inner) m.data.inner.postMessage('inner ok');
					else d.port.postMessage('port got ' + m.data);
				};
				d.port.onclose = () => opener.postMessage('the popup saw close', '*');
				d.port.postMessage('hello through the port');
				return;
			}
			e.source.postMessage({echo: d, origin: e.origin, sourceIsOpener: e.source === opener, bytes: d && d.buf ? new Uint8Array(d.buf).join() : ''}, '*');
		};
		opener.postMessage({ready: location.origin, closed: opener.closed}, 'https://a.test');
	</script>`)},
	"other.html": {Data: []byte(`<!doctype html><title>other</title>`)},
	// counter.js is a shared worker: "inc" counts, "lock" takes sw-lock
	// for good.
	"counter.js": {Data: []byte(`let n = 0;
		onconnect = e => {
			const port = e.ports[0];
			port.onmessage = m => {
				if (m.data === 'inc') port.postMessage(++n);
				if (m.data === 'lock') navigator.locks.request('sw-lock', () => { port.postMessage('locked'); return new Promise(() => {}); });
			};
		};`)},
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

func (ws *windowsByURL) wait(t testing.TB, ctx context.Context, u string) *browser.Window {
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
func msgBrowser(t testing.TB, cfg browser.Config) (*browser.Browser, *windowsByURL) {
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

// openPopup opens popup.html of b.test from w1 (a.test) and waits for
// its first message; it returns the popup's window.
func openPopup(t *testing.T, ctx context.Context, w1 *browser.Window, ws *windowsByURL) *browser.Window {
	t.Helper()
	reval(t, ctx, w1, `window.msgs = []; window.next = null;
		onmessage = e => { msgs.push(e); if (next) { next(e); next = null; } };
		window.wait = () => msgs.length ? Promise.resolve(msgs.shift()) : new Promise(r => next = () => r(msgs.shift()));
		window.popup = open('https://b.test/popup.html'); typeof popup`)
	popup := ws.wait(t, ctx, "https://b.test/popup.html")
	if v := reval(t, ctx, w1, `wait().then(e => e.origin)`); v != "https://b.test" {
		t.Fatalf("the popup's first message: %v", v)
	}
	return popup
}

// TestRendererMessagePort: a MessagePort transferred to a window of
// another renderer stays entangled across the processes (both ways, and a
// port transferred through it), and its close reaches the other side
// (the close event), either way.
func TestRendererMessagePort(t *testing.T) {
	ctx := testCtx(t)
	b, ws := msgBrowser(t, browser.Config{})
	w1, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	openPopup(t, ctx, w1, ws)
	for i, side := range []string{"popup", "opener"} {
		v := reval(t, ctx, w1, `{ const ch = new MessageChannel(); window.port = ch.port1;
			window.pmsgs = []; window.pnext = null; window.portClosed = new Promise(r => port.onclose = () => r('close event'));
			port.onmessage = e => { pmsgs.push(e.data); if (pnext) { pnext(); pnext = null; } };
			window.pwait = () => pmsgs.length ? Promise.resolve(pmsgs.shift()) : new Promise(r => pnext = () => r(pmsgs.shift()));
			popup.postMessage({port: ch.port2}, '*', [ch.port2]);
			pwait() }`)
		if v != "hello through the port" {
			t.Fatalf("%d: the popup's first port message: %v", i, v)
		}
		if v := reval(t, ctx, w1, `port.postMessage('ping'); pwait()`); v != "port got ping" {
			t.Fatalf("%d: the answer: %v", i, v)
		}
		if v := reval(t, ctx, w1, `{ const inner = new MessageChannel(); window.innerGot = new Promise(r => inner.port1.onmessage = e => r(e.data));
			port.postMessage({inner: inner.port2}, [inner.port2]); innerGot }`); v != "inner ok" {
			t.Fatalf("%d: a port through the port: %v", i, v)
		}
		switch side {
		case "popup":
			if v := reval(t, ctx, w1, `port.postMessage('close'); portClosed`); v != "close event" {
				t.Fatalf("the popup's close: %v", v)
			}
		case "opener":
			if v := reval(t, ctx, w1, `port.close(); wait().then(e => e.data)`); v != "the popup saw close" {
				t.Fatalf("the opener's close: %v", v)
			}
		}
	}
}

// TestRendererCrashClosesPorts: when the popup's renderer is killed, the
// ports entangled with its ports get close, and its stand-in is closed;
// the opener keeps working.
func TestRendererCrashClosesPorts(t *testing.T) {
	ctx := testCtx(t)
	b, ws := msgBrowser(t, browser.Config{})
	w1, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	popup := openPopup(t, ctx, w1, ws)
	reval(t, ctx, w1, `{ const ch = new MessageChannel(); window.port = ch.port1;
		window.portClosed = new Promise(r => port.onclose = () => r('close event'));
		window.first = new Promise(r => port.onmessage = e => r(e.data));
		popup.postMessage({port: ch.port2}, '*', [ch.port2]); first }`)
	if err := syscall.Kill(popup.RendererPID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if v := reval(t, ctx, w1, `portClosed`); v != "close event" {
		t.Fatalf("after the crash: %v", v)
	}
	for reval(t, ctx, w1, `popup.closed`) != true {
	}
	if v := reval(t, ctx, w1, `popup.postMessage('to nobody', '*'); 1 + 1`); v != int64(2) {
		t.Fatalf("the opener: %v", v)
	}
}

// forgeMessage is a hostile renderer's postMessage (see runForger): as
// another renderer's window ("source"), to a window it was not given
// ("target"), or with another site's origin ("origin"). Renderer 1 is the
// test's honest window, of https://a.test.
func forgeMessage(host rendererpb.HostClient, ctl rendererpb.Host_ControlClient, how string) {
	var set struct {
		ID uint64 `json:"id"`
	}
	json.Unmarshal([]byte(os.Getenv("GOWEBENGINE_RENDERER")), &set)
	honest, own := uint64(1)<<32|1, set.ID<<32|1
	m := &rendererpb.WindowMessage{Source: own, Target: honest, SourceOrigin: "https://a.test", TargetOrigin: "https://a.test", Message: []byte("forged")}
	switch how {
	case "source":
		m.Source = honest
	case "origin":
		m.SourceOrigin = "https://b.test"
	case "popup":
		host.OpenPopup(context.Background(), &rendererpb.OpenPopupRequest{Opener: honest, Url: "https://b.test/popup.html"})
		select {}
	case "sharedworker":
		host.SharedWorker(context.Background(), &rendererpb.SharedWorkerRequest{Key: &rendererpb.StorageKey{Origin: "https://b.test", TopLevelSite: "https://b.test"}, Url: "https://b.test/counter.js"})
		select {}
	case "release":
		ctl.Send(&rendererpb.Report{Report: &rendererpb.Report_SharedWorkerReleased{SharedWorkerReleased: &rendererpb.SharedWorkerReleased{Link: honest}}})
		ctl.Recv()
		select {}
	case "navigate":
		ctl.Send(&rendererpb.Report{Report: &rendererpb.Report_NavigateWindow{NavigateWindow: &rendererpb.NavigateWindow{Window: honest, Url: "https://a.test/other.html?forged"}}})
		ctl.Recv()
		select {}
	case "handoff-handle", "handoff-opener":
		// A handoff of a traversable of its own, naming another
		// renderer's window as its own, or as its opener.
		h := &rendererpb.Handoff{Tab: set.ID<<32 | 7, Local: []bool{true}, Index: 0, Url: "https://c.test/other.html", Urls: []string{""}}
		if how == "handoff-handle" {
			h.Handles = []uint64{honest}
		} else {
			h.Opener = honest
		}
		ctl.Send(&rendererpb.Report{Report: &rendererpb.Report_Handoff{Handoff: h}})
		ctl.Recv()
		select {}
	case "link":
		host.SharedWorker(context.Background(), &rendererpb.SharedWorkerRequest{Key: &rendererpb.StorageKey{Origin: "https://a.test", TopLevelSite: "https://a.test"}, Url: "https://a.test/counter.js", Link: honest})
		select {}
	}
	ctl.Send(&rendererpb.Report{Report: &rendererpb.Report_Post{Post: m}})
	ctl.Recv()
	select {} // until killed
}

// TestRendererForgedPostMessage: a renderer posting a message as a
// window it does not host, to a window it was not given, or with another
// site's origin, opening a popup for another renderer's window, asking
// for another site's shared worker, or linking with a link number of
// another renderer, or navigating a window it was not given
// (location.href = url through a stand-in) is refused, logged and
// killed; the target gets nothing (and stays where it was).
func TestRendererForgedPostMessage(t *testing.T) {
	for how, want := range map[string]string{
		"source":       "a postMessage as window 0x100000001, which it does not host",
		"target":       "a postMessage to window 0x100000001, which it was not given",
		"origin":       `a postMessage with the source origin "https://b.test"`,
		"popup":        "a popup whose opener is window 0x100000001, which it does not host",
		"sharedworker": "a shared worker of the storage key of https://b.test",
		"link":         "a MessagePort link 0x100000001 it cannot make",
		"release":      "a release of shared worker connection 0x100000001, which is not its",
		"navigate":     "a navigation of window 0x100000001, which it was not given",
		// (popup23) A traversable's handles and opener go with it to
		// another renderer: only its own, and one it was given.
		"handoff-handle": "a handoff naming window 0x100000001, which is not its",
		"handoff-opener": "a handoff whose opener is window 0x100000001, which it was not given",
	} {
		t.Run(how, func(t *testing.T) {
			ctx := testCtx(t)
			var mu sync.Mutex
			var logged []string
			var n int
			b := rendererBrowser(t, browser.Config{
				Fetcher: browser.FSFetcher{FS: msgSite},
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
						cmd.Env = append(os.Environ(), forgerEnv+"=msg:"+how)
					}
					mu.Unlock()
					return cmd, nil
				}},
			})
			w1, err := b.Open(ctx, "https://a.test/index.html")
			if err != nil {
				t.Fatal(err)
			}
			reval(t, ctx, w1, `window.got = []; onmessage = e => got.push(e.data); 0`)
			if how == "link" {
				// w1's renderer runs counter.js: the forger's request
				// for it links to there.
				reval(t, ctx, w1, useCounter+`; inc()`)
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
			// An honest message from a window of w1's own renderer is
			// its first.
			if v := reval(t, ctx, w1, `postMessage('own', '*'); new Promise(r => onmessage = e => r(got.concat([e.data]).join()))`); v != "own" {
				t.Fatalf("w1 got %v", v)
			}
			if v := reval(t, ctx, w1, `location.href`); v != "https://a.test/index.html" {
				t.Fatalf("w1 navigated to %v", v)
			}
		})
	}
}

// TestRendererPostMessageFlood: a window posting more to a window of
// another renderer than the browser process queues for it (50 MB) is
// throttled, not the reader killed: every message arrives, in order.
func TestRendererPostMessageFlood(t *testing.T) {
	ctx := testCtx(t)
	b, ws := msgBrowser(t, browser.Config{})
	w1, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	popup := openPopup(t, ctx, w1, ws)
	reval(t, ctx, popup, `window.got = new Promise(r => { let n = 0; onmessage = e => { if (e.data.i !== n) r('out of order at ' + n); if (++n === 5000) r(n); }; }); 0`)
	reval(t, ctx, w1, `{ const pad = 'x'.repeat(10000); for (let i = 0; i < 5000; i++) popup.postMessage({i, pad}, 'https://b.test'); } 0`)
	if v := reval(t, ctx, popup, `got`); v != int64(5000) {
		t.Fatalf("the popup: %v", v)
	}
	if err := popup.RendererErr(); err != nil {
		t.Fatal(err)
	}
}

// useCounter connects w to the shared worker counter.js.
const useCounter = `window.sw = new SharedWorker('/counter.js'); window.swmsgs = []; window.swnext = null;
	window.swClosed = new Promise(r => sw.port.onclose = () => r('close event'));
	sw.port.onmessage = e => { swmsgs.push(e.data); if (swnext) { swnext(); swnext = null; } };
	window.swwait = () => swmsgs.length ? Promise.resolve(swmsgs.shift()) : new Promise(r => swnext = () => r(swmsgs.shift()));
	window.inc = () => { sw.port.postMessage('inc'); return swwait(); }; 0`

// swLockHolders is the client ids holding sw-lock, as a window's query()
// sees them.
const swLockHolders = `navigator.locks.query().then(s => s.held.filter(l => l.name === 'sw-lock').map(l => l.clientId).join())`

// TestRendererSharedWorker: windows of two renderer processes that
// construct the same shared worker get one worker (one counter, in the
// renderer of the first); the lock it takes is one client's in query()
// from both; when its renderer is killed, the other renderer's
// SharedWorker port gets close and the lock is released.
func TestRendererSharedWorker(t *testing.T) {
	ctx := testCtx(t)
	b, _ := msgBrowser(t, browser.Config{})
	w1, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	w2, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	reval(t, ctx, w1, useCounter)
	reval(t, ctx, w2, useCounter)
	for i, w := range []*browser.Window{w1, w2, w1, w2} {
		if v := reval(t, ctx, w, `inc()`); v != int64(i+1) {
			t.Fatalf("count %d from renderer %d: %v", i+1, w.RendererPID(), v)
		}
	}
	if v := reval(t, ctx, w2, `sw.port.postMessage('lock'); swwait()`); v != "locked" {
		t.Fatalf("the worker's lock: %v", v)
	}
	h1, h2 := reval(t, ctx, w1, swLockHolders), reval(t, ctx, w2, swLockHolders)
	if h1 != h2 || h1 == "" || strings.Contains(h1.(string), ",") {
		t.Fatalf("sw-lock's holders: %q from w1, %q from w2", h1, h2)
	}
	// The worker's renderer (w1's) ends.
	if err := syscall.Kill(w1.RendererPID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if v := reval(t, ctx, w2, `swClosed`); v != "close event" {
		t.Fatalf("w2's port: %v", v)
	}
	for reval(t, ctx, w2, swLockHolders) != "" {
	}
	// A new SharedWorker() now starts a new worker, in w2's renderer.
	if v := reval(t, ctx, w2, useCounter+`; inc()`); v != int64(1) {
		t.Fatalf("the new worker: %v", v)
	}
}

// TestRendererSharedWorkerOwners: a shared worker stays while a window
// of another renderer uses it, though the window that started it left
// (another renderer's documents are owners); when that other renderer is
// killed, the worker it solely owned is terminated (its lock released).
func TestRendererSharedWorkerOwners(t *testing.T) {
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
	// w1 navigates away (an unload listener keeps its document out of
	// the back/forward cache): its document no longer owns the worker.
	reval(t, ctx, w1, `addEventListener('unload', () => {}); location.href = '/other.html'; 0`)
	waitPath(t, ctx, w1, "/other.html")
	if v := reval(t, ctx, w2, `inc()`); v != int64(2) {
		t.Fatalf("the worker after its first owner left: %v", v)
	}
	if v := reval(t, ctx, w3, swLockHolders); v == "" {
		t.Fatal("sw-lock is not held")
	}
	if err := syscall.Kill(w2.RendererPID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for reval(t, ctx, w3, swLockHolders) != "" {
	}
}

// TestRendererClosePopup: the opener's popup.close() closes a popup of
// another renderer (its renderer ends; popup.closed becomes true); a
// window closing its opener does nothing.
func TestRendererClosePopup(t *testing.T) {
	ctx := testCtx(t)
	var exits []string
	var mu sync.Mutex
	b, ws := msgBrowser(t, browser.Config{Renderer: browser.RendererConfig{OnExit: func(w *browser.Window, err *browser.RendererExitError) {
		mu.Lock()
		exits = append(exits, err.Reason)
		mu.Unlock()
	}}})
	w1, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	popup := openPopup(t, ctx, w1, ws)
	reval(t, ctx, popup, `opener.close(); 0`)
	reval(t, ctx, w1, `popup.close(); 0`)
	for reval(t, ctx, w1, `popup.closed`) != true {
	}
	if _, err := popup.Evaluate(ctx, "1"); err == nil {
		t.Fatal("the popup still runs")
	}
	if v := reval(t, ctx, w1, `1 + 1`); v != int64(2) {
		t.Fatalf("the opener: %v", v)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(exits) != 0 {
		t.Fatalf("OnExit for a closed window: %q", exits)
	}
}

// TestRendererSharedWorkerDocumentOwner: a document of another renderer
// owns a shared worker until it is unloaded: when it navigates away
// after the worker's first owner left, the worker is terminated (its
// lock released) though its renderer runs on.
func TestRendererSharedWorkerDocumentOwner(t *testing.T) {
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
	leave := func(w *browser.Window) {
		t.Helper()
		reval(t, ctx, w, `addEventListener('unload', () => {}); location.href = '/other.html'; 0`)
		waitPath(t, ctx, w, "/other.html")
	}
	leave(w1)
	if v := reval(t, ctx, w2, `inc()`); v != int64(2) {
		t.Fatalf("the worker after its first owner left: %v", v)
	}
	leave(w2)
	for reval(t, ctx, w3, swLockHolders) != "" {
	}
	if err := w2.RendererErr(); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkRendererPostMessage: a round trip of window.postMessage
// between windows of two renderer processes (a.test → b.test popup →
// back), through the browser process; ns/op is one round trip (the
// loop runs in the opener, one Evaluate per b.N).
func BenchmarkRendererPostMessage(b *testing.B) {
	ctx := testCtx(b)
	br, ws := msgBrowser(b, browser.Config{})
	w1, err := br.Open(ctx, "https://a.test/index.html")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := w1.Evaluate(ctx, `window.popup = open('https://b.test/popup.html'); new Promise(r => onmessage = r).then(() => 0)`); err != nil {
		b.Fatal(err)
	}
	ws.wait(b, ctx, "https://b.test/popup.html")
	b.ResetTimer()
	v, err := w1.Evaluate(ctx, fmt.Sprintf(`new Promise(r => { let n = 0; onmessage = () => { if (++n === %d) r(n); else popup.postMessage(n, '*'); }; popup.postMessage(0, '*'); })`, b.N))
	if err != nil || v != int64(b.N) {
		b.Fatal(v, err)
	}
}
