package browser

import (
	"context"
	"fmt"
	"mime"
	"net/url"
	"strings"

	"github.com/gowebengine/weblocks/csp"
	"github.com/gowebengine/weblocks/csp/container"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/fileapi"
	xhtml "golang.org/x/net/html"
)

// This file is where every load of the browser meets package fetch:
// documents (top-level, iframes, popups, navigations), classic scripts,
// worker and shared worker scripts and importScripts build the
// fetch.Request HTML gives them (destination, mode, credentials mode,
// client, referrer, referrer policy) and run fetch.Fetch over the
// browser's network, which is its Fetcher (fetch_request.go), and the
// user agent's blob URL store, CORS-preflight cache and cookie store. Module scripts
// and import() do the same in modules.go, scripts' fetch() in
// fetch_request.go. No load calls the Fetcher directly: bad ports, Mixed
// Content, CORS (fetch.CORSCheck, the only CORS check), redirects and
// Referrer Policy apply to all.

// fetchAll runs fetch for req over the browser's network, the user
// agent's blob URL store, CORS-preflight cache and cookie store, and reads the
// response's body: a body whose read fails makes the response a network
// error.
func (s *Browser) fetchAll(ctx context.Context, req *fetch.Request) *fetch.Response {
	return fetch.FetchWhole(ctx, &fetch.Params{Request: req, Network: s.network(), BlobURLs: fileapi.StoreOf(s.eng.ua),
		PreflightCache: preflightCacheOf(s.eng.ua), Cookies: cookieStoreOf(s.eng.ua)})
}

// unsafeResponse is https://fetch.spec.whatwg.org/#concept-unsafe-response:
// the internal response of a filtered response (an opaque one's body
// and status included), else the response itself.
func unsafeResponse(r *fetch.Response) *fetch.Response {
	if r.Internal != nil {
		return r.Internal
	}
	return r
}

// loaded is a response's body and what the loads need of it: the
// response's URL, its MIME type's essence and charset (lower case), and
// the referrer policy of its Referrer-Policy header ("" for none).
type loaded struct {
	body             []byte
	url              *url.URL
	essence, charset string
	referrerPolicy   string
	// csp is the CSP list of its Content-Security-Policy(-Report-Only)
	// headers, whose self-origin is the response URL's origin.
	csp csp.List
}

// loadedOf reads r (an unsafe response).
func loadedOf(r *fetch.Response, requested *url.URL) loaded {
	l := loaded{url: r.URL(), referrerPolicy: fetch.ParseReferrerPolicyHeader(r)}
	if l.url == nil {
		l.url = requested
	}
	l.csp = responseCSPList(r, l.url)
	if r.Body != nil {
		l.body = r.Body.Source
	}
	// Extract a MIME type from the header list (its essence and charset).
	if ct, ok := r.Header.Get("Content-Type"); ok && ct != "" {
		if mt, params, err := mime.ParseMediaType(ct); err == nil {
			l.essence, l.charset = strings.ToLower(mt), strings.ToLower(params["charset"])
		}
	}
	return l
}

// isOKStatus is https://fetch.spec.whatwg.org/#ok-status.
func isOKStatus(status int) bool { return status >= 200 && status <= 299 }

// client is the request client of w's environment settings object: its
// origin, its top-level site, its policy container's referrer policy,
// and the referrer source "client" stands for (determine request's
// referrer: none for an opaque origin; an iframe srcdoc document's
// container document's URL; else the document's URL).
func (w *Window) client() *fetch.Client {
	c := &fetch.Client{ID: w.env.ID(), Origin: w.env.Origin(), TopLevelSite: w.env.TopLevelSite(), ReferrerPolicy: w.referrerPolicy(),
		CSP: container.ListOf(w.env)}
	if c.Origin.IsOpaque() {
		return c
	}
	d := w
	for d.parentWin != nil && strings.EqualFold(d.url.Scheme, "about") && d.url.Opaque == "srcdoc" {
		d = d.parentWin
	}
	c.URL = d.URL()
	return c
}

// historyClient is the request client a reload or a traversal of w's
// navigable that loads a document gives its request (navHistory.client):
// w's environment's id, origin and top-level site, nothing that would
// give the request a referrer or a CSP list.
func (w *Window) historyClient() *fetch.Client {
	return &fetch.Client{ID: w.env.ID(), Origin: w.env.Origin(), TopLevelSite: w.env.TopLevelSite()}
}

// envClient is the request client of a worker's environment settings
// object: its origin, its top-level site, its creation URL the referrer
// source, and referrerPolicy its policy container's referrer policy.
func envClient(env envHandle, referrerPolicy string) *fetch.Client {
	return &fetch.Client{ID: env.ID(), Origin: env.Origin(), TopLevelSite: env.TopLevelSite(), URL: env.CreationURL(), ReferrerPolicy: referrerPolicy,
		CSP: container.ListOf(env)}
}

// workerPolicy is the referrer policy of the policy container "initialize
// a worker global scope's policy container" gives a worker whose script's
// response is l: its owner's (fetchClient's) for a local scheme (blob:,
// data:), else its response's Referrer-Policy header's.
// https://html.spec.whatwg.org/multipage/workers.html#initialize-worker-policy-container
func workerPolicy(owner *fetch.Client, l loaded) string {
	switch strings.ToLower(l.url.Scheme) {
	case "about", "blob", "data":
		// 1. If workerGlobalScope's url is local but its scheme is not
		//    "blob": ... set it to a clone of the owner's policy
		//    container (blob: URLs: the creator's, here the owner's).
		if owner != nil {
			return owner.ReferrerPolicy
		}
		return ""
	}
	// 2. Otherwise, set workerGlobalScope's policy container to the
	//    result of creating a policy container from a fetch response.
	return l.referrerPolicy
}

// referrerPolicy is the referrer policy of the policy container of w's
// document: a referrer meta element's, else its response's
// Referrer-Policy header's, else "" (the default,
// strict-origin-when-cross-origin). An iframe srcdoc document's is its
// container document's.
func (w *Window) referrerPolicy() string {
	d := w
	for d.parentWin != nil && strings.EqualFold(d.url.Scheme, "about") && d.url.Opaque == "srcdoc" {
		d = d.parentWin
	}
	d.urlMu.Lock()
	defer d.urlMu.Unlock()
	if d.metaReferrerPolicy != "" {
		return d.metaReferrerPolicy
	}
	return d.headerReferrerPolicy
}

// setHeaderReferrerPolicy gives w's document the referrer policy of its
// response's Referrer-Policy header, before its scripts run.
func (w *Window) setHeaderReferrerPolicy(policy string) {
	w.urlMu.Lock()
	w.headerReferrerPolicy = policy
	w.urlMu.Unlock()
}

// processReferrerMetadata runs the referrer meta element steps for the
// meta elements of w's parsed document, in tree order (the last one with
// a valid value wins), on w's event loop before its scripts run.
func (w *Window) processReferrerMetadata() {
	for _, el := range descendants(w.doc.HTML(), isMeta, 0) {
		w.processReferrerMeta(el)
		w.processCSPMeta(el)
	}
}

func isMeta(n *xhtml.Node) bool {
	return n.Type == xhtml.ElementNode && n.Data == "meta" && n.Namespace == ""
}

// processReferrerMeta is the referrer case of HTML's standard metadata
// names for meta element el of w's document (parsed, inserted, or whose
// content changed), on w's event loop: a referrer policy token, or a
// legacy one ("never", "default", "always", "origin-when-crossorigin"),
// sets the document's referrer policy.
// https://html.spec.whatwg.org/multipage/semantics.html#meta-referrer
func (w *Window) processReferrerMeta(el *xhtml.Node) {
	// 1. If element is not in a document tree, or does not have a name
	//    attribute whose value is an ASCII case-insensitive match for
	//    "referrer", or does not have a content attribute, then return.
	name, _ := getAttr(el, "name")
	content, ok := getAttr(el, "content")
	if !strings.EqualFold(strings.TrimSpace(name), "referrer") || !ok {
		return
	}
	// 2-3. Let value be the value of the element's content attribute,
	//    converted to ASCII lowercase; legacy values map to their
	//    policies.
	value := strings.ToLower(strings.TrimSpace(content))
	switch value {
	case "never":
		value = "no-referrer"
	case "default":
		value = fetch.DefaultReferrerPolicy
	case "always":
		value = "unsafe-url"
	case "origin-when-crossorigin":
		value = "origin-when-cross-origin"
	}
	// 4. If value is a referrer policy, set the node document's policy
	//    container's referrer policy to policy.
	if fetch.IsReferrerPolicy(value) {
		w.urlMu.Lock()
		w.metaReferrerPolicy = value
		w.urlMu.Unlock()
	}
}

// corsSettingOf is the state of el's crossorigin attribute (a CORS
// settings attribute): "" for No CORS (absent), "use-credentials", else
// "anonymous" (the empty string and invalid values too).
func corsSettingOf(el *xhtml.Node) string {
	v, ok := getAttr(el, "crossorigin")
	switch {
	case !ok:
		return ""
	case strings.EqualFold(v, "use-credentials"):
		return "use-credentials"
	}
	return "anonymous"
}

// referrerPolicyOf is the state of el's referrerpolicy attribute: a
// referrer policy keyword, else "" (the policy container's).
func referrerPolicyOf(el *xhtml.Node) string {
	v, _ := getAttr(el, "referrerpolicy")
	v = strings.ToLower(v)
	if fetch.IsReferrerPolicy(v) {
		return v
	}
	return ""
}

// createPotentialCORSRequest is
// https://html.spec.whatwg.org/multipage/urls-and-fetching.html#create-a-potential-cors-request
// (corsSetting: "" for No CORS, "anonymous" or "use-credentials").
func createPotentialCORSRequest(u *url.URL, destination, corsSetting string, client *fetch.Client) *fetch.Request {
	req := fetch.NewRequest(u, client)
	// 1. Let mode be "no-cors" if corsAttributeState is No CORS, and
	//    "cors" otherwise.
	req.Mode = "cors"
	if corsSetting == "" {
		req.Mode = "no-cors"
	}
	// 2. (No same-origin fallback flag.)
	// 3. Let credentialsMode be "include".
	req.Credentials = "include"
	// 4. If corsAttributeState is Anonymous, set credentialsMode to
	//    "same-origin".
	if corsSetting == "anonymous" {
		req.Credentials = "same-origin"
	}
	// 5. Return a new request whose URL is url, destination is
	//    destination, mode is mode, credentials mode is credentialsMode,
	//    and whose use-URL-credentials flag is set.
	req.Destination = destination
	return req
}

// fetchAClassicScript is "fetch a classic script" for a script element
// of the window of settings object client (corsSetting its crossorigin
// attribute's state, referrerPolicy its referrerpolicy attribute's): a
// cross-origin script without crossorigin is a no-cors request whose
// opaque response still runs; with crossorigin, the response must pass
// the CORS check. The MIME type is not checked (as browsers do for
// classic scripts). It returns the script's source, and whether its
// errors are muted (the response is CORS-cross-origin: opaque).
// https://html.spec.whatwg.org/multipage/webappapis.html#fetch-a-classic-script
func (s *Browser) fetchAClassicScript(u *url.URL, client *fetch.Client, corsSetting, referrerPolicy string) (text string, muted bool, err error) {
	// 1. Let request be the result of creating a potential-CORS request
	//    given url, "script", and CORS setting.
	// 2. Set request's client to settingsObject.
	req := createPotentialCORSRequest(u, "script", corsSetting, client)
	// 3-4. Set up the classic script request given request and options
	//    (the referrer policy; parser metadata, nonce and integrity are
	//    not used).
	req.ReferrerPolicy = referrerPolicy
	// 5. Fetch request with processResponseConsumeBody:
	resp := s.fetchAll(s.ctx, req)
	if resp.IsNetworkError() {
		return "", false, fmt.Errorf("%s: %v", u, resp.Err)
	}
	// 5.1. (response can be either CORS-same-origin or
	//      CORS-cross-origin; this only affects how error reporting
	//      happens.)
	// 5.2. Set response to response's unsafe response.
	r := unsafeResponse(resp)
	// 5.3. If bodyBytes is null or failure, or response's status is not
	//      an ok status, then run onComplete given null, and abort these
	//      steps.
	if !isOKStatus(r.Status) {
		return "", false, fmt.Errorf("HTTP status %d for %s", r.Status, u)
	}
	// 5.4-5.6. Decode the body with the response's charset, else UTF-8.
	l := loadedOf(r, u)
	// 5.7. Let mutedErrors be true if response was CORS-cross-origin, and
	//      false otherwise.
	return decodeText(l.body, l.charset), resp.Type == "opaque" || resp.Type == "opaqueredirect", nil
}

// fetchAClassicWorkerScript is "fetch a classic worker script" (its
// fourth result is the worker's CSP list, workerCSPList; reserved is the
// worker's environment, the request's reserved client): a
// same-origin request (a cross-origin redirect is a network error) with
// destination "worker" or "sharedworker" whose client is the worker's
// owner (fetchClient); an http(s) response needs a JavaScript MIME type.
// It returns the script's source (UTF-8), the response's URL (the worker
// global scope's url) and the worker's referrer policy (workerPolicy).
// https://html.spec.whatwg.org/multipage/workers.html#fetch-a-classic-worker-script
func (s *Browser) fetchAClassicWorkerScript(u *url.URL, fetchClient *fetch.Client, destination string, reserved envHandle) (string, *url.URL, string, csp.List, error) {
	// 1. Let request be a new request whose URL is url, client is
	//    fetchClient, destination is destination, initiator type is
	//    "other", mode is "same-origin", credentials mode is
	//    "same-origin", parser metadata is "not parser-inserted", and
	//    whose use-URL-credentials flag is set.
	req := fetch.NewRequest(u, fetchClient)
	req.Destination, req.Mode, req.Credentials = destination, "same-origin", "same-origin"
	// 3. Fetch request with processResponseConsumeBody:
	//    (The worker's environment is the request's reserved client:
	//    a service worker whose scope matches the script's URL handles
	//    the request and controls the worker.)
	resp := s.fetchNonSubresource(s.ctx, req, reserved)
	// 3.1. If bodyBytes is null or failure, or response's status is not
	//      an ok status, then run onComplete given null, and abort these
	//      steps.
	if resp.IsNetworkError() {
		return "", nil, "", nil, fmt.Errorf("%s: %v", u, resp.Err)
	}
	if !isOKStatus(resp.Status) {
		return "", nil, "", nil, fmt.Errorf("HTTP status %d for %s", resp.Status, u)
	}
	// 3.2. If all of the following are true: response's URL's scheme is
	//      an HTTP(S) scheme; and the result of extracting a MIME type
	//      from response's header list is not a JavaScript MIME type,
	//      then run onComplete given null, and abort these steps.
	l := loadedOf(resp, u)
	if scheme := strings.ToLower(l.url.Scheme); (scheme == "http" || scheme == "https") && !fetch.IsJavaScriptMIMEType(l.essence) {
		return "", nil, "", nil, fmt.Errorf("%s has MIME type %q, not a JavaScript MIME type", u, l.essence)
	}
	// 3.3. Let sourceText be the result of UTF-8 decoding bodyBytes.
	return decodeText(l.body, ""), l.url, workerPolicy(fetchClient, l), workerCSPList(fetchClient, l), nil
}

// fetchAClassicWorkerImportedScript is "fetch a classic worker-imported
// script" (importScripts): a no-cors request with destination "script"
// whose client is the worker's environment (env); the response (its unsafe
// response) needs an ok status and, over http(s), a JavaScript MIME type
// (HTML requires one for every scheme; Chromium, whom this follows, runs
// blob: and data: scripts of any type). It returns
// the script's source (UTF-8) and its response URL.
// https://html.spec.whatwg.org/multipage/webappapis.html#fetch-a-classic-worker-imported-script
func (s *Browser) fetchAClassicWorkerImportedScript(u *url.URL, client *fetch.Client, env envHandle) (string, *url.URL, error) {
	// 1. Let request be a new request whose URL is url, client is
	//    settingsObject, destination is "script", initiator type is
	//    "other", parser metadata is "not parser-inserted", and whose
	//    use-URL-credentials flag is set (mode "no-cors" and credentials
	//    mode "same-origin", a request's defaults).
	req := fetch.NewRequest(u, client)
	req.Destination = "script"
	// 3. Fetch request with processResponseConsumeBody:
	//    (A controlled worker's service worker handles it first.)
	resp := s.fetchSubresource(s.ctx, req, env)
	if resp.IsNetworkError() {
		return "", nil, fmt.Errorf("%s: %v", u, resp.Err)
	}
	// 3.1. Set response to response's unsafe response.
	r := unsafeResponse(resp)
	// 3.2. If any of the following are true: bodyBytes is null or
	//      failure; response's status is not an ok status; the result of
	//      extracting a MIME type from response's header list is not a
	//      JavaScript MIME type; then throw a "NetworkError" DOMException.
	//      (As Chromium does, the MIME type is checked for http(s)
	//      responses only: blob: and data: scripts of any type run.)
	if !isOKStatus(r.Status) {
		return "", nil, fmt.Errorf("HTTP status %d for %s", r.Status, u)
	}
	l := loadedOf(r, u)
	if scheme := strings.ToLower(l.url.Scheme); (scheme == "http" || scheme == "https") && !fetch.IsJavaScriptMIMEType(l.essence) {
		return "", nil, fmt.Errorf("%s has MIME type %q, not a JavaScript MIME type", u, l.essence)
	}
	// 3.3. Let sourceText be the result of UTF-8 decoding bodyBytes.
	return decodeText(l.body, ""), l.url, nil
}

// navigationRequest is the navigation request of HTML's "create
// navigation params by fetching" for u: mode "navigate", credentials
// mode "include", destination "document" for a top-level traversable
// (top) else "iframe"; client is the navigation's source document's
// environment (nil for one the embedder starts, which has no referrer).
// Redirects are followed by fetch (the standard's "manual" redirect
// mode steps, done by fetch here).
// https://html.spec.whatwg.org/multipage/browsing-the-web.html#create-navigation-params-by-fetching
func navigationRequest(u *url.URL, client *fetch.Client, top bool) *fetch.Request {
	req := fetch.NewRequest(u, client)
	req.Mode, req.Credentials = "navigate", "include"
	req.Destination, req.TopLevel = "iframe", top
	if top {
		req.Destination = "document"
	}
	return req
}

// fetchDocument fetches a document with req (a navigation request) and
// returns its body, response URL and type, and its status: a document of
// any status loads, as in browsers (Browser.Start reports an error
// status to the embedder instead). reserved is the request's reserved
// client (the navigation's reserved environment, html's
// Navigable.ReserveEnvironment): the service worker whose scope matches
// the URL handles the request first, and controls the new document
// (nil: no service worker sees it).
func (s *Browser) fetchDocument(ctx context.Context, req *fetch.Request, reserved envHandle) (loaded, int, error) {
	u := req.CurrentURL()
	resp := s.fetchNonSubresource(ctx, req, reserved)
	if resp.IsNetworkError() {
		return loaded{}, 0, resp.Err
	}
	return loadedOf(resp, u), resp.Status, nil
}
