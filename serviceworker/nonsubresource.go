package serviceworker

import (
	"context"

	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/origin"
)

// HandleFetchNonSubresource is https://w3c.github.io/ServiceWorker/#on-fetch-request-algorithm
// for a non-subresource request whose reserved client is reservedClient:
// a navigation request (a document of a window or a frame, whose reserved
// client is the navigation's reserved environment,
// html.Navigable.ReserveEnvironment) or a dedicated or shared worker's
// script (whose reserved client is the worker's environment settings
// object). The registration whose scope matches the request's URL
// handles it (step 9): its active worker becomes the reserved client's
// active service worker (the new document or the worker is controlled)
// and gets the fetch event, whose resultingClientId is the reserved
// client's id. It returns nil (null: go to the network) when no
// registration matches, as HandleFetch does. It blocks: call it in
// parallel.
func HandleFetchNonSubresource(ctx context.Context, reservedClient *html.EnvironmentSettingsObject, request *fetch.Request) *fetch.Response {
	// 4. Let reservedClient be request's reserved client (9.4: asserted
	//    non-null here).
	if reservedClient == nil || request == nil {
		return nil
	}
	// 2. Let client be request's client.
	client := request.Client
	// 7. Assert: request's destination is not "serviceworker".
	// 8. If request's destination is either "embed" or "object", then
	//    return null.
	switch request.Destination {
	case "serviceworker", "embed", "object":
		return nil
	}
	// 9. Else if request is a non-subresource request, then:
	if !reservedClient.IsReserved() {
		// 9.1. If reservedClient is not null and is an environment
		//      settings object, then: if reservedClient is not a secure
		//      context, return null.
		if !reservedClient.IsSecureContext() {
			return nil
		}
	} else if !origin.IsURLPotentiallyTrustworthy(request.CurrentURL()) {
		// 9.2. Else: if request's url is not a potentially trustworthy
		//      URL, return null.
		return nil
	}
	// 9.3. (No shift+reload.)
	st := stateOf(reservedClient.UserAgent())
	st.mu.Lock()
	// 9.5-9.6. Let storage key be the result of running obtain a storage
	//      key given reservedClient; set registration to the result of
	//      running Match Service Worker Registration given storage key
	//      and request's url.
	reg := st.matchLocked(reservedClient.ObtainAStorageKeyForNonStoragePurposes(), request.CurrentURL())
	// 9.7. If registration is null or registration's active worker is
	//      null, return null.
	if reg == nil || reg.active == nil {
		st.mu.Unlock()
		return nil
	}
	// 9.8. If request's destination is not "report", set reservedClient's
	//      active service worker to registration's active worker. (A
	//      reserved environment is watched for its unloading once a
	//      document's environment settings object took it over:
	//      WindowClientCreated.)
	activeWorker := reg.active
	watch := false
	if request.Destination != "report" {
		watch = setActiveServiceWorkerLocked(reservedClient, activeWorker)
	}
	st.mu.Unlock()
	if watch {
		st.watch(reservedClient)
	}
	// 16-18. Create Fetch Event and Dispatch: the event's clientId is
	//     client's id (empty for a navigation nobody initiated), its
	//     resultingClientId reservedClient's id unless request's
	//     destination is "report".
	clientID, resultingClientID := "", reservedClient.ID()
	if client != nil {
		clientID = client.ID
	}
	if request.Destination == "report" {
		resultingClientID = ""
	}
	return st.createFetchEventAndDispatch(ctx, request, activeWorker, clientID, resultingClientID)
}
