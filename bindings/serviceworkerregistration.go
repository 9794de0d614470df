package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/serviceworker"
)

// registrationObject is "get the service worker registration object" for
// reg in r.
func (r *Realm) registrationObject(reg *serviceworker.Registration) *serviceWorkerRegistrationImpl {
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
	reg *serviceworker.Registration
	// installing, waiting and active are the object's view, updated by
	// tasks (applyServiceWorkerSnapshot) as Update Registration State does.
	installing, waiting, active *serviceworker.ServiceWorker
	// found is the last installing worker updatefound was fired for;
	// pendingFound is one a register job's resolution announced.
	found, pendingFound *serviceworker.ServiceWorker
}

func (o *serviceWorkerRegistrationImpl) firePendingUpdateFound() {
	if w := o.pendingFound; w != nil {
		o.pendingFound = nil
		o.updateFound(w)
	}
}

// updateFound fires updatefound (Install step 7) when w is a new
// installing worker.
func (o *serviceWorkerRegistrationImpl) updateFound(w *serviceworker.ServiceWorker) {
	if w == nil || w == o.found {
		return
	}
	o.found = w
	ev := dom.NewEvent("updatefound")
	ev.IsTrusted = true
	o.target.DispatchEvent(ev)
}

func (o *serviceWorkerRegistrationImpl) WebIDLInterface() string { return "ServiceWorkerRegistration" }

func (o *serviceWorkerRegistrationImpl) worker(w *serviceworker.ServiceWorker) ServiceWorkerMethods {
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

// UpdateViaCache is the registration's update via cache mode.
func (o *serviceWorkerRegistrationImpl) UpdateViaCache() (ServiceWorkerUpdateViaCache, error) {
	return ServiceWorkerUpdateViaCache(o.reg.UpdateViaCache()), nil
}

func (o *serviceWorkerRegistrationImpl) Onupdatefound() (*EventHandlerNonNull, error) {
	return o.handlerGet("updatefound"), nil
}

func (o *serviceWorkerRegistrationImpl) SetOnupdatefound(v *EventHandlerNonNull) error {
	o.handlerSet("updatefound", v)
	return nil
}

// Unregister is https://w3c.github.io/ServiceWorker/#navigator-service-worker-unregister:
// an unregister job (package serviceworker); the promise resolves in a
// task with whether a registration was removed.
func (o *serviceWorkerRegistrationImpl) Unregister() (*webidl.Promise, error) {
	r := o.realm
	p := r.idl.NewPromise()
	serviceworker.ScheduleUnregister(r.env, o.reg, func(res serviceworker.JobResult) {
		r.queueTask(html.DOMManipulationTaskSource, func() {
			if res.Err != nil {
				p.RejectError(jobError(res.Err))
				return
			}
			p.Resolve(r.vm.ToValue(res.Removed))
		})
	})
	return p, nil
}

// Update is https://w3c.github.io/ServiceWorker/#service-worker-registration-update:
// an update job (package serviceworker) fetches the script again; an
// unchanged script resolves with the registration and installs nothing.
func (o *serviceWorkerRegistrationImpl) Update() (*webidl.Promise, error) {
	r := o.realm
	// 4. If this's relevant global object is a ServiceWorkerGlobalScope
	//    whose service worker's state is "installing", return a promise
	//    rejected with an "InvalidStateError" DOMException.
	if g, ok := r.globalImpl.(*serviceWorkerGlobalImpl); ok && g.sw != nil && g.sw.State() == serviceworker.Installing {
		return r.idl.PromiseRejectedWithError(dom.NewDOMException("Failed to update a ServiceWorker: The service worker is installing.", dom.InvalidStateError)), nil
	}
	// 1-3, 5-8. Create and schedule an update job (an "InvalidStateError"
	//    when the registration has no newest worker).
	p := r.idl.NewPromise()
	err := serviceworker.ScheduleUpdate(r.env, o.reg, func(res serviceworker.JobResult) {
		r.queueTask(html.DOMManipulationTaskSource, func() { r.settleRegistrationPromise(p, res) })
	})
	if err != nil {
		return r.idl.PromiseRejectedWithError(jobError(err)), nil
	}
	return p, nil
}
