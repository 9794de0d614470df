package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// This file implements BroadcastChannel
// (https://html.spec.whatwg.org/#broadcasting-to-other-browsing-contexts)
// over html.BroadcastChannel, which keeps the user agent's list of
// channels and picks a message's destinations.

type broadcastChannelImpl struct {
	*eventTargetImpl
	ch *html.BroadcastChannel
}

func (c *broadcastChannelImpl) WebIDLInterface() string { return "BroadcastChannel" }

type broadcastChannelStatics struct{}

// Constructor is new BroadcastChannel(name):
// https://html.spec.whatwg.org/#dom-broadcastchannel
func (broadcastChannelStatics) Constructor(wr *webidl.Realm, name webidl.DOMString) (BroadcastChannelMethods, error) {
	r := realmOf(wr)
	if r.env == nil {
		return nil, dom.NewDOMException("BroadcastChannel needs an environment.", dom.InvalidStateError)
	}
	t := &dom.EventTarget{}
	impl := &broadcastChannelImpl{eventTargetImpl: r.newEventTargetImpl(t)}
	t.Owner = impl
	// 1. Set this's channel name to name.
	impl.ch = html.NewBroadcastChannel(r.env, string(name), func(msg html.SerializedWithTransfer, sourceOrigin string) bool {
		// postMessage step 9: queue a global task on the DOM manipulation
		// task source given destination's relevant global.
		return r.queueTask(html.DOMManipulationTaskSource, func() { impl.deliver(msg, sourceOrigin) })
	})
	return impl, nil
}

// deliver is the task of postMessage step 9 at this destination.
func (c *broadcastChannelImpl) deliver(msg html.SerializedWithTransfer, sourceOrigin string) {
	r := c.realm
	// 9.1 If destination's closed flag is true, then abort these steps.
	if c.ch.Closed() {
		return
	}
	// 9.2 Let targetRealm be destination's relevant realm.
	// 9.3 Let data be StructuredDeserialize(serialized, targetRealm). If
	//     this throws, fire an event named messageerror at destination,
	//     using MessageEvent, with the origin attribute initialized to the
	//     serialization of sourceOrigin, and abort these steps.
	data, _, err := r.StructuredDeserializeWithTransfer(msg)
	if err != nil {
		r.fireMessageEvent(c.target, "messageerror", sobek.Null(), sourceOrigin, nil, sobek.Null())
		return
	}
	// 9.4 Fire an event named message at destination, using MessageEvent,
	//     with the data attribute initialized to data and the origin
	//     attribute initialized to the serialization of sourceOrigin.
	r.fireMessageEvent(c.target, "message", data, sourceOrigin, nil, sobek.Null())
}

// Name is the name getter: the channel name.
func (c *broadcastChannelImpl) Name() (webidl.DOMString, error) {
	return webidl.DOMString(c.ch.Name()), nil
}

// PostMessage is https://html.spec.whatwg.org/#dom-broadcastchannel-postmessage
func (c *broadcastChannelImpl) PostMessage(message sobek.Value) error {
	// 1. If this's relevant global object is a Window whose associated
	//    Document is not fully active, then return.
	if !c.ch.SourceCanPost() {
		return nil
	}
	// 2. If this's closed flag is true, then throw an "InvalidStateError"
	//    DOMException.
	if c.ch.Closed() {
		return dom.NewDOMException("Failed to execute 'postMessage' on 'BroadcastChannel': Channel is closed", dom.InvalidStateError)
	}
	// 3. Let serialized be StructuredSerialize(message). Rethrow any
	//    exceptions.
	ser, err := c.realm.StructuredSerializeWithTransfer(message, nil)
	if err != nil {
		return err
	}
	// 4-9. (html.BroadcastChannel.PostMessage)
	if err := c.ch.PostMessage(ser); err != nil {
		return dom.NewDOMException("Failed to execute 'postMessage' on 'BroadcastChannel': Channel is closed", dom.InvalidStateError)
	}
	return nil
}

// Close is https://html.spec.whatwg.org/#dom-broadcastchannel-close: set
// this's closed flag to true.
func (c *broadcastChannelImpl) Close() error {
	c.ch.Close()
	return nil
}

func (c *broadcastChannelImpl) Onmessage() (*EventHandlerNonNull, error) {
	return c.handlerGet("message"), nil
}
func (c *broadcastChannelImpl) SetOnmessage(v *EventHandlerNonNull) error {
	c.handlerSet("message", v)
	return nil
}
func (c *broadcastChannelImpl) Onmessageerror() (*EventHandlerNonNull, error) {
	return c.handlerGet("messageerror"), nil
}
func (c *broadcastChannelImpl) SetOnmessageerror(v *EventHandlerNonNull) error {
	c.handlerSet("messageerror", v)
	return nil
}
