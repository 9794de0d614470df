package bindings

import (
	"bytes"
	"errors"
	"sync"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/serviceworker"
	"github.com/gowebengine/weblocks/streams"
	"github.com/grafana/sobek"
)

// This file is the fetch side of Service Workers in JavaScript:
// FetchEvent and the ServiceWorkerGlobalScope's onfetch. Handle Fetch is
// package serviceworker's: HTTP fetch invokes it for a request whose
// client has an active service worker, and it has the event dispatched in
// the service worker's realm (DispatchFetchEvent); the response the event
// gives is copied into the client's fetch, its body streaming to the
// client as the worker's realm reads it (handOverBody, a fed body of
// package fetch).

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
	// potentialBody is potentialResponse's body as the client's fetch
	// reads it (handOverBody).
	potentialBody *fetch.Body
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
		default:
			// 10.2.2. Let potentialResponse be a copy of response's
			//         associated response, except for its body.
			e.potentialResponse = copyResponse(o.resp)
			// 10.2.3-10.2.6. If response's body is non-null: a reader of
			//         its stream, and potentialResponse's body a new
			//         stream whose pull reads a chunk of it and whose
			//         cancel cancels it (handOverBody).
			e.potentialBody = r.handOverBody(o.resp.body)
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

// copyResponse copies resp for another realm, except for its body (see
// handOverBody): the header list is the copy's own.
func copyResponse(resp *response) *response {
	c := *resp
	c.headers = resp.headers.Clone()
	c.body = nil
	if resp.url != nil {
		c.url = cloneURLPtr(resp.url)
	}
	return &c
}

// handOverBody is the body part of respondWith's steps 10.2.3-10.2.6
// (https://w3c.github.io/ServiceWorker/#fetch-event-respondwith) for b,
// the body of the Response a fetch event was answered with (unusable
// bodies were refused before): the body the client's fetch reads, a fed
// body of package fetch (fetch.NewFedBody) that streams to the client as
// the service worker's realm gets the bytes. Its pull reads a chunk of
// b's stream once the client took the previous one; its cancel (the
// client's fetch aborted) cancels b's stream. A body from the network
// that has no stream yet (respondWith(fetch(request))) is followed as it
// arrives, and canceling ends that fetch. Bytes in memory are handed
// over as they are.
func (r *Realm) handOverBody(b *body) *fetch.Body {
	if b == nil {
		return nil
	}
	if b.stream == nil && b.net == nil {
		b.used = true
		return &fetch.Body{Source: bytes.Clone(b.source)}
	}
	if b.stream == nil {
		// Reading the network body here disturbs the Response, as a
		// reader of its stream would.
		b.used = true
		terminate := b.terminate
		fb, feed := fetch.NewFedBody(func(error) {
			if terminate != nil {
				terminate()
			}
		})
		// Subscribe's later chunks wait for the bytes that arrived
		// before it (mu): the feed gets them in order.
		var mu sync.Mutex
		mu.Lock()
		sofar, ended, err := b.net.Subscribe(func(chunk []byte) {
			mu.Lock()
			feed.Push(bytes.Clone(chunk), nil)
			mu.Unlock()
		}, func(err error) {
			mu.Lock()
			feed.End(err)
			mu.Unlock()
		})
		feed.Push(bytes.Clone(sofar), nil)
		if ended {
			feed.End(err)
		}
		mu.Unlock()
		return fb
	}
	// 10.2.3. Let reader be the result of getting a reader for
	//         response's body's stream.
	reader, err := streams.AcquireReadableStreamDefaultReader(b.stream.s)
	if err != nil {
		// (Unusable bodies were refused before: a locked stream cannot
		// come here.)
		fb, feed := fetch.NewFedBody(nil)
		feed.End(err)
		return fb
	}
	// 10.2.5. cancelAlgorithm: cancel reader (in a task of this realm,
	//         the client's fetch having been aborted).
	fb, feed := fetch.NewFedBody(func(error) {
		r.fetchTask(func() {
			reason := r.idl.ErrorValue(dom.NewDOMException("The client's fetch was aborted.", dom.AbortError))
			r.streamHost().MarkHandled(reader.Cancel(reason))
		})
	})
	// 10.2.4. pullAlgorithm: read a chunk from reader; its bytes go to
	//         the client's stream, and the next read waits until the
	//         client took them.
	var pull func()
	pull = func() {
		streams.ReadableStreamDefaultReaderRead(reader, streams.ReadRequest{
			Chunk: func(chunk any) {
				v := jsStreamValue(chunk)
				if r.idl.BufferKindOf(v) != "Uint8Array" {
					feed.End(errors.New("the service worker's response body gave a chunk that is not a Uint8Array"))
					r.streamHost().MarkHandled(reader.Cancel(r.idl.ErrorValue(webidl.NewTypeError("The chunk is not a Uint8Array"))))
					return
				}
				data := bytes.Clone(webidl.BufferSource{Object: v.(*sobek.Object), Kind: "Uint8Array"}.Bytes())
				feed.Push(data, func() { r.fetchTask(pull) })
			},
			Close: func() { feed.End(nil) },
			Error: func(any) { feed.End(errors.New("the service worker's response body errored")) },
		})
	}
	pull()
	return fb
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
			res.Response = toFetchResponse(e.potentialResponse, e.potentialBody)
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
