package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// This file implements Worker over html.MessagePort, with the host hooks
// a browser provides for dedicated workers.

// WorkerHooks are the embedder's part of dedicated workers.
type WorkerHooks struct {
	// StartWorker runs "run a worker" for a new Worker object: make the
	// worker's agent and realm, connect its global to w.Port
	// (ConnectWorkerPort), fetch and run w.URL, then call w.Port.Start()
	// so that queued messages are delivered. It is called on the owner's
	// event loop; report a fetch failure with w.QueueErrorEvent(nil).
	StartWorker func(w *DedicatedWorker) error
}

type workerHooksKey struct{}

// SetWorkerHooks enables new Worker() in this realm.
func (r *Realm) SetWorkerHooks(h WorkerHooks) { r.SetValue(workerHooksKey{}, h) }

// DedicatedWorker is the owner side of a dedicated worker made by new
// Worker(): what the embedder needs to run it.
type DedicatedWorker struct {
	// URL is the worker script's URL (parsed against the owner's base
	// URL); Name, Type and Credentials come from WorkerOptions.
	URL, Name, Type, Credentials string
	// Port is the worker's inside port: its global's implicit port
	// (ConnectWorkerPort), entangled with the Worker object's.
	Port *html.MessagePort
	// Owner is the realm that made the Worker object.
	Owner *Realm
	// OnTerminate, when the embedder sets it, runs when worker.terminate()
	// is called (on the owner's event loop).
	OnTerminate func()

	obj *workerImpl
}

// QueueErrorEvent fires an error event at the Worker object, from a task
// of the owner's event loop (safe for any goroutine). With se (a worker's
// uncaught exception) the event carries message, filename, lineno and
// colno and, if not canceled, the error is reported in the owner's realm;
// with nil (a failed script fetch) it is a simple event.
func (w *DedicatedWorker) QueueErrorEvent(se *ScriptError) {
	r := w.Owner
	r.queueTask(html.DOMManipulationTaskSource, func() {
		if se == nil {
			r.fireEvent(w.obj.target, "error", false, false, nil)
			return
		}
		props := map[string]sobek.Value{
			"message":  r.vm.ToValue(se.Message),
			"filename": r.vm.ToValue(se.Filename),
			"lineno":   r.vm.ToValue(se.Line),
			"colno":    r.vm.ToValue(se.Column),
			"error":    sobek.Null(),
		}
		if r.fireEventAt(w.obj.target, "error", true, props) {
			r.reportScriptError(&ScriptError{Value: sobek.Null(), Message: se.Message, Filename: se.Filename, Line: se.Line, Column: se.Column})
		}
	})
}

// Object returns the Worker object (owner's event loop only).
func (w *DedicatedWorker) Object() *sobek.Object {
	obj, _ := idlWrapWorker(w.Owner.idl, w.obj).(*sobek.Object)
	return obj
}

type workerImpl struct {
	*eventTargetImpl
	outside *messagePortImpl
	handle  *DedicatedWorker
}

func (w *workerImpl) WebIDLInterface() string { return "Worker" }

type workerStatics struct{}

// new Worker(scriptURL, options): https://html.spec.whatwg.org/#dom-worker
func (workerStatics) Constructor(r *webidl.Realm, scriptURL string, opts WorkerOptions) (WorkerMethods, error) {
	rr := realmOf(r)
	hooks, _ := rr.Value(workerHooksKey{}).(WorkerHooks)
	if hooks.StartWorker == nil {
		return nil, dom.NewDOMException("Workers are not supported by this embedder.", dom.NotSupportedError)
	}
	// 3. Let outside settings be the current settings object. 5. Let
	//    worker URL be the result of encoding-parsing a URL given
	//    scriptURL, relative to outside settings. 6. If worker URL is
	//    failure, then throw a "SyntaxError" DOMException.
	u, err := whatwg.ParseRef(rr.baseURL(), scriptURL)
	if err != nil {
		return nil, dom.NewDOMException("Failed to construct 'Worker': The URL '"+scriptURL+"' is invalid.", dom.SyntaxError)
	}
	// 7. Let worker be a new Worker object. 8. Let outside port be a new
	//    MessagePort in outside settings's realm. 10. Associate the
	//    outside port with worker.
	outside, inside := html.NewMessageChannel()
	t := &dom.EventTarget{}
	w := &workerImpl{eventTargetImpl: rr.newEventTargetImpl(t)}
	t.Owner = w
	// Messages on the outside port fire at the Worker object; its queue
	// is enabled at once (the Worker's implicit port).
	outsideImpl := &messagePortImpl{eventTargetImpl: w.eventTargetImpl, port: outside}
	outside.Attach(func(steps func()) bool { return rr.queueTask(html.PostedMessageTaskSource, steps) }, func(msg html.SerializedWithTransfer) {
		rr.DeliverMessage(w.handle.Object(), msg, "", nil)
	})
	outside.Start()
	w.outside = outsideImpl
	w.handle = &DedicatedWorker{URL: u.Href(false), Name: string(opts.Name), Type: string(opts.Type), Credentials: string(opts.Credentials), Port: inside, Owner: rr, obj: w}
	// 9. Run this step in parallel: run a worker given worker, worker
	//    URL, outside settings, outside port, and options.
	if err := hooks.StartWorker(w.handle); err != nil {
		return nil, err
	}
	// 10. Return worker.
	return w, nil
}

func (w *workerImpl) PostMessageWithTransfer(message sobek.Value, transfer []*sobek.Object) error {
	return w.outside.postMessageSteps(message, transfer)
}

func (w *workerImpl) PostMessageWithOptions(message sobek.Value, opts StructuredSerializeOptions) error {
	return w.outside.postMessageSteps(message, opts.Transfer)
}

// Terminate: https://html.spec.whatwg.org/#dom-worker-terminate
func (w *workerImpl) Terminate() error {
	w.outside.port.Close()
	if f := w.handle.OnTerminate; f != nil {
		f()
	}
	return nil
}

func (w *workerImpl) Onmessage() (*EventHandlerNonNull, error) { return w.handlerGet("message"), nil }
func (w *workerImpl) SetOnmessage(v *EventHandlerNonNull) error {
	w.handlerSet("message", v)
	return nil
}
func (w *workerImpl) Onmessageerror() (*EventHandlerNonNull, error) {
	return w.handlerGet("messageerror"), nil
}
func (w *workerImpl) SetOnmessageerror(v *EventHandlerNonNull) error {
	w.handlerSet("messageerror", v)
	return nil
}
func (w *workerImpl) Onerror() (*EventHandlerNonNull, error) { return w.handlerGet("error"), nil }
func (w *workerImpl) SetOnerror(v *EventHandlerNonNull) error {
	w.handlerSet("error", v)
	return nil
}

// ConnectWorkerPort makes p (DedicatedWorker.Port) the implicit port of
// this dedicated worker realm: self.postMessage posts to it and its
// messages fire at the global. Messages wait until p.Start() (call it
// once the worker's script has run). It replaces HostHooks.PostMessage.
func (r *Realm) ConnectWorkerPort(p *html.MessagePort) {
	impl := &messagePortImpl{eventTargetImpl: r.globalTarget, port: p}
	r.hooks.PostMessage = func(message sobek.Value, _ string, transfer []*sobek.Object) error {
		return impl.postMessageSteps(message, transfer)
	}
	p.Attach(func(steps func()) bool { return r.queueTask(html.PostedMessageTaskSource, steps) }, func(msg html.SerializedWithTransfer) {
		r.DeliverMessage(nil, msg, "", nil)
	})
}
