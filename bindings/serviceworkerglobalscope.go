package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/serviceworker"
	"github.com/grafana/sobek"
)

// NewServiceWorkerRealm creates the ServiceWorkerGlobalScope realm of
// service worker w, whose environment env comes from
// package serviceworker (html.NewStandaloneWorkerEnvironment).
func NewServiceWorkerRealm(env *html.EnvironmentSettingsObject, w *serviceworker.ServiceWorker, opts Options) (*Realm, error) {
	if env.AssociatedDocument() != nil || env.Agent().Kind() != html.ServiceWorkerAgent {
		return nil, ErrWrongEnvironment
	}
	r, err := newEnvRealm(env, ServiceWorkerGlobal, opts)
	if err != nil {
		return nil, err
	}
	if g, ok := r.globalImpl.(*serviceWorkerGlobalImpl); ok {
		g.sw = w
	}
	return r, nil
}

type serviceWorkerGlobalImpl struct {
	*workerGlobalImpl
	sw      *serviceworker.ServiceWorker
	clients *clientsImpl
}

func (g *serviceWorkerGlobalImpl) WebIDLInterface() string { return "ServiceWorkerGlobalScope" }

func (g *serviceWorkerGlobalImpl) Clients() (ClientsMethods, error) {
	if g.clients == nil {
		g.clients = &clientsImpl{realm: g.realm, sw: g.sw}
	}
	return g.clients, nil
}

func (g *serviceWorkerGlobalImpl) Registration() (ServiceWorkerRegistrationMethods, error) {
	if g.sw == nil {
		return nil, dom.NewDOMException("This service worker has no registration.", dom.InvalidStateError)
	}
	return g.realm.registrationObject(g.sw.Registration()), nil
}

func (g *serviceWorkerGlobalImpl) ServiceWorker() (ServiceWorkerMethods, error) {
	if g.sw == nil {
		return nil, dom.NewDOMException("This global has no service worker.", dom.InvalidStateError)
	}
	return g.realm.serviceWorkerObject(g.sw), nil
}

// SkipWaiting is https://w3c.github.io/ServiceWorker/#service-worker-global-scope-skipwaiting:
// set the skip waiting flag, then (in parallel) Try Activate; the promise
// resolves at once.
func (g *serviceWorkerGlobalImpl) SkipWaiting() (*webidl.Promise, error) {
	if g.sw != nil {
		serviceworker.SkipWaiting(g.sw)
	}
	return g.realm.idl.PromiseResolvedWith(sobek.Undefined()), nil
}

func (g *serviceWorkerGlobalImpl) Oninstall() (*EventHandlerNonNull, error) {
	return g.handlerGet("install"), nil
}

func (g *serviceWorkerGlobalImpl) SetOninstall(v *EventHandlerNonNull) error {
	g.handlerSet("install", v)
	return nil
}

func (g *serviceWorkerGlobalImpl) Onactivate() (*EventHandlerNonNull, error) {
	return g.handlerGet("activate"), nil
}

func (g *serviceWorkerGlobalImpl) SetOnactivate(v *EventHandlerNonNull) error {
	g.handlerSet("activate", v)
	return nil
}

// Onfetch and SetOnfetch are the onfetch event handler IDL attribute.
func (g *serviceWorkerGlobalImpl) Onfetch() (*EventHandlerNonNull, error) {
	return g.handlerGet("fetch"), nil
}
func (g *serviceWorkerGlobalImpl) SetOnfetch(v *EventHandlerNonNull) error {
	g.handlerSet("fetch", v)
	return nil
}
