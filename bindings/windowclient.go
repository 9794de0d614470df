package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// This file is WindowClient (https://w3c.github.io/ServiceWorker/#windowclient):
// the Client of a window, with the visibility state, focus state and
// ancestor origins read in the window's own event loop.

// windowClientInfo is what "create window client" takes from the window:
// its document's visibility state, its focus state and its ancestor
// origins list.
type windowClientInfo struct {
	visibility DocumentVisibilityState
	focused    bool
	ancestors  []string
}

// windowClientInfo reads the info of the window realm r; call it in a
// task of r.
func (r *Realm) windowClientInfo() windowClientInfo {
	info := windowClientInfo{visibility: "visible", ancestors: []string{}}
	if w, ok := r.globalImpl.(*windowImpl); ok && w.hidden {
		info.visibility = "hidden"
	}
	// The has focus steps: this engine has no focused document (as
	// document.hasFocus()).
	info.focused = false
	// The ancestor origins list: the origins of the container documents,
	// nearest first.
	if r.env != nil {
		if doc := r.env.AssociatedDocument(); doc != nil {
			for n := doc.Navigable(); n != nil && n.Parent() != nil; n = n.Parent() {
				if p := n.ParentDocument(); p != nil {
					info.ancestors = append(info.ancestors, p.Origin().Serialize())
				}
			}
		}
	}
	return info
}

// windowClientImpl is a WindowClient object.
type windowClientImpl struct {
	*clientImpl
	info windowClientInfo
}

func (c *windowClientImpl) WebIDLInterface() string { return "WindowClient" }

func (c *windowClientImpl) VisibilityState() (DocumentVisibilityState, error) {
	return c.info.visibility, nil
}
func (c *windowClientImpl) Focused() (bool, error)             { return c.info.focused, nil }
func (c *windowClientImpl) AncestorOrigins() ([]string, error) { return c.info.ancestors, nil }

// Focus is https://w3c.github.io/ServiceWorker/#client-focus: without
// transient activation (a service worker never has it here: there is no
// user) the promise is rejected with an "InvalidAccessError".
func (c *windowClientImpl) Focus() (*webidl.Promise, error) {
	// 1. If this's relevant global object does not have transient
	//    activation, return a promise rejected with an
	//    "InvalidAccessError" DOMException.
	return c.realm.idl.PromiseRejectedWithError(dom.NewDOMException("Failed to execute 'focus' on 'WindowClient': Not allowed to focus a window.", dom.InvalidAccessError)), nil
}

// clientObject returns the Client object of env in the service worker
// realm c.realm: a WindowClient (info read from the window) or a Client.
func (c *clientsImpl) clientObject(env *html.EnvironmentSettingsObject, info *windowClientInfo) sobek.Value {
	base := &clientImpl{realm: c.realm, env: env, sw: c.sw}
	if info != nil {
		return idlWrapWindowClient(c.realm.idl, &windowClientImpl{clientImpl: base, info: *info})
	}
	return idlWrapClient(c.realm.idl, base)
}

// resolveClients gets the window info of every window client in envs (a
// task in each window's event loop, as Clients.get and matchAll do before
// "create window client"), then, in a task of the service worker's
// realm, calls done with the Client objects in envs' order.
func (c *clientsImpl) resolveClients(envs []*html.EnvironmentSettingsObject, done func([]sobek.Value)) {
	r := c.realm
	infos := make([]*windowClientInfo, len(envs))
	pending := 1
	finish := func() {
		pending--
		if pending > 0 {
			return
		}
		vals := make([]sobek.Value, len(envs))
		for i, env := range envs {
			vals[i] = c.clientObject(env, infos[i])
		}
		done(vals)
	}
	for i, env := range envs {
		if env.AssociatedDocument() == nil {
			continue
		}
		wr := RealmOf(env)
		if wr == nil {
			infos[i] = &windowClientInfo{visibility: "hidden", ancestors: []string{}}
			continue
		}
		i := i
		pending++
		queued := wr.queueTask(html.DOMManipulationTaskSource, func() {
			info := wr.windowClientInfo()
			if !r.queueTask(html.DOMManipulationTaskSource, func() { infos[i] = &info; finish() }) {
				return
			}
		})
		if !queued {
			infos[i] = &windowClientInfo{visibility: "hidden", ancestors: []string{}}
			pending--
		}
	}
	finish()
}
