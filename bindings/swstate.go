package bindings

import (
	"net/url"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/serviceworker"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// The Service Workers interfaces are implemented over package
// serviceworker's registrations and service workers, one file each: ServiceWorkerContainer (navigator.serviceWorker), ServiceWorker
// and ServiceWorkerRegistration objects (one per realm per html object),
// ServiceWorkerGlobalScope, Clients, Client, ExtendableEvent and
// ExtendableMessageEvent. This file holds the per-realm state they share.
// Running a service worker is the embedder's (serviceworker.Host):
// it creates the realm with NewServiceWorkerRealm and fires lifecycle
// events with FireExtendableEvent.

// swRealmState is a realm's service worker objects: one ServiceWorker and
// ServiceWorkerRegistration object per html object, the container, and
// the subscription that keeps them up to date.
type swRealmState struct {
	workers   map[*serviceworker.ServiceWorker]*serviceWorkerImpl
	regs      map[*serviceworker.Registration]*serviceWorkerRegistrationImpl
	container *serviceWorkerContainerImpl
	// last is the last snapshot applied: new objects start from it.
	last *serviceworker.Snapshot
}

type swStateKey struct{}

// swState returns the realm's service worker state, subscribing to package
// serviceworker's changes on first use (the "update the worker state" and "update the
// registration state" tasks of the spec become one refresh task).
func (r *Realm) swState() *swRealmState {
	if st, ok := r.Value(swStateKey{}).(*swRealmState); ok {
		return st
	}
	st := &swRealmState{workers: map[*serviceworker.ServiceWorker]*serviceWorkerImpl{}, regs: map[*serviceworker.Registration]*serviceWorkerRegistrationImpl{}}
	r.SetValue(swStateKey{}, st)
	if r.env != nil {
		st.last = serviceworker.TakeSnapshot(r.env.UserAgent())
		unsub := serviceworker.Subscribe(r.env.UserAgent(), func(snap *serviceworker.Snapshot) {
			r.queueTask(html.DOMManipulationTaskSource, func() { r.applyServiceWorkerSnapshot(snap) })
		})
		r.env.Agent().AddTerminationSteps(unsub)
		if doc := r.env.AssociatedDocument(); doc != nil {
			doc.AddUnloadingDocumentCleanupSteps(unsub)
		}
	}
	return st
}

// applyServiceWorkerSnapshot runs in a task after the state changed
// (snapshots arrive in order): registration objects get their workers,
// ServiceWorker objects whose worker changed state get it and a
// statechange event, then the container's controller and ready promise
// follow.
func (r *Realm) applyServiceWorkerSnapshot(snap *serviceworker.Snapshot) {
	st := r.swState()
	st.last = snap
	for reg, o := range st.regs {
		o.firePendingUpdateFound()
		if ws, ok := snap.Registrations[reg]; ok {
			// Install step 7: a new installing worker fires updatefound.
			o.installing, o.waiting, o.active = ws[0], ws[1], ws[2]
			o.updateFound(ws[0])
		}
	}
	for w, o := range st.workers {
		if s, ok := snap.States[w]; ok && s != o.state {
			o.state = s
			o.fire("statechange")
		}
	}
	if c := st.container; c != nil {
		c.refresh(snap)
	}
}

// parseSWURL parses s against the realm's API base URL (register()'s
// steps 3 and 5); failure is Start Register's TypeError.
func (r *Realm) parseSWURL(what, s string) (*url.URL, error) {
	p, err := whatwg.ParseRef(r.baseURL(), s)
	if err != nil {
		return nil, webidl.NewTypeError("Failed to register a ServiceWorker: The %s URL '%s' is invalid.", what, s)
	}
	u, err := url.Parse(p.Href(false))
	if err != nil {
		return nil, webidl.NewTypeError("Failed to register a ServiceWorker: The %s URL '%s' is invalid.", what, s)
	}
	return u, nil
}
