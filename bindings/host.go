package bindings

import (
	"errors"
	"sync"
	"time"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// realmTaskSource is the task source of tasks queued through the realm API
// (QueueTask, QueueScript) that have no more specific source.
var realmTaskSource = html.NewTaskSource("JavaScript realm")

// htmlHost runs a realm on its environment's responsible event loop.
type htmlHost struct {
	env  *html.EnvironmentSettingsObject
	loop *html.EventLoop
}

func (h *htmlHost) queueTask(source html.TaskSource, steps func()) bool {
	if h.loop.IsTerminated() {
		return false
	}
	// Queue a global task: for a Window, the task belongs to the global's
	// associated Document and waits while it is not fully active.
	return h.loop.QueueGlobalTask(source, h.env, steps)
}

func (h *htmlHost) startTimer(ms uint64, steps func()) func() {
	const maxMs = uint64(1<<63-1) / uint64(time.Millisecond)
	if ms > maxMs {
		ms = maxMs
	}
	// The timer's task belongs to the global's suspending document (a
	// Window's associated Document, a dedicated worker's owner document):
	// it waits while that document is not fully active.
	t := h.loop.StartTimer(time.Duration(ms)*time.Millisecond, html.TimerTaskSource, h.env.SuspendingDocument(), steps)
	return func() { t.Cancel() }
}

// now is the loop's clock (the fake clock under a manual scheduler).
func (h *htmlHost) now() time.Duration { return h.loop.Now() }

// loopRealms is the set of realms of one event loop: the loop's microtask
// checkpoint hook visits them all. The slice is never modified in place
// (register and unregister make a new one), so the hook can visit it
// without copying it after every task.
type loopRealms struct {
	mu     sync.Mutex
	realms []*Realm
}

// loopRealmsSlot holds an event loop's realms.
var loopRealmsSlot = html.NewSlot[*loopRealms]()

func registerRealm(loop *html.EventLoop, r *Realm) {
	loaded := true
	lr := loopRealmsSlot.GetOrInit(loop, func() *loopRealms { loaded = false; return &loopRealms{} })
	lr.mu.Lock()
	lr.realms = append(lr.realms[:len(lr.realms):len(lr.realms)], r)
	lr.mu.Unlock()
	if !loaded {
		loop.SetMicrotaskCheckpoint(func() {
			lr.mu.Lock()
			list := lr.realms
			lr.mu.Unlock()
			for _, r := range list {
				r.microtaskCheckpoint()
			}
		})
	}
}

func unregisterRealm(loop *html.EventLoop, r *Realm) {
	lr, ok := loopRealmsSlot.Lookup(loop)
	if !ok {
		return
	}
	lr.mu.Lock()
	defer lr.mu.Unlock()
	for i, x := range lr.realms {
		if x == r {
			lr.realms = append(lr.realms[:i:i], lr.realms[i+1:]...)
			break
		}
	}
	if len(lr.realms) == 0 {
		loopRealmsSlot.Delete(loop)
		loop.SetMicrotaskCheckpoint(nil)
	}
}

// ErrWrongEnvironment is returned when a realm constructor is given an
// environment of the other kind.
var ErrWrongEnvironment = errors.New("bindings: environment kind does not match the global")

// NewWindowRealm creates the realm of a Window global for env, a window
// environment settings object, on env's responsible event loop. The realm
// is returned ready to run scripts (QueueScript); globals can be added with
// DefineGlobal before the first task runs. It becomes env's global
// (env.SetGlobal).
func NewWindowRealm(env *html.EnvironmentSettingsObject, opts Options) (*Realm, error) {
	if env.AssociatedDocument() == nil {
		return nil, ErrWrongEnvironment
	}
	return newEnvRealm(env, WindowGlobal, opts)
}

// NewDedicatedWorkerRealm creates the realm of a DedicatedWorkerGlobalScope
// for env, a dedicated worker environment, on the worker's event loop.
func NewDedicatedWorkerRealm(env *html.EnvironmentSettingsObject, opts Options) (*Realm, error) {
	if env.AssociatedDocument() != nil {
		return nil, ErrWrongEnvironment
	}
	return newEnvRealm(env, DedicatedWorkerGlobal, opts)
}

// RealmOf returns the realm created for env, or nil.
func RealmOf(env *html.EnvironmentSettingsObject) *Realm {
	r, _ := env.Global().(*Realm)
	return r
}

func newEnvRealm(env *html.EnvironmentSettingsObject, kind GlobalKind, opts Options) (*Realm, error) {
	agent := env.Agent()
	if agent.IsTerminated() {
		return nil, html.ErrTerminated
	}
	loop := env.ResponsibleEventLoop()
	host := &htmlHost{env: env, loop: loop}
	r := newRealm(host, kind, opts)
	r.env = env
	info := envInfo{url: env.CreationURL(), origin: env.Origin().Serialize(), secure: env.IsSecureContext()}
	if opts.WorkerURL != nil && kind != WindowGlobal {
		info.url = opts.WorkerURL
	}
	if err := r.setUp(info); err != nil {
		return nil, err
	}
	env.SetGlobal(r)
	registerRealm(loop, r)
	// When the agent terminates, or the window's document is unloaded
	// (gone for good), the realm runs nothing more.
	agent.AddTerminationSteps(func() {
		r.Close()
		unregisterRealm(loop, r)
	})
	if doc := env.AssociatedDocument(); doc != nil {
		doc.AddUnloadingDocumentCleanupSteps(func() {
			r.close(false)
			unregisterRealm(loop, r)
		})
	}
	return r, nil
}

// setUp installs the bindings and the hand-written globals.
func (r *Realm) setUp(info envInfo) error {
	r.idl = webidl.NewRealm(r.vm, r.kind.String(), r.kind.ExposureSet(), info.secure)
	r.idl.ErrorToJS = r.errorToJS
	r.idl.Data = r
	r.secure = info.secure
	r.globalImpl = r.newGlobal(info)
	r.idl.SetGlobalImpl(r.globalImpl)
	r.idl.Eager = r.opts.eagerInterfaces
	if err := r.idl.Install(Interfaces); err != nil {
		return err
	}
	// sobek gives its global object an own @@toStringTag "global"; a
	// Window's class string comes from Window.prototype.
	_ = r.global.DeleteSymbol(sobek.SymToStringTag)
	r.installGlobalEventHandlers()
	r.idl.DefineGlobalLazily("console", r.installConsole)
	// From now on, the global object script sees: a proxy of the one the
	// runtime was created with (see webidl's lazy.go), which set-up
	// above defined its properties on directly.
	r.global = r.idl.Global()
	return nil
}

// installGlobalEventHandlers defines onerror, onunhandledrejection and
// onrejectionhandled on the global (OnErrorEventHandler for error), unless
// the generated bindings did; each when first used (DefineGlobalLazily).
func (r *Realm) installGlobalEventHandlers() {
	for _, typ := range [...]string{"error", "unhandledrejection", "rejectionhandled"} {
		if !r.hasGlobal("on" + typ) {
			r.idl.DefineGlobalLazily("on"+typ, func(g *sobek.Object) { r.DefineEventHandlerAttributes(g, typ) })
		}
	}
}
