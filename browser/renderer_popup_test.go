package browser_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/browser"
)

func init() {
	// popup23-pid tells the browser process the pid of the renderer each
	// window loads in, by its URL.
	browser.RegisterRendererInit("popup23-pid", func(w *browser.Window, post func(string)) {
		go func() {
			<-w.Loaded()
			post(fmt.Sprintf("pid %s %d", w.URL(), os.Getpid()))
		}()
	})
}

// pidBrowser is a browser of RendererProcesses over msgSite whose windows
// report their renderer's pid once loaded: pids gets "URL pid".
func pidBrowser(t *testing.T) (*browser.Browser, *windowStates) {
	pids := &windowStates{}
	cfg := browser.Config{Fetcher: browser.FSFetcher{FS: msgSite}}
	cfg.Renderer.Inits = []string{"popup23-pid"}
	cfg.Renderer.OnMessage = func(_ *browser.Window, msg string) {
		if s, ok := strings.CutPrefix(msg, "pid "); ok {
			u, _, _ := strings.Cut(s, " ")
			select {
			case pids.ch(u) <- s:
			default:
			}
		}
	}
	return rendererBrowser(t, cfg), pids
}

// TestRendererPopupMovesWithOpener: a popup of another site (in a
// renderer of its own) that navigates to a third site moves to a renderer
// of that site and keeps its opener across the processes: the new
// document's window.opener is a stand-in for the opener (its first
// message reaches the opener), the opener's stand-in for the popup
// follows the popup's navigable to its new renderer (postMessage, with
// e.source === popup for the answer), popup.closed is false until
// popup.close() closes it.
func TestRendererPopupMovesWithOpener(t *testing.T) {
	ctx := testCtx(t)
	b, ws := msgBrowser(t, browser.Config{})
	w1, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	popup := openPopup(t, ctx, w1, ws)
	first := popup.RendererPID()

	// The opener navigates its popup to c.test: popup.html there tells
	// its opener it runs (through window.opener).
	reval(t, ctx, w1, `popup.location = 'https://c.test/popup.html'; 0`)
	if v := reval(t, ctx, w1, `wait().then(e => e.origin + ' ' + e.data.ready + ' ' + (e.source === popup))`); v != "https://c.test https://c.test true" {
		t.Fatalf("the moved popup's first message: %v", v)
	}
	if p := popup.RendererPID(); p == first || p == w1.RendererPID() {
		t.Fatalf("the popup at c.test runs in renderer %d (first %d, opener %d)", p, first, w1.RendererPID())
	}
	if v := reval(t, ctx, popup, `location.href + ' ' + (opener !== null)`); v != "https://c.test/popup.html true" {
		t.Fatalf("the moved popup: %v", v)
	}

	// The opener's stand-in reaches the popup's new document.
	reval(t, ctx, w1, `popup.postMessage('to c', 'https://c.test'); 0`)
	if v := reval(t, ctx, w1, `wait().then(e => e.data.echo + ' ' + e.data.origin + ' ' + e.data.sourceIsOpener + ' ' + (e.source === popup))`); v != "to c https://a.test true true" {
		t.Fatalf("the popup's answer: %v", v)
	}
	if v := reval(t, ctx, w1, `popup.closed`); v != false {
		t.Fatalf("popup.closed after the move: %v", v)
	}
	// The stand-in's relatives: a top-level window is its own top and
	// parent; its opener is this window.
	if v := reval(t, ctx, w1, `[popup.top === popup, popup.parent === popup, popup.opener === window, popup.length].join()`); v != "true,true,true,0" {
		t.Fatalf("the stand-in's top, parent, opener, length: %v", v)
	}
	// Its length is the number of its document's child navigables, as
	// its renderer reports them; a new document has none.
	reval(t, ctx, popup, `document.body.append(document.createElement('iframe'), document.createElement('iframe')); 0`)
	for reval(t, ctx, w1, `popup.length`) != int64(2) {
	}
	reval(t, ctx, popup, `document.querySelector('iframe').remove(); 0`)
	for reval(t, ctx, w1, `popup.length`) != int64(1) {
	}
	reval(t, ctx, popup, `location.href = '/other.html'; 0`)
	for reval(t, ctx, w1, `popup.length`) != int64(0) {
	}

	// And close() closes it where it is now.
	reval(t, ctx, w1, `popup.close(); 0`)
	for reval(t, ctx, w1, `popup.closed`) != true {
	}
	if _, err := popup.Evaluate(ctx, "1"); err == nil {
		t.Fatal("the popup still runs after popup.close()")
	}
}

// TestRendererEvaluateAfterScriptNavigation: Window.Evaluate of a
// renderer's window runs in its traversable's active window once a script
// navigated it within the renderer (as it does after Window.Navigate or a
// move to another renderer), not in the window it was opened as, and
// Window.URL is that window's (also after pushState).
func TestRendererEvaluateAfterScriptNavigation(t *testing.T) {
	ctx := testCtx(t)
	b, _, states := navBrowser(t)
	w, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	pid := w.RendererPID()
	reval(t, ctx, w, `window.mark = 'first'; location.href = 'other.html?script'; 0`)
	if v := states.wait(t, ctx, "https://a.test/other.html?script"); v != "https://a.test/other.html?script 2" {
		t.Fatalf("after the script navigation: %v", v)
	}
	if v := reval(t, ctx, w, `location.href + ' ' + typeof window.mark`); v != "https://a.test/other.html?script undefined" {
		t.Fatalf("Evaluate after the script navigation: %v", v)
	}
	if w.RendererPID() != pid {
		t.Fatalf("a same-site navigation moved the window from renderer %d to %d", pid, w.RendererPID())
	}
	// Window.URL follows too (the renderer reports the URL before the
	// load and before the evaluation's result).
	if u := w.URL().String(); u != "https://a.test/other.html?script" {
		t.Fatalf("Window.URL after the script navigation: %s", u)
	}
	reval(t, ctx, w, `history.pushState(null, '', '?pushed'); 0`)
	if u := w.URL().String(); u != "https://a.test/other.html?pushed" {
		t.Fatalf("Window.URL after pushState: %s", u)
	}
}

// waitPath waits until the active document of w's traversable (where
// Evaluate runs) is at path.
func waitPath(t *testing.T, ctx context.Context, w *browser.Window, path string) {
	t.Helper()
	for {
		if v, _ := w.Evaluate(ctx, "location.pathname"); v == path {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("the window did not navigate to %s", path)
		}
	}
}

// TestRendererSameSitePopupMoves: a popup of the opener's site (in the
// opener's renderer) that navigates to another site moves to a renderer
// of that site, and its opener keeps reaching it: the new document's
// window.opener is a stand-in for the opener, the opener's reference to
// the popup (its first window, through the membrane) posts to the new
// document, popup.closed is false until popup.close() closes it there.
func TestRendererSameSitePopupMoves(t *testing.T) {
	ctx := testCtx(t)
	b, pids := pidBrowser(t)
	w1, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	reval(t, ctx, w1, `window.msgs = []; window.next = null;
		onmessage = e => { msgs.push(e); if (next) { next(e); next = null; } };
		window.wait = () => msgs.length ? Promise.resolve(msgs.shift()) : new Promise(r => next = () => r(msgs.shift()));
		window.popup = open('/popup.html'); 0`)
	if v := reval(t, ctx, w1, `wait().then(e => e.data.ready + ' ' + (e.source === popup))`); v != "https://a.test true" {
		t.Fatalf("the same-site popup's first message: %v", v)
	}
	reval(t, ctx, w1, `popup.location = 'https://c.test/popup.html'; 0`)
	if v := reval(t, ctx, w1, `wait().then(e => e.origin + ' ' + e.data.ready)`); v != "https://c.test https://c.test" {
		t.Fatalf("the moved popup's first message: %v", v)
	}
	if v, opener := pids.wait(t, ctx, "https://c.test/popup.html"), fmt.Sprint(w1.RendererPID()); strings.HasSuffix(v, " "+opener) {
		t.Fatalf("the popup at c.test runs in its opener's renderer (%s)", v)
	}
	if v := reval(t, ctx, w1, `popup.closed`); v != false {
		t.Fatalf("popup.closed after the move: %v", v)
	}
	reval(t, ctx, w1, `popup.postMessage({x: ['to c']}, '*'); 0`)
	if v := reval(t, ctx, w1, `wait().then(e => e.data.echo.x[0] + ' ' + e.data.origin + ' ' + e.data.sourceIsOpener)`); v != "to c https://a.test true" {
		t.Fatalf("the popup's answer: %v", v)
	}
	reval(t, ctx, w1, `popup.close(); 0`)
	for reval(t, ctx, w1, `popup.closed`) != true {
	}
	if v := reval(t, ctx, w1, `1 + 1`); v != int64(2) {
		t.Fatalf("the opener after closing its popup: %v", v)
	}
}

// TestRendererPopupJoinsGroupRenderer: the renderer of a navigation is
// chosen per browsing context group and site: a popup of another site
// that navigates to its opener's site moves into its opener's renderer
// (not a new one), keeps messaging its opener through the stand-ins, and
// closing it there (its opener's close()) leaves the opener's renderer
// and its window running.
func TestRendererPopupJoinsGroupRenderer(t *testing.T) {
	ctx := testCtx(t)
	b, ws := msgBrowser(t, browser.Config{})
	w1, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	popup := openPopup(t, ctx, w1, ws)
	reval(t, ctx, w1, `popup.location = 'https://a.test/popup.html'; 0`)
	if v := reval(t, ctx, w1, `wait().then(e => e.origin + ' ' + (e.source === popup))`); v != "https://a.test true" {
		t.Fatalf("the popup's first message at a.test: %v", v)
	}
	if p, o := popup.RendererPID(), w1.RendererPID(); p != o {
		t.Fatalf("the popup at its opener's site runs in renderer %d, its opener in %d", p, o)
	}
	reval(t, ctx, w1, `popup.postMessage('to a', '*'); 0`)
	if v := reval(t, ctx, w1, `wait().then(e => e.data.echo + ' ' + e.data.sourceIsOpener)`); v != "to a true" {
		t.Fatalf("the popup's answer: %v", v)
	}
	reval(t, ctx, w1, `popup.close(); 0`)
	for reval(t, ctx, w1, `popup.closed`) != true {
	}
	if _, err := popup.Evaluate(ctx, "1"); err == nil {
		t.Fatal("the popup still runs after popup.close()")
	}
	if v := reval(t, ctx, w1, `location.href`); v != "https://a.test/index.html" {
		t.Fatalf("the opener after closing its popup: %v", v)
	}
	if err := w1.RendererErr(); err != nil {
		t.Fatalf("the opener's renderer: %v", err)
	}
}

// TestRendererFrameStandInRelatives: a frame's window opens a popup of
// another site (another renderer): the popup's window.opener is a stand-in
// for the frame's window, whose top and parent are stand-ins for the
// frame's top-level window (not itself), which the popup can message.
func TestRendererFrameStandInRelatives(t *testing.T) {
	ctx := testCtx(t)
	b, ws := msgBrowser(t, browser.Config{})
	w1, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	reval(t, ctx, w1, `window.got = new Promise(r => onmessage = e => r(e.data + ' ' + e.origin));
		new Promise(r => { const f = document.createElement('iframe'); f.src = '/other.html'; f.onload = r; document.body.append(f); })
			.then(() => { frames[0].open('https://b.test/popup.html'); return 0; })`)
	popup := ws.wait(t, ctx, "https://b.test/popup.html")
	for reval(t, ctx, popup, `opener.top !== opener`) != true {
	}
	if v := reval(t, ctx, popup, `[opener.parent === opener.top, opener.top.top === opener.top, opener.top.parent === opener.top, opener.top.opener === null, opener.top.length].join()`); v != "true,true,true,true,1" {
		t.Fatalf("the frame's stand-in's relatives: %v", v)
	}
	reval(t, ctx, popup, `opener.top.postMessage('to top', '*'); 0`)
	if v := reval(t, ctx, w1, `got`); v != "to top https://b.test" {
		t.Fatalf("the frame's top got %v", v)
	}
}
