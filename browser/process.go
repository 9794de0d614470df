package browser

import (
	"bytes"
	"context"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/browser/ipc"
	"github.com/gowebengine/weblocks/browser/ipc/rendererpb"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/internal/childproc"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/serviceworker"
	"github.com/gowebengine/weblocks/storage"
	"github.com/gowebengine/weblocks/weblocks/htmlhost"
)

// ProcessModel says where a Browser runs its pages (Config.Process).
type ProcessModel int

const (
	// SingleProcess runs every window in the embedder's process (the
	// default: tests, tiny embedders). A page that overflows its stack
	// or exhausts memory takes the whole process down.
	SingleProcess ProcessModel = iota
	// RendererProcesses runs each top-level window of Open and Start (a
	// new browsing context group) in a renderer process of its own, with
	// its same-site frames, popups and dedicated workers. The browser
	// process (the embedder's) keeps the user agent's shared state, the
	// lock service, and serves it to the renderers over gRPC (package
	// ipc). A renderer is the embedder's own executable started with the
	// hidden first argument RendererArg, so main must call
	// MaybeRunRenderer first thing, or RendererConfig.Command names
	// another program that does; without either, Open fails with
	// ErrNoRendererEntry (never a silent fallback to one process).
	RendererProcesses
)

func (m ProcessModel) String() string {
	switch m {
	case SingleProcess:
		return "single process"
	case RendererProcesses:
		return "renderer processes"
	}
	return fmt.Sprintf("ProcessModel(%d)", int(m))
}

// RendererArg is the hidden first argument that makes the embedder's
// executable a renderer process (MaybeRunRenderer).
const RendererArg = "__gowebengine-renderer"

// Defaults of RendererConfig.
const (
	DefaultRendererMemoryLimit = 1 << 30
	DefaultRendererMaxStack    = 64 << 20
	DefaultRendererStart       = 30 * time.Second
	DefaultRendererMaxProcs    = 1
)

// RendererConfig configures renderer processes (Config.Process
// RendererProcesses).
type RendererConfig struct {
	// Command returns the command that starts a renderer; the browser
	// adds RendererArg as its first argument, and the renderer's socket
	// as its file descriptor 3. Its main must call MaybeRunRenderer. Nil:
	// the running executable (os.Executable), whose main must have
	// called MaybeRunRenderer.
	Command func() (*exec.Cmd, error)
	// MemoryLimit is the memory (bytes) a renderer may use before its
	// watchdog ends it ("out of memory"); 0: DefaultRendererMemoryLimit.
	MemoryLimit int64
	// MaxStack bounds one goroutine's stack in a renderer (bytes): a
	// runaway recursion ends it with "stack overflow"; 0:
	// DefaultRendererMaxStack.
	MaxStack int
	// MaxProcs is a renderer's GOMAXPROCS: how many of its goroutines
	// (its event loops, its gRPC connection's) run at once; 0:
	// DefaultRendererMaxProcs, one. A renderer's windows share one
	// event loop, and the browser process and the other renderers share
	// the machine's cores: with one, a renderer's goroutine hand-offs
	// (the connection's reader to the event loop, the event loop to the
	// connection's writer) stay on its thread instead of waking an idle
	// one each time (measured on 2 cores: a cross-process lock cycle uses
	// about a fifth less CPU in the renderer). More lets the dedicated
	// workers of one page compute in parallel.
	MaxProcs int
	// StartTimeout bounds a renderer's start-up; 0: DefaultRendererStart.
	StartTimeout time.Duration
	// LockTransport is the transport of a renderer's lock session; the
	// zero value, LockTransportFramed, is the fast one.
	LockTransport LockTransport
	// MaxOutstanding bounds a renderer's outstanding lock requests,
	// queries and clients in the browser process; past it the renderer
	// is killed. 0: ipc.DefaultMaxOutstanding.
	MaxOutstanding int
	// Inits names functions registered with RegisterRendererInit that run
	// in every window of the renderers (as Config.InitWindow does in one
	// process, which cannot cross to another process).
	Inits []string
	// OnMessage (optional) receives what those functions post (w may be
	// a window that Open or Start has not returned yet).
	OnMessage func(w *Window, msg string)
	// OnExit (optional) learns that a window's renderer process ended
	// other than by Window.Close or Browser.Close: crashed, killed or
	// exited (not one that ended because it hosted nothing). w is the
	// embedder's window whose traversable was active there. The other
	// windows keep working, and Window.Navigate starts w again in a
	// fresh renderer.
	OnExit func(w *Window, err *RendererExitError)
}

// LockTransport is the transport of a renderer's session with the browser
// process's lock service (RendererConfig.LockTransport): the same lockspb
// calls and events either way, checked by the same code.
type LockTransport int

const (
	// LockTransportFramed frames the session's messages (length-prefixed
	// protobuf) on socket pairs of its own, one per direction, the
	// renderer's file descriptors 4 and 5 (ipc.NewFramedPair,
	// ipc.NewFramedRemoteService, ipc.Peer.Locks): a
	// deliberate deviation from gRPC for this one stream, which carries
	// every lock request, grant and release (see the package doc).
	LockTransportFramed LockTransport = iota
	// LockTransportGRPC runs the session as a gRPC stream on the
	// renderer's connection, with its other services.
	LockTransportGRPC
)

func (t LockTransport) String() string {
	switch t {
	case LockTransportFramed:
		return "framed"
	case LockTransportGRPC:
		return "gRPC"
	}
	return fmt.Sprintf("LockTransport(%d)", int(t))
}

// ErrNoRendererEntry: RendererProcesses without a way to start a renderer.
var ErrNoRendererEntry = errors.New("browser: Config.Process is RendererProcesses, but main did not call browser.MaybeRunRenderer() first and Config.Renderer.Command is nil")

// RendererExitError is why a window's renderer process ended.
type RendererExitError struct {
	// Reason is "stack overflow", "out of memory", "killed by a signal
	// (killed)", "killed by the browser process: ..." (a renderer that
	// broke the IPC rules), "panic", another Go fatal error, or "exit
	// status N".
	Reason string
	// Detail is the start of what the renderer wrote to stderr about it.
	Detail string
}

func (e *RendererExitError) Error() string {
	msg := "browser: the renderer process ended: " + e.Reason
	if e.Detail != "" {
		msg += " (" + e.Detail + ")"
	}
	return msg
}

// rendererEntry records that MaybeRunRenderer ran in this process.
var rendererEntry atomic.Bool

// MaybeRunRenderer turns the process into a renderer process when its
// first argument is RendererArg, and never returns then; otherwise it
// returns at once. Call it first thing in main (before flags are parsed),
// and in TestMain of tests that use RendererProcesses:
//
//	func main() {
//		browser.MaybeRunRenderer()
//		...
//	}
func MaybeRunRenderer() {
	rendererEntry.Store(true)
	if len(os.Args) < 2 || os.Args[1] != RendererArg {
		return
	}
	if err := runRenderer(); err != nil {
		fmt.Fprintln(os.Stderr, "renderer:", err)
		os.Exit(3)
	}
	os.Exit(0)
}

// rendererEnv is the environment variable that carries a renderer's
// settings.
const rendererEnv = "GOWEBENGINE_RENDERER"

type rendererSettings struct {
	MaxStack    int   `json:"max_stack"`
	MemoryLimit int64 `json:"memory_limit"`
	MaxProcs    int   `json:"max_procs"`
	// LockTransport is RendererConfig.LockTransport.
	LockTransport LockTransport `json:"lock_transport"`
	// Site is the renderer's site (serialized): its lock clients use
	// the storage keys of it.
	Site string `json:"site"`
	// Inits are RendererConfig.Inits.
	Inits []string `json:"inits"`
	// RequestFetcher: the browser's Fetcher is a RequestFetcher.
	RequestFetcher bool `json:"request_fetcher"`
	// ID is the renderer's id in the browser process: the high bits of
	// the handles of its windows, traversables and links
	// (renderer_messaging.go, renderer_tabs.go).
	ID uint64 `json:"id"`
}

// rendererInits are the functions of RegisterRendererInit.
var rendererInits sync.Map // name → func(*Window, func(string))

// RegisterRendererInit registers init under name: a renderer whose
// RendererConfig.Inits names it runs it in each of its windows, before
// their scripts, with post, which sends a message to the browser process
// (RendererConfig.OnMessage). Register in an init function of a package
// that both the embedder and its renderers (the same executable) import.
func RegisterRendererInit(name string, init func(w *Window, post func(msg string))) {
	rendererInits.Store(name, init)
}

// runRenderer is a renderer process: a Browser in one process whose
// windows the browser process commands, fetching through it, with its
// lock service.
func runRenderer() error {
	var set rendererSettings
	if err := json.Unmarshal([]byte(os.Getenv(rendererEnv)), &set); err != nil {
		return fmt.Errorf("bad %s: %v", rendererEnv, err)
	}
	childproc.Limit("renderer", set.MaxStack, set.MemoryLimit)
	if set.MaxProcs > 0 {
		runtime.GOMAXPROCS(set.MaxProcs)
	}
	conn, err := ipc.FileConn(os.NewFile(3, "ipc"))
	if err != nil {
		return err
	}
	cc, err := ipc.Connect(conn)
	if err != nil {
		return err
	}
	var locks *ipc.RemoteService
	if set.LockTransport == LockTransportGRPC {
		locks, err = ipc.NewRemoteService(cc, origin.ObtainSite(origin.Parse(set.Site)))
	} else {
		var lc *ipc.FramedConn
		if lc, err = ipc.FramedConnFromFiles(os.NewFile(4, "lock-calls"), os.NewFile(5, "lock-events")); err == nil {
			locks = ipc.NewFramedRemoteService(lc, origin.ObtainSite(origin.Parse(set.Site)))
		}
	}
	if err != nil {
		return err
	}
	host := rendererpb.NewHostClient(cc)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ctl, err := host.Control(ctx)
	if err != nil {
		return err
	}
	r := &renderer{ctl: ctl, windows: map[uint64]*Window{}, evals: map[*Window]map[*context.CancelCauseFunc]struct{}{}}
	var inits []func(*Window, func(string))
	for _, name := range set.Inits {
		f, ok := rendererInits.Load(name)
		if !ok {
			return fmt.Errorf("no renderer init function %q is registered (RegisterRendererInit)", name)
		}
		inits = append(inits, f.(func(*Window, func(string))))
	}
	var fetcher Fetcher = remoteFetcher{host}
	if set.RequestFetcher {
		fetcher = remoteRequestFetcher{remoteFetcher{host}}
	}
	x := newRendererMsg(r, host, set.ID, origin.ObtainSite(origin.Parse(set.Site)))
	r.b = New(Config{
		InitWindow: func(w *Window) {
			x.initWindow(w)
			post := func(msg string) {
				r.send(&rendererpb.Report{Report: &rendererpb.Report_Message{Message: &rendererpb.Message{Window: r.idOf(w), Text: msg}}})
			}
			for _, f := range inits {
				f(w, post)
			}
		},
		// A Go panic of the engine ends the renderer (its window's
		// RendererErr says "panic").
		OnPanic: func(v any, stack []byte) {
			fmt.Fprintf(os.Stderr, "panic: %v\n\n%s", v, stack)
			os.Exit(2)
		},
		Fetcher: fetcher,
		Console: func(line string) {
			r.send(&rendererpb.Report{Report: &rendererpb.Report_Console{Console: &rendererpb.Console{Line: line}}})
		},
		OnError: func(e *ScriptError) {
			r.send(&rendererpb.Report{Report: &rendererpb.Report_ScriptError{ScriptError: &rendererpb.ScriptError{
				Window: r.idOf(e.Window), Message: e.ScriptError.Message, Rejection: e.Rejection}}})
		},
	})
	r.b.xproc = x
	// Top-level traversables move to renderers of other sites
	// (navigation_swap.go).
	r.b.swap = newSwapper(origin.ObtainSite(origin.Parse(set.Site)), set.ID, r.send)
	r.b.swap.handles = x.names
	r.b.UserAgent().AddBackForwardCacheObserver(r.inactive)
	// BroadcastChannel messages cross to the other renderers through the
	// browser process.
	html.SetBroadcastRelay(r.b.UserAgent(), r.relayBroadcast)
	// localStorage areas are the browser process's.
	bindings.SetLocalStorageAreas(r.b.UserAgent(), remoteAreas(host))
	// So are the service worker registrations (serviceworker_remote.go).
	sw := &swMirror{r: r, x: x, host: host, site: origin.ObtainSite(origin.Parse(set.Site)), jobs: map[uint64]func(serviceworker.RemoteJobResult){}}
	serviceworker.UseRegistry(r.b.UserAgent(), sw)
	// The renderer's windows and workers use the browser process's lock
	// service.
	if err := htmlhost.UseService(r.b.UserAgent(), locks); err != nil {
		return err
	}
	r.send(&rendererpb.Report{Report: &rendererpb.Report_Ready{Ready: &rendererpb.Ready{Pid: int64(os.Getpid())}}})
	for {
		cmd, err := ctl.Recv()
		if err != nil {
			// The browser process is gone, or closed the window: the
			// renderer ends.
			return nil
		}
		switch c := cmd.Command.(type) {
		case *rendererpb.Command_Open:
			go r.open(c.Open)
		case *rendererpb.Command_Evaluate:
			go r.evaluate(c.Evaluate)
		case *rendererpb.Command_Broadcast:
			r.deliverBroadcast(c.Broadcast)
		case *rendererpb.Command_Post:
			x.deliver(c.Post)
		case *rendererpb.Command_PortMessage:
			x.portMessage(c.PortMessage)
		case *rendererpb.Command_PortClosed:
			x.portClosed(c.PortClosed)
		case *rendererpb.Command_Gone:
			x.windowGone(c.Gone)
		case *rendererpb.Command_Relatives:
			x.setRelatives(c.Relatives)
		case *rendererpb.Command_ChildCount:
			x.setCount(c.ChildCount)
		case *rendererpb.Command_NavigateWindow:
			x.navigateWindow(c.NavigateWindow)
		case *rendererpb.Command_ConnectSharedWorker:
			x.connectRemote(c.ConnectSharedWorker)
		case *rendererpb.Command_SharedWorkerOwnerGone:
			x.ownerGone(c.SharedWorkerOwnerGone)
		case *rendererpb.Command_SwState:
			sw.applyState(c.SwState)
		case *rendererpb.Command_SwJobResult:
			sw.jobResult(c.SwJobResult)
		case *rendererpb.Command_RunServiceWorker:
			go sw.run(c.RunServiceWorker)
		case *rendererpb.Command_ServiceWorkerEvent:
			sw.event(c.ServiceWorkerEvent)
		case *rendererpb.Command_TerminateServiceWorker:
			go serviceworker.TerminateMirrored(r.b.UserAgent(), c.TerminateServiceWorker.GetWorker())
		case *rendererpb.Command_SwMessage:
			sw.deliver(c.SwMessage)
		case *rendererpb.Command_DispatchFetchEvent:
			go sw.dispatch(c.DispatchFetchEvent)
		case *rendererpb.Command_Handoff:
			go r.takeOver(c.Handoff)
		case *rendererpb.Command_Navigate:
			go r.navigate(c.Navigate)
		case *rendererpb.Command_Close:
			r.mu.Lock()
			w := r.windows[c.Close.GetWindow()]
			delete(r.windows, c.Close.GetWindow())
			r.mu.Unlock()
			if tab := c.Close.GetTab(); tab != 0 {
				w = nil
				if f := r.b.swap.frameOf(tab); f != nil {
					w = f.activeWindow()
				}
			}
			if w != nil {
				w.Close()
			}
		}
	}
}

// renderer is the renderer process's state.
type renderer struct {
	b      *Browser
	ctl    rendererpb.Host_ControlClient
	sendMu sync.Mutex

	mu      sync.Mutex
	windows map[uint64]*Window
	// evals are the evaluations under way, each with the cancel of its
	// context: one whose window's document stops being fully active
	// (it went into the back/forward cache) ends with ErrNotFullyActive
	// rather than wait for a restore that may never come.
	evals map[*Window]map[*context.CancelCauseFunc]struct{}
}

// inactive ends the evaluations of windows whose documents are no longer
// fully active (a back/forward cache observer).
func (r *renderer) inactive() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for w, cancels := range r.evals {
		if d := w.Document(); d != nil && !d.IsFullyActive() {
			for c := range cancels {
				(*c)(ErrNotFullyActive)
			}
		}
	}
}

func (r *renderer) send(rep *rendererpb.Report) {
	r.sendMu.Lock()
	defer r.sendMu.Unlock()
	_ = r.ctl.Send(rep)
}

func (r *renderer) idOf(w *Window) uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, x := range r.windows {
		if x == w {
			return id
		}
	}
	return 0
}

func (r *renderer) open(o *rendererpb.OpenWindow) {
	w, err := r.b.xproc.openWindow(o, func() (*Window, error) {
		if o.GetHasHtml() {
			u, err := url.Parse(o.GetUrl())
			if err != nil {
				return nil, err
			}
			return r.b.StartHTML(u, o.GetHtml())
		}
		return r.b.Start(context.Background(), o.GetUrl())
	})
	if err != nil {
		r.send(&rendererpb.Report{Report: &rendererpb.Report_Opened{Opened: &rendererpb.WindowOpened{Window: o.GetWindow(), Error: err.Error()}}})
		return
	}
	r.mu.Lock()
	r.windows[o.GetWindow()] = w
	r.mu.Unlock()
	// Its handle and opener are its traversable's.
	r.b.xproc.bindFrame(w)
	if o.GetTab() != 0 && w.frame != nil {
		r.b.swap.register(w.frame, o.GetTab())
	}
	r.send(&rendererpb.Report{Report: &rendererpb.Report_Opened{Opened: &rendererpb.WindowOpened{Window: o.GetWindow(), Url: w.URL().String()}}})
	<-w.Loaded()
	r.send(&rendererpb.Report{Report: &rendererpb.Report_Loaded{Loaded: &rendererpb.WindowLoaded{Window: o.GetWindow()}}})
}

func (r *renderer) evaluate(e *rendererpb.Evaluate) {
	res := &rendererpb.EvalResult{Eval: e.GetEval()}
	r.mu.Lock()
	w := r.windows[e.GetWindow()]
	r.mu.Unlock()
	// The traversable's active window: a script navigation may have
	// replaced the window it was opened as (then, while the new one is
	// being made, the first one answers, or says it is gone).
	if e.GetTab() != 0 {
		var a *Window
		if f := r.b.swap.frameOf(e.GetTab()); f != nil {
			a = f.activeWindow()
		}
		if a != nil || e.GetWindow() == 0 {
			w = a
		}
	}
	if w == nil {
		res.Kind, res.Message = rendererpb.EvalResult_KIND_ERROR, ErrClosed.Error()
	} else if v, err := r.evaluateIn(w, e.GetExpr()); err != nil {
		var ee *EvalError
		if errors.As(err, &ee) {
			res.Kind, res.Message = rendererpb.EvalResult_KIND_THROWN, ee.Message
			if ee.Rejected {
				res.Kind = rendererpb.EvalResult_KIND_REJECTED
			}
			res.Json = marshalValue(ee.Value)
		} else {
			res.Kind, res.Message = rendererpb.EvalResult_KIND_ERROR, err.Error()
		}
	} else {
		res.Json = marshalValue(v)
	}
	r.send(&rendererpb.Report{Report: &rendererpb.Report_Result{Result: res}})
}

// evaluateIn is w.Evaluate, ended with ErrNotFullyActive when w's
// document goes into the back/forward cache meanwhile.
func (r *renderer) evaluateIn(w *Window, expr string) (any, error) {
	ctx, cancel := context.WithCancelCause(context.Background())
	r.mu.Lock()
	if r.evals[w] == nil {
		r.evals[w] = map[*context.CancelCauseFunc]struct{}{}
	}
	r.evals[w][&cancel] = struct{}{}
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.evals[w], &cancel)
		if len(r.evals[w]) == 0 {
			delete(r.evals, w)
		}
		r.mu.Unlock()
		cancel(nil)
	}()
	v, err := w.Evaluate(ctx, expr)
	if err != nil && ctx.Err() != nil && errors.Is(context.Cause(ctx), ErrNotFullyActive) {
		err = ErrNotFullyActive
	}
	return v, err
}

// marshalValue is an exported JavaScript value as JSON (its string form
// when JSON cannot hold it).
func marshalValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(fmt.Sprint(v))
	}
	return string(b)
}

// remoteFetcher is a renderer's Fetcher: the browser process fetches.
type remoteFetcher struct{ host rendererpb.HostClient }

func (f remoteFetcher) Fetch(ctx context.Context, u *url.URL) (*Response, error) {
	resp, err := f.host.Fetch(ctx, &rendererpb.FetchRequest{Url: u.String()})
	if err != nil {
		return nil, err
	}
	if resp.GetError() != "" {
		return nil, errors.New(resp.GetError())
	}
	ru, err := url.Parse(resp.GetUrl())
	if err != nil {
		return nil, err
	}
	return &Response{URL: ru, Status: int(resp.GetStatus()), ContentType: resp.GetContentType(), Charset: resp.GetCharset(), Body: resp.GetBody()}, nil
}

// RendererErr is why the window's renderer process ended (a
// *RendererExitError), or nil while it runs (and for a window of
// SingleProcess).
func (w *Window) RendererErr() error {
	if w == nil || w.remote == nil {
		return nil
	}
	select {
	case <-w.remote.proc().exited:
		return w.remote.proc().exitErr()
	default:
		return nil
	}
}

// InRenderer reports whether the window runs in a renderer process
// (Config.Process RendererProcesses). Such a window supports URL,
// Loaded, Evaluate, Navigate, Traverse, Close, RendererErr and
// RendererPID; its Realm and Document are nil (they live in the
// renderer), and its other methods report ErrNoWindow. It follows its traversable to the renderer of the
// site it navigates to.
func (w *Window) InRenderer() bool { return w != nil && w.remote != nil }

// RendererPID is the process id of the window's renderer (0 for a window
// of SingleProcess).
func (w *Window) RendererPID() int {
	if w == nil || w.remote == nil {
		return 0
	}
	return w.remote.proc().pid
}

// rendererExited is closed when the window's renderer has ended (nil for
// a window of SingleProcess: never).
func (w *Window) rendererExited() <-chan struct{} {
	if w == nil || w.remote == nil {
		return nil
	}
	return w.remote.proc().exited
}

// relayBroadcast sends a BroadcastChannel message of this renderer to the
// browser process.
func (r *renderer) relayBroadcast(key storage.StorageKey, name, sourceOrigin string, msg *html.SerializedRecord) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(msg); err != nil {
		return
	}
	r.send(&rendererpb.Report{Report: &rendererpb.Report_Broadcast{Broadcast: &rendererpb.Broadcast{
		Key:  wireKey(key),
		Name: name, SourceOrigin: sourceOrigin, Message: buf.Bytes(),
	}}})
}

// deliverBroadcast delivers another renderer's BroadcastChannel message
// to this renderer's channels.
func (r *renderer) deliverBroadcast(m *rendererpb.Broadcast) {
	var msg html.SerializedRecord
	if err := gob.NewDecoder(bytes.NewReader(m.GetMessage())).Decode(&msg); err != nil {
		return
	}
	k := m.GetKey()
	o := origin.Parse(k.GetOrigin())
	if o.IsOpaque() {
		return
	}
	key := storage.StorageKey{Origin: o, TopLevelSite: origin.ObtainSite(origin.Parse(k.GetTopLevelSite())), HasCrossSiteAncestor: k.GetHasCrossSiteAncestor()}
	html.DeliverBroadcast(r.b.UserAgent(), key, m.GetName(), m.GetSourceOrigin(), &msg)
}
