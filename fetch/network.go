package fetch

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// NetworkRequest is one HTTP request as it goes on the wire: what
// https://fetch.spec.whatwg.org/#concept-http-network-fetch sends.
type NetworkRequest struct {
	Method string
	URL    *url.URL // without fragment
	Header http.Header
	Body   []byte
	// Credentials says whether to include credentials (cookies).
	Credentials bool
}

// NetworkResponse is the network's answer to a NetworkRequest.
type NetworkResponse struct {
	Status int
	// StatusText is the status message ("OK"); empty is fine.
	StatusText string
	Header     http.Header
	// Body is the body's bytes, unless Stream is set: then the body is
	// read from Stream (and Stream closed) after the response is handed
	// on, so that a response is available when its headers are.
	Body   []byte
	Stream io.ReadCloser
}

// Network is the embedder's network: it sends one request and returns
// the response as the server gave it. It never follows redirects (fetch
// does, as the standard says). An HTTP error status is a response; an
// error is a network error. A streamed body must end when ctx does.
type Network interface {
	Send(ctx context.Context, req *NetworkRequest) (*NetworkResponse, error)
}

// NetworkFunc adapts a function to Network.
type NetworkFunc func(ctx context.Context, req *NetworkRequest) (*NetworkResponse, error)

// Send implements Network.
func (f NetworkFunc) Send(ctx context.Context, req *NetworkRequest) (*NetworkResponse, error) {
	return f(ctx, req)
}

// MaxResponseBytes bounds every response body fetch reads.
const MaxResponseBytes = 64 << 20

// HTTPNetwork is the default Network: net/http with Client
// (http.DefaultClient when nil), its redirect policy replaced so that a
// redirect response is returned, and its cookie jar used only for
// requests with credentials.
type HTTPNetwork struct {
	Client *http.Client
}

// Send implements Network.
func (h HTTPNetwork) Send(ctx context.Context, req *NetworkRequest) (*NetworkResponse, error) {
	if !isHTTPScheme(req.URL.Scheme) {
		return nil, fmt.Errorf("fetch: unsupported URL scheme %q", req.URL.Scheme)
	}
	client := http.DefaultClient
	if h.Client != nil {
		client = h.Client
	}
	c := *client
	if !req.Credentials {
		c.Jar = nil
	}
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
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
	return &NetworkResponse{
		Status:     resp.StatusCode,
		StatusText: strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)+" "),
		Header:     resp.Header,
		Stream:     ctxBody{ctx, resp.Body},
	}, nil
}

// ctxBody is a response body whose read ends with ctx's error once ctx
// is done: net/http may report the end of a body it stopped reading for
// a canceled context as io.EOF.
type ctxBody struct {
	ctx context.Context
	io.ReadCloser
}

func (b ctxBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		if cerr := b.ctx.Err(); cerr != nil {
			return n, cerr
		}
	}
	return n, err
}
