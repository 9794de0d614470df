package fetch

import (
	"bytes"
	"container/list"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gowebengine/weblocks/origin"
)

// HTTPCache is the user agent's HTTP cache
// (https://fetch.spec.whatwg.org/#concept-http-cache-partition), a
// private cache as HTTP Caching (RFC 9111) describes: responses to GET
// requests are stored per network partition key and URL, reused while
// fresh, revalidated with If-None-Match or If-Modified-Since once stale
// (a 304 freshens the stored response) and invalidated by unsafe
// requests. Each fetch's cache mode says how it uses the cache
// (HTTP-network-or-cache fetch). It lives in memory and is bounded:
// MaxBytes of bodies at most (the least recently used entries go
// first), and a body larger than MaxEntryBytes is not stored. The zero
// value is an empty cache with the default bounds; it is safe for
// concurrent use. Give the same cache to every fetch of a user agent
// (Params.HTTPCache).
type HTTPCache struct {
	// MaxBytes bounds the bodies the cache holds
	// (DefaultHTTPCacheMaxBytes when 0).
	MaxBytes int
	// MaxEntryBytes bounds one stored body (DefaultHTTPCacheMaxEntryBytes
	// when 0).
	MaxEntryBytes int
	// Now is the clock (nil: time.Now); tests set it.
	Now func() time.Time

	mu      sync.Mutex
	entries map[httpCacheKey]*list.Element // of *storedResponse
	lru     list.List                      // most recently used first
	size    int
}

// The default bounds of an HTTPCache.
const (
	DefaultHTTPCacheMaxBytes      = 32 << 20
	DefaultHTTPCacheMaxEntryBytes = 4 << 20
)

// httpCacheKey is the cache key of RFC 9111 section 2 (method GET and
// the target URI) within a partition (the network partition key).
type httpCacheKey struct {
	partition origin.Site
	url       string
}

// storedResponse is a response in the cache with what freshness and
// secondary keys need.
type storedResponse struct {
	key          httpCacheKey
	status       int
	statusText   string
	header       HeaderList
	body         []byte
	requestTime  time.Time
	responseTime time.Time
	// vary holds the values the request had for the header names of
	// the response's Vary.
	vary map[string]string
}

func (c *HTTPCache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

func (c *HTTPCache) maxBytes() int {
	if c.MaxBytes > 0 {
		return c.MaxBytes
	}
	return DefaultHTTPCacheMaxBytes
}

func (c *HTTPCache) maxEntryBytes() int {
	if c.MaxEntryBytes > 0 {
		return c.MaxEntryBytes
	}
	return DefaultHTTPCacheMaxEntryBytes
}

// Len is the number of stored responses, and Size the bytes of their
// bodies.
func (c *HTTPCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// Size is the bytes of the stored bodies.
func (c *HTTPCache) Size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}

// selectResponse is RFC 9111 section 4, "Constructing Responses from
// Caches": the stored response for a GET of u whose secondary keys
// (Vary) match the request's headers h, or nil. The caller decides
// whether it is fresh enough (fresh, below).
func (c *HTTPCache) selectResponse(partition origin.Site, u string, h http.Header) *storedResponse {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[httpCacheKey{partition, u}]
	if !ok {
		return nil
	}
	s := el.Value.(*storedResponse)
	for name, v := range s.vary {
		if strings.Join(h.Values(name), ", ") != v {
			return nil
		}
	}
	c.lru.MoveToFront(el)
	return s
}

// response is a new response of the stored one (its own header list and
// body).
func (s *storedResponse) response() *Response {
	r := &Response{Type: "default", Status: s.status, StatusText: s.statusText, Header: s.header.Clone(),
		Body: &Body{Source: bytes.Clone(s.body)}}
	if r.Body.Source == nil {
		r.Body.Source = []byte{}
	}
	return r
}

// fresh is RFC 9111 section 4.2: whether the stored response's freshness
// lifetime exceeds its current age, and the request allows it (its own
// Cache-Control no-cache or max-age, section 5.2.1; Pragma: no-cache
// without Cache-Control, section 5.4). A response with Cache-Control
// no-cache is never used without validation (section 5.2.2.4).
func (s *storedResponse) fresh(now time.Time, reqHeader http.Header) bool {
	cc := parseCacheControl(headerValues(s.header, "Cache-Control"))
	if _, ok := cc["no-cache"]; ok {
		return false
	}
	age := s.currentAge(now)
	if rcc := parseCacheControl(reqHeader.Values("Cache-Control")); len(rcc) > 0 {
		if _, ok := rcc["no-cache"]; ok {
			return false
		}
		if v, ok := rcc["max-age"]; ok {
			if n, err := strconv.ParseInt(v, 10, 64); err != nil || age > time.Duration(n)*time.Second {
				return false
			}
		}
	} else if strings.Contains(strings.ToLower(reqHeader.Get("Pragma")), "no-cache") {
		return false
	}
	return s.freshnessLifetime() > age
}

// freshnessLifetime is RFC 9111 section 4.2.1 for a private cache:
// max-age, else Expires minus Date, else the heuristic freshness of
// section 4.2.2 (10% of the time since Last-Modified, as browsers do),
// else zero.
func (s *storedResponse) freshnessLifetime() time.Duration {
	cc := parseCacheControl(headerValues(s.header, "Cache-Control"))
	if v, ok := cc["max-age"]; ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return 0
		}
		return time.Duration(n) * time.Second
	}
	date := s.date()
	if v, ok := s.header.Get("Expires"); ok {
		// An invalid Expires (such as "0") is in the past.
		exp, err := http.ParseTime(v)
		if err != nil || !exp.After(date) {
			return 0
		}
		return exp.Sub(date)
	}
	if v, ok := s.header.Get("Last-Modified"); ok && heuristicallyCacheable(s.status) {
		if lm, err := http.ParseTime(v); err == nil && date.After(lm) {
			return date.Sub(lm) / 10
		}
	}
	return 0
}

// date is the response's Date, or the time it was received.
func (s *storedResponse) date() time.Time {
	if v, ok := s.header.Get("Date"); ok {
		if d, err := http.ParseTime(v); err == nil {
			return d
		}
	}
	return s.responseTime
}

// currentAge is RFC 9111 section 4.2.3.
func (s *storedResponse) currentAge(now time.Time) time.Duration {
	apparent := max(s.responseTime.Sub(s.date()), 0)
	var ageValue time.Duration
	if v, ok := s.header.Get("Age"); ok {
		if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && n >= 0 {
			ageValue = time.Duration(n) * time.Second
		}
	}
	correctedAge := ageValue + s.responseTime.Sub(s.requestTime)
	return max(apparent, correctedAge) + now.Sub(s.responseTime)
}

// heuristicallyCacheable is RFC 9110 section 15.1's list of status codes
// whose responses may be stored without explicit freshness (206 aside:
// no range requests here).
func heuristicallyCacheable(status int) bool {
	switch status {
	case 200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501:
		return true
	}
	return false
}

// storeResponse is RFC 9111 section 3, "Storing Responses in Caches",
// for a GET request whose headers were reqHeader, sent at requestTime:
// resp is stored once its body is read, if the response may be stored
// and is of use (it can be fresh, or it can be validated).
func (c *HTTPCache) storeResponse(partition origin.Site, u string, reqHeader http.Header, requestTime time.Time, resp *Response) {
	// The request method is understood and cacheable (GET), the status
	// is final and understood, no-store is in neither Cache-Control, and
	// (a private cache) private is fine.
	if !heuristicallyCacheable(resp.Status) || resp.Body == nil {
		return
	}
	if _, ok := parseCacheControl(reqHeader.Values("Cache-Control"))["no-store"]; ok {
		return
	}
	cc := parseCacheControl(headerValues(resp.Header, "Cache-Control"))
	if _, ok := cc["no-store"]; ok {
		return
	}
	vary := map[string]string{}
	for _, name := range headerTokens(resp.Header, "Vary") {
		if name == "*" {
			return // never matches (section 4.1)
		}
		vary[http.CanonicalHeaderKey(name)] = strings.Join(reqHeader.Values(name), ", ")
	}
	s := &storedResponse{key: httpCacheKey{partition, u}, status: resp.Status, statusText: resp.StatusText,
		header: resp.Header.Clone(), requestTime: requestTime, vary: vary}
	_, hasETag := s.header.Get("ETag")
	_, hasLM := s.header.Get("Last-Modified")
	if !hasETag && !hasLM {
		// Without validators it is of use only while fresh.
		s.responseTime = c.now()
		if s.freshnessLifetime() <= 0 {
			return
		}
	}
	if v, ok := resp.Header.Get("Content-Length"); ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > c.maxEntryBytes() {
			return
		}
	}
	body := resp.Body
	body.OnLoad(func() {
		data, err := body.Result()
		if err != nil || len(data) > c.maxEntryBytes() {
			return
		}
		s.body = bytes.Clone(data)
		s.responseTime = c.now()
		c.put(s)
	})
}

// put stores s in place of the entry of its key, evicting the least
// recently used entries past MaxBytes.
func (c *HTTPCache) put(s *storedResponse) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[httpCacheKey]*list.Element{}
	}
	c.removeLocked(s.key)
	c.entries[s.key] = c.lru.PushFront(s)
	c.size += len(s.body)
	for c.size > c.maxBytes() {
		c.removeLocked(c.lru.Back().Value.(*storedResponse).key)
	}
}

func (c *HTTPCache) removeLocked(k httpCacheKey) {
	if el, ok := c.entries[k]; ok {
		c.size -= len(el.Value.(*storedResponse).body)
		c.lru.Remove(el)
		delete(c.entries, k)
	}
}

// invalidate is RFC 9111 section 4.4, "Invalidating Stored Responses":
// the stored response of the target URI goes (Location and
// Content-Location are not followed).
func (c *HTTPCache) invalidate(partition origin.Site, u string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.removeLocked(httpCacheKey{partition, u})
}

// freshen is RFC 9111 section 4.3.4, "Freshening Stored Responses upon
// Validation": the header fields of the 304 response replace the stored
// response's fields of the same names (Content-Length aside), and its
// times are the validation's. It returns the response to use.
func (c *HTTPCache) freshen(s *storedResponse, notModified *Response, requestTime time.Time) *Response {
	c.mu.Lock()
	defer c.mu.Unlock()
	header := s.header.Clone()
	replaced := map[string]bool{}
	for _, f := range notModified.Header {
		name := strings.ToLower(f.Name)
		if name == "content-length" {
			continue
		}
		if !replaced[name] {
			header.Delete(f.Name)
			replaced[name] = true
		}
		header.Append(f.Name, f.Value)
	}
	n := *s
	n.header, n.requestTime, n.responseTime = header, requestTime, c.now()
	if el, ok := c.entries[s.key]; ok && el.Value == s {
		el.Value = &n
	}
	return n.response()
}

// parseCacheControl parses Cache-Control field values into directives
// (lower-cased names; values unquoted, "" for none).
func parseCacheControl(values []string) map[string]string {
	out := map[string]string{}
	for _, v := range values {
		for _, d := range splitOutsideQuotes(v) {
			d = strings.TrimSpace(d)
			if d == "" {
				continue
			}
			name, val, _ := strings.Cut(d, "=")
			name = strings.ToLower(strings.TrimSpace(name))
			val = strings.TrimSpace(val)
			if len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"' {
				val = val[1 : len(val)-1]
			}
			if _, dup := out[name]; !dup {
				out[name] = val
			}
		}
	}
	return out
}

// splitOutsideQuotes splits s at the commas outside quoted strings.
func splitOutsideQuotes(s string) []string {
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			quoted = !quoted
		case '\\':
			if quoted {
				i++
			}
		case ',':
			if !quoted {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// headerValues is every value of name in l.
func headerValues(l HeaderList, name string) []string {
	var out []string
	for _, h := range l {
		if strings.EqualFold(h.Name, name) {
			out = append(out, h.Value)
		}
	}
	return out
}
