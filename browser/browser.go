package browser

import (
	"context"
	"errors"
	"fmt"
	"github.com/gowebengine/weblocks/csp"
	"net/url"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/browser/ipc"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/serviceworker"
	"github.com/grafana/sobek"
)

// Config configures a Browser. The zero value is a working browser that
// fetches over net/http.
type Config struct {
	// UserAgent is the engine's user agent (agents, event loops, storage,
	// lock managers). Nil: New creates one, and Close tears it down. A
	// caller-provided user agent is left running by Close.
	UserAgent *html.UserAgent
	// Fetcher loads documents and scripts; nil means HTTPFetcher with
	// http.DefaultClient.
	Fetcher Fetcher
	// Scripts caches compiled scripts; share one between browsers that load
	// the same scripts. Nil: the browser has a cache of its own.
	Scripts *ScriptCache
	// Console receives console output of windows and workers ("level:
	// message", "worker URL level: message") and the browser's own
	// diagnostics (failed loads). Nil discards them.
	Console func(line string)
	// OnError receives the exceptions no script handled (uncaught
	// exceptions and unhandled promise rejections) of every window.
	OnError func(*ScriptError)
	// OnPanic receives a Go panic of the engine (in any goroutine of the
	// browser). The browser stops loading when one happens; Err reports it.
	// Only used when the browser creates its user agent.
	OnPanic func(value any, stack []byte)
	// InitWindow runs in every new window's realm (top-level windows,
	// iframes, popups), on its event loop, before any of its scripts: the
	// place to define an embedder's globals.
	InitWindow func(*Window)
	// DisableBackForwardCache keeps no document in the back/forward
	// cache: every document navigated away from is unloaded (its locks
	// released at once), and traversals load documents again
	// (NotRestoredReasons says "back-forward-cache-disabled").
	DisableBackForwardCache bool
	// Process says where windows run: SingleProcess (the zero value) or
	// RendererProcesses, configured by Renderer (see process.go).
	Process ProcessModel
	// Renderer configures renderer processes (RendererProcesses only).
	Renderer RendererConfig
}

// ScriptError is an exception no script handled.
type ScriptError struct {
	// Window is the window of the realm that reported it.
	Window *Window
	// Rejection is true for an unhandled promise rejection.
	Rejection bool
	*bindings.ScriptError
}

func (e *ScriptError) Error() string {
	if e.Rejection {
		return "Unhandled rejection: " + e.ScriptError.Error()
	}
	return "Uncaught " + e.ScriptError.Error()
}

// PanicError is a Go panic of the engine, as Browser.Err reports it.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic in the engine: %v", e.Value) }

// ErrClosed is returned by operations on a closed browser or window.
var ErrClosed = errors.New("browser: closed")

// ErrNotCreated is returned by the methods of a nil or zero-value
// *Browser: a browser is made by New.
var ErrNotCreated = errors.New("browser: Browser not created by browser.New")

// ErrNoWindow is returned by the methods of a nil or zero-value *Window:
// windows are made by Browser.Open and Browser.Start (and by the pages).
var ErrNoWindow = errors.New("browser: nil or zero-value *Window (windows come from Browser.Open)")

// created reports whether b was made by New (misuse such as a zero-value
// Browser{} gets ErrNotCreated rather than a nil-pointer panic).
func (b *Browser) created() bool { return b != nil && b.eng != nil }

// Browser is an engine host: it opens top-level windows at URLs, loads
// their documents, scripts, iframes and workers through its Fetcher, and
// runs them on the event loops of its user agent's agents.
type Browser struct {
	cfg     Config
	fetcher Fetcher
	scripts *ScriptCache
	eng     *engine
	ownUA   bool

	// ctx ends when the browser closes or crashes; every load uses it.
	ctx    context.Context
	cancel context.CancelFunc

	// busy counts work in progress outside the event loops (fetches,
	// parsing, realm creation); see RunUntilIdle.
	busy atomic.Int64

	mu      sync.Mutex
	realms  map[*bindings.Realm]struct{} // live realms of windows and workers
	agents  map[*html.Agent]*agentState  // window agents' membranes
	windows []*Window                    // windows from Open
	locks   *ipc.LockServer              // serves renderers (RendererProcesses)
	router  msgRouter                    // messages between renderers
	// xproc is a renderer process's messaging with the others (nil in
	// the browser process and in SingleProcess).
	xproc  *rendererMsg
	err    error // the first panic
	closed bool

	// swap: in a renderer process, its traversables that navigations move
	// to other renderers (navigation_swap.go); nil otherwise.
	swap *swapper
	// tabs: in the browser process, the traversables of its renderers
	// (renderer_tabs.go).
	tabs tabRegistry
	// swreg: in the browser process of RendererProcesses, the service
	// worker registry its renderers mirror (serviceworker_remote.go).
	swreg *swRegistry
}

// New returns a browser configured by cfg.
func New(cfg Config) *Browser {
	b := &Browser{cfg: cfg, fetcher: cfg.Fetcher, scripts: cfg.Scripts, realms: map[*bindings.Realm]struct{}{}, agents: map[*html.Agent]*agentState{}}
	if b.fetcher == nil {
		b.fetcher = HTTPFetcher{}
	}
	if b.scripts == nil {
		b.scripts = &ScriptCache{}
	}
	b.ctx, b.cancel = context.WithCancel(context.Background())
	ua := cfg.UserAgent
	if ua == nil {
		// A Go panic in a task, timer or parallel queue step of this user
		// agent is a crash of this browser only.
		ua = html.NewUserAgent(html.WithPanicHandler(b.crash))
		b.ownUA = true
	}
	b.eng = &engine{ua: ua}
	serviceworker.SetHost(ua, serviceWorkerHost{s: b})
	if cfg.Process == RendererProcesses {
		// Service workers run in renderers; the registrations are here.
		b.swreg = newSWRegistry(b)
	}
	return b
}

// UserAgent is the browser's user agent.
func (b *Browser) UserAgent() *html.UserAgent {
	if !b.created() {
		return nil
	}
	return b.eng.ua
}

// Err is the first Go panic of the engine (a *PanicError), or nil.
func (b *Browser) Err() error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// Close closes every window (their documents unload, releasing what they
// hold, e.g. Web Locks) and stops every load. A user agent New created is
// torn down: every agent terminates and every loop and queue stops.
func (b *Browser) Close() {
	if !b.created() {
		return
	}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return
	}
	b.closed = true
	windows := b.windows
	b.windows = nil
	b.mu.Unlock()
	b.cancel()
	for _, w := range windows {
		w.close()
	}
	// Renderers that no window of Open leads to (those of popups'
	// navigations to other sites).
	for _, p := range b.tabs.allProcs() {
		p.close()
	}
	if b.ownUA {
		b.eng.Close()
	}
}

// Open opens a new top-level window (a new top-level traversable in a new
// browsing context group) navigated to rawURL and waits until the load event
// has fired at it (its scripts have run and its iframes have loaded). When
// ctx ends first, the window stays open and is returned with ctx's error.
func (b *Browser) Open(ctx context.Context, rawURL string) (*Window, error) {
	if !b.created() {
		return nil, ErrNotCreated
	}
	w, err := b.Start(ctx, rawURL)
	if err != nil {
		return nil, err
	}
	select {
	case <-w.Loaded():
		return w, nil
	case <-w.rendererExited():
		return w, w.RendererErr()
	case <-ctx.Done():
		return w, ctx.Err()
	case <-b.ctx.Done():
		if err := b.Err(); err != nil {
			return w, err
		}
		return w, ErrClosed
	}
}

// Start is Open without the wait: it returns once the document is fetched
// and parsed and the window's realm exists; the scripts then run. ctx
// bounds the fetch of the document. Window.Loaded tells when the load
// event has fired.
func (b *Browser) Start(ctx context.Context, rawURL string) (*Window, error) {
	if !b.created() {
		return nil, ErrNotCreated
	}
	if b.cfg.Process == RendererProcesses {
		return b.startRenderer(ctx, rawURL, nil)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("browser: bad URL: %v", err)
	}
	b.busy.Add(1)
	defer b.busy.Add(-1)
	// A navigation of a new top-level traversable the embedder starts:
	// no client, no referrer (navigationRequest in loads.go); its
	// request's reserved client becomes the window's environment.
	top := b.eng.ua.NewTopLevelTraversable()
	reserved := top.ReserveEnvironment(u)
	page, status, err := b.fetchDocument(ctx, navigationRequest(u, nil, true), reserved)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", u, err)
	}
	if !isOKStatus(status) {
		return nil, fmt.Errorf("loading %s: HTTP status %d", u, status)
	}
	return b.startHTML(page.url, decodeText(page.body, page.charset), page.referrerPolicy, page.csp, &fetchedTop{top, reserved})
}

// fetchedTop is the top-level traversable whose document Start fetched,
// and the reserved environment of its navigation.
type fetchedTop struct {
	nav      *html.Navigable
	reserved envHandle
}

// StartHTML is Start for a document given as HTML source at u (the
// document is not fetched; its scripts, iframes and workers are).
func (b *Browser) StartHTML(u *url.URL, source string) (*Window, error) {
	return b.startHTML(u, source, "", nil, nil)
}

// startHTML is StartHTML for a document whose response's Referrer-Policy
// header gave it referrerPolicy; fetched, when set, is the traversable
// Start fetched it for (nil: a new one, without a fetch).
func (b *Browser) startHTML(u *url.URL, source, referrerPolicy string, cspList csp.List, fetched *fetchedTop) (*Window, error) {
	if !b.created() {
		return nil, ErrNotCreated
	}
	if u == nil {
		return nil, errors.New("browser: StartHTML with a nil URL")
	}
	if b.ctx.Err() != nil {
		return nil, ErrClosed
	}
	if b.cfg.Process == RendererProcesses {
		return b.startRenderer(b.ctx, u.String(), &source)
	}
	b.busy.Add(1)
	defer b.busy.Add(-1)
	doc, err := dom.ParseDocument(strings.NewReader(source), u.String())
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %v", u, err)
	}
	var w *Window
	if fetched != nil {
		var htmlDoc *html.Document
		if htmlDoc, err = fetched.nav.Navigate(u, html.NavigateOptions{ReservedEnvironment: fetched.reserved}); err == nil {
			w, err = b.newWindowIn(htmlDoc, u, doc, nil, nil, nil)
		}
	} else {
		w, err = b.newWindow(u, doc)
	}
	if err != nil {
		if perr := b.Err(); perr != nil {
			return nil, perr
		}
		return nil, err
	}
	w.setHeaderReferrerPolicy(referrerPolicy)
	w.setHeaderCSP(cspList)
	b.topFrame(w)
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		w.close()
		return nil, ErrClosed
	}
	b.windows = append(b.windows, w)
	b.mu.Unlock()
	b.busy.Add(1)
	go func() {
		defer b.busy.Add(-1)
		b.guard(func() { b.runScripts(w) })
	}()
	return w, nil
}

// crash records a Go panic: the browser stops loading.
func (b *Browser) crash(v any, stack []byte) {
	b.mu.Lock()
	first := b.err == nil
	if first {
		b.err = &PanicError{Value: v, Stack: stack}
	}
	b.mu.Unlock()
	if first && b.cfg.OnPanic != nil {
		b.cfg.OnPanic(v, stack)
	}
	b.cancel()
}

// guard runs f, turning a panic into a crash.
func (b *Browser) guard(f func()) {
	defer func() {
		if v := recover(); v != nil {
			b.crash(v, debug.Stack())
		}
	}()
	f()
}

// native wraps a Go function exposed to scripts: a JavaScript exception
// (a sobek value thrown with panic) propagates as usual, but a Go panic is
// an engine crash: the browser records it and the script is unwound with
// an error, so the panic never reaches a goroutine without a recover (the
// event loop's timer and callback tasks).
func (b *Browser) native(fn func(sobek.FunctionCall) sobek.Value) func(sobek.FunctionCall) sobek.Value {
	return func(call sobek.FunctionCall) sobek.Value {
		defer b.recoverNative()
		return fn(call)
	}
}

func (b *Browser) recoverNative() {
	v := recover()
	if v == nil {
		return
	}
	switch v.(type) {
	case sobek.Value, *sobek.Exception:
		panic(v)
	}
	b.crash(v, debug.Stack())
	// Unwind the script with a JavaScript throw (a Go value would escape
	// sobek and kill the event loop's goroutine).
	panic(sobek.Undefined())
}

func (b *Browser) log(line string) {
	if b.cfg.Console != nil {
		b.cfg.Console(line)
	}
}

func (b *Browser) reportError(e *ScriptError) {
	if b.cfg.OnError != nil {
		b.cfg.OnError(e)
	}
}

// addRealm and removeRealm keep the set of live realms RunUntilIdle probes.
func (b *Browser) addRealm(r *bindings.Realm) {
	r.SetFetchHost(fetchHost{b: b})
	b.mu.Lock()
	b.realms[r] = struct{}{}
	n := len(b.realms)
	b.mu.Unlock()
	b.swap.realmsChanged(n)
}

func (b *Browser) removeRealm(r *bindings.Realm) {
	b.mu.Lock()
	delete(b.realms, r)
	n := len(b.realms)
	b.mu.Unlock()
	b.swap.realmsChanged(n)
}
