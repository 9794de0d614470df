package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"

	"github.com/gowebengine/weblocks/browser/ipc/rendererpb"
	"github.com/gowebengine/weblocks/origin"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Cross-process messaging, the browser process's side. A window that a
// window of another renderer can reach (its opener, a popup it opened,
// the source of a message it got) has a handle: its renderer's number
// (rendererProc.id) in the high 32 bits, a number its renderer gives it
// in the low ones; a handle names the window's navigable (a WindowProxy),
// and one that names a top-level traversable goes with it when it moves
// to another renderer (tabHandles: the traversable's active renderer
// answers it). window.postMessage towards such a window goes from the
// sender's renderer to the browser process, which checks it and passes it
// on to the target's renderer (renderer_msg.go delivers it). A
// MessagePort whose entangled port is in another renderer is a link
// between the two renderers, numbered the same way by the renderer that
// first sent the port across; the browser process passes a link's
// messages and its close between its two renderers only.
//
// The browser process trusts no renderer: a renderer may send as its own
// windows only (the handle's high bits are its number, or it names a
// traversable active there), to the handles
// the browser process gave it only, with a source origin of its site, and
// through the links it is an end of; anything else is refused, logged,
// and the renderer killed. A targetOrigin of another site than the
// target's renderer drops the message here: its data never reaches that
// renderer. Messages wait in the target's bounded queue
// (rendererProc.forward, as BroadcastChannel's do): a flooding sender is
// throttled, a target that does not read is killed.

// msgRouter is the browser's routing of messages between renderers.
type msgRouter struct {
	mu      sync.Mutex
	procs   map[uint64]*rendererProc
	granted map[*rendererProc]map[uint64]struct{}
	links   map[uint64]*msgLink
	// made counts the live links each renderer made; popups the live
	// popups each renderer opened (OpenPopup), and openerOf the renderer
	// that opened each popup's.
	made     map[*rendererProc]int
	popups   map[*rendererProc]int
	openerOf map[*rendererProc]*rendererProc
	// workers is the shared-worker registry (renderer_sw.go).
	workers map[swKey]*swEntry
	// lengths are the numbers of child navigables of the windows of
	// handles given to renderers (childCount), 0 when absent.
	lengths map[uint64]uint32
	// rels are the top-level window and parent of the windows of
	// frames given to renderers (relatives), relCount how many each
	// renderer made the browser keep.
	rels     map[uint64][2]uint64
	relCount map[*rendererProc]int
	// tabHandles are the handles that name a top-level traversable
	// rather than one renderer's window: a message or navigation for one
	// goes to the renderer of the traversable's active document
	// (tabState.cur), whichever renderer gave the handle.
	tabHandles map[uint64]*tabState
}

// Bounds of what one renderer makes the browser process keep.
const (
	// maxLinks bounds the live MessagePort links a renderer made: past
	// it the renderer is killed.
	maxLinks = 1 << 16
	// maxPopups bounds the live renderers of the popups one renderer
	// opened in other renderers: past it window.open gives null.
	maxPopups = 32
)

// msgLink is a link's two renderers (a made it).
type msgLink struct{ a, b *rendererProc }

// deleteLink forgets a link (under m.mu).
func (m *msgRouter) deleteLink(id uint64, l *msgLink) {
	delete(m.links, id)
	if m.made[l.a]--; m.made[l.a] <= 0 {
		delete(m.made, l.a)
	}
}

// other is the link's end that is not p (nil when p is neither).
func (l *msgLink) other(p *rendererProc) *rendererProc {
	switch p {
	case l.a:
		return l.b
	case l.b:
		return l.a
	}
	return nil
}

// add makes p reachable by its number.
func (m *msgRouter) add(p *rendererProc) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.procs == nil {
		m.procs = map[uint64]*rendererProc{}
		m.granted = map[*rendererProc]map[uint64]struct{}{}
		m.links = map[uint64]*msgLink{}
		m.made = map[*rendererProc]int{}
		m.popups = map[*rendererProc]int{}
		m.openerOf = map[*rendererProc]*rendererProc{}
		m.tabHandles = map[uint64]*tabState{}
		m.lengths = map[uint64]uint32{}
		m.rels = map[uint64][2]uint64{}
		m.relCount = map[*rendererProc]int{}
	}
	m.procs[p.id] = p
}

// destLocked is the renderer hosting the window of handle h: the
// renderer of its traversable's active document for a handle that names
// a traversable, else the renderer that gave it (nil: ended). Under m.mu.
func (m *msgRouter) destLocked(h uint64) *rendererProc {
	if t := m.tabHandles[h]; t != nil {
		if p := t.cur.Load(); p != nil && m.procs[p.id] == p {
			return p
		}
		return nil
	}
	return m.procs[h>>32]
}

// hostsLocked reports whether p hosts the window of handle h (it may send
// as that window). Under m.mu.
func (m *msgRouter) hostsLocked(p *rendererProc, h uint64) bool {
	if t := m.tabHandles[h]; t != nil {
		return t.cur.Load() == p
	}
	return h>>32 == p.id
}

// hosts is hostsLocked with m.mu taken.
func (m *msgRouter) hosts(p *rendererProc, h uint64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hostsLocked(p, h)
}

// bindTab makes handle h (a window its renderer opened for t) name the
// traversable t, whose opener is the window of handle opener (0: none).
func (m *msgRouter) bindTab(h uint64, t *tabState, opener uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tabHandles == nil {
		return
	}
	m.tabHandles[h] = t
	t.handles = append(t.handles, h)
	if t.opener == 0 {
		t.opener = opener
	}
}

// bindHandles makes the handles that from, whose document of t is active,
// gave its windows of t name t, and records t's opener (a handle from
// hosts or was given) when the browser process knows none yet. It reports
// false, and kills from, for a handle that is not from's or that names
// another traversable, or an opener from cannot name.
func (m *msgRouter) bindHandles(from *rendererProc, t *tabState, hs []uint64, opener uint64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tabHandles == nil {
		return false
	}
	for _, h := range hs {
		if o := m.tabHandles[h]; (o == nil && h>>32 != from.id) || (o != nil && o != t) {
			from.refuse("a handoff naming window %#x, which is not its", h)
			return false
		}
	}
	if opener != 0 && t.opener == 0 {
		if _, given := m.granted[from][opener]; !given && !m.hostsLocked(from, opener) {
			from.refuse("a handoff whose opener is window %#x, which it was not given", opener)
			return false
		}
		t.opener = opener
	}
	for _, h := range hs {
		if m.tabHandles[h] == nil {
			m.tabHandles[h] = t
			t.handles = append(t.handles, h)
		}
		// from's windows keep reaching the traversable through them.
		m.grantLocked(from, h)
	}
	return true
}

// groupOf is the browsing context group of the traversable that handle h
// names (nil: h names none).
func (m *msgRouter) groupOf(h uint64) *bcGroup {
	m.mu.Lock()
	t := m.tabHandles[h]
	m.mu.Unlock()
	if t == nil {
		return nil
	}
	return t.group.Load()
}

// handlesOf are the handles that name t and its opener's.
func (m *msgRouter) handlesOf(t *tabState) ([]uint64, uint64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]uint64(nil), t.handles...), t.opener
}

// grant lets p send to the window of handle h.
func (m *msgRouter) grant(p *rendererProc, h uint64) {
	m.mu.Lock()
	tell := m.grantLocked(p, h)
	m.mu.Unlock()
	m.tell(p, tell)
}

// grantLocked grants p handle h, and, for a frame's window, the handles
// of its top-level window and parent (its stand-in's top and parent); it
// returns what p must learn about them: their windows' numbers of child
// navigables (when not 0) and the frames' relatives.
func (m *msgRouter) grantLocked(p *rendererProc, h uint64) []*rendererpb.Command {
	if m.granted == nil {
		return nil
	}
	g := m.granted[p]
	if g == nil {
		g = map[uint64]struct{}{}
		m.granted[p] = g
	}
	var out []*rendererpb.Command
	count := func(h uint64) {
		if n := m.lengths[h]; n > 0 {
			out = append(out, &rendererpb.Command{Command: &rendererpb.Command_ChildCount{ChildCount: &rendererpb.ChildCount{Window: h, Length: n}}})
		}
	}
	for range 64 { // (a frame's ancestors: bounded depth)
		if _, ok := g[h]; ok {
			return out
		}
		g[h] = struct{}{}
		count(h)
		r, ok := m.rels[h]
		if !ok {
			return out
		}
		out = append(out, &rendererpb.Command{Command: &rendererpb.Command_Relatives{Relatives: &rendererpb.Relatives{Window: h, Top: r[0], Parent: r[1]}}})
		if _, ok := g[r[0]]; !ok {
			g[r[0]] = struct{}{}
			count(r[0])
		}
		h = r[1]
	}
	return out
}

// tell sends p what grantLocked said it must learn.
func (m *msgRouter) tell(p *rendererProc, cmds []*rendererpb.Command) {
	for _, c := range cmds {
		p.forward(c, 64)
	}
}

// sendCount tells p the number n of child navigables of the window of
// handle h.
func (m *msgRouter) sendCount(p *rendererProc, h uint64, n int) {
	p.forward(&rendererpb.Command{Command: &rendererpb.Command_ChildCount{ChildCount: &rendererpb.ChildCount{Window: h, Length: uint32(n)}}}, 64)
}

// maxRelatives bounds the frames' relatives one renderer makes the
// browser process keep (past it, they are dropped).
const maxRelatives = 1 << 16

// relatives records the top-level window and parent of the window of a
// frame p hosts (handles of p's windows: others are dropped), and passes
// them on, with the grant of the two handles, to the renderers given the
// frame's handle.
func (m *msgRouter) relatives(p *rendererProc, r *rendererpb.Relatives) {
	h := r.GetWindow()
	m.mu.Lock()
	if m.rels == nil || !m.hostsLocked(p, h) || !m.hostsLocked(p, r.GetTop()) || !m.hostsLocked(p, r.GetParent()) || m.relCount[p] >= maxRelatives {
		m.mu.Unlock()
		return
	}
	if _, ok := m.rels[h]; ok {
		m.mu.Unlock()
		return
	}
	m.rels[h] = [2]uint64{r.GetTop(), r.GetParent()}
	m.relCount[p]++
	tells := map[*rendererProc][]*rendererpb.Command{}
	for q, g := range m.granted {
		if _, ok := g[h]; ok {
			// Granting h again tells q its relatives.
			delete(g, h)
			tells[q] = m.grantLocked(q, h)
		}
	}
	m.mu.Unlock()
	for q, cmds := range tells {
		m.tell(q, cmds)
	}
}

// childCount records the number of child navigables of a window that p
// hosts and passes it on to the renderers given its handle. A report for
// a window p no longer hosts (its navigable moved meanwhile) or that no
// renderer was given is dropped.
func (m *msgRouter) childCount(p *rendererProc, c *rendererpb.ChildCount) {
	h := c.GetWindow()
	m.mu.Lock()
	if m.lengths == nil || !m.hostsLocked(p, h) || m.lengths[h] == c.GetLength() {
		m.mu.Unlock()
		return
	}
	var to []*rendererProc
	for q, g := range m.granted {
		if _, ok := g[h]; ok {
			to = append(to, q)
		}
	}
	if len(to) == 0 && m.tabHandles[h] == nil {
		m.mu.Unlock()
		return
	}
	m.lengths[h] = c.GetLength()
	m.mu.Unlock()
	for _, q := range to {
		m.sendCount(q, h, int(c.GetLength()))
	}
}

// resetCounts records that the windows of t's handles have no child
// navigable (a new document becomes active in another renderer), and
// tells the renderers given them.
func (m *msgRouter) resetCounts(t *tabState) {
	type note struct {
		to *rendererProc
		h  uint64
	}
	var notes []note
	m.mu.Lock()
	for _, h := range t.handles {
		if m.lengths[h] == 0 {
			continue
		}
		delete(m.lengths, h)
		for q, g := range m.granted {
			if _, ok := g[h]; ok {
				notes = append(notes, note{q, h})
			}
		}
	}
	m.mu.Unlock()
	for _, n := range notes {
		m.sendCount(n.to, n.h, 0)
	}
}

// remove forgets an ended renderer: the other ends of its links are
// closed, and the renderers that could reach its windows learn they are
// gone.
func (m *msgRouter) remove(p *rendererProc) {
	type note struct {
		to *rendererProc
		c  *rendererpb.Command
	}
	var notes []note
	m.mu.Lock()
	delete(m.procs, p.id)
	delete(m.granted, p)
	delete(m.popups, p)
	if o := m.openerOf[p]; o != nil {
		delete(m.openerOf, p)
		if m.popups[o]--; m.popups[o] <= 0 {
			delete(m.popups, o)
		}
	}
	for id, l := range m.links {
		if o := l.other(p); o != nil {
			m.deleteLink(id, l)
			if o != p {
				notes = append(notes, note{o, &rendererpb.Command{Command: &rendererpb.Command_PortClosed{PortClosed: &rendererpb.PortClosed{Link: id}}}})
			}
		}
	}
	for q, g := range m.granted {
		for h := range g {
			// (It stays granted: posting to a closed window is no
			// forgery; the message goes nowhere.)
			if t := m.tabHandles[h]; (t != nil && t.cur.Load() == p) || (t == nil && h>>32 == p.id) {
				notes = append(notes, note{q, &rendererpb.Command{Command: &rendererpb.Command_Gone{Gone: &rendererpb.WindowGone{Window: h}}}})
			}
		}
	}
	for h := range m.rels {
		if h>>32 == p.id {
			delete(m.rels, h)
		}
	}
	delete(m.relCount, p)
	for h := range m.lengths {
		if t := m.tabHandles[h]; (t != nil && t.cur.Load() == p) || (t == nil && h>>32 == p.id) {
			delete(m.lengths, h)
		}
	}
	for _, host := range m.removeWorkers(p) {
		notes = append(notes, note{host, &rendererpb.Command{Command: &rendererpb.Command_SharedWorkerOwnerGone{SharedWorkerOwnerGone: &rendererpb.SharedWorkerOwnerGone{Owner: p.id}}}})
	}
	m.mu.Unlock()
	for _, n := range notes {
		n.to.forward(n.c, 64)
	}
}

// refuse logs a renderer's forged message and kills the renderer.
func (p *rendererProc) refuse(format string, args ...any) {
	reason := fmt.Sprintf(format, args...) + fmt.Sprintf(" from renderer %d (%s)", p.pid, p.site.Serialize())
	p.b.log("browser: refused " + reason + "; killing it")
	p.kill("killed by the browser process: " + reason)
}

// ofSite reports whether the serialized origin o is of p's site (opaque
// origins are of no site).
func (p *rendererProc) ofSite(o string) bool {
	org := origin.Parse(o)
	return !org.IsOpaque() && origin.ObtainSite(org) == p.site
}

// addLinks records the links a message from p carries, to p and to; it
// reports false (p forged one) for a link not numbered by p or reused.
func (m *msgRouter) addLinks(p, to *rendererProc, links []uint64) bool {
	for _, id := range links {
		if id>>32 != p.id || m.links[id] != nil {
			p.refuse("a MessagePort link %#x it cannot make", id)
			return false
		}
	}
	if m.made[p]+len(links) > maxLinks {
		p.refuse("more than %d MessagePort links", maxLinks)
		return false
	}
	for _, id := range links {
		m.links[id] = &msgLink{a: p, b: to}
	}
	m.made[p] += len(links)
	return true
}

// closeLinks tells p that the links of a message that went nowhere are
// closed (their ports in p are disentangled).
func closeLinks(p *rendererProc, links []uint64) {
	for _, id := range links {
		p.forward(&rendererpb.Command{Command: &rendererpb.Command_PortClosed{PortClosed: &rendererpb.PortClosed{Link: id}}}, 64)
	}
}

// post passes a renderer's window.postMessage on to the target's
// renderer; false: refused (the renderer is killed).
func (m *msgRouter) post(p *rendererProc, w *rendererpb.WindowMessage) bool {
	if !m.hosts(p, w.GetSource()) {
		p.refuse("a postMessage as window %#x, which it does not host", w.GetSource())
		return false
	}
	if !p.ofSite(w.GetSourceOrigin()) {
		p.refuse("a postMessage with the source origin %.100q", w.GetSourceOrigin())
		return false
	}
	m.mu.Lock()
	if _, ok := m.granted[p][w.GetTarget()]; !ok {
		m.mu.Unlock()
		p.refuse("a postMessage to window %#x, which it was not given", w.GetTarget())
		return false
	}
	to := m.destLocked(w.GetTarget())
	// The browser process's origin check: a message for another site
	// than the target's never reaches its renderer (which checks the
	// exact origin).
	if to == nil || (w.GetTargetOrigin() != "" && !to.ofSite(w.GetTargetOrigin())) {
		m.mu.Unlock()
		if !m.checkLinks(p, w.GetPorts()) {
			return false
		}
		closeLinks(p, w.GetPorts())
		return true
	}
	if !m.addLinks(p, to, w.GetPorts()) {
		m.mu.Unlock()
		return false
	}
	// The target may answer the source (MessageEvent.source).
	tell := m.grantLocked(to, w.GetSource())
	m.mu.Unlock()
	m.tell(to, tell)
	to.forward(&rendererpb.Command{Command: &rendererpb.Command_Post{Post: w}}, len(w.GetMessage())+8*len(w.GetPorts())+64)
	return true
}

// navigate passes a renderer's navigation of a window of another renderer
// (its stand-in's location setter, href setter or replace()) on to the
// window's renderer; false: refused (the renderer is killed): a window it
// was not given, or not an absolute http(s) URL (the renderer sends no
// other). A window whose renderer ended is not navigated.
func (m *msgRouter) navigate(p *rendererProc, n *rendererpb.NavigateWindow) bool {
	m.mu.Lock()
	_, ok := m.granted[p][n.GetWindow()]
	to := m.destLocked(n.GetWindow())
	m.mu.Unlock()
	if !ok {
		p.refuse("a navigation of window %#x, which it was not given", n.GetWindow())
		return false
	}
	u, err := url.Parse(n.GetUrl())
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.refuse("a navigation to %.200q, not an http(s) URL", n.GetUrl())
		return false
	}
	if to != nil {
		to.forward(&rendererpb.Command{Command: &rendererpb.Command_NavigateWindow{NavigateWindow: &rendererpb.NavigateWindow{
			Window: n.GetWindow(), Url: u.String(), Replace: n.GetReplace(),
		}}}, len(n.GetUrl())+64)
	}
	return true
}

// checkLinks refuses links p cannot make (for a message that goes
// nowhere).
func (m *msgRouter) checkLinks(p *rendererProc, links []uint64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, id := range links {
		if id>>32 != p.id || m.links[id] != nil {
			p.refuse("a MessagePort link %#x it cannot make", id)
			return false
		}
	}
	return true
}

// portMessage passes a message through a link to its other end.
func (m *msgRouter) portMessage(p *rendererProc, pm *rendererpb.PortMessage) bool {
	m.mu.Lock()
	l := m.links[pm.GetLink()]
	if l == nil {
		// Closed meanwhile (a number that was never a link delivers
		// nothing either): the message is dropped, its ports closed.
		m.mu.Unlock()
		if !m.checkLinks(p, pm.GetPorts()) {
			return false
		}
		closeLinks(p, pm.GetPorts())
		return true
	}
	to := l.other(p)
	if to == nil {
		m.mu.Unlock()
		p.refuse("a message through MessagePort link %#x, which is not its", pm.GetLink())
		return false
	}
	if !m.addLinks(p, to, pm.GetPorts()) {
		m.mu.Unlock()
		return false
	}
	m.mu.Unlock()
	to.forward(&rendererpb.Command{Command: &rendererpb.Command_PortMessage{PortMessage: pm}}, len(pm.GetMessage())+8*len(pm.GetPorts())+64)
	return true
}

// portClosed passes a link's close to its other end.
func (m *msgRouter) portClosed(p *rendererProc, pc *rendererpb.PortClosed) bool {
	m.mu.Lock()
	l := m.links[pc.GetLink()]
	if l == nil {
		m.mu.Unlock()
		return true // closed by the other side too
	}
	to := l.other(p)
	if to == nil {
		m.mu.Unlock()
		p.refuse("a close of MessagePort link %#x, which is not its", pc.GetLink())
		return false
	}
	m.deleteLink(pc.GetLink(), l)
	m.mu.Unlock()
	to.forward(&rendererpb.Command{Command: &rendererpb.Command_PortClosed{PortClosed: pc}}, 64)
	return true
}

// closePopup is window.close() from p of the window of handle h in
// another renderer: a popup whose opener p hosts closes (its renderers
// end), wherever its active document is; other windows ignore it.
func (m *msgRouter) closePopup(p *rendererProc, h uint64) {
	m.mu.Lock()
	t := m.tabHandles[h]
	ok := t != nil && t.opener != 0 && m.destLocked(t.opener) == p
	m.mu.Unlock()
	if !ok {
		return
	}
	if t.win == nil {
		// A popup that moved from its opener's renderer (no embedder
		// Window): its renderers destroy it.
		go p.b.closeTab(t)
		return
	}
	if w := t.win; w != nil {
		// Not on p's control channel: closing waits for the renderer.
		go w.Close()
	}
}

// OpenPopup opens a renderer's window.open of another site's URL in a new
// renderer of that site.
func (h *hostServer) OpenPopup(ctx context.Context, req *rendererpb.OpenPopupRequest) (*rendererpb.OpenPopupReply, error) {
	p := h.p
	if req.GetOpener() != 0 && !p.b.router.hosts(p, req.GetOpener()) {
		p.refuse("a popup whose opener is window %#x, which it does not host", req.GetOpener())
		return nil, status.Error(codes.PermissionDenied, "not the renderer's window")
	}
	u, err := url.Parse(req.GetUrl())
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return &rendererpb.OpenPopupReply{Error: fmt.Sprintf("not an http(s) URL: %.200q", req.GetUrl())}, nil
	}
	r := &p.b.router
	r.mu.Lock()
	if r.popups[p] >= maxPopups {
		r.mu.Unlock()
		return &rendererpb.OpenPopupReply{Error: fmt.Sprintf("more than %d popups in other renderers", maxPopups)}, nil
	}
	r.popups[p]++ // the opener is live: add ran
	r.mu.Unlock()
	w, err := p.b.startRendererWith(ctx, u.String(), nil, req.GetOpener())
	if err == nil {
		r.mu.Lock()
		if pp := w.remote.proc(); r.procs[pp.id] != nil {
			r.openerOf[pp] = p
			r.mu.Unlock()
		} else {
			r.mu.Unlock()
			err = errors.New("the popup's renderer ended")
		}
	}
	if err != nil {
		r.mu.Lock()
		if r.popups[p]--; r.popups[p] <= 0 {
			delete(r.popups, p)
		}
		r.mu.Unlock()
		return &rendererpb.OpenPopupReply{Error: err.Error()}, nil
	}
	handle := w.remote.handle
	p.b.router.grant(p, handle)
	return &rendererpb.OpenPopupReply{Window: handle}, nil
}

// tabGone tells the renderers that were given a handle of t that its
// window is gone (t was closed).
func (m *msgRouter) tabGone(t *tabState) {
	type note struct {
		to *rendererProc
		h  uint64
	}
	var notes []note
	m.mu.Lock()
	for q, g := range m.granted {
		for _, h := range t.handles {
			if _, ok := g[h]; ok {
				notes = append(notes, note{q, h})
			}
		}
	}
	m.mu.Unlock()
	for _, n := range notes {
		n.to.forward(&rendererpb.Command{Command: &rendererpb.Command_Gone{Gone: &rendererpb.WindowGone{Window: n.h}}}, 64)
	}
}
