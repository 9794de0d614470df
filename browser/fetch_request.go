package browser

import (
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"

	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/html"
	"golang.org/x/net/publicsuffix"
)

// This file is the host side of fetch: the browser's Fetcher is the
// network of package fetch (every load of loads.go and modules.go, and
// scripts' fetch() calls, run package fetch off the event loop over it).

// FetchRequest is one HTTP request as the network sees it: package fetch
// already ran the Fetch Standard's checks (bad port, mixed content, mode,
// CORS preflight) and set the Origin and Referer headers.
type FetchRequest = fetch.NetworkRequest

// FetchResponse is the network's answer to a FetchRequest.
type FetchResponse = fetch.NetworkResponse

// A RequestFetcher is a Fetcher that can send any request: method,
// headers and body. The browser sends it every request package fetch
// makes (Fetch is then not used). It never follows redirects: package
// fetch does, as the Fetch Standard says. A Fetcher that is not one
// serves GET and HEAD requests through Fetch (its response's Header and
// Content-Type); other methods are network errors.
type RequestFetcher interface {
	Fetcher
	// FetchRequest sends req and returns the response as the server gave
	// it (a redirect response included). An HTTP error status is a
	// response; a network error is an error.
	FetchRequest(ctx context.Context, req *FetchRequest) (*FetchResponse, error)
}

// FetchRequest implements RequestFetcher with fetch.HTTPNetwork over the
// fetcher's http.Client: its transport, and its cookie jar only for
// requests with credentials; its redirect policy is not used.
func (h HTTPFetcher) FetchRequest(ctx context.Context, req *FetchRequest) (*FetchResponse, error) {
	return fetch.HTTPNetwork{Client: h.Client}.Send(ctx, req)
}

// network is the browser's fetch.Network: its Fetcher.
func (b *Browser) network() fetch.Network { return fetch.NetworkFunc(b.fetchRequest) }

// fetchRequest sends req through the browser's Fetcher.
func (b *Browser) fetchRequest(ctx context.Context, req *FetchRequest) (*FetchResponse, error) {
	if rf, ok := b.fetcher.(RequestFetcher); ok {
		return rf.FetchRequest(ctx, req)
	}
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		return nil, fmt.Errorf("browser: the fetcher cannot send %s requests", req.Method)
	}
	resp, err := b.fetcher.Fetch(ctx, req.URL)
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	for name, vals := range resp.Header {
		h[http.CanonicalHeaderKey(name)] = append([]string(nil), vals...)
	}
	if resp.ContentType != "" {
		ct := resp.ContentType
		if resp.Charset != "" {
			ct += ";charset=" + resp.Charset
		}
		h.Set("Content-Type", ct)
	}
	out := &FetchResponse{Status: resp.Status, StatusText: http.StatusText(resp.Status), Header: h, Body: resp.Body}
	if req.Method == http.MethodHead {
		out.Body = nil
	}
	return out, nil
}

// preflightCacheSlot holds a user agent's CORS-preflight cache.
var preflightCacheSlot = html.NewSlot[*fetch.CORSPreflightCache]()

// preflightCacheOf returns the CORS-preflight cache of ua (made the first
// time it is needed): every fetch of the user agent shares it.
func preflightCacheOf(ua *html.UserAgent) *fetch.CORSPreflightCache {
	return preflightCacheSlot.GetOrInit(ua, func() *fetch.CORSPreflightCache { return &fetch.CORSPreflightCache{} })
}

// httpCacheSlot holds a user agent's HTTP cache.
var httpCacheSlot = html.NewSlot[*fetch.HTTPCache]()

// httpCacheOf returns the HTTP cache of ua (made the first time it is
// needed, with the default bounds): scripts' fetch() calls share it,
// partitioned by their network partition key.
func httpCacheOf(ua *html.UserAgent) *fetch.HTTPCache {
	return httpCacheSlot.GetOrInit(ua, func() *fetch.HTTPCache { return &fetch.HTTPCache{} })
}

// cookieStoreSlot holds a user agent's cookie store.
var cookieStoreSlot = html.NewSlot[http.CookieJar]()

// cookieStoreOf returns the cookie store of ua (an in-memory
// net/http/cookiejar with the public suffix list, made the first time it
// is needed): fetches that include credentials send its cookies and store
// the responses' Set-Cookie headers.
func cookieStoreOf(ua *html.UserAgent) http.CookieJar {
	return cookieStoreSlot.GetOrInit(ua, func() http.CookieJar {
		jar, _ := cookiejar.New(&cookiejar.Options{PublicSuffixList: publicsuffix.List})
		return jar
	})
}

// fetchHost is the bindings.FetchHost of the browser's realms;
// referrerPolicy, for a window's, is its document's referrer policy,
// which a request without a policy of its own gets.
type fetchHost struct {
	b              *Browser
	referrerPolicy func() string
}

// StartFetch implements bindings.FetchHost: the fetch and the read of
// the response's body run in a goroutine (counted as work in progress
// for RunUntilIdle until the body's consumers have queued their tasks)
// and end with the fetch's abort or the browser.
func (h fetchHost) StartFetch(ctx context.Context, p *fetch.Params, done func(*fetch.Response)) {
	b := h.b
	if c := p.Request.Client; c != nil && c.ReferrerPolicy == "" && h.referrerPolicy != nil {
		c.ReferrerPolicy = h.referrerPolicy()
	}
	p.Network = b.network()
	p.PreflightCache = preflightCacheOf(b.eng.ua)
	p.HTTPCache = httpCacheOf(b.eng.ua)
	p.Cookies = cookieStoreOf(b.eng.ua)
	b.busy.Add(1)
	go func() {
		defer b.busy.Add(-1)
		b.guard(func() {
			fctx, cancel := context.WithCancel(b.ctx)
			defer cancel()
			stop := context.AfterFunc(ctx, cancel)
			defer stop()
			// The response goes to the realm at its headers; its body is
			// read here, then (OnLoad) to its consumers.
			resp := fetch.Fetch(fctx, p)
			done(resp)
			resp.Load()
		})
	}()
}
