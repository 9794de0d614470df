package browser

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/gowebengine/weblocks/encoding"
	"github.com/gowebengine/weblocks/fetch"
)

// A Fetcher gets the resources a browser loads: documents, classic scripts,
// worker scripts and importScripts. Fetch is called from many goroutines.
// A network error (unreachable host, refused scheme, TLS failure) is an
// error; an HTTP error status is a Response with that status.
type Fetcher interface {
	Fetch(ctx context.Context, u *url.URL) (*Response, error)
}

// FetcherFunc adapts a function to Fetcher.
type FetcherFunc func(ctx context.Context, u *url.URL) (*Response, error)

// Fetch implements Fetcher.
func (f FetcherFunc) Fetch(ctx context.Context, u *url.URL) (*Response, error) { return f(ctx, u) }

// Response is a fetched resource.
type Response struct {
	URL         *url.URL // the response URL (after redirects)
	Status      int
	ContentType string // the essence of the MIME type, lower case
	Charset     string // the charset parameter, lower case
	Body        []byte
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

// Fetch implements Fetcher: a GET of u as a top-level navigation request
// (package fetch: bad ports refused, redirects followed with the
// standard's steps, at most 20).
func (h HTTPFetcher) Fetch(ctx context.Context, u *url.URL) (*Response, error) {
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("browser: unsupported URL scheme %q", u.Scheme)
	}
	req := fetch.NewRequest(u, nil)
	req.Mode, req.Credentials, req.Destination, req.TopLevel = "navigate", "include", "document", true
	resp := fetch.FetchWhole(ctx, &fetch.Params{Request: req, Network: fetch.HTTPNetwork{Client: h.Client}})
	if resp.IsNetworkError() {
		return nil, resp.Err
	}
	r := &Response{URL: resp.URL(), Status: resp.Status}
	if resp.Body != nil {
		r.Body = resp.Body.Source
	}
	if ct, ok := resp.Header.Get("Content-Type"); ok && ct != "" {
		r.ContentType, r.Charset = parseContentType(ct)
	}
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

// isJavaScriptMIME reports whether essence is a JavaScript MIME type essence
// (MIME Sniffing, "JavaScript MIME type").
func isJavaScriptMIME(essence string) bool {
	switch essence {
	case "application/ecmascript", "application/javascript", "application/x-ecmascript",
		"application/x-javascript", "text/ecmascript", "text/javascript", "text/javascript1.0",
		"text/javascript1.1", "text/javascript1.2", "text/javascript1.3", "text/javascript1.4",
		"text/javascript1.5", "text/jscript", "text/livescript", "text/x-ecmascript",
		"text/x-javascript":
		return true
	}
	return false
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
