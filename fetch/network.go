package fetch

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
)

// NetworkRequest is one HTTP request as it goes on the wire: what
// https://fetch.spec.whatwg.org/#concept-http-network-fetch sends.
type NetworkRequest struct {
	Method string
	URL    *url.URL // without fragment
	Header http.Header
	Body   []byte
	// BodyStream, when not nil, is a body whose source is null (read
	// from a ReadableStream as it is sent; Body is nil then). Fetch
	// says it goes only over HTTP/2 or later: a network that would send
	// it over an HTTP/1.x connection returns ErrStreamingUploadHTTP1
	// (or an error wrapping it) without sending the request.
	BodyStream io.Reader
	// Credentials says whether to include credentials (cookies).
	Credentials bool
}

// ErrStreamingUploadHTTP1 is the network's error for a request whose
// body is a stream on a connection that is HTTP/1.x
// (https://fetch.spec.whatwg.org/#concept-http-network-fetch: "if
// connection is an HTTP/1.x connection, request's body is non-null, and
// request's body's source is null, then return a network error").
var ErrStreamingUploadHTTP1 = errors.New("fetch: a request body that is a stream is sent only over HTTP/2 or later, and the connection is HTTP/1.x")

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
	var h1 *atomic.Bool
	switch {
	case req.BodyStream != nil:
		// A body whose source is null goes only over HTTP/2: the
		// connection net/http picked is closed before the request is
		// written when it is not an h2 one, and the body is read only
		// once an h2 connection was reported.
		h1 = new(atomic.Bool)
		h2 := new(atomic.Bool)
		ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
			if isHTTP2Conn(info.Conn) {
				h2.Store(true)
				return
			}
			h1.Store(true)
			info.Conn.Close()
		}})
		body = &h2OnlyBody{r: req.BodyStream, h2: h2}
	case req.Body != nil:
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
		if h1 != nil && h1.Load() || errors.Is(err, ErrStreamingUploadHTTP1) {
			return nil, ErrStreamingUploadHTTP1
		}
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

// isHTTP2Conn reports whether c is a TLS connection that negotiated h2.
func isHTTP2Conn(c net.Conn) bool {
	t, ok := c.(interface{ ConnectionState() tls.ConnectionState })
	return ok && t.ConnectionState().NegotiatedProtocol == "h2"
}

// h2OnlyBody is a streamed request body that fails its reads unless an
// HTTP/2 connection carries it.
type h2OnlyBody struct {
	r  io.Reader
	h2 *atomic.Bool
}

func (b *h2OnlyBody) Read(p []byte) (int, error) {
	if !b.h2.Load() {
		return 0, ErrStreamingUploadHTTP1
	}
	return b.r.Read(p)
}
