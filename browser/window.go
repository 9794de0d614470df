package browser

import (
	"errors"
	"fmt"
	"github.com/gowebengine/weblocks/fetch"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

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
	s     *Browser
	realm *bindings.Realm
	// remote is the renderer process of a window of RendererProcesses
	// (then realm, env and the documents are nil: they live there).
	remote  *remoteWindow
	env     envHandle
	htmlDoc *html.Document
	doc     *dom.Document // the window's document node tree
	url     *url.URL      // written on the window's loop under urlMu
	urlMu   sync.Mutex
	// headerReferrerPolicy and metaReferrerPolicy are the referrer
	// policies of the document's Referrer-Policy header and referrer meta
	// element ("" for none; under urlMu; loads.go).
	headerReferrerPolicy, metaReferrerPolicy string

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
	fmu      sync.Mutex
	frames   map[*xhtml.Node]*frame
	frameSeq int
	// loaded is closed once load has fired at the window.
	loaded chan struct{}
	// loadDelayers are the frames connected while the document was
	// loading: its load event waits for their first load.
	loadDelayers []*frame
	// startedScripts are the script elements whose already started flag
	// is set, insertedScripts counts inline scripts inserted by the DOM
	// (their names); only the window's event loop uses them
	// (scriptinsert.go).
	startedScripts  map[*xhtml.Node]bool
	insertedScripts int
	// subresources are the window's element loads (images, links, media,
	// style sheets; subresources.go), on the window's event loop only.
	subresources subresourceState
	// unloadFired: pagehide and unload have fired (on the loop only).
	unloadFired bool
	// initialBlank: the window of a frame's initial about:blank document
	// (its first navigation replaces its entry).
	initialBlank bool

	// agent is the state of the window's agent (its membrane), set on its
	// loop before scripts run; realmGone: the window was closed (other
	// windows see a stand-in from then on).
	agent     *agentState
	realmGone bool
	// closing is HTML's "is closing" of its traversable, set by
	// window.close() (closeByScript) before the traversable is closed.
	closing atomic.Bool
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
		// The window's creator document: an iframe's container document,
		// a popup's opener (none for a noopener popup, nor for a
		// top-level traversable the embedder opened).
		var creator envHandle
		if parent != nil && (f == nil || !f.popup || !f.noopener) {
			creator = parent.env
		}
		// A document of an http(s) URL here came from fetchDocument,
		// through HTTP fetch (and Handle Fetch).
		httpFetched := strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "https")
		realm, env, err = s.eng.NewWindowFor(htmlDoc, opts, creator, httpFetched)
	}
	if err != nil {
		return nil, err
	}
	w.realm, w.env = realm, env
	s.addRealm(realm)
	// Once its document is unloaded for good, the window is closed even
	// when no task of its realm runs any more (one queued by closeRealms
	// waits for ever for a document that is not fully active).
	w.htmlDoc.AddUnloadingDocumentCleanupSteps(w.closeOwnRealmOnLoop)
	// fetch() requests get the document's referrer policy.
	realm.SetFetchHost(fetchHost{b: s, referrerPolicy: w.referrerPolicy})
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
	g := w.realm.Global()
	// The parsed document becomes window.document; its tree changes tell
	// the window about iframes (insertion, removal, src/srcdoc changes).
	w.doc.Hooks = dom.DocumentHooks{
		Inserted: func(n *dom.Node) {
			if isFrameElement(n.HTML()) {
				w.frameConnected(n.HTML())
			}
			if isMeta(n.HTML()) {
				w.processReferrerMeta(n.HTML())
			}
			w.scriptInserted(n.HTML())
			w.subresourceInserted(n.HTML())
		},
		Removed: func(n *dom.Node, _ *dom.Node) {
			if isFrameElement(n.HTML()) {
				w.frameDisconnected(n.HTML())
			}
		},
		AttributeChanged: func(el *dom.Node, name string, _, _ *string) {
			if (name == "src" || (name == "srcdoc" && !isFrame(el.HTML()))) && isFrameElement(el.HTML()) && el.IsConnected() {
				w.frameAttributeChanged(el.HTML())
			}
			if (name == "content" || name == "name") && isMeta(el.HTML()) && el.IsConnected() {
				w.processReferrerMeta(el.HTML())
			}
			w.subresourceAttributeChanged(el, name)
		},
	}
	if strings.EqualFold(w.url.Scheme, "about") {
		// about:blank and about:srcdoc: the creator's base URL.
		if c := w.parentWin; c != nil {
			w.doc.FallbackBaseURL = w.creatorBaseURL(c).String()
		} else if c := w.openerWin; c != nil {
			w.doc.FallbackBaseURL = w.creatorBaseURL(c).String()
		}
	}
	w.realm.SetDocument(w.doc)
	w.processReferrerMetadata()
	w.startSubresources()
	w.realm.SetDOMHooks(bindings.DOMHooks{
		ContentWindow:   func(iframe *dom.Node) sobek.Value { return w.contentWindow(iframe.HTML()) },
		ContentDocument: func(iframe *dom.Node) sobek.Value { return w.contentDocument(iframe.HTML()) },
	})
	if err := w.joinMembrane(); err != nil {
		return err
	}
	w.realm.IDL().ForeignThis = w.foreignThis
	w.realm.IDL().ForeignMember = w.foreignMember
	w.realm.IDL().ForeignObject = w.foreignObject
	w.realm.IDL().ForeignValue = w.foreignValueFrom
	w.postMessageFn, _ = g.Get("postMessage").(*sobek.Object)
	// window.postMessage: called by the window itself, or by another
	// window of its agent through the membrane (the incumbent, recorded by
	// the membrane policy): the message is then that window's value.
	// parent, top and opener are the other window itself when it is a
	// window of this agent, else a WindowProxy stand-in.
	if w.parentWin != nil {
		w.parentProxy = w.newWindowProxy(func() *Window { return w.parentWin }, nil)
	}
	if w.openerWin != nil {
		w.openerProxy = w.newWindowProxy(func() *Window { return w.openerWin }, nil)
	}
	w.realm.SetHostHooks(bindings.HostHooks{
		PostMessage: func(message sobek.Value, targetOrigin string, transfer []*sobek.Object) error {
			from := w
			if inc := w.incumbent; inc != nil && !inc.realmGone {
				w.incumbent = nil
				from = inc
				if w.realmGone {
					// w left the membrane (its document was
					// unloaded): the wrappers of inc's values
					// still say what they stand for.
					message, transfer = w.agent.unwrapLoose(inc, message, transfer)
				} else {
					message, transfer = w.agent.unwrapInto(w, inc, message, transfer)
				}
			}
			// A popup that moved to another renderer is reached
			// through its handle (its opener keeps this window).
			if h, ok := w.frame.remoteHandle(); ok && from != w {
				w.s.xproc.post(from, h, message, targetOrigin, transfer)
				return nil
			}
			from.postMessage(w, message, targetOrigin, transfer)
			return nil
		},
		Close:    func() { w.closeByScript() },
		Navigate: w.navigateByScript,
		History:  w.historyHooks(),
		Top:      w.topValue,
		Parent: func() sobek.Value {
			if w.parentWin == nil {
				return nil
			}
			return w.view(w.parentWin, w.parentProxy)
		},
		Opener: func() sobek.Value {
			if w.openerWin == nil {
				// An opener in another renderer (renderer_msg.go).
				return w.s.xproc.opener(w)
			}
			return w.view(w.openerWin, w.openerProxy)
		},
		FrameElement: w.frameElementValue,
		// closed: the window's navigable is gone (a closed popup, a
		// removed iframe's window).
		Closed: func() bool {
			if h, ok := w.frame.remoteHandle(); ok {
				return w.s.xproc.isGone(h)
			}
			return w.realmGone || w.closing.Load() || w.htmlDoc.Navigable().IsDestroyed()
		},
		Length:         w.childNavigableCount,
		ChildNavigable: w.childNavigable,
		Open:           w.open,
	})
	w.realm.SetWorkerHooks(w.s.workerHooks(w.env, w.client))
	w.realm.SetSharedWorkerHooks(w.s.sharedWorkerHooks(w.env, w.client))
	w.realm.SetForeignValueHook(w.foreignValue)
	// Module scripts and import(): the window's module map, whose
	// requests' client is the window's.
	w.s.enableModules(w.realm, w.baseURL).client = w.client
	if w.s.cfg.InitWindow != nil {
		w.s.cfg.InitWindow(w)
	}
	return nil
}

// pageScript is a script element of the parsed page.
type pageScript struct {
	el     *xhtml.Node
	module bool // a module script (else classic)
	// async and deferred: HTML's async and defer handling (parser-inserted
	// scripts): a classic script with src and defer, or a module script
	// without async, runs after parsing in document order; one with async
	// runs as soon as it is ready.
	async, deferred bool
	inline          string
	src             *url.URL // nil for inline scripts
	badSrc          bool     // src present but unparsable: the element fires error
	fetch           chan fetched
	graph           chan *moduleScript // a module script's fetched graph
	name            string
	// cors and referrerPolicy are the states of the element's
	// crossorigin and referrerpolicy attributes (loads.go).
	cors, referrerPolicy string
	// muted: the fetched classic script's errors are muted.
	muted bool
}

// newPageScript is the pageScript of script element el, with the
// attributes its fetch reads.
func newPageScript(el *xhtml.Node) *pageScript {
	return &pageScript{el: el, cors: corsSettingOf(el), referrerPolicy: referrerPolicyOf(el)}
}

// fetchClassic starts fetching ps's classic script (fetch a classic
// script, with the window's settings object as the client); ps.fetch
// receives the result.
func (w *Window) fetchClassic(ps *pageScript) {
	ps.fetch = make(chan fetched, 1)
	client := w.client()
	s := w.s
	s.busy.Add(1)
	go func() {
		defer s.busy.Add(-1)
		text, muted, err := s.fetchAClassicScript(ps.src, client, ps.cors, ps.referrerPolicy)
		ps.fetch <- fetched{text, muted, err}
	}()
}

// fetchModuleGraph starts fetching ps's module script graph (HTML's
// "prepare the script element", module case); ps.graph receives the
// result.
func (w *Window) fetchModuleGraph(mm *moduleMap, ps *pageScript) {
	ps.graph = make(chan *moduleScript, 1)
	done := func(ms *moduleScript) { ps.graph <- ms }
	// The script fetch options: the credentials mode of the crossorigin
	// attribute's state, the referrerpolicy attribute's policy.
	opts := moduleFetchOptions{destination: "script", credentials: "same-origin", referrerPolicy: ps.referrerPolicy}
	if ps.cors == "use-credentials" {
		opts.credentials = "include"
	}
	if ps.src != nil {
		// Fetch a module script graph given url, settings object,
		// "script", and options.
		mm.fetchAModuleScriptGraph(ps.src, opts, done)
	} else {
		// Fetch an inline module script graph, given source text, base
		// URL, settings object, and options.
		mm.fetchAnInlineModuleScriptGraph(ps.inline, w.baseURL(), ps.name, opts, done)
	}
}

type fetched struct {
	text  string
	muted bool // the script's errors are muted (a CORS-cross-origin response)
	err   error
}

// collectScripts lists the scripts of the document to run, in tree order:
// script elements in the HTML namespace whose type makes a classic script
// (without nomodule) or a module script; data blocks are not run.
// https://html.spec.whatwg.org/multipage/scripting.html#prepare-the-script-element
func (w *Window) collectScripts() []*pageScript {
	var out []*pageScript
	for _, el := range descendants(w.doc.HTML(), func(n *xhtml.Node) bool {
		return n.Type == xhtml.ElementNode && n.DataAtom == atom.Script && n.Namespace == ""
	}, 0) {
		ps := newPageScript(el)
		switch scriptTypeOf(el) {
		case "classic":
			// 15. If el has a nomodule content attribute and its type is
			//     "classic", then return.
			if _, ok := getAttr(el, "nomodule"); ok {
				continue
			}
		case "module":
			ps.module = true
		default:
			continue
		}
		_, async := getAttr(el, "async")
		_, deferAttr := getAttr(el, "defer")
		if src, ok := getAttr(el, "src"); ok {
			if u, err := parseURL(src, w.baseURL()); err == nil && strings.TrimSpace(src) != "" {
				ps.src = u
				ps.name = u.String()
			} else {
				ps.badSrc = true
			}
			// 32. If el has a src attribute: a classic script with defer
			//     and without async, or a module script without async, is
			//     added to the list of scripts that will execute when the
			//     document has finished parsing; with async, to the set of
			//     scripts that will execute as soon as possible.
			ps.async = async
			ps.deferred = !async && (deferAttr || ps.module)
		} else {
			ps.inline = textContent(el)
			ps.name = fmt.Sprintf("%s#script%d", w.url.String(), len(out)+1)
			// 33. Otherwise (inline): a module script is deferred, or
			//     async with async; a classic script runs at once.
			if ps.module {
				ps.async = async
				ps.deferred = !async
			}
		}
		out = append(out, ps)
	}
	return out
}

// scriptTypeOf applies HTML's "prepare the script element" type steps:
// "classic" for no type and no language, an empty type, or a JavaScript
// MIME type essence; "module" for type "module"; "" for anything else (a
// data block, an import map: not run).
func scriptTypeOf(el *xhtml.Node) string {
	t, hasType := getAttr(el, "type")
	lang, hasLang := getAttr(el, "language")
	switch {
	// 8. If any of the following are true: el has a type attribute whose
	//    value is the empty string; el has no type attribute but it has a
	//    language attribute and that attribute's value is the empty
	//    string; or el has neither a type attribute nor a language
	//    attribute, then let the script block's type string be
	//    "text/javascript".
	case !hasType && !hasLang, hasType && t == "", !hasType && hasLang && lang == "":
		return "classic"
	// 9-10. Otherwise, the type attribute's value (whitespace stripped),
	//    else "text/" followed by the language attribute's value.
	case hasType:
		t = strings.ToLower(strings.Trim(t, " \t\n\f\r"))
	default:
		t = "text/" + strings.ToLower(lang)
	}
	switch {
	// 11. If the script block's type string is a JavaScript MIME type
	//     essence match, then set el's type to "classic".
	case fetch.IsJavaScriptMIMEType(t):
		return "classic"
	// 12. Otherwise, if it is an ASCII case-insensitive match for
	//     "module", then set el's type to "module".
	case t == "module":
		return "module"
	}
	return ""
}

// runScripts runs on the session's driver goroutine: it starts the fetches
// of every script at once (classic script resources as a speculative
// parser would, module script graphs), then runs the scripts as HTML's
// parser does: classic scripts without defer/async in document order
// (each waiting for the previous one, parser-blocking), then the scripts
// that execute when the document has finished parsing (deferred classic
// scripts and module scripts) in document order, then DOMContentLoaded;
// async scripts run as soon as they are ready, and load waits for them.
func (s *Browser) runScripts(w *Window) {
	var scripts []*pageScript
	got := make(chan struct{})
	var parsedFrames []*frame
	if !w.realm.QueueTask(func(*sobek.Runtime) {
		s.guard(func() {
			scripts = w.collectScripts()
			for _, ps := range scripts {
				w.markScriptStarted(ps.el)
			}
			// iframes of the markup get their navigables as the parser
			// inserts them; scripts here run over the whole parsed tree,
			// so they are all connected before the first script.
			parsedFrames = w.connectParsedFrames()
			// Module script graphs are fetched through the window's module
			// map, on its event loop.
			mm := moduleMapOf(w.realm)
			for _, ps := range scripts {
				if !ps.module || ps.badSrc || mm == nil {
					continue
				}
				w.fetchModuleGraph(mm, ps)
			}
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
		if ps.src == nil || ps.module {
			continue
		}
		w.fetchClassic(ps)
	}
	// Async scripts run as soon as they are ready, each in a task; the
	// load event waits for them (they delay the load event).
	asyncDone := make(chan struct{}, len(scripts))
	asyncCount := 0
	for _, ps := range scripts {
		if !ps.async {
			continue
		}
		asyncCount++
		s.busy.Add(1)
		go func(ps *pageScript) {
			defer s.busy.Add(-1)
			w.executeWhenReady(ps)
			asyncDone <- struct{}{}
		}(ps)
	}
	// Parser-blocking scripts, in document order.
	for _, ps := range scripts {
		if ps.async || ps.deferred {
			continue
		}
		if !w.executeWhenReady(ps) {
			return
		}
	}
	// The list of scripts that will execute when the document has finished
	// parsing, in order.
	for _, ps := range scripts {
		if ps.deferred && !w.executeWhenReady(ps) {
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
	// Spin the event loop until the set of scripts that will execute as
	// soon as possible is empty.
	for ; asyncCount > 0; asyncCount-- {
		select {
		case <-asyncDone:
		case <-s.ctx.Done():
			return
		}
	}
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

// executeWhenReady waits until ps's script is ready (its classic source
// fetched, its module graph fetched and linked), then executes the script
// element in a task of the window's event loop and waits for it; false
// when the browser stopped meanwhile.
func (w *Window) executeWhenReady(ps *pageScript) bool {
	s := w.s
	text := ps.inline
	failed := ps.badSrc
	var ms *moduleScript
	switch {
	case ps.fetch != nil:
		select {
		case f := <-ps.fetch:
			text, ps.muted = f.text, f.muted
			if f.err != nil {
				failed = true
				s.log("script " + ps.name + ": " + f.err.Error())
			}
		case <-s.ctx.Done():
			return false
		}
	case ps.graph != nil:
		select {
		case ms = <-ps.graph:
			// The result is null: the element fires error.
			failed = ms == nil
		case <-w.realm.Done():
			// The document went away with its graph's fetches.
			return false
		case <-s.ctx.Done():
			return false
		}
	}
	ran := make(chan struct{})
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
		s.guard(func() { w.executeTheScriptElement(ps, failed, text, ms) })
	})
	if !ok {
		return false
	}
	select {
	case <-ran:
		return true
	case <-s.ctx.Done():
		return false
	}
}

// executeTheScriptElement is "execute the script element" for ps, whose
// result is failed (null), else the classic script's text or the module
// script ms.
// https://html.spec.whatwg.org/multipage/scripting.html#execute-the-script-element
func (w *Window) executeTheScriptElement(ps *pageScript, failed bool, text string, ms *moduleScript) {
	el := ps.el
	// 2. If el's result is null, then fire an event named error at el, and
	//    return.
	if failed {
		w.realm.FireEventAt(w.nodeObject(el), "error", false, nil)
		return
	}
	switch {
	case !ps.module:
		// 5. "classic": set the document's currentScript attribute to el
		//    (the element is in a document, not a shadow tree), run the
		//    classic script, and restore currentScript.
		w.doc.CurrentScript = w.doc.NodeOf(el)
		if ps.src == nil {
			moduleMapOf(w.realm).setClassicBase(ps.name, w.baseURL())
		}
		if ps.muted {
			w.s.scripts.evaluateMuted(w.realm, ps.name, text, w.s.log)
		} else {
			w.s.scripts.evaluate(w.realm, ps.name, text)
		}
		w.doc.CurrentScript = nil
	default:
		// 5. "module": set currentScript to null and run the module
		//    script.
		w.doc.CurrentScript = nil
		if mm := moduleMapOf(w.realm); mm != nil {
			mm.runAModuleScript(ms, nil)
		}
	}
	// 8. If el's from an external file is true, then fire an event named
	//    load at el.
	if ps.src != nil {
		w.realm.FireEventAt(w.nodeObject(el), "load", false, nil)
	}
}

// creatorBaseURL is the base URL of c, the window that created w's
// about:blank or about:srcdoc document. Only a window of w's own agent
// (the same event loop) may read c's document; a creator in another agent
// (a sandboxed frame's opaque origin puts the frame in an agent of its
// own) gives its document's URL, since its tree belongs to another
// thread.
func (w *Window) creatorBaseURL(c *Window) *url.URL {
	if c.env != nil && w.env != nil && c.env.Agent() == w.env.Agent() {
		return c.baseURL()
	}
	return c.url
}

// baseURL is the document base URL: the first base element's href, parsed
// against the document's URL, else the document's URL.
func (w *Window) baseURL() *url.URL {
	// about:blank and about:srcdoc documents fall back to their creator's
	// base URL (the container's document, or the opener's).
	if strings.EqualFold(w.url.Scheme, "about") && w.doc.BaseHref() == "" {
		if c := w.parentWin; c != nil {
			return w.creatorBaseURL(c)
		}
		if c := w.openerWin; c != nil {
			return w.creatorBaseURL(c)
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
	u, err := parseURL(raw, nil)
	if err != nil {
		return dom.NewDOMException("'"+raw+"' is not a valid URL.", dom.SyntaxError)
	}
	// Location-object navigate, step 3: "If location's relevant Document
	// is not yet completely loaded, and the incumbent global object does
	// not have transient activation, then set historyHandling to
	// "replace"." (No script here has transient activation.)
	if !w.completelyLoaded() {
		replace = true
	}
	w.navigate(raw, u, replace, w.client(), nil)
	return nil
}

// navigate is HTML's navigate of w's navigable to href (u parsed), run on
// w's event loop: a GET to the document's URL with another fragment is a
// fragment navigation, which keeps the document (and its locks); any
// other loads a new document in parallel. source is the request client
// of the navigation's source document (nil for the embedder's). done,
// when set, learns the outcome.
func (w *Window) navigate(href string, u *url.URL, replace bool, source *fetch.Client, done func(*Window, error)) {
	w.navigateWith(href, u, navHistory{traverse: -1, replace: replace, done: done, source: source})
}

// navigateWith is navigate with the history handling h.
func (w *Window) navigateWith(href string, u *url.URL, h navHistory) {
	f := w.frame
	replace := h.replace
	if f.activeWindow() != w {
		h.finish(nil, errNotActive) // w is no longer the frame's window
		return
	}
	// navigate, historyHandling "auto": a navigation to the document's
	// own URL replaces the entry.
	if href == w.realm.DocumentURL() {
		replace = true
		h.replace = true
	}
	if html.IsFragmentNavigation(w.realm.DocumentURL(), href) {
		w.navigateToFragment(href, u, replace)
		h.finish(w, nil)
		return
	}
	f.navigateWith(u, nil, h)
}

// completelyLoaded reports whether the window's document has completely
// loaded (its load event has fired).
func (w *Window) completelyLoaded() bool {
	select {
	case <-w.loaded:
		return true
	default:
		return false
	}
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
		w.topProxy = w.newWindowProxy(func() *Window { return t }, nil)
	}
	return w.view(t, w.topProxy)
}
