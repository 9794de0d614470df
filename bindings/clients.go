package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/serviceworker"
	"github.com/grafana/sobek"
)

type clientsImpl struct {
	webidl.Reflector
	realm *Realm
	sw    *serviceworker.ServiceWorker
}

// Get is https://w3c.github.io/ServiceWorker/#clients-get: the client
// whose id is id, if the worker may see it; a window client's info is
// read in its event loop first (windowclient.go).
func (c *clientsImpl) Get(id webidl.DOMString) (*webidl.Promise, error) {
	r := c.realm
	p := r.idl.NewPromise()
	if c.sw != nil {
		for _, env := range serviceworker.Clients(c.sw, true) {
			if env.ID() == string(id) {
				c.resolveClients([]*html.EnvironmentSettingsObject{env}, func(vals []sobek.Value) { p.Resolve(vals[0]) })
				return p, nil
			}
		}
		// A client of another process (package serviceworker's
		// registry).
		for _, rc := range serviceworker.RemoteClients(c.sw, true) {
			if rc.ID == string(id) {
				p.Resolve(c.remoteClientObject(rc))
				return p, nil
			}
		}
	}
	p.Resolve(sobek.Undefined())
	return p, nil
}

// MatchAll is https://w3c.github.io/ServiceWorker/#clients-matchall.
func (c *clientsImpl) MatchAll(opts ClientQueryOptions) (*webidl.Promise, error) {
	r := c.realm
	var matched []*html.EnvironmentSettingsObject
	var remote [2][]serviceworker.RemoteClient // windows, workers
	windows := 0
	if c.sw != nil {
		envs := serviceworker.Clients(c.sw, opts.IncludeUncontrolled)
		// Window clients first, then workers (creation order is not
		// tracked: see doc.go).
		for _, wantWindow := range []bool{true, false} {
			for _, env := range envs {
				t := clientTypeOf(env)
				if (t == "window") != wantWindow {
					continue
				}
				if opts.Type == "all" || opts.Type == t {
					matched = append(matched, env)
					if wantWindow {
						windows++
					}
				}
			}
		}
		// Then those of other processes (package serviceworker's
		// registry), after this process's of their type.
		for _, rc := range serviceworker.RemoteClients(c.sw, opts.IncludeUncontrolled) {
			if t := remoteClientType(&rc); opts.Type == "all" || opts.Type == t {
				i := 1
				if rc.Window {
					i = 0
				}
				remote[i] = append(remote[i], rc)
			}
		}
	}
	p := r.idl.NewPromise()
	c.resolveClients(matched, func(vals []sobek.Value) {
		items := make([]any, 0, len(vals)+len(remote[0])+len(remote[1]))
		for i, v := range vals {
			if i == windows {
				for _, rc := range remote[0] {
					items = append(items, c.remoteClientObject(rc))
				}
			}
			items = append(items, v)
		}
		if windows == len(vals) {
			for _, rc := range remote[0] {
				items = append(items, c.remoteClientObject(rc))
			}
		}
		for _, rc := range remote[1] {
			items = append(items, c.remoteClientObject(rc))
		}
		arr := r.vm.NewArray(items...)
		if freeze, ok := sobek.AssertFunction(r.vm.Get("Object").ToObject(r.vm).Get("freeze")); ok {
			_, _ = freeze(sobek.Undefined(), arr)
		}
		p.Resolve(arr)
	})
	return p, nil
}

// Claim is https://w3c.github.io/ServiceWorker/#clients-claim.
func (c *clientsImpl) Claim() (*webidl.Promise, error) {
	r := c.realm
	// 1. If the service worker is not an active worker, return a promise
	//    rejected with an "InvalidStateError" DOMException.
	if c.sw == nil || !serviceworker.Claim(c.sw) {
		return r.idl.PromiseRejectedWithError(dom.NewDOMException("Failed to claim: Only the active worker can claim clients.", dom.InvalidStateError)), nil
	}
	return r.idl.PromiseResolvedWith(sobek.Undefined()), nil
}

// remoteClientObject is the Client object of rc, a client of another
// process.
func (c *clientsImpl) remoteClientObject(rc serviceworker.RemoteClient) sobek.Value {
	src := &clientImpl{realm: c.realm, sw: c.sw, remote: &rc}
	if rc.Window {
		return idlWrapWindowClient(c.realm.idl, &windowClientImpl{clientImpl: src, info: remoteWindowInfo()})
	}
	return idlWrapClient(c.realm.idl, src)
}
