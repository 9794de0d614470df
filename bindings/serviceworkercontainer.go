package bindings

import (
	"net/url"
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/origin"
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
			c.controller = html.ControllerOf(r.env)
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
			p.Resolve(idlWrapServiceWorkerRegistration(r.idl, o))
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
	return r.idl.PromiseResolvedWith(idlWrapServiceWorkerRegistration(r.idl, r.registrationObject(reg))), nil
}

// GetRegistrations is https://w3c.github.io/ServiceWorker/#navigator-service-worker-getRegistrations.
func (c *serviceWorkerContainerImpl) GetRegistrations() (*webidl.Promise, error) {
	r := c.realm
	var vals []any
	if r.env != nil {
		for _, reg := range html.ServiceWorkerRegistrations(r.env) {
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
