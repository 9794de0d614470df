package browser

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net/url"
	"sync"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/browser/ipc/rendererpb"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/origin"
	"github.com/grafana/sobek"
)

// Cross-process messaging, a renderer's side (renderer_messaging.go is
// the browser process's). window.open of another site's http(s) URL asks
// the browser process to open it in a renderer of that site (OpenPopup),
// and returns a WindowProxy stand-in for it (bindings' remote
// WindowProxy, as for windows of other agents in one process); the popup's
// window.opener is one for the opener, and so is the source of a message
// from a window of another renderer (one stand-in per window and
// handle: e.source === window.opener). Their postMessage serializes the
// message in the sender's realm (a DataCloneError is thrown before
// anything is sent) and sends it, with the sender's handle and origin,
// through the browser process.
//
// A transferred MessagePort stays in the sender's renderer as the
// link's stub: its messages (those its entangled port posts) go to the
// browser process, and the link's messages from the other renderer are
// posted through it to its entangled port. The receiving renderer makes a
// new channel per link: one port goes to the message's ports, the other
// is its stub. A port closed on one side (or whose renderer ends) closes
// the link: the other side's port is disentangled. A port sent on again
// to a third renderer chains two links through the middle renderer.

// rendererMsg is a renderer's messaging with the others (Browser.xproc).
type rendererMsg struct {
	r    *renderer
	host rendererpb.HostClient
	seq  uint64
	site origin.Site

	// openMu makes the renderer open one window at a time: pending
	// (under mu) is the window being opened (its handle and opener).
	openMu sync.Mutex

	mu        sync.Mutex
	pending   *rendererpb.OpenWindow
	nextLocal uint64
	handles   map[uint64]*Window
	ids       map[*Window]uint64
	proxies   map[proxyKey]*sobek.Object
	openers   map[*Window]uint64
	gone      map[uint64]bool
	nextLink  uint64
	links     map[uint64]*html.MessagePort // each link's stub
	// swOwners are the shared workers of this renderer that documents of
	// others own, by the link they connected through (renderer_sw.go).
	swOwners map[uint64]*html.SharedWorker
	// A handle names a navigable (a WindowProxy follows its browsing
	// context): frames are the navigables of handles, frameIDs the handle
	// each navigable's windows send as, frameOpeners the handle of each
	// top-level traversable's opener in another renderer. A traversable
	// that moved here from another renderer answers to the handles it
	// had there (adopt).
	frames       map[uint64]*frame
	frameIDs     map[*frame]uint64
	frameOpeners map[*frame]uint64
	// openedBy is the window here that opened the popup of each handle
	// (its navigable is the popup's opener: the stand-in's opener).
	openedBy map[uint64]*Window
	// lengths are the numbers of child navigables of the windows of other
	// renderers (a stand-in's length), countSent the number last reported
	// for each navigable here that has a handle.
	lengths   map[uint64]uint32
	countSent map[*frame]int
	// rels are the top-level window and parent of the windows of
	// frames of other renderers (a stand-in's top and parent).
	rels map[uint64][2]uint64
}

type proxyKey struct {
	w      *Window
	handle uint64
}

// firstLocalHandle is the first number a renderer gives its windows
// itself (below it: the windows the browser process opened).
const firstLocalHandle = 1 << 20

func newRendererMsg(r *renderer, host rendererpb.HostClient, seq uint64, site origin.Site) *rendererMsg {
	return &rendererMsg{r: r, host: host, seq: seq, site: site, nextLocal: firstLocalHandle,
		handles: map[uint64]*Window{}, ids: map[*Window]uint64{}, proxies: map[proxyKey]*sobek.Object{},
		openers: map[*Window]uint64{}, gone: map[uint64]bool{}, links: map[uint64]*html.MessagePort{},
		frames: map[uint64]*frame{}, frameIDs: map[*frame]uint64{}, frameOpeners: map[*frame]uint64{},
		openedBy: map[uint64]*Window{}, lengths: map[uint64]uint32{}, countSent: map[*frame]int{},
		rels: map[uint64][2]uint64{}}
}

// openWindow runs open (the renderer's Start of the window of o) so that
// the window it makes gets o's handle and opener (initWindow).
func (x *rendererMsg) openWindow(o *rendererpb.OpenWindow, open func() (*Window, error)) (*Window, error) {
	x.openMu.Lock()
	defer x.openMu.Unlock()
	x.mu.Lock()
	x.pending = o
	x.mu.Unlock()
	defer func() {
		x.mu.Lock()
		x.pending = nil
		x.mu.Unlock()
	}()
	return open()
}

// initWindow gives the top-level window being opened (InitWindow, before
// its scripts) its handle and opener.
func (x *rendererMsg) initWindow(w *Window) {
	x.mu.Lock()
	defer x.mu.Unlock()
	o := x.pending
	if o == nil || w.frame != nil || w.parentWin != nil || w.openerWin != nil {
		return
	}
	x.pending = nil
	h := x.seq<<32 | o.GetWindow()
	x.handles[h] = w
	x.ids[w] = h
	if o.GetOpener() != 0 {
		x.openers[w] = o.GetOpener()
	}
}

// handleOf is w's handle: its navigable's, given on first use.
func (x *rendererMsg) handleOf(w *Window) uint64 {
	x.mu.Lock()
	_, had := x.frameIDs[w.frame]
	h := x.handleOfLocked(w)
	var rels []*rendererpb.Relatives
	if !had {
		rels = x.relativesLocked(w, h)
	}
	x.mu.Unlock()
	// The renderers given a frame's handle learn its top-level window and
	// parent.
	for _, r := range rels {
		x.r.send(&rendererpb.Report{Report: &rendererpb.Report_Relatives{Relatives: r}})
	}
	if !had && w.frame != nil {
		// The renderers given the new handle learn its window's child
		// navigables.
		x.childCount(w, w.childNavigableCount())
	}
	return h
}

func (x *rendererMsg) handleOfLocked(w *Window) uint64 {
	if f := w.frame; f != nil {
		if h, ok := x.frameIDs[f]; ok {
			return h
		}
	}
	h, ok := x.ids[w]
	if !ok {
		h = x.seq<<32 | x.nextLocal
		x.nextLocal++
		x.handles[h] = w
		x.ids[w] = h
	}
	x.bindLocked(w, h)
	return h
}

// relativesLocked are the relatives of w, of handle h, when it is the
// window of a frame: its top-level window's and parent's handles (given
// now if need be), and those of its parent if its handle is new too.
func (x *rendererMsg) relativesLocked(w *Window, h uint64) []*rendererpb.Relatives {
	var out []*rendererpb.Relatives
	for w.parentWin != nil {
		p := w.parentWin
		top := p
		for top.parentWin != nil {
			top = top.parentWin
		}
		_, had := x.frameIDs[p.frame]
		if p.frame == nil {
			_, had = x.ids[p]
		}
		ph := x.handleOfLocked(p)
		out = append(out, &rendererpb.Relatives{Window: h, Top: x.handleOfLocked(top), Parent: ph})
		if had {
			break
		}
		w, h = p, ph
	}
	return out
}

// setRelatives records the relatives of a frame's window of another
// renderer.
func (x *rendererMsg) setRelatives(r *rendererpb.Relatives) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.rels[r.GetWindow()] = [2]uint64{r.GetTop(), r.GetParent()}
}

// relative is the stand-in in w's realm of the top-level window (i 0) or
// parent (i 1) of the frame's window of handle h (nil: h is a top-level
// window's, or its relatives are not known yet: the stand-in itself).
func (x *rendererMsg) relative(w *Window, h uint64, i int) sobek.Value {
	x.mu.Lock()
	r, ok := x.rels[h]
	x.mu.Unlock()
	if !ok {
		return nil
	}
	return x.proxy(w, r[i])
}

// bindLocked makes h name w's navigable (under x.mu).
func (x *rendererMsg) bindLocked(w *Window, h uint64) {
	f := w.frame
	if f == nil {
		return
	}
	x.frames[h] = f
	if _, ok := x.frameIDs[f]; !ok {
		x.frameIDs[f] = h
	}
	if o := x.openers[w]; o != 0 && x.frameOpeners[f] == 0 {
		x.frameOpeners[f] = o
	}
}

// bindFrame makes the handle and opener the browser process gave w (the
// window of an OpenWindow, which gets its traversable after InitWindow)
// those of its traversable.
func (x *rendererMsg) bindFrame(w *Window) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if h, ok := x.ids[w]; ok {
		x.bindLocked(w, h)
	}
}

// adopt makes f, a traversable whose active document moves here from
// another renderer, answer to its handles there, and gives it its opener
// in another renderer (0: none).
func (x *rendererMsg) adopt(f *frame, handles []uint64, opener uint64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, h := range handles {
		x.frames[h] = f
		if _, ok := x.frameIDs[f]; !ok {
			x.frameIDs[f] = h
		}
	}
	if opener != 0 {
		x.frameOpeners[f] = opener
	}
	delete(x.countSent, f)
}

// names are the handles that name f here and the handle of its opener
// (0: none), for a handoff. A traversable without a handle gets one: the
// windows here that keep reaching it (its opener's) reach it through it
// once it moved (frame.remoteHandle). A popup whose opener is here names
// it by the opener's handle.
func (x *rendererMsg) names(f *frame) ([]uint64, uint64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if _, ok := x.frameIDs[f]; !ok {
		h := x.seq<<32 | x.nextLocal
		x.nextLocal++
		x.frames[h] = f
		x.frameIDs[f] = h
	}
	var out []uint64
	for h, g := range x.frames {
		if g == f {
			out = append(out, h)
		}
	}
	opener := x.frameOpeners[f]
	if opener == 0 && f.popup && !f.noopener && f.parent != nil {
		opener = x.handleOfLocked(f.parent)
	}
	return out, opener
}

// closeRemote is close() of the window of handle h in another renderer:
// the browser process closes it if it is a popup whose opener is here.
func (x *rendererMsg) closeRemote(h uint64) {
	x.r.send(&rendererpb.Report{Report: &rendererpb.Report_CloseWindow{CloseWindow: &rendererpb.CloseWindow{Window: h}}})
}

// childCount reports the number n of child navigables of w, when w is
// the active window of a navigable with a handle and the browser process
// was told another number (nil x: not a renderer).
func (x *rendererMsg) childCount(w *Window, n int) {
	if x == nil || w == nil || w.frame == nil || w.frame.activeWindow() != w {
		return
	}
	f := w.frame
	x.mu.Lock()
	_, named := x.frameIDs[f]
	if !named || x.countSent[f] == n {
		x.mu.Unlock()
		return
	}
	x.countSent[f] = n
	var hs []uint64
	for h, g := range x.frames {
		if g == f {
			hs = append(hs, h)
		}
	}
	x.mu.Unlock()
	for _, h := range hs {
		x.r.send(&rendererpb.Report{Report: &rendererpb.Report_ChildCount{ChildCount: &rendererpb.ChildCount{Window: h, Length: uint32(n)}}})
	}
}

// tabURL tells the browser process the URL of w when w is the active
// window of a top-level traversable it knows (the embedder's Window of it
// has it; nil x: not a renderer).
func (x *rendererMsg) tabURL(w *Window) {
	if x == nil || w == nil || w.frame == nil || w.frame.el != nil {
		return
	}
	f := w.frame
	f.mu.Lock()
	tab, active := f.tab, f.child == w
	f.mu.Unlock()
	if tab == 0 || !active {
		return
	}
	x.r.send(&rendererpb.Report{Report: &rendererpb.Report_TabUrl{TabUrl: &rendererpb.TabURL{Tab: tab, Url: w.URL().String()}}})
}

// countGone forgets the number reported for f, whose active document
// moves to another renderer (which reports its own).
func (x *rendererMsg) countGone(f *frame) {
	if x == nil {
		return
	}
	x.mu.Lock()
	delete(x.countSent, f)
	x.mu.Unlock()
}

// setCount records the number of child navigables of the window of a
// handle of another renderer.
func (x *rendererMsg) setCount(c *rendererpb.ChildCount) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if c.GetLength() == 0 {
		delete(x.lengths, c.GetWindow())
		return
	}
	x.lengths[c.GetWindow()] = c.GetLength()
}

// isGone reports whether the window of handle h in another renderer is
// gone (its navigable closed, or its renderer ended).
func (x *rendererMsg) isGone(h uint64) bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.gone[h]
}

// remoteHandle is the handle that names f when its active document is
// in another renderer (a traversable that moved there); ok false: it is
// here (or nowhere).
func (f *frame) remoteHandle() (h uint64, ok bool) {
	if f == nil || f.s.xproc == nil {
		return 0, false
	}
	f.mu.Lock()
	moved := f.tab != 0 && !f.gone && f.child == nil && f.index >= 0 && f.index < len(f.entries) && f.entries[f.index].remote
	f.mu.Unlock()
	if !moved {
		return 0, false
	}
	x := f.s.xproc
	x.mu.Lock()
	defer x.mu.Unlock()
	h, ok = x.frameIDs[f]
	return h, ok
}

// resolve is the window that the handle h of this renderer reaches: the
// active window of its navigable (nil: none here, or none now).
func (x *rendererMsg) resolve(h uint64) *Window {
	x.mu.Lock()
	f := x.frames[h]
	w := x.handles[h]
	x.mu.Unlock()
	if f == nil && w != nil {
		f = w.frame
	}
	if f != nil {
		return f.activeWindow()
	}
	return w
}

// opener is window.opener of w when its opener is in another renderer
// (nil: none; x nil: not a renderer).
func (x *rendererMsg) opener(w *Window) sobek.Value {
	if x == nil {
		return nil
	}
	x.mu.Lock()
	h := x.openers[w]
	if f := w.frame; h == 0 && f != nil {
		h = x.frameOpeners[f]
	}
	x.mu.Unlock()
	if h == 0 {
		return nil
	}
	return x.proxy(w, h)
}

// open is window.open(u) of w in a renderer: another site's http(s) URL
// opens in a new renderer of that site; ok false: not such a URL (the
// window opens here).
func (x *rendererMsg) open(w *Window, u *url.URL, noopener bool) (sobek.Value, bool) {
	if x == nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, false
	}
	if origin.ObtainSite(origin.FromURL(u)) == x.site {
		return nil, false
	}
	req := &rendererpb.OpenPopupRequest{Url: u.String()}
	if !noopener {
		req.Opener = x.handleOf(w)
	}
	// The opener's event loop waits for the popup's window, as window.open
	// of a same-site URL waits for its document (loadNow).
	rep, err := x.host.OpenPopup(context.Background(), req)
	if err == nil && rep.GetError() != "" {
		err = errors.New(rep.GetError())
	}
	if err != nil {
		w.s.log("window.open " + u.String() + ": " + err.Error())
		return sobek.Null(), true
	}
	if noopener {
		return sobek.Null(), true
	}
	x.mu.Lock()
	x.openedBy[rep.GetWindow()] = w
	x.mu.Unlock()
	return x.proxy(w, rep.GetWindow()), true
}

// proxy is w's WindowProxy stand-in for the window of handle h in another
// renderer, one per (w, h). Call on w's event loop.
func (x *rendererMsg) proxy(w *Window, h uint64) *sobek.Object {
	k := proxyKey{w, h}
	x.mu.Lock()
	p := x.proxies[k]
	x.mu.Unlock()
	if p != nil {
		return p
	}
	p = w.realm.NewRemoteWindowProxy(bindings.RemoteWindowHooks{
		PostMessage: func(message sobek.Value, targetOrigin string, transfer []*sobek.Object) error {
			defer w.s.recoverNative()
			x.post(w, h, message, targetOrigin, transfer)
			return nil
		},
		Closed: func() bool { return x.isGone(h) },
		// A frame's top-level window and parent (a top-level window is
		// its own).
		Top:    func() sobek.Value { return x.relative(w, h, 0) },
		Parent: func() sobek.Value { return x.relative(w, h, 1) },
		// The number of its child navigables, as its renderer reported.
		Length: func() int {
			x.mu.Lock()
			defer x.mu.Unlock()
			return int(x.lengths[h])
		},
		// The browser process closes the window if it is a popup this
		// renderer opened.
		Close: func() { x.closeRemote(h) },
		// The popup's opener: the active window of the navigable of the
		// window here that opened it (null for other windows).
		Opener: func() sobek.Value {
			x.mu.Lock()
			o := x.openedBy[h]
			x.mu.Unlock()
			if o == nil {
				return nil
			}
			if f := o.frame; f != nil {
				o = f.activeWindow()
			}
			if o == nil {
				return nil
			}
			// (A window of another agent here than w's: null.)
			if v := w.view(o, nil); !sobek.IsNull(v) {
				return v
			}
			return nil
		},
		// The cross-origin location setter, href setter and replace():
		// the browser process has the window's renderer navigate it.
		Navigate: func(href string, replace bool) { x.navigate(w, h, href, replace) },
	})
	x.mu.Lock()
	if q := x.proxies[k]; q != nil {
		p = q
	} else {
		x.proxies[k] = p
	}
	x.mu.Unlock()
	return p
}

// navigate is a navigation of the window of handle h in another renderer
// by w's script, through its stand-in's Location (as navigateOther for a
// window of another agent in this renderer): the URL is parsed against
// w's API base URL (a SyntaxError of w's realm); an http(s) URL is sent to
// the browser process, which has the window's renderer navigate it. Other
// schemes are not sent (logged): a document of another renderer cannot
// be made to run the sender's javascript:, data: or blob: URLs.
func (x *rendererMsg) navigate(w *Window, h uint64, href string, replace bool) {
	u, err := parseURL(href, w.baseURL())
	if err != nil {
		panic(w.realm.NewDOMException("SyntaxError", "Failed to set the 'href' property on 'Location': The URL '"+href+"' is invalid."))
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		w.s.log("navigation of a window of another renderer to " + u.String() + ": not an http(s) URL; ignored")
		return
	}
	x.r.send(&rendererpb.Report{Report: &rendererpb.Report_NavigateWindow{NavigateWindow: &rendererpb.NavigateWindow{
		Window: h, Url: u.String(), Replace: replace,
	}}})
}

// navigateWindow is another renderer's script navigating a window of this
// renderer (the browser process checked that it was given the window):
// the window's navigable navigates as location.href = url (replace:
// location.replace(url)) there would, in a task of its event loop, with
// no source document here. A top-level traversable navigated to another
// site moves to a renderer of that site (navigation_swap.go). A window
// gone, or whose navigable has no active window here (it moved to
// another renderer), is not navigated.
func (x *rendererMsg) navigateWindow(m *rendererpb.NavigateWindow) {
	// The Location the handle reaches is that of its navigable's active
	// window (a WindowProxy follows its browsing context's navigations).
	w := x.resolve(m.GetWindow())
	u, err := url.Parse(m.GetUrl())
	if w == nil || err != nil || w.realm == nil {
		return
	}
	w.realm.QueueTask(func(*sobek.Runtime) {
		w.s.guard(func() {
			if !w.realmGone {
				w.navigate(u.String(), u, m.GetReplace(), nil, nil)
			}
		})
	})
}

// post is the window post message steps from w to the window of handle
// h: serialize in w's realm (throwing there), then send.
func (x *rendererMsg) post(w *Window, h uint64, message sobek.Value, targetOrigin string, transfer []*sobek.Object) {
	want := w.targetOrigin(targetOrigin)
	msg := w.s.serialize(w.realm, message, transfer)
	data, links := x.encode(msg)
	x.r.send(&rendererpb.Report{Report: &rendererpb.Report_Post{Post: &rendererpb.WindowMessage{
		Source: x.handleOf(w), Target: h, SourceOrigin: w.s.eng.OriginOf(w.env), TargetOrigin: want,
		Message: data, Ports: links,
	}}})
}

// The wire form of a message: its record (html's binary form), then its
// transfer data holders, each an ArrayBuffer's bytes or a MessagePort
// (the message's next link), with varint lengths.
const (
	wireBuffer = 0
	wirePort   = 1
)

// encode is msg on the wire; its ports become links (their stubs stay
// here).
func (x *rendererMsg) encode(msg html.SerializedWithTransfer) ([]byte, []uint64) {
	rec, _ := msg.Serialized.MarshalBinary()
	buf := binary.AppendUvarint(nil, uint64(len(rec)))
	buf = append(buf, rec...)
	buf = binary.AppendUvarint(buf, uint64(len(msg.TransferDataHolders)))
	var links []uint64
	for _, th := range msg.TransferDataHolders {
		switch v := th.(type) {
		case *html.TransferredArrayBuffer:
			buf = append(buf, wireBuffer)
			buf = binary.AppendUvarint(buf, uint64(len(v.Bytes)))
			buf = append(buf, v.Bytes...)
		case *html.MessagePort:
			buf = append(buf, wirePort)
			links = append(links, x.link(0, v))
		default:
			panic(fmt.Sprintf("browser: a transfer data holder of type %T", th))
		}
	}
	return buf, links
}

// wireChunk reads a varint length and that many bytes of data (ok false:
// malformed).
func wireChunk(data []byte) (chunk, rest []byte, ok bool) {
	n, k := binary.Uvarint(data)
	if k <= 0 || n > uint64(len(data)-k) {
		return nil, nil, false
	}
	return data[k : k+int(n)], data[k+int(n):], true
}

// decodeWire parses the wire form: the record, and the holders with nil
// for each port.
func decodeWire(data []byte) (*html.SerializedRecord, []any, bool) {
	recData, data, ok := wireChunk(data)
	if !ok {
		return nil, nil, false
	}
	var rec html.SerializedRecord
	if rec.UnmarshalBinary(recData) != nil {
		return nil, nil, false
	}
	n, k := binary.Uvarint(data)
	if k <= 0 || n > uint64(len(data)) {
		return nil, nil, false
	}
	data = data[k:]
	var holders []any
	for range n {
		if len(data) == 0 {
			return nil, nil, false
		}
		kind := data[0]
		data = data[1:]
		switch kind {
		case wirePort:
			holders = append(holders, nil)
		case wireBuffer:
			var b []byte
			if b, data, ok = wireChunk(data); !ok {
				return nil, nil, false
			}
			holders = append(holders, &html.TransferredArrayBuffer{Bytes: append([]byte{}, b...)})
		default:
			return nil, nil, false
		}
	}
	return &rec, holders, len(data) == 0
}

// decode is a message of the wire; each of its links gets a new channel
// here: one port for the message, the other the link's stub. ok false: a
// malformed message (its links are closed).
func (x *rendererMsg) decode(data []byte, links []uint64) (html.SerializedWithTransfer, bool) {
	rec, holders, ok := decodeWire(data)
	ports := 0
	for _, h := range holders {
		if h == nil {
			ports++
		}
	}
	if !ok || ports != len(links) {
		for _, id := range links {
			x.r.send(&rendererpb.Report{Report: &rendererpb.Report_PortClosed{PortClosed: &rendererpb.PortClosed{Link: id}}})
		}
		return html.SerializedWithTransfer{}, false
	}
	msg := html.SerializedWithTransfer{Serialized: rec, TransferDataHolders: holders}
	for i, h := range holders {
		if h != nil {
			continue
		}
		port, stub := html.NewMessageChannel()
		x.link(links[0], stub)
		links = links[1:]
		msg.TransferDataHolders[i] = port
	}
	return msg, true
}

// link makes stub the stub of link id (0: a new link of this renderer):
// what its entangled port posts goes through the link, and its
// entangled port's close closes the link.
func (x *rendererMsg) link(id uint64, stub *html.MessagePort) uint64 {
	x.mu.Lock()
	if id == 0 {
		x.nextLink++
		id = x.seq<<32 | x.nextLink
	}
	x.links[id] = stub
	x.mu.Unlock()
	stub.OnClose(func() {
		x.mu.Lock()
		own := x.links[id] == stub
		delete(x.links, id)
		x.mu.Unlock()
		if own {
			x.r.send(&rendererpb.Report{Report: &rendererpb.Report_PortClosed{PortClosed: &rendererpb.PortClosed{Link: id}}})
		}
	})
	// The stub's messages are sent at once, in order, on the goroutine
	// that posts them.
	stub.Attach(func(steps func()) bool { steps(); return true }, func(msg html.SerializedWithTransfer) {
		data, links := x.encode(msg)
		x.r.send(&rendererpb.Report{Report: &rendererpb.Report_PortMessage{PortMessage: &rendererpb.PortMessage{Link: id, Message: data, Ports: links}}})
	})
	stub.Start()
	return id
}

// deliver delivers another renderer's window message to its target here
// (dropped when the target is gone or its origin is not targetOrigin).
func (x *rendererMsg) deliver(m *rendererpb.WindowMessage) {
	// The message goes to the active window of the handle's navigable.
	w := x.resolve(m.GetTarget())
	msg, ok := x.decode(m.GetMessage(), m.GetPorts())
	if !ok {
		return
	}
	drop := func() {
		for _, th := range msg.TransferDataHolders {
			if p, ok := th.(*html.MessagePort); ok {
				p.Close()
			}
		}
	}
	if w == nil || !w.realm.QueueTask(func(*sobek.Runtime) {
		w.s.guard(func() {
			if w.realmGone || (m.GetTargetOrigin() != "" && m.GetTargetOrigin() != w.s.eng.OriginOf(w.env)) {
				drop()
				return
			}
			w.realm.DeliverMessage(nil, msg, m.GetSourceOrigin(), x.proxy(w, m.GetSource()))
		})
	}) {
		drop()
	}
}

// portMessage posts a link's message through its stub.
func (x *rendererMsg) portMessage(m *rendererpb.PortMessage) {
	x.mu.Lock()
	stub := x.links[m.GetLink()]
	x.mu.Unlock()
	msg, ok := x.decode(m.GetMessage(), m.GetPorts())
	if !ok {
		return
	}
	if stub == nil || stub.Entangled() == nil {
		for _, th := range msg.TransferDataHolders {
			if p, ok := th.(*html.MessagePort); ok {
				p.Close()
			}
		}
		return
	}
	stub.PostMessage(msg)
}

// portClosed closes a link's stub: its entangled port is disentangled.
func (x *rendererMsg) portClosed(m *rendererpb.PortClosed) {
	x.mu.Lock()
	stub := x.links[m.GetLink()]
	delete(x.links, m.GetLink())
	x.mu.Unlock()
	stub.Close()
}

// windowGone records that the window of a handle is gone.
func (x *rendererMsg) windowGone(m *rendererpb.WindowGone) {
	x.mu.Lock()
	x.gone[m.GetWindow()] = true
	x.mu.Unlock()
}
