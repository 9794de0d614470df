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
	// remote is a client of another process (env is nil then).
	remote *serviceworker.RemoteClient
}

// remoteClientType is the client type of a client of another process.
func remoteClientType(c *serviceworker.RemoteClient) ClientType {
	if c.Window {
		return "window"
	}
	return "worker"
}

func (c *clientImpl) URL() (string, error) {
	if c.remote != nil {
		return c.remote.URL.String(), nil
	}
	if doc := c.env.AssociatedDocument(); doc != nil {
		return doc.URL().String(), nil
	}
	return c.env.CreationURL().String(), nil
}

func (c *clientImpl) FrameType() (FrameType, error) {
	if rc := c.remote; rc != nil {
		switch {
		case !rc.Window:
			return "none", nil
		case rc.Nested:
			return "nested", nil
		}
		return "top-level", nil
	}
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
func (c *clientImpl) ID() (webidl.DOMString, error) {
	if c.remote != nil {
		return webidl.DOMString(c.remote.ID), nil
	}
	return webidl.DOMString(c.env.ID()), nil
}

func (c *clientImpl) Type() (ClientType, error) {
	if c.remote != nil {
		return remoteClientType(c.remote), nil
	}
	return clientTypeOf(c.env), nil
}

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
	if c.remote != nil {
		// (A client of another process: through package serviceworker's
		// registry.)
		if c.sw != nil {
			serviceworker.PostToRemoteClient(c.sw, c.remote.ID, msg)
		}
		return nil
	}
	// 5. Queue a task on the target client's event loop (posted message
	//    task source) that fires message at its ServiceWorkerContainer.
	if target := RealmOf(c.env); target != nil && c.sw != nil {
		sw := c.sw
		target.queueTask(html.PostedMessageTaskSource, func() { target.deliverToClient(sw, msg, origin) })
	}
	return nil
}

// DeliverServiceWorkerMessage is Client.postMessage's delivery, from
// worker w of another process, to client env of this one: a task of
// env's realm fires message at its ServiceWorkerContainer. It reports
// false when env has no realm that takes tasks.
func DeliverServiceWorkerMessage(env *html.EnvironmentSettingsObject, w *serviceworker.ServiceWorker, msg html.SerializedWithTransfer, origin string) bool {
	r := RealmOf(env)
	return r != nil && r.queueTask(html.PostedMessageTaskSource, func() { r.deliverToClient(w, msg, origin) })
}

// DeliverRemoteClientMessage is ServiceWorker.postMessage's delivery,
// from client of another process, to worker w of this one, whose
// environment is env: a task of its realm fires an ExtendableMessageEvent
// whose source is a Client object for client (a window client's
// visibility state is "visible", its focus state false and its ancestor
// origins list empty: the other process's window is not asked). It
// reports false when env has no realm that takes tasks.
func DeliverRemoteClientMessage(env *html.EnvironmentSettingsObject, w *serviceworker.ServiceWorker, msg html.SerializedWithTransfer, origin string, client serviceworker.RemoteClient) bool {
	r := RealmOf(env)
	return r != nil && r.queueTask(html.PostedMessageTaskSource, func() {
		r.deliverToServiceWorker(msg, origin, remoteClientSource(r, w, &client))
	})
}

// remoteClientSource is the Client object of a client of another process
// in the service worker realm r.
func remoteClientSource(r *Realm, w *serviceworker.ServiceWorker, client *serviceworker.RemoteClient) ClientOrServiceWorkerOrMessagePort {
	src := &clientImpl{realm: r, sw: w, remote: client}
	source := ClientOrServiceWorkerOrMessagePort{Type: ClientOrServiceWorkerOrMessagePortIsClient, Client: src}
	if client.Window {
		source.Client = &windowClientImpl{clientImpl: src, info: remoteWindowInfo()}
	}
	return source
}

// remoteWindowInfo is the window client info of a window of another
// process (not asked: see DeliverRemoteClientMessage).
func remoteWindowInfo() windowClientInfo {
	return windowClientInfo{visibility: "visible", ancestors: []string{}}
}
