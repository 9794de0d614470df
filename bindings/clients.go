package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

type clientsImpl struct {
	webidl.Reflector
	realm *Realm
	sw    *html.ServiceWorker
}

func (c *clientsImpl) clientValue(env *html.EnvironmentSettingsObject) sobek.Value {
	return c.realm.idl.Wrap(&clientImpl{realm: c.realm, env: env, sw: c.sw}, "Client")
}

// Get is https://w3c.github.io/ServiceWorker/#clients-get.
func (c *clientsImpl) Get(id webidl.DOMString) (*webidl.Promise, error) {
	r := c.realm
	if c.sw != nil {
		for _, env := range html.ServiceWorkerClients(c.sw, true) {
			if env.ID() == string(id) {
				return r.idl.PromiseResolvedWith(c.clientValue(env)), nil
			}
		}
	}
	return r.idl.PromiseResolvedWith(sobek.Undefined()), nil
}

// MatchAll is https://w3c.github.io/ServiceWorker/#clients-matchall.
func (c *clientsImpl) MatchAll(opts ClientQueryOptions) (*webidl.Promise, error) {
	r := c.realm
	var vals []any
	if c.sw != nil {
		envs := html.ServiceWorkerClients(c.sw, opts.IncludeUncontrolled)
		// Window clients first, then workers (creation order is not
		// tracked: see doc.go).
		for _, wantWindow := range []bool{true, false} {
			for _, env := range envs {
				t := clientTypeOf(env)
				if (t == "window") != wantWindow {
					continue
				}
				if opts.Type == "all" || opts.Type == t {
					vals = append(vals, c.clientValue(env))
				}
			}
		}
	}
	arr := r.vm.NewArray(vals...)
	if freeze, ok := sobek.AssertFunction(r.vm.Get("Object").ToObject(r.vm).Get("freeze")); ok {
		_, _ = freeze(sobek.Undefined(), arr)
	}
	return r.idl.PromiseResolvedWith(arr), nil
}

// Claim is https://w3c.github.io/ServiceWorker/#clients-claim.
func (c *clientsImpl) Claim() (*webidl.Promise, error) {
	r := c.realm
	// 1. If the service worker is not an active worker, return a promise
	//    rejected with an "InvalidStateError" DOMException.
	if c.sw == nil || !html.Claim(c.sw) {
		return r.idl.PromiseRejectedWithError(dom.NewDOMException("Failed to claim: Only the active worker can claim clients.", dom.InvalidStateError)), nil
	}
	return r.idl.PromiseResolvedWith(sobek.Undefined()), nil
}
