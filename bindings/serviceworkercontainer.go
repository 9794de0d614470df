package bindings

import (
	"errors"
	"net/url"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/serviceworker"
	"github.com/grafana/sobek"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// container is the realm's ServiceWorkerContainer ([SameObject]).
func (r *Realm) container() *serviceWorkerContainerImpl {
	st := r.swState()
	if st.container == nil {
		t := &dom.EventTarget{}
		c := &serviceWorkerContainerImpl{eventTargetImpl: r.newEventTargetImpl(t)}
		t.Owner = c
		if r.env != nil {
			c.controller = serviceworker.ActiveServiceWorker(r.env)
			if st.last != nil {
				c.controller = st.last.Controllers[r.env]
			}
		}
		st.container = c
	}
	return st.container
}

type serviceWorkerContainerImpl struct {
	*eventTargetImpl
	controller *serviceworker.ServiceWorker
	ready      *webidl.Promise
	readyDone  bool
}

func (c *serviceWorkerContainerImpl) WebIDLInterface() string { return "ServiceWorkerContainer" }

// refresh applies html's state: a new controller fires controllerchange;
// the ready promise resolves once a registration matching the client has
// an active worker.
func (c *serviceWorkerContainerImpl) refresh(snap *serviceworker.Snapshot) {
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
	reg := serviceworker.MatchServiceWorkerRegistration(r.env, r.env.CreationURL())
	if reg == nil {
		return
	}
	// The registration object's view (updated by tasks), so that ready's
	// registration has its active worker.
	if o := r.registrationObject(reg); o.active != nil {
		c.readyDone = true
		c.ready.Resolve(idlWrapServiceWorkerRegistration(r.idl, o))
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

// Register is https://w3c.github.io/ServiceWorker/#navigator-service-worker-register:
// the URLs are parsed here, Start Register and the job are package
// serviceworker's.
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
	// 1-2. (No trusted types.)
	// 3. Let scriptURL be the result of parsing scriptURL with this's
	//    relevant settings object's API base URL (failure: Start
	//    Register's step 1 TypeError).
	script, err := r.parseSWURL("script", scriptURL)
	if err != nil {
		p.RejectError(err)
		return p, nil
	}
	// 4-5. Let scopeURL be null; if options["scope"] exists, set it to
	//    the result of parsing it with the API base URL.
	var scope *url.URL
	if opts.Scope.Present {
		if scope, err = r.parseSWURL("scope", opts.Scope.Value); err != nil {
			p.RejectError(err)
			return p, nil
		}
	}
	// 6. Invoke Start Register with scopeURL, scriptURL, p, client,
	//    client's creation URL, options["type"] and
	//    options["updateViaCache"]. Resolve/Reject Job Promise queue a
	//    task on the client's DOM manipulation task source.
	err = serviceworker.StartRegister(r.env, scope, script, string(opts.Type), string(opts.UpdateViaCache), func(res serviceworker.JobResult) {
		r.queueTask(html.DOMManipulationTaskSource, func() { r.settleRegistrationPromise(p, res) })
	})
	if err != nil {
		p.RejectError(jobError(err))
	}
	return p, nil
}

// jobError is the exception a job promise is rejected with.
func jobError(err error) error {
	var te *serviceworker.TypeError
	if errors.As(err, &te) {
		return webidl.NewTypeError("%s", te.Message)
	}
	var de *dom.DOMException
	if errors.As(err, &de) {
		return de
	}
	return webidl.NewTypeError("%v", err)
}

// settleRegistrationPromise is the task of Resolve or Reject Job Promise
// for a register or update job: the registration object shows the state
// of the job's resolution until the next update task.
func (r *Realm) settleRegistrationPromise(p *webidl.Promise, res serviceworker.JobResult) {
	if res.Err != nil {
		p.RejectError(jobError(res.Err))
		return
	}
	r.applyServiceWorkerSnapshot(res.Snapshot)
	o := r.registrationObject(res.Registration)
	p.Resolve(idlWrapServiceWorkerRegistration(r.idl, o))
	// Install 8-9: then, in a task of its own, updatefound at the
	// registration object (or before the next snapshot's task, whichever
	// runs first).
	if installing := res.Snapshot.Registrations[res.Registration][0]; installing != nil {
		o.pendingFound = installing
		r.queueTask(html.DOMManipulationTaskSource, o.firePendingUpdateFound)
	}
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
	reg := serviceworker.MatchServiceWorkerRegistration(r.env, u)
	if reg == nil {
		return r.idl.PromiseResolvedWith(sobek.Undefined()), nil
	}
	return r.idl.PromiseResolvedWith(idlWrapServiceWorkerRegistration(r.idl, r.registrationObject(reg))), nil
}

// GetRegistrations is https://w3c.github.io/ServiceWorker/#navigator-service-worker-getRegistrations.
func (c *serviceWorkerContainerImpl) GetRegistrations() (*webidl.Promise, error) {
	r := c.realm
	var vals []any
	if r.env != nil {
		for _, reg := range serviceworker.Registrations(r.env) {
			vals = append(vals, idlWrapServiceWorkerRegistration(r.idl, r.registrationObject(reg)))
		}
	}
	arr := r.vm.NewArray(vals...)
	freeze, _ := sobek.AssertFunction(r.vm.Get("Object").ToObject(r.vm).Get("freeze"))
	if freeze != nil {
		_, _ = freeze(sobek.Undefined(), arr)
	}
	return r.idl.PromiseResolvedWith(arr), nil
}
