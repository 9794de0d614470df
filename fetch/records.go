package fetch

import (
	"context"
	"net/url"
	"strings"

	"github.com/gowebengine/weblocks/html/origin"
)

// Body is https://fetch.spec.whatwg.org/#concept-body: its source, held
// in memory.
type Body struct {
	Source []byte
}

// Client is the part of a request's client
// (https://fetch.spec.whatwg.org/#concept-request-client), an environment
// settings object, that fetching reads.
type Client struct {
	// Origin is the settings object's origin.
	Origin origin.Origin
	// URL is the referrer source a request's "client" referrer stands
	// for: the document's URL for a window, the creation URL otherwise.
	// Nil means no referrer (an opaque-origin document).
	URL *url.URL
}

// Request is https://fetch.spec.whatwg.org/#concept-request, the members
// this engine uses. Fetch changes it (URL list, method, headers, referrer,
// redirect count, response tainting) as the standard says.
type Request struct {
	Method string
	// URLList is the request's URL list; its last URL is the current URL.
	URLList []*url.URL
	Header  HeaderList
	Body    *Body // nil: null
	// Client is the request's client; nil for none.
	Client *Client
	// Origin is the request's origin.
	Origin origin.Origin
	// Referrer is "no-referrer", "client" or a URL (serialized).
	Referrer string
	// ReferrerPolicy is a referrer policy; "" is the policy container's,
	// strict-origin-when-cross-origin.
	ReferrerPolicy string
	// Mode is "same-origin", "cors", "no-cors" or "navigate".
	Mode string
	// Credentials is "omit", "same-origin" or "include".
	Credentials string
	// Redirect is "follow", "error" or "manual".
	Redirect string
	// Destination is the request's destination ("" for fetch()).
	Destination string
	// TopLevel says a "document" request navigates a top-level
	// traversable (Mixed Content allows it).
	TopLevel bool
	// UnsafeRequest is the unsafe-request flag (set for fetch() and
	// XMLHttpRequest): it makes a CORS-preflight fetch possible.
	UnsafeRequest bool
	// UseCORSPreflight is the use-CORS-preflight flag.
	UseCORSPreflight bool
	// ServiceWorkersMode is "all" or "none" ("" is "all").
	ServiceWorkersMode string
	// RedirectCount is the request's redirect count.
	RedirectCount int
	// ResponseTainting is "basic", "cors" or "opaque" ("" is "basic").
	ResponseTainting string
}

// NewRequest returns a GET request of u with the Fetch Standard's
// defaults: mode "no-cors", credentials "same-origin", redirect
// "follow", referrer "client", the origin of u's client when it has one.
func NewRequest(u *url.URL, client *Client) *Request {
	r := &Request{Method: "GET", URLList: []*url.URL{cloneURL(u)}, Client: client, Referrer: "client",
		Mode: "no-cors", Credentials: "same-origin", Redirect: "follow"}
	if client != nil {
		r.Origin = client.Origin
	} else {
		r.Origin = origin.FromURL(u)
		r.Referrer = "no-referrer"
	}
	return r
}

// CurrentURL is https://fetch.spec.whatwg.org/#concept-request-current-url.
func (r *Request) CurrentURL() *url.URL { return r.URLList[len(r.URLList)-1] }

func (r *Request) tainting() string {
	if r.ResponseTainting == "" {
		return "basic"
	}
	return r.ResponseTainting
}

// Response is https://fetch.spec.whatwg.org/#concept-response. A filtered
// response (Type "basic", "cors", "opaque" or "opaqueredirect" made by
// fetch) keeps only what its type lets through and points to its
// internal response.
type Response struct {
	// Type is "basic", "cors", "default", "error", "opaque" or
	// "opaqueredirect".
	Type       string
	URLList    []*url.URL
	Status     int
	StatusText string
	Header     HeaderList
	Body       *Body // nil: null
	// CORSExposedHeaderNames is the CORS-exposed header-name list.
	CORSExposedHeaderNames []string
	// Internal is the internal response of a filtered response.
	Internal *Response
	// Err tells why a network error is one (nil otherwise); script never
	// sees it.
	Err error
}

// NetworkError is https://fetch.spec.whatwg.org/#concept-network-error;
// why explains it to the embedder.
func NetworkError(why error) *Response { return &Response{Type: "error", Err: why} }

// IsNetworkError reports whether r is a network error.
func (r *Response) IsNetworkError() bool { return r.Type == "error" }

// URL is https://fetch.spec.whatwg.org/#concept-response-url: the last
// URL of the URL list, nil when it is empty.
func (r *Response) URL() *url.URL {
	if len(r.URLList) == 0 {
		return nil
	}
	return r.URLList[len(r.URLList)-1]
}

// Redirected reports whether the URL list has more than one URL.
func (r *Response) Redirected() bool { return len(r.URLList) > 1 }

// Params are fetch's parameters
// (https://fetch.spec.whatwg.org/#fetch-params): the request, the
// embedder's network, and the hooks the caller's layer provides.
type Params struct {
	Request *Request
	// Network sends the HTTP requests; required for http(s) URLs.
	Network Network
	// HandleFetch is Service Workers' Handle Fetch, for HTTP fetch: nil
	// when the request's client has no active service worker. It
	// returns nil to go to the network.
	HandleFetch func(ctx context.Context, req *Request) *Response
}

func cloneURL(u *url.URL) *url.URL {
	c := *u
	if u.User != nil {
		uu := *u.User
		c.User = &uu
	}
	return &c
}

// withoutFragment returns u without its fragment.
func withoutFragment(u *url.URL) *url.URL {
	c := cloneURL(u)
	c.Fragment, c.RawFragment = "", ""
	return c
}

func isHTTPScheme(s string) bool {
	s = strings.ToLower(s)
	return s == "http" || s == "https"
}
