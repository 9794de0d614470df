package fetch

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/sri"
)

// maxRedirects is the redirect count HTTP-redirect fetch allows.
const maxRedirects = 20

// Fetch is https://fetch.spec.whatwg.org/#concept-fetch: it runs main
// fetch for p's request and returns the response (a network error,
// never nil) once its headers are in; the caller then runs the
// response's Load to read its body (OnLoad tells the body's consumers).
// It blocks: call it off the event loop. ctx ends the fetch, the body's
// read included (the fetch controller's abort).
func Fetch(ctx context.Context, p *Params) *Response {
	req := p.Request
	// 2-11. (Timing, task destination and cross-origin isolation are the
	//    caller's; the request's origin and policy container are set by
	//    the caller.)
	// 12. If request's header list does not contain `Accept`, then append
	//     (`Accept`, `*/*`) (the value for the destinations this engine
	//     fetches with).
	if !req.Header.Contains("Accept") {
		req.Header.Append("Accept", "*/*")
	}
	// 13. If request's header list does not contain `Accept-Language`,
	//     then user agents should append (`Accept-Language`, an
	//     appropriate header value).
	if !req.Header.Contains("Accept-Language") {
		req.Header.Append("Accept-Language", AcceptLanguage)
	}
	// 14-15. If request's client is non-null, append a fetch record of
	//     request to its fetch group; the record's request's done flag is
	//     set once the response's body is read (fetch finale).
	var rec *fetchRecord
	if req.Client != nil && req.Client.FetchGroup != nil {
		rec = req.Client.FetchGroup.appendFetchRecord(req)
	}
	// 16. Run main fetch given fetchParams.
	resp := mainFetch(ctx, p, false)
	rec.finishWith(resp)
	return resp
}

// AcceptLanguage is the user agent's `Accept-Language` value, for the
// language navigator.language reports (en-US), as Chromium sends it.
const AcceptLanguage = "en-US,en;q=0.9"

// FetchWhole is Fetch followed by reading the response's body, for
// callers that need the bytes (documents, scripts): a body whose read
// fails makes the response a network error.
func FetchWhole(ctx context.Context, p *Params) *Response {
	resp := Fetch(ctx, p)
	resp.Load()
	if resp.Body != nil {
		if _, err := resp.Body.Result(); err != nil {
			return NetworkError(err)
		}
	}
	return resp
}

// mainFetch is https://fetch.spec.whatwg.org/#concept-main-fetch.
func mainFetch(ctx context.Context, p *Params, recursive bool) *Response {
	// 1. Let request be fetchParams's request.
	req := p.Request
	// 2. Let response be null.
	var resp *Response
	// 3-6. (No local-URLs-only flag, CSP reports, upgrades.)
	// 7. If should request be blocked due to a bad port, should fetching
	//    request be blocked as mixed content, or should request be
	//    blocked by Content Security Policy returns blocked, then set
	//    response to a network error.
	switch {
	case shouldBlockBadPort(req):
		resp = NetworkError(fmt.Errorf("fetch: %s uses a bad port", req.CurrentURL().Redacted()))
	case shouldBlockMixedContent(req):
		resp = NetworkError(fmt.Errorf("fetch: %s is mixed content", req.CurrentURL().Redacted()))
	case shouldRequestBeBlockedByCSP(req):
		resp = NetworkError(fmt.Errorf("fetch: %s is blocked by Content Security Policy", req.CurrentURL().Redacted()))
	}
	// 8. If request's referrer policy is the empty string, then set
	//    request's referrer policy to request's policy container's
	//    referrer policy.
	//    (A client's policy container is its settings object's; without
	//    a client, or a policy, the default referrer policy.)
	if req.ReferrerPolicy == "" && req.Client != nil {
		req.ReferrerPolicy = req.Client.ReferrerPolicy
	}
	if req.ReferrerPolicy == "" {
		req.ReferrerPolicy = DefaultReferrerPolicy
	}
	// 9. If request's referrer is not "no-referrer", then set request's
	//    referrer to the result of invoking determine request's referrer.
	if req.Referrer != "no-referrer" {
		if u := determineRequestsReferrer(req); u != nil {
			req.Referrer = u.String()
		} else {
			req.Referrer = "no-referrer"
		}
	}
	// 10-11. (No HSTS; the caller runs fetch in parallel.)
	// 12. If response is null, then set response to the result of running
	//     the steps corresponding to the first matching statement:
	if resp == nil {
		resp = mainFetchSwitch(ctx, p)
	}
	// 13. If recursive is true, then return response.
	if recursive {
		return resp
	}
	if resp.IsNetworkError() {
		return resp
	}
	// 15. Let internalResponse be response, if response is a network
	//     error; otherwise response's internal response.
	internal := resp
	if resp.Internal != nil {
		internal = resp.Internal
	}
	// 16. If internalResponse's URL list is empty, then set it to a clone
	//     of request's URL list.
	if len(internal.URLList) == 0 {
		for _, u := range req.URLList {
			internal.URLList = append(internal.URLList, cloneURL(u))
		}
	}
	// (A filtered response other than an opaque one shows its internal
	// response's URL list.)
	if resp != internal && resp.Type != "opaque" {
		resp.URLList = internal.URLList
	}
	// 19. If response is not a network error and any of the following
	//     returns blocked: should internalResponse to request be blocked as
	//     mixed content (checked before the request: Mixed Content follows
	//     every redirect), by Content Security Policy (none), due to its
	//     MIME type, or due to nosniff; then set response and
	//     internalResponse to a network error.
	if shouldBlockDueToMIMEType(internal, req) || shouldBlockDueToNosniff(internal, req) {
		internal.Body.discard()
		return NetworkError(&BlockedByTypeError{Destination: req.Destination, Status: internal.Status})
	}
	// 21. If request's method is `HEAD` or `CONNECT`, or
	//     internalResponse's status is a null body status, set
	//     internalResponse's body to null.
	if req.Method == "HEAD" || req.Method == "CONNECT" || IsNullBodyStatus(internal.Status) {
		internal.Body.discard()
		internal.Body = nil
	}
	// 14. If response is not a network error and response is not a
	//     filtered response, then:
	if resp.Internal == nil && resp.Type == "default" {
		// 14.1. If request's response tainting is "cors": let headerNames
		//       be the result of extracting header list values given
		//       `Access-Control-Expose-Headers`; if request's credentials
		//       mode is not "include" and headerNames contains `*`, set
		//       response's CORS-exposed header-name list to all unique
		//       header names in response's header list; otherwise set it
		//       to headerNames.
		if req.tainting() == "cors" {
			names := headerTokens(resp.Header, "Access-Control-Expose-Headers")
			if req.Credentials != "include" && containsToken(names, "*", false) {
				names = nil
				for _, h := range resp.Header.SortAndCombine() {
					names = append(names, h.Name)
				}
			}
			resp.CORSExposedHeaderNames = names
		}
		// 14.2. Set response to the following filtered response with
		//       response as its internal response, depending on request's
		//       response tainting:
		resp = filteredResponse(req.tainting(), resp)
	}
	// 22. If request's integrity metadata is not the empty string:
	if req.Integrity != "" {
		// 22.1-22.2. Let processBodyError be: fetch response handover
		//      with a network error; if response's body is null (an
		//      opaque response's is), run it.
		if resp.Body == nil {
			return NetworkError(errors.New("fetch: integrity metadata on a response without a readable body"))
		}
		// 22.3-22.4. Fully read response's body; if the bytes do not
		//      match request's integrity metadata, processBodyError;
		//      otherwise the response, its body the bytes, is handed over.
		resp.Body.Load()
		data, err := resp.Body.Result()
		if err != nil {
			return NetworkError(err)
		}
		if !sri.DoBytesMatchMetadataList(data, req.Integrity) {
			return NetworkError(fmt.Errorf("fetch: the body of %s does not match its integrity metadata", req.CurrentURL().Redacted()))
		}
	}
	// 23. (No timing info.) Run fetch response handover.
	return resp
}

// mainFetchSwitch is step 12 of main fetch
// (https://fetch.spec.whatwg.org/#concept-main-fetch).
func mainFetchSwitch(ctx context.Context, p *Params) *Response {
	req := p.Request
	cur := req.CurrentURL()
	switch {
	// request's current URL's origin is same origin with request's
	// origin, and request's response tainting is "basic"; request's
	// current URL's scheme is "data"; request's mode is "navigate" or
	// "websocket":
	case origin.SameOrigin(origin.FromURL(cur), req.Origin) && req.tainting() == "basic",
		cur.Scheme == "data", req.Mode == "navigate", req.Mode == "websocket":
		// 1. Set request's response tainting to "basic".
		req.ResponseTainting = "basic"
		// 2. Return the result of running scheme fetch given fetchParams.
		return schemeFetch(ctx, p)
	// request's mode is "same-origin": return a network error.
	case req.Mode == "same-origin":
		return NetworkError(fmt.Errorf("fetch: %s is not same-origin (mode same-origin)", cur.Redacted()))
	// request's mode is "no-cors":
	case req.Mode == "no-cors":
		// 1. If request's redirect mode is not "follow", then return a
		//    network error.
		if req.Redirect != "follow" {
			return NetworkError(errors.New("fetch: a cross-origin no-cors request must follow redirects"))
		}
		// 2. Set request's response tainting to "opaque".
		req.ResponseTainting = "opaque"
		// 3. Return the result of running scheme fetch given fetchParams.
		return schemeFetch(ctx, p)
	// request's current URL's scheme is not an HTTP(S) scheme: return a
	// network error.
	case !isHTTPScheme(cur.Scheme):
		return NetworkError(fmt.Errorf("fetch: cross-origin %s request to %q", req.Mode, cur.Scheme+":"))
	// request's use-CORS-preflight flag is set; request's unsafe-request
	// flag is set and either request's method is not a CORS-safelisted
	// method or CORS-unsafe request-header names with request's header
	// list is not empty:
	case req.UseCORSPreflight || req.UnsafeRequest &&
		(!IsCORSSafelistedMethod(req.Method) || len(CORSUnsafeRequestHeaderNames(req.Header)) > 0):
		// 1. Set request's response tainting to "cors".
		req.ResponseTainting = "cors"
		// 2. Let corsWithPreflightResponse be the result of running HTTP
		//    fetch given fetchParams and true.
		resp := httpFetch(ctx, p, true)
		// 3. If corsWithPreflightResponse is a network error, then clear
		//    cache entries using request.
		if resp.IsNetworkError() {
			p.PreflightCache.clearCacheEntries(req)
		}
		// 4. Return corsWithPreflightResponse.
		return resp
	// Otherwise:
	default:
		// 1. Set request's response tainting to "cors".
		req.ResponseTainting = "cors"
		// 2. Return the result of running HTTP fetch given fetchParams.
		return httpFetch(ctx, p, false)
	}
}

// schemeFetch is https://fetch.spec.whatwg.org/#concept-scheme-fetch.
func schemeFetch(ctx context.Context, p *Params) *Response {
	// 1. If fetchParams is canceled, then return the appropriate network
	//    error for fetchParams.
	if err := ctx.Err(); err != nil {
		return NetworkError(err)
	}
	// 2. Let request be fetchParams's request.
	req := p.Request
	cur := req.CurrentURL()
	// 3. Switch on request's current URL's scheme:
	switch strings.ToLower(cur.Scheme) {
	case "about":
		// "about": if request's current URL's path is "blank", return a
		// response with `Content-Type` `text/html;charset=utf-8` and an
		// empty body; otherwise a network error.
		if cur.Opaque == "blank" || cur.Path == "blank" {
			r := &Response{Type: "default", Status: 200, StatusText: "OK", Body: &Body{Source: []byte{}}}
			r.Header.Append("Content-Type", "text/html;charset=utf-8")
			return r
		}
	case "blob":
		// "blob": 1. Let blobURLEntry be request's current URL's blob URL
		// entry. 2. If request's method is not `GET` or blobURLEntry is
		// null, then return a network error.
		if p.BlobURLs == nil {
			break
		}
		typ, data, ok := p.BlobURLs.ResolveBlobURL(cur.String())
		if !ok || req.Method != "GET" {
			return NetworkError(fmt.Errorf("fetch: %s is not a blob URL of this user agent (or not a GET)", cur))
		}
		// 3-8. (The environment checks: blob URLs here are kept per
		// origin.) Let blob be blobURLEntry's object; let response be a
		// new response, whose status message is `OK`, body is blob's
		// bytes, and header list is « (`Content-Length`,
		// serializedFullLength), (`Content-Type`, type) ». (No range
		// requests.)
		r := &Response{Type: "default", Status: 200, StatusText: "OK", Body: &Body{Source: data}}
		r.Header.Append("Content-Length", strconv.Itoa(len(data)))
		r.Header.Append("Content-Type", typ)
		return r
	case "data":
		// "data": 1. Let dataURLStruct be the result of running the data:
		// URL processor on request's current URL. 2. If it is failure,
		// then return a network error.
		d, err := processDataURL(cur.String())
		if err != nil {
			return NetworkError(err)
		}
		// 3-4. Let mimeType be its MIME type, serialized; return a new
		// response whose status message is `OK`, header list is
		// « (`Content-Type`, mimeType) », and body is its body.
		r := &Response{Type: "default", Status: 200, StatusText: "OK", Body: &Body{Source: d.body}}
		r.Header.Append("Content-Type", d.mimeType)
		return r
	case "http", "https":
		// HTTP(S) scheme: return the result of running HTTP fetch given
		// fetchParams.
		return httpFetch(ctx, p, false)
	}
	// Otherwise ("blob" and "file" are not fetched here): return a
	// network error.
	return NetworkError(fmt.Errorf("fetch: cannot fetch %q URLs", cur.Scheme+":"))
}

// httpFetch is https://fetch.spec.whatwg.org/#concept-http-fetch.
func httpFetch(ctx context.Context, p *Params, makeCORSPreflight bool) *Response {
	// 1. Let request be fetchParams's request.
	req := p.Request
	// 2. Let response and internalResponse be null.
	var resp, internal *Response
	// 3. If request's service-workers mode is "all", then:
	if req.ServiceWorkersMode != "none" && p.HandleFetch != nil {
		// 3.1-3.5. Set response to the result of invoking handle fetch;
		//      if response is non-null:
		if resp = p.HandleFetch(ctx, req); resp != nil {
			// 3.5.1-3.5.2. Set internalResponse to response, if response
			//      is not a filtered response; otherwise to response's
			//      internal response.
			internal = resp
			if resp.Internal != nil {
				internal = resp.Internal
			}
			// 3.5.3. If one of the following is true, then return a
			//      network error:
			switch {
			case resp.IsNetworkError(),
				// request's mode is "same-origin" and response's type is
				// "cors";
				req.Mode == "same-origin" && resp.Type == "cors",
				// request's mode is not "no-cors" and response's type is
				// "opaque";
				req.Mode != "no-cors" && resp.Type == "opaque",
				// request's redirect mode is not "manual" and response's
				// type is "opaqueredirect";
				req.Redirect != "manual" && resp.Type == "opaqueredirect",
				// request's redirect mode is not "follow" and response's
				// URL list has more than one item.
				req.Redirect != "follow" && len(resp.URLList) > 1:
				return NetworkError(errors.New("fetch: the service worker's response does not fit the request"))
			}
		}
	}
	// 4. If response is null, then:
	if resp == nil {
		resp = httpFetchFromNetwork(ctx, p, makeCORSPreflight)
		if resp.IsNetworkError() {
			return resp
		}
		internal = resp
	}
	// 4.5. (No timing allow check.)
	// 5. (No cross-origin resource policy check.)
	// 6. If internalResponse's status is a redirect status:
	if IsRedirectStatus(internal.Status) {
		// 6.1. (HTTP/2 is not used with request bodies here.)
		// 6.2. Switch on request's redirect mode:
		switch req.Redirect {
		case "error":
			// Set response to a network error.
			internal.Body.discard()
			resp = NetworkError(fmt.Errorf("fetch: %s redirected (redirect mode error)", req.CurrentURL().Redacted()))
		case "manual":
			// If request's mode is "navigate", the navigation follows
			// it (its next manual redirect steps); otherwise set response
			// to an opaque-redirect filtered response whose internal
			// response is internalResponse.
			if req.Mode != "navigate" {
				resp = filteredResponse("opaqueredirect", internal)
			}
		default:
			// "follow": set response to the result of running
			// HTTP-redirect fetch given fetchParams and response.
			resp = httpRedirectFetch(ctx, p, resp)
		}
	}
	// 7. Return response.
	return resp
}

// httpFetchFromNetwork is step 4 of
// https://fetch.spec.whatwg.org/#concept-http-fetch, when no service
// worker answered: the CORS-preflight fetch when needed, then
// HTTP-network-or-cache fetch and the CORS check of its response.
func httpFetchFromNetwork(ctx context.Context, p *Params, makeCORSPreflight bool) *Response {
	req := p.Request
	// 4.1. If makeCORSPreflight is true and one of these conditions is
	//      true: there is no method cache entry match for request's
	//      method using request, and either request's method is not a
	//      CORS-safelisted method or request's use-CORS-preflight flag is
	//      set; there is at least one item in the CORS-unsafe
	//      request-header names with request's header list for which
	//      there is no header-name cache entry match using request; then:
	if makeCORSPreflight && p.PreflightCache.needsPreflight(req) {
		// 4.1.1. Let preflightResponse be the result of running
		//        CORS-preflight fetch given request.
		pre := corsPreflightFetch(ctx, p.Network, p.PreflightCache, req)
		// 4.1.2. If preflightResponse is a network error, then return
		//        preflightResponse.
		if pre.IsNetworkError() {
			return pre
		}
	}
	// 4.2. If request's redirect mode is "follow", then set request's
	//      service-workers mode to "none".
	if req.Redirect == "follow" {
		req.ServiceWorkersMode = "none"
	}
	// 4.3. Set response and internalResponse to the result of running
	//      HTTP-network-or-cache fetch given fetchParams.
	resp := httpNetworkOrCacheFetch(ctx, p.Network, p.Cookies, p.HTTPCache, req)
	// 4.4. If request's response tainting is "cors" and a CORS check for
	//      request and response returns failure, then return a network
	//      error.
	if resp.IsNetworkError() {
		return resp
	}
	if req.tainting() == "cors" && !CORSCheck(req, resp) {
		resp.Body.discard()
		return NetworkError(fmt.Errorf("fetch: the CORS check of %s failed", req.CurrentURL().Redacted()))
	}
	return resp
}

// locationURL is https://fetch.spec.whatwg.org/#concept-response-location-url
// given requestFragment; nil for null, and an error for failure.
func locationURL(resp *Response, base *url.URL, requestFragment string) (*url.URL, error) {
	// 1. If response's status is not a redirect status, then return null.
	if !IsRedirectStatus(resp.Status) {
		return nil, nil
	}
	// 2. Let location be the result of extracting header list values
	//    given `Location` and response's header list (the first value).
	var loc string
	found := false
	for _, h := range resp.Header {
		if strings.EqualFold(h.Name, "Location") {
			loc, found = h.Value, true
			break
		}
	}
	if !found {
		return nil, nil
	}
	// 3. If location is a header value, then set location to the result
	//    of parsing location with response's URL. (Its bytes are taken as
	//    UTF-8, the URL parser percent-encoding what is not ASCII; a byte
	//    that is not part of valid UTF-8 is percent-encoded as it is, as
	//    in Chromium.)
	u, err := base.Parse(percentEncodeNonASCII(loc))
	if err != nil {
		return nil, err
	}
	// 4. If location is a URL whose fragment is null, then set location's
	//    fragment to requestFragment.
	if u.Fragment == "" && !strings.Contains(loc, "#") {
		u.Fragment = requestFragment
	}
	// 5. Return location.
	return u, nil
}

// BlockedByTypeError is the Err of the network error of a response
// blocked due to its MIME type or due to nosniff. Status is the blocked
// response's status, for callers whose checks of the status come first
// (a service worker registration rejects a 404 with a TypeError, as
// Chromium does, whatever the MIME type).
type BlockedByTypeError struct {
	Destination string
	Status      int
}

func (e *BlockedByTypeError) Error() string {
	return fmt.Sprintf("fetch: the response's Content-Type cannot be used for a %q request", e.Destination)
}

// includesCredentials is https://url.spec.whatwg.org/#include-credentials:
// the URL's username or password is not the empty string ("http://@host/"
// has neither).
func includesCredentials(u *url.URL) bool {
	if u.User == nil {
		return false
	}
	p, _ := u.User.Password()
	return u.User.Username() != "" || p != ""
}

// percentEncodeNonASCII percent-encodes the bytes of s that are not
// ASCII: UTF-8 sequences become the percent-encoding of their bytes, as
// the URL parser's percent-encode sets make of non-ASCII code points.
func percentEncodeNonASCII(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// httpRedirectFetch is https://fetch.spec.whatwg.org/#http-redirect-fetch.
func httpRedirectFetch(ctx context.Context, p *Params, resp *Response) *Response {
	// 1. Let request be fetchParams's request.
	req := p.Request
	// 2. Let internalResponse be response, if response is not a filtered
	//    response; otherwise response's internal response.
	internal := resp
	if resp.Internal != nil {
		internal = resp.Internal
	}
	// 3. Let locationURL be internalResponse's location URL given
	//    request's current URL's fragment.
	cur := req.CurrentURL()
	loc, err := locationURL(internal, withoutFragment(cur), cur.Fragment)
	// 4. If locationURL is null, then return response.
	if err == nil && loc == nil {
		return resp
	}
	// (The redirect's body is not read.)
	internal.Body.discard()
	// 5. If locationURL is failure, then return a network error.
	if err != nil {
		return NetworkError(fmt.Errorf("fetch: bad Location: %v", err))
	}
	// 6. If locationURL's scheme is not an HTTP(S) scheme, then return a
	//    network error.
	if !isHTTPScheme(loc.Scheme) {
		return NetworkError(fmt.Errorf("fetch: redirect to %q", loc.Scheme+":"))
	}
	// 7. If request's redirect count is 20, then return a network error.
	if req.RedirectCount >= maxRedirects {
		return NetworkError(fmt.Errorf("fetch: more than %d redirects", maxRedirects))
	}
	// 8. Increase request's redirect count by 1.
	req.RedirectCount++
	locOrigin := origin.FromURL(loc)
	curOrigin := origin.FromURL(cur)
	// 9. If request's mode is "cors", locationURL includes credentials,
	//    and request's origin is not same origin with locationURL's
	//    origin, then return a network error.
	if req.Mode == "cors" && includesCredentials(loc) && !origin.SameOrigin(req.Origin, locOrigin) {
		return NetworkError(errors.New("fetch: a cross-origin redirect to a URL with credentials"))
	}
	// 10. If request's response tainting is "cors" and locationURL
	//     includes credentials, then return a network error.
	if req.tainting() == "cors" && includesCredentials(loc) {
		return NetworkError(errors.New("fetch: a CORS redirect to a URL with credentials"))
	}
	// 11. If internalResponse's status is not 303, request's body is
	//     non-null, and request's body's source is null, then return a
	//     network error.
	if internal.Status != 303 && req.Body.sourceIsNull() {
		return NetworkError(fmt.Errorf("fetch: a %d redirect of a request whose body is a stream", internal.Status))
	}
	// 12. If one of the following is true: internalResponse's status is
	//     301 or 302 and request's method is `POST`; internalResponse's
	//     status is 303 and request's method is not `GET` or `HEAD`;
	//     then:
	if (internal.Status == 301 || internal.Status == 302) && req.Method == "POST" ||
		internal.Status == 303 && req.Method != "GET" && req.Method != "HEAD" {
		// 12.1. Set request's method to `GET` and request's body to null.
		req.Method, req.Body = "GET", nil
		// 12.2. For each headerName of request-body-header name, delete
		//       headerName from request's header list.
		for _, n := range requestBodyHeaderNames {
			req.Header.Delete(n)
		}
	}
	// 13. If request's current URL's origin is not same origin with
	//     locationURL's origin, then for each headerName of CORS
	//     non-wildcard request-header name, delete headerName from
	//     request's header list.
	if !origin.SameOrigin(curOrigin, locOrigin) {
		req.Header.Delete("Authorization")
	}
	// 14. If request's body is non-null, then set request's body to the
	//     body of the result of safely extracting request's body's source
	//     (the bytes are sent again).
	// 15-18. (No timing info.) Append locationURL to request's URL list.
	req.URLList = append(req.URLList, loc)
	// 19. Invoke set request's referrer policy on redirect on request and
	//     internalResponse.
	setReferrerPolicyOnRedirect(req, internal)
	// 20. Let recursive be true.
	// 21. (A "manual" redirect of a navigation is followed by the caller.)
	// 22. Return the result of running main fetch given fetchParams and
	//     recursive.
	return mainFetch(ctx, p, true)
}

// HasRedirectTaintedOrigin is
// https://fetch.spec.whatwg.org/#concept-request-tainted-origin.
func (r *Request) HasRedirectTaintedOrigin() bool {
	// 1. Let lastURL be null.
	var last *url.URL
	// 2. For each url of request's URL list:
	for _, u := range r.URLList {
		// 2.1. If lastURL is null, then set lastURL to url and continue.
		if last == nil {
			last = u
			continue
		}
		// 2.2. If url's origin is not same origin with lastURL's origin
		//      and request's origin is not same origin with lastURL's
		//      origin, then return true.
		lastOrigin := origin.FromURL(last)
		if !origin.SameOrigin(origin.FromURL(u), lastOrigin) && !origin.SameOrigin(r.Origin, lastOrigin) {
			return true
		}
		// 2.3. Set lastURL to url.
		last = u
	}
	// 3. Return false.
	return false
}

// serializeRequestOrigin is
// https://fetch.spec.whatwg.org/#serializing-a-request-origin (bytes).
func serializeRequestOrigin(r *Request) string {
	// 1. If request has a redirect-tainted origin, then return "null".
	if r.HasRedirectTaintedOrigin() {
		return "null"
	}
	// 2. Return request's origin, serialized.
	return r.Origin.Serialize()
}

// appendRequestOriginHeader is
// https://fetch.spec.whatwg.org/#append-a-request-origin-header.
func appendRequestOriginHeader(r *Request, h http.Header) {
	// 1-2. Let serializedOrigin be the result of byte-serializing a
	//    request origin with request.
	serialized := serializeRequestOrigin(r)
	// 3. If request's response tainting is "cors" or request's mode is
	//    "websocket", then append (`Origin`, serializedOrigin).
	if r.tainting() == "cors" || r.Mode == "websocket" {
		h.Set("Origin", serialized)
		return
	}
	// 4. Otherwise, if request's method is neither `GET` nor `HEAD`, then:
	if r.Method == "GET" || r.Method == "HEAD" {
		return
	}
	// 4.1. If request's mode is not "cors", then switch on request's
	//      referrer policy:
	cur := r.CurrentURL()
	switch r.ReferrerPolicy {
	case "no-referrer":
		serialized = "null"
	case "no-referrer-when-downgrade", "strict-origin", "strict-origin-when-cross-origin":
		// If request's origin is a tuple origin, its scheme is "https",
		// and request's current URL's scheme is not "https", then set
		// serializedOrigin to `null`.
		if r.Origin.Scheme() == "https" && cur.Scheme != "https" {
			serialized = "null"
		}
	case "same-origin":
		// If request's origin is not same origin with request's current
		// URL's origin, then set serializedOrigin to `null`.
		if !origin.SameOrigin(r.Origin, origin.FromURL(cur)) {
			serialized = "null"
		}
	}
	// 4.2. Append (`Origin`, serializedOrigin).
	h.Set("Origin", serialized)
}

// httpNetworkOrCacheFetch is
// https://fetch.spec.whatwg.org/#concept-http-network-or-cache-fetch
// without authentication entries: it builds the HTTP request of req,
// answers it from the user agent's HTTP cache (nil: none) as req's cache
// mode says, and otherwise sends it.
func httpNetworkOrCacheFetch(ctx context.Context, network Network, cookies http.CookieJar, cache *HTTPCache, req *Request) *Response {
	if network == nil {
		return NetworkError(errors.New("fetch: no network"))
	}
	// 8.1. Let httpRequest be a copy of request (its headers only).
	h := http.Header{}
	for _, e := range req.Header {
		h.Add(e.Name, e.Value)
	}
	// 8.3. Let includeCredentials be true if request's credentials mode is
	//      "include", or "same-origin" and request's response tainting is
	//      "basic"; false otherwise.
	creds := req.Credentials == "include" || req.Credentials == "same-origin" && req.tainting() == "basic"
	// 8.5-8.6. Let contentLength be httpRequest's body's length, if
	//      httpRequest's body is non-null; otherwise null. (The
	//      `Content-Length` header is the network's.)
	// 8.9. If contentLength is non-null and httpRequest's keepalive is
	//      true, then:
	if req.Keepalive && req.Body != nil && req.Client != nil && req.Client.FetchGroup != nil {
		// 8.9.1-8.9.4. Let inflightKeepaliveBytes be the total of the
		//      body lengths of the fetch records in httpRequest's client's
		//      fetch group whose request's keepalive is true and done
		//      flag is unset.
		inflight := req.Client.FetchGroup.inflightKeepaliveBytes(req)
		// 8.9.5. If the sum of contentLength and inflightKeepaliveBytes
		//      is greater than 64 kibibytes, then return a network error.
		if req.Body.length()+inflight > KeepaliveQuota {
			return NetworkError(fmt.Errorf("fetch: a keepalive request of %d bytes over the %d bytes of the fetch group's keepalive quota (%d in flight)", req.Body.length(), KeepaliveQuota, inflight))
		}
	}
	// 8.10. If httpRequest's referrer is a URL, append (`Referer`, its
	//      serialization).
	if req.Referrer != "no-referrer" && req.Referrer != "client" && req.Referrer != "" {
		h.Set("Referer", req.Referrer)
	}
	// 8.11. Append a request `Origin` header for httpRequest.
	appendRequestOriginHeader(req, h)
	// 8.12. Append the Fetch metadata headers for httpRequest.
	appendFetchMetadataHeaders(req, h)
	// 8.13. (httpRequest's cache mode, "" being "default".)
	cacheMode := req.Cache
	if cacheMode == "" {
		cacheMode = "default"
	}
	// 8.14. If httpRequest's cache mode is "default" and httpRequest's
	//      header list contains `If-Modified-Since`, `If-None-Match`,
	//      `If-Unmodified-Since`, `If-Match`, or `If-Range`, then set
	//      httpRequest's cache mode to "no-store".
	if cacheMode == "default" {
		for _, n := range []string{"If-Modified-Since", "If-None-Match", "If-Unmodified-Since", "If-Match", "If-Range"} {
			if h.Get(n) != "" {
				cacheMode = "no-store"
				break
			}
		}
	}
	// 8.15. If httpRequest's cache mode is "no-cache", httpRequest's
	//      prevent no-cache cache-control header modification flag is
	//      unset, and httpRequest's header list does not contain
	//      `Cache-Control`, then append (`Cache-Control`, `max-age=0`).
	if cacheMode == "no-cache" && h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "max-age=0")
	}
	// 8.16. If httpRequest's cache mode is "no-store" or "reload", then:
	//      if httpRequest's header list does not contain `Pragma`, append
	//      (`Pragma`, `no-cache`); if it does not contain
	//      `Cache-Control`, append (`Cache-Control`, `no-cache`).
	if cacheMode == "no-store" || cacheMode == "reload" {
		if h.Get("Pragma") == "" {
			h.Set("Pragma", "no-cache")
		}
		if h.Get("Cache-Control") == "" {
			h.Set("Cache-Control", "no-cache")
		}
	}
	// 8.17-8.21. (Range and Accept-Encoding are the network's; no
	//      authentication entries.)
	u := withoutFragment(req.CurrentURL())
	// 8.22. If includeCredentials is true and httpRequest's header list
	//      does not contain `Authorization`: with no authentication entry,
	//      if httpRequest's current URL includes credentials, append
	//      (`Authorization`, the URL's credentials as a Basic value).
	if creds && includesCredentials(u) && h.Get("Authorization") == "" {
		pass, _ := u.User.Password()
		h.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pass)))
	}
	// The network is never given the URL's credentials (net/http would
	// send them whatever the credentials mode).
	u.User = nil
	// 8.22.1. If includeCredentials is true and the user agent is not
	//      configured to block cookies: let cookies be the result of the
	//      cookie-string algorithm with the user agent's cookie store and
	//      httpRequest's current URL; if it is not empty, append
	//      (`Cookie`, cookies).
	if creds && cookies != nil && h.Get("Cookie") == "" {
		var parts []string
		for _, c := range cookies.Cookies(u) {
			parts = append(parts, c.Name+"="+c.Value)
		}
		if len(parts) > 0 {
			h.Set("Cookie", strings.Join(parts, "; "))
		}
	}
	// 8.23-8.24. Let httpCache be the result of determining the HTTP
	//      cache partition given httpRequest (the user agent's cache, by
	//      network partition key); if it is null, set httpRequest's cache
	//      mode to "no-store". (Only GET responses are stored and
	//      selected.)
	partition, cacheURL := req.NetworkPartitionKey(), u.String()
	if cache == nil || req.Method != "GET" && req.Method != "HEAD" {
		cacheMode = "no-store"
	}
	var stored *storedResponse
	var resp *Response
	revalidating := false
	// 8.25. If httpRequest's cache mode is neither "no-store" nor
	//      "reload", then:
	if cacheMode != "no-store" && cacheMode != "reload" && req.Method == "GET" {
		// 8.25.1. Set storedResponse to the result of selecting a
		//      response from the httpCache, possibly needing validation.
		stored = cache.selectResponse(partition, cacheURL, h)
		// 8.25.2. If storedResponse is non-null, then: (no
		//      stale-while-revalidate)
		if stored != nil {
			// 8.25.2.2.1. If storedResponse is stale (or, in "no-cache"
			//      mode, needs validation), set the revalidatingFlag.
			revalidating = cacheMode == "no-cache" || !stored.fresh(cache.now(), h)
			// 8.25.2.2.2. If the revalidatingFlag is set and httpRequest's
			//      cache mode is neither "force-cache" nor
			//      "only-if-cached", then: if storedResponse's header list
			//      contains `ETag`, append (`If-None-Match`, its value);
			//      if it contains `Last-Modified`, append
			//      (`If-Modified-Since`, its value).
			if revalidating && cacheMode != "force-cache" && cacheMode != "only-if-cached" {
				etag, hasETag := stored.header.Get("ETag")
				lm, hasLM := stored.header.Get("Last-Modified")
				if hasETag {
					h.Set("If-None-Match", etag)
				}
				if hasLM {
					h.Set("If-Modified-Since", lm)
				}
				if !hasETag && !hasLM {
					// (It cannot be validated: a plain request.)
					stored, revalidating = nil, false
				}
			} else {
				// 8.25.2.2.3. Otherwise, set response to storedResponse
				//      (its cache state "local").
				resp = stored.response()
			}
		}
	}
	// 9. If response is null, then:
	if resp != nil {
		return resp
	}
	// 9.1. If httpRequest's cache mode is "only-if-cached", then return a
	//      network error.
	if cacheMode == "only-if-cached" {
		return NetworkError(fmt.Errorf("fetch: %s is not in the HTTP cache (only-if-cached)", u.Redacted()))
	}
	requestTime := time.Now()
	if cache != nil {
		requestTime = cache.now()
	}
	// 9.2. Let forwardResponse be the result of running HTTP-network
	//      fetch.
	nr := &NetworkRequest{Method: req.Method, URL: u, Header: h, Credentials: creds}
	switch {
	case req.Body.sourceIsNull():
		nr.BodyStream = req.Body.Upload
	case req.Body != nil:
		nr.Body = req.Body.Source
		if nr.Body == nil {
			nr.Body = []byte{}
		}
	}
	resp = httpNetworkFetch(ctx, network, nr)
	// 14. If response's status is 401, httpRequest's response tainting
	//     is not "cors", includeCredentials is true, and request's window
	//     is an environment settings object (any client here), then:
	//     14.1. (No authentication prompt.)
	//     14.2. If request's body is non-null, then: if request's body's
	//           source is null, then return a network error.
	if !resp.IsNetworkError() && resp.Status == 401 && req.tainting() != "cors" && creds && req.Client != nil &&
		req.Body.sourceIsNull() {
		resp.Body.discard()
		return NetworkError(errors.New("fetch: a 401 response to a request whose body is a stream"))
	}
	// (HTTP-network fetch 13.) If includeCredentials is true, parse and
	// store the response's `Set-Cookie` headers given request and
	// response.
	if creds && cookies != nil && !resp.IsNetworkError() {
		var set []*http.Cookie
		for _, e := range resp.Header {
			if strings.EqualFold(e.Name, "Set-Cookie") {
				if c, err := http.ParseSetCookie(e.Value); err == nil {
					set = append(set, c)
				}
			}
		}
		if len(set) > 0 {
			cookies.SetCookies(u, set)
		}
	}
	if resp.IsNetworkError() || cache == nil {
		return resp
	}
	// 9.3. If httpRequest's method is unsafe and forwardResponse's status
	//      is in the range 200 to 399, inclusive, invalidate appropriate
	//      stored responses in httpCache and set storedResponse to null.
	if !isSafeMethod(req.Method) && resp.Status >= 200 && resp.Status <= 399 {
		cache.invalidate(partition, cacheURL)
		return resp
	}
	// 9.4. If the revalidatingFlag is set and forwardResponse's status is
	//      304, then update storedResponse's header list using
	//      forwardResponse's header list (freshening), and set response
	//      to storedResponse (its cache state "validated").
	if revalidating && stored != nil && resp.Status == http.StatusNotModified {
		resp.Body.discard()
		return cache.freshen(stored, resp, requestTime)
	}
	// 9.5. If response is null: set response to forwardResponse, and
	//      store httpRequest and forwardResponse in httpCache (once its
	//      body is read), unless the cache mode is "no-store".
	if cacheMode != "no-store" && req.Method == "GET" {
		cache.storeResponse(partition, cacheURL, h, requestTime, resp)
	}
	return resp
}

// isSafeMethod is RFC 9110 section 9.2.1: GET, HEAD, OPTIONS and TRACE.
func isSafeMethod(m string) bool {
	switch m {
	case "GET", "HEAD", "OPTIONS", "TRACE":
		return true
	}
	return false
}

// httpNetworkFetch is https://fetch.spec.whatwg.org/#concept-http-network-fetch:
// the embedder's network sends the request. (Step 7, "if connection is
// an HTTP/1.x connection, request's body is non-null, and request's
// body's source is null, then return a network error", is the
// network's: it knows the connection; see NetworkRequest.BodyStream.)
func httpNetworkFetch(ctx context.Context, network Network, nr *NetworkRequest) *Response {
	n, err := network.Send(ctx, nr)
	if err != nil || n == nil {
		if err == nil {
			err = errors.New("fetch: the network returned no response")
		}
		return NetworkError(err)
	}
	if n.Status < 100 || n.Status > 999 {
		if n.Stream != nil {
			n.Stream.Close()
		}
		return NetworkError(fmt.Errorf("fetch: status %d", n.Status))
	}
	resp := &Response{Type: "default", Status: n.Status, StatusText: n.StatusText, Body: &Body{Source: n.Body}}
	if n.Stream != nil {
		resp.Body = newStreamBody(n.Stream)
	}
	names := make([]string, 0, len(n.Header))
	for name := range n.Header {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, v := range n.Header[name] {
			resp.Header.Append(name, v)
		}
	}
	return resp
}

// corsPreflightFetch is https://fetch.spec.whatwg.org/#cors-preflight-fetch,
// with the user agent's CORS-preflight cache (nil: none).
func corsPreflightFetch(ctx context.Context, network Network, cache *CORSPreflightCache, req *Request) *Response {
	// 1. Let preflight be a new request whose method is `OPTIONS`, URL
	//    list is a clone of request's URL list, initiator, destination,
	//    origin, referrer and referrer policy are request's, mode is
	//    "cors", and response tainting is "cors".
	pre := &Request{Method: "OPTIONS", URLList: append([]*url.URL(nil), req.URLList...), Client: req.Client,
		Origin: req.Origin, Referrer: req.Referrer, ReferrerPolicy: req.ReferrerPolicy, Mode: "cors",
		Credentials: "omit", Redirect: "error", Destination: req.Destination, ResponseTainting: "cors"}
	// 2. Append (`Accept`, `*/*`) to preflight's header list.
	pre.Header.Append("Accept", "*/*")
	// 3. Append (`Access-Control-Request-Method`, request's method).
	pre.Header.Append("Access-Control-Request-Method", req.Method)
	// 4. Let headers be the CORS-unsafe request-header names with
	//    request's header list.
	headers := CORSUnsafeRequestHeaderNames(req.Header)
	// 5. If headers is not empty, then append
	//    (`Access-Control-Request-Headers`, headers joined by ",").
	if len(headers) > 0 {
		pre.Header.Append("Access-Control-Request-Headers", strings.Join(headers, ","))
	}
	// 6. Let response be the result of running HTTP-network-or-cache fetch
	//    given a new fetch params whose request is preflight.
	resp := httpNetworkOrCacheFetch(ctx, network, nil, nil, pre)
	if resp.IsNetworkError() {
		return resp
	}
	// (The preflight's body is not read.)
	resp.Body.discard()
	// 7. If a CORS check for request and response returns success and
	//    response's status is an ok status, then:
	if !CORSCheck(req, resp) || resp.Status < 200 || resp.Status > 299 {
		// 8. Otherwise, return a network error.
		return NetworkError(fmt.Errorf("fetch: the CORS preflight of %s failed", req.CurrentURL().Redacted()))
	}
	// 7.1. Let methods be the result of extracting header list values
	//      given `Access-Control-Allow-Methods`.
	methods, okMethods := extractTokenList(resp.Header, "Access-Control-Allow-Methods")
	// 7.2. Let headerNames be the result of extracting header list values
	//      given `Access-Control-Allow-Headers`.
	headerNames, okNames := extractTokenList(resp.Header, "Access-Control-Allow-Headers")
	// 7.3. If either methods or headerNames is failure, return a network
	//      error.
	if !okMethods || !okNames {
		return NetworkError(fmt.Errorf("fetch: the CORS preflight of %s allows a method or header name that is not a token", req.CurrentURL().Redacted()))
	}
	// 7.4. If methods is null and request's use-CORS-preflight flag is
	//      set, then set methods to « request's method ».
	if methods == nil && req.UseCORSPreflight {
		methods = []string{req.Method}
	}
	creds := req.Credentials == "include"
	// 7.5. If request's method is not in methods, request's method is not
	//      a CORS-safelisted method, and request's credentials mode is
	//      "include" or methods does not contain `*`, then return a
	//      network error.
	if !containsToken(methods, req.Method, false) && !IsCORSSafelistedMethod(req.Method) &&
		(creds || !containsToken(methods, "*", false)) {
		return NetworkError(fmt.Errorf("fetch: the preflight does not allow the method %s", req.Method))
	}
	// 7.6. If one of request's header list's names is a CORS non-wildcard
	//      request-header name and is not a byte-case-insensitive match
	//      for an item in headerNames, then return a network error.
	if req.Header.Contains("Authorization") && !containsToken(headerNames, "Authorization", true) {
		return NetworkError(errors.New("fetch: the preflight does not allow the Authorization header"))
	}
	// 7.7. For each unsafeName of the CORS-unsafe request-header names
	//      with request's header list: if unsafeName is not a
	//      byte-case-insensitive match for an item in headerNames and
	//      request's credentials mode is "include" or headerNames does
	//      not contain `*`, return a network error.
	for _, n := range headers {
		if !containsToken(headerNames, n, true) && (creds || !containsToken(headerNames, "*", false)) {
			return NetworkError(fmt.Errorf("fetch: the preflight does not allow the header %s", n))
		}
	}
	// 7.8. Let max-age be the result of extracting header list values
	//      given `Access-Control-Max-Age`. 7.9. If max-age is failure or
	//      null, then set it to 5. 7.10. If max-age is greater than an
	//      imposed limit on max-age, then set it to the imposed limit.
	maxAge := preflightMaxAge(resp.Header)
	// 7.11. If the user agent does not provide for a cache, then return
	//      response.
	if cache == nil {
		return resp
	}
	// 7.12-7.15. Refresh or create a cache entry for each method in
	//      methods and each headerName in headerNames.
	cache.store(req, maxAge, methods, headerNames)
	// 7.16. Return response.
	return resp
}

// CORSCheck is https://fetch.spec.whatwg.org/#concept-cors-check: the one
// CORS check of the engine.
func CORSCheck(req *Request, resp *Response) bool {
	// 1. Let origin be the result of getting `Access-Control-Allow-Origin`
	//    from response's header list.
	acao, ok := resp.Header.Get("Access-Control-Allow-Origin")
	// 2. If origin is null, then return failure.
	if !ok {
		return false
	}
	// 3. If request's credentials mode is not "include" and origin is
	//    `*`, then return success.
	if req.Credentials != "include" && acao == "*" {
		return true
	}
	// 4. If the result of byte-serializing a request origin with request
	//    is not origin, then return failure.
	if serializeRequestOrigin(req) != acao {
		return false
	}
	// 5. If request's credentials mode is not "include", then return
	//    success.
	if req.Credentials != "include" {
		return true
	}
	// 6. Let credentials be the result of getting
	//    `Access-Control-Allow-Credentials` from response's header list.
	// 7. If credentials is `true`, then return success.
	c, _ := resp.Header.Get("Access-Control-Allow-Credentials")
	// 8. Return failure.
	return c == "true"
}

// filteredResponse returns the filtered response of type typ
// (https://fetch.spec.whatwg.org/#concept-filtered-response) whose
// internal response is internal.
func filteredResponse(typ string, internal *Response) *Response {
	f := &Response{Type: typ, Internal: internal, URLList: internal.URLList}
	switch typ {
	case "basic":
		// https://fetch.spec.whatwg.org/#concept-filtered-response-basic:
		// the header list excludes forbidden response-header names.
		f.Status, f.StatusText, f.Body = internal.Status, internal.StatusText, internal.Body
		for _, h := range internal.Header {
			if !IsForbiddenResponseHeaderName(h.Name) {
				f.Header = append(f.Header, h)
			}
		}
	case "cors":
		// https://fetch.spec.whatwg.org/#concept-filtered-response-cors:
		// the header list keeps the CORS-safelisted response-header
		// names given internal's CORS-exposed header-name list.
		f.Status, f.StatusText, f.Body = internal.Status, internal.StatusText, internal.Body
		for _, h := range internal.Header {
			if IsForbiddenResponseHeaderName(h.Name) {
				continue
			}
			if corsSafelistedResponseHeaderNames[strings.ToLower(h.Name)] || containsToken(internal.CORSExposedHeaderNames, h.Name, true) {
				f.Header = append(f.Header, h)
			}
		}
	case "opaque":
		// https://fetch.spec.whatwg.org/#concept-filtered-response-opaque:
		// type "opaque", URL list empty, status 0, empty status message
		// and header list, null body.
		f.URLList = nil
	case "opaqueredirect":
		// https://fetch.spec.whatwg.org/#concept-filtered-response-opaque-redirect:
		// status 0, empty status message and header list, null body.
	}
	return f
}
