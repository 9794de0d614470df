package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/serviceworker"
	"github.com/grafana/sobek"
)

// This file is the fetch side of Service Workers in JavaScript:
// FetchEvent and the ServiceWorkerGlobalScope's onfetch. Handle Fetch is
// package serviceworker's: HTTP fetch invokes it for a request whose
// client has an active service worker, and it has the event dispatched in
// the service worker's realm (DispatchFetchEvent); the response the event
// gives is copied (its bytes are in memory) into the client's fetch.

// fetchEventImpl is a FetchEvent object and its flags
// (https://w3c.github.io/ServiceWorker/#fetchevent).
type fetchEventImpl struct {
	*extendableEventImpl
	request                                     *requestImpl
	clientID, resultingClientID, replacesClient webidl.DOMString
	preloadResponse, handled                    *webidl.Promise

	// The event's flags: respond-with entered, wait to respond and
	// respond-with error; potential response is what respondWith gave.
	respondWithEntered bool
	waitToRespond      bool
	respondWithError   bool
	potentialResponse  *response
	// responded runs once the wait to respond flag is unset (Handle
	// Fetch waits for it).
	responded func()
}

func (e *fetchEventImpl) WebIDLInterface() string { return "FetchEvent" }

func (e *fetchEventImpl) Request() (RequestMethods, error) { return e.request, nil }
func (e *fetchEventImpl) PreloadResponse() (*webidl.Promise, error) {
	return e.preloadResponse, nil
}
func (e *fetchEventImpl) ClientID() (webidl.DOMString, error) { return e.clientID, nil }
func (e *fetchEventImpl) ResultingClientID() (webidl.DOMString, error) {
	return e.resultingClientID, nil
}
func (e *fetchEventImpl) ReplacesClientID() (webidl.DOMString, error) { return e.replacesClient, nil }
func (e *fetchEventImpl) Handled() (*webidl.Promise, error)           { return e.handled, nil }

type fetchEventStatics struct{}

// Constructor is new FetchEvent(type, eventInitDict): the event's
// attributes come from the dictionary (FetchEventInit's request is
// required; the generated code throws the TypeError when it is missing).
func (fetchEventStatics) Constructor(ir *webidl.Realm, typ webidl.DOMString, init FetchEventInit) (FetchEventMethods, error) {
	r := realmOf(ir)
	req := init.Request.idlImpl()
	base := r.newEvent(string(typ), init.Bubbles, init.Cancelable, init.Composed)
	e := &fetchEventImpl{extendableEventImpl: &extendableEventImpl{eventImpl: base}, request: req,
		clientID: init.ClientID, resultingClientID: init.ResultingClientID, replacesClient: init.ReplacesClientID,
		preloadResponse: init.PreloadResponse, handled: init.Handled}
	if e.preloadResponse == nil {
		e.preloadResponse = r.idl.PromiseResolvedWith(sobek.Undefined())
	}
	if e.handled == nil {
		e.handled = r.idl.NewPromise()
	}
	base.ev.Detail = e
	return e, nil
}

// RespondWith is https://w3c.github.io/ServiceWorker/#fetch-event-respondwith.
func (e *fetchEventImpl) RespondWith(p *webidl.Promise) error {
	// 1. Let event be this.
	// 2. If event's dispatch flag is unset, throw an "InvalidStateError"
	//    DOMException. (A script's dispatchEvent() sets it too: the
	//    event's phase is not NONE while it is dispatched.)
	if !e.dispatching && e.ev.EventPhase() == dom.None {
		return dom.NewDOMException("Failed to execute 'respondWith' on 'FetchEvent': The event handler is already finished.", dom.InvalidStateError)
	}
	// 3. If event's respond-with entered flag is set, throw an
	//    "InvalidStateError" DOMException.
	if e.respondWithEntered {
		return dom.NewDOMException("Failed to execute 'respondWith' on 'FetchEvent': The event has already been responded to.", dom.InvalidStateError)
	}
	// 4. Add lifetime promise r to event.
	e.addLifetimePromise(p)
	// 5. Set event's stop propagation flag and stop immediate
	//    propagation flag.
	e.ev.StopPropagation()
	e.ev.StopImmediatePropagation()
	// 6. Set event's respond-with entered flag.
	e.respondWithEntered = true
	// 7. Set event's wait to respond flag.
	e.waitToRespond = true
	// 8. Let targetRealm be event's relevant Realm.
	r := e.realm
	p.React(func(v sobek.Value) (sobek.Value, error) {
		// 10. Upon fulfillment of r with response:
		o, _ := r.idl.ImplOf(v).(*responseImpl)
		switch {
		case o == nil:
			// 10.1. If response is not a Response object, then set the
			//       respond-with error flag.
			e.respondWithError = true
		case o.isUnusable():
			// 10.2.1. If response is disturbed or locked, then set the
			//         respond-with error flag.
			e.respondWithError = true
		case o.resp.body != nil && o.resp.body.streamOnly:
			// 10.2.2-10.2.6 for a body from a ReadableStream: its bytes,
			// read whole, become the body (no streaming across realms).
			r.fullyReadBody(o.resp.body, func(data []byte) {
				pr := copyResponse(o.resp)
				pr.body = &body{source: data}
				e.potentialResponse = pr
				e.unsetWaitToRespond()
			}, func(sobek.Value) {
				e.respondWithError = true
				e.unsetWaitToRespond()
			})
			return sobek.Undefined(), nil
		default:
			// 10.2.2. Let bytes be an empty byte sequence; let
			//         potentialResponse be a copy of response's
			//         associated response, except for its body.
			// 10.2.3-10.2.6. (Bodies are in memory: reading them all
			//         disturbs the stream; the bytes become the body.)
			e.potentialResponse = copyResponse(o.resp)
			if o.resp.body != nil {
				o.resp.body.used = true
			}
		}
		// 10.3. Unset event's wait to respond flag.
		e.unsetWaitToRespond()
		return sobek.Undefined(), nil
	}, func(sobek.Value) (sobek.Value, error) {
		// 9. Upon rejection of r: 9.1. Set event's respond-with error
		//    flag. 9.2. Unset event's wait to respond flag.
		e.respondWithError = true
		e.unsetWaitToRespond()
		return sobek.Undefined(), nil
	})
	return nil
}

// addLifetimePromise is https://w3c.github.io/ServiceWorker/#extendableevent-add-lifetime-promise.
func (e *fetchEventImpl) addLifetimePromise(p *webidl.Promise) {
	// 1. Add promise to event's extend lifetime promises. 2. Increment
	//    event's pending promises count by one. 3. Upon fulfillment or
	//    rejection of promise, decrement it.
	e.pending++
	settle := func(sobek.Value) (sobek.Value, error) {
		e.pending--
		e.settleIfDone()
		return sobek.Undefined(), nil
	}
	p.React(settle, settle)
}

func (e *fetchEventImpl) unsetWaitToRespond() {
	e.waitToRespond = false
	if f := e.responded; f != nil {
		e.responded = nil
		f()
	}
}

// copyResponse copies resp for another realm: the header list and the
// body's bytes are the copy's own.
func copyResponse(resp *response) *response {
	c := *resp
	c.headers = resp.headers.Clone()
	if resp.body != nil {
		// (A body from the network is shared: package fetch guards it.)
		c.body = &body{source: append([]byte(nil), resp.body.source...), net: resp.body.net}
	}
	if resp.url != nil {
		c.url = cloneURLPtr(resp.url)
	}
	return &c
}

// DispatchFetchEvent is the task of Create Fetch Event and Dispatch
// (https://w3c.github.io/ServiceWorker/#create-fetch-event-and-dispatch-algorithm
// step 17.4) in the service worker's realm r, for package serviceworker's
// Handle Fetch: it queues a task that dispatches a FetchEvent for req at
// the global, and calls done with the event's flags once its wait to
// respond flag is unset (Dispatched false when the task is discarded).
// clientID and resultingClientID are the event's clientId and
// resultingClientId.
func (r *Realm) DispatchFetchEvent(req *fetch.Request, clientID, resultingClientID string, done func(serviceworker.FetchEventResult)) {
	if !r.queueTask(html.DOMManipulationTaskSource, func() { r.fireFetchEvent(req, clientID, resultingClientID, done) }) {
		done(serviceworker.FetchEventResult{})
	}
}

// fromFetchRequest is the request record a Request object of r wraps
// for a request of package fetch (a copy: its header list and body are
// the object's own).
func fromFetchRequest(fr *fetch.Request) *request {
	req := &request{method: fr.Method, url: cloneURLPtr(fr.CurrentURL()), headers: fr.Header.Clone(),
		mode: RequestMode(fr.Mode), credentials: RequestCredentials(fr.Credentials), redirect: RequestRedirect(fr.Redirect),
		referrer: fr.Referrer, referrerPolicy: ReferrerPolicy(fr.ReferrerPolicy), cache: "default", duplex: "half",
		destination: RequestDestination(fr.Destination), reloadNavigation: fr.ReloadNavigation, historyNavigation: fr.HistoryNavigation}
	if !fr.Origin.IsOpaque() {
		req.origin = fr.Origin.Serialize()
	} else {
		req.origin = "null"
	}
	if fr.Body != nil {
		req.body = &body{source: append([]byte(nil), fr.Body.Source...)}
	}
	return req
}

// fireFetchEvent is the task of Create Fetch Event and Dispatch step
// 17.4, in the service worker's realm r.
func (r *Realm) fireFetchEvent(fr *fetch.Request, clientID, resultingClientID string, done func(serviceworker.FetchEventResult)) {
	// 17.4.1. Let e be the result of creating an event with FetchEvent.
	// 17.4.2-17.4.3. Let requestObject be the result of creating a Request
	//    object, given request, a new Headers object's guard which is
	//    "immutable", a new AbortController's signal, and workerRealm.
	req := fromFetchRequest(fr)
	requestObject := &requestImpl{req: req}
	requestObject.bodyOwner = bodyOwner{realm: r, body: req.body, headers: &req.headers}
	requestObject.headers = newHeaders(&req.headers, guardImmutable)
	requestObject.signal = r.signalImpl(dom.CreateADependentAbortSignal(nil))
	ev := dom.NewEvent("fetch")
	// 17.4.4-17.4.10. Initialize e's type to "fetch", cancelable to true,
	//    request to requestObject, preloadResponse to a promise resolved
	//    with undefined, clientId to client's id, resultingClientId to the
	//    reserved client's id ("" for a subresource request), and handled
	//    to eventHandled (a new promise).
	ev.Cancelable = true
	ev.IsTrusted = true
	base := &eventImpl{realm: r, ev: ev, stamp: r.nowMillis(), hasStamp: true}
	e := &fetchEventImpl{extendableEventImpl: &extendableEventImpl{eventImpl: base, dispatching: true},
		request: requestObject, clientID: webidl.DOMString(clientID), resultingClientID: webidl.DOMString(resultingClientID),
		preloadResponse: r.idl.PromiseResolvedWith(sobek.Undefined()), handled: r.idl.NewPromise()}
	ev.Detail = e
	// 17.4.12. Dispatch e at activeWorker's global object.
	r.globalTarget.target.DispatchEvent(ev)
	e.dispatching = false
	// 17.4.14. If e's respond-with entered flag is set, set
	//    respondWithEntered to true. 17.4.18. If e's canceled flag is set,
	//    set eventCanceled to true.
	respondWithEntered, eventCanceled := e.respondWithEntered, ev.DefaultPrevented()
	finish := func() {
		res := serviceworker.FetchEventResult{Dispatched: true, RespondWithEntered: respondWithEntered,
			RespondWithError: e.respondWithError, Canceled: eventCanceled,
			// eventHandled settles in a task of this realm.
			SettleHandled: func(err error) {
				r.queueTask(html.DOMManipulationTaskSource, func() {
					if err != nil {
						e.handled.RejectError(err)
						e.handled.MarkHandled()
						return
					}
					e.handled.Resolve(sobek.Undefined())
				})
			}}
		if e.potentialResponse != nil {
			res.Response = toFetchResponse(e.potentialResponse)
		}
		done(res)
	}
	// 17.4.15. If e's wait to respond flag is set, wait until it is unset.
	if e.waitToRespond {
		e.responded = finish
		return
	}
	finish()
}
