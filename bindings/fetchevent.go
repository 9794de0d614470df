package bindings

import (
	"sync"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// This file is the fetch side of Service Workers: FetchEvent, the
// ServiceWorkerGlobalScope's onfetch, and Handle Fetch
// (https://w3c.github.io/ServiceWorker/#handle-fetch), which HTTP fetch
// invokes for a request whose client has an active service worker. The
// event runs in the service worker's realm; the response it gives is
// copied (its bytes are in memory) into the client's fetch.

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
	req, ok := init.Request.(*requestImpl)
	if !ok {
		return nil, webidl.NewTypeError("Failed to construct 'FetchEvent': member request is not of type Request.")
	}
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

// handleFetch is https://w3c.github.io/ServiceWorker/#handle-fetch for a
// subresource request whose client is r's environment. It returns false
// (the algorithm's null: go to the network) when the client has no active
// service worker; otherwise it returns true and calls respond, from any
// goroutine, exactly once: with nil (null: the service worker did not
// answer, fall back to the network), a network error, or the response
// the fetch event gave.
func (r *Realm) handleFetch(req *request, respond func(*response)) bool {
	client := r.env
	if client == nil {
		return false
	}
	// 1-4. Let handleFetchFailed, respondWithEntered and eventCanceled be
	//    false, response null, client request's client.
	// 5. (Non-subresource requests, navigations, are not handled here.)
	// 6. Otherwise, if request is a subresource request: if client's
	//    active service worker is non-null, set registration to its
	//    containing service worker registration; otherwise return null.
	controller := html.ControllerOf(client)
	if controller == nil {
		return false
	}
	reg := controller.Registration()
	// 7. Let activeWorker be registration's active worker.
	_, _, activeWorker := reg.Workers()
	if activeWorker == nil {
		return false
	}
	// 8. (Soft update is not implemented.)
	// 9-10. (The set of event types to handle is not kept: a worker
	//    without fetch listeners dispatches an event nobody answers,
	//    which is the same fallback.)
	// 11. If activeWorker's state is "activating", wait for it to become
	//    "activated".
	whenActivated(client.UserAgent(), activeWorker, func() {
		r.handleFetchInWorker(client, req, activeWorker, respond)
	})
	return true
}

// whenActivated runs f once w's state is no longer "activating" (at once
// when it is not).
func whenActivated(ua *html.UserAgent, w *html.ServiceWorker, f func()) {
	if w.State() != html.SWActivating {
		f()
		return
	}
	var once sync.Once
	var mu sync.Mutex
	var unsub func()
	run := func() {
		once.Do(func() {
			mu.Lock()
			u := unsub
			mu.Unlock()
			if u != nil {
				go u()
			}
			f()
		})
	}
	mu.Lock()
	unsub = html.SubscribeServiceWorkerChanges(ua, func(snap *html.ServiceWorkerSnapshot) {
		if s, ok := snap.States[w]; ok && s != html.SWActivating {
			go run()
		}
	})
	mu.Unlock()
	if w.State() != html.SWActivating {
		run()
	}
}

// handleFetchInWorker is Handle Fetch from its step 12: run the worker
// (it runs until it is redundant here), queue the task that fires the
// fetch event in its realm, and wait for the response.
func (r *Realm) handleFetchInWorker(client *html.EnvironmentSettingsObject, req *request, activeWorker *html.ServiceWorker, respond func(*response)) {
	// 13. If the result of running Run Service Worker with activeWorker
	//    is failure, set handleFetchFailed to true (a network error).
	env := activeWorker.Env()
	var sr *Realm
	if env != nil {
		sr = RealmOf(env)
	}
	if sr == nil || activeWorker.State() == html.SWRedundant {
		respond(networkError())
		return
	}
	clientID := client.ID()
	reqCopy := req.clone(r)
	// 14. Queue a task task to run the following substeps (the handle
	//    fetch task source); 15. if task is discarded, set
	//    handleFetchFailed to true.
	if !sr.queueTask(html.DOMManipulationTaskSource, func() {
		sr.fireFetchEvent(reqCopy, clientID, "", respond)
	}) {
		respond(networkError())
	}
}

// fireFetchEvent is the task of Handle Fetch step 14, in the service
// worker's realm r, and the steps after it (15-18).
func (r *Realm) fireFetchEvent(req *request, clientID, resultingClientID string, respond func(*response)) {
	// 14.1. Let requestObject be the result of creating a Request object,
	//    given request, a new Headers object's guard which is
	//    "immutable", and activeWorker's global object's relevant Realm.
	requestObject := &requestImpl{req: req}
	requestObject.bodyOwner = bodyOwner{realm: r, body: req.body, headers: &req.headers}
	requestObject.headers = newHeaders(&req.headers, guardImmutable)
	requestObject.signal = r.signalImpl(dom.CreateADependentAbortSignal(nil))
	// 14.2. Let e be the result of creating an event with FetchEvent.
	ev := dom.NewEvent("fetch")
	// 14.4-14.5. Initialize e's type to "fetch", cancelable to true,
	//    request to requestObject, preloadResponse to a promise resolved
	//    with undefined, clientId to client's id, resultingClientId to
	//    the reserved client's id ("" for a subresource request), and
	//    handled to a new promise.
	ev.Cancelable = true
	ev.IsTrusted = true
	base := &eventImpl{realm: r, ev: ev, stamp: r.nowMillis(), hasStamp: true}
	e := &fetchEventImpl{extendableEventImpl: &extendableEventImpl{eventImpl: base, dispatching: true},
		request: requestObject, clientID: webidl.DOMString(clientID), resultingClientID: webidl.DOMString(resultingClientID),
		preloadResponse: r.idl.PromiseResolvedWith(sobek.Undefined()), handled: r.idl.NewPromise()}
	ev.Detail = e
	// 14.7. Dispatch e at activeWorker's global object.
	r.globalTarget.target.DispatchEvent(ev)
	e.dispatching = false
	// 14.9. If e's respond-with entered flag is set, set
	//    respondWithEntered to true. 14.12. If e's canceled flag is set,
	//    set eventCanceled to true.
	respondWithEntered, eventCanceled := e.respondWithEntered, ev.DefaultPrevented()
	finish := func() {
		// 14.11. If e's respond-with error flag is set, set
		//    handleFetchFailed to true.
		handleFetchFailed := e.respondWithError
		// 17. If respondWithEntered is false, then:
		if !respondWithEntered {
			// 17.1. If eventCanceled is true, reject eventHandled with a
			//    "NetworkError" DOMException and return a network error.
			if eventCanceled {
				e.handled.RejectError(dom.NewDOMException("The fetch event was canceled.", dom.NetworkError))
				e.handled.MarkHandled()
				respond(networkError())
				return
			}
			// 17.2. Resolve eventHandled; 17.3. return null.
			e.handled.Resolve(sobek.Undefined())
			respond(nil)
			return
		}
		// 18. If handleFetchFailed is true, reject eventHandled with a
		//    "NetworkError" DOMException and return a network error.
		if handleFetchFailed || e.potentialResponse == nil {
			e.handled.RejectError(dom.NewDOMException("The fetch event's respondWith failed.", dom.NetworkError))
			e.handled.MarkHandled()
			respond(networkError())
			return
		}
		// 19. Resolve eventHandled. 20. Return response.
		e.handled.Resolve(sobek.Undefined())
		respond(e.potentialResponse)
	}
	// 14.10. If e's wait to respond flag is set, wait until it is unset.
	if e.waitToRespond {
		e.responded = finish
		return
	}
	finish()
}
