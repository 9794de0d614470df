package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// This file implements SharedWorker (the owner side) and the connect
// event of SharedWorkerGlobalScope, with the host hooks a browser
// provides to find or run the shared worker (html.ObtainSharedWorker).

// SharedWorkerHooks are the embedder's part of shared workers.
type SharedWorkerHooks struct {
	// Connect runs the in-parallel part of the SharedWorker constructor
	// for c: find the shared worker for (c.URL, c.Name, the caller's
	// storage key) or run a new one, then fire connect at its global with
	// c.Port (FireConnect, once the worker's script has run). It is
	// called on the owner's event loop; an error is thrown by the
	// constructor. Report a later failure with c.QueueErrorEvent.
	Connect func(c *SharedWorkerConnection) error
}

type sharedWorkerHooksKey struct{}

// SetSharedWorkerHooks enables new SharedWorker() in this (window) realm.
func (r *Realm) SetSharedWorkerHooks(h SharedWorkerHooks) { r.SetValue(sharedWorkerHooksKey{}, h) }

// SharedWorkerConnection is one new SharedWorker(): what the embedder needs
// to connect it to its shared worker.
type SharedWorkerConnection struct {
	// URL is the script's URL (parsed against the owner's base URL);
	// Name, Type and Credentials come from the options.
	URL, Name, Type, Credentials string
	// Port is the inside port, entangled with the SharedWorker object's
	// port: it becomes the connect event's port in the worker.
	Port *html.MessagePort
	// Owner is the realm that made the SharedWorker object.
	Owner *Realm

	obj *sharedWorkerImpl
}

// QueueErrorEvent fires a simple error event at the SharedWorker object,
// from a task of the owner's event loop (safe for any goroutine).
func (c *SharedWorkerConnection) QueueErrorEvent() {
	r := c.Owner
	r.queueTask(html.DOMManipulationTaskSource, func() {
		r.fireEvent(c.obj.target, "error", false, false, nil)
	})
}

type sharedWorkerImpl struct {
	*eventTargetImpl
	port *messagePortImpl
}

func (w *sharedWorkerImpl) WebIDLInterface() string { return "SharedWorker" }

// Port is the port attribute: the outside port.
func (w *sharedWorkerImpl) Port() (MessagePortMethods, error) { return w.port, nil }

func (w *sharedWorkerImpl) Onerror() (*EventHandlerNonNull, error) { return w.handlerGet("error"), nil }
func (w *sharedWorkerImpl) SetOnerror(v *EventHandlerNonNull) error {
	w.handlerSet("error", v)
	return nil
}

type sharedWorkerStatics struct{}

// Constructor is new SharedWorker(scriptURL, options):
// https://html.spec.whatwg.org/#dom-sharedworker
func (sharedWorkerStatics) Constructor(r *webidl.Realm, scriptURL string, options DOMStringOrWorkerOptions) (SharedWorkerMethods, error) {
	rr := realmOf(r)
	hooks, _ := rr.Value(sharedWorkerHooksKey{}).(SharedWorkerHooks)
	if hooks.Connect == nil {
		return nil, dom.NewDOMException("Shared workers are not supported by this embedder.", dom.NotSupportedError)
	}
	// 2. If options is a DOMString, set options to a new WorkerOptions
	//    dictionary whose name member is set to the value of options and
	//    whose other members are set to their default values.
	opts := WorkerOptions{Type: "classic", Credentials: "same-origin"}
	if options.Type == DOMStringOrWorkerOptionsIsDOMString {
		opts.Name = options.DOMString
	} else {
		opts = options.WorkerOptions
	}
	// 3. Let outside settings be the current settings object.
	// 4. Let urlRecord be the result of encoding-parsing a URL given
	//    scriptURL, relative to outside settings.
	// 5. If urlRecord is failure, then throw a "SyntaxError" DOMException.
	u, err := whatwg.ParseRef(rr.baseURL(), scriptURL)
	if err != nil {
		return nil, dom.NewDOMException("Failed to construct 'SharedWorker': The URL '"+scriptURL+"' is invalid.", dom.SyntaxError)
	}
	// 6. Let worker be a new SharedWorker object.
	t := &dom.EventTarget{}
	w := &sharedWorkerImpl{eventTargetImpl: rr.newEventTargetImpl(t)}
	t.Owner = w
	// 7. Let outside port be a new MessagePort in outside settings's realm.
	// 8. Set worker's port to outside port. (The inside port is made here
	//    and entangled at once; the embedder gives it to the worker.)
	outside, inside := html.NewMessageChannel()
	w.port = rr.newMessagePort(outside)
	c := &SharedWorkerConnection{URL: u.Href(false), Name: string(opts.Name), Type: string(opts.Type), Credentials: string(opts.Credentials), Port: inside, Owner: rr, obj: w}
	// 9-11. Find or run the shared worker, in parallel (the embedder).
	if err := hooks.Connect(c); err != nil {
		return nil, err
	}
	// 12. Return worker.
	return w, nil
}

// NewSharedWorkerRealm creates the realm of a SharedWorkerGlobalScope for
// env, a shared worker environment (html.ObtainSharedWorker), on the
// worker's event loop.
func NewSharedWorkerRealm(env *html.EnvironmentSettingsObject, opts Options) (*Realm, error) {
	if env.Kind() != html.SharedWorkerEnvironment {
		return nil, ErrWrongEnvironment
	}
	return newEnvRealm(env, SharedWorkerGlobal, opts)
}

// FireConnect fires the connect event at this shared worker realm's global
// for a new connection whose inside port is p: a MessageEvent with data
// "", ports [p's MessagePort] and source that port. Call it on the
// worker's event loop (in a task); it queues its own task on the DOM
// manipulation task source.
func (r *Realm) FireConnect(p *html.MessagePort) bool {
	return r.queueTask(html.DOMManipulationTaskSource, func() {
		// Let inside port be a new MessagePort in settings object's realm,
		// entangled with outside port.
		port := r.newMessagePort(p)
		obj, _ := r.idl.Wrap(port, "MessagePort").(*sobek.Object)
		// Fire an event named connect at worker global scope, using
		// MessageEvent, with the data attribute initialized to the empty
		// string, the ports attribute initialized to a new frozen array
		// containing inside port, and the source attribute initialized to
		// inside port.
		r.fireMessageEvent(r.globalTarget.target, "connect", r.vm.ToValue(""), "", []*sobek.Object{obj}, obj)
	})
}

// SharedWorkerGlobalScope's own members (name and close() are
// WorkerGlobalScope's implementation's, shared with dedicated workers).

func (w *workerGlobalImpl) Onconnect() (*EventHandlerNonNull, error) {
	return w.handlerGet("connect"), nil
}
func (w *workerGlobalImpl) SetOnconnect(v *EventHandlerNonNull) error {
	w.handlerSet("connect", v)
	return nil
}

var (
	_ SharedWorkerMethods            = (*sharedWorkerImpl)(nil)
	_ SharedWorkerGlobalScopeMethods = (*workerGlobalImpl)(nil)
)
