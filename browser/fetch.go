package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/gowebengine/weblocks/encoding"
	"github.com/gowebengine/weblocks/fetch"
)

// A Fetcher is the browser's network: the layer under package fetch
// (its HTTP-network fetch). Every load of the browser -- documents,
// iframes and popups, classic and module scripts, import(), worker and
// shared worker scripts, importScripts, scripts' fetch() -- is a request
// of package fetch, which applies the Fetch Standard (mode, destination,
// credentials, the client's origin, bad ports, Mixed Content, CORS,
// redirects, Referrer Policy) and hands each HTTP request it decides to
// send (each redirect hop and CORS preflight) to the Fetcher; data:,
// blob: and about:blank URLs and refused requests never reach it.
//
// Fetch sends one GET of u and returns the response as the server gave
// it: it must not follow redirects (a 3xx response with its Location in
// Header is followed by package fetch), and Response.URL is not used.
// A Fetcher that is also a RequestFetcher gets every request whole
// (method, headers such as Origin and Referer, body) through
// FetchRequest instead; one that is not gets GET and HEAD requests, by
// URL, through Fetch, and its responses need the headers CORS looks at
// (Access-Control-Allow-Origin) for cross-origin CORS loads (module
// scripts, scripts with crossorigin, fetch()) to succeed. Fetch is called
// from many goroutines. A network error (unreachable host, refused
// scheme, TLS failure) is an error; an HTTP error status is a Response
// with that status.
type Fetcher interface {
	Fetch(ctx context.Context, u *url.URL) (*Response, error)
}

// FetcherFunc adapts a function to Fetcher.
type FetcherFunc func(ctx context.Context, u *url.URL) (*Response, error)

// Fetch implements Fetcher.
func (f FetcherFunc) Fetch(ctx context.Context, u *url.URL) (*Response, error) { return f(ctx, u) }

// Response is a Fetcher's response.
type Response struct {
	// URL is the URL the response is for (the browser does not use it:
	// the response is the requested URL's, redirects being followed by
	// package fetch).
	URL         *url.URL
	Status      int
	ContentType string // the essence of the MIME type, lower case
	Charset     string // the charset parameter, lower case
	// Header holds the response's other headers (Location,
	// Access-Control-Allow-Origin, Referrer-Policy, ...); a Content-Type
	// in it is replaced by ContentType and Charset when ContentType is
	// set.
	Header http.Header
	Body   []byte
}

// OK reports whether the status is an ok status (200-299).
func (r *Response) OK() bool { return r.Status >= 200 && r.Status <= 299 }

// MaxResponseBytes bounds every response body HTTPFetcher reads, so a
// misbehaving server cannot exhaust memory.
const MaxResponseBytes = fetch.MaxResponseBytes

// HTTPFetcher fetches http and https URLs with an http.Client
// (http.DefaultClient when Client is nil). It is the default Fetcher.
// The client's redirect policy is not used: package fetch follows
// redirects as the Fetch Standard says.
type HTTPFetcher struct {
	Client *http.Client
}

// Fetch implements Fetcher: one GET of u with credentials (the client's
// cookie jar), its response as the server gave it (a redirect is not
// followed), its body read whole (at most MaxResponseBytes).
func (h HTTPFetcher) Fetch(ctx context.Context, u *url.URL) (*Response, error) {
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("browser: unsupported URL scheme %q", u.Scheme)
	}
	resp, err := h.FetchRequest(ctx, &FetchRequest{Method: http.MethodGet, URL: u, Header: http.Header{}, Credentials: true})
	if err != nil {
		return nil, err
	}
	body := resp.Body
	if resp.Stream != nil {
		body, err = io.ReadAll(io.LimitReader(resp.Stream, MaxResponseBytes+1))
		resp.Stream.Close()
		if err != nil {
			return nil, err
		}
		if len(body) > MaxResponseBytes {
			return nil, fmt.Errorf("browser: the response of %s exceeds %d bytes", u.Redacted(), MaxResponseBytes)
		}
	}
	r := &Response{URL: u, Status: resp.Status, Header: resp.Header, Body: body}
	r.ContentType, r.Charset = parseContentType(resp.Header.Get("Content-Type"))
	return r, nil
}

func parseContentType(ct string) (essence, charset string) {
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return "", ""
	}
	return strings.ToLower(mt), strings.ToLower(params["charset"])
}

// FSFetcher serves the files of FS for every http and https URL, whatever
// the host: the URL's path names the file (index.html for a directory
// path). The MIME type comes from the file name's extension. A missing file
// is a 404 response. It lets embedders and tests run pages without a
// server.
type FSFetcher struct {
	FS fs.FS
}

// Fetch implements Fetcher.
func (f FSFetcher) Fetch(ctx context.Context, u *url.URL) (*Response, error) {
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("browser: unsupported URL scheme %q", u.Scheme)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name := strings.TrimPrefix(path.Clean("/"+u.Path), "/")
	if name == "" || strings.HasSuffix(u.Path, "/") {
		name = path.Join(name, "index.html")
	}
	r := &Response{URL: u, Status: http.StatusOK}
	b, err := fs.ReadFile(f.FS, name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.Status, r.ContentType = http.StatusNotFound, "text/plain"
		return r, nil
	case err != nil:
		return nil, err
	}
	r.Body = b
	r.ContentType, r.Charset = parseContentType(mime.TypeByExtension(path.Ext(name)))
	if r.ContentType == "" {
		r.ContentType = "application/octet-stream"
	}
	return r, nil
}

// decodeText decodes a script or document body: a UTF-8 BOM is stripped and
// the rest is taken as UTF-8 (invalid sequences become U+FFFD, as the UTF-8
// decoder does). Other encodings are decoded as windows-1252 when declared
// (pages in other legacy encodings are not supported).
func decodeText(b []byte, charset string) string {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		b = b[3:]
	} else if charset != "" && charset != "utf-8" && charset != "utf8" && isLatin1Label(charset) {
		rs := make([]rune, len(b))
		for i, c := range b {
			rs[i] = rune(c)
		}
		return string(rs)
	}
	return encoding.UTF8DecodeWithoutBOM(b)
}

func isLatin1Label(l string) bool {
	switch l {
	case "iso-8859-1", "latin1", "windows-1252", "us-ascii", "ascii", "l1", "cp1252":
		return true
	}
	return false
}
