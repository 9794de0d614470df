package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/serviceworker"
	"github.com/grafana/sobek"
)

// serviceWorkerObject is "get the service worker object" for w in r.
func (r *Realm) serviceWorkerObject(w *serviceworker.ServiceWorker) *serviceWorkerImpl {
	st := r.swState()
	if o := st.workers[w]; o != nil {
		return o
	}
	t := &dom.EventTarget{}
	o := &serviceWorkerImpl{eventTargetImpl: r.newEventTargetImpl(t), sw: w, state: w.State()}
	if st.last != nil {
		if s, ok := st.last.States[w]; ok {
			o.state = s
		}
	}
	t.Owner = o
	st.workers[w] = o
	return o
}

// serviceWorkerImpl implements ServiceWorker.
type serviceWorkerImpl struct {
	*eventTargetImpl
	sw    *serviceworker.ServiceWorker
	state serviceworker.State
}

func (o *serviceWorkerImpl) WebIDLInterface() string { return "ServiceWorker" }

func (o *serviceWorkerImpl) fire(typ string) {
	ev := dom.NewEvent(typ)
	ev.IsTrusted = true
	o.target.DispatchEvent(ev)
}

func (o *serviceWorkerImpl) ScriptURL() (string, error) { return o.sw.ScriptURL().String(), nil }
func (o *serviceWorkerImpl) State() (ServiceWorkerState, error) {
	return ServiceWorkerState(o.state.String()), nil
}
func (o *serviceWorkerImpl) Onstatechange() (*EventHandlerNonNull, error) {
	return o.handlerGet("statechange"), nil
}
func (o *serviceWorkerImpl) SetOnstatechange(v *EventHandlerNonNull) error {
	o.handlerSet("statechange", v)
	return nil
}
func (o *serviceWorkerImpl) Onerror() (*EventHandlerNonNull, error) {
	return o.handlerGet("error"), nil
}
func (o *serviceWorkerImpl) SetOnerror(v *EventHandlerNonNull) error {
	o.handlerSet("error", v)
	return nil
}

func (o *serviceWorkerImpl) PostMessageWithTransfer(message sobek.Value, transfer []*sobek.Object) error {
	return o.postMessage(message, transfer)
}

func (o *serviceWorkerImpl) PostMessageWithOptions(message sobek.Value, opts StructuredSerializeOptions) error {
	return o.postMessage(message, opts.Transfer)
}

// postMessage is https://w3c.github.io/ServiceWorker/#service-worker-postmessage-options.
func (o *serviceWorkerImpl) postMessage(message sobek.Value, transfer []*sobek.Object) error {
	r := o.realm
	// 2. If the result of running the Should Skip Event algorithm with
	//    "message" and serviceWorker is true, then return.
	if o.sw.State() == serviceworker.Redundant {
		return nil
	}
	// 4. Let serializeWithTransferResult be
	//    StructuredSerializeWithTransfer(message, options["transfer"]).
	//    Rethrow any exceptions.
	msg, err := r.StructuredSerializeWithTransfer(message, transfer)
	if err != nil {
		return err
	}
	// (A worker that runs in another process gets it there: package
	// serviceworker's registry.)
	if r.env != nil && serviceworker.PostToRemoteWorker(o.sw, r.env, msg) {
		return nil
	}
	env := o.sw.Env()
	if env == nil || r.env == nil {
		return nil
	}
	client := r.env
	origin := client.Origin().Serialize()
	// 5-6. Queue a task on the DOM manipulation task source of the service
	//    worker's event loop that fires a message event at its global with
	//    a new Client object for the incumbent settings object as source.
	var info *windowClientInfo
	if client.AssociatedDocument() != nil {
		i := r.windowClientInfo()
		info = &i
	}
	if target := RealmOf(env); target != nil {
		sw := o.sw
		target.queueTask(html.PostedMessageTaskSource, func() {
			src := &clientImpl{realm: target, env: client, sw: sw}
			source := ClientOrServiceWorkerOrMessagePort{Type: ClientOrServiceWorkerOrMessagePortIsClient, Client: src}
			if info != nil {
				// A window's Client is a WindowClient (windowclient.go).
				source.Client = &windowClientImpl{clientImpl: src, info: *info}
			}
			target.deliverToServiceWorker(msg, origin, source)
		})
	}
	return nil
}

// deliverToServiceWorker is the task ServiceWorker.postMessage queues in
// the service worker's realm r: deserialize the message and fire an
// ExtendableMessageEvent (or messageerror) at the global whose source is
// a new Client object for the sender.
func (r *Realm) deliverToServiceWorker(msg html.SerializedWithTransfer, origin string, source ClientOrServiceWorkerOrMessagePort) {
	typ := "message"
	data, ports, err := r.StructuredDeserializeWithTransfer(msg)
	if err != nil {
		typ, data, ports = "messageerror", sobek.Null(), nil
	}
	ev := dom.NewEvent(typ)
	ev.IsTrusted = true
	e := &extendableMessageEventImpl{extendableEventImpl: &extendableEventImpl{eventImpl: &eventImpl{realm: r, ev: ev}, dispatching: true},
		data: data, origin: origin,
		source: webidl.NonNull(source)}
	for _, p := range ports {
		if impl, ok := r.idl.ImplOf(p).(*messagePortImpl); ok {
			e.ports = append(e.ports, impl)
		}
	}
	ev.Detail = e
	r.globalTarget.target.DispatchEvent(ev)
	e.dispatching = false
}
