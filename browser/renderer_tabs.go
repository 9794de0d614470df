package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gowebengine/weblocks/browser/ipc/rendererpb"
	"github.com/gowebengine/weblocks/origin"
)

// This file is the browser process's side of navigations that cross
// renderer processes (navigation_swap.go is the renderers' side): it
// knows, for each top-level traversable of its renderers (a tab), which
// renderer holds the document of each session history entry, which one
// is active, and the renderers of the tab's sites; it routes handoffs,
// starts renderers for new sites, ends renderers that host nothing, and
// keeps the embedder's Window on its traversable's active renderer.

// tabRegistry is the browser process's record of its renderers and their
// traversables (the zero value is empty).
type tabRegistry struct {
	mu       sync.Mutex
	procs    map[uint64]*rendererProc // live renderers by id
	tabs     map[uint64]*tabState
	navs     map[uint64]chan navReply // the embedder's navigations under way
	nextProc uint64
	nextTab  uint64
	nextNav  uint64
}

// tabState is one top-level traversable whose documents live in
// renderers.
type tabState struct {
	id uint64
	// mu orders the tab's handoffs.
	mu sync.Mutex
	// win is the embedder's Window of the traversable (nil for a popup).
	win *Window
	// owners[i] holds the document of entry i (nil: none any more: it
	// is loaded again from urls[i]).
	owners []*rendererProc
	urls   []string
	active *rendererProc
	// group is the tab's browsing context group: the renderer of each of
	// its sites. A popup's is its opener's (set once its opener is known).
	group   atomic.Pointer[bcGroup]
	grouped bool // (under mu) a tab of a renderer: its group was looked up
	// cur is active, read without mu (message routing).
	cur atomic.Pointer[rendererProc]
	// handles are the window handles that name the traversable (its
	// WindowProxy, whichever renderer its active document is in), and
	// opener the handle of its opener in another renderer (0: none);
	// both guarded by the browser's msgRouter.mu (renderer_messaging.go).
	handles []uint64
	opener  uint64
}

// bcGroup is a browsing context group of the browser's renderers: the
// renderer of each of its sites (the process model: one renderer per
// group and site; a new document of a traversable of the group moves to
// it).
type bcGroup struct {
	mu    sync.Mutex
	procs map[origin.Site]*rendererProc
}

func newGroup(p *rendererProc) *bcGroup {
	return &bcGroup{procs: map[origin.Site]*rendererProc{p.site: p}}
}

// join makes p the group's renderer of its site unless it has a live one.
func (g *bcGroup) join(p *rendererProc) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if o := g.procs[p.site]; o == nil || !o.alive() {
		g.procs[p.site] = p
	}
}

// drop forgets p (it ended, or will).
func (g *bcGroup) drop(p *rendererProc) {
	g.mu.Lock()
	defer g.mu.Unlock()
	for site, o := range g.procs {
		if o == p {
			delete(g.procs, site)
		}
	}
}

// setActive makes p the renderer of t's active document (under t.mu).
func (t *tabState) setActive(p *rendererProc) {
	t.active = p
	t.cur.Store(p)
}

// remoteWindow is where a Window of RendererProcesses is: the renderer
// of its traversable's active document.
type remoteWindow struct {
	mu sync.Mutex
	p  *rendererProc
	// window is the window's id in p until its traversable moves to
	// another renderer or the embedder navigates it; 0 then. Evaluate
	// runs in the traversable's active window, or in this one while the
	// traversable has no active window in p.
	window uint64
	tab    uint64
	// handle is the handle that names the traversable for the windows
	// of other renderers (renderer_messaging.go).
	handle uint64
}

func (rw *remoteWindow) proc() *rendererProc {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	return rw.p
}

func (rw *remoteWindow) target() (*rendererProc, uint64, uint64) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	return rw.p, rw.window, rw.tab
}

// moveTo makes p the window's renderer (its traversable's active
// document moved there).
func (rw *remoteWindow) moveTo(p *rendererProc) {
	rw.mu.Lock()
	defer rw.mu.Unlock()
	if rw.p != p {
		rw.p, rw.window = p, 0
	}
}

// addProc registers a started renderer and gives it its id.
func (r *tabRegistry) addProc(p *rendererProc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.procs == nil {
		r.procs = map[uint64]*rendererProc{}
	}
	r.nextProc++
	p.id = r.nextProc
	r.procs[p.id] = p
}

func (r *tabRegistry) removeProc(p *rendererProc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.procs[p.id] == p {
		delete(r.procs, p.id)
	}
}

// allProcs are the live renderers.
func (r *tabRegistry) allProcs() []*rendererProc {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*rendererProc, 0, len(r.procs))
	for _, p := range r.procs {
		out = append(out, p)
	}
	return out
}

// newTab records the traversable of a window the embedder opened in p,
// of browsing context group g (nil: a new one). Ids the browser process
// gives have the top bit set; a renderer's own have its id in the high
// half.
func (r *tabRegistry) newTab(p *rendererProc, win *Window, g *bcGroup) *tabState {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.nextTab++
	t := &tabState{id: 1<<63 | r.nextTab, win: win, owners: []*rendererProc{p}, urls: []string{""}, grouped: true}
	if g == nil {
		g = newGroup(p)
	} else {
		g.join(p)
	}
	t.group.Store(g)
	t.setActive(p)
	if r.tabs == nil {
		r.tabs = map[uint64]*tabState{}
	}
	r.tabs[t.id] = t
	return t
}

// tabOf is the tab id of from's handoff: a known one, or a new one of
// from's (its id in the high half).
func (r *tabRegistry) tabOf(id uint64, from *rendererProc) *tabState {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t := r.tabs[id]; t != nil {
		return t
	}
	if id>>32 != from.id {
		return nil
	}
	t := &tabState{id: id}
	t.group.Store(newGroup(from))
	t.setActive(from)
	if r.tabs == nil {
		r.tabs = map[uint64]*tabState{}
	}
	r.tabs[id] = t
	return t
}

// release lets p go unless a traversable is active there: the entries
// whose documents p held (none is left: it hosts nothing) are loaded again
// from their URLs when traversed to. It reports whether p may go.
func (r *tabRegistry) release(p *rendererProc) bool {
	r.mu.Lock()
	tabs := make([]*tabState, 0, len(r.tabs))
	for _, t := range r.tabs {
		tabs = append(tabs, t)
	}
	r.mu.Unlock()
	for _, t := range tabs {
		t.mu.Lock()
		active := t.active == p
		t.mu.Unlock()
		if active {
			return false
		}
	}
	for _, t := range tabs {
		t.mu.Lock()
		for i, o := range t.owners {
			if o == p {
				t.owners[i] = nil
			}
		}
		t.group.Load().drop(p)
		t.mu.Unlock()
	}
	return true
}

// closeTab forgets the traversable tab (the embedder closed its window):
// it no longer keeps its renderers.
func (r *tabRegistry) closeTab(tab uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.tabs, tab)
}

// windowsOn are the embedder's Windows whose traversables are active in p.
func (r *tabRegistry) windowsOn(p *rendererProc) []*Window {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*Window
	for _, t := range r.tabs {
		if t.win != nil && t.win.remote.proc() == p {
			out = append(out, t.win)
		}
	}
	return out
}

// procsOf are the renderers holding documents of w's traversable.
func (r *tabRegistry) procsOf(w *Window) []*rendererProc {
	_, _, id := w.remote.target()
	r.mu.Lock()
	t := r.tabs[id]
	r.mu.Unlock()
	seen := map[*rendererProc]bool{w.remote.proc(): true}
	out := []*rendererProc{w.remote.proc()}
	if t == nil {
		return out
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.active != nil && !seen[t.active] {
		seen[t.active] = true
		out = append(out, t.active)
	}
	for _, p := range t.owners {
		if p != nil && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// navReply is the outcome of an embedder's navigation: the URL of the
// window then active, or why it failed.
type navReply struct {
	url string
	err error
}

// newNav registers an embedder's navigation; its outcome arrives on the
// channel.
func (r *tabRegistry) newNav() (uint64, chan navReply) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.navs == nil {
		r.navs = map[uint64]chan navReply{}
	}
	r.nextNav++
	ch := make(chan navReply, 1)
	r.navs[r.nextNav] = ch
	return r.nextNav, ch
}

// navDone settles navigation nav (0: none) with a failure.
func (r *tabRegistry) navDone(nav uint64, err error) {
	r.navReplied(nav, navReply{err: err})
}

// navReplied settles navigation nav (0: none).
func (r *tabRegistry) navReplied(nav uint64, reply navReply) {
	if nav == 0 {
		return
	}
	r.mu.Lock()
	ch := r.navs[nav]
	delete(r.navs, nav)
	r.mu.Unlock()
	if ch != nil {
		ch <- reply
	}
}

func (r *tabRegistry) dropNav(nav uint64) {
	r.mu.Lock()
	delete(r.navs, nav)
	r.mu.Unlock()
}

// alive: p has not exited and is not closing.
func (p *rendererProc) alive() bool {
	select {
	case <-p.exited:
		return false
	default:
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.closing
}

// handoff routes a renderer's Handoff (the browser process trusts it only
// for a traversable that renderer has active): the renderer holding the
// target entry's document, or one of the new document's site (started if
// need be), takes over; renderers that lost entries drop them. It runs in
// the renderer's control channel, in order with its other reports (its
// Idle must see the handoff), and goes on in a goroutine of its own
// (starting a renderer takes a while).
func (b *Browser) handoff(from *rendererProc, m *rendererpb.Handoff) {
	t := b.tabs.tabOf(m.GetTab(), from)
	if t == nil {
		from.kill("killed by the browser process: a handoff of another renderer's traversable")
		return
	}
	t.mu.Lock()
	go func() {
		defer t.mu.Unlock()
		b.handoffLocked(t, from, m)
	}()
}

// handoffLocked is handoff with t.mu held.
func (b *Browser) handoffLocked(t *tabState, from *rendererProc, m *rendererpb.Handoff) {
	if t.active != from {
		b.log(fmt.Sprintf("browser: ignored a handoff of a traversable that renderer %d does not have active", from.pid))
		b.tabs.navDone(m.GetNav(), errSuperseded)
		return
	}
	n := len(m.GetLocal())
	idx := int(m.GetIndex())
	if idx < 0 || idx >= n || len(m.GetUrls()) != n {
		from.kill("killed by the browser process: a malformed handoff")
		return
	}
	// The handles the sender gave the traversable's windows name it from
	// now on, wherever its active document is.
	if !b.router.bindHandles(from, t, m.GetHandles(), m.GetOpener()) {
		b.tabs.navDone(m.GetNav(), errNotActive)
		return
	}
	// A popup of a renderer is of its opener's browsing context group.
	if !t.grouped {
		t.grouped = true
		if _, opener := b.router.handlesOf(t); opener != 0 {
			if g := b.router.groupOf(opener); g != nil {
				g.join(from)
				t.group.Store(g)
			}
		}
	}
	owners := make([]*rendererProc, n)
	urls := append([]string(nil), m.GetUrls()...)
	for i, l := range m.GetLocal() {
		switch {
		case l:
			owners[i] = from
		case i < len(t.owners):
			owners[i] = t.owners[i]
		}
		if urls[i] == "" && i < len(t.urls) {
			urls[i] = t.urls[i]
		}
	}
	rawURL := m.GetUrl()
	if rawURL == "" && (owners[idx] == nil || !owners[idx].alive()) {
		// The entry's renderer is gone: its document loads again, in a
		// renderer of its site (the entries after it go).
		rawURL = urls[idx]
		owners, urls = owners[:idx+1], urls[:idx+1]
		if rawURL == "" {
			b.log("browser: a traversal to an entry whose renderer ended and whose URL is unknown")
			b.tabs.navDone(m.GetNav(), errNotActive)
			return
		}
	}
	var target *rendererProc
	if rawURL != "" {
		u, err := url.Parse(rawURL)
		if err != nil || (!strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https")) {
			from.kill("killed by the browser process: a handoff to a bad URL")
			return
		}
		// The renderer of the site in the traversable's browsing
		// context group (started if it has none).
		site := origin.ObtainSite(origin.FromURL(u))
		g := t.group.Load()
		g.mu.Lock()
		target = g.procs[site]
		if target == nil || !target.alive() {
			target, err = b.spawnRenderer(b.ctx, site)
			if err != nil {
				g.mu.Unlock()
				b.log("browser: starting a renderer for " + site.Serialize() + ": " + err.Error())
				b.tabs.navDone(m.GetNav(), err)
				return
			}
			g.procs[site] = target
		}
		g.mu.Unlock()
		owners[idx], urls[idx] = target, rawURL
	} else {
		target = owners[idx]
	}
	old := t.owners
	t.owners, t.urls = owners, urls
	t.setActive(target)
	// Renderers that lost entries drop them.
	lost := map[*rendererProc]bool{}
	for i, p := range old {
		if p != nil && p != from && p != target && (i >= len(owners) || owners[i] != p) {
			lost[p] = true
		}
	}
	for p := range lost {
		_ = p.send(&rendererpb.Command{Command: &rendererpb.Command_Handoff{Handoff: &rendererpb.Handoff{Tab: t.id, Local: localTo(owners, p), Index: -1}}})
	}
	// The renderer taking over answers to the traversable's handles, and
	// may message its opener.
	// Its window's child navigables are those of the document it makes
	// active, which it reports.
	b.router.resetCounts(t)
	handles, opener := b.router.handlesOf(t)
	if opener != 0 {
		b.router.grant(target, opener)
	}
	if err := target.send(&rendererpb.Command{Command: &rendererpb.Command_Handoff{Handoff: &rendererpb.Handoff{
		Tab: t.id, Local: localTo(owners, target), Index: int32(idx), Url: rawURL, Nav: m.GetNav(), Urls: urls,
		Handles: handles, Opener: opener}}}); err != nil {
		b.tabs.navDone(m.GetNav(), err)
	}
	if w := t.win; w != nil {
		w.remote.moveTo(target)
		if u, err := url.Parse(urls[idx]); err == nil && urls[idx] != "" {
			w.setURL(u)
		}
	}
}

// localTo says which of the entries are p's.
func localTo(owners []*rendererProc, p *rendererProc) []bool {
	out := make([]bool, len(owners))
	for i, o := range owners {
		out[i] = o == p
	}
	return out
}

// idle ends a renderer that hosts nothing (no window, cached or not, no
// worker), unless a traversable is active there (or is about to be).
func (b *Browser) idle(p *rendererProc) {
	if b.tabs.release(p) {
		p.close()
	}
}

// navigateRemote is Window.Navigate for a window of a renderer: its
// traversable's active window navigates (and may move to another
// renderer); a window whose renderer ended starts a fresh renderer at
// the URL. It returns w once the new document has loaded.
func (b *Browser) navigateRemote(ctx context.Context, w *Window, rawURL string) (*Window, error) {
	u, err := parseURL(rawURL, w.URL())
	if err != nil {
		return nil, err
	}
	if !w.remote.proc().alive() {
		return w, b.reopen(ctx, w, u)
	}
	return b.commandRemote(ctx, w, &rendererpb.Navigate{Url: u.String()})
}

// traverseRemote is Window.Traverse for a window of a renderer: its
// traversable traverses by delta (to an entry of its renderer or of
// another). It returns w once the document then active has loaded or
// been restored.
func (b *Browser) traverseRemote(ctx context.Context, w *Window, delta int) (*Window, error) {
	return b.commandRemote(ctx, w, &rendererpb.Navigate{Traverse: true, Delta: int32(delta)})
}

// commandRemote sends the navigation m to the renderer of w's traversable
// and waits for its outcome.
func (b *Browser) commandRemote(ctx context.Context, w *Window, m *rendererpb.Navigate) (*Window, error) {
	p, _, tab := w.remote.target()
	nav, ch := b.tabs.newNav()
	m.Tab, m.Nav = tab, nav
	if err := p.send(&rendererpb.Command{Command: &rendererpb.Command_Navigate{Navigate: m}}); err != nil {
		b.tabs.dropNav(nav)
		return nil, err
	}
	select {
	case r := <-ch:
		if r.err != nil {
			return nil, r.err
		}
		if u, err := url.Parse(r.url); err == nil && r.url != "" {
			w.setURL(u)
		}
		// w is the traversable's window from now on: Evaluate runs in
		// its active document.
		w.remote.mu.Lock()
		w.remote.window = 0
		w.remote.mu.Unlock()
		return w, nil
	case <-ctx.Done():
		b.tabs.dropNav(nav)
		return nil, ctx.Err()
	case <-b.ctx.Done():
		b.tabs.dropNav(nav)
		return nil, ErrClosed
	}
}

// reopen gives w, whose renderer ended (crashed, killed), a fresh
// renderer of u's site with u's document: its traversable starts again
// (the other renderers drop its entries).
func (b *Browser) reopen(ctx context.Context, w *Window, u *url.URL) error {
	_, _, id := w.remote.target()
	b.tabs.mu.Lock()
	t := b.tabs.tabs[id]
	b.tabs.mu.Unlock()
	if t == nil {
		return ErrClosed
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	p, err := b.spawnRenderer(ctx, origin.ObtainSite(origin.FromURL(u)))
	if err != nil {
		return err
	}
	for _, o := range t.owners {
		if o != nil && o.alive() {
			_ = o.send(&rendererpb.Command{Command: &rendererpb.Command_Handoff{Handoff: &rendererpb.Handoff{Tab: t.id, Index: -1}}})
		}
	}
	t.owners, t.urls = []*rendererProc{p}, []string{u.String()}
	t.setActive(p)
	t.group.Load().join(p)
	opened, err := p.openWindow(ctx, 1, t.id, u, nil, 0)
	if err != nil {
		p.close()
		return err
	}
	w.remote.mu.Lock()
	w.remote.p, w.remote.window = p, 1
	w.remote.mu.Unlock()
	if ou, err := url.Parse(opened.GetUrl()); err == nil {
		w.setURL(ou)
	}
	select {
	case <-p.loaded:
		return nil
	case <-p.exited:
		return p.exitErr()
	case <-ctx.Done():
		return ctx.Err()
	}
}

// errNavigationFailed is a renderer's failed navigation (its message).
func errNavigationFailed(msg string) error {
	if msg == errSuperseded.Error() {
		return errSuperseded
	}
	return errors.New(msg)
}

// closeTab closes t, a traversable without an embedder Window (a popup
// that moved from its opener's renderer), closed by its opener: every
// renderer holding a document of it destroys it (one left hosting nothing
// then ends), and the windows given its handles learn it is gone.
func (b *Browser) closeTab(t *tabState) {
	t.mu.Lock()
	procs := map[*rendererProc]bool{}
	if t.active != nil {
		procs[t.active] = true
	}
	for _, p := range t.owners {
		if p != nil {
			procs[p] = true
		}
	}
	t.setActive(nil)
	t.owners = nil
	t.mu.Unlock()
	for p := range procs {
		_ = p.send(&rendererpb.Command{Command: &rendererpb.Command_Handoff{Handoff: &rendererpb.Handoff{Tab: t.id, Index: -1, Close: true}}})
	}
	b.router.tabGone(t)
}

// tabURL gives the embedder's Window of a traversable active in p the URL
// of its active document (a script navigated it there); reports of other
// renderers (the traversable moved meanwhile) are dropped.
func (r *tabRegistry) tabURL(p *rendererProc, m *rendererpb.TabURL) {
	r.mu.Lock()
	t := r.tabs[m.GetTab()]
	r.mu.Unlock()
	if t == nil || t.win == nil || t.cur.Load() != p {
		return
	}
	if u, err := url.Parse(m.GetUrl()); err == nil {
		t.win.setURL(u)
	}
}

// closeRemote closes the traversable of w, a window of a renderer: the
// renderers holding its documents end, but one that another traversable
// uses too (of its browsing context group) destroys it only, and the
// windows given its handles learn it is gone.
func (b *Browser) closeRemote(w *Window) {
	_, _, id := w.remote.target()
	b.tabs.mu.Lock()
	t := b.tabs.tabs[id]
	b.tabs.mu.Unlock()
	var shared []*rendererProc
	for _, p := range b.tabs.procsOf(w) {
		// A renderer that runs a shared worker other renderers'
		// documents use stays too (renderer_sw.go): it ends once it
		// hosts nothing.
		if t != nil && (b.tabs.usedByOthers(p, t) || b.router.servesOthers(p)) {
			shared = append(shared, p)
			continue
		}
		p.close()
	}
	if len(shared) == 0 {
		return
	}
	t.mu.Lock()
	t.setActive(nil)
	t.owners = nil
	t.mu.Unlock()
	for _, p := range shared {
		_ = p.send(&rendererpb.Command{Command: &rendererpb.Command_Handoff{Handoff: &rendererpb.Handoff{Tab: t.id, Index: -1, Close: true}}})
	}
	b.router.tabGone(t)
	b.tabs.closeTab(t.id)
}

// usedByOthers reports whether a traversable other than t is active in p
// or has documents there.
func (r *tabRegistry) usedByOthers(p *rendererProc, t *tabState) bool {
	r.mu.Lock()
	tabs := make([]*tabState, 0, len(r.tabs))
	for _, u := range r.tabs {
		if u != t {
			tabs = append(tabs, u)
		}
	}
	r.mu.Unlock()
	for _, u := range tabs {
		u.mu.Lock()
		used := u.active == p
		for _, o := range u.owners {
			used = used || o == p
		}
		u.mu.Unlock()
		if used {
			return true
		}
	}
	return false
}
