package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

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
		obj, _ := idlWrapMessagePort(r.idl, impl).(*sobek.Object)
		r.DeliverMessage(obj, msg, "", nil)
	})
	// The disentangle steps' last step: fire an event named close at the
	// other port (queued on its event loop: the closing port may be of
	// another agent or process).
	p.OnClose(func() {
		r.queueTask(html.PostedMessageTaskSource, func() {
			if !impl.detached {
				r.fireEventAt(t, "close", false, nil)
			}
		})
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
