package serviceworker

import (
	"context"
	"errors"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/html"
)

// HandleFetch is https://w3c.github.io/ServiceWorker/#on-fetch-request-algorithm
// for a subresource request whose client is client (package fetch's
// Params.HandleFetch). It returns nil (null: go to the network) when the
// client has no active service worker; otherwise it waits for the fetch
// event and returns a network error or the response it gave, or nil when
// the event was not answered. It blocks: call it in parallel (fetch
// does); ctx ends the wait (the fetch's abort).
func HandleFetch(ctx context.Context, client *html.EnvironmentSettingsObject, request *fetch.Request) *fetch.Response {
	if client == nil || request == nil {
		return nil
	}
	// 1-6. Let registration be null, client be request's client.
	// 7. Assert: request's destination is not "serviceworker".
	// 8. If request's destination is either "embed" or "object", then
	//    return null.
	switch request.Destination {
	case "serviceworker", "embed", "object":
		return nil
	}
	// 9. (Non-subresource requests: HandleFetchReservedClient.)
	// 10. Else if request is a subresource request: if client's active
	//     service worker is non-null, set registration to its containing
	//     service worker registration; else return null.
	w := ActiveServiceWorker(client)
	if w == nil {
		return nil
	}
	registration := w.reg
	// 11. Let activeWorker be registration's active worker.
	_, _, activeWorker := registration.Workers()
	if activeWorker == nil {
		return nil
	}
	// 12. (shouldSoftUpdate: a subresource request's registration is never
	//     stale here, see doc.go.)
	// 13. (No router rules.)
	// 14-15. (No navigation preload: preloadResponse resolves with
	//     undefined.)
	// 16. Let fetchResult be the result of Create Fetch Event and
	//     Dispatch.
	// 17-18. Return fetchResult.
	//     (The event's clientId is client's id; a subresource request
	//     has no resultingClientId.)
	return registration.st.createFetchEventAndDispatch(ctx, request, activeWorker, client.ID(), "")
}

// errFetchEvent is the network error of a fetch event that failed.
var errFetchEvent = errors.New("serviceworker: the service worker's fetch event failed")

// createFetchEventAndDispatch is https://w3c.github.io/ServiceWorker/#create-fetch-event-and-dispatch-algorithm;
// clientID is the id of request's client ("" for none), resultingClientID
// the id of the reserved client of a non-subresource request ("" for
// none): the event's clientId and resultingClientId.
func (st *uaState) createFetchEventAndDispatch(ctx context.Context, request *fetch.Request, activeWorker *ServiceWorker, clientID, resultingClientID string) *fetch.Response {
	// 1-8. Let response be null, eventCanceled, handleFetchFailed and
	//    respondWithEntered be false, networkError a network error.
	networkError := fetch.NetworkError(errFetchEvent)
	// 11. (Should Skip Event: the set of event types to handle is not
	//     kept; a worker without fetch listeners dispatches an event
	//     nobody answers, which is the same null.)
	// 12. (No all fetch listeners are empty flag.)
	// 15. If activeWorker's state is "activating", wait for it to become
	//     "activated".
	if !st.waitUntilActivated(ctx, activeWorker) {
		return fetch.NetworkError(ctx.Err())
	}
	// 16. If Run Service Worker with activeWorker fails, set
	//     handleFetchFailed to true (a network error). (One that runs in
	//     another process gets the event there.)
	var r FetchEventResult
	err := st.runServiceWorker(activeWorker)
	if errors.Is(err, errElsewhere) {
		if r, err = st.remoteRegistry().Fetch(ctx, activeWorker.id, request, clientID, resultingClientID); err != nil {
			return networkError
		}
		return fetchResult(ctx, r, networkError)
	}
	if err != nil || activeWorker.State() == Redundant {
		return networkError
	}
	st.mu.Lock()
	host := st.host
	st.mu.Unlock()
	if host == nil {
		return networkError
	}
	// 17. Else: queue a task (the host's) that creates the FetchEvent e
	//     for request, dispatches it at activeWorker's global and waits
	//     until e's wait to respond flag is unset. If the task is
	//     discarded, set handleFetchFailed to true.
	// 18. Wait for task to have executed or for handleFetchFailed to be
	//     true.
	ch := make(chan FetchEventResult, 1)
	host.DispatchFetchEvent(activeWorker, request, clientID, resultingClientID, func(r FetchEventResult) { ch <- r })
	select {
	case r = <-ch:
	case <-ctx.Done():
		return fetch.NetworkError(ctx.Err())
	}
	return fetchResult(ctx, r, networkError)
}

// fetchResult is Create Fetch Event and Dispatch's steps 18-24 for the
// dispatched event's result r.
func fetchResult(ctx context.Context, r FetchEventResult, networkError *fetch.Response) *fetch.Response {
	if !r.Dispatched {
		return networkError
	}
	settle := r.SettleHandled
	if settle == nil {
		settle = func(error) {}
	}
	// 19. (shouldSoftUpdate is false.)
	// 20. (No race response map.)
	// 21. If respondWithEntered is false, then: if eventCanceled is
	//     true, reject eventHandled with a "NetworkError" DOMException
	//     and return networkError; otherwise resolve eventHandled and
	//     return null.
	if !r.RespondWithEntered {
		if r.Canceled {
			settle(dom.NewDOMException("The fetch event was canceled.", dom.NetworkError))
			return networkError
		}
		settle(nil)
		return nil
	}
	// 22. If handleFetchFailed is true (the respond-with error flag),
	//     reject eventHandled with a "NetworkError" DOMException and
	//     return networkError.
	if r.RespondWithError || r.Response == nil {
		settle(dom.NewDOMException("The fetch event's respondWith failed.", dom.NetworkError))
		return networkError
	}
	// 23. Resolve eventHandled. 24. Return response. (Its body streams
	//     from the worker's realm: aborting the fetch, which ends ctx,
	//     cancels the worker's side, as respondWith's cancel algorithm
	//     says.)
	settle(nil)
	if b := r.Response.Body; b != nil {
		b.CancelWhenDone(ctx)
	}
	return r.Response
}

// waitUntilActivated waits while w's state is "activating"; false when
// ctx ended first.
func (st *uaState) waitUntilActivated(ctx context.Context, w *ServiceWorker) bool {
	if w.State() != Activating {
		return true
	}
	changed := make(chan struct{}, 1)
	unsubscribe := Subscribe(st.ua, func(*Snapshot) {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	defer unsubscribe()
	for w.State() == Activating {
		select {
		case <-changed:
		case <-ctx.Done():
			return false
		}
	}
	return true
}
