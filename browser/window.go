package browser

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Window is a window of the browser: a top-level one (Open, window.open) or
// one in an iframe. Its realm runs on its agent's event loop.
type Window struct {
	s       *Browser
	realm   *bindings.Realm
	env     envHandle
	htmlDoc *html.Document
	doc     *dom.Document // the window's document node tree
	url     *url.URL

	// parentWin is the window whose iframe holds this one, in frame (both
	// nil for the top-level window); parentProxy is this realm's
	// stand-in for parentWin (window.parent).
	parentWin   *Window
	frame       *frame
	parentProxy *sobek.Object
	// openerWin is the window that opened this one with window.open
	// (without noopener); openerProxy is this realm's stand-in for it.
	openerWin   *Window
	openerProxy *sobek.Object
	topProxy    *sobek.Object
	// frames are the iframes connected to this window's document.
	fmu    sync.Mutex
	frames map[*xhtml.Node]*frame
	// loaded is closed once load has fired at the window.
	loaded chan struct{}
	// loadDelayers are the frames connected while the document was
	// loading: its load event waits for their first load.
	loadDelayers []*frame
	// unloadFired: pagehide and unload have fired (on the loop only).
	unloadFired bool

	// agent is the state of the window's agent (its membrane), set on its
	// loop before scripts run; realmGone: the window was closed (other
	// windows see a stand-in from then on).
	agent     *agentState
	realmGone bool
	// postMessageFn is the window's own postMessage function; incumbent
	// is the window whose call of it through the membrane is in progress
	// (the message's source), nil for a call from the window itself.
	postMessageFn *sobek.Object
	incumbent     *Window
	// notRestored: why a traversal loaded this document again instead of
	// restoring it from the back/forward cache (navigation.go; guarded by
	// frame.mu).
	notRestored []string
}

// newWindow creates the window environment and realm for the page and
// installs the product's globals (document, Worker, the report hook).
func (s *Browser) newWindow(u *url.URL, doc *dom.Document) (*Window, error) {
	return s.newWindowIn(nil, u, doc, nil, nil, nil)
}

// newWindowIn creates the realm of htmlDoc (nil: a new top-level window
// for u) and installs the product's globals; parent and f are the
// containing window and iframe of a child window. current is the agent
// whose event loop runs the caller (nil: none); a window of that agent is
// set up synchronously, others in a task of their loop.
func (s *Browser) newWindowIn(htmlDoc *html.Document, u *url.URL, doc *dom.Document, parent *Window, f *frame, current *html.Agent) (*Window, error) {
	w := &Window{s: s, url: u, htmlDoc: htmlDoc, doc: doc, parentWin: parent, frame: f, frames: map[*xhtml.Node]*frame{}, loaded: make(chan struct{})}
	if f != nil && f.popup {
		w.parentWin = nil
		if !f.noopener {
			w.openerWin = f.parent
		}
	}
	opts := bindings.Options{
		Console: func(level bindings.ConsoleLevel, msg string) { s.log(fmt.Sprintf("%v: %s", level, msg)) },
		OnError: func(se *bindings.ScriptError) {
			s.reportError(&ScriptError{Window: w, ScriptError: se})
		},
		OnUnhandledRejection: func(_ sobek.Value, se *bindings.ScriptError) {
			s.reportError(&ScriptError{Window: w, Rejection: true, ScriptError: se})
		},
	}
	var realm *bindings.Realm
	var env envHandle
	var err error
	if htmlDoc == nil {
		realm, w.htmlDoc, err = s.eng.NewWindow(u, opts)
		if err == nil {
			env = w.htmlDoc.EnvironmentSettingsObject()
		}
	} else {
		realm, env, err = s.eng.NewWindowFor(htmlDoc, opts)
	}
	if err != nil {
		return nil, err
	}
	w.realm, w.env = realm, env
	s.addRealm(realm)
	if current != nil && env.Agent() == current {
		var err error
		s.guard(func() { err = w.install() })
		if err == nil && s.Err() != nil {
			err = s.Err()
		}
		return w, err
	}
	ready := make(chan error, 1)
	ok := realm.QueueTask(func(vm *sobek.Runtime) {
		s.guard(func() { ready <- w.install() })
	})
	if !ok {
		return nil, errors.New("the window's event loop does not run tasks")
	}
	select {
	case err := <-ready:
		return w, err
	case <-s.ctx.Done():
		return nil, errors.New("cancelled while creating the window")
	}
}

// install runs on the window's event loop before any script.
func (w *Window) install() error {
	vm := w.realm.Runtime()
	g := w.realm.Global()
	// The parsed document becomes window.document; its tree changes tell
	// the window about iframes (insertion, removal, src/srcdoc changes).
	w.doc.Hooks = dom.DocumentHooks{
		Inserted: func(n *dom.Node) {
			if isIframe(n.HTML()) {
				w.frameConnected(n.HTML())
			}
		},
		Removed: func(n *dom.Node, _ *dom.Node) {
			if isIframe(n.HTML()) {
				w.frameDisconnected(n.HTML())
			}
		},
		AttributeChanged: func(el *dom.Node, name string, _, _ *string) {
			if (name == "src" || name == "srcdoc") && isIframe(el.HTML()) && el.IsConnected() {
				w.frameAttributeChanged(el.HTML())
			}
		},
	}
	if strings.EqualFold(w.url.Scheme, "about") {
		// about:blank and about:srcdoc: the creator's base URL.
		if c := w.parentWin; c != nil {
			w.doc.FallbackBaseURL = c.baseURL().String()
		} else if c := w.openerWin; c != nil {
			w.doc.FallbackBaseURL = c.baseURL().String()
		}
	}
	w.realm.SetDocument(w.doc)
	w.realm.SetDOMHooks(bindings.DOMHooks{
		ContentWindow:   func(iframe *dom.Node) sobek.Value { return w.contentWindow(iframe.HTML()) },
		ContentDocument: func(iframe *dom.Node) sobek.Value { return w.contentDocument(iframe.HTML()) },
	})
	// A top-level browsing context: parent, top and frames are the window
	// itself, opener and frameElement are null.
	for _, name := range []string{"parent", "top", "frames", "opener", "frameElement"} {
		if v := g.Get(name); v != nil {
			continue
		}
		var val sobek.Value = g
		if name == "opener" || name == "frameElement" {
			val = sobek.Null()
		}
		getter := vm.ToValue(func(sobek.FunctionCall) sobek.Value { return val })
		if err := g.DefineAccessorProperty(name, getter, nil, sobek.FLAG_TRUE, sobek.FLAG_TRUE); err != nil {
			return err
		}
	}
	if err := w.joinMembrane(); err != nil {
		return err
	}
	w.postMessageFn, _ = g.Get("postMessage").(*sobek.Object)
	// window.postMessage: called by the window itself, or by another
	// window of its agent through the membrane (the incumbent, recorded by
	// the membrane policy): the message is then that window's value.
	w.realm.SetHostHooks(bindings.HostHooks{
		PostMessage: func(message sobek.Value, targetOrigin string, transfer []*sobek.Object) error {
			from := w
			if inc := w.incumbent; inc != nil && !inc.realmGone {
				w.incumbent = nil
				from = inc
				message, transfer = w.agent.unwrapInto(w, inc, message, transfer)
			}
			from.postMessage(w, message, targetOrigin, transfer)
			return nil
		},
		Close:    func() { w.closeByScript() },
		Navigate: w.navigateByScript,
		History:  w.historyHooks(),
		Top:      w.topValue,
	})
	// closed: the window's navigable is gone (a closed popup, a removed
	// iframe's window).
	closed := vm.ToValue(func(sobek.FunctionCall) sobek.Value {
		return vm.ToValue(w.realmGone || w.htmlDoc.Navigable().IsDestroyed())
	})
	if err := g.DefineAccessorProperty("closed", closed, nil, sobek.FLAG_TRUE, sobek.FLAG_TRUE); err != nil {
		return err
	}
	// parent, top and opener: the other window itself when it is a window
	// of this agent, else a WindowProxy stand-in.
	if w.parentWin != nil {
		w.parentProxy = w.newWindowProxy(func() *Window { return w.parentWin })
		getter := vm.ToValue(func(sobek.FunctionCall) sobek.Value { return w.view(w.parentWin, w.parentProxy) })
		if err := g.DefineAccessorProperty("parent", getter, nil, sobek.FLAG_TRUE, sobek.FLAG_TRUE); err != nil {
			return err
		}
	}
	if w.openerWin != nil {
		w.openerProxy = w.newWindowProxy(func() *Window { return w.openerWin })
		getter := vm.ToValue(func(sobek.FunctionCall) sobek.Value { return w.view(w.openerWin, w.openerProxy) })
		if err := g.DefineAccessorProperty("opener", getter, nil, sobek.FLAG_TRUE, sobek.FLAG_TRUE); err != nil {
			return err
		}
	}
	// window.open(url, target, features).
	w.realm.DefineGlobalFunction("open", 0, w.s.native(w.open))
	w.realm.SetWorkerHooks(w.s.workerHooks(w.env))
	w.realm.SetSharedWorkerHooks(w.s.sharedWorkerHooks(w.env))
	w.realm.SetForeignValueHook(w.foreignValue)
	if w.s.cfg.InitWindow != nil {
		w.s.cfg.InitWindow(w)
	}
	return nil
}

// pageScript is a script element of the parsed page.
type pageScript struct {
	el     *xhtml.Node
	inline string
	src    *url.URL // nil for inline scripts
	badSrc bool     // src present but unparsable: the element fires error
	fetch  chan fetched
	name   string
}

type fetched struct {
	text string
	err  error
}

// collectScripts lists the classic scripts of the document in tree order:
// script elements in the HTML namespace whose type is a JavaScript MIME
// type (or absent/empty), skipping module and data-block scripts, which an
// engine without module support treats as not to be run, and "nomodule"
// scripts are run, as such an engine does.
func (w *Window) collectScripts() []*pageScript {
	var out []*pageScript
	for _, el := range descendants(w.doc.HTML(), func(n *xhtml.Node) bool {
		return n.Type == xhtml.ElementNode && n.DataAtom == atom.Script && n.Namespace == ""
	}, 0) {
		if !isClassicScriptType(el) {
			continue
		}
		ps := &pageScript{el: el}
		if src, ok := getAttr(el, "src"); ok {
			if u, err := w.baseURL().Parse(strings.TrimSpace(src)); err == nil && strings.TrimSpace(src) != "" {
				ps.src = u
				ps.name = u.String()
			} else {
				ps.badSrc = true
			}
		} else {
			ps.inline = textContent(el)
			ps.name = fmt.Sprintf("%s#script%d", w.url.String(), len(out)+1)
		}
		out = append(out, ps)
	}
	return out
}

// isClassicScriptType applies HTML's "prepare the script element" type
// steps: no type and no language, an empty type, or a JavaScript MIME type
// essence make a classic script.
func isClassicScriptType(el *xhtml.Node) bool {
	t, hasType := getAttr(el, "type")
	lang, hasLang := getAttr(el, "language")
	switch {
	case !hasType && !hasLang, hasType && t == "", !hasType && hasLang && lang == "":
		return true
	case hasType:
		return isJavaScriptMIME(strings.ToLower(strings.TrimSpace(t)))
	default:
		return isJavaScriptMIME("text/" + strings.ToLower(lang))
	}
}

// runScripts runs on the session's driver goroutine: it fetches external
// scripts (all started at once, as a speculative parser would), then runs
// every script in document order, each in its own task of the window's
// event loop, waiting for the previous one (parser-blocking scripts), then
// fires DOMContentLoaded and load.
func (s *Browser) runScripts(w *Window) {
	var scripts []*pageScript
	got := make(chan struct{})
	var parsedFrames []*frame
	if !w.realm.QueueTask(func(*sobek.Runtime) {
		s.guard(func() {
			scripts = w.collectScripts()
			// iframes of the markup get their navigables as the parser
			// inserts them; scripts here run over the whole parsed tree,
			// so they are all connected before the first script.
			parsedFrames = w.connectParsedFrames()
		})
		close(got)
	}) {
		return
	}
	select {
	case <-got:
	case <-s.ctx.Done():
		return
	}
	for _, ps := range scripts {
		if ps.src == nil {
			continue
		}
		ps.fetch = make(chan fetched, 1)
		go func(ps *pageScript) {
			text, err := s.fetchScript(ps.src, false)
			ps.fetch <- fetched{text, err}
		}(ps)
	}
	for _, ps := range scripts {
		text := ps.inline
		failed := ps.badSrc
		if ps.fetch != nil {
			select {
			case f := <-ps.fetch:
				text = f.text
				if f.err != nil {
					failed = true
					s.log("script " + ps.name + ": " + f.err.Error())
				}
			case <-s.ctx.Done():
				return
			}
		}
		ran := make(chan struct{})
		el := ps.el
		name := ps.name
		ok := w.realm.QueueTask(func(*sobek.Runtime) {
			// The next script (and, after the last, the end of parsing)
			// waits for a task queued after this one: the microtask
			// checkpoint that ends this task queues HTML's rejected
			// promise notifications first, so an unhandled rejection of
			// the page's last script is reported before load.
			defer func() {
				if !w.realm.QueueTask(func(*sobek.Runtime) { close(ran) }) {
					close(ran)
				}
			}()
			s.guard(func() {
				if failed {
					// A script whose fetch failed fires error at the element.
					w.realm.FireEventAt(w.nodeObject(el), "error", false, nil)
					return
				}
				// document.currentScript is the element while it runs.
				w.doc.CurrentScript = w.doc.NodeOf(el)
				defer func() { w.doc.CurrentScript = nil }()
				s.scripts.evaluate(w.realm, name, text)
			})
		})
		if !ok {
			return
		}
		select {
		case <-ran:
		case <-s.ctx.Done():
			return
		}
	}
	// The markup's iframes load, and the window's load event waits for them.
	if len(parsedFrames) > 0 && !w.realm.QueueTask(func(*sobek.Runtime) {
		s.guard(func() { w.startParsedFrames(parsedFrames) })
	}) {
		return
	}
	// So does every iframe inserted before (by the page's scripts).
	for i := 0; ; i++ {
		w.fmu.Lock()
		if i >= len(w.loadDelayers) {
			w.fmu.Unlock()
			break
		}
		f := w.loadDelayers[i]
		w.fmu.Unlock()
		select {
		case <-f.loaded:
		case <-s.ctx.Done():
			return
		}
	}
	// The end of parsing: readyState becomes "interactive" and
	// DOMContentLoaded fires at the document (it bubbles to the window),
	// then, in a later task, readyState becomes "complete" and load fires
	// at the window.
	w.realm.QueueTask(func(*sobek.Runtime) {
		s.guard(func() {
			w.doc.ReadyState = "interactive"
			w.realm.FireEventAt(w.documentObject(), "readystatechange", false, nil)
			// The node tree is not an event path here: the window gets its
			// own dispatch, as the last step of the bubble path.
			w.realm.FireBubblingEventAt(w.documentObject(), "DOMContentLoaded")
			w.realm.FireEventAt(w.realm.Global(), "DOMContentLoaded", false, nil)
		})
	})
	w.realm.QueueTask(func(*sobek.Runtime) {
		s.guard(func() {
			w.doc.ReadyState = "complete"
			w.realm.FireEventAt(w.documentObject(), "readystatechange", false, nil)
			w.realm.FireEventAt(w.realm.Global(), "load", false, nil)
			// Then pageshow (persisted false): the document is shown.
			w.realm.FirePageTransitionEvent("pageshow", false)
		})
		close(w.loaded)
	})
}

// fetchScript fetches a classic script. For worker-imported scripts (and
// worker main scripts) HTML requires an ok status and a JavaScript MIME
// type; for page scripts an error status is a failure and the MIME type is
// not checked (legacy behaviour, as browsers do).
func (s *Browser) fetchScript(u *url.URL, strictMIME bool) (string, error) {
	r, err := s.fetcher.Fetch(s.ctx, u)
	if err != nil {
		return "", err
	}
	if !r.OK() {
		return "", fmt.Errorf("HTTP status %d for %s", r.Status, u)
	}
	if strictMIME && !isJavaScriptMIME(r.ContentType) {
		return "", fmt.Errorf("%s has MIME type %q, not a JavaScript MIME type", u, r.ContentType)
	}
	return decodeText(r.Body, r.Charset), nil
}

// baseURL is the document base URL: the first base element's href, parsed
// against the document's URL, else the document's URL.
func (w *Window) baseURL() *url.URL {
	// about:blank and about:srcdoc documents fall back to their creator's
	// base URL (the container's document, or the opener's).
	if strings.EqualFold(w.url.Scheme, "about") && w.doc.BaseHref() == "" {
		if c := w.parentWin; c != nil {
			return c.baseURL()
		}
		if c := w.openerWin; c != nil {
			return c.baseURL()
		}
	}
	if href := w.doc.BaseHref(); href != "" {
		if u, err := w.url.Parse(strings.TrimSpace(href)); err == nil {
			return u
		}
	}
	return w.url
}

// nodeObject is the JavaScript object of a node of the window's document.
func (w *Window) nodeObject(n *xhtml.Node) *sobek.Object {
	return w.realm.NodeValue(w.doc.NodeOf(n)).(*sobek.Object)
}

// documentObject is the window's Document object.
func (w *Window) documentObject() *sobek.Object { return w.nodeObject(w.doc.HTML()) }

// navigateByScript navigates the window's navigable from script
// (location.href, assign, replace, reload): the window is replaced by the
// window of a new document (the old document unloads, see navigation.go).
func (w *Window) navigateByScript(raw string, replace bool) error {
	f := w.frame
	if f == nil {
		return dom.NewDOMException("This window cannot navigate.", dom.NotSupportedError)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return dom.NewDOMException("'"+raw+"' is not a valid URL.", dom.SyntaxError)
	}
	if f.activeWindow() != w {
		return nil // w is no longer the frame's window
	}
	f.navigateWith(u, nil, navHistory{traverse: -1, replace: replace})
	return nil
}

// topValue is window.top for a window in a frame: the top-level window of
// its frame tree, itself through the membrane when it is of w's agent, else
// a stand-in; nil for a top-level window.
func (w *Window) topValue() sobek.Value {
	if w.parentWin == nil {
		return nil
	}
	t := w.parentWin
	for t.parentWin != nil {
		t = t.parentWin
	}
	if w.topProxy == nil {
		w.topProxy = w.newWindowProxy(func() *Window { return t })
	}
	return w.view(t, w.topProxy)
}
