package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// This file implements SharedWorker (the owner side), with the host hooks
// a browser provides to find or run the shared worker
// (html.ObtainSharedWorker); the connect event of SharedWorkerGlobalScope
// is in sharedworkerglobalscope.go.

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

// sharedWorkerImpl implements SharedWorker.
var _ SharedWorkerMethods = (*sharedWorkerImpl)(nil)
