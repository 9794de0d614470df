package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/origin"
)

// cacheNet is a network for the HTTP cache tests: handler answers, and
// every request it gets is logged ("METHOD path header=value ...").
type cacheNet struct {
	mu      sync.Mutex
	log     []string
	handler func(nr *NetworkRequest) *NetworkResponse
}

func (n *cacheNet) Send(ctx context.Context, nr *NetworkRequest) (*NetworkResponse, error) {
	var hs []string
	for _, name := range []string{"If-None-Match", "If-Modified-Since", "Cache-Control", "Pragma"} {
		if v := nr.Header.Get(name); v != "" {
			hs = append(hs, name+"="+v)
		}
	}
	n.mu.Lock()
	n.log = append(n.log, strings.TrimSpace(nr.Method+" "+nr.URL.Path+" "+strings.Join(hs, " ")))
	n.mu.Unlock()
	return n.handler(nr), nil
}

func (n *cacheNet) take() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	l := n.log
	n.log = nil
	return l
}

// cacheFetch fetches path (GET unless method is given) from a client of
// top-level site site with cache mode mode, reading the body; it returns
// "status body X-Served" or "error".
func cacheFetch(t *testing.T, c *HTTPCache, n Network, site, path, mode string, header ...string) string {
	t.Helper()
	method := "GET"
	if m, rest, ok := strings.Cut(path, " "); ok {
		method, path = m, rest
	}
	u, _ := url.Parse("https://a.test" + path)
	client := &Client{Origin: origin.Parse("https://a.test"), TopLevelSite: origin.ObtainSite(origin.Parse(site))}
	req := NewRequest(u, client)
	req.Method, req.Mode, req.Cache = method, "same-origin", mode
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Append(header[i], header[i+1])
	}
	resp := FetchWhole(context.Background(), &Params{Request: req, Network: n, HTTPCache: c})
	if resp.IsNetworkError() {
		return "error"
	}
	var b []byte
	if resp.Body != nil {
		b, _ = resp.Body.Result()
	}
	served, _ := resp.Header.Get("X-Served")
	return fmt.Sprintf("%d %s %s", resp.Status, b, served)
}

// TestHTTPCacheConditionalGET: a response with an ETag and no freshness
// is revalidated with If-None-Match; the 304 freshens it (its headers
// merged) and the stored 200 is the response; a request with its own
// If-None-Match bypasses the cache (no-store) and gets the 304.
func TestHTTPCacheConditionalGET(t *testing.T) {
	n := &cacheNet{handler: func(nr *NetworkRequest) *NetworkResponse {
		if nr.Header.Get("If-None-Match") == `"v1"` {
			return &NetworkResponse{Status: 304, Header: http.Header{"X-Served": {"304"}}}
		}
		return &NetworkResponse{Status: 200, Header: http.Header{"Etag": {`"v1"`}}, Body: []byte("body")}
	}}
	c := &HTTPCache{}
	site := "https://a.test"
	steps := []struct{ got, want string }{
		{cacheFetch(t, c, n, site, "/r", ""), "200 body "},
		{cacheFetch(t, c, n, site, "/r", ""), "200 body 304"},
		{cacheFetch(t, c, n, site, "/r", "", "If-None-Match", `"v1"`), "304  304"},
	}
	for i, s := range steps {
		if s.got != s.want {
			t.Errorf("fetch %d: %q, want %q", i+1, s.got, s.want)
		}
	}
	want := []string{"GET /r", `GET /r If-None-Match="v1"`, `GET /r If-None-Match="v1" Cache-Control=no-cache Pragma=no-cache`}
	if got := n.take(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("network saw:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestHTTPCacheModes: freshness (max-age, then Last-Modified
// revalidation once stale) and each cache mode of Fetch.
func TestHTTPCacheModes(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	version := 1
	lm := now.Add(-time.Hour).Format(http.TimeFormat)
	n := &cacheNet{handler: func(nr *NetworkRequest) *NetworkResponse {
		if nr.Header.Get("If-Modified-Since") == lm && version == 1 {
			return &NetworkResponse{Status: 304, Header: http.Header{"Date": {now.Format(http.TimeFormat)}}}
		}
		return &NetworkResponse{Status: 200, Header: http.Header{"Cache-Control": {"max-age=60"}, "Last-Modified": {lm},
			"Date": {now.Format(http.TimeFormat)}}, Body: []byte(fmt.Sprint("v", version))}
	}}
	c := &HTTPCache{Now: func() time.Time { return now }}
	site := "https://a.test"
	check := func(what, got, want string, network ...string) {
		t.Helper()
		if got != want {
			t.Errorf("%s: %q, want %q", what, got, want)
		}
		if log := n.take(); strings.Join(log, "|") != strings.Join(network, "|") {
			t.Errorf("%s: network saw %q, want %q", what, log, network)
		}
	}
	check("first", cacheFetch(t, c, n, site, "/m", ""), "200 v1 ", "GET /m")
	check("fresh", cacheFetch(t, c, n, site, "/m", ""), "200 v1 ")
	check("other partition", cacheFetch(t, c, n, "https://b.test", "/m", ""), "200 v1 ", "GET /m")
	check("no-store", cacheFetch(t, c, n, site, "/m", "no-store"), "200 v1 ", "GET /m Cache-Control=no-cache Pragma=no-cache")
	check("no-cache", cacheFetch(t, c, n, site, "/m", "no-cache"), "200 v1 ", "GET /m If-Modified-Since="+lm+" Cache-Control=max-age=0")
	check("request no-cache header", cacheFetch(t, c, n, site, "/m", "", "Cache-Control", "no-cache"), "200 v1 ", "GET /m If-Modified-Since="+lm+" Cache-Control=no-cache")
	now = now.Add(2 * time.Minute)
	check("force-cache, stale", cacheFetch(t, c, n, site, "/m", "force-cache"), "200 v1 ")
	check("only-if-cached, stale", cacheFetch(t, c, n, site, "/m", "only-if-cached"), "200 v1 ")
	check("only-if-cached, missing", cacheFetch(t, c, n, site, "/none", "only-if-cached"), "error")
	check("stale: revalidated", cacheFetch(t, c, n, site, "/m", ""), "200 v1 ", "GET /m If-Modified-Since="+lm)
	check("freshened by the 304", cacheFetch(t, c, n, site, "/m", ""), "200 v1 ")
	version = 2
	check("reload", cacheFetch(t, c, n, site, "/m", "reload"), "200 v2 ", "GET /m Cache-Control=no-cache Pragma=no-cache")
	check("reload stored", cacheFetch(t, c, n, site, "/m", ""), "200 v2 ")
	check("unsafe method", cacheFetch(t, c, n, site, "POST /m", ""), "200 v2 ", "POST /m")
	version = 3
	check("invalidated", cacheFetch(t, c, n, site, "/m", ""), "200 v3 ", "GET /m")
}

// TestHTTPCacheStorageRules: no-store, Vary and responses without
// validators or freshness; and the bounds: a body over MaxEntryBytes is
// not stored, and the least recently used entries go past MaxBytes.
func TestHTTPCacheStorageRules(t *testing.T) {
	n := &cacheNet{handler: func(nr *NetworkRequest) *NetworkResponse {
		h := http.Header{"Cache-Control": {"max-age=600"}}
		body := []byte("x")
		switch nr.URL.Path {
		case "/no-store":
			h.Set("Cache-Control", "no-store")
		case "/plain":
			h.Del("Cache-Control")
		case "/vary":
			h.Set("Vary", "X-Lang")
			body = []byte(nr.Header.Get("X-Lang"))
		case "/vary-star":
			h.Set("Vary", "*")
		case "/big":
			body = make([]byte, 100)
		case "/500":
			return &NetworkResponse{Status: 500, Header: h}
		default:
			body = make([]byte, 40)
		}
		return &NetworkResponse{Status: 200, Header: h, Body: body}
	}}
	c := &HTTPCache{MaxEntryBytes: 64, MaxBytes: 100}
	site := "https://a.test"
	for _, path := range []string{"/no-store", "/plain", "/vary-star", "/big", "/500"} {
		cacheFetch(t, c, n, site, path, "")
		cacheFetch(t, c, n, site, path, "")
		if got := len(n.take()); got != 2 {
			t.Errorf("%s: %d requests, want 2 (not stored)", path, got)
		}
	}
	if got := cacheFetch(t, c, n, site, "/vary", "", "X-Lang", "en"); got != "200 en " {
		t.Errorf("vary en: %q", got)
	}
	if got := cacheFetch(t, c, n, site, "/vary", "", "X-Lang", "fr"); got != "200 fr " {
		t.Errorf("vary fr: %q", got)
	}
	if got := cacheFetch(t, c, n, site, "/vary", "", "X-Lang", "fr"); got != "200 fr " {
		t.Errorf("vary fr again: %q", got)
	}
	if got := len(n.take()); got != 2 {
		t.Errorf("vary: %d requests, want 2", got)
	}
	// 40-byte bodies: the third evicts the least recently used.
	for _, p := range []string{"/a", "/b", "/a", "/c"} {
		cacheFetch(t, c, n, site, p, "")
	}
	if got := n.take(); strings.Join(got, " ") != "GET /a GET /b GET /c" {
		t.Errorf("network saw %q", got)
	}
	if c.Size() > 100 {
		t.Errorf("the cache holds %d bytes, over its 100", c.Size())
	}
	cacheFetch(t, c, n, site, "/a", "")
	cacheFetch(t, c, n, site, "/b", "")
	if got := n.take(); strings.Join(got, " ") != "GET /b" {
		t.Errorf("after eviction: network saw %q, want /b only (the least recently used)", got)
	}
}
