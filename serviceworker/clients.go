package serviceworker

import (
	"net/url"

	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/storage"
)

// isClient reports whether env is a live service worker client: a window
// or worker environment (not a service worker's own) whose document, if
// any, was not unloaded.
func isClient(env *html.EnvironmentSettingsObject) bool {
	if env.Agent().Kind() == html.ServiceWorkerAgent || env.Agent().IsTerminated() {
		return false
	}
	if doc := env.AssociatedDocument(); doc != nil && doc.IsUnloaded() {
		return false
	}
	return true
}

// isUsedLocked reports whether a service worker client is using reg
// (https://w3c.github.io/ServiceWorker/#dfn-use): its active service
// worker's containing registration is reg (st.mu held).
func (st *uaState) isUsedLocked(reg *Registration) bool {
	for _, env := range st.liveEnvironments() {
		if c := clientSlot.Get(env); c != nil && c.activeServiceWorker != nil && c.activeServiceWorker.reg == reg && isClient(env) {
			return true
		}
	}
	return st.usedExternallyLocked(reg)
}

// setActiveServiceWorkerLocked sets client's active service worker to w
// (st.mu held); it reports whether Handle Service Worker Client Unload
// must be hooked to the client's unloading (watch, without st.mu): not
// before a navigation's reserved environment became a document's
// environment settings object (WindowClientCreated).
func setActiveServiceWorkerLocked(client *html.EnvironmentSettingsObject, w *ServiceWorker) (mustWatch bool) {
	c := clientSlot.GetOrInit(client, func() *clientRecord { return &clientRecord{} })
	c.activeServiceWorker = w
	if w != nil && !c.watched && !client.IsReserved() {
		c.watched = true
		return true
	}
	return false
}

// watch runs Handle Service Worker Client Unload when client unloads:
// its document's unloading document cleanup steps, or its agent's
// termination.
func (st *uaState) watch(client *html.EnvironmentSettingsObject) {
	unload := func() { st.handleServiceWorkerClientUnload(client) }
	if doc := client.AssociatedDocument(); doc != nil {
		doc.AddUnloadingDocumentCleanupSteps(unload)
		return
	}
	client.Agent().AddTerminationSteps(unload)
}

// handleServiceWorkerClientUnload is https://w3c.github.io/ServiceWorker/#on-client-unload-algorithm;
// it runs its steps on the job queue (they may activate a worker).
func (st *uaState) handleServiceWorkerClientUnload(client *html.EnvironmentSettingsObject) {
	st.mu.Lock()
	if r := st.remote; r != nil {
		// (The registry runs the steps.)
		if c := clientSlot.Get(client); c != nil {
			c.activeServiceWorker = nil
		}
		st.mu.Unlock()
		r.ClientRemoved(client.ID())
		st.changed()
		return
	}
	// 2. Let registration be the service worker registration used by
	//    client. (The client is gone: it uses nothing afterwards.)
	var reg *Registration
	if c := clientSlot.Get(client); c != nil && c.activeServiceWorker != nil {
		reg = c.activeServiceWorker.reg
		c.activeServiceWorker = nil
	}
	st.mu.Unlock()
	// 3. If registration is null, abort these steps.
	if reg == nil {
		return
	}
	st.changed()
	st.clientUnloadSteps(reg)
}

// clientUnloadSteps are Handle Service Worker Client Unload's steps 4-6
// for the registration a client used, on the job queue.
func (st *uaState) clientUnloadSteps(reg *Registration) {
	st.serial.enqueue(func() {
		// 1. Run the following steps atomically. (The job queue runs one
		//    step at a time.)
		st.mu.Lock()
		// 4. If any other service worker client is using registration,
		//    abort these steps.
		using := st.isUsedLocked(reg)
		// 5. If registration is unregistered, invoke Try Clear
		//    Registration with registration.
		unregistered := st.registrations[keyOf(reg.storageKey, reg.scope)] != reg
		st.mu.Unlock()
		if using {
			return
		}
		if unregistered {
			st.tryClearRegistration(reg)
		}
		// 6. Invoke Try Activate with registration.
		st.tryActivate(reg)
	})
}

// ActiveServiceWorker is client's active service worker
// (https://w3c.github.io/ServiceWorker/#environment-settings-object-service-worker),
// its controller; nil when none.
func ActiveServiceWorker(client *html.EnvironmentSettingsObject) *ServiceWorker {
	if client == nil {
		return nil
	}
	st := stateOf(client.UserAgent())
	st.mu.Lock()
	defer st.mu.Unlock()
	if c := clientSlot.Get(client); c != nil {
		return c.activeServiceWorker
	}
	return nil
}

// WindowClientCreated is the window client case of
// https://w3c.github.io/ServiceWorker/#control-and-use-window-client
// for client, the environment settings object of the document a
// navigation made; creator is its creator document's environment (a
// child navigable's container document's, an auxiliary navigable's
// opener's; nil for none), and httpFetched tells whether the
// navigation's fetch went through HTTP fetch, whose Handle Fetch gave
// the reserved environment client took over the active service worker
// its URL matched (HandleFetchNonSubresource).
func WindowClientCreated(client, creator *html.EnvironmentSettingsObject, httpFetched bool) {
	if client == nil {
		return
	}
	st := stateOf(client.UserAgent())
	st.mu.Lock()
	var w *ServiceWorker
	switch {
	case client.Origin().IsOpaque():
		// (An opaque origin: a data: URL, a sandboxed iframe without
		// allow-same-origin; its active service worker is null.)
	case httpFetched:
		// If the fetch is routed through HTTP fetch, the window client's
		// active service worker is set to the result of the service
		// worker registration matching (null when none matched).
		if c := clientSlot.Get(client); c != nil {
			w = c.activeServiceWorker
		}
	case creator != nil && origin.SameOrigin(creator.Origin(), client.Origin()):
		// Otherwise, if the created document's origin is an opaque origin
		// or not the same as its creator document's origin, the window
		// client's active service worker is set to null. Otherwise, it is
		// set to the creator document's service worker client's active
		// service worker.
		if c := clientSlot.Get(creator); c != nil {
			w = c.activeServiceWorker
		}
	}
	watch := setActiveServiceWorkerLocked(client, w)
	st.mu.Unlock()
	if watch {
		st.watch(client)
	}
	// (A mirroring user agent's client becomes known to the registry,
	// with its active service worker: clients.claim() and matchAll() see
	// it.)
	st.clientAdded(client)
}

// HandleFetchReservedClient is the part of
// https://w3c.github.io/ServiceWorker/#on-fetch-request-algorithm for a
// navigation's reserved client (steps 9.1-9.8) for a window whose
// document the embedder gave without fetching it: the active worker of
// the registration matching its creation URL becomes its active service
// worker, as if its navigation had gone through HTTP fetch, and no fetch
// event fires (see doc.go).
func HandleFetchReservedClient(reservedClient *html.EnvironmentSettingsObject) {
	if reservedClient == nil {
		return
	}
	// 9.1.1. If reservedClient is not a secure context, return null.
	if !reservedClient.IsSecureContext() {
		return
	}
	st := stateOf(reservedClient.UserAgent())
	st.mu.Lock()
	// 9.4-9.5. Let registration be the result of Match Service Worker
	//    Registration given reservedClient's storage key and the
	//    request's URL (the creation URL); return when it or its active
	//    worker is null.
	reg := st.matchLocked(reservedClient.ObtainAStorageKeyForNonStoragePurposes(), reservedClient.CreationURL())
	if reg == nil || reg.active == nil {
		st.mu.Unlock()
		// (A mirroring user agent's client is known to the registry all
		// the same: clients.claim() and matchAll() see it.)
		st.clientAdded(reservedClient)
		return
	}
	// 9.6. Set reservedClient's active service worker to registration's
	//    active worker.
	watch := setActiveServiceWorkerLocked(reservedClient, reg.active)
	st.mu.Unlock()
	if watch {
		st.watch(reservedClient)
	}
	st.clientAdded(reservedClient)
}

// clientAdded makes client known to the registry of a mirroring user
// agent (with its active service worker), watching its unloading.
func (st *uaState) clientAdded(client *html.EnvironmentSettingsObject) {
	st.mu.Lock()
	r := st.remote
	if r == nil {
		st.mu.Unlock()
		return
	}
	c := clientSlot.GetOrInit(client, func() *clientRecord { return &clientRecord{} })
	controller := ""
	if c.activeServiceWorker != nil {
		controller = c.activeServiceWorker.id
	}
	watch := !c.watched
	c.watched = true
	st.mu.Unlock()
	if watch {
		st.watch(client)
	}
	r.ClientAdded(remoteClientOf(client), controller)
}

// matchLocked is https://w3c.github.io/ServiceWorker/#scope-match-algorithm
// (st.mu held: "atomically").
func (st *uaState) matchLocked(key storage.StorageKey, clientURL *url.URL) *Registration {
	// 2. Let clientURLString be serialized clientURL.
	clientURLString := clientURL.String()
	// 3-6. Let matchingScopeString be the longest scope of storage key's
	//    entries which clientURLString starts with.
	var best *Registration
	bestLen := -1
	for k, reg := range st.registrations {
		if k.origin != key.Origin.Serialize() {
			continue
		}
		if len(k.scope) > bestLen && len(clientURLString) >= len(k.scope) && clientURLString[:len(k.scope)] == k.scope {
			best, bestLen = reg, len(k.scope)
		}
	}
	// 7-9. Return the result of running Get Registration given storage
	//    key and matchingScope.
	return best
}

// MatchServiceWorkerRegistration is https://w3c.github.io/ServiceWorker/#scope-match-algorithm
// for client's storage key and clientURL (nil when none matches).
func MatchServiceWorkerRegistration(client *html.EnvironmentSettingsObject, clientURL *url.URL) *Registration {
	if client == nil || clientURL == nil {
		return nil
	}
	st := stateOf(client.UserAgent())
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.matchLocked(client.ObtainAStorageKeyForNonStoragePurposes(), clientURL)
}

// Registrations is the registrations of client's storage key, as
// https://w3c.github.io/ServiceWorker/#navigator-service-worker-getRegistrations
// step 3 collects them.
func Registrations(client *html.EnvironmentSettingsObject) []*Registration {
	if client == nil {
		return nil
	}
	st := stateOf(client.UserAgent())
	key := client.ObtainAStorageKeyForNonStoragePurposes().Origin.Serialize()
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []*Registration
	for k, reg := range st.registrations {
		if k.origin == key {
			out = append(out, reg)
		}
	}
	return out
}

// Claim is the parallel steps of https://w3c.github.io/ServiceWorker/#clients-claim
// for service worker w. It returns false, doing nothing, when w is not
// an active worker (step 1's "InvalidStateError").
func Claim(w *ServiceWorker) bool {
	st := w.reg.st
	st.mu.Lock()
	// 1. If the service worker is not an active worker, return a promise
	//    rejected with an "InvalidStateError" DOMException.
	if w.reg.active != w {
		st.mu.Unlock()
		return false
	}
	if r := st.remote; r != nil {
		// (The registry claims the clients of every process.)
		st.mu.Unlock()
		r.Claim(w.id)
		return true
	}
	var watch []*html.EnvironmentSettingsObject
	var left []*Registration // registrations clients stopped using
	// 3.1. For each service worker client client whose storage key equals
	//    the service worker's registration's storage key:
	for _, client := range st.clientsLocked(w.reg.storageKey) {
		// 3.1.1. If client's execution ready flag is unset or its
		//    discarded flag is set, continue. (A document that is not
		//    fully active.)
		if doc := client.AssociatedDocument(); doc != nil && !doc.IsFullyActive() {
			continue
		}
		// 3.1.2. If client is not a secure context, continue.
		if !client.IsSecureContext() {
			continue
		}
		// 3.1.3-3.1.5. Let registration be the result of Match Service
		//    Worker Registration given client's storage key and creation
		//    URL; if it is not the service worker's registration,
		//    continue.
		if st.matchLocked(client.ObtainAStorageKeyForNonStoragePurposes(), client.CreationURL()) != w.reg {
			continue
		}
		// 3.1.6. If client's active service worker is not the service
		//    worker: Handle Service Worker Client Unload with client, set
		//    its active service worker, Notify Controller Change.
		c := clientSlot.Get(client)
		if c == nil || c.activeServiceWorker != w {
			if c != nil && c.activeServiceWorker != nil && c.activeServiceWorker.reg != w.reg {
				left = append(left, c.activeServiceWorker.reg)
			}
			if setActiveServiceWorkerLocked(client, w) {
				watch = append(watch, client)
			}
		}
	}
	left = append(left, st.claimExternalLocked(w)...)
	st.mu.Unlock()
	for _, client := range watch {
		st.watch(client)
	}
	for _, reg := range left {
		st.clientUnloadSteps(reg)
	}
	st.notifyControllerChange()
	return true
}

// clientsLocked lists the live service worker clients of storage key
// key's origin (st.mu held).
func (st *uaState) clientsLocked(key storage.StorageKey) []*html.EnvironmentSettingsObject {
	var out []*html.EnvironmentSettingsObject
	for _, env := range st.liveEnvironments() {
		if !isClient(env) || env.Origin() != key.Origin {
			continue
		}
		out = append(out, env)
	}
	return out
}

// Clients lists the clients w may see
// (https://w3c.github.io/ServiceWorker/#clients-matchall and
// #clients-get): the live window and worker clients of its storage key
// whose documents are fully active, all of them when includeUncontrolled,
// else only those whose active service worker is w.
func Clients(w *ServiceWorker, includeUncontrolled bool) []*html.EnvironmentSettingsObject {
	st := w.reg.st
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []*html.EnvironmentSettingsObject
	for _, env := range st.clientsLocked(w.reg.storageKey) {
		if doc := env.AssociatedDocument(); doc != nil && !doc.IsFullyActive() {
			continue
		}
		if c := clientSlot.Get(env); includeUncontrolled || (c != nil && c.activeServiceWorker == w) {
			out = append(out, env)
		}
	}
	return out
}
