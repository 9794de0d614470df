package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/browser/ipc"
	"github.com/gowebengine/weblocks/browser/ipc/rendererpb"
	"github.com/gowebengine/weblocks/internal/childproc"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/storage"
	"github.com/gowebengine/weblocks/weblocks/htmlhost"
	"google.golang.org/grpc"
)

// This file is the browser process's side of renderer processes
// (Config.Process RendererProcesses): starting a renderer per top-level
// window, serving it (the lock service, the control channel, the
// network), and learning why it ended.

// lockServer is the browser's lock server (created on first use): the
// user agent's lock service, served to every renderer.
func (b *Browser) lockServer() *ipc.LockServer {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.locks == nil {
		b.locks = ipc.NewLockServer(htmlhost.ServiceOf(b.eng.ua), func(format string, args ...any) {
			b.log("browser: " + fmt.Sprintf(format, args...))
		})
	}
	return b.locks
}

// rendererProc is one renderer process, as the browser process sees it.
type rendererProc struct {
	b      *Browser
	cmd    *exec.Cmd
	stderr *childproc.HeadBuffer
	served *ipc.Served

	site origin.Site
	// id is its id in the browser's tabRegistry, and the high bits of the
	// handles of its windows and traversables and of the links it makes
	// (renderer_messaging.go, renderer_tabs.go).
	id  uint64
	fwd *forwardQueue // broadcasts of other renderers, to send

	ready  chan struct{} // closed when the renderer reported Ready
	exited chan struct{} // closed when the process has been waited for

	sendMu sync.Mutex
	ctl    rendererpb.Host_ControlServer

	mu       sync.Mutex
	closing  bool   // ended by Close: no OnExit
	killedBy string // why the browser process killed it
	err      *RendererExitError
	pid      int
	opened   chan *rendererpb.WindowOpened
	loaded   chan struct{}
	win      *Window
	started  bool // the window opened (OnExit then tells its end)
	nextEval uint64
	evals    map[uint64]chan evalResult
	// storageKeys are the storage keys of its localStorage calls so far
	// (at most maxStorageKeys).
	storageKeys map[storage.StorageKey]bool
}

// startRenderer opens a top-level window in a new renderer process: at
// rawURL, or with the document source when html is non-nil.
func (b *Browser) startRenderer(ctx context.Context, rawURL string, html *string) (*Window, error) {
	return b.startRendererWith(ctx, rawURL, html, 0)
}

// startRendererWith is startRenderer for a window whose opener is the
// window of handle opener in another renderer (0: none).
func (b *Browser) startRendererWith(ctx context.Context, rawURL string, html *string, opener uint64) (*Window, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("browser: bad URL: %v", err)
	}
	p, err := b.spawnRenderer(ctx, origin.ObtainSite(origin.FromURL(u)))
	if err != nil {
		return nil, err
	}
	if opener != 0 {
		b.router.grant(p, opener)
	}
	// The window exists for OnMessage and OnExit from now on (its URL is
	// the response's once opened).
	w := &Window{s: b, url: u, loaded: p.loaded, remote: &remoteWindow{p: p, window: 1}}
	// A popup is of its opener's browsing context group.
	var g *bcGroup
	if opener != 0 {
		g = b.router.groupOf(opener)
	}
	t := b.tabs.newTab(p, w, g)
	w.remote.tab = t.id
	// The window's handle names its traversable (its WindowProxy for
	// the windows of other renderers), wherever it navigates.
	w.remote.handle = p.id<<32 | 1
	b.router.bindTab(w.remote.handle, t, opener)
	p.mu.Lock()
	p.win = w
	p.mu.Unlock()
	opened, err := p.openWindow(ctx, 1, t.id, u, html, opener)
	if err != nil {
		p.close()
		return nil, err
	}
	if wu, err := url.Parse(opened.GetUrl()); err == nil {
		w.urlMu.Lock()
		w.url = wu
		w.urlMu.Unlock()
	}
	p.mu.Lock()
	p.started = true
	p.mu.Unlock()
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		p.close()
		return nil, ErrClosed
	}
	b.windows = append(b.windows, w)
	b.mu.Unlock()
	return w, nil
}

// spawnRenderer starts a renderer process of site and waits until it is
// ready.
func (b *Browser) spawnRenderer(ctx context.Context, site origin.Site) (*rendererProc, error) {
	rc := b.cfg.Renderer
	command := rc.Command
	if command == nil {
		if !rendererEntry.Load() {
			return nil, ErrNoRendererEntry
		}
		command = func() (*exec.Cmd, error) {
			exe, err := os.Executable()
			if err != nil {
				return nil, err
			}
			return exec.Command(exe), nil
		}
	}
	cmd, err := command()
	if err != nil {
		return nil, fmt.Errorf("browser: the renderer command: %w", err)
	}
	p := &rendererProc{b: b, cmd: cmd, stderr: &childproc.HeadBuffer{Max: 8 << 10}, site: site, fwd: newForwardQueue(),
		ready: make(chan struct{}), exited: make(chan struct{}), opened: make(chan *rendererpb.WindowOpened, 1),
		loaded: make(chan struct{}), evals: map[uint64]chan evalResult{}}
	b.tabs.addProc(p)
	set := rendererSettings{MaxStack: rc.MaxStack, MemoryLimit: rc.MemoryLimit, MaxProcs: rc.MaxProcs, Site: site.Serialize(), Inits: rc.Inits, ID: p.id, LockTransport: rc.LockTransport}
	_, set.RequestFetcher = b.fetcher.(RequestFetcher)
	if set.MaxStack <= 0 {
		set.MaxStack = DefaultRendererMaxStack
	}
	if set.MemoryLimit <= 0 {
		set.MemoryLimit = DefaultRendererMemoryLimit
	}
	if set.MaxProcs <= 0 {
		set.MaxProcs = DefaultRendererMaxProcs
	}
	js, _ := json.Marshal(set)
	cmd.Args = append([]string{cmd.Args[0], RendererArg}, cmd.Args[1:]...)
	if cmd.Env == nil {
		cmd.Env = os.Environ()
	}
	cmd.Env = append(cmd.Env, rendererEnv+"="+string(js))
	browserEnd, rendererEnd, err := ipc.SocketPair()
	if err != nil {
		b.tabs.removeProc(p)
		return nil, err
	}
	cmd.ExtraFiles = []*os.File{rendererEnd}
	// The framed lock session's socket pairs: the renderer's fds 4 (the
	// calls it writes) and 5 (the events it reads).
	var locksEnd *ipc.FramedConn
	if set.LockTransport != LockTransportGRPC {
		var calls, events *os.File
		if locksEnd, calls, events, err = ipc.NewFramedPair(); err != nil {
			browserEnd.Close()
			rendererEnd.Close()
			b.tabs.removeProc(p)
			return nil, err
		}
		cmd.ExtraFiles = append(cmd.ExtraFiles, calls, events)
	}
	cmd.Stderr = p.stderr
	err = cmd.Start()
	for _, f := range cmd.ExtraFiles {
		f.Close()
	}
	if err != nil {
		browserEnd.Close()
		if locksEnd != nil {
			locksEnd.Close()
		}
		b.tabs.removeProc(p)
		return nil, fmt.Errorf("browser: starting a renderer: %w", err)
	}
	p.pid = cmd.Process.Pid
	b.router.add(p)
	p.served = b.lockServer().ServeConn(browserEnd, ipc.Peer{
		Name:           fmt.Sprintf("renderer %d (%s)", p.pid, site.Serialize()),
		Site:           site,
		Kill:           func(reason string) { p.kill("killed by the browser process: " + reason) },
		MaxOutstanding: rc.MaxOutstanding,
		Locks:          locksEnd,
		Services:       func(r grpc.ServiceRegistrar) { rendererpb.RegisterHostServer(r, &hostServer{p: p}) },
	})
	go p.wait()
	go p.forwardLoop()
	timeout := rc.StartTimeout
	if timeout <= 0 {
		timeout = DefaultRendererStart
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-p.ready:
		return p, nil
	case <-p.exited:
		return nil, p.exitErr()
	case <-timer.C:
		p.kill("killed by the browser process: it did not start within " + timeout.String())
		<-p.exited
		return nil, p.exitErr()
	case <-ctx.Done():
		p.close()
		return nil, ctx.Err()
	}
}

// openWindow opens the renderer's window id, of traversable tab, at u
// (with the document source html when non-nil), whose opener is the
// window of handle opener in another renderer (0: none), and returns once
// the renderer has it (WindowOpened).
func (p *rendererProc) openWindow(ctx context.Context, id, tab uint64, u *url.URL, html *string, opener uint64) (*rendererpb.WindowOpened, error) {
	open := &rendererpb.OpenWindow{Window: id, Url: u.String(), Tab: tab, Opener: opener}
	if html != nil {
		open.HasHtml, open.Html = true, *html
	}
	if err := p.send(&rendererpb.Command{Command: &rendererpb.Command_Open{Open: open}}); err != nil {
		return nil, err
	}
	var opened *rendererpb.WindowOpened
	select {
	case opened = <-p.opened:
	case <-p.exited:
		return nil, p.exitErr()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if opened.GetError() != "" {
		return nil, errors.New(opened.GetError())
	}
	return opened, nil
}

// wait waits for the process, then ends what it served.
func (p *rendererProc) wait() {
	werr := p.cmd.Wait()
	p.served.Close()
	p.b.router.remove(p)
	if r := p.b.swreg; r != nil {
		r.gone(p)
	}
	p.mu.Lock()
	reason := p.killedBy
	if reason == "" {
		reason = childproc.CrashReason(werr, p.stderr.String())
	}
	p.err = &RendererExitError{Reason: reason, Detail: p.stderr.Summary()}
	// A window that Open or Start did not return is not the embedder's.
	notify := !p.closing && p.started
	evals := p.evals
	p.evals = map[uint64]chan evalResult{}
	p.mu.Unlock()
	p.b.tabs.removeProc(p)
	close(p.exited)
	for _, ch := range evals {
		ch <- evalResult{err: p.err}
	}
	if !notify {
		return
	}
	// The embedder's windows whose traversables were active there learn
	// it (those whose documents moved to another renderer live on).
	for _, w := range p.b.tabs.windowsOn(p) {
		p.b.log(fmt.Sprintf("browser: %v: %v", w, p.err))
		if f := p.b.cfg.Renderer.OnExit; f != nil {
			f(w, p.err)
		}
	}
}

func (p *rendererProc) exitErr() error {
	<-p.exited
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// kill kills the renderer for reason.
func (p *rendererProc) kill(reason string) {
	p.mu.Lock()
	if p.killedBy == "" {
		p.killedBy = reason
	}
	p.mu.Unlock()
	_ = p.cmd.Process.Kill()
}

// close ends the renderer: its connection closes (the lock service
// terminates its clients) and it exits; one that does not is killed.
func (p *rendererProc) close() {
	p.mu.Lock()
	p.closing = true
	p.mu.Unlock()
	p.served.Close()
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		p.kill("killed by the browser process: it did not exit when closed")
		<-p.exited
	}
}

func (p *rendererProc) send(c *rendererpb.Command) error {
	p.sendMu.Lock()
	defer p.sendMu.Unlock()
	if p.ctl == nil {
		return ErrClosed
	}
	if err := p.ctl.Send(c); err != nil {
		return ErrClosed
	}
	return nil
}

// evaluate is Window.Evaluate in the renderer: in the active window of
// traversable tab (whose document a script may have navigated), or in its
// window id while the traversable has none there (id 0: none).
func (p *rendererProc) evaluate(ctx context.Context, id, tab uint64, expr string) (any, error) {
	ch := make(chan evalResult, 1)
	p.mu.Lock()
	if p.err != nil {
		err := p.err
		p.mu.Unlock()
		return nil, err
	}
	p.nextEval++
	eval := p.nextEval
	p.evals[eval] = ch
	p.mu.Unlock()
	e := &rendererpb.Evaluate{Eval: eval, Window: id, Tab: tab, Expr: expr}
	if err := p.send(&rendererpb.Command{Command: &rendererpb.Command_Evaluate{Evaluate: e}}); err != nil {
		p.mu.Lock()
		delete(p.evals, eval)
		closing := p.closing
		p.mu.Unlock()
		if closing {
			return nil, ErrClosed
		}
		// The control channel is gone: the renderer is ending (Control
		// kills one that is not); say why.
		select {
		case <-p.exited:
			return nil, p.exitErr()
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		p.mu.Lock()
		delete(p.evals, eval)
		p.mu.Unlock()
		return nil, ctx.Err()
	}
}

// result settles an evaluation with the renderer's answer.
func (p *rendererProc) result(r *rendererpb.EvalResult) {
	p.mu.Lock()
	ch := p.evals[r.GetEval()]
	delete(p.evals, r.GetEval())
	p.mu.Unlock()
	if ch == nil {
		return
	}
	var res evalResult
	switch r.GetKind() {
	case rendererpb.EvalResult_KIND_VALUE:
		res.v = unmarshalValue(r.GetJson())
	case rendererpb.EvalResult_KIND_THROWN, rendererpb.EvalResult_KIND_REJECTED:
		res.err = &EvalError{Value: unmarshalValue(r.GetJson()), Message: r.GetMessage(), Rejected: r.GetKind() == rendererpb.EvalResult_KIND_REJECTED}
	default:
		switch r.GetMessage() {
		case ErrClosed.Error():
			res.err = ErrClosed
		case ErrNotFullyActive.Error():
			res.err = ErrNotFullyActive
		default:
			res.err = errors.New(r.GetMessage())
		}
	}
	ch <- res
}

// unmarshalValue is the Go value of a renderer's JSON value, as sobek's
// Export gives it: integers as int64, other numbers as float64, objects
// as map[string]any, arrays as []any.
func unmarshalValue(js string) any {
	dec := json.NewDecoder(strings.NewReader(js))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return numbers(v)
}

func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
	}
	return v
}

// hostServer serves a renderer its control channel and the network.
type hostServer struct {
	rendererpb.UnimplementedHostServer
	p *rendererProc
}

// Control receives the renderer's reports; the browser process sends its
// commands on the same stream.
func (h *hostServer) Control(stream rendererpb.Host_ControlServer) error {
	p := h.p
	p.sendMu.Lock()
	if p.ctl != nil {
		p.sendMu.Unlock()
		p.kill("killed by the browser process: a second control channel")
		return errors.New("a second control channel")
	}
	p.ctl = stream
	p.sendMu.Unlock()
	for {
		rep, err := stream.Recv()
		if err != nil {
			// A renderer without its control channel is of no use: one
			// that does not exit (it usually is dying already: its
			// death closed the channel) is killed.
			go func() {
				select {
				case <-p.exited:
				case <-time.After(2 * time.Second):
					p.kill("killed by the browser process: its control channel closed")
				}
			}()
			return err
		}
		switch r := rep.Report.(type) {
		case *rendererpb.Report_Ready:
			select {
			case <-p.ready:
			default:
				if r := p.b.swreg; r != nil {
					r.initial(p)
				}
				close(p.ready)
			}
		case *rendererpb.Report_Opened:
			select {
			case p.opened <- r.Opened:
			default:
			}
		case *rendererpb.Report_Loaded:
			select {
			case <-p.loaded:
			default:
				close(p.loaded)
			}
		case *rendererpb.Report_Result:
			p.result(r.Result)
		case *rendererpb.Report_Broadcast:
			if !p.b.broadcast(p, r.Broadcast) {
				return errors.New("a broadcast for another site's storage key")
			}
		case *rendererpb.Report_Post:
			if !p.b.router.post(p, r.Post) {
				return errors.New("a refused postMessage")
			}
		case *rendererpb.Report_PortMessage:
			if !p.b.router.portMessage(p, r.PortMessage) {
				return errors.New("a refused port message")
			}
		case *rendererpb.Report_PortClosed:
			if !p.b.router.portClosed(p, r.PortClosed) {
				return errors.New("a refused port close")
			}
		case *rendererpb.Report_NavigateWindow:
			if !p.b.router.navigate(p, r.NavigateWindow) {
				return errors.New("a refused navigation")
			}
		case *rendererpb.Report_TabUrl:
			p.b.tabs.tabURL(p, r.TabUrl)
		case *rendererpb.Report_Relatives:
			p.b.router.relatives(p, r.Relatives)
		case *rendererpb.Report_ChildCount:
			p.b.router.childCount(p, r.ChildCount)
		case *rendererpb.Report_CloseWindow:
			p.b.router.closePopup(p, r.CloseWindow.GetWindow())
		case *rendererpb.Report_SharedWorkerReleased:
			if !p.b.router.sharedWorkerReleased(p, r.SharedWorkerReleased) {
				return errors.New("a refused shared worker release")
			}
		case *rendererpb.Report_SharedWorkerClosed:
			p.b.router.sharedWorkerClosed(p, r.SharedWorkerClosed)
		case *rendererpb.Report_SwJob, *rendererpb.Report_SwClient, *rendererpb.Report_SwWorkerCall,
			*rendererpb.Report_ServiceWorkerDone, *rendererpb.Report_FetchEventDone, *rendererpb.Report_SwMessage:
			if !p.b.swreg.report(p, rep) {
				return errors.New("a refused service worker call")
			}
		case *rendererpb.Report_Message:
			p.mu.Lock()
			w := p.win
			p.mu.Unlock()
			if f := p.b.cfg.Renderer.OnMessage; f != nil {
				f(w, r.Message.GetText())
			}
		case *rendererpb.Report_Console:
			p.b.log(r.Console.GetLine())
		case *rendererpb.Report_Handoff:
			p.b.handoff(p, r.Handoff)
		case *rendererpb.Report_Navigated:
			reply := navReply{url: r.Navigated.GetUrl()}
			if msg := r.Navigated.GetError(); msg != "" {
				reply.err = errNavigationFailed(msg)
			}
			p.b.tabs.navReplied(r.Navigated.GetNav(), reply)
		case *rendererpb.Report_Idle:
			go p.b.idle(p)
		case *rendererpb.Report_ScriptError:
			p.mu.Lock()
			w := p.win
			p.mu.Unlock()
			if p.b.cfg.OnError != nil {
				p.b.cfg.OnError(&ScriptError{Window: w, Rejection: r.ScriptError.GetRejection(), ScriptError: &bindings.ScriptError{Message: r.ScriptError.GetMessage()}})
			}
		}
	}
}

// Fetch fetches for the renderer with the browser's Fetcher.
func (h *hostServer) Fetch(ctx context.Context, req *rendererpb.FetchRequest) (*rendererpb.FetchResponse, error) {
	u, err := url.Parse(req.GetUrl())
	if err != nil {
		return &rendererpb.FetchResponse{Error: "bad URL: " + err.Error()}, nil
	}
	resp, err := h.p.b.fetcher.Fetch(ctx, u)
	if err != nil {
		return &rendererpb.FetchResponse{Error: err.Error()}, nil
	}
	out := &rendererpb.FetchResponse{Url: u.String(), Status: int32(resp.Status), ContentType: resp.ContentType, Charset: resp.Charset, Body: resp.Body}
	if resp.URL != nil {
		out.Url = resp.URL.String()
	}
	return out, nil
}

// Limits of what waits to be sent to one renderer from the others.
const (
	// maxForwardBytes bounds the bytes of messages of other renderers
	// waiting to be sent to one renderer: a sender past it waits (a
	// flooding renderer is throttled, never grows the browser process).
	maxForwardBytes = 32 << 20
	// defaultForwardPatience is how long a sender waits for a renderer
	// whose queue is full and that takes none of its messages before
	// that renderer, which does not read, is killed (so that it never
	// holds up the others).
	defaultForwardPatience = 10 * time.Second
)

// forwardPatience is defaultForwardPatience (tests shorten it).
var forwardPatience atomic.Int64

func init() { forwardPatience.Store(int64(defaultForwardPatience)) }

// forwardQueue is a renderer's queue of messages from the others.
type forwardQueue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []*rendererpb.Command
	sizes  []int
	bytes  int
	sent   uint64 // messages sent so far (the renderer's progress)
	closed bool
}

func newForwardQueue() *forwardQueue {
	q := &forwardQueue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// push queues c (size bytes), waiting while the queue is over
// maxForwardBytes; it reports false when the renderer took none of its
// messages for forwardPatience (it does not read them: a slow one that
// reads makes the sender wait longer), or the queue closed.
func (q *forwardQueue) push(c *rendererpb.Command, size int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.bytes > 0 && q.bytes+size > maxForwardBytes && !q.closed {
		sent, expired := q.sent, false
		t := time.AfterFunc(time.Duration(forwardPatience.Load()), func() {
			q.mu.Lock()
			expired = true
			q.cond.Broadcast()
			q.mu.Unlock()
		})
		for q.bytes > 0 && q.bytes+size > maxForwardBytes && !q.closed && !expired {
			q.cond.Wait()
		}
		t.Stop()
		if expired && q.sent == sent && q.bytes > 0 && q.bytes+size > maxForwardBytes {
			return false
		}
	}
	if q.closed {
		return false
	}
	q.items = append(q.items, c)
	q.sizes = append(q.sizes, size)
	q.bytes += size
	q.cond.Broadcast()
	return true
}

// pop takes the next message, waiting for one; ok is false once closed.
func (q *forwardQueue) pop() (*rendererpb.Command, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.cond.Wait()
	}
	if q.closed {
		return nil, false
	}
	c := q.items[0]
	q.items[0] = nil
	q.items = q.items[1:]
	return c, true
}

// done says the message pop returned was sent: its bytes are free.
func (q *forwardQueue) done() {
	q.mu.Lock()
	if len(q.sizes) == 0 { // closed meanwhile
		q.mu.Unlock()
		return
	}
	q.bytes -= q.sizes[0]
	q.sizes = q.sizes[1:]
	q.sent++
	q.cond.Broadcast()
	q.mu.Unlock()
}

func (q *forwardQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.items, q.sizes, q.bytes = nil, nil, 0
	q.cond.Broadcast()
	q.mu.Unlock()
}

// forwardLoop sends the renderer what other renderers broadcast.
func (p *rendererProc) forwardLoop() {
	select {
	case <-p.ready:
	case <-p.exited:
		p.fwd.close()
		return
	}
	go func() {
		<-p.exited
		p.fwd.close()
	}()
	for {
		c, ok := p.fwd.pop()
		if !ok {
			return
		}
		_ = p.send(c)
		p.fwd.done()
	}
}

// forward queues c for the renderer (see forwardQueue.push).
func (p *rendererProc) forward(c *rendererpb.Command, size int) {
	if !p.fwd.push(c, size) {
		select {
		case <-p.exited:
		default:
			p.kill("killed by the browser process: it does not read its messages")
		}
	}
}

// broadcast passes a renderer's BroadcastChannel message on to the other
// renderers of the browser that may use its storage key (which deliver it
// to their channels of that name and storage key). It reports false, and kills the renderer,
// for a storage key that is not of the renderer's site.
func (b *Browser) broadcast(from *rendererProc, m *rendererpb.Broadcast) bool {
	k := m.GetKey()
	o, tls := origin.Parse(k.GetOrigin()), origin.Parse(k.GetTopLevelSite())
	if o.IsOpaque() || (origin.ObtainSite(o) != from.site && origin.ObtainSite(tls) != from.site) {
		reason := fmt.Sprintf("a broadcast for the storage key of %.100s (top-level site %.100s) from a renderer of %s", k.GetOrigin(), k.GetTopLevelSite(), from.site.Serialize())
		b.log("browser: refused " + reason + "; killing it")
		from.kill("killed by the browser process: " + reason)
		return false
	}
	c := &rendererpb.Command{Command: &rendererpb.Command_Broadcast{Broadcast: m}}
	// Only the renderers that may use the storage key (as the sender
	// must) get the message: another site's renderer never sees it.
	var to []*rendererProc
	for _, p := range b.tabs.allProcs() {
		if p != from && (origin.ObtainSite(o) == p.site || origin.ObtainSite(tls) == p.site) {
			to = append(to, p)
		}
	}
	size := len(m.GetMessage()) + len(m.GetName()) + 64
	for _, p := range to {
		p.forward(c, size)
	}
	return true
}
