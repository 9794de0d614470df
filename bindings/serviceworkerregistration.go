package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
)

// registrationObject is "get the service worker registration object" for
// reg in r.
func (r *Realm) registrationObject(reg *html.ServiceWorkerRegistration) *serviceWorkerRegistrationImpl {
	st := r.swState()
	if o := st.regs[reg]; o != nil {
		return o
	}
	t := &dom.EventTarget{}
	o := &serviceWorkerRegistrationImpl{eventTargetImpl: r.newEventTargetImpl(t), reg: reg}
	o.installing, o.waiting, o.active = reg.Workers()
	if st.last != nil {
		if ws, ok := st.last.Registrations[reg]; ok {
			o.installing, o.waiting, o.active = ws[0], ws[1], ws[2]
		}
	}
	t.Owner = o
	st.regs[reg] = o
	return o
}

type serviceWorkerRegistrationImpl struct {
	*eventTargetImpl
	reg *html.ServiceWorkerRegistration
	// installing, waiting and active are the object's view, updated by
	// tasks (applyServiceWorkerSnapshot) as Update Registration State does.
	installing, waiting, active *html.ServiceWorker
	// found is the last installing worker updatefound was fired for;
	// pendingFound is one a register job's resolution announced.
	found, pendingFound *html.ServiceWorker
}

func (o *serviceWorkerRegistrationImpl) firePendingUpdateFound() {
	if w := o.pendingFound; w != nil {
		o.pendingFound = nil
		o.updateFound(w)
	}
}

// updateFound fires updatefound (Install step 7) when w is a new
// installing worker.
func (o *serviceWorkerRegistrationImpl) updateFound(w *html.ServiceWorker) {
	if w == nil || w == o.found {
		return
	}
	o.found = w
	ev := dom.NewEvent("updatefound")
	ev.IsTrusted = true
	o.target.DispatchEvent(ev)
}

func (o *serviceWorkerRegistrationImpl) WebIDLInterface() string { return "ServiceWorkerRegistration" }

func (o *serviceWorkerRegistrationImpl) worker(w *html.ServiceWorker) ServiceWorkerMethods {
	if w == nil {
		return nil
	}
	return o.realm.serviceWorkerObject(w)
}

func (o *serviceWorkerRegistrationImpl) Installing() (ServiceWorkerMethods, error) {
	return o.worker(o.installing), nil
}

func (o *serviceWorkerRegistrationImpl) Waiting() (ServiceWorkerMethods, error) {
	return o.worker(o.waiting), nil
}

func (o *serviceWorkerRegistrationImpl) Active() (ServiceWorkerMethods, error) {
	return o.worker(o.active), nil
}

func (o *serviceWorkerRegistrationImpl) Scope() (string, error) { return o.reg.Scope().String(), nil }

func (o *serviceWorkerRegistrationImpl) UpdateViaCache() (ServiceWorkerUpdateViaCache, error) {
	return "imports", nil
}

func (o *serviceWorkerRegistrationImpl) Onupdatefound() (*EventHandlerNonNull, error) {
	return o.handlerGet("updatefound"), nil
}

func (o *serviceWorkerRegistrationImpl) SetOnupdatefound(v *EventHandlerNonNull) error {
	o.handlerSet("updatefound", v)
	return nil
}

// Unregister is https://w3c.github.io/ServiceWorker/#navigator-service-worker-unregister
// (the unregister job runs at once: see html.ServiceWorkerRegistration.Unregister).
func (o *serviceWorkerRegistrationImpl) Unregister() (*webidl.Promise, error) {
	return o.realm.idl.PromiseResolvedWith(o.realm.vm.ToValue(o.reg.Unregister())), nil
}

// Update is https://w3c.github.io/ServiceWorker/#service-worker-registration-update,
// without the update job's fetch: the script is taken as unchanged (no
// byte-for-byte check, see doc.go), so the job resolves with the
// registration and no new worker is installed.
func (o *serviceWorkerRegistrationImpl) Update() (*webidl.Promise, error) {
	r := o.realm
	// 1. Let registration be the service worker registration; 2. let
	//    newestWorker be the result of running Get Newest Worker.
	installing, waiting, active := o.reg.Workers()
	newestWorker := installing
	if newestWorker == nil {
		newestWorker = waiting
	}
	if newestWorker == nil {
		newestWorker = active
	}
	// 3. If newestWorker is null, return a promise rejected with an
	//    "InvalidStateError" DOMException.
	if newestWorker == nil || o.reg.Unregistered() {
		return r.idl.PromiseRejectedWithError(dom.NewDOMException("Failed to update a ServiceWorker: The registration has no worker.", dom.InvalidStateError)), nil
	}
	// 4. If this's relevant global object is a ServiceWorkerGlobalScope
	//    whose service worker's state is "installing", return a promise
	//    rejected with an "InvalidStateError" DOMException.
	if g, ok := r.globalImpl.(*serviceWorkerGlobalImpl); ok && g.sw != nil && g.sw.State() == html.SWInstalling {
		return r.idl.PromiseRejectedWithError(dom.NewDOMException("Failed to update a ServiceWorker: The service worker is installing.", dom.InvalidStateError)), nil
	}
	// 5-8. Create and schedule an update job; its result is the
	//    registration (the unchanged script installs nothing).
	return r.idl.PromiseResolvedWith(idlWrapServiceWorkerRegistration(r.idl, o)), nil
}
