// Package cachestorage is the Cache API of Service Workers
// (https://w3c.github.io/ServiceWorker/#cache-objects) in plain Go: a
// storage key's name to cache map (kept in the "caches" bottle of its
// default bucket, a storage endpoint of package storage), request
// response lists, query cache, request matches cached item (URL without
// fragment, ignoreSearch, ignoreMethod, Vary), and batch cache
// operations. Requests and responses are package fetch's records; the
// JavaScript Cache and CacheStorage objects are package bindings'.
//
// # Deviations
//
//   - The caches live in memory, as long as the user agent's storage
//     shed: nothing is written to disk.
//   - Operations run at once on the caller's goroutine (the maps are
//     guarded by a mutex) instead of on a cache job queue; a response's
//     body is read whole before it is stored.
package cachestorage

import (
	"net/url"
	"strings"
	"sync"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/storage"
)

// StorageEndpoint is the "caches" storage endpoint identifier (package
// storage registers it): a storage key's name to cache map is the
// associated value of its default bucket's "caches" bottle.
const StorageEndpoint = "caches"

// TypeError is an error the bindings throw as a TypeError.
type TypeError struct{ Message string }

func (e *TypeError) Error() string { return e.Message }

// Entry is a request response pair, a cached item.
type Entry struct {
	Request  *fetch.Request
	Response *fetch.Response
}

// Cache is a request response list
// (https://w3c.github.io/ServiceWorker/#dfn-request-response-list).
type Cache struct {
	mu   sync.Mutex
	list []Entry
}

// QueryOptions is CacheQueryOptions.
type QueryOptions struct {
	IgnoreSearch, IgnoreMethod, IgnoreVary bool
}

// Storage is a name to cache map
// (https://w3c.github.io/ServiceWorker/#dfn-relevant-name-to-cache-map):
// cache names in insertion order.
type Storage struct {
	mu     sync.Mutex
	names  []string
	caches map[string]*Cache
}

// Obtain returns the name to cache map of env's storage key (its "caches"
// bottle's), creating it the first time; the shelf stays pinned: the
// caches live as long as the storage shed.
func Obtain(env storage.Environment) (*Storage, error) {
	m, err := storage.ObtainALocalStorageBottleMap(env, StorageEndpoint)
	if err != nil {
		return nil, err
	}
	b := m.Bottle()
	return b.Associated(func() any {
		b.Pin()
		return &Storage{caches: map[string]*Cache{}}
	}).(*Storage), nil
}

// Open is steps 2.1-2.3 of https://w3c.github.io/ServiceWorker/#cache-storage-open:
// the cache named name, created when there is none.
func (s *Storage) Open(name string) *Cache {
	s.mu.Lock()
	defer s.mu.Unlock()
	// 2.1. For each key → value of the relevant name to cache map: if
	//      cacheName matches key, resolve with a new Cache object for
	//      value.
	if c := s.caches[name]; c != nil {
		return c
	}
	// 2.2. Let cache be a new request response list. 2.3. Set the
	//      relevant name to cache map[cacheName] to cache.
	c := &Cache{}
	s.caches[name] = c
	s.names = append(s.names, name)
	return c
}

// Has is https://w3c.github.io/ServiceWorker/#cache-storage-has.
func (s *Storage) Has(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caches[name] != nil
}

// Delete is https://w3c.github.io/ServiceWorker/#cache-storage-delete:
// false when there is no cache named name.
func (s *Storage) Delete(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	// 1. Let cacheExists be the result of running has(cacheName).
	if s.caches[name] == nil {
		return false
	}
	// 2.2. Remove the relevant name to cache map[cacheName].
	delete(s.caches, name)
	for i, n := range s.names {
		if n == name {
			s.names = append(s.names[:i:i], s.names[i+1:]...)
			break
		}
	}
	return true
}

// Keys is https://w3c.github.io/ServiceWorker/#cache-storage-keys: the
// names in the order they were created.
func (s *Storage) Keys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.names...)
}

// Match is https://w3c.github.io/ServiceWorker/#cache-storage-match:
// with cacheName nil, the first match in the caches in key order.
func (s *Storage) Match(q *fetch.Request, opts QueryOptions, cacheName *string) (*fetch.Response, bool) {
	s.mu.Lock()
	var caches []*Cache
	if cacheName != nil {
		// 1. If options["cacheName"] exists: for each key → cache, if it
		//    matches, resolve with the result of running match on a new
		//    Cache object; else resolve with undefined.
		if c := s.caches[*cacheName]; c != nil {
			caches = append(caches, c)
		}
	} else {
		// 2. Otherwise: for each cacheName → cache of the map, in order,
		//    run match; if the result is not undefined, resolve with it.
		for _, n := range s.names {
			caches = append(caches, s.caches[n])
		}
	}
	s.mu.Unlock()
	for _, c := range caches {
		if r := c.MatchAll(q, opts); len(r) > 0 {
			return r[0], true
		}
	}
	return nil, false
}

// MatchAll is steps 2-5 of https://w3c.github.io/ServiceWorker/#cache-matchall
// for a request (nil: every response): copies of the responses.
func (c *Cache) MatchAll(q *fetch.Request, opts QueryOptions) []*fetch.Response {
	// (A request whose method is not GET matches nothing unless
	// ignoreMethod: step 2.2 of matchAll.)
	if q != nil && q.Method != "GET" && !opts.IgnoreMethod {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*fetch.Response
	for _, e := range c.queryCache(q, opts, c.list) {
		out = append(out, copyResponse(e.Response))
	}
	return out
}

// Keys is steps of https://w3c.github.io/ServiceWorker/#cache-keys: the
// requests of the matching entries (all of them for a nil request).
func (c *Cache) Keys(q *fetch.Request, opts QueryOptions) []*fetch.Request {
	if q != nil && q.Method != "GET" && !opts.IgnoreMethod {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []*fetch.Request
	for _, e := range c.queryCache(q, opts, c.list) {
		out = append(out, copyRequest(e.Request))
	}
	return out
}

// queryCache is https://w3c.github.io/ServiceWorker/#query-cache; a nil
// requestQuery matches every entry.
func (c *Cache) queryCache(requestQuery *fetch.Request, opts QueryOptions, targetStorage []Entry) []Entry {
	// 1. Let resultList be an empty list.
	var result []Entry
	// 2. Let storage be targetStorage (or the cache's list).
	// 3. For each requestResponse of storage:
	for _, e := range targetStorage {
		// 3.1-3.2. If requestMatchesCachedItem with requestQuery,
		//      cachedRequest, cachedResponse and options returns true,
		//      append copies of them to resultList.
		if requestQuery == nil || RequestMatchesCachedItem(requestQuery, e.Request, e.Response, opts) {
			result = append(result, e)
		}
	}
	// 4. Return resultList.
	return result
}

// RequestMatchesCachedItem is https://w3c.github.io/ServiceWorker/#request-matches-cached-item-algorithm.
func RequestMatchesCachedItem(requestQuery, request *fetch.Request, response *fetch.Response, opts QueryOptions) bool {
	// 1. If options["ignoreMethod"] is false and request's method is not
	//    `GET`, return false.
	if !opts.IgnoreMethod && request.Method != "GET" {
		return false
	}
	// 2-3. Let queryURL be requestQuery's URL and cachedURL be request's
	//    URL.
	// 4. If options["ignoreSearch"] is true, set both URLs' queries to the
	//    empty string.
	// 5. If queryURL does not equal cachedURL with the exclude fragment
	//    flag set, then return false.
	if urlKey(requestQuery.URLList[0], opts.IgnoreSearch) != urlKey(request.URLList[0], opts.IgnoreSearch) {
		return false
	}
	// 6. If response is null, options["ignoreVary"] is true, or
	//    response's header list does not contain `Vary`, return true.
	if response == nil || opts.IgnoreVary {
		return true
	}
	vary, ok := response.Header.Get("Vary")
	if !ok {
		return true
	}
	// 7. Let fieldValues be the list of elements of the Vary header.
	// 8. For each fieldValue: if it matches "*", or the combined value
	//    of fieldValue in request's header list does not match the one
	//    in requestQuery's header list, return false.
	for _, f := range strings.Split(vary, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if f == "*" {
			return false
		}
		a, aok := request.Header.Get(f)
		b, bok := requestQuery.Header.Get(f)
		if a != b || aok != bok {
			return false
		}
	}
	// 9. Return true.
	return true
}

// urlKey is u serialized without its fragment (and its query when
// ignoreSearch).
func urlKey(u *url.URL, ignoreSearch bool) string {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	if ignoreSearch {
		c.RawQuery, c.ForceQuery = "", false
	}
	return c.String()
}

// Operation is a cache batch operation
// (https://w3c.github.io/ServiceWorker/#dfn-cache-batch-operation).
type Operation struct {
	// Type is "delete" or "put".
	Type     string
	Request  *fetch.Request
	Response *fetch.Response // put only
	Options  QueryOptions    // delete only
}

// BatchCacheOperations is https://w3c.github.io/ServiceWorker/#batch-cache-operations-algorithm:
// it returns the entries the operations touched (removed for a delete,
// added for a put), or a TypeError or InvalidStateError (the cache
// unchanged).
func (c *Cache) BatchCacheOperations(ops []Operation) ([]Entry, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	// 1. Let cache be the relevant request response list. 2. Let
	//    backupCache be a copy of cache.
	cache := append([]Entry(nil), c.list...)
	// 3. Let addedItems be an empty list; resultList is what the
	//    operations removed (deletes) and added (puts).
	var added, result []Entry
	// 4. For each operation in operations:
	for _, op := range ops {
		// 4.2.1. If operation's type matches neither "delete" nor "put",
		//        throw a TypeError.
		if op.Type != "delete" && op.Type != "put" {
			return nil, &TypeError{"Cache operation type must be 'delete' or 'put'"}
		}
		// 4.2.2. If operation's type matches "delete" and operation's
		//        response is not null, throw a TypeError.
		if op.Type == "delete" && op.Response != nil {
			return nil, &TypeError{"A delete operation has no response"}
		}
		// 4.2.3. If the result of running query cache with operation's
		//        request, operation's options, and addedItems is not
		//        empty, throw an "InvalidStateError" DOMException.
		if len(c.queryCache(op.Request, op.Options, added)) > 0 {
			return nil, dom.NewDOMException("Duplicate requests in one cache batch", dom.InvalidStateError)
		}
		// 4.2.4. Let requestResponses be an empty list.
		var requestResponses []Entry
		if op.Type == "delete" {
			// 4.2.5. If operation's type matches "delete": set
			//        requestResponses to the result of running query
			//        cache with operation's request and options; for each
			//        requestResponse, remove the item whose value matches
			//        it from cache.
			requestResponses = c.queryCache(op.Request, op.Options, cache)
			cache = removeEntries(cache, requestResponses)
		} else {
			// 4.2.6. Else if operation's type matches "put":
			// 4.2.6.1. If operation's response is null, throw a TypeError.
			if op.Response == nil {
				return nil, &TypeError{"A put operation needs a response"}
			}
			// 4.2.6.3-4. If r's URL's scheme is not one of "http" and
			//        "https", throw a TypeError.
			if s := op.Request.URLList[0].Scheme; s != "http" && s != "https" {
				return nil, &TypeError{"Request scheme '" + s + "' is unsupported"}
			}
			// 4.2.6.5. If r's method is not `GET`, throw a TypeError.
			if op.Request.Method != "GET" {
				return nil, &TypeError{"Request method '" + op.Request.Method + "' is unsupported"}
			}
			// 4.2.6.6. If operation's options is not null, throw a
			//        TypeError. (Puts take none.)
			// 4.2.6.7. Set requestResponses to the result of running
			//        query cache with operation's request.
			requestResponses = c.queryCache(op.Request, QueryOptions{}, cache)
			// 4.2.6.8. For each requestResponse of requestResponses,
			//        remove it from cache.
			cache = removeEntries(cache, requestResponses)
			// 4.2.6.9. Append operation's request and response to cache.
			e := Entry{Request: copyRequest(op.Request), Response: copyResponse(op.Response)}
			cache = append(cache, e)
			// 4.2.6.12. Append the pair to addedItems.
			added = append(added, e)
		}
		// 4.2.7. (resultList gets the items the operation touched.)
		if op.Type == "delete" {
			result = append(result, requestResponses...)
		} else {
			result = append(result, added[len(added)-1])
		}
	}
	// 4.3. (On an exception, cache is left as backupCache: the copy is
	//      dropped.) 4.4. Return resultList.
	c.list = cache
	return result, nil
}

func removeEntries(list, remove []Entry) []Entry {
	out := list[:0:0]
	for _, e := range list {
		keep := true
		for _, r := range remove {
			if e.Request == r.Request {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, e)
		}
	}
	return out
}

// copyRequest copies a request record: its URL, method, headers, mode,
// credentials, redirect and referrer; its body is not kept.
func copyRequest(r *fetch.Request) *fetch.Request {
	c := *r
	c.URLList = []*url.URL{cloneURL(r.URLList[len(r.URLList)-1])}
	c.Header = r.Header.Clone()
	c.Body = nil
	return &c
}

// copyResponse copies a response record whose body is in memory.
func copyResponse(r *fetch.Response) *fetch.Response {
	c := *r
	c.Header = r.Header.Clone()
	c.URLList = append([]*url.URL(nil), r.URLList...)
	if r.Body != nil {
		c.Body = &fetch.Body{Source: r.Body.Source}
	}
	if r.Internal != nil {
		c.Internal = copyResponse(r.Internal)
	}
	return &c
}

func cloneURL(u *url.URL) *url.URL {
	c := *u
	if u.User != nil {
		uu := *u.User
		c.User = &uu
	}
	return &c
}
