package browser

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/gowebengine/weblocks/bindings"
)

// This file is the host side of fetch(): scripts' requests (any method,
// headers and body) go through the browser's Fetcher, off the event loop.

// FetchRequest is a request of a script's fetch() call, as the network
// sees it: the realm already ran the Fetch Standard's checks (mode, CORS
// preflight) and adds the Origin header itself.
type FetchRequest = bindings.NetworkRequest

// FetchResponse is the network's answer to a FetchRequest.
type FetchResponse = bindings.NetworkResponse

// A RequestFetcher is a Fetcher that can send any request of a script's
// fetch(): method, headers, body and redirect mode. A Fetcher that is not
// one serves fetch() GET and HEAD requests through Fetch (its response
// carries only a Content-Type header); other methods are network errors.
type RequestFetcher interface {
	Fetcher
	// FetchRequest sends req. An HTTP error status is a response; a
	// network error is an error. When req.Redirect is not "follow",
	// redirects are returned, not followed.
	FetchRequest(ctx context.Context, req *FetchRequest) (*FetchResponse, error)
}

// FetchRequest implements RequestFetcher with the fetcher's http.Client:
// its transport, and its cookie jar only for requests with credentials.
func (h HTTPFetcher) FetchRequest(ctx context.Context, req *FetchRequest) (*FetchResponse, error) {
	if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
		return nil, fmt.Errorf("browser: unsupported URL scheme %q", req.URL.Scheme)
	}
	client := http.DefaultClient
	if h.Client != nil {
		client = h.Client
	}
	c := *client
	if !req.Credentials {
		c.Jar = nil
	}
	redirects := 0
	check := c.CheckRedirect
	c.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		if req.Redirect != "follow" {
			return http.ErrUseLastResponse
		}
		// The Fetch Standard allows 20 redirects.
		if len(via) > 20 {
			return errors.New("browser: too many redirects")
		}
		if check != nil {
			if err := check(r, via); err != nil {
				return err
			}
		}
		redirects++
		return nil
	}
	var body io.Reader
	if req.Body != nil {
		body = bytes.NewReader(req.Body)
	}
	hr, err := http.NewRequestWithContext(ctx, req.Method, req.URL.String(), body)
	if err != nil {
		return nil, err
	}
	for name, vals := range req.Header {
		for _, v := range vals {
			hr.Header.Add(name, v)
		}
	}
	resp, err := c.Do(hr)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxResponseBytes {
		return nil, fmt.Errorf("browser: response for %s exceeds %d bytes", req.URL, MaxResponseBytes)
	}
	return &FetchResponse{
		URL:        resp.Request.URL,
		Redirected: redirects > 0,
		Status:     resp.StatusCode,
		StatusText: strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)+" "),
		Header:     resp.Header,
		Body:       b,
	}, nil
}

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
	if resp.ContentType != "" {
		ct := resp.ContentType
		if resp.Charset != "" {
			ct += ";charset=" + resp.Charset
		}
		h.Set("Content-Type", ct)
	}
	out := &FetchResponse{URL: resp.URL, Status: resp.Status, StatusText: http.StatusText(resp.Status), Header: h, Body: resp.Body}
	if out.URL == nil {
		out.URL = req.URL
	}
	out.Redirected = out.URL.String() != req.URL.String()
	if req.Method == http.MethodHead {
		out.Body = nil
	}
	return out, nil
}

// fetchHost is the bindings.FetchHost of the browser's realms.
type fetchHost struct{ b *Browser }

// StartFetch implements bindings.FetchHost: the request runs in a
// goroutine (counted as work in progress for RunUntilIdle until done has
// queued its task) and ends with the fetch's abort or the browser.
func (h fetchHost) StartFetch(ctx context.Context, req *FetchRequest, done func(*FetchResponse, error)) {
	b := h.b
	b.busy.Add(1)
	go func() {
		defer b.busy.Add(-1)
		b.guard(func() {
			fctx, cancel := context.WithCancel(b.ctx)
			defer cancel()
			stop := context.AfterFunc(ctx, cancel)
			defer stop()
			resp, err := b.fetchRequest(fctx, req)
			done(resp, err)
		})
	}()
}
