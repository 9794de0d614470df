package bindings

import (
	"context"
	"net/http"
	"net/url"
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// This file is fetch() (https://fetch.spec.whatwg.org/#fetch-method) and
// the parts of "fetch" and "main fetch" a realm runs itself: mode checks,
// CORS preflight and check, response tainting and filtering. Sending a
// request over the network is the embedder's part (FetchHost).

// NetworkRequest is a request a realm asks its FetchHost to send: the
// Fetch Standard's "HTTP-network fetch" of one request.
type NetworkRequest struct {
	Method string
	URL    *url.URL
	// Header holds the request's headers (Content-Length is the body's).
	Header http.Header
	Body   []byte
	// Redirect is "follow" (follow redirects, as the host's HTTP client
	// does), or "manual" or "error": the host returns a redirect
	// response itself, unfollowed.
	Redirect string
	// Credentials says whether to include credentials (cookies, HTTP
	// authentication).
	Credentials bool
}

// NetworkResponse is what the network answered.
type NetworkResponse struct {
	// URL is the response's URL: the request's, or the last redirect's.
	URL *url.URL
	// Redirected is true when the host followed at least one redirect.
	Redirected bool
	Status     int
	// StatusText is the status message ("OK"); empty is fine.
	StatusText string
	Header     http.Header
	Body       []byte
}

// FetchHost sends the network requests of a realm's fetch() calls.
type FetchHost interface {
	// StartFetch sends req without blocking the caller (the realm's event
	// loop) and calls done exactly once, from any goroutine, with the
	// response or a network error (an HTTP error status is a response).
	// ctx ends when the fetch is aborted.
	StartFetch(ctx context.Context, req *NetworkRequest, done func(*NetworkResponse, error))
}

type fetchHostKey struct{}

// SetFetchHost sets the host that sends the network requests of fetch().
// Call it right after creating the realm, before scripts run. Without a
// host, fetch() rejects every request with a TypeError (network error).
func (r *Realm) SetFetchHost(h FetchHost) { r.SetValue(fetchHostKey{}, h) }

func (r *Realm) fetchHost() FetchHost {
	h, _ := r.Value(fetchHostKey{}).(FetchHost)
	return h
}

// fetchMethod is https://fetch.spec.whatwg.org/#dom-global-fetch.
func (r *Realm) fetchMethod(input RequestInfo, init RequestInit) *webidl.Promise {
	// 1. Let p be a new promise.
	p := r.idl.NewPromise()
	// 2. Let requestObject be the result of invoking the initial value of
	// Request as constructor with input and init as arguments. If this
	// throws an exception, reject p with it and return p.
	requestObject, err := r.newRequest(input, init)
	if err != nil {
		p.RejectError(err)
		return p
	}
	// 3. Let request be requestObject's request.
	req := requestObject.req
	// 4. If requestObject's signal is aborted, then abort the fetch() call
	// with p, request, null, and requestObject's signal's abort reason,
	// and return p.
	sig := requestObject.signal
	if sig.sig.Aborted() {
		r.abortFetchCall(p, req, nil, sig.abortReason())
		return p
	}
	// 5-8. (No service workers; the request's client is this realm's.)
	// 9. Let responseObject be null.
	var responseObject *responseImpl
	// 11. Let locallyAborted be false.
	locallyAborted := false
	// 12. Let controller be null.
	ctx, cancel := context.WithCancel(context.Background())
	// The fetch group of a realm that closes (its document unloaded, its
	// worker terminated) is terminated: the request ends with it.
	go func() {
		select {
		case <-r.closedCh:
			cancel()
		case <-ctx.Done():
		}
	}()
	// 13. Add the following abort steps to requestObject's signal:
	id := sig.sig.AddAlgorithm(func() {
		// 13.1. Set locallyAborted to true.
		locallyAborted = true
		// 13.3-13.4. Abort the fetch() call with p, request,
		// responseObject, and requestObject's signal's abort reason.
		r.abortFetchCall(p, req, responseObject, sig.abortReason())
		// 13.5. Abort controller with the abort reason.
		cancel()
	})
	// 14. Set controller to the result of calling fetch given request and
	// processResponse given response being these steps:
	r.fetch(ctx, req, func(resp *response) {
		sig.sig.RemoveAlgorithm(id)
		cancel()
		// 14.1. If locallyAborted is true, then abort these steps.
		if locallyAborted {
			return
		}
		// 14.3. If response is a network error, then reject p with a
		// TypeError and abort these steps.
		if resp.typ == "error" {
			p.RejectError(webidl.NewTypeError("Failed to fetch"))
			return
		}
		// 14.4. Set responseObject to the result of creating a Response
		// object, given response, "immutable", and relevantRealm.
		responseObject = r.newResponseObject(resp, guardImmutable)
		// 14.5. Resolve p with responseObject.
		p.Resolve(idlWrapResponse(r.idl, responseObject))
	})
	// 15. Return p.
	return p
}

// abortFetchCall is https://fetch.spec.whatwg.org/#abort-fetch.
func (r *Realm) abortFetchCall(p *webidl.Promise, _ *request, responseObject *responseImpl, reason sobek.Value) {
	// 1. Reject promise with error (a no-op when it already settled).
	p.Reject(reason)
	// 2-4. (Bodies are in memory: there is no stream to cancel or error;
	// a response already handed to script keeps its body.)
	_ = responseObject
}

// fetchTask queues steps on the realm's event loop (networking task
// source); false when the realm no longer runs tasks.
func (r *Realm) fetchTask(steps func()) bool {
	return r.queueTask(html.NetworkingTaskSource, steps)
}

// fetch is https://fetch.spec.whatwg.org/#concept-fetch followed by
// https://fetch.spec.whatwg.org/#concept-main-fetch, for requests whose
// client is this realm. processResponse runs in a task of the realm's
// event loop (never during this call).
func (r *Realm) fetch(ctx context.Context, req *request, processResponse func(*response)) {
	finish := func(resp *response) {
		if !r.fetchTask(func() { processResponse(resp) }) {
			return
		}
	}
	host := r.fetchHost()
	// main fetch 4. If should request be blocked due to a bad port,
	// mixed content or CSP: (not implemented). Only http(s) URLs reach
	// the network in this engine.
	if host == nil || (req.url.Scheme != "http" && req.url.Scheme != "https") {
		finish(networkError())
		return
	}
	// main fetch 12: the response depends on how the request's URL
	// relates to its origin and its mode.
	sameOrigin := originOfURL(req.url) == req.origin
	tainting := "basic"
	switch {
	case sameOrigin:
		// request's current URL's origin is same origin with request's
		// origin, and request's response tainting is "basic": scheme
		// fetch.
	case req.mode == "same-origin":
		// request's mode is "same-origin": a network error.
		finish(networkError())
		return
	case req.mode == "no-cors":
		// request's mode is "no-cors": if redirect mode is not "follow",
		// a network error; otherwise tainting is "opaque".
		if req.redirect != "follow" {
			finish(networkError())
			return
		}
		tainting = "opaque"
	default:
		// Otherwise: response tainting is "cors", after a CORS-preflight
		// fetch when the request needs one.
		tainting = "cors"
	}
	nreq := r.networkRequest(req, tainting)
	// HTTP fetch 5: a request whose client has an active service worker
	// goes to it first (Handle Fetch, fetchevent.go); null falls back to
	// the network.
	if r.handleFetch(req, func(resp *response) {
		if resp == nil {
			r.networkFetch(ctx, host, req, nreq, tainting, finish)
			return
		}
		finish(serviceWorkerResponse(req, tainting, resp))
	}) {
		return
	}
	r.networkFetch(ctx, host, req, nreq, tainting, finish)
}

// networkFetch sends nreq (after a CORS-preflight fetch when req needs
// one) and finishes with the filtered response.
func (r *Realm) networkFetch(ctx context.Context, host FetchHost, req *request, nreq *NetworkRequest, tainting string, finish func(*response)) {
	send := func() {
		host.StartFetch(ctx, nreq, func(nresp *NetworkResponse, err error) {
			if err != nil || nresp == nil {
				finish(networkError())
				return
			}
			finish(finalizeResponse(req, tainting, nresp))
		})
	}
	if tainting == "cors" && needsPreflight(req) {
		// CORS-preflight fetch, then the request itself.
		pre := corsPreflightRequest(req)
		host.StartFetch(ctx, pre, func(presp *NetworkResponse, err error) {
			if err != nil || presp == nil || !corsPreflightOK(req, presp) {
				finish(networkError())
				return
			}
			send()
		})
		return
	}
	send()
}

// networkRequest builds the HTTP request of req
// (https://fetch.spec.whatwg.org/#concept-http-network-or-cache-fetch, the
// header steps).
func (r *Realm) networkRequest(req *request, tainting string) *NetworkRequest {
	h := http.Header{}
	for _, e := range req.headers {
		h.Add(e.name, e.value)
	}
	// Append a request `Origin` header: for CORS requests, and for
	// requests whose method is neither `GET` nor `HEAD`.
	if tainting == "cors" || (req.method != "GET" && req.method != "HEAD") {
		h.Set("Origin", req.origin)
	}
	// If httpRequest's header list does not contain `Accept`, append
	// `Accept`/`*/*`.
	if h.Get("Accept") == "" {
		h.Set("Accept", "*/*")
	}
	// includeCredentials: "include", or "same-origin" with "basic"
	// tainting.
	creds := req.credentials == "include" || (req.credentials == "same-origin" && tainting == "basic")
	nr := &NetworkRequest{Method: req.method, URL: cloneURLPtr(req.url), Header: h, Redirect: string(req.redirect), Credentials: creds}
	nr.URL.Fragment, nr.URL.RawFragment = "", ""
	if req.body != nil {
		nr.Body = req.body.source
	}
	return nr
}

// needsPreflight is main fetch's condition for a CORS-preflight fetch:
// the method is not CORS-safelisted, or a header is not.
func needsPreflight(req *request) bool {
	if !isCORSSafelistedMethod(req.method) {
		return true
	}
	return len(corsUnsafeRequestHeaderNames(req.headers)) > 0
}

// corsUnsafeRequestHeaderNames is
// https://fetch.spec.whatwg.org/#cors-unsafe-request-header-names (sorted,
// lower case).
func corsUnsafeRequestHeaderNames(l headerList) []string {
	var out []string
	for _, e := range l.sortAndCombine() {
		if !isCORSSafelistedRequestHeader(e.name, e.value) {
			out = append(out, e.name)
		}
	}
	return out
}

// corsPreflightRequest is the preflight of
// https://fetch.spec.whatwg.org/#cors-preflight-fetch, steps 1-4.
func corsPreflightRequest(req *request) *NetworkRequest {
	h := http.Header{}
	h.Set("Accept", "*/*")
	h.Set("Origin", req.origin)
	h.Set("Access-Control-Request-Method", req.method)
	if names := corsUnsafeRequestHeaderNames(req.headers); len(names) > 0 {
		h.Set("Access-Control-Request-Headers", strings.Join(names, ","))
	}
	u := cloneURLPtr(req.url)
	u.Fragment, u.RawFragment = "", ""
	return &NetworkRequest{Method: "OPTIONS", URL: u, Header: h, Redirect: "error"}
}

// corsPreflightOK is steps 6-7 of
// https://fetch.spec.whatwg.org/#cors-preflight-fetch: a CORS check of an
// ok status response, then the allowed methods and headers.
func corsPreflightOK(req *request, resp *NetworkResponse) bool {
	if !corsCheck(req, resp.Header) || resp.Status < 200 || resp.Status > 299 {
		return false
	}
	creds := req.credentials == "include"
	methods := headerTokens(resp.Header, "Access-Control-Allow-Methods")
	headers := headerTokens(resp.Header, "Access-Control-Allow-Headers")
	// If request's method is not in methods, it is not a CORS-safelisted
	// method, and "*" is not in methods (or credentials are included),
	// then return a network error.
	if !isCORSSafelistedMethod(req.method) && !containsToken(methods, req.method, false) &&
		(creds || !containsToken(methods, "*", false)) {
		return false
	}
	// Each unsafe header name must be in headers (or "*" without
	// credentials, except authorization).
	for _, n := range corsUnsafeRequestHeaderNames(req.headers) {
		if containsToken(headers, n, true) {
			continue
		}
		if !creds && n != "authorization" && containsToken(headers, "*", false) {
			continue
		}
		return false
	}
	return true
}

func headerTokens(h http.Header, name string) []string {
	var out []string
	for _, v := range h.Values(name) {
		for _, t := range strings.Split(v, ",") {
			if t = strings.Trim(t, "\t "); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

func containsToken(list []string, t string, fold bool) bool {
	for _, x := range list {
		if x == t || fold && strings.EqualFold(x, t) {
			return true
		}
	}
	return false
}

// corsCheck is https://fetch.spec.whatwg.org/#concept-cors-check.
func corsCheck(req *request, h http.Header) bool {
	// 1. Let origin be the result of getting `Access-Control-Allow-Origin`
	// from response's header list.
	vals := h.Values("Access-Control-Allow-Origin")
	// 2. If origin is null, then return failure.
	if len(vals) != 1 {
		return false
	}
	origin := vals[0]
	// 3. If request's credentials mode is not "include" and origin is
	// `*`, then return success.
	if req.credentials != "include" && origin == "*" {
		return true
	}
	// 4. If the result of byte-serializing a request origin with request
	// is not origin, then return failure.
	if req.origin != origin {
		return false
	}
	// 5. If request's credentials mode is not "include", then return
	// success.
	if req.credentials != "include" {
		return true
	}
	// 6-7. Let credentials be `Access-Control-Allow-Credentials`; success
	// when it is `true`.
	return h.Get("Access-Control-Allow-Credentials") == "true"
}

// corsSafelistedResponseHeaderNames are
// https://fetch.spec.whatwg.org/#cors-safelisted-response-header-name
// (without the exposed names).
var corsSafelistedResponseHeaderNames = map[string]bool{
	"cache-control": true, "content-language": true, "content-length": true, "content-type": true,
	"expires": true, "last-modified": true, "pragma": true,
}

// finalizeResponse turns a network response into the response main fetch
// returns: redirect mode handling, the CORS check, and the filtered
// response of the request's response tainting (main fetch steps 14-16).
func finalizeResponse(req *request, tainting string, n *NetworkResponse) *response {
	// The redirect modes "error" and "manual" see a redirect response
	// unfollowed (HTTP fetch step 8).
	if isRedirectStatus(n.Status) && n.Header.Get("Location") != "" {
		switch req.redirect {
		case "error":
			return networkError()
		case "manual":
			if req.mode != "navigate" {
				return &response{typ: "opaqueredirect", url: n.URL}
			}
		}
	}
	// A request that was redirected to another origin is checked as a
	// CORS request from there on (HTTP-redirect fetch step 12, with the
	// redirects the host followed).
	if tainting == "basic" && n.URL != nil && originOfURL(n.URL) != req.origin {
		switch req.mode {
		case "same-origin":
			return networkError()
		case "no-cors":
			tainting = "opaque"
		default:
			tainting = "cors"
		}
	}
	// HTTP fetch 4.5: if request's response tainting is "cors" and a CORS
	// check for request and response returns failure, then return a
	// network error.
	if tainting == "cors" && !corsCheck(req, n.Header) {
		return networkError()
	}
	resp := &response{url: n.URL, redirected: n.Redirected, status: uint16(n.Status), statusText: n.StatusText}
	if n.Status < 0 || n.Status > 999 {
		return networkError()
	}
	if req.method != "HEAD" && !isNullBodyStatus(resp.status) {
		resp.body = &body{source: n.Body}
	}
	names := make([]string, 0, len(n.Header))
	for name := range n.Header {
		names = append(names, name)
	}
	sortStrings(names)
	switch tainting {
	case "basic":
		// A basic filtered response: headers without forbidden response
		// header names.
		resp.typ = "basic"
		for _, name := range names {
			if isForbiddenResponseHeaderName(name) {
				continue
			}
			for _, v := range n.Header[name] {
				resp.headers.appendHeader(name, v)
			}
		}
	case "cors":
		// A CORS filtered response: only CORS-safelisted response header
		// names, given the CORS-exposed header-name list.
		resp.typ = "cors"
		exposed := headerTokens(n.Header, "Access-Control-Expose-Headers")
		all := req.credentials != "include" && containsToken(exposed, "*", false)
		for _, name := range names {
			lower := strings.ToLower(name)
			if isForbiddenResponseHeaderName(name) {
				continue
			}
			if !corsSafelistedResponseHeaderNames[lower] && !all && !containsToken(exposed, name, true) {
				continue
			}
			for _, v := range n.Header[name] {
				resp.headers.appendHeader(name, v)
			}
		}
	case "opaque":
		// An opaque filtered response: status 0, empty status message,
		// header list and URL list, null body.
		return &response{typ: "opaque"}
	}
	return resp
}
