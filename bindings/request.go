package bindings

import (
	"github.com/gowebengine/weblocks/fetch"
	"net/url"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/origin"
)

// request is the Fetch Standard's request
// (https://fetch.spec.whatwg.org/#concept-request), the members this
// engine uses.
type request struct {
	method         string
	url            *url.URL
	headers        headerList
	body           *body
	origin         string // the serialized origin of the request's client
	mode           RequestMode
	credentials    RequestCredentials
	cache          RequestCache
	redirect       RequestRedirect
	referrer       string // "client", "no-referrer" or a URL
	referrerPolicy ReferrerPolicy
	integrity      string
	destination    RequestDestination // "" for the empty string
	keepalive      bool
	duplex         RequestDuplex
	// reloadNavigation and historyNavigation are the request's
	// reload-navigation flag and history-navigation flag.
	reloadNavigation, historyNavigation bool
}

// clone is https://fetch.spec.whatwg.org/#concept-request-clone.
// A body with a stream is teed (realm's streams).
func (r *request) clone(realm *Realm) *request {
	c := *r
	u := *r.url
	c.url = &u
	c.headers = r.headers.Clone()
	c.body = realm.cloneBody(r.body)
	return &c
}

// requestImpl is a Request object.
type requestImpl struct {
	webidl.Reflector
	bodyOwner
	req     *request
	headers *headersImpl
	signal  *abortSignalImpl
}

// fetchBaseURL is the API base URL of the realm's settings object: the
// document's base URL for a window (a <base href>, or the creator's base
// URL for about:blank), the creation URL for a worker.
func (r *Realm) fetchBaseURL() *url.URL {
	if r.kind == WindowGlobal && r.Document() != nil {
		if u, err := url.Parse(r.baseURL()); err == nil && u.Scheme != "" && u.Scheme != "about" {
			return u
		}
	}
	return r.fetchClientURL()
}

// fetchClientURL is the URL a request's "client" referrer stands for:
// the document's URL for a window, the creation URL for a worker.
func (r *Realm) fetchClientURL() *url.URL {
	if r.kind == WindowGlobal {
		if d := r.Document(); d != nil {
			if u, err := url.Parse(d.URL); err == nil && u.Scheme != "" && u.Scheme != "about" {
				return u
			}
		}
	}
	switch g := r.globalImpl.(type) {
	case *windowImpl:
		return g.info.url
	case *workerGlobalImpl:
		return g.info.url
	case *serviceWorkerGlobalImpl:
		return g.info.url
	}
	return nil
}

// originString is the serialized origin of the realm's environment.
func (r *Realm) originString() string {
	if r.env != nil {
		return r.env.Origin().Serialize()
	}
	switch g := r.globalImpl.(type) {
	case *windowImpl:
		return g.info.origin
	case *workerGlobalImpl:
		return g.info.origin
	}
	return "null"
}

type requestStatics struct{}

// Constructor is https://fetch.spec.whatwg.org/#dom-request.
func (requestStatics) Constructor(ir *webidl.Realm, input RequestInfo, init RequestInit) (RequestMethods, error) {
	r := realmOf(ir)
	return r.newRequest(input, init)
}

// newRequest is the new Request(input, init) constructor steps.
func (r *Realm) newRequest(input RequestInfo, init RequestInit) (*requestImpl, error) {
	// 1. Let request be null.
	var req *request
	// 2. Let fallbackMode be null.
	var fallbackMode RequestMode
	// 3. Let baseURL be this's relevant settings object's API base URL.
	base := r.fetchBaseURL()
	// 4. Let signal be null.
	var signal *dom.AbortSignal
	var inputReq *requestImpl
	if input.Type == RequestInfoIsUSVString {
		// 5. If input is a string:
		// 5.1. Let parsedURL be the result of parsing input with baseURL.
		u, err := ParseURL(input.USVString, base)
		// 5.2. If parsedURL is failure, then throw a TypeError.
		if err != nil {
			return nil, webidl.NewTypeError("Failed to construct 'Request': Invalid URL %q", input.USVString)
		}
		// 5.3. If parsedURL includes credentials, then throw a TypeError.
		if u.User != nil {
			return nil, webidl.NewTypeError("Failed to construct 'Request': Request cannot be constructed from a URL that includes credentials: %s", input.USVString)
		}
		// 5.4. Set request to a new request whose URL is parsedURL.
		req = &request{method: "GET", url: u, mode: "cors", credentials: "same-origin",
			cache: "default", redirect: "follow", referrer: "client"}
		// 5.5. Set fallbackMode to "cors".
		fallbackMode = "cors"
	} else {
		// 6. Otherwise: 6.1-6.2. Set request to input's request and signal
		// to input's signal.
		inputReq = input.Request.idlImpl()
		req = inputReq.req
		signal = inputReq.signal.sig
	}
	// 7-11. (The request's client and window are this realm's.)
	origin := r.originString()
	// 11. If init["window"] exists and is non-null, then throw a TypeError.
	if init.Window != nil && !webidl.IsNullish(init.Window) {
		return nil, webidl.NewTypeError("Failed to construct 'Request': 'window' can only be null")
	}
	// 12. Set request to a new request with the members of request (a
	// copy; the body is request's body).
	nr := *req
	nr.url = cloneURLPtr(req.url)
	nr.headers = req.headers.Clone()
	nr.origin = origin
	req = &nr
	// 13. If init is not empty, then:
	if initNotEmpty(init) {
		// 13.1. If request's mode is "navigate", then set it to
		// "same-origin".
		if req.mode == "navigate" {
			req.mode = "same-origin"
		}
		// 13.2. Unset request's reload-navigation flag.
		// 13.3. Unset request's history-navigation flag.
		req.reloadNavigation, req.historyNavigation = false, false
		// 13.4-13.6. Set request's origin to "client", referrer to
		// "client", referrer policy to "".
		req.referrer = "client"
		req.referrerPolicy = ""
	}
	// 14. If init["referrer"] exists:
	if init.Referrer.Present {
		// 14.1-14.2. If referrer is the empty string, set request's
		// referrer to "no-referrer".
		if init.Referrer.Value == "" {
			req.referrer = "no-referrer"
		} else {
			// 14.3.1-14.3.2. Parse it; failure is a TypeError.
			u, err := ParseURL(init.Referrer.Value, base)
			if err != nil {
				return nil, webidl.NewTypeError("Failed to construct 'Request': Invalid referrer URL %q", init.Referrer.Value)
			}
			// 14.3.3. about:client, or a cross-origin URL, is "client".
			if u.String() == "about:client" || originOfURL(u) != origin {
				req.referrer = "client"
			} else {
				req.referrer = u.String()
			}
		}
	}
	// 15. If init["referrerPolicy"] exists, set request's referrer policy.
	if init.ReferrerPolicy.Present {
		req.referrerPolicy = init.ReferrerPolicy.Value
	}
	// 16. Let mode be init["mode"] if it exists, and fallbackMode
	// otherwise.
	mode := fallbackMode
	if init.Mode.Present {
		mode = init.Mode.Value
	}
	// 17. If mode is "navigate", then throw a TypeError.
	if mode == "navigate" {
		return nil, webidl.NewTypeError("Failed to construct 'Request': Cannot construct a Request with a RequestInit whose mode member is set as 'navigate'.")
	}
	// 18. If mode is non-null, set request's mode to mode.
	if mode != "" {
		req.mode = mode
	}
	// 19. If init["credentials"] exists, then set request's credentials
	// mode.
	if init.Credentials.Present {
		req.credentials = init.Credentials.Value
	}
	// 20. If init["cache"] exists, then set request's cache mode.
	if init.Cache.Present {
		req.cache = init.Cache.Value
	}
	// 21. If request's cache mode is "only-if-cached" and request's mode is
	// not "same-origin", then throw a TypeError.
	if req.cache == "only-if-cached" && req.mode != "same-origin" {
		return nil, webidl.NewTypeError("Failed to construct 'Request': 'only-if-cached' can be set only with 'same-origin' mode")
	}
	// 22. If init["redirect"] exists, set request's redirect mode.
	if init.Redirect.Present {
		req.redirect = init.Redirect.Value
	}
	// 23. If init["integrity"] exists, set request's integrity metadata.
	if init.Integrity.Present {
		req.integrity = string(init.Integrity.Value)
	}
	// 24. If init["keepalive"] exists, set request's keepalive.
	if init.Keepalive.Present {
		req.keepalive = init.Keepalive.Value
	}
	// 25. If init["method"] exists, then:
	if init.Method.Present {
		// 25.1. Let method be init["method"].
		method := string(init.Method.Value)
		// 25.2. If method is not a method or method is a forbidden
		// method, then throw a TypeError.
		if !fetch.IsHeaderName(method) {
			return nil, webidl.NewTypeError("Failed to construct 'Request': '%s' is not a valid HTTP method.", method)
		}
		if fetch.IsForbiddenMethod(method) {
			return nil, webidl.NewTypeError("Failed to construct 'Request': '%s' HTTP method is unsupported.", method)
		}
		// 25.3-25.4. Normalize method and set request's method.
		req.method = fetch.NormalizeMethod(method)
	}
	// 26. If init["signal"] exists, then set signal to it.
	if init.Signal.Present {
		signal = nil
		if init.Signal.Value != nil {
			signal = init.Signal.Value.idlImpl().sig
		}
	}
	// 27. If init["priority"] exists: (priority is not used.)
	// 28. Set this's request to request.
	this := &requestImpl{req: req}
	this.bodyOwner.realm = r
	this.bodyOwner.headers = &req.headers
	// 29-30. Let signals be « signal » if signal is non-null; set this's
	// signal to the result of creating a dependent abort signal from
	// signals.
	var signals []*dom.AbortSignal
	if signal != nil {
		signals = []*dom.AbortSignal{signal}
	}
	this.signal = r.signalImpl(dom.CreateADependentAbortSignal(signals))
	// 31. Set this's headers to a new Headers object with this's relevant
	// realm, whose header list is request's header list and guard is
	// "request".
	this.headers = newHeaders(&req.headers, guardRequest)
	// 32. If this's request's mode is "no-cors", then:
	if req.mode == "no-cors" {
		// 32.1. If this's request's method is not a CORS-safelisted
		// method, then throw a TypeError.
		if !fetch.IsCORSSafelistedMethod(req.method) {
			return nil, webidl.NewTypeError("Failed to construct 'Request': '%s' is unsupported in no-cors mode.", req.method)
		}
		// 32.2. Set this's headers's guard to "request-no-cors".
		this.headers.guard = guardRequestNoCORS
	}
	// 33. If init is not empty, then:
	if initNotEmpty(init) {
		// 33.1. Let headers be a copy of this's headers and its
		// associated header list.
		headers := req.headers.Clone()
		// 33.2. If init["headers"] exists, then set headers to it.
		// 33.3. Empty this's headers's header list.
		req.headers = headerList{}
		// 33.4. If headers is a Headers object, then for each header of
		// its header list, append header to this's headers.
		// 33.5. Otherwise, fill this's headers with headers.
		if init.Headers.Present {
			if err := this.headers.fill(init.Headers.Value); err != nil {
				return nil, err
			}
		} else {
			for _, h := range headers {
				if err := this.headers.appendHeader(h.Name, h.Value); err != nil {
					return nil, err
				}
			}
		}
	}
	// 34. Let inputBody be input's request's body if input is a Request
	// object; otherwise null.
	var inputBody *body
	if inputReq != nil {
		inputBody = inputReq.req.body
	}
	// 35. If either init["body"] exists and is non-null or inputBody is
	// non-null, and request's method is `GET` or `HEAD`, then throw a
	// TypeError.
	initBody := init.Body.Present && !init.Body.Value.Null
	if (initBody || inputBody != nil) && (req.method == "GET" || req.method == "HEAD") {
		return nil, webidl.NewTypeError("Failed to construct 'Request': Request with GET/HEAD method cannot have body.")
	}
	// 36. Let initBody be null.
	var newBody *body
	// 37. If init["body"] exists and is non-null, then:
	if initBody {
		// 37.1. Let bodyWithType be the result of extracting init["body"],
		// with keepalive set to request's keepalive.
		if req.keepalive && init.Body.Value.Value.Type == BodyInitIsReadableStream {
			return nil, webidl.NewTypeError("Failed to construct 'Request': keepalive cannot be set with a ReadableStream body")
		}
		b, typ, err := extractBody(init.Body.Value.Value)
		if err != nil {
			return nil, err
		}
		// 37.2. Set initBody to bodyWithType's body.
		newBody = b
		// 37.3-37.4. If type is non-null and this's headers's header list
		// does not contain `Content-Type`, then append (`Content-Type`,
		// type) to this's headers.
		if typ != "" && !req.headers.Contains("Content-Type") {
			if err := this.headers.appendHeader("Content-Type", typ); err != nil {
				return nil, err
			}
		}
	}
	// 38. Let inputOrInitBody be initBody if it is non-null; otherwise
	// inputBody.
	body := newBody
	if body == nil {
		body = inputBody
	}
	// 39. If inputOrInitBody is non-null and inputOrInitBody's source is
	// null, then:
	if body != nil && body.streamOnly {
		// 39.1. If initBody is non-null and init["duplex"] does not exist,
		// then throw a TypeError.
		if newBody != nil && !init.Duplex.Present {
			return nil, webidl.NewTypeError("Failed to construct 'Request': The duplex member must be specified for a request with a streaming body")
		}
		// 39.2. If this's request's mode is neither "same-origin" nor
		// "cors", then throw a TypeError.
		if req.mode != "same-origin" && req.mode != "cors" {
			return nil, webidl.NewTypeError("Failed to construct 'Request': If request is made from ReadableStream, mode should be \"same-origin\" or \"cors\"")
		}
		// 39.3. Set this's request's use-CORS-preflight flag (fetchRequest
		// sets it for a stream body).
	}
	// 40. (init["duplex"] is "half", its only value.)
	if init.Duplex.Present {
		req.duplex = init.Duplex.Value
	}
	// 41. Let finalBody be inputOrInitBody.
	// 42. If initBody is null and inputBody is non-null, then:
	if newBody == nil && inputBody != nil {
		// 42.1. If input is unusable, then throw a TypeError.
		if inputReq.isUnusable() {
			return nil, webidl.NewTypeError("Failed to construct 'Request': Cannot construct a Request with a Request object that has already been used.")
		}
		// 42.2. Set finalBody to the result of creating a proxy for
		// inputBody: the input's body is disturbed from now on.
		body = r.proxyBody(inputBody)
	}
	// The input's body is disturbed from now on, whether it moved or
	// init["body"] replaced it (as Chromium does; the request-disturbed
	// WPT tests check both).
	if inputBody != nil {
		inputBody.used = true
	}
	// 43. Set this's request's body to finalBody.
	req.body = body
	this.bodyOwner.body = body
	return this, nil
}

// initNotEmpty reports whether any member of init is present.
func initNotEmpty(i RequestInit) bool {
	return i.Body.Present || i.Cache.Present || i.Credentials.Present || i.Duplex.Present ||
		i.Headers.Present || i.Integrity.Present || i.Keepalive.Present || i.Method.Present ||
		i.Mode.Present || i.Priority.Present || i.Redirect.Present || i.Referrer.Present ||
		i.ReferrerPolicy.Present || i.Signal.Present || i.Window != nil
}

// originOfURL is the serialized origin of u.
func originOfURL(u *url.URL) string { return origin.FromURL(u).Serialize() }

func cloneURLPtr(u *url.URL) *url.URL {
	c := *u
	if u.User != nil {
		uu := *u.User
		c.User = &uu
	}
	return &c
}

// urlString serializes a URL the way the URL Standard does for http(s)
// URLs (net/url's form of a URL the WHATWG parser produced).
func urlString(u *url.URL) string { return u.String() }

func (q *requestImpl) Method() (webidl.ByteString, error) {
	return webidl.ByteString(q.req.method), nil
}
func (q *requestImpl) Headers() (HeadersMethods, error) { return q.headers, nil }

// Destination is https://fetch.spec.whatwg.org/#dom-request-destination:
// the request's destination (a Request a service worker's fetch event
// gives has its subresource's, such as "image").
func (q *requestImpl) Destination() (RequestDestination, error) {
	return q.req.destination, nil
}

// Referrer is https://fetch.spec.whatwg.org/#dom-request-referrer.
func (q *requestImpl) Referrer() (string, error) {
	switch q.req.referrer {
	case "no-referrer":
		return "", nil
	case "client":
		return "about:client", nil
	}
	return q.req.referrer, nil
}
func (q *requestImpl) ReferrerPolicy() (ReferrerPolicy, error)  { return q.req.referrerPolicy, nil }
func (q *requestImpl) Mode() (RequestMode, error)               { return q.req.mode, nil }
func (q *requestImpl) Credentials() (RequestCredentials, error) { return q.req.credentials, nil }
func (q *requestImpl) Cache() (RequestCache, error)             { return q.req.cache, nil }
func (q *requestImpl) Redirect() (RequestRedirect, error)       { return q.req.redirect, nil }
func (q *requestImpl) Integrity() (webidl.DOMString, error) {
	return webidl.DOMString(q.req.integrity), nil
}
func (q *requestImpl) Keepalive() (bool, error)              { return q.req.keepalive, nil }
func (q *requestImpl) IsReloadNavigation() (bool, error)     { return q.req.reloadNavigation, nil }
func (q *requestImpl) IsHistoryNavigation() (bool, error)    { return q.req.historyNavigation, nil }
func (q *requestImpl) Signal() (AbortSignalMethods, error)   { return q.signal, nil }
func (q *requestImpl) Duplex() (RequestDuplex, error)        { return "half", nil }
func (q *requestImpl) BodyUsed() (bool, error)               { return q.bodyUsed(), nil }
func (q *requestImpl) Body() (ReadableStreamMethods, error)  { return q.bodyAttr() }
func (q *requestImpl) ArrayBuffer() (*webidl.Promise, error) { return q.arrayBuffer(), nil }
func (q *requestImpl) Blob() (*webidl.Promise, error)        { return q.blob(), nil }
func (q *requestImpl) Bytes() (*webidl.Promise, error)       { return q.bytes(), nil }
func (q *requestImpl) Text() (*webidl.Promise, error)        { return q.text(), nil }
func (q *requestImpl) FormData() (*webidl.Promise, error)    { return q.formData(), nil }

// Clone is https://fetch.spec.whatwg.org/#dom-request-clone.
func (q *requestImpl) Clone() (RequestMethods, error) {
	// 1. If this is unusable, then throw a TypeError.
	if q.isUnusable() {
		return nil, webidl.NewTypeError("Failed to execute 'clone' on 'Request': Request body is already used")
	}
	// 2. Let clonedRequest be the result of cloning this's request.
	c := q.req.clone(q.realm)
	// 3-4. The clone's Headers have this's guard; its signal follows
	// this's signal.
	out := &requestImpl{req: c}
	out.bodyOwner = bodyOwner{realm: q.realm, body: c.body, headers: &c.headers}
	out.headers = newHeaders(&c.headers, q.headers.guard)
	out.signal = q.realm.signalImpl(dom.CreateADependentAbortSignal([]*dom.AbortSignal{q.signal.sig}))
	return out, nil
}

// URL is Request's url attribute (https://fetch.spec.whatwg.org/#dom-request-url).
func (q *requestImpl) URL() (string, error) { return urlString(q.req.url), nil }

// JSON is Body's json() for a Request.
func (q *requestImpl) JSON() (*webidl.Promise, error) { return q.json(), nil }
