package goproduct

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// DefaultHosts are the host names of the WPT host set: web-platform.test,
// its www, www1 and www2 subdomains, and not-web-platform.test.
var DefaultHosts = []string{
	"web-platform.test",
	"www.web-platform.test",
	"www1.web-platform.test",
	"www2.web-platform.test",
	"not-web-platform.test",
	"www.not-web-platform.test",
	"www1.not-web-platform.test",
	"www2.not-web-platform.test",
}

// maxResponseBytes bounds every response body the product reads, so a
// misbehaving server cannot exhaust memory.
const maxResponseBytes = 64 << 20

// Loader fetches test resources over HTTP(S). Requests to the WPT host names
// are dialed on the loopback address at the same port, and HTTPS trusts the
// runner's generated certificate; any other host is refused, so a test never
// reaches the network.
type Loader struct {
	client *http.Client
	hosts  map[string]bool
}

// LoaderOptions configure a Loader.
type LoaderOptions struct {
	// Hosts are the names mapped to Loopback; DefaultHosts when empty.
	Hosts []string
	// Loopback is the IP the hosts resolve to; "127.0.0.1" when empty.
	Loopback string
	// RootCAs is the pool the HTTPS client trusts (the runner's certificate).
	RootCAs *x509.CertPool
}

// NewLoader returns a Loader for the given options.
func NewLoader(o LoaderOptions) *Loader {
	hosts := o.Hosts
	if len(hosts) == 0 {
		hosts = DefaultHosts
	}
	loop := o.Loopback
	if loop == "" {
		loop = "127.0.0.1"
	}
	l := &Loader{hosts: map[string]bool{}}
	for _, h := range hosts {
		l.hosts[strings.ToLower(h)] = true
	}
	// "localhost" and loopback literals are always allowed: they are local.
	l.hosts["localhost"] = true
	dialer := &net.Dialer{Timeout: 10 * time.Second}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		h := strings.ToLower(host)
		if ip := net.ParseIP(h); ip != nil {
			if !ip.IsLoopback() {
				return nil, fmt.Errorf("goproduct: refusing non-loopback address %s", addr)
			}
			return dialer.DialContext(ctx, network, addr)
		}
		if !l.hosts[h] {
			return nil, fmt.Errorf("goproduct: host %q is not a WPT host", host)
		}
		return dialer.DialContext(ctx, network, net.JoinHostPort(loop, port))
	}
	tr := &http.Transport{
		DialContext:         dial,
		TLSClientConfig:     &tls.Config{RootCAs: o.RootCAs, MinVersion: tls.VersionTLS12},
		MaxIdleConnsPerHost: 8,
		IdleConnTimeout:     30 * time.Second,
		Proxy:               nil,
		ForceAttemptHTTP2:   false,
	}
	l.client = &http.Client{
		Transport: tr,
		// Redirects are followed (fetch's default "follow" mode), at most 20.
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 20 {
				return errors.New("too many redirects")
			}
			return nil
		},
	}
	return l
}

// Close releases idle connections.
func (l *Loader) Close() { l.client.CloseIdleConnections() }

// Resource is a fetched response.
type Resource struct {
	URL         *url.URL // the response URL (after redirects)
	Status      int
	ContentType string // the essence of the MIME type, lower case
	Charset     string
	Body        []byte
}

// OK reports whether the status is an ok status (200-299).
func (r *Resource) OK() bool { return r.Status >= 200 && r.Status <= 299 }

// Fetch GETs u. A network error (unreachable host, refused scheme, TLS
// failure) is returned as an error; HTTP error statuses are not errors.
func (l *Loader) Fetch(ctx context.Context, u *url.URL) (*Resource, error) {
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("goproduct: unsupported URL scheme %q", u.Scheme)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxResponseBytes {
		return nil, fmt.Errorf("goproduct: response for %s exceeds %d bytes", u, maxResponseBytes)
	}
	r := &Resource{URL: resp.Request.URL, Status: resp.StatusCode, Body: body}
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		if mt, params, err := mime.ParseMediaType(ct); err == nil {
			r.ContentType = strings.ToLower(mt)
			r.Charset = strings.ToLower(params["charset"])
		}
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
// decoder does). Other encodings are decoded as windows-1252 when declared,
// because WPT resources are ASCII or UTF-8 in practice.
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
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

func isLatin1Label(l string) bool {
	switch l {
	case "iso-8859-1", "latin1", "windows-1252", "us-ascii", "ascii", "l1", "cp1252":
		return true
	}
	return false
}
