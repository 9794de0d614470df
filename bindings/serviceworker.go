package bindings

import (
	"net/url"
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/html/origin"
	"github.com/grafana/sobek"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// This file implements the Service Workers interfaces over html's
// registrations and service workers (html/serviceworker.go): the
// ServiceWorkerContainer of navigator.serviceWorker, ServiceWorker and
// ServiceWorkerRegistration objects (one per realm per html object),
// ServiceWorkerGlobalScope, Clients, Client and ExtendableEvent.
// Running a service worker is the embedder's (html.ServiceWorkerHost):
// it creates the realm with NewServiceWorkerRealm and fires lifecycle
// events with FireExtendableEvent.

// NewServiceWorkerRealm creates the ServiceWorkerGlobalScope realm of
// service worker w, whose environment env comes from
// html.NewServiceWorkerEnvironment.
func NewServiceWorkerRealm(env *html.EnvironmentSettingsObject, w *html.ServiceWorker, opts Options) (*Realm, error) {
	if env.AssociatedDocument() != nil || env.Kind() != html.ServiceWorkerEnvironment {
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

// swRealmState is a realm's service worker objects: one ServiceWorker and
// ServiceWorkerRegistration object per html object, the container, and
// the subscription that keeps them up to date.
type swRealmState struct {
	workers   map[*html.ServiceWorker]*serviceWorkerImpl
	regs      map[*html.ServiceWorkerRegistration]*serviceWorkerRegistrationImpl
	container *serviceWorkerContainerImpl
	// last is the last snapshot applied: new objects start from it.
	last *html.ServiceWorkerSnapshot
}

type swStateKey struct{}

// swState returns the realm's service worker state, subscribing to html's
// changes on first use (the "update the worker state" and "update the
// registration state" tasks of the spec become one refresh task).
func (r *Realm) swState() *swRealmState {
	if st, ok := r.Value(swStateKey{}).(*swRealmState); ok {
		return st
	}
	st := &swRealmState{workers: map[*html.ServiceWorker]*serviceWorkerImpl{}, regs: map[*html.ServiceWorkerRegistration]*serviceWorkerRegistrationImpl{}}
	r.SetValue(swStateKey{}, st)
	if r.env != nil {
		st.last = html.Snapshot(r.env.UserAgent())
		unsub := html.SubscribeServiceWorkerChanges(r.env.UserAgent(), func(snap *html.ServiceWorkerSnapshot) {
			r.queueTask(html.DOMManipulationTaskSource, func() { r.applyServiceWorkerSnapshot(snap) })
		})
		r.env.Agent().AddTerminationSteps(unsub)
		if doc := r.env.AssociatedDocument(); doc != nil {
			doc.AddUnloadingDocumentCleanupSteps(unsub)
		}
	}
	return st
}

// applyServiceWorkerSnapshot runs in a task after html's state changed
// (snapshots arrive in order): registration objects get their workers,
// ServiceWorker objects whose worker changed state get it and a
// statechange event, then the container's controller and ready promise
// follow.
func (r *Realm) applyServiceWorkerSnapshot(snap *html.ServiceWorkerSnapshot) {
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

// serviceWorkerObject is "get the service worker object" for w in r.
func (r *Realm) serviceWorkerObject(w *html.ServiceWorker) *serviceWorkerImpl {
	st := r.swState()
	if o := st.workers[w]; o != nil {
		return o
	}
	t := &dom.EventTarget{}
	o := &serviceWorkerImpl{eventTargetImpl: r.newEventTargetImpl(t), sw: w, state: w.State()}
	if st.last != nil {
		if s, ok := st.last.States[w]; ok {
			o.state = s
		}
	}
	t.Owner = o
	st.workers[w] = o
	return o
}

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

// container is the realm's ServiceWorkerContainer ([SameObject]).
func (r *Realm) container() *serviceWorkerContainerImpl {
	st := r.swState()
	if st.container == nil {
		t := &dom.EventTarget{}
		c := &serviceWorkerContainerImpl{eventTargetImpl: r.newEventTargetImpl(t)}
		t.Owner = c
		if r.env != nil {
			c.controller = html.ControllerOf(r.env)
			if st.last != nil {
				c.controller = st.last.Controllers[r.env]
			}
		}
		st.container = c
	}
	return st.container
}

// ServiceWorker

type serviceWorkerImpl struct {
	*eventTargetImpl
	sw    *html.ServiceWorker
	state html.ServiceWorkerState
}

func (o *serviceWorkerImpl) WebIDLInterface() string { return "ServiceWorker" }

func (o *serviceWorkerImpl) fire(typ string) {
	ev := dom.NewEvent(typ)
	ev.IsTrusted = true
	o.target.DispatchEvent(ev)
}

func (o *serviceWorkerImpl) ScriptURL() (string, error) { return o.sw.ScriptURL().String(), nil }
func (o *serviceWorkerImpl) State() (ServiceWorkerState, error) {
	return ServiceWorkerState(o.state.String()), nil
}
func (o *serviceWorkerImpl) Onstatechange() (*EventHandlerNonNull, error) {
	return o.handlerGet("statechange"), nil
}
func (o *serviceWorkerImpl) SetOnstatechange(v *EventHandlerNonNull) error {
	o.handlerSet("statechange", v)
	return nil
}
func (o *serviceWorkerImpl) Onerror() (*EventHandlerNonNull, error) {
	return o.handlerGet("error"), nil
}
func (o *serviceWorkerImpl) SetOnerror(v *EventHandlerNonNull) error {
	o.handlerSet("error", v)
	return nil
}

func (o *serviceWorkerImpl) PostMessageWithTransfer(message sobek.Value, transfer []*sobek.Object) error {
	return o.postMessage(message, transfer)
}

func (o *serviceWorkerImpl) PostMessageWithOptions(message sobek.Value, opts StructuredSerializeOptions) error {
	return o.postMessage(message, opts.Transfer)
}

// postMessage is https://w3c.github.io/ServiceWorker/#service-worker-postmessage-options.
func (o *serviceWorkerImpl) postMessage(message sobek.Value, transfer []*sobek.Object) error {
	r := o.realm
	// 2. If the result of running the Should Skip Event algorithm with
	//    "message" and serviceWorker is true, then return.
	if o.sw.State() == html.SWRedundant {
		return nil
	}
	// 4. Let serializeWithTransferResult be
	//    StructuredSerializeWithTransfer(message, options["transfer"]).
	//    Rethrow any exceptions.
	msg, err := r.StructuredSerializeWithTransfer(message, transfer)
	if err != nil {
		return err
	}
	env := o.sw.Env()
	if env == nil || r.env == nil {
		return nil
	}
	client := r.env
	origin := client.Origin().Serialize()
	// 5-6. Queue a task on the DOM manipulation task source of the service
	//    worker's event loop that fires a message event at its global with
	//    a new Client object for the incumbent settings object as source.
	var info *windowClientInfo
	if client.AssociatedDocument() != nil {
		i := r.windowClientInfo()
		info = &i
	}
	if target := RealmOf(env); target != nil {
		sw := o.sw
		target.queueTask(html.PostedMessageTaskSource, func() {
			src := &clientImpl{realm: target, env: client, sw: sw}
			var source ClientOrServiceWorkerOrMessagePort
			if info != nil {
				source = ClientOrServiceWorkerOrMessagePort{Type: ClientOrServiceWorkerOrMessagePortIsClient, Client: &windowClientImpl{clientImpl: src, info: *info}}
			} else {
				source = ClientOrServiceWorkerOrMessagePort{Type: ClientOrServiceWorkerOrMessagePortIsClient, Client: src}
			}
			target.deliverToServiceWorker(msg, origin, source)
		})
	}
	return nil
}

// ServiceWorkerRegistration

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

// ServiceWorkerContainer

type serviceWorkerContainerImpl struct {
	*eventTargetImpl
	controller *html.ServiceWorker
	ready      *webidl.Promise
	readyDone  bool
}

func (c *serviceWorkerContainerImpl) WebIDLInterface() string { return "ServiceWorkerContainer" }

// refresh applies html's state: a new controller fires controllerchange;
// the ready promise resolves once a registration matching the client has
// an active worker.
func (c *serviceWorkerContainerImpl) refresh(snap *html.ServiceWorkerSnapshot) {
	r := c.realm
	if r.env == nil {
		return
	}
	if ctl := snap.Controllers[r.env]; ctl != c.controller {
		c.controller = ctl
		ev := dom.NewEvent("controllerchange")
		ev.IsTrusted = true
		c.target.DispatchEvent(ev)
	}
	c.checkReady()
}

// checkReady resolves the ready promise when a registration matching the
// client's creation URL has an active worker.
func (c *serviceWorkerContainerImpl) checkReady() {
	r := c.realm
	if c.ready == nil || c.readyDone || r.env == nil {
		return
	}
	reg := html.MatchServiceWorkerRegistration(r.env, r.env.CreationURL())
	if reg == nil {
		return
	}
	// The registration object's view (updated by tasks), so that ready's
	// registration has its active worker.
	if o := r.registrationObject(reg); o.active != nil {
		c.readyDone = true
		c.ready.Resolve(r.idl.Wrap(o, "ServiceWorkerRegistration"))
	}
}

// Controller is https://w3c.github.io/ServiceWorker/#navigator-service-worker-controller.
func (c *serviceWorkerContainerImpl) Controller() (ServiceWorkerMethods, error) {
	if c.controller == nil {
		return nil, nil
	}
	return c.realm.serviceWorkerObject(c.controller), nil
}

// Ready is https://w3c.github.io/ServiceWorker/#navigator-service-worker-ready.
func (c *serviceWorkerContainerImpl) Ready() (*webidl.Promise, error) {
	if c.ready == nil {
		c.ready = c.realm.idl.NewPromise()
		c.checkReady()
	}
	return c.ready, nil
}

func (c *serviceWorkerContainerImpl) Oncontrollerchange() (*EventHandlerNonNull, error) {
	return c.handlerGet("controllerchange"), nil
}
func (c *serviceWorkerContainerImpl) SetOncontrollerchange(v *EventHandlerNonNull) error {
	c.handlerSet("controllerchange", v)
	return nil
}
func (c *serviceWorkerContainerImpl) Onmessage() (*EventHandlerNonNull, error) {
	return c.handlerGet("message"), nil
}
func (c *serviceWorkerContainerImpl) SetOnmessage(v *EventHandlerNonNull) error {
	c.handlerSet("message", v)
	return nil
}
func (c *serviceWorkerContainerImpl) Onmessageerror() (*EventHandlerNonNull, error) {
	return c.handlerGet("messageerror"), nil
}
func (c *serviceWorkerContainerImpl) SetOnmessageerror(v *EventHandlerNonNull) error {
	c.handlerSet("messageerror", v)
	return nil
}

// StartMessages does nothing: the client message queue is always enabled
// (a deviation recorded in doc.go).
func (c *serviceWorkerContainerImpl) StartMessages() error { return nil }

// parseSWURL parses s against the realm's base URL and checks its scheme
// (http or https) and path (no %2f or %5c), as Start Register does.
func (r *Realm) parseSWURL(what, s string) (*url.URL, error) {
	p, err := whatwg.ParseRef(r.baseURL(), s)
	if err != nil {
		return nil, webidl.NewTypeError("Failed to register a ServiceWorker: The %s URL '%s' is invalid.", what, s)
	}
	u, err := url.Parse(p.Href(false))
	if err != nil {
		return nil, webidl.NewTypeError("Failed to register a ServiceWorker: The %s URL '%s' is invalid.", what, s)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, webidl.NewTypeError("Failed to register a ServiceWorker: The URL protocol of the %s ('%s') is not supported.", what, u)
	}
	lp := strings.ToLower(u.EscapedPath())
	if strings.Contains(lp, "%2f") || strings.Contains(lp, "%5c") {
		return nil, webidl.NewTypeError("Failed to register a ServiceWorker: The %s URL '%s' contains a disallowed escaped character.", what, u)
	}
	return u, nil
}

// Register is https://w3c.github.io/ServiceWorker/#navigator-service-worker-register
// with Start Register's checks; the job runs on html's job queue.
func (c *serviceWorkerContainerImpl) Register(scriptURL string, opts RegistrationOptions) (*webidl.Promise, error) {
	r := c.realm
	p := r.idl.NewPromise()
	if r.env == nil {
		p.RejectError(dom.NewDOMException("Service workers are not supported here.", dom.NotSupportedError))
		return p, nil
	}
	if opts.Type == "module" {
		p.RejectError(dom.NewDOMException("Failed to register a ServiceWorker: module service workers are not yet supported by this engine.", dom.NotSupportedError))
		return p, nil
	}
	// Start Register 3. Let scriptURL be the result of parsing scriptURL
	//    with the client's API base URL; 4-6: failure, a scheme other than
	//    http(s) or an escaped slash is a TypeError.
	script, err := r.parseSWURL("script", scriptURL)
	if err != nil {
		p.RejectError(err)
		return p, nil
	}
	// 7. If scopeURL is null, set scopeURL to the result of parsing the
	//    string "./" with scriptURL.
	var scope *url.URL
	if !opts.Scope.Present {
		scope, _ = script.Parse("./")
	} else if scope, err = r.parseSWURL("scope", opts.Scope.Value); err != nil {
		p.RejectError(err)
		return p, nil
	}
	scope.Fragment, scope.RawFragment = "", ""
	// Register 2. If the origin of job's script url is not job's referrer's
	//    origin, reject with a "SecurityError"; 3. likewise for the scope.
	own := r.env.Origin()
	if origin.FromURL(script) != own {
		p.RejectError(dom.NewDOMException("Failed to register a ServiceWorker: The origin of the provided scriptURL ('"+origin.FromURL(script).Serialize()+"') does not match the current origin ('"+own.Serialize()+"').", dom.SecurityError))
		return p, nil
	}
	if origin.FromURL(scope) != own {
		p.RejectError(dom.NewDOMException("Failed to register a ServiceWorker: The origin of the provided scope ('"+origin.FromURL(scope).Serialize()+"') does not match the current origin ('"+own.Serialize()+"').", dom.SecurityError))
		return p, nil
	}
	// Update 17-18 (done here, before the fetch): without a
	//    Service-Worker-Allowed header the maximum scope is the script's
	//    directory; a scope outside it is a SecurityError.
	maxScope, _ := script.Parse("./")
	if !strings.HasPrefix(scope.Path, maxScope.Path) {
		p.RejectError(dom.NewDOMException("Failed to register a ServiceWorker: The path of the provided scope ('"+scope.Path+"') is not under the max scope allowed ('"+maxScope.Path+"').", dom.SecurityError))
		return p, nil
	}
	html.ScheduleRegister(r.env, script, scope, func(reg *html.ServiceWorkerRegistration, snap *html.ServiceWorkerSnapshot, err error) {
		// Resolve/Reject Job Promise: queue a task on the client's
		// DOM manipulation task source. The objects show the state of
		// that moment (snap) until the next update task.
		r.queueTask(html.DOMManipulationTaskSource, func() {
			if err != nil {
				p.RejectError(webidl.NewTypeError("Failed to register a ServiceWorker for scope ('%s') with script ('%s'): %v", scope, script, err))
				return
			}
			r.applyServiceWorkerSnapshot(snap)
			o := r.registrationObject(reg)
			p.Resolve(r.idl.Wrap(o, "ServiceWorkerRegistration"))
			// Install 6-7: then, in a task of its own, updatefound at the
			// registration object.
			installing := snap.Registrations[reg][0]
			// (or before the next snapshot's task, whichever runs first).
			o.pendingFound = installing
			r.queueTask(html.DOMManipulationTaskSource, o.firePendingUpdateFound)
		})
	})
	return p, nil
}

// GetRegistration is https://w3c.github.io/ServiceWorker/#navigator-service-worker-getRegistration.
func (c *serviceWorkerContainerImpl) GetRegistration(clientURL string) (*webidl.Promise, error) {
	r := c.realm
	if r.env == nil {
		return r.idl.PromiseResolvedWith(sobek.Undefined()), nil
	}
	// 3-4. Let clientURL be the result of parsing clientURL with client's
	//    API base URL; failure is a TypeError.
	p, err := whatwg.ParseRef(r.baseURL(), clientURL)
	if err != nil {
		return r.idl.PromiseRejectedWithError(webidl.NewTypeError("Failed to execute 'getRegistration': The URL provided ('%s') is invalid.", clientURL)), nil
	}
	u, err := url.Parse(p.Href(false))
	if err != nil {
		return r.idl.PromiseRejectedWithError(webidl.NewTypeError("Failed to execute 'getRegistration': The URL provided ('%s') is invalid.", clientURL)), nil
	}
	// 6. If clientURL's origin is not client's origin, SecurityError.
	if origin.FromURL(u) != r.env.Origin() {
		return r.idl.PromiseRejectedWithError(dom.NewDOMException("Failed to execute 'getRegistration': The origin of the provided documentURL does not match the current origin.", dom.SecurityError)), nil
	}
	// 8.1-8.3 Match Service Worker Registration; undefined when none.
	reg := html.MatchServiceWorkerRegistration(r.env, u)
	if reg == nil {
		return r.idl.PromiseResolvedWith(sobek.Undefined()), nil
	}
	return r.idl.PromiseResolvedWith(r.idl.Wrap(r.registrationObject(reg), "ServiceWorkerRegistration")), nil
}

// GetRegistrations is https://w3c.github.io/ServiceWorker/#navigator-service-worker-getRegistrations.
func (c *serviceWorkerContainerImpl) GetRegistrations() (*webidl.Promise, error) {
	r := c.realm
	var vals []any
	if r.env != nil {
		for _, reg := range html.ServiceWorkerRegistrations(r.env) {
			vals = append(vals, r.idl.Wrap(r.registrationObject(reg), "ServiceWorkerRegistration"))
		}
	}
	arr := r.vm.NewArray(vals...)
	freeze, _ := sobek.AssertFunction(r.vm.Get("Object").ToObject(r.vm).Get("freeze"))
	if freeze != nil {
		_, _ = freeze(sobek.Undefined(), arr)
	}
	return r.idl.PromiseResolvedWith(arr), nil
}

// navigator.serviceWorker
func (n *navigatorImpl) ServiceWorker() (ServiceWorkerContainerMethods, error) {
	return n.realm.container(), nil
}

// deliverToClient is Client.postMessage's delivery in the client's realm
// r: a message event at its ServiceWorkerContainer whose source is the
// ServiceWorker object of w.
func (r *Realm) deliverToClient(w *html.ServiceWorker, msg html.SerializedWithTransfer, origin string) {
	c := r.container()
	src := r.idl.Wrap(r.serviceWorkerObject(w), "ServiceWorker")
	r.DeliverMessage(r.idl.Wrap(c, "ServiceWorkerContainer").(*sobek.Object), msg, origin, src)
}

// ServiceWorkerGlobalScope

type serviceWorkerGlobalImpl struct {
	*workerGlobalImpl
	sw      *html.ServiceWorker
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
		g.sw.SetSkipWaiting()
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

// FireExtendableEvent fires a trusted ExtendableEvent named name at the
// service worker global of r and calls done once every promise passed to
// waitUntil has settled (failed: one of them rejected). Call it in a task
// of r (it is "fire a functional event" without the fetch specifics).
func (r *Realm) FireExtendableEvent(name string, done func(failed bool)) {
	ev := dom.NewEvent(name)
	ev.IsTrusted = true
	e := &extendableEventImpl{eventImpl: &eventImpl{realm: r, ev: ev}, dispatching: true}
	ev.Detail = e
	r.globalTarget.target.DispatchEvent(ev)
	e.dispatching = false
	e.onSettled = done
	e.settleIfDone()
}

// Clients

type clientsImpl struct {
	webidl.Reflector
	realm *Realm
	sw    *html.ServiceWorker
}

// Get is https://w3c.github.io/ServiceWorker/#clients-get: the client
// whose id is id, if the worker may see it; a window client's info is
// read in its event loop first.
func (c *clientsImpl) Get(id webidl.DOMString) (*webidl.Promise, error) {
	r := c.realm
	p := r.idl.NewPromise()
	if c.sw != nil {
		for _, env := range html.ServiceWorkerClients(c.sw, true) {
			if env.ID() == string(id) {
				c.resolveClients([]*html.EnvironmentSettingsObject{env}, func(vals []sobek.Value) { p.Resolve(vals[0]) })
				return p, nil
			}
		}
	}
	p.Resolve(sobek.Undefined())
	return p, nil
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

// MatchAll is https://w3c.github.io/ServiceWorker/#clients-matchall.
func (c *clientsImpl) MatchAll(opts ClientQueryOptions) (*webidl.Promise, error) {
	r := c.realm
	var matched []*html.EnvironmentSettingsObject
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
					matched = append(matched, env)
				}
			}
		}
	}
	p := r.idl.NewPromise()
	c.resolveClients(matched, func(vals []sobek.Value) {
		items := make([]any, len(vals))
		for i, v := range vals {
			items[i] = v
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
	if c.sw == nil || !html.Claim(c.sw) {
		return r.idl.PromiseRejectedWithError(dom.NewDOMException("Failed to claim: Only the active worker can claim clients.", dom.InvalidStateError)), nil
	}
	return r.idl.PromiseResolvedWith(sobek.Undefined()), nil
}

// Client

type clientImpl struct {
	webidl.Reflector
	realm *Realm
	env   *html.EnvironmentSettingsObject
	sw    *html.ServiceWorker
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
func (c *clientImpl) Type() (ClientType, error)     { return clientTypeOf(c.env), nil }

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

// ExtendableEvent

type extendableEventImpl struct {
	*eventImpl
	// dispatching is set while the event is dispatched; pending counts
	// unsettled extend lifetime promises.
	dispatching bool
	pending     int
	failed      bool
	onSettled   func(failed bool)
}

func (e *extendableEventImpl) baseEvent() *eventImpl   { return e.eventImpl }
func (e *extendableEventImpl) WebIDLInterface() string { return "ExtendableEvent" }

type extendableEventStatics struct{}

// new ExtendableEvent(type, eventInitDict)
func (extendableEventStatics) Constructor(r *webidl.Realm, typ webidl.DOMString, init ExtendableEventInit) (ExtendableEventMethods, error) {
	base := realmOf(r).newEvent(string(typ), init.Bubbles, init.Cancelable, init.Composed)
	e := &extendableEventImpl{eventImpl: base}
	base.ev.Detail = e
	return e, nil
}

// WaitUntil is https://w3c.github.io/ServiceWorker/#dom-extendableevent-waituntil
// ("add lifetime promise").
func (e *extendableEventImpl) WaitUntil(f *webidl.Promise) error {
	// 1. If event's isTrusted attribute is false, throw an
	//    "InvalidStateError" DOMException.
	if !e.ev.IsTrusted {
		return dom.NewDOMException("Failed to execute 'waitUntil' on 'ExtendableEvent': The event handler is already finished.", dom.InvalidStateError)
	}
	// 2. If event is not active, throw an "InvalidStateError".
	if !e.dispatching && e.pending == 0 {
		return dom.NewDOMException("Failed to execute 'waitUntil' on 'ExtendableEvent': The event handler is already finished and no extend lifetime promises are outstanding.", dom.InvalidStateError)
	}
	// 3. Add promise to event's extend lifetime promises; 4. increment
	//    its pending promises count; 5. upon settlement, decrement it
	//    in a microtask.
	e.pending++
	f.React(func(sobek.Value) (sobek.Value, error) {
		e.pending--
		e.settleIfDone()
		return sobek.Undefined(), nil
	}, func(sobek.Value) (sobek.Value, error) {
		e.pending--
		e.failed = true
		e.settleIfDone()
		return sobek.Undefined(), nil
	})
	return nil
}

func (e *extendableEventImpl) settleIfDone() {
	if e.dispatching || e.pending > 0 || e.onSettled == nil {
		return
	}
	done := e.onSettled
	e.onSettled = nil
	done(e.failed)
}

// ExtendableMessageEvent

type extendableMessageEventImpl struct {
	*extendableEventImpl
	data        sobek.Value
	origin      string
	lastEventID webidl.DOMString
	source      webidl.Nullable[ClientOrServiceWorkerOrMessagePort]
	ports       []MessagePortMethods
}

func (e *extendableMessageEventImpl) WebIDLInterface() string    { return "ExtendableMessageEvent" }
func (e *extendableMessageEventImpl) Data() (sobek.Value, error) { return e.data, nil }
func (e *extendableMessageEventImpl) Origin() (string, error)    { return e.origin, nil }
func (e *extendableMessageEventImpl) LastEventID() (webidl.DOMString, error) {
	return e.lastEventID, nil
}
func (e *extendableMessageEventImpl) Source() (webidl.Nullable[ClientOrServiceWorkerOrMessagePort], error) {
	return e.source, nil
}
func (e *extendableMessageEventImpl) Ports() ([]MessagePortMethods, error) {
	if e.ports == nil {
		return []MessagePortMethods{}, nil
	}
	return e.ports, nil
}

type extendableMessageEventStatics struct{}

// new ExtendableMessageEvent(type, eventInitDict)
func (extendableMessageEventStatics) Constructor(r *webidl.Realm, typ webidl.DOMString, init ExtendableMessageEventInit) (ExtendableMessageEventMethods, error) {
	base := realmOf(r).newEvent(string(typ), init.Bubbles, init.Cancelable, init.Composed)
	data := init.Data
	if data == nil {
		data = sobek.Null()
	}
	e := &extendableMessageEventImpl{extendableEventImpl: &extendableEventImpl{eventImpl: base}, data: data,
		origin: init.Origin, lastEventID: init.LastEventID, source: init.Source, ports: init.Ports}
	base.ev.Detail = e
	return e, nil
}

// deliverToServiceWorker is the task ServiceWorker.postMessage queues in
// the service worker's realm r: deserialize the message and fire an
// ExtendableMessageEvent (or messageerror) at the global whose source is
// a new Client object for the sender.
func (r *Realm) deliverToServiceWorker(msg html.SerializedWithTransfer, origin string, source ClientOrServiceWorkerOrMessagePort) {
	typ := "message"
	data, ports, err := r.StructuredDeserializeWithTransfer(msg)
	if err != nil {
		typ, data, ports = "messageerror", sobek.Null(), nil
	}
	ev := dom.NewEvent(typ)
	ev.IsTrusted = true
	e := &extendableMessageEventImpl{extendableEventImpl: &extendableEventImpl{eventImpl: &eventImpl{realm: r, ev: ev}, dispatching: true},
		data: data, origin: origin,
		source: webidl.NonNull(source)}
	for _, p := range ports {
		if impl, ok := r.idl.ImplOf(p).(*messagePortImpl); ok {
			e.ports = append(e.ports, impl)
		}
	}
	ev.Detail = e
	r.globalTarget.target.DispatchEvent(ev)
	e.dispatching = false
}
