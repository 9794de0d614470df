package browser

import (
	"errors"
	"net/url"
	"strings"
	"sync"

	"github.com/gowebengine/weblocks/browser/ipc/rendererpb"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/origin"
	"github.com/grafana/sobek"
)

// This file is a renderer process's side of navigations that cross
// renderers (Config.Process RendererProcesses): a top-level traversable
// (the window of Open, or a popup) that navigates to another site hands
// its new document to a renderer of that site, which the browser process
// picks (renderer_tabs.go): one renderer per traversable and site (the
// process model's is per browsing context group and site: browser/doc.go).
//
// Each renderer that holds documents of a traversable keeps its session
// history entries, all of them: those whose documents are its own, and
// placeholders (sessionEntry.remote) for the others'. The renderer whose
// document is active changes them (a push drops the entries after the
// current one, a traversal moves the current one); when the active
// document moves to another renderer -- a navigation to another site, or
// a traversal to a placeholder -- it reports a Handoff with which entries
// are its own, and the browser process, which knows which renderer holds
// each entry, passes it on to the renderer that takes over and tells
// those that lost entries to drop them (their cached documents are
// evicted; a renderer left with no entry of the traversable destroys
// it). While another renderer's document is active, the traversable's
// active document here is a placeholder (about:blank without a window):
// the document navigated away from was kept in the back/forward cache
// (pagehide persisted) or unloaded (its locks released) as for any
// navigation.

// errSwappedOut: the navigation continues in another renderer process.
var errSwappedOut = errors.New("browser: the navigation continues in a renderer process of the other site")

// placeholderURL is the URL of the placeholder document of a traversable
// whose active document is in another renderer.
var placeholderURL = &url.URL{Scheme: "about", Opaque: "blank"}

// swapper is a renderer's registry of its traversables that navigations
// may move to other renderers; nil in a Browser that is not a renderer.
type swapper struct {
	site origin.Site
	id   uint64 // the renderer's id in the browser process
	// report sends a report to the browser process.
	report func(*rendererpb.Report)
	// handles gives the window handles that name a traversable here and
	// the handle of its opener in another renderer (rendererMsg.names).
	handles func(*frame) ([]uint64, uint64)

	mu   sync.Mutex
	next uint64
	tabs map[uint64]*frame
	// hadRealm: a realm was added since the renderer last reported Idle.
	hadRealm bool
}

func newSwapper(site origin.Site, id uint64, report func(*rendererpb.Report)) *swapper {
	return &swapper{site: site, id: id, report: report, tabs: map[uint64]*frame{}}
}

// crossSite reports whether a navigation of a top-level traversable of
// this renderer to u must move to another renderer: an http(s) URL of
// another site. (blob:, data: and about: documents stay: their origins
// come from their creators or are opaque.)
func (s *swapper) crossSite(u *url.URL) bool {
	if s == nil || u == nil {
		return false
	}
	if sc := strings.ToLower(u.Scheme); sc != "http" && sc != "https" {
		return false
	}
	return origin.ObtainSite(origin.FromURL(u)) != s.site
}

// movable: f is a top-level traversable whose documents may move to
// another renderer: the window of Open or a popup. A popup's opener keeps
// reaching it after it moved (its opener's windows of this renderer through
// the popup's handle: frame.remoteHandle; the popup's new documents have a
// stand-in for the opener).
func (f *frame) movable() bool {
	return f.s.swap != nil && f.el == nil && (f.top || f.popup)
}

// register gives f a traversable id (tab) unless it has one (tab != 0
// sets it), and records it.
func (s *swapper) register(f *frame, tab uint64) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.tab == 0 {
		if tab == 0 {
			s.next++
			tab = s.id<<32 | s.next
		}
		f.tab = tab
	}
	s.tabs[f.tab] = f
	return f.tab
}

func (s *swapper) frameOf(tab uint64) *frame {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tabs[tab]
}

func (s *swapper) forget(f *frame) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f.mu.Lock()
	tab := f.tab
	f.mu.Unlock()
	if s.tabs[tab] == f {
		delete(s.tabs, tab)
	}
}

// realmsChanged learns the number of live realms of the renderer: when
// the last one goes, the renderer hosts nothing (no window, active or
// cached, no worker) and says so once; the browser process may then end
// it.
func (s *swapper) realmsChanged(n int) {
	if s == nil {
		return
	}
	s.mu.Lock()
	idle := n == 0 && s.hadRealm
	if n > 0 {
		s.hadRealm = true
	} else if idle {
		s.hadRealm = false
	}
	s.mu.Unlock()
	if idle {
		s.report(&rendererpb.Report{Report: &rendererpb.Report_Idle{Idle: &rendererpb.Idle{}}})
	}
}

// handoff reports that f's active document moves to another renderer:
// to a new document at url (its entry index is a placeholder here), or to
// the document of f's entry index, another renderer's. nav is the
// embedder's navigation waiting for it (0: none).
func (s *swapper) handoff(f *frame, index int, rawURL string, nav uint64) {
	tab := s.register(f, 0)
	f.mu.Lock()
	local := make([]bool, len(f.entries))
	urls := make([]string, len(f.entries))
	any := false
	for i, e := range f.entries {
		local[i] = !e.remote
		any = any || local[i]
		if e.url != placeholderURL {
			urls[i] = e.url.String()
		}
	}
	f.mu.Unlock()
	// The handles that name the traversable go with it (its WindowProxy
	// in other renderers follows it).
	var handles []uint64
	var opener uint64
	if s.handles != nil {
		handles, opener = s.handles(f)
	}
	s.report(&rendererpb.Report{Report: &rendererpb.Report_Handoff{Handoff: &rendererpb.Handoff{
		Tab: tab, Local: local, Index: int32(index), Url: rawURL, Nav: nav, Urls: urls, Handles: handles, Opener: opener}}})
	if !any {
		// Nothing of the traversable is left here.
		s.forget(f)
		f.destroy(nil)
	}
}

// leaveForRemote navigates f's active document away to the placeholder
// document: the document is kept in the back/forward cache (cacheable:
// the navigation allows it) or unloaded, as for any navigation.
func (f *frame) leaveForRemote(cacheable bool) {
	f.mu.Lock()
	old := f.child
	f.child = nil
	f.mu.Unlock()
	f.s.xproc.countGone(f)
	keep, reasons := false, []string(nil)
	if old != nil {
		keep, reasons = old.leave(f.mayCache() && cacheable, nil)
	}
	if _, err := f.nav.Navigate(placeholderURL, html.NavigateOptions{KeepInBFCache: keep}); err != nil {
		f.s.log("browser: navigating away to another renderer: " + err.Error())
	}
	if old != nil {
		f.recordLeft(old, keep, reasons, !cacheable)
	}
}

// swapOut is the navigation of f to u (a document of another site) when
// it continues in another renderer: the active document is navigated
// away from here, the new entry (pushed, or replacing the current one)
// is a placeholder, and the browser process learns the handoff.
func (f *frame) swapOut(gen int, u *url.URL, h navHistory) {
	if !f.current(gen) {
		h.finish(nil, errSuperseded)
		return
	}
	f.leaveForRemote(!h.replace)
	f.addEntry(&sessionEntry{url: u, remote: true}, h.replace)
	f.mu.Lock()
	index := f.index
	f.mu.Unlock()
	f.s.swap.handoff(f, index, u.String(), h.nav)
	h.finish(nil, errSwappedOut)
}

// swapToRemote is a traversal of f from its active window from to entry
// target, a placeholder: the active document is navigated away from
// here, and the renderer holding the entry's document takes over.
func (f *frame) swapToRemote(from *Window, target int, done func(*Window, error)) {
	f.mu.Lock()
	if f.child != from {
		f.mu.Unlock()
		navHistory{done: done}.finish(nil, errNotActive)
		return
	}
	f.mu.Unlock()
	f.leaveForRemote(true)
	f.mu.Lock()
	f.index = target
	f.gen++
	nav := f.traverseNav
	f.traverseNav = 0
	f.mu.Unlock()
	f.s.swap.handoff(f, target, "", nav)
	navHistory{done: done}.finish(nil, errSwappedOut)
}

// syncEntries makes f's entries what the browser process says: local[i]
// is whether entry i's document is this renderer's. Entries that are no
// longer this renderer's become placeholders (their cached documents are
// evicted), entries past the list's length are dropped, missing ones are
// placeholders. It reports whether any entry is still this renderer's.
func (f *frame) syncEntries(local []bool) bool {
	var gone []*Window
	f.mu.Lock()
	if len(f.entries) > len(local) {
		for _, e := range f.entries[len(local):] {
			if e.win != nil && e.win != f.child {
				gone = append(gone, e.win)
			}
		}
		f.entries = f.entries[:len(local):len(local)]
	}
	any := false
	for i, l := range local {
		if i >= len(f.entries) {
			f.entries = append(f.entries, &sessionEntry{url: placeholderURL, remote: true})
			continue
		}
		e := f.entries[i]
		if !l && !e.remote {
			if e.win != nil && e.win != f.child {
				gone = append(gone, e.win)
			}
			f.entries[i] = &sessionEntry{url: e.url, href: e.href, remote: true}
		}
		any = any || !f.entries[i].remote
	}
	if f.index >= len(f.entries) {
		f.index = len(f.entries) - 1
	}
	f.mu.Unlock()
	seen := map[*Window]bool{}
	for _, w := range gone {
		if !seen[w] && w.InBackForwardCache() {
			seen[w] = true
			w.discardCached(NotRestoredHistoryDropped)
		}
	}
	return any || f.activeWindow() != nil
}

// takeOver is the renderer's side of a handoff the browser process sends:
// the traversable tab's active document becomes this renderer's. done
// learns the outcome (the new active window, or why there is none).
func (b *Browser) takeOver(m *rendererpb.Handoff, done func(*Window, error)) {
	s := b.swap
	f := s.frameOf(m.GetTab())
	if m.GetClose() {
		// The traversable was closed (its opener's close()).
		if f != nil {
			s.forget(f)
			f.destroy(nil)
		}
		return
	}
	if f == nil {
		if m.GetUrl() == "" {
			navHistory{done: done}.finish(nil, errNotActive)
			return
		}
		// A traversable new to this renderer: a top-level traversable
		// of its own browsing context group, as the one it continues.
		doc, err := b.eng.ua.OpenWindow(placeholderURL)
		if err != nil {
			navHistory{done: done}.finish(nil, err)
			return
		}
		f = &frame{s: b, nav: doc.Navigable(), popup: true, noopener: true, loaded: make(chan struct{}), th: newJointHistory()}
		s.register(f, m.GetTab())
	}
	// The traversable answers here to the handles that name it, and knows
	// its opener, before its new document's scripts run.
	if b.xproc != nil {
		b.xproc.adopt(f, m.GetHandles(), m.GetOpener())
	}
	if !f.syncEntries(m.GetLocal()) && m.GetUrl() == "" && m.GetIndex() < 0 {
		s.forget(f)
		f.destroy(nil)
		return
	}
	index := int(m.GetIndex())
	switch {
	case m.GetUrl() != "":
		u, err := url.Parse(m.GetUrl())
		if err != nil || index < 0 {
			navHistory{done: done}.finish(nil, errors.New("browser: a bad handoff"))
			return
		}
		// The new document's entry is pushed after the placeholder
		// before it (the entries after it were dropped).
		f.mu.Lock()
		f.entries = f.entries[:min(index, len(f.entries)):min(index, len(f.entries))]
		f.index = len(f.entries) - 1
		f.mu.Unlock()
		f.navigateWith(u, nil, navHistory{traverse: -1, done: done})
	case index >= 0:
		f.activate(index, done)
	}
}

// activate traverses f, whose active document is a placeholder, to its
// entry target: its document is restored from the back/forward cache, or
// loaded again.
func (f *frame) activate(target int, done func(*Window, error)) {
	f.mu.Lock()
	if f.gone || f.child != nil || target < 0 || target >= len(f.entries) || f.entries[target].remote {
		f.mu.Unlock()
		navHistory{done: done}.finish(nil, errNotActive)
		return
	}
	e := f.entries[target]
	f.gen++
	gen := f.gen
	f.mu.Unlock()
	if f.th != nil {
		f.th.moveTo(f, target)
	}
	f.restoreOrLoad(nil, gen, target, e, done)
}

// moveTo makes the current step the one where f is at its entry index
// (the latest such step), after a traversal that another renderer
// started.
func (th *jointHistory) moveTo(f *frame, index int) {
	th.mu.Lock()
	defer th.mu.Unlock()
	for c := len(th.steps) - 1; c >= 0; c-- {
		at, found := 0, false
		for k := c; k >= 1; k-- {
			if th.steps[k].f == f {
				at, found = th.steps[k].to, true
				break
			}
		}
		if !found {
			for k := c + 1; k < len(th.steps); k++ {
				if th.steps[k].f == f {
					at, found = th.steps[k].from, true
					break
				}
			}
		}
		if at == index {
			th.cur = c
			return
		}
	}
}

// takeOver carries out a Handoff of the browser process in the renderer,
// and reports the outcome of the embedder's navigation waiting for it.
func (r *renderer) takeOver(m *rendererpb.Handoff) {
	r.b.takeOver(m, r.navigated(m.GetNav()))
}

// navigate is Window.Navigate of the browser process for the active
// window of a traversable of the renderer.
func (r *renderer) navigate(m *rendererpb.Navigate) {
	done := r.navigated(m.GetNav())
	f := r.b.swap.frameOf(m.GetTab())
	var w *Window
	if f != nil {
		w = f.activeWindow()
	}
	if w == nil {
		done(nil, errNotActive)
		return
	}
	if m.GetTraverse() {
		// A traversal that reaches another renderer's entry hands the
		// embedder's navigation over with it (swapToRemote).
		f.mu.Lock()
		f.traverseNav = m.GetNav()
		f.mu.Unlock()
		w.startTraversal(int(m.GetDelta()), done)
		return
	}
	u, err := parseURL(m.GetUrl(), w.URL())
	if err != nil {
		done(nil, err)
		return
	}
	h := navHistory{traverse: -1, done: done, nav: m.GetNav()}
	if !w.realm.QueueTask(func(*sobek.Runtime) {
		w.s.guard(func() { w.navigateWith(u.String(), u, h) })
	}) {
		done(nil, ErrClosed)
	}
}

// navigated is the done function of the embedder's navigation nav (none
// for 0): once the new document has loaded, or the navigation failed, the
// browser process learns it; a navigation that continues in another
// renderer is reported there.
func (r *renderer) navigated(nav uint64) func(*Window, error) {
	if nav == 0 {
		return nil
	}
	return func(w *Window, err error) {
		if errors.Is(err, errSwappedOut) {
			return
		}
		go func() {
			msg, href := "", ""
			if err != nil {
				msg = err.Error()
			} else {
				select {
				case <-w.Loaded():
					href = w.URL().String()
				case <-r.b.ctx.Done():
					msg = ErrClosed.Error()
				}
			}
			r.send(&rendererpb.Report{Report: &rendererpb.Report_Navigated{Navigated: &rendererpb.Navigated{Nav: nav, Error: msg, Url: href}}})
		}()
	}
}
