package serviceworker

import (
	"context"

	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/html"
)

// HandleFetchNonSubresource is https://w3c.github.io/ServiceWorker/#on-fetch-request-algorithm
// for a non-subresource request other than a navigation: a dedicated or
// shared worker's script, whose reserved client is the worker's
// environment (step 9). The registration whose scope matches the
// request's URL handles it: its active worker becomes the reserved
// client's active service worker (the worker is controlled) and gets the
// fetch event. It returns nil (null: go to the network) when no
// registration matches, as HandleFetch does. It blocks: call it in
// parallel.
func HandleFetchNonSubresource(ctx context.Context, reservedClient *html.EnvironmentSettingsObject, request *fetch.Request) *fetch.Response {
	if reservedClient == nil || request == nil {
		return nil
	}
	// 9.1. If reservedClient is not null and is an environment settings
	//      object, then: if reservedClient is not a secure context,
	//      return null.
	if !reservedClient.IsSecureContext() {
		return nil
	}
	st := stateOf(reservedClient.UserAgent())
	st.mu.Lock()
	// 9.3-9.4. Let registration be the result of running Match Service
	//      Worker Registration given storage key (obtained from
	//      reservedClient) and request's URL.
	reg := st.matchLocked(reservedClient.ObtainAStorageKeyForNonStoragePurposes(), request.CurrentURL())
	// 9.5. If registration is null or registration's active worker is
	//      null, return null.
	if reg == nil || reg.active == nil {
		st.mu.Unlock()
		return nil
	}
	// 9.6. If request's destination is not "report", set
	//      reservedClient's active service worker to registration's
	//      active worker.
	activeWorker := reg.active
	watch := setActiveServiceWorkerLocked(reservedClient, activeWorker)
	st.mu.Unlock()
	if watch {
		st.watch(reservedClient)
	}
	st.clientAdded(reservedClient)
	// 16-18. Create Fetch Event and Dispatch (the event's client is the
	//     reserved client).
	return st.createFetchEventAndDispatch(ctx, request, activeWorker, reservedClient)
}
