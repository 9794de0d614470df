package serviceworker

import (
	"bytes"
	"errors"
	"net/url"
	"strings"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/origin"
)

// scriptRequest is the request Update's "fetch a classic worker script"
// makes for a job's script url, with Update's perform the fetch hook
// (https://w3c.github.io/ServiceWorker/#update-algorithm step 8) applied:
// destination "serviceworker", mode "same-origin", credentials mode
// "same-origin", client the job's client (nil for a Soft Update),
// `Service-Worker: script`, service-workers mode "none", redirect mode
// "error".
func scriptRequest(scriptURL *url.URL, client *fetch.Client) *fetch.Request {
	// (https://html.spec.whatwg.org/#fetch-a-classic-worker-script step 1:
	// a request whose URL is url, client is fetchClient, destination is
	// destination, initiator type "other", mode "same-origin",
	// credentials mode "same-origin", parser metadata "not
	// parser-inserted", with the use-URL-credentials flag.)
	req := fetch.NewRequest(cloneURL(scriptURL), client)
	req.Destination, req.Mode, req.Credentials = "serviceworker", "same-origin", "same-origin"
	// The perform the fetch hook:
	// 1. Append `Service-Worker`/`script` to request's header list.
	req.Header.Append("Service-Worker", "script")
	// 2. (Cache mode "no-cache": there is no HTTP cache.)
	// 3. Set request's service-workers mode to "none".
	req.ServiceWorkersMode = "none"
	// 4. (isTopLevel is set for the main script.)
	// 5. Set request's redirect mode to "error".
	req.Redirect = "error"
	return req
}

// pathString is "/" followed by the strings in u's path separated by
// "/" (Update step 8's maxScopeString and scopeString).
func pathString(u *url.URL) string {
	p := u.EscapedPath()
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return p
}

// fetchServiceWorkerScript is Update's steps 5-8 for a classic script
// (https://w3c.github.io/ServiceWorker/#update-algorithm): fetch the
// job's script url through package fetch with the perform the fetch
// hook's checks of the response, and compare it with newestWorker's. It
// returns the script's source, its response's referrer policy (of its
// Referrer-Policy header, "" for none) and hasUpdatedResources, or the job's
// rejection: a "SecurityError" DOMException (a network error, a redirect
// among them; a script that is not JavaScript; a scope outside the
// maximum scope) or a TypeError (a status that is not ok).
func (st *uaState) fetchServiceWorkerScript(host Host, j *job, reg *Registration, newestWorker *ServiceWorker) (script []byte, referrerPolicy string, hasUpdatedResources bool, err error) {
	var client *fetch.Client
	if j.client != nil {
		client = &fetch.Client{Origin: j.client.Origin(), URL: j.client.CreationURL()}
	} else if c := j.remoteClient; c != nil {
		client = &fetch.Client{Origin: c.Origin, URL: cloneURL(c.URL)}
	}
	req := scriptRequest(j.scriptURL, client)
	// 6. Fetch request (blob: and data: URLs never get here: Start
	//    Register refuses them, and the request's mode is "same-origin").
	resp := fetch.FetchWhole(host.Context(), &fetch.Params{Request: req, Network: host.Network()})
	// 7. Extract a MIME type from response's header list; if it is not a
	//    JavaScript MIME type, reject the job promise with a
	//    "SecurityError" DOMException and complete with a network error.
	//    A network error (a redirect: redirect mode "error") has an empty
	//    header list, so no JavaScript MIME type: a SecurityError.
	// (A response blocked due to its MIME type or nosniff with a status
	// that is not ok is the TypeError of the status check below.)
	var blocked *fetch.BlockedByTypeError
	if resp.IsNetworkError() && errors.As(resp.Err, &blocked) && (blocked.Status < 200 || blocked.Status > 299) {
		return nil, "", false, typeError("Failed to register a ServiceWorker for scope ('%s') with script ('%s'): A bad HTTP response code (%d) was received when fetching the script.", reg.scope, j.scriptURL, blocked.Status)
	}
	if resp.IsNetworkError() {
		why := "An unknown error occurred when fetching the script."
		if resp.Err != nil {
			why = resp.Err.Error()
		}
		return nil, "", false, dom.NewDOMException("Failed to register a ServiceWorker for scope ('"+reg.scope.String()+"') with script ('"+j.scriptURL.String()+"'): "+why, dom.SecurityError)
	}
	// (fetch a classic worker script: a status that is not an ok status
	// is a null script, a TypeError; checked before the MIME type, as
	// Chromium does and web-platform-tests expect: see doc.go.)
	if resp.Status < 200 || resp.Status > 299 {
		return nil, "", false, typeError("Failed to register a ServiceWorker for scope ('%s') with script ('%s'): A bad HTTP response code (%d) was received when fetching the script.", reg.scope, j.scriptURL, resp.Status)
	}
	ct, _ := resp.Header.Get("Content-Type")
	if essence := fetch.MIMEEssence(ct); !fetch.IsJavaScriptMIMEType(essence) {
		return nil, "", false, dom.NewDOMException("Failed to register a ServiceWorker for scope ('"+reg.scope.String()+"') with script ('"+j.scriptURL.String()+"'): The script has an unsupported MIME type ('"+essence+"').", dom.SecurityError)
	}
	// 8-9. Let serviceWorkerAllowed be the result of getting
	//    `Service-Worker-Allowed` from response's header list,
	//    isomorphic decoded.
	serviceWorkerAllowed, allowed := resp.Header.Get("Service-Worker-Allowed")
	// 10. (No policy container.)
	// 11. Let scopeURL be registration's scope url.
	scopeURL := reg.scope
	// 12. Let maxScopeString be null.
	maxScopeString, haveMax := "", false
	if !allowed {
		// 13. If serviceWorkerAllowed is null: let resolvedScope be the
		//     result of parsing "./" using job's script url as the base
		//     URL; maxScopeString is "/" followed by its path.
		resolvedScope, _ := j.scriptURL.Parse("./")
		maxScopeString, haveMax = pathString(resolvedScope), true
	} else {
		// 14. Else: let maxScope be the result of parsing
		//     serviceWorkerAllowed using job's script url as the base URL;
		//     failure is a network error; if maxScope's origin is job's
		//     script url's origin, maxScopeString is "/" followed by its
		//     path.
		maxScope, err := j.scriptURL.Parse(serviceWorkerAllowed)
		if err != nil {
			return nil, "", false, typeError("Failed to register a ServiceWorker for scope ('%s') with script ('%s'): The Service-Worker-Allowed header ('%s') is not a URL.", reg.scope, j.scriptURL, serviceWorkerAllowed)
		}
		if origin.SameOrigin(origin.FromURL(maxScope), origin.FromURL(j.scriptURL)) {
			maxScopeString, haveMax = pathString(maxScope), true
		}
	}
	// 15. Let scopeString be "/" followed by the strings in scopeURL's
	//     path.
	scopeString := pathString(scopeURL)
	// 16. If maxScopeString is null or scopeString does not start with
	//     maxScopeString, reject the job promise with a "SecurityError"
	//     DOMException and complete with a network error.
	if !haveMax || !strings.HasPrefix(scopeString, maxScopeString) {
		return nil, "", false, dom.NewDOMException("Failed to register a ServiceWorker for scope ('"+scopeURL.String()+"') with script ('"+j.scriptURL.String()+"'): The path of the provided scope ('"+scopeString+"') is not under the max scope allowed ('"+maxScopeString+"'). Adjust the scope, move the Service Worker script, or use the Service-Worker-Allowed HTTP header to allow the scope.", dom.SecurityError)
	}
	var body []byte
	if resp.Body != nil {
		body = resp.Body.Source
	}
	// 17-19. (No last update check time.)
	// 20. Set hasUpdatedResources to true if newestWorker is null, its
	//     script url is not url or its type is not job's worker type, or
	//     its script resource is not byte-for-byte identical with
	//     response's body.
	hasUpdatedResources = newestWorker == nil || newestWorker.scriptURL.String() != req.URLList[0].String() ||
		newestWorker.typ != j.workerType || !bytes.Equal(newestWorker.script, body)
	// 21. (No imported scripts are checked: see doc.go.)
	// (Run Service Worker's policy container: the script response's
	// Referrer-Policy.)
	return body, fetch.ParseReferrerPolicyHeader(resp), hasUpdatedResources, nil
}
