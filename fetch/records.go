package fetch

import (
	"bytes"
	"context"
	"errors"
	"github.com/gowebengine/weblocks/csp"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/gowebengine/weblocks/origin"
)

// Body is https://fetch.spec.whatwg.org/#concept-body. A request's body,
// and a response body made in memory, is its Source. A response body from
// the network is a stream: the response is available when its headers
// are, and Load reads the stream (in the goroutine of whoever runs the
// fetch) while consumers wait for all of it with OnLoad, or take its
// bytes as they arrive with Subscribe.
type Body struct {
	// Source is the body's bytes; for a streamed body, once loaded.
	Source []byte
	// Upload is the bytes of a request body whose source is null (one
	// extracted from a ReadableStream): the network reads them as it
	// sends the request, and only over HTTP/2 or later (HTTP-network
	// fetch). Source is nil then.
	Upload io.Reader

	mu      sync.Mutex
	state   bodyState
	stream  io.ReadCloser // while streamed
	err     error
	waiters []func()
	// partial is what has arrived of a body being loaded.
	partial []byte
	// subs are the Subscribe callbacks; delivery serializes their calls
	// (Load's and Subscribe's), so that each sees the bytes in order.
	subs     []subscriber
	delivery sync.Mutex
}

type subscriber struct {
	onChunk func([]byte)
	onEnd   func(error)
}

type bodyState uint8

const (
	bodyDone     bodyState = iota // in memory, or loaded, or the read failed
	bodyStreamed                  // not read yet
	bodyLoading                   // Load is reading it
)

// newStreamBody is a body whose bytes come from r (at most
// MaxResponseBytes of them).
func newStreamBody(r io.ReadCloser) *Body { return &Body{stream: r, state: bodyStreamed} }

// loadChunkSize is the most Load reads at once: each read's bytes are a
// chunk for Subscribe.
const loadChunkSize = 32 << 10

// Load reads a streamed body to its end, or to the first error (the
// fetch's context ending aborts the read), giving each read's bytes to
// the Subscribe callbacks, then runs the OnLoad callbacks. It returns at
// once for a body in memory or loaded, or when another goroutine is
// loading it.
func (b *Body) Load() {
	b.mu.Lock()
	if b.state != bodyStreamed {
		b.mu.Unlock()
		return
	}
	b.state = bodyLoading
	r := b.stream
	b.mu.Unlock()
	var data []byte
	var err error
	buf := make([]byte, loadChunkSize)
	for {
		n, rerr := r.Read(buf)
		if n > 0 {
			if len(data)+n > MaxResponseBytes {
				err = errors.New("fetch: the response body exceeds " + strconv.Itoa(MaxResponseBytes) + " bytes")
				break
			}
			chunk := bytes.Clone(buf[:n])
			data = append(data, chunk...)
			b.delivery.Lock()
			b.mu.Lock()
			b.partial = data
			subs := b.subs
			b.mu.Unlock()
			for _, s := range subs {
				s.onChunk(chunk)
			}
			b.delivery.Unlock()
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			err = rerr
			break
		}
	}
	r.Close()
	b.finish(data, err)
}

func (b *Body) finish(data []byte, err error) {
	b.delivery.Lock()
	b.mu.Lock()
	b.Source, b.err, b.stream, b.state, b.partial = data, err, nil, bodyDone, nil
	waiters, subs := b.waiters, b.subs
	b.waiters, b.subs = nil, nil
	b.mu.Unlock()
	for _, s := range subs {
		s.onEnd(err)
	}
	b.delivery.Unlock()
	for _, f := range waiters {
		f()
	}
}

// Subscribe returns the bytes of the body that have arrived so far and,
// when the body has ended, ended true and the error that ended its read
// (nil at its end). Otherwise the bytes that arrive later go to onChunk
// and then the end to onEnd, from the goroutine that loads the body:
// never concurrently, in order, and never during this call. The
// callbacks must not call b's methods.
func (b *Body) Subscribe(onChunk func([]byte), onEnd func(error)) (sofar []byte, ended bool, err error) {
	b.delivery.Lock()
	defer b.delivery.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.state == bodyDone {
		return b.Source, true, b.err
	}
	b.subs = append(b.subs, subscriber{onChunk, onEnd})
	return b.partial, false, nil
}

// discard closes a streamed body without reading it (a redirect's, a
// network error's).
func (b *Body) discard() {
	if b == nil {
		return
	}
	b.mu.Lock()
	if b.state != bodyStreamed {
		b.mu.Unlock()
		return
	}
	r := b.stream
	b.state = bodyLoading
	b.mu.Unlock()
	r.Close()
	b.finish(nil, errors.New("fetch: body discarded"))
}

// sourceIsNull reports whether b is a request body whose source is null
// (https://fetch.spec.whatwg.org/#concept-body-source): one read from a
// stream as it is sent, which cannot be sent again.
func (b *Body) sourceIsNull() bool { return b != nil && b.Upload != nil }

// OnLoad runs f once the body is loaded: at once (in this goroutine) when
// it is in memory or loaded, else in the goroutine that loads it.
func (b *Body) OnLoad(f func()) {
	b.mu.Lock()
	if b.state == bodyDone {
		b.mu.Unlock()
		f()
		return
	}
	b.waiters = append(b.waiters, f)
	b.mu.Unlock()
}

// Loaded reports whether the body's bytes are all in (or the read
// failed).
func (b *Body) Loaded() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.state == bodyDone
}

// Result is the body's bytes and the error that ended its read; call it
// once the body is loaded.
func (b *Body) Result() ([]byte, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.Source, b.err
}

// Client is the part of a request's client
// (https://fetch.spec.whatwg.org/#concept-request-client), an environment
// settings object, that fetching reads.
type Client struct {
	// ID is the settings object's id (a service worker's fetch event's
	// clientId); "" when the embedder gave none.
	ID string
	// Origin is the settings object's origin.
	Origin origin.Origin
	// URL is the referrer source a request's "client" referrer stands
	// for: the document's URL for a window, the creation URL otherwise.
	// Nil means no referrer (an opaque-origin document).
	URL *url.URL
	// TopLevelSite is the site of the settings object's top-level origin:
	// the network partition key (the CORS-preflight cache's key). The
	// zero Site: not partitioned.
	TopLevelSite origin.Site
	// ReferrerPolicy is the referrer policy of the settings object's
	// policy container: the policy of a request whose own is the empty
	// string ("" is DefaultReferrerPolicy).
	ReferrerPolicy string
	// FetchGroup is the settings object's fetch group (nil: none, no
	// keepalive quota).
	FetchGroup *FetchGroup
	// CSP is the CSP list of the settings object's policy container
	// (package csp): main fetch blocks the requests it forbids.
	CSP csp.List
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
	// Initiator is the request's initiator: "", "download", "imageset",
	// "manifest", "prefetch", "prerender" or "xslt".
	Initiator string
	// Integrity is the request's integrity metadata (Subresource
	// Integrity, package sri): when it is not empty, the response is
	// handed over only once its whole body has matched it.
	Integrity string
	// TopLevel says a "document" request navigates a top-level
	// traversable (Mixed Content allows it).
	TopLevel bool
	// ReloadNavigation and HistoryNavigation are the request's
	// reload-navigation flag and history-navigation flag: a navigation
	// request of a reload, of a traversal of the session history.
	ReloadNavigation, HistoryNavigation bool
	// Cache is the request's cache mode ("default", "no-store",
	// "reload", "no-cache", "force-cache" or "only-if-cached"; "" is
	// "default"): how HTTP-network-or-cache fetch uses Params.HTTPCache.
	Cache string
	// Keepalive is the request's keepalive: the fetch may outlive its
	// client's document (the caller does not end it with the fetch
	// group), and the bodies of a fetch group's keepalive requests in
	// flight total at most KeepaliveQuota bytes.
	Keepalive bool
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

// Load reads the body of r (its internal response's, for a filtered
// response whose body is null, such as an opaque one) to its end: the
// caller of Fetch runs it once it has handed the response on.
func (r *Response) Load() {
	if r.Body != nil {
		r.Body.Load()
	}
	if r.Internal != nil && r.Internal.Body != nil && r.Internal.Body != r.Body {
		r.Internal.Body.Load()
	}
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
	// BlobURLs resolves blob: URLs (the File API's blob URL store:
	// package fileapi); nil makes them network errors.
	BlobURLs BlobURLResolver
	// PreflightCache is the user agent's CORS-preflight cache; nil: the
	// user agent provides none (every preflight is sent).
	PreflightCache *CORSPreflightCache
	// HTTPCache is the user agent's HTTP cache; nil: none (every
	// request goes to the network, as in cache mode "no-store").
	HTTPCache *HTTPCache
	// Cookies is the user agent's cookie store: requests that include
	// credentials send its cookies for their URL and store the
	// responses' Set-Cookie headers. Nil: no cookies (the network may
	// still have its own).
	Cookies http.CookieJar
}

// BlobURLResolver is the user agent's blob URL store as scheme fetch
// reads it: the type and bytes of the blob a blob URL (fragment ignored)
// stands for.
type BlobURLResolver interface {
	ResolveBlobURL(url string) (typ string, data []byte, ok bool)
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
