package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// This file implements MessageChannel, MessagePort, MessageEvent and
// Worker over html.MessagePort, with the host hooks a browser provides
// for dedicated workers.

// eventSubclass is implemented by the implementations of Event
// subinterfaces (MessageEvent) that embed *eventImpl.
type eventSubclass interface{ baseEvent() *eventImpl }

func baseEventOf(e EventMethods) *eventImpl {
	switch e := e.(type) {
	case *eventImpl:
		return e
	case eventSubclass:
		return e.baseEvent()
	}
	return nil
}

// MessageEvent

type messageEventImpl struct {
	*eventImpl
	data        sobek.Value
	origin      string
	lastEventID webidl.DOMString
	source      sobek.Value // null, a WindowProxy or a MessagePort
	ports       []MessagePortMethods
}

func (e *messageEventImpl) baseEvent() *eventImpl      { return e.eventImpl }
func (e *messageEventImpl) WebIDLInterface() string    { return "MessageEvent" }
func (e *messageEventImpl) Data() (sobek.Value, error) { return e.data, nil }
func (e *messageEventImpl) Origin() (string, error)    { return e.origin, nil }
func (e *messageEventImpl) LastEventID() (webidl.DOMString, error) {
	return e.lastEventID, nil
}
func (e *messageEventImpl) Ports() ([]MessagePortMethods, error) {
	if e.ports == nil {
		return []MessagePortMethods{}, nil
	}
	return e.ports, nil
}

func (e *messageEventImpl) Source() (webidl.Nullable[MessageEventSource], error) {
	if webidl.IsNullish(e.source) {
		return webidl.Null[MessageEventSource](), nil
	}
	if p, ok := e.realm.idl.ImplOf(e.source).(*messagePortImpl); ok {
		return webidl.NonNull(MessageEventSource{Type: MessageEventSourceIsMessagePort, MessagePort: p}), nil
	}
	if w, ok := e.realm.idl.ImplOf(e.source).(*windowImpl); ok && e.source == e.realm.global {
		return webidl.NonNull(MessageEventSource{Type: MessageEventSourceIsWindow, Window: w}), nil
	}
	// A WindowProxy the embedder made (another realm's window).
	return webidl.NonNull(MessageEventSource{Type: MessageEventSourceIsWindow, Window: hostWindow{Value: e.source}}), nil
}

type messageEventStatics struct{}

// new MessageEvent(type, eventInitDict)
func (messageEventStatics) Constructor(r *webidl.Realm, typ webidl.DOMString, init MessageEventInit) (MessageEventMethods, error) {
	rr := realmOf(r)
	base := rr.newEvent(string(typ), init.Bubbles, init.Cancelable, init.Composed)
	e := &messageEventImpl{eventImpl: base, data: init.Data, origin: init.Origin, lastEventID: init.LastEventID, source: sobek.Null(), ports: init.Ports}
	if e.data == nil {
		e.data = sobek.Null()
	}
	if !init.Source.Null {
		switch init.Source.Value.Type {
		case MessageEventSourceIsMessagePort:
			e.source = r.Wrap(init.Source.Value.MessagePort, "MessagePort")
		case MessageEventSourceIsWindow:
			e.source = r.Wrap(init.Source.Value.Window, "Window")
		}
	}
	base.ev.Detail = e
	return e, nil
}

// fireMessageEvent fires a trusted MessageEvent named typ at t.
func (r *Realm) fireMessageEvent(t *dom.EventTarget, typ string, data sobek.Value, origin string, ports []*sobek.Object, source sobek.Value) {
	ev := dom.NewEvent(typ)
	ev.IsTrusted = true
	e := &messageEventImpl{eventImpl: &eventImpl{realm: r, ev: ev}, data: data, origin: origin, source: source}
	if source == nil {
		e.source = sobek.Null()
	}
	for _, p := range ports {
		if impl, ok := r.idl.ImplOf(p).(*messagePortImpl); ok {
			e.ports = append(e.ports, impl)
		}
	}
	ev.Detail = e
	t.DispatchEvent(ev)
}

// DeliverMessage deserializes msg in this realm and fires a message event
// at target (nil: the global object) with the given origin and source
// (nil: null), or a messageerror event when deserialization fails. It is
// the last step of window.postMessage and worker messaging; call it in a
// task of this realm (posted message task source).
func (r *Realm) DeliverMessage(target *sobek.Object, msg html.SerializedWithTransfer, origin string, source sobek.Value) {
	t := r.globalTarget
	if target != nil {
		if et := r.eventTargetOf(target); et != nil {
			t = et
		}
	}
	data, ports, err := r.StructuredDeserializeWithTransfer(msg)
	if err != nil {
		r.fireMessageEvent(t.target, "messageerror", sobek.Null(), origin, nil, source)
		return
	}
	r.fireMessageEvent(t.target, "message", data, origin, ports, source)
}

// MessageChannel

type messageChannelImpl struct {
	webidl.Reflector
	port1, port2 *messagePortImpl
}

func (c *messageChannelImpl) Port1() (MessagePortMethods, error) { return c.port1, nil }
func (c *messageChannelImpl) Port2() (MessagePortMethods, error) { return c.port2, nil }

type messageChannelStatics struct{}

// new MessageChannel(): https://html.spec.whatwg.org/#dom-messagechannel
func (messageChannelStatics) Constructor(r *webidl.Realm) (MessageChannelMethods, error) {
	rr := realmOf(r)
	// 1-3. Two new ports, entangled.
	p1, p2 := html.NewMessageChannel()
	return &messageChannelImpl{port1: rr.newMessagePort(p1), port2: rr.newMessagePort(p2)}, nil
}

// MessagePort

type messagePortImpl struct {
	*eventTargetImpl
	port *html.MessagePort
	// detached is [[Detached]]: the port was transferred away.
	detached bool
}

func (p *messagePortImpl) WebIDLInterface() string { return "MessagePort" }

// newMessagePort makes a MessagePort object of this realm for p: its
// messages are delivered as message events at the object, in tasks of the
// realm's event loop.
func (r *Realm) newMessagePort(p *html.MessagePort) *messagePortImpl {
	t := &dom.EventTarget{}
	impl := &messagePortImpl{eventTargetImpl: r.newEventTargetImpl(t), port: p}
	t.Owner = impl
	p.Attach(func(steps func()) bool { return r.queueTask(html.PostedMessageTaskSource, steps) }, func(msg html.SerializedWithTransfer) {
		obj, _ := r.idl.Wrap(impl, "MessagePort").(*sobek.Object)
		r.DeliverMessage(obj, msg, "", nil)
	})
	return impl
}

// ship is the MessagePort transfer steps: the object is detached and the
// underlying port leaves this realm.
func (p *messagePortImpl) ship() *html.MessagePort {
	p.detached = true
	p.port.Ship()
	return p.port
}

// PostMessage is postMessage(message, transfer).
func (p *messagePortImpl) PostMessageWithTransfer(message sobek.Value, transfer []*sobek.Object) error {
	return p.postMessageSteps(message, transfer)
}

// PostMessageWithOptions is postMessage(message, options).
func (p *messagePortImpl) PostMessageWithOptions(message sobek.Value, opts StructuredSerializeOptions) error {
	return p.postMessageSteps(message, opts.Transfer)
}

// postMessageSteps is
// https://html.spec.whatwg.org/#message-port-post-message-steps
func (p *messagePortImpl) postMessageSteps(message sobek.Value, transfer []*sobek.Object) error {
	r := p.realm
	// 1. Let targetPort be the port with which sourcePort is entangled.
	target := p.port.Entangled()
	if p.detached {
		target = nil
	}
	// 2. Let doomed be false.
	doomed := false
	for _, t := range transfer {
		impl, ok := r.idl.ImplOf(t).(*messagePortImpl)
		if !ok {
			continue
		}
		// 3. If transfer contains sourcePort, then throw a
		//    "DataCloneError" DOMException.
		if impl == p {
			return dom.NewDOMException("Port at index 0 contains the source port.", dom.DataCloneError)
		}
		// 4. If targetPort is not null and transfer contains targetPort,
		//    then set doomed to true.
		if target != nil && impl.port == target {
			doomed = true
		}
	}
	// 5. Let serializeWithTransferResult be
	//    StructuredSerializeWithTransfer(message, transfer); rethrow.
	ser, err := r.StructuredSerializeWithTransfer(webidl.AnyValue(message), transfer)
	if err != nil {
		return err
	}
	// 6. If targetPort is null, or if doomed is true, then return.
	if target == nil || doomed {
		return nil
	}
	// 7. Add a task to targetPort's port message queue.
	p.port.PostMessage(ser)
	return nil
}

// Start enables the port message queue.
func (p *messagePortImpl) Start() error {
	if !p.detached {
		p.port.Start()
	}
	return nil
}

// Close: https://html.spec.whatwg.org/#dom-messageport-close
func (p *messagePortImpl) Close() error {
	// 1. Set this's [[Detached]]... (has been closed) and disentangle.
	if !p.detached {
		p.port.Close()
	}
	return nil
}

func (p *messagePortImpl) Onclose() (*EventHandlerNonNull, error) { return p.handlerGet("close"), nil }
func (p *messagePortImpl) SetOnclose(v *EventHandlerNonNull) error {
	p.handlerSet("close", v)
	return nil
}
func (p *messagePortImpl) Onmessage() (*EventHandlerNonNull, error) {
	return p.handlerGet("message"), nil
}

// SetOnmessage sets the handler; the first time, the port message queue
// is enabled (as if start() were called).
func (p *messagePortImpl) SetOnmessage(v *EventHandlerNonNull) error {
	p.handlerSet("message", v)
	return p.Start()
}
func (p *messagePortImpl) Onmessageerror() (*EventHandlerNonNull, error) {
	return p.handlerGet("messageerror"), nil
}
func (p *messagePortImpl) SetOnmessageerror(v *EventHandlerNonNull) error {
	p.handlerSet("messageerror", v)
	return nil
}

// Workers

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
	obj, _ := w.Owner.idl.Wrap(w.obj, "Worker").(*sobek.Object)
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

// baseURL is the API base URL of the realm: the document's base URL for
// windows, the creation URL for workers.
func (r *Realm) baseURL() string {
	if d := r.Document(); d != nil {
		n := r.nodeImpl(&d.Node).(*documentImpl)
		s, _ := n.BaseURI()
		return s
	}
	if r.env != nil {
		return r.env.CreationURL().String()
	}
	return "about:blank"
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
