package goproduct

import (
	"fmt"
	"net/url"

	"github.com/dop251/goja"
	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/html"
)

// engine is the platform under one test: a fresh html.UserAgent, the
// window it opens and the realms of that window and its workers. It is the
// only place that knows how html and bindings are put together.
type engine struct {
	ua      *html.UserAgent
	onPanic func(v any, stack []byte)
}

// envHandle is an environment settings object of the engine.
type envHandle = *html.EnvironmentSettingsObject

var errWorkerOrigin = html.ErrWorkerOrigin

// newEngine creates the user agent for one test. onPanic receives Go
// panics of the engine's goroutines.
func newEngine(onPanic func(any, []byte)) (*engine, error) {
	var opts []html.Option
	if onPanic != nil {
		// A Go panic in a task, timer or parallel queue step of this user
		// agent is a CRASH of the test, not of the runner.
		opts = append(opts, html.WithPanicHandler(onPanic))
	}
	return &engine{ua: html.NewUserAgent(opts...), onPanic: onPanic}, nil
}

// Close tears the user agent down: every agent terminates (running its
// termination steps, e.g. releasing Web Locks), every loop and queue stops.
func (e *engine) Close() { e.ua.Close() }

// NewWindow opens a top-level window for u (a new top-level traversable
// navigated to u: the Document's origin and the environment's creation URL
// come from u, and it is a secure context when u is potentially
// trustworthy) and creates its realm.
func (e *engine) NewWindow(u *url.URL, opts bindings.Options) (*bindings.Realm, *html.Document, error) {
	doc, err := e.ua.OpenWindow(u)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the window: %v", err)
	}
	r, _, err := e.NewWindowFor(doc, opts)
	return r, doc, err
}

// NewWindowFor creates the realm of an existing window Document (the
// active document a child navigable was navigated to).
func (e *engine) NewWindowFor(doc *html.Document, opts bindings.Options) (*bindings.Realm, envHandle, error) {
	env := doc.EnvironmentSettingsObject()
	r, err := bindings.NewWindowRealm(env, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("creating the window realm: %v", err)
	}
	return r, env, nil
}

// NewWorkerEnvironment creates a dedicated worker's agent and environment.
func (e *engine) NewWorkerEnvironment(owner envHandle, u *url.URL) (envHandle, error) {
	return html.NewDedicatedWorker(owner, u)
}

// NewWorkerRealm creates the DedicatedWorkerGlobalScope realm of env.
func (e *engine) NewWorkerRealm(env envHandle, opts bindings.Options) (*bindings.Realm, error) {
	return bindings.NewDedicatedWorkerRealm(env, opts)
}

// TerminateWorker terminates a dedicated worker's agent.
func (e *engine) TerminateWorker(env envHandle) {
	if env != nil {
		env.Agent().Terminate()
	}
}

// OriginOf serializes an environment's origin.
func (e *engine) OriginOf(env envHandle) string { return env.Origin().Serialize() }

// EventTargetPrototype is the realm's EventTarget.prototype.
func (e *engine) EventTargetPrototype(r *bindings.Realm) *goja.Object {
	return r.InterfacePrototype("EventTarget")
}

// NewEventTargetObject creates a platform EventTarget whose prototype is
// proto.
func (e *engine) NewEventTargetObject(r *bindings.Realm, proto *goja.Object) *goja.Object {
	return r.NewEventTargetObject(proto)
}

// DefineEventHandlers defines on<type> event handler attributes on obj
// (a prototype or an object).
func (e *engine) DefineEventHandlers(r *bindings.Realm, obj *goja.Object, types ...string) {
	r.DefineEventHandlerAttributes(obj, types...)
}

// FireEventAt fires a trusted event named typ at target with props as own
// properties of the event object; it returns false when it was canceled.
func (e *engine) FireEventAt(r *bindings.Realm, target *goja.Object, typ string, cancelable bool, props map[string]goja.Value) bool {
	return r.FireEventAt(target, typ, cancelable, props)
}

// FireBubblingEventAt fires a bubbling event at a node of the document;
// the node tree is not an event path here, so the window gets its own
// dispatch afterwards (as the last step of the bubble path).
func (e *engine) FireBubblingEventAt(r *bindings.Realm, target *goja.Object, typ string) {
	r.FireBubblingEventAt(target, typ)
	e.FireEventAt(r, r.Global(), typ, false, nil)
}

// NewDOMException creates a DOMException of the realm.
func (e *engine) NewDOMException(r *bindings.Realm, name, msg string) goja.Value {
	return r.NewDOMException(name, msg)
}
