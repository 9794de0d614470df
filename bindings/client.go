package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/serviceworker"
	"github.com/grafana/sobek"
)

// deliverToClient is Client.postMessage's delivery in the client's realm
// r: a message event at its ServiceWorkerContainer whose source is the
// ServiceWorker object of w.
func (r *Realm) deliverToClient(w *serviceworker.ServiceWorker, msg html.SerializedWithTransfer, origin string) {
	c := r.container()
	src := idlWrapServiceWorker(r.idl, r.serviceWorkerObject(w))
	r.DeliverMessage(idlWrapServiceWorkerContainer(r.idl, c).(*sobek.Object), msg, origin, src)
}

func clientTypeOf(env *html.EnvironmentSettingsObject) ClientType {
	if env.AssociatedDocument() != nil {
		return "window"
	}
	if env.Kind() == html.DedicatedWorkerEnvironment {
		return "worker"
	}
	return "sharedworker"
}

type clientImpl struct {
	webidl.Reflector
	realm *Realm
	env   *html.EnvironmentSettingsObject
	sw    *serviceworker.ServiceWorker
}

func (c *clientImpl) URL() (string, error) {
	if doc := c.env.AssociatedDocument(); doc != nil {
		return doc.URL().String(), nil
	}
	return c.env.CreationURL().String(), nil
}

func (c *clientImpl) FrameType() (FrameType, error) {
	doc := c.env.AssociatedDocument()
	if doc == nil {
		return "none", nil
	}
	if n := doc.Navigable(); n != nil && n.Parent() != nil {
		return "nested", nil
	}
	return "top-level", nil
}

// ID is the client's environment's id: the clientId of Web Locks.
func (c *clientImpl) ID() (webidl.DOMString, error) { return webidl.DOMString(c.env.ID()), nil }

func (c *clientImpl) Type() (ClientType, error) { return clientTypeOf(c.env), nil }

func (c *clientImpl) PostMessageWithTransfer(message sobek.Value, transfer []*sobek.Object) error {
	return c.postMessage(message, transfer)
}

func (c *clientImpl) PostMessageWithOptions(message sobek.Value, opts StructuredSerializeOptions) error {
	return c.postMessage(message, opts.Transfer)
}

// postMessage is https://w3c.github.io/ServiceWorker/#client-postmessage-options.
func (c *clientImpl) postMessage(message sobek.Value, transfer []*sobek.Object) error {
	r := c.realm
	// 3. Let serializeWithTransferResult be
	//    StructuredSerializeWithTransfer(message, options["transfer"]).
	msg, err := r.StructuredSerializeWithTransfer(message, transfer)
	if err != nil {
		return err
	}
	origin := ""
	if r.env != nil {
		origin = r.env.Origin().Serialize()
	}
	// 5. Queue a task on the target client's event loop (posted message
	//    task source) that fires message at its ServiceWorkerContainer.
	if target := RealmOf(c.env); target != nil && c.sw != nil {
		sw := c.sw
		target.queueTask(html.PostedMessageTaskSource, func() { target.deliverToClient(sw, msg, origin) })
	}
	return nil
}
