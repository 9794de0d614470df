package fetch

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/origin"
)

// preflightServer answers every request to b.test: preflights (OPTIONS)
// with the headers in allow, other requests with ACAO (and ACAC for
// credentialed ones) and status 200, or 500 when fail says so. It logs
// "METHOD path" per request.
type preflightServer struct {
	mu    sync.Mutex
	log   []string
	allow http.Header
	fail  bool // the actual request is answered without ACAO
}

func (s *preflightServer) Send(_ context.Context, req *NetworkRequest) (*NetworkResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, req.Method+" "+req.URL.Path)
	h := http.Header{}
	if req.Method == "OPTIONS" {
		h = s.allow.Clone()
	} else if !s.fail {
		h.Set("Access-Control-Allow-Origin", req.Header.Get("Origin"))
		h.Set("Access-Control-Allow-Credentials", "true")
	}
	return &NetworkResponse{Status: 200, Header: h}, nil
}

// preflights counts the OPTIONS requests logged so far and clears the log.
func (s *preflightServer) preflights() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, l := range s.log {
		if strings.HasPrefix(l, "OPTIONS ") {
			n++
		}
	}
	s.log = nil
	return n
}

func allowHeaders(kv ...string) http.Header {
	h := http.Header{}
	h.Set("Access-Control-Allow-Origin", "http://a.test")
	h.Set("Access-Control-Allow-Credentials", "true")
	for i := 0; i+1 < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

// fakeClock is a settable clock for a cache.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

type preflightCase struct {
	method, path, credentials string
	headers                   []string // name, value pairs
	page                      string   // the client's URL (default http://a.test/)
	topLevel                  string   // the client's top-level site's origin (default: none)
}

func (c preflightCase) run(t *testing.T, srv *preflightServer, cache *CORSPreflightCache) *Response {
	t.Helper()
	page := c.page
	if page == "" {
		page = "http://a.test/"
	}
	req := scriptRequest(t, page, "http://b.test"+c.path)
	req.Method = c.method
	if c.credentials != "" {
		req.Credentials = c.credentials
	}
	for i := 0; i+1 < len(c.headers); i += 2 {
		req.Header.Append(c.headers[i], c.headers[i+1])
	}
	if c.topLevel != "" {
		req.Client.TopLevelSite = origin.ObtainSite(origin.Parse(c.topLevel))
	}
	return FetchWhole(context.Background(), &Params{Request: req, Network: srv, PreflightCache: cache})
}

func TestPreflightCache(t *testing.T) {
	put := preflightCase{method: "PUT", path: "/r", headers: []string{"X-Test", "1"}}
	type step struct {
		name       string
		c          preflightCase
		advance    time.Duration
		preflights int
		fails      bool
	}
	for _, tc := range []struct {
		name  string
		allow http.Header
		nil   bool // no cache at all
		steps []step
	}{
		{name: "max-age 60", allow: allowHeaders("Access-Control-Allow-Methods", "PUT", "Access-Control-Allow-Headers", "X-Test", "Access-Control-Max-Age", "60"),
			steps: []step{
				{name: "first", c: put, preflights: 1},
				{name: "cached", c: put, advance: 59 * time.Second, preflights: 0},
				{name: "other URL", c: preflightCase{method: "PUT", path: "/other", headers: []string{"X-Test", "1"}}, preflights: 1},
				{name: "other origin", c: preflightCase{method: "PUT", path: "/r", headers: []string{"X-Test", "1"}, page: "http://c.test/"}, fails: true, preflights: 1},
				{name: "other partition", c: preflightCase{method: "PUT", path: "/r", headers: []string{"X-Test", "1"}, topLevel: "http://d.test"}, preflights: 1},
				{name: "credentials include: entry made without them does not match", c: preflightCase{method: "PUT", path: "/r", headers: []string{"X-Test", "1"}, credentials: "include"}, preflights: 1},
				{name: "an entry made with credentials matches without", c: put, preflights: 0},
				{name: "safelisted method, cached header", c: preflightCase{method: "POST", path: "/r", headers: []string{"x-test", "1"}}, preflights: 0},
				{name: "header not allowed before", c: preflightCase{method: "PUT", path: "/r", headers: []string{"X-Other", "1"}}, fails: true, preflights: 1},
				{name: "the failure cleared the URL's entries", c: put, preflights: 1},
				{name: "expired", c: put, advance: 61 * time.Second, preflights: 1},
			}},
		{name: "no Access-Control-Max-Age: 5 seconds", allow: allowHeaders("Access-Control-Allow-Methods", "PUT", "Access-Control-Allow-Headers", "X-Test"),
			steps: []step{
				{name: "first", c: put, preflights: 1},
				{name: "within 5 s", c: put, advance: 4 * time.Second, preflights: 0},
				{name: "after 5 s", c: put, advance: 2 * time.Second, preflights: 1},
			}},
		{name: "max-age 0 caches nothing", allow: allowHeaders("Access-Control-Allow-Methods", "PUT", "Access-Control-Allow-Headers", "X-Test", "Access-Control-Max-Age", "0"),
			steps: []step{{name: "first", c: put, preflights: 1}, {name: "again", c: put, preflights: 1}}},
		{name: "invalid max-age is 5 seconds", allow: allowHeaders("Access-Control-Allow-Methods", "PUT", "Access-Control-Allow-Headers", "X-Test", "Access-Control-Max-Age", "-1"),
			steps: []step{{name: "first", c: put, preflights: 1}, {name: "4 s", c: put, advance: 4 * time.Second, preflights: 0}, {name: "6 s", c: put, advance: 2 * time.Second, preflights: 1}}},
		{name: "max-age capped at two hours", allow: allowHeaders("Access-Control-Allow-Methods", "PUT", "Access-Control-Allow-Headers", "X-Test", "Access-Control-Max-Age", "99999999999999999999"),
			steps: []step{{name: "first", c: put, preflights: 1}, {name: "1h59", c: put, advance: 119 * time.Minute, preflights: 0}, {name: "2h01", c: put, advance: 2 * time.Minute, preflights: 1}}},
		{name: "wildcards", allow: allowHeaders("Access-Control-Allow-Methods", "*", "Access-Control-Allow-Headers", "*, Authorization", "Access-Control-Max-Age", "60"),
			steps: []step{
				{name: "first", c: put, preflights: 1},
				{name: "any method, any header", c: preflightCase{method: "DELETE", path: "/r", headers: []string{"X-Any", "1"}}, preflights: 0},
				{name: "Authorization is cached by name", c: preflightCase{method: "DELETE", path: "/r", headers: []string{"Authorization", "x"}}, preflights: 0},
			}},
		{name: "wildcard does not cover Authorization", allow: allowHeaders("Access-Control-Allow-Methods", "*", "Access-Control-Allow-Headers", "*", "Access-Control-Max-Age", "60"),
			steps: []step{
				{name: "first", c: put, preflights: 1},
				{name: "Authorization", c: preflightCase{method: "PUT", path: "/r", headers: []string{"Authorization", "x"}}, fails: true, preflights: 1},
			}},
		{name: "no cache: every preflight is sent", nil: true, allow: allowHeaders("Access-Control-Allow-Methods", "PUT", "Access-Control-Allow-Headers", "X-Test", "Access-Control-Max-Age", "60"),
			steps: []step{{name: "first", c: put, preflights: 1}, {name: "again", c: put, preflights: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := &preflightServer{allow: tc.allow}
			clock := &fakeClock{t: time.Unix(1e9, 0)}
			cache := &CORSPreflightCache{Now: clock.now}
			if tc.nil {
				cache = nil
			}
			for _, s := range tc.steps {
				clock.advance(s.advance)
				resp := s.c.run(t, srv, cache)
				if resp.IsNetworkError() != s.fails {
					t.Errorf("%s: network error %v (%v), want %v", s.name, resp.IsNetworkError(), resp.Err, s.fails)
				}
				if n := srv.preflights(); n != s.preflights {
					t.Errorf("%s: %d preflights, want %d", s.name, n, s.preflights)
				}
			}
		})
	}
}

// A failing CORS request clears the cache entries of its URL: the next
// request is preflighted again.
func TestPreflightCacheClearedOnFailure(t *testing.T) {
	srv := &preflightServer{allow: allowHeaders("Access-Control-Allow-Methods", "PUT", "Access-Control-Allow-Headers", "X-Test", "Access-Control-Max-Age", "600")}
	cache := &CORSPreflightCache{}
	put := preflightCase{method: "PUT", path: "/r", headers: []string{"X-Test", "1"}}
	if resp := put.run(t, srv, cache); resp.IsNetworkError() || srv.preflights() != 1 || cache.Len() != 2 {
		t.Fatalf("first: %v, %d entries", resp.Err, cache.Len())
	}
	srv.fail = true
	if resp := put.run(t, srv, cache); !resp.IsNetworkError() || srv.preflights() != 0 {
		t.Fatalf("failing request: %v", resp.Type)
	}
	if cache.Len() != 0 {
		t.Errorf("%d entries left after the failure", cache.Len())
	}
	srv.fail = false
	if resp := put.run(t, srv, cache); resp.IsNetworkError() || srv.preflights() != 1 {
		t.Errorf("after the failure: %v", resp.Err)
	}
}

// Methods and header names that are not tokens make the preflight fail
// (extracting header list values returns failure), and nothing is cached.
func TestPreflightInvalidAllowLists(t *testing.T) {
	for _, allow := range []http.Header{
		allowHeaders("Access-Control-Allow-Methods", "PUT, P(T", "Access-Control-Allow-Headers", "X-Test"),
		allowHeaders("Access-Control-Allow-Methods", "PUT", "Access-Control-Allow-Headers", "X-Test, x y"),
	} {
		srv := &preflightServer{allow: allow}
		cache := &CORSPreflightCache{}
		resp := preflightCase{method: "PUT", path: "/r", headers: []string{"X-Test", "1"}}.run(t, srv, cache)
		if !resp.IsNetworkError() || cache.Len() != 0 {
			t.Errorf("%v: %s, %d entries", allow, resp.Type, cache.Len())
		}
	}
}

// A preflight listing many methods and header names cannot grow the
// cache past its bound.
func TestPreflightCacheBounded(t *testing.T) {
	names := make([]string, 3*maxCacheEntries)
	for i := range names {
		names[i] = fmt.Sprintf("X-H%d", i)
	}
	srv := &preflightServer{allow: allowHeaders("Access-Control-Allow-Methods", "PUT", "Access-Control-Allow-Headers", "X-Test,"+strings.Join(names, ","), "Access-Control-Max-Age", "600")}
	cache := &CORSPreflightCache{}
	for i := 0; i < 3; i++ {
		c := preflightCase{method: "PUT", path: fmt.Sprintf("/r%d", i), headers: []string{"X-Test", "1"}}
		if resp := c.run(t, srv, cache); resp.IsNetworkError() {
			t.Fatal(resp.Err)
		}
	}
	if n := cache.Len(); n != maxCacheEntries {
		t.Errorf("%d entries, want the bound %d", n, maxCacheEntries)
	}
}

func TestPreflightMaxAge(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   time.Duration
	}{
		{nil, 5 * time.Second},
		{[]string{"600"}, 600 * time.Second},
		{[]string{" 7 "}, 7 * time.Second},
		{[]string{"1", "2"}, 5 * time.Second}, // more than one header: failure
		{[]string{"1.5"}, 5 * time.Second},
		{[]string{""}, 5 * time.Second},
		{[]string{"7200"}, MaxAgeLimit},
		{[]string{"7201"}, MaxAgeLimit},
		{[]string{"184467440737095516160"}, MaxAgeLimit},
	} {
		var l HeaderList
		for _, v := range tc.values {
			l.Append("Access-Control-Max-Age", v)
		}
		if got := preflightMaxAge(l); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.values, got, tc.want)
		}
	}
}
