package bindings

import (
	"net/url"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/grafana/sobek"
)

// response is the Fetch Standard's response
// (https://fetch.spec.whatwg.org/#concept-response) as script sees it: a
// filtered response keeps only the fields its type lets through.
type response struct {
	typ        ResponseType
	url        *url.URL // the last URL of the URL list; nil when empty
	redirected bool     // the URL list has more than one URL
	status     uint16
	statusText string
	headers    headerList
	body       *body
	// internalBody is the body of a filtered response's internal
	// response from the network when the response's own is null (an
	// opaque one's): the fetch reads it until it ends or is aborted.
	internalBody *fetch.Body
}

// networkError is https://fetch.spec.whatwg.org/#concept-network-error.
func networkError() *response { return &response{typ: "error"} }

// isNullBodyStatus is https://fetch.spec.whatwg.org/#null-body-status.
func isNullBodyStatus(s uint16) bool { return s == 101 || s == 103 || s == 204 || s == 205 || s == 304 }

// isRedirectStatus is https://fetch.spec.whatwg.org/#redirect-status.
func isRedirectStatus(s int) bool {
	return s == 301 || s == 302 || s == 303 || s == 307 || s == 308
}

// responseImpl is a Response object.
type responseImpl struct {
	webidl.Reflector
	bodyOwner
	resp    *response
	headers *headersImpl
}

// newResponseObject is https://fetch.spec.whatwg.org/#response-create.
func (r *Realm) newResponseObject(resp *response, guard headersGuard) *responseImpl {
	// 1-2. Set responseObject's response and its headers (header list
	// response's header list, guard guard).
	o := &responseImpl{resp: resp}
	o.bodyOwner = bodyOwner{realm: r, body: resp.body, headers: &resp.headers}
	o.headers = newHeaders(&resp.headers, guard)
	return o
}

// isReasonPhrase reports whether s matches the reason-phrase production.
func isReasonPhrase(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\t' && (c < 0x20 || c == 0x7F) {
			return false
		}
	}
	return true
}

// initializeResponse is
// https://fetch.spec.whatwg.org/#initialize-a-response.
func (o *responseImpl) initializeResponse(init ResponseInit, b *body, typ string) error {
	// 1. If init["status"] is not in the range 200 to 599, inclusive,
	// then throw a RangeError.
	if init.Status < 200 || init.Status > 599 {
		return webidl.NewRangeError("Failed to construct 'Response': The status provided (%d) is outside the range [200, 599].", init.Status)
	}
	// 2. If init["statusText"] does not match the reason-phrase token
	// production, then throw a TypeError.
	if !isReasonPhrase(string(init.StatusText)) {
		return webidl.NewTypeError("Failed to construct 'Response': Invalid statusText")
	}
	// 3-4. Set response's status and status message.
	o.resp.status = init.Status
	o.resp.statusText = string(init.StatusText)
	// 5. If init["headers"] exists, then fill response's headers with it.
	if init.Headers.Present {
		if err := o.headers.fill(init.Headers.Value); err != nil {
			return err
		}
	}
	// 6. If body was given, then:
	if b != nil {
		// 6.1. If response's status is a null body status, then throw a
		// TypeError.
		if isNullBodyStatus(o.resp.status) {
			return webidl.NewTypeError("Failed to construct 'Response': Response with null body status cannot have body")
		}
		// 6.2. Set response's body to body's body.
		o.resp.body = b
		o.bodyOwner.body = b
		// 6.3. If body's type is non-null and response's header list does
		// not contain `Content-Type`, then append (`Content-Type`, type).
		if typ != "" && !o.resp.headers.Contains("Content-Type") {
			o.resp.headers.Append("Content-Type", typ)
		}
	}
	return nil
}

type responseStatics struct{}

// Constructor is https://fetch.spec.whatwg.org/#dom-response.
func (responseStatics) Constructor(ir *webidl.Realm, b webidl.Nullable[BodyInit], init ResponseInit) (ResponseMethods, error) {
	r := realmOf(ir)
	// 1-2. Set this's response to a new response and this's headers to a
	// new Headers object whose guard is "response".
	o := r.newResponseObject(&response{typ: "default", status: 200}, guardResponse)
	// 3. Let bodyWithType be null.
	var bd *body
	var typ string
	// 4. If body is non-null, then set bodyWithType to the result of
	// extracting body.
	if !b.Null {
		var err error
		if bd, typ, err = extractBody(b.Value); err != nil {
			return nil, err
		}
	}
	// 5. Perform initialize a response given this, init, and bodyWithType.
	if err := o.initializeResponse(init, bd, typ); err != nil {
		return nil, err
	}
	return o, nil
}

// Error is https://fetch.spec.whatwg.org/#dom-response-error.
func (responseStatics) Error(ir *webidl.Realm) (ResponseMethods, error) {
	return realmOf(ir).newResponseObject(networkError(), guardImmutable), nil
}

// Redirect is https://fetch.spec.whatwg.org/#dom-response-redirect.
func (responseStatics) Redirect(ir *webidl.Realm, rawURL string, status uint16) (ResponseMethods, error) {
	r := realmOf(ir)
	// 1. Let parsedURL be the result of parsing url with current settings
	// object's API base URL.
	u, err := ParseURL(rawURL, r.fetchBaseURL())
	// 2. If parsedURL is failure, then throw a TypeError.
	if err != nil {
		return nil, webidl.NewTypeError("Failed to execute 'redirect' on 'Response': Invalid URL %q", rawURL)
	}
	// 3. If status is not a redirect status, then throw a RangeError.
	if !isRedirectStatus(int(status)) {
		return nil, webidl.NewRangeError("Failed to execute 'redirect' on 'Response': Invalid status code %d", status)
	}
	// 4-7. A new response, status status, Location parsedURL serialized,
	// immutable headers.
	resp := &response{typ: "default", status: status}
	resp.headers.Append("Location", urlString(u))
	return r.newResponseObject(resp, guardImmutable), nil
}

// json is https://fetch.spec.whatwg.org/#dom-response-json.
func (responseStatics) json(ir *webidl.Realm, data sobek.Value, init ResponseInit) (ResponseMethods, error) {
	r := realmOf(ir)
	// 1. Let bytes be the result of running serialize a JavaScript value
	// to JSON bytes on data.
	v, err := r.jsonStringifyFn(sobek.Undefined(), webidl.AnyValue(data))
	if err != nil {
		return nil, err
	}
	if sobek.IsUndefined(v) {
		return nil, webidl.NewTypeError("Failed to execute 'json' on 'Response': The data is not JSON serializable")
	}
	// 2. Let body be the result of extracting bytes.
	b := &body{source: []byte(v.String())}
	// 3-4. A new response object with "response" guard, initialized with
	// init and (body, "application/json").
	o := r.newResponseObject(&response{typ: "default", status: 200}, guardResponse)
	if err := o.initializeResponse(init, b, "application/json"); err != nil {
		return nil, err
	}
	return o, nil
}

func (o *responseImpl) Type() (ResponseType, error) { return o.resp.typ, nil }

// url is https://fetch.spec.whatwg.org/#dom-response-url: the empty string
// when the URL list is empty, else its last URL without fragment.
func (o *responseImpl) url() (string, error) {
	if o.resp.url == nil {
		return "", nil
	}
	u := *o.resp.url
	u.Fragment, u.RawFragment = "", ""
	return urlString(&u), nil
}
func (o *responseImpl) Redirected() (bool, error) { return o.resp.redirected, nil }
func (o *responseImpl) Status() (uint16, error)   { return o.resp.status, nil }
func (o *responseImpl) Ok() (bool, error)         { return o.resp.status >= 200 && o.resp.status <= 299, nil }
func (o *responseImpl) StatusText() (webidl.ByteString, error) {
	return webidl.ByteString(o.resp.statusText), nil
}
func (o *responseImpl) Headers() (HeadersMethods, error)      { return o.headers, nil }
func (o *responseImpl) BodyUsed() (bool, error)               { return o.bodyUsed(), nil }
func (o *responseImpl) Body() (ReadableStreamMethods, error)  { return o.bodyAttr() }
func (o *responseImpl) ArrayBuffer() (*webidl.Promise, error) { return o.arrayBuffer(), nil }
func (o *responseImpl) Blob() (*webidl.Promise, error)        { return o.blob(), nil }
func (o *responseImpl) Bytes() (*webidl.Promise, error)       { return o.bytes(), nil }
func (o *responseImpl) Text() (*webidl.Promise, error)        { return o.text(), nil }
func (o *responseImpl) FormData() (*webidl.Promise, error)    { return o.formData(), nil }

// Clone is https://fetch.spec.whatwg.org/#dom-response-clone.
func (o *responseImpl) Clone() (ResponseMethods, error) {
	// 1. If this is unusable, then throw a TypeError.
	if o.isUnusable() {
		return nil, webidl.NewTypeError("Failed to execute 'clone' on 'Response': Response body is already used")
	}
	// 2. Let clonedResponse be the result of cloning this's response.
	c := *o.resp
	c.headers = o.resp.headers.Clone()
	c.body = o.realm.cloneBody(o.resp.body)
	// 3. Return a new Response object with this's headers's guard.
	return o.realm.newResponseObject(&c, o.headers.guard), nil
}

// URL is Response's url attribute.
func (o *responseImpl) URL() (string, error) { return o.url() }

// JSON is Body's json() for a Response.
func (o *responseImpl) JSON() (*webidl.Promise, error) { return o.json(), nil }

// JSON is the static Response.json(data, init).
func (s responseStatics) JSON(ir *webidl.Realm, data sobek.Value, init ResponseInit) (ResponseMethods, error) {
	return s.json(ir, data, init)
}
