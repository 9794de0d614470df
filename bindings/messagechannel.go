package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/html"
)

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
