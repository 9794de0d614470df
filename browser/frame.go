package browser

import (
	"errors"
	"fmt"
	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/csp"
	"github.com/gowebengine/weblocks/fetch"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/origin"
	"github.com/grafana/sobek"
	xhtml "golang.org/x/net/html"
)

// This file gives windows iframes: an iframe element connected to a
// document gets a child navigable (html.Document.CreateChildNavigable);
// setting src or srcdoc navigates it (the old document is unloaded, which
// releases what it held, e.g. its Web Locks), and removing the element
// destroys it. Each document of a frame gets its own window realm.
//
// A window of the same agent is reached through the agent's membrane
// (agents.go). A window of another agent (cross-site, sandboxed, or not
// loaded yet) is seen through a small WindowProxy stand-in living in the
// caller's realm: it supports postMessage (structured clone, delivered as a
// task on the target's event loop), closed and close, and it is the
// event's source when that window posts a message, so
// `event.source === frame.contentWindow` holds either way.

// frame is an iframe element connected to a window's document.
type frame struct {
	s      *Browser
	parent *Window     // the containing window (for a popup: its opener; nil for top)
	el     *xhtml.Node // the iframe element (nil for a popup)
	// popup: a top-level traversable opened by window.open; noopener: its
	// window has no opener.
	popup, noopener bool
	// top: the top-level traversable of a window Browser.Open opened
	// (popup and noopener are set too; parent is nil).
	top   bool
	nav   *html.Navigable
	proxy *sobek.Object // contentWindow, in the parent's realm

	// loaded is closed when the first navigation has loaded (or failed),
	// so the containing document's load event can wait for it.
	loaded     chan struct{}
	loadedOnce sync.Once

	mu    sync.Mutex
	child *Window // the window of the active document, once it has a realm
	gen   int     // navigation generation: a newer navigation supersedes a loading one
	gone  bool    // the element was removed: the navigable is destroyed
	// entries are the navigable's session history entries, index the
	// current one's (navigation.go).
	entries []*sessionEntry
	index   int
	// th is the joint session history of f's top-level traversable (nil
	// for a frame outside one).
	th *jointHistory
	// seq orders the frames of a window by connection (childWindowAt).
	seq int
	// tab names a top-level traversable across renderer processes (0:
	// not yet; navigation_swap.go); traverseNav is the embedder's
	// traversal under way, if any.
	tab         uint64
	traverseNav uint64
}

// frameConnected runs the iframe insertion steps: create a child navigable
// (its initial about:blank document) and process the iframe attributes.
func (w *Window) frameConnected(el *xhtml.Node) {
	if f := w.connectFrame(el); f != nil {
		f.processAttributes()
	}
}

// connectFrame creates the child navigable of a newly connected iframe
// (nil when it has one already or cannot get one).
func (w *Window) connectFrame(el *xhtml.Node) *frame {
	if w.frameOf(el) != nil || w.htmlDoc == nil {
		return nil
	}
	sandbox, sandboxed := getAttr(el, "sandbox")
	sandboxed = sandboxed && !isFrame(el)
	if sandboxed {
		for _, tok := range strings.Fields(strings.ToLower(sandbox)) {
			if tok == "allow-same-origin" {
				sandboxed = false
			}
		}
	}
	initial, err := w.htmlDoc.CreateChildNavigable(nil, html.ChildNavigableOptions{Sandboxed: sandboxed})
	if err != nil {
		w.s.log("iframe: " + err.Error())
		return nil
	}
	f := &frame{s: w.s, parent: w, el: el, nav: initial.Navigable(), loaded: make(chan struct{})}
	if w.frame != nil {
		f.th = w.frame.th
	}
	f.proxy = w.newWindowProxy(f.activeWindow, nil)
	w.fmu.Lock()
	w.frameSeq++
	f.seq = w.frameSeq
	w.frames[el] = f
	if w.doc.ReadyState == "loading" {
		w.loadDelayers = append(w.loadDelayers, f)
	}
	n := len(w.frames)
	w.fmu.Unlock()
	w.realm.UpdateChildNavigables(n)
	w.s.xproc.childCount(w, n)
	// The initial about:blank document of a frame of this agent gets its
	// window at once, so contentWindow is usable right after insertion.
	if initial.EnvironmentSettingsObject().Agent() == w.env.Agent() {
		blank := &url.URL{Scheme: "about", Opaque: "blank"}
		cw, err := w.s.newWindowIn(initial, blank, dom.NewHTMLDocument(blank.String()), w, f, w.env.Agent())
		if err != nil {
			w.s.log("iframe: " + err.Error())
		} else {
			close(cw.loaded)
			cw.initialBlank = true
			f.mu.Lock()
			f.child = cw
			f.mu.Unlock()
			f.commitEntry(navHistory{traverse: -1, replace: true}, cw)
		}
	}
	return f
}

// frameDisconnected destroys the iframe's child navigable: its documents
// are unloaded and discarded, and their realms closed.
func (w *Window) frameDisconnected(el *xhtml.Node) {
	w.fmu.Lock()
	f, ok := w.frames[el]
	delete(w.frames, el)
	n := len(w.frames)
	w.fmu.Unlock()
	if ok {
		w.realm.UpdateChildNavigables(n)
		w.s.xproc.childCount(w, n)
		// Removal runs in a task of w's event loop.
		f.destroy(w.env.Agent())
	}
}

// destroy destroys the frame's navigable and closes its window: the
// window and its descendants get pagehide and unload (see closeRealms),
// then the documents are unloaded and discarded (their unloading document
// cleanup steps run, releasing e.g. their Web Locks). current is the agent
// whose event loop runs the caller, nil when the caller runs on no loop.
func (f *frame) destroy(current *html.Agent) {
	f.mu.Lock()
	f.gone = true
	child := f.child
	var cached []*Window
	for _, e := range f.entries {
		if e.win != nil && e.win != child {
			cached = append(cached, e.win)
		}
		e.win = nil
	}
	f.mu.Unlock()
	if child != nil {
		// The child's pagehide and unload run before its document is
		// destroyed (which ends its realm): a listener of another agent
		// gets its task's time (a keepalive fetch started there is on
		// its way), at most unloadEventsWait.
		fired := child.closeRealms(current)
		select {
		case <-fired:
		case <-time.After(unloadEventsWait):
		}
		// (The window stays the frame's active one until then: its
		// iframe element's contentWindow, during its unload.)
		f.mu.Lock()
		f.child = nil
		f.mu.Unlock()
	}
	f.nav.Destroy()
	if f.th != nil {
		f.th.removeFrame(f)
	}
	// Documents in the back/forward cache were destroyed with the
	// navigable; their windows go too.
	for _, w := range cached {
		w.closeRealms(nil)
	}
	f.markLoaded()
}

// frameOf is the frame of a connected iframe element (nil if none).
func (w *Window) frameOf(el *xhtml.Node) *frame {
	w.fmu.Lock()
	defer w.fmu.Unlock()
	return w.frames[el]
}

// frameAttributeChanged: setting src or srcdoc of a connected iframe
// navigates it.
func (w *Window) frameAttributeChanged(el *xhtml.Node) {
	if f := w.frameOf(el); f != nil {
		f.processAttributes()
	}
}

// contentWindow is the iframe's window: the window itself (through the
// membrane) when it is of w's agent, else its WindowProxy stand-in; null
// when the element is not connected.
func (w *Window) contentWindow(el *xhtml.Node) sobek.Value {
	if f := w.frameOf(el); f != nil {
		return w.view(f.activeWindow(), f.proxy)
	}
	return sobek.Null()
}

// contentDocument is the iframe's document when w may access it (a
// same-origin window of w's agent), else null.
func (w *Window) contentDocument(el *xhtml.Node) sobek.Value {
	f := w.frameOf(el)
	if f == nil {
		return sobek.Null()
	}
	cw := f.activeWindow()
	if cw == nil || cw.agent != w.agent || cw.realmGone || !origin.SameOrigin(cw.env.Origin(), w.env.Origin()) {
		return sobek.Null()
	}
	return w.agent.m.Wrap(cw.realm.Runtime(), w.realm.Runtime(), cw.documentObject())
}

// closeRealms fires pagehide and unload at the window, then closes the
// realms of its frames (which fire theirs: parent first, then children in
// document order, as browsers do) and its own realm. A window of agent
// current (whose event loop runs the caller) gets its events synchronously,
// any other in a task of its event loop, which also closes its realm.
//
// The returned channel is closed once the window's unload events have
// fired (at once when they fired synchronously or cannot fire).
func (w *Window) closeRealms(current *html.Agent) <-chan struct{} {
	fired := make(chan struct{})
	sync := current != nil && w.env.Agent() == current
	if sync {
		w.fireUnloadEvents()
		close(fired)
	} else {
		// (Its realm closes after its frames' unload events, which its
		// listeners may be waiting for, as in the synchronous case.)
		queued := w.realm.QueueTask(func(*sobek.Runtime) {
			defer close(fired)
			w.fireUnloadEvents()
		})
		if !queued {
			close(fired)
		}
	}
	w.fmu.Lock()
	var frames []*frame
	var els []*xhtml.Node
	if w.doc != nil {
		els = iframesIn(w.doc.HTML())
	}
	seen := map[*frame]bool{}
	for _, el := range els {
		if f, ok := w.frames[el]; ok && !seen[f] {
			frames = append(frames, f)
			seen[f] = true
		}
	}
	for _, f := range w.frames {
		if !seen[f] {
			frames = append(frames, f)
		}
	}
	w.fmu.Unlock()
	// (The frames stay w's while they go: their unload listeners may
	// reach their windows through their iframe elements.)
	for _, f := range frames {
		f.destroy(current)
	}
	w.fmu.Lock()
	w.frames = map[*xhtml.Node]*frame{}
	w.fmu.Unlock()
	if sync {
		w.closeOwnRealm()
	} else if !w.realm.QueueTask(func(*sobek.Runtime) { w.closeOwnRealm() }) {
		// The realm runs no more tasks (its document was unloaded or
		// destroyed already): its membrane is still its agent's event
		// loop's, where its other windows' scripts cross it.
		w.closeOwnRealmOnLoop()
	}
	return fired
}

// unloadEventsWait bounds how long removing a frame waits for the
// unload events of a window of another agent (whose event loop may be
// busy, or stuck in a script).
const unloadEventsWait = 2 * time.Second

// fireUnloadEvents is the event part of HTML's "unload a document": fire
// pagehide (persisted false) and then unload at the window, once. It runs
// on the window's event loop.
func (w *Window) fireUnloadEvents() {
	if w.unloadFired {
		return
	}
	w.unloadFired = true
	w.s.guard(func() {
		g := w.realm.Global()
		w.realm.FirePageTransitionEvent("pagehide", false)
		w.updateVisibility(true)
		w.realm.FireEventAt(g, "unload", false, nil)
	})
}

// closeOwnRealm forgets the window: other windows see a stand-in from now
// on, and RunUntilIdle no longer probes it. Its realm stops running tasks
// when its document unloads (bindings), without interrupting a script
// another window of its agent runs in it: wrappers of its objects keep
// working, as a removed iframe's objects do in browsers.
func (w *Window) closeOwnRealm() {
	w.s.removeRealm(w.realm)
	if w.realmGone {
		return
	}
	w.realmGone = true
	w.leaveMembrane()
}

// closeOwnRealmOnLoop runs closeOwnRealm in a task of the window's
// agent's event loop (not one of its realm, which may run no more
// tasks), or at once when the loop is the caller's or has terminated
// (then no script of the agent runs any more). The realm leaves the set
// of live realms at once (a terminating loop may drop the task).
func (w *Window) closeOwnRealmOnLoop() {
	w.s.removeRealm(w.realm)
	loop := w.env.ResponsibleEventLoop()
	if loop.IsCurrent() || !loop.QueueTask(closeRealmTaskSource, w.closeOwnRealm) {
		w.closeOwnRealm()
	}
}

// closeRealmTaskSource queues closeOwnRealmOnLoop's tasks.
var closeRealmTaskSource = html.NewTaskSource("browser: closing a realm")

// activeWindow is the window of the frame's active document (nil while
// the first navigation is loading, or after removal).
func (f *frame) activeWindow() *Window {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.child
}

// processAttributes is HTML's "process the iframe attributes": srcdoc
// wins; else src (empty or unparsable means about:blank). A frame without
// either keeps its initial about:blank document and fires load. For a
// frame element it is "process the frame attributes": src only.
func (f *frame) processAttributes() {
	w := f.parent
	if doc, ok := getAttr(f.el, "srcdoc"); ok && !isFrame(f.el) {
		f.navigate(&url.URL{Scheme: "about", Opaque: "srcdoc"}, &doc)
		return
	}
	src, ok := getAttr(f.el, "src")
	var u *url.URL
	if ok && strings.TrimSpace(src) != "" {
		if parsed, err := parseURL(src, w.baseURL()); err == nil {
			u = parsed
		}
	}
	if u == nil {
		if !ok {
			// The initial about:blank document stays: queue the iframe
			// load event steps.
			f.fireLoad(f.generation())
			return
		}
		u = &url.URL{Scheme: "about", Opaque: "blank"}
	}
	f.navigate(u, nil)
}

func (f *frame) generation() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.gen
}

// navigate starts a navigation of the frame to u (srcdoc: the document's
// source) whose source document is the frame's parent's (the iframe's
// node document, or a popup's opener). Loading happens off the event
// loop; the new document replaces the old one when it is ready, then its
// scripts run and load fires at the iframe element.
func (f *frame) navigate(u *url.URL, srcdoc *string) {
	h := navHistory{traverse: -1}
	if f.parent != nil {
		h.source = f.parent.client()
	}
	f.navigateWith(u, srcdoc, h)
}

// navigateWith is navigate with a history handling (navigation.go).
func (f *frame) navigateWith(u *url.URL, srcdoc *string, h navHistory) {
	f.mu.Lock()
	f.gen++
	gen := f.gen
	// navigate: "If the navigation must be a replace" (the active
	// document is the initial about:blank), historyHandling is "replace".
	if f.child != nil && f.child.initialBlank && h.traverse < 0 {
		h.replace = true
	}
	f.mu.Unlock()
	s := f.s
	s.busy.Add(1)
	go func() {
		defer s.busy.Add(-1)
		s.guard(func() { f.load(gen, u, srcdoc, h) })
	}()
}

// current reports whether navigation gen is still the frame's latest and
// the frame still exists.
func (f *frame) current(gen int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.gen == gen && !f.gone
}

// navigationRequest is the request of a navigation of f to u with h's
// source document: destination "document" for a top-level traversable,
// "iframe" or "frame" for a child navigable, after its container
// (navigationRequest in loads.go).
func (f *frame) navigationRequest(u *url.URL, h navHistory) *fetch.Request {
	req := navigationRequest(u, h.source, f.el == nil)
	if f.el != nil && isFrame(f.el) {
		// (HTML's navigable's container-based destination: "frame" for a
		// frame element.)
		req.Destination = "frame"
	}
	if h.noReferrer {
		req.Referrer = "no-referrer"
	}
	// Create navigation params by fetching, 5. If entry's document
	// state's reload pending is true, then set request's
	// reload-navigation flag. 6. Otherwise, if entry's document state's
	// ever populated is true (a traversal to an entry whose document
	// was loaded before), then set request's history-navigation flag.
	req.ReloadNavigation = h.reload
	req.HistoryNavigation = !h.reload && h.traverse >= 0
	if h.source == nil && h.client != nil {
		// (Apply the history step: potentiallyTargetSpecificSourceSnapshotParams,
		// the navigable's active document's, gives the request's client.)
		req.Client = h.client
	}
	return req
}

func (f *frame) load(gen int, u *url.URL, srcdoc *string, h navHistory) {
	s := f.s
	defer f.markLoaded()
	if srcdoc == nil && h.traverse < 0 && f.movable() && s.swap.crossSite(u) {
		// A renderer process of the other site loads the document.
		f.swapOut(gen, u, h)
		return
	}
	source, referrerPolicy := "", ""
	var cspList csp.List
	var reserved envHandle
	switch {
	case srcdoc != nil:
		source = *srcdoc
	case strings.EqualFold(u.Scheme, "about"):
		// about:blank: an empty document.
	case f.el == nil && h.source != nil && strings.EqualFold(u.Scheme, "data"):
		// A document's navigation of a top-level traversable to a data:
		// URL (window.open, location) is refused, as Chromium and Firefox
		// refuse it (HTML allows it); the embedder's navigations load.
		err := errors.New("not allowed to navigate a top-level window to a data: URL")
		s.log("navigation to " + u.String() + ": " + err.Error())
		h.finish(nil, fmt.Errorf("browser: loading %s: %w", u, err))
		return
	default:
		// Create navigation params by fetching: the request's reserved
		// client is a new environment for the navigable, which the
		// document's environment settings object takes over.
		reserved = f.nav.ReserveEnvironment(u)
		page, _, err := s.fetchDocument(s.ctx, f.navigationRequest(u, h), reserved)
		if err != nil {
			s.log("iframe " + u.String() + ": " + err.Error())
			h.finish(nil, fmt.Errorf("browser: loading %s: %w", u, err))
			return
		}
		source = decodeText(page.body, page.charset)
		u = page.url
		referrerPolicy, cspList = page.referrerPolicy, page.csp
	}
	tree, err := dom.ParseDocument(strings.NewReader(source), u.String())
	if err != nil {
		h.finish(nil, fmt.Errorf("browser: parsing %s: %w", u, err))
		return
	}
	if !f.current(gen) {
		h.finish(nil, errSuperseded)
		return
	}
	// The old document is unloaded (pagehide and unload fire at it, then
	// its frames go) or kept in the back/forward cache; then the new
	// document becomes active, which runs the old one's unloading
	// document cleanup steps (navigation.go), and its window becomes the
	// frame's.
	cw, err := f.swapDocument(u, tree, h, reserved, func(cw *Window) bool {
		cw.setHeaderReferrerPolicy(referrerPolicy)
		cw.setHeaderCSP(cspList)
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.gen != gen || f.gone {
			return false
		}
		f.child = cw
		return true
	})
	if err != nil {
		if cw != nil {
			cw.closeRealms(nil)
		} else {
			s.log("iframe " + u.String() + ": " + err.Error())
		}
		h.finish(nil, err)
		return
	}
	f.commitEntry(h, cw)
	s.runScripts(cw)
	h.finish(cw, nil)
	f.fireLoad(gen)
}

// swapDocument replaces the frame's document with u's, whose parsed DOM
// is tree: the old window leaves (replaceDocument), the new document's
// window is created (newWindowIn) and commit makes it the frame's (false:
// the navigation was superseded, and swapDocument returns the window
// with errSuperseded). For a frame element whose old window is of its
// container document's agent, all of it happens in one task of that
// agent's event loop, so that no script of the agent sees the frame
// without a window in between (its contentWindow is the old window until
// the new one is there, as a browser commits a navigation at once); else
// off every event loop.
func (f *frame) swapDocument(u *url.URL, tree *dom.Document, h navHistory, reserved envHandle, commit func(*Window) bool) (*Window, error) {
	s := f.s
	finish := func(doc *html.Document, current *html.Agent) (*Window, error) {
		cw, err := s.newWindowIn(doc, u, tree, f.parent, f, current)
		if err != nil {
			return nil, err
		}
		if !commit(cw) {
			return cw, errSuperseded
		}
		return cw, nil
	}
	if p := f.parent; f.el != nil && p != nil {
		agent := p.env.Agent()
		if old := f.activeWindow(); old == nil || old.env.Agent() == agent {
			var cw *Window
			var later *html.Document // a new document of another agent
			var abandoned, offLoop atomic.Bool
			err := agent.EventLoop().RunOnLoop(s.ctx, func() (err error) {
				if abandoned.Load() {
					return errSuperseded
				}
				if old := f.activeWindow(); old != nil && old.env.Agent() != agent {
					// (A newer navigation made the frame's window another
					// agent's meanwhile.)
					offLoop.Store(true)
					return nil
				}
				ended := false
				steps := func() {
					var doc *html.Document
					if doc, err = f.replaceDocument(u, h, reserved, agent); err != nil {
						return
					}
					if doc.EnvironmentSettingsObject().Agent() != agent {
						later = doc
						return
					}
					cw, err = finish(doc, agent)
				}
				s.guard(func() {
					steps()
					ended = true
				})
				if !ended {
					// (A panic, which stops the browser.)
					cw, later, err = nil, nil, ErrClosed
				}
				return err
			})
			switch {
			case errors.Is(err, html.ErrLoopTerminated), err == nil && offLoop.Load():
				// (The container's agent is gone: off the event loops.)
			case err != nil && err == s.ctx.Err():
				// (The browser is closing; the task, if it has not run
				// yet, does nothing.)
				abandoned.Store(true)
				return nil, ErrClosed
			case later != nil:
				return finish(later, nil)
			default:
				return cw, err
			}
		}
	}
	doc, err := f.replaceDocument(u, h, reserved, nil)
	if err != nil {
		return nil, err
	}
	return finish(doc, nil)
}

// fireLoad queues, on the parent's event loop, the iframe load event steps:
// fire load at the element (unless a newer navigation or removal came).
func (f *frame) fireLoad(gen int) {
	if f.el == nil {
		f.markLoaded()
		return
	}
	w := f.parent
	queued := w.realm.QueueTask(func(*sobek.Runtime) {
		defer f.markLoaded()
		w.s.guard(func() {
			if f.current(gen) {
				w.realm.FireEventAt(w.nodeObject(f.el), "load", false, nil)
			}
		})
	})
	if !queued {
		f.markLoaded()
	}
}

// markLoaded records that the frame's first load is over.
func (f *frame) markLoaded() { f.loadedOnce.Do(func() { close(f.loaded) }) }

// connectParsedFrames connects the iframes of the parsed markup (on the
// window's event loop) and returns their frames; their navigations start
// with startParsedFrames, once the page's scripts have run (this product
// runs scripts over the complete tree, before any subresource loads).
func (w *Window) connectParsedFrames() []*frame {
	var out []*frame
	for _, el := range iframesIn(w.doc.HTML()) {
		if f := w.connectFrame(el); f != nil {
			out = append(out, f)
		}
	}
	return out
}

// startParsedFrames processes the attributes of the markup's iframes that
// are still connected (on the window's event loop).
func (w *Window) startParsedFrames(frames []*frame) {
	for _, f := range frames {
		if w.frameOf(f.el) == f {
			f.processAttributes()
		} else {
			f.markLoaded()
		}
	}
}

// newWindowProxy creates, in w's realm, the WindowProxy of the window
// target() returns at the time of use (nil: a window without a realm, e.g.
// a frame whose first document is still loading; messages to it are
// dropped), for a window w cannot reach synchronously (another agent's):
// bindings' remote WindowProxy, with HTML's cross-origin semantics, over
// these hooks.
// closeFn, when set, is close() (a popup's opener may close it).
func (w *Window) newWindowProxy(target func() *Window, closeFn func()) *sobek.Object {
	// view is a window as a value of w's realm (nil: none).
	view := func(o *Window) sobek.Value {
		if o == nil {
			return nil
		}
		var standIn *sobek.Object
		switch {
		case o == w:
			return w.realm.Global()
		case o == w.parentWin:
			standIn = w.parentProxy
		case o == w.openerWin:
			standIn = w.openerProxy
		}
		if v := w.view(o, standIn); !sobek.IsNull(v) {
			return v
		}
		return nil
	}
	return w.realm.NewRemoteWindowProxy(bindings.RemoteWindowHooks{
		PostMessage: func(message sobek.Value, targetOrigin string, transfer []*sobek.Object) error {
			defer w.s.recoverNative()
			if tw := target(); tw != nil {
				w.postMessage(tw, message, targetOrigin, transfer)
			} else {
				// Still validate the message, as the window would.
				w.s.serialize(w.realm, message, transfer)
			}
			return nil
		},
		Closed: func() bool { return target() == nil },
		Close:  closeFn,
		Top: func() sobek.Value {
			t := target()
			if t == nil {
				return nil
			}
			for t.parentWin != nil {
				t = t.parentWin
			}
			return view(t)
		},
		Parent: func() sobek.Value {
			if t := target(); t != nil {
				return view(t.parentWin)
			}
			return nil
		},
		Opener: func() sobek.Value {
			if t := target(); t != nil {
				return view(t.openerWin)
			}
			return nil
		},
		Length: func() int {
			if t := target(); t != nil {
				return t.childNavigableCount()
			}
			return 0
		},
		Child: func(i int) sobek.Value {
			if t := target(); t != nil {
				return view(t.childWindowAt(i))
			}
			return nil
		},
		Navigate: func(href string, replace bool) { w.navigateOther(target, href, replace) },
	})
}

// postMessage is the window post message steps from w (the incumbent
// window) to target: serialize in w's realm, then queue a task on target's
// event loop firing message at target's global, unless targetOrigin ("*",
// "/" for w's own origin, or a URL) does not match target's origin then.
func (w *Window) postMessage(target *Window, message sobek.Value, targetOrigin string, transfer []*sobek.Object) {
	wantOrigin := w.targetOrigin(targetOrigin)
	msg := w.s.serialize(w.realm, message, transfer)
	origin := w.s.eng.OriginOf(w.env)
	target.realm.QueueTask(func(*sobek.Runtime) {
		w.s.guard(func() {
			if wantOrigin != "" && wantOrigin != w.s.eng.OriginOf(target.env) {
				return
			}
			target.realm.DeliverMessage(nil, msg, origin, target.sourceFor(w))
		})
	})
}

// targetOrigin is the origin a message of w's to targetOrigin ("*", "/"
// for w's own origin, or a URL) may go to ("" for any); a bad URL throws
// a SyntaxError in w's realm.
func (w *Window) targetOrigin(targetOrigin string) string {
	switch targetOrigin {
	case "*":
		return ""
	case "/":
		return w.s.eng.OriginOf(w.env)
	}
	u, err := url.Parse(targetOrigin)
	if err != nil || u.Scheme == "" {
		panic(w.realm.NewDOMException("SyntaxError", "Failed to execute 'postMessage' on 'Window': Invalid target origin '"+targetOrigin+"'."))
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
}

// sourceFor is the MessageEvent source for a message from sender, as seen
// in w's realm: w's own global, the stand-in of w's parent, or the
// contentWindow of w's iframe holding sender; null for other windows.
func (w *Window) sourceFor(sender *Window) sobek.Value {
	var standIn *sobek.Object
	switch {
	case sender == w:
		return w.realm.Global()
	case w.parentWin != nil && sender == w.parentWin:
		standIn = w.parentProxy
	case w.openerWin != nil && sender == w.openerWin:
		standIn = w.openerProxy
	case sender.frame != nil && sender.frame.parent == w && !(sender.frame.popup && sender.frame.noopener):
		standIn = sender.frame.proxy
	}
	return w.view(sender, standIn)
}

// open is window.open(url, target, features): a new top-level traversable
// (in w's browsing context group, or a new one with noopener) navigated to
// url, whose window gets w as its opener; it returns the new window's
// stand-in (null with noopener). The target name is ignored: every call
// opens a new window.
func (w *Window) open(rawURL, _, features string) (sobek.Value, error) {
	u := &url.URL{Scheme: "about", Opaque: "blank"}
	if rawURL != "" {
		parsed, err := parseURL(rawURL, w.baseURL())
		if err != nil {
			return nil, dom.NewDOMException("Failed to execute 'open' on 'Window': Unable to open a window with invalid URL '"+rawURL+"'.", dom.SyntaxError)
		}
		u = parsed
	}
	noopener, noreferrer := false, false
	if features != "" {
		for _, tok := range strings.FieldsFunc(strings.ToLower(features), func(r rune) bool { return r == ',' || r == ' ' }) {
			name, val, _ := strings.Cut(tok, "=")
			if (name == "noopener" || name == "noreferrer") && val != "0" && val != "no" && val != "false" {
				noopener = true
				noreferrer = noreferrer || name == "noreferrer"
			}
		}
	}
	// Another site's URL opens in a renderer of that site (in a renderer
	// process: renderer_msg.go).
	if v, ok := w.s.xproc.open(w, u, noopener); ok {
		return v, nil
	}
	blank := &url.URL{Scheme: "about", Opaque: "blank"}
	var doc *html.Document
	var err error
	if noopener {
		doc, err = w.s.eng.ua.OpenWindow(blank)
	} else {
		doc, err = w.htmlDoc.Navigable().OpenAuxiliary(blank)
	}
	if err != nil {
		w.s.log("window.open: " + err.Error())
		return sobek.Null(), nil
	}
	f := &frame{s: w.s, parent: w, nav: doc.Navigable(), popup: true, noopener: noopener, loaded: make(chan struct{}), th: newJointHistory()}
	f.proxy = w.newWindowProxy(f.activeWindow, func() { go w.s.guard(func() { f.destroy(nil) }) })
	// The navigation's source document is w's; noreferrer also makes its
	// referrer "no-referrer".
	h := navHistory{traverse: -1, source: w.client(), noReferrer: noreferrer}
	if noopener {
		f.navigateWith(u, nil, h)
		return sobek.Null(), nil
	}
	if cw := f.loadNow(u, h); cw != nil {
		return w.view(cw, f.proxy), nil
	}
	f.navigateWith(u, nil, h)
	return f.proxy, nil
}

// frameElementValue is window.frameElement
// (https://html.spec.whatwg.org/#dom-frameelement) for w: the iframe
// element holding w's document when the container document is of w's
// agent and same origin with w's (this engine has no document.domain),
// else null (nil for a top-level window).
func (w *Window) frameElementValue() sobek.Value {
	f, p := w.frame, w.parentWin
	if f == nil || p == nil || f.el == nil || p.agent != w.agent || p.realmGone || !origin.SameOrigin(p.env.Origin(), w.env.Origin()) {
		return nil
	}
	if p.frameOf(f.el) != f {
		return nil // the element was removed
	}
	return w.agent.m.Wrap(p.realm.Runtime(), w.realm.Runtime(), p.nodeObject(f.el))
}

// childNavigable is window[i]: the WindowProxy of the i-th of w's
// document's child navigables in tree order (nil when there is none).
func (w *Window) childNavigable(i int) sobek.Value {
	for _, el := range iframesIn(w.doc.HTML()) {
		if w.frameOf(el) == nil {
			continue
		}
		if i == 0 {
			return w.contentWindow(el)
		}
		i--
	}
	return nil
}

// childWindowAt is the window of w's i-th child navigable in connection
// order (tree order for parsed frames), read from another agent's event
// loop, which must not walk w's DOM (nil: none, or no window yet).
func (w *Window) childWindowAt(i int) *Window {
	w.fmu.Lock()
	frames := make([]*frame, 0, len(w.frames))
	for _, f := range w.frames {
		frames = append(frames, f)
	}
	w.fmu.Unlock()
	if i < 0 || i >= len(frames) {
		return nil
	}
	sort.Slice(frames, func(a, b int) bool { return frames[a].seq < frames[b].seq })
	return frames[i].activeWindow()
}

// childNavigableCount is window.length: the number of w's document's
// child navigables (its connected iframes).
func (w *Window) childNavigableCount() int {
	w.fmu.Lock()
	defer w.fmu.Unlock()
	return len(w.frames)
}

// loadNow navigates a popup to an http(s) URL at once, from its opener's
// event loop: the document is fetched synchronously and its window is
// created before window.open returns (its scripts then run as tasks), so
// the opener can use the new window (add a load listener, post to it)
// right away, as browsers allow by reusing the initial about:blank window.
// It returns nil when the document cannot be loaded this way.
func (f *frame) loadNow(u *url.URL, h navHistory) *Window {
	w := f.parent
	s := w.s
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil
	}
	s.busy.Add(1)
	defer s.busy.Add(-1)
	reserved := f.nav.ReserveEnvironment(u)
	page, status, err := s.fetchDocument(s.ctx, f.navigationRequest(u, h), reserved)
	if err != nil || !isOKStatus(status) {
		return nil
	}
	tree, err := dom.ParseDocument(strings.NewReader(decodeText(page.body, page.charset)), page.url.String())
	if err != nil {
		return nil
	}
	f.mu.Lock()
	f.gen++
	f.mu.Unlock()
	doc, err := f.nav.Navigate(page.url, html.NavigateOptions{ReservedEnvironment: reserved})
	if err != nil {
		return nil
	}
	cw, err := s.newWindowIn(doc, page.url, tree, w, f, w.env.Agent())
	if err != nil {
		s.log("window.open " + u.String() + ": " + err.Error())
		return nil
	}
	cw.setHeaderReferrerPolicy(page.referrerPolicy)
	cw.setHeaderCSP(page.csp)
	f.mu.Lock()
	f.child = cw
	f.mu.Unlock()
	f.commitEntry(navHistory{traverse: -1, replace: true}, cw)
	s.busy.Add(1)
	go func() {
		defer s.busy.Add(-1)
		defer f.markLoaded()
		s.guard(func() { s.runScripts(cw) })
	}()
	return cw
}

// closeByScript is https://html.spec.whatwg.org/#dom-window-close: a
// window opened by window.open (script-closable) closes; other windows
// ignore it.
func (w *Window) closeByScript() {
	if h, ok := w.frame.remoteHandle(); ok {
		// A popup that moved to another renderer: the browser process
		// closes it if this renderer hosts its opener.
		w.s.xproc.closeRemote(h)
		return
	}
	if f := w.frame; f != nil && f.popup && !f.top {
		// 5.1. Set thisTraversable's is closing to true (window.closed is
		// true from now on).
		if w.closing.Swap(true) {
			return
		}
		// 5.2. Queue a task to close thisTraversable (its unload events
		// need the agent's event loop, which the caller is running).
		go w.s.guard(func() { f.destroy(nil) })
	}
}
