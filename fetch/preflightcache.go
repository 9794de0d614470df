package fetch

import (
	"strings"
	"sync"
	"time"

	"github.com/gowebengine/weblocks/origin"
)

// MaxAgeLimit is the imposed limit on a cache entry's max-age
// (https://fetch.spec.whatwg.org/#cors-preflight-fetch step 7.10): two
// hours, Chromium's limit (Firefox's is a day).
const MaxAgeLimit = 2 * time.Hour

// defaultMaxAge is the max-age of a preflight response without a valid
// Access-Control-Max-Age header (step 7.9).
const defaultMaxAge = 5 * time.Second

// maxCacheEntries bounds a CORS-preflight cache: past it, the entries
// closest to expiry go first ("Cache entries may be removed before that
// moment arrives"), so a page answering preflights with long lists of
// methods and headers cannot grow it without bound.
const maxCacheEntries = 4096

// CORSPreflightCache is https://fetch.spec.whatwg.org/#concept-cache,
// the user agent's CORS-preflight cache: a list of cache entries, each
// allowing one method or one header name for requests of one network
// partition key, request origin and URL, until it expires. The zero
// value is an empty cache; it is safe for concurrent use. Give the
// same cache to every fetch of a user agent (Params.PreflightCache); a
// fetch without one runs as a user agent that provides no cache.
type CORSPreflightCache struct {
	// Now is the clock (nil: time.Now); tests set it.
	Now func() time.Time

	mu      sync.Mutex
	entries []cacheEntry
}

// cacheEntry is https://fetch.spec.whatwg.org/#cache-entry. Method and
// HeaderName are "" for null; expires stands for max-age (the moment
// the entry was stored plus max-age).
type cacheEntry struct {
	key         origin.Site // the network partition key
	origin      string      // the byte-serialized origin
	url         string      // the URL, serialized
	expires     time.Time
	credentials bool
	method      string
	headerName  string
}

func (c *CORSPreflightCache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// NetworkPartitionKey is
// https://fetch.spec.whatwg.org/#request-determine-the-network-partition-key:
// the top-level site of the request's client (its second key is null
// here); the zero Site when the request has no client or the client did
// not say.
func (r *Request) NetworkPartitionKey() origin.Site {
	if r.Client == nil {
		return origin.Site{}
	}
	return r.Client.TopLevelSite
}

// cacheEntryMatch is https://fetch.spec.whatwg.org/#concept-cache-match,
// with the request's key, serialized origin and URL computed once.
func (e *cacheEntry) cacheEntryMatch(k cacheKey, now time.Time) bool {
	// An expired entry is gone: "Cache entries must be removed after
	// the seconds specified in their max-age field have passed".
	if !now.Before(e.expires) {
		return false
	}
	// entry's key, byte-serialized origin and URL are request's, and
	// entry's credentials is true, or false and request's credentials
	// mode is not "include".
	return e.key == k.key && e.origin == k.origin && e.url == k.url && (e.credentials || !k.credentials)
}

// cacheKey is what a request is matched on.
type cacheKey struct {
	key         origin.Site
	origin      string
	url         string
	credentials bool // request's credentials mode is "include"
}

func requestCacheKey(r *Request) cacheKey {
	return cacheKey{key: r.NetworkPartitionKey(), origin: serializeRequestOrigin(r), url: r.CurrentURL().String(),
		credentials: r.Credentials == "include"}
}

// methodCacheEntryMatch is
// https://fetch.spec.whatwg.org/#concept-cache-match-method: the index of
// an entry matching request whose method is method or `*`, or -1.
func (c *CORSPreflightCache) methodCacheEntryMatch(method string, k cacheKey, now time.Time) int {
	for i := range c.entries {
		e := &c.entries[i]
		if e.method != "" && (e.method == method || e.method == "*") && e.cacheEntryMatch(k, now) {
			return i
		}
	}
	return -1
}

// headerNameCacheEntryMatch is
// https://fetch.spec.whatwg.org/#concept-cache-match-header: the index of
// an entry matching request whose header name is a byte-case-insensitive
// match for headerName, or `*` when headerName is not a CORS
// non-wildcard request-header name (Authorization); or -1.
func (c *CORSPreflightCache) headerNameCacheEntryMatch(headerName string, k cacheKey, now time.Time) int {
	for i := range c.entries {
		e := &c.entries[i]
		if e.headerName == "" || !e.cacheEntryMatch(k, now) {
			continue
		}
		if strings.EqualFold(e.headerName, headerName) ||
			e.headerName == "*" && !strings.EqualFold(headerName, "Authorization") {
			return i
		}
	}
	return -1
}

// createNewCacheEntry is
// https://fetch.spec.whatwg.org/#concept-cache-create-entry.
func (c *CORSPreflightCache) createNewCacheEntry(k cacheKey, expires time.Time, method, headerName string) {
	// 1. Let entry be a cache entry: key, byte-serialized origin and URL
	//    of request, max-age, credentials true if request's credentials
	//    mode is "include", method and header name.
	e := cacheEntry{key: k.key, origin: k.origin, url: k.url, expires: expires, credentials: k.credentials,
		method: method, headerName: headerName}
	// 2. Append entry to the user agent's CORS-preflight cache (at the
	//    bound, after the one closest to expiry is dropped; store dropped
	//    the expired ones).
	if len(c.entries) >= maxCacheEntries {
		first := 0
		for i := range c.entries {
			if c.entries[i].expires.Before(c.entries[first].expires) {
				first = i
			}
		}
		c.entries = append(c.entries[:first], c.entries[first+1:]...)
	}
	c.entries = append(c.entries, e)
}

// dropExpired removes the entries whose max-age has passed.
func (c *CORSPreflightCache) dropExpired(now time.Time) {
	kept := c.entries[:0]
	for _, e := range c.entries {
		if now.Before(e.expires) {
			kept = append(kept, e)
		}
	}
	clear(c.entries[len(kept):])
	c.entries = kept
}

// clearCacheEntries is https://fetch.spec.whatwg.org/#concept-cache-clear:
// remove the entries whose key, byte-serialized origin and URL are
// request's (whatever their credentials).
func (c *CORSPreflightCache) clearCacheEntries(r *Request) {
	if c == nil {
		return
	}
	k := requestCacheKey(r)
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := c.entries[:0]
	for _, e := range c.entries {
		if e.key != k.key || e.origin != k.origin || e.url != k.url {
			kept = append(kept, e)
		}
	}
	clear(c.entries[len(kept):])
	c.entries = kept
}

// needsPreflight is the condition of step 4.1 of HTTP fetch
// (https://fetch.spec.whatwg.org/#concept-http-fetch), makeCORSPreflight
// being true: there is no method cache entry match for request's method
// and either the method is not CORS-safelisted or request's
// use-CORS-preflight flag is set; or one of the CORS-unsafe
// request-header names has no header-name cache entry match. A nil
// cache has no entries.
func (c *CORSPreflightCache) needsPreflight(r *Request) bool {
	methodNeeds := !IsCORSSafelistedMethod(r.Method) || r.UseCORSPreflight
	unsafe := CORSUnsafeRequestHeaderNames(r.Header)
	if c == nil {
		return methodNeeds || len(unsafe) > 0
	}
	k := requestCacheKey(r)
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if methodNeeds && c.methodCacheEntryMatch(r.Method, k, now) < 0 {
		return true
	}
	for _, n := range unsafe {
		if c.headerNameCacheEntryMatch(n, k, now) < 0 {
			return true
		}
	}
	return false
}

// store is steps 7.12-7.15 of CORS-preflight fetch
// (https://fetch.spec.whatwg.org/#cors-preflight-fetch): refresh or
// create an entry for each method and header name the preflight allowed.
func (c *CORSPreflightCache) store(r *Request, maxAge time.Duration, methods, headerNames []string) {
	k := requestCacheKey(r)
	now := c.now()
	expires := now.Add(maxAge)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropExpired(now)
	// 7.12-7.13. For each method in methods: set the matching entry's
	//      max-age to max-age, or create a new cache entry with request,
	//      max-age, method and null.
	for _, m := range methods {
		if i := c.methodCacheEntryMatch(m, k, now); i >= 0 {
			c.entries[i].expires = expires
		} else {
			c.createNewCacheEntry(k, expires, m, "")
		}
	}
	// 7.14-7.15. For each headerName in headerNames: likewise, with null
	//      and headerName.
	for _, h := range headerNames {
		if i := c.headerNameCacheEntryMatch(h, k, now); i >= 0 {
			c.entries[i].expires = expires
		} else {
			c.createNewCacheEntry(k, expires, "", h)
		}
	}
}

// Len returns the number of entries that have not expired.
func (c *CORSPreflightCache) Len() int {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.dropExpired(now)
	return len(c.entries)
}

// preflightMaxAge is steps 7.8-7.10 of CORS-preflight fetch: the result
// of extracting header list values given `Access-Control-Max-Age` (one
// delta-seconds value: 1*DIGIT), 5 seconds when that is failure or null,
// and at most MaxAgeLimit.
func preflightMaxAge(l HeaderList) time.Duration {
	var values []string
	for _, h := range l {
		if strings.EqualFold(h.Name, "Access-Control-Max-Age") {
			values = append(values, strings.Trim(h.Value, "\t "))
		}
	}
	// Null (no header) or failure (more than one header: its ABNF allows
	// a single one; or a value that is not 1*DIGIT).
	if len(values) != 1 || values[0] == "" {
		return defaultMaxAge
	}
	var secs int64
	for _, ch := range []byte(values[0]) {
		if ch < '0' || ch > '9' {
			return defaultMaxAge
		}
		if secs < int64(MaxAgeLimit/time.Second) {
			secs = secs*10 + int64(ch-'0')
		}
	}
	if d := time.Duration(secs) * time.Second; d < MaxAgeLimit {
		return d
	}
	return MaxAgeLimit
}

// extractTokenList is "extracting header list values"
// (https://fetch.spec.whatwg.org/#extract-header-list-values) for a
// header whose ABNF is a #token list (Access-Control-Allow-Methods:
// #method; Access-Control-Allow-Headers: #field-name): nil for null (no
// such header), ok false for failure (an element that is not a token).
// Empty elements are allowed, as in the # rule.
func extractTokenList(l HeaderList, name string) (values []string, ok bool) {
	for _, h := range l {
		if !strings.EqualFold(h.Name, name) {
			continue
		}
		if values == nil {
			values = []string{}
		}
		for _, t := range strings.Split(h.Value, ",") {
			t = strings.Trim(t, "\t ")
			if t == "" {
				continue
			}
			for i := 0; i < len(t); i++ {
				if !isTokenByte(t[i]) {
					return nil, false
				}
			}
			values = append(values, t)
		}
	}
	return values, true
}
