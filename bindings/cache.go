package bindings

import (
	"context"
	"net/url"
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/cachestorage"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/grafana/sobek"
)

// This file is Cache (https://w3c.github.io/ServiceWorker/#cache-interface)
// over a request response list of package cachestorage.

type cacheImpl struct {
	webidl.Reflector
	realm *Realm
	c     *cachestorage.Cache
}

func (c *cacheImpl) WebIDLInterface() string { return "Cache" }

// queryRequest is steps 1-2 of match, matchAll, delete and keys: the
// request of a RequestInfo (nil for an omitted one, and for a Request
// whose method is not GET without ignoreMethod, which matches nothing).
func (c *cacheImpl) queryRequest(info webidl.Optional[RequestInfo], o CacheQueryOptions) (*fetch.Request, bool, error) {
	if !info.Present {
		return nil, true, nil
	}
	q, err := c.realm.cacheQueryRequest(info.Value)
	if err != nil {
		return nil, false, err
	}
	if q.Method != "GET" && !o.IgnoreMethod {
		return nil, false, nil
	}
	return q, true, nil
}

// Match is https://w3c.github.io/ServiceWorker/#cache-match.
func (c *cacheImpl) Match(info RequestInfo, o CacheQueryOptions) (*webidl.Promise, error) {
	r := c.realm
	p := r.idl.NewPromise()
	q, ok, err := c.queryRequest(webidl.Some(info), o)
	if err != nil {
		p.RejectError(err)
		return p, nil
	}
	if ok {
		if all := c.c.MatchAll(q, queryOptions(o)); len(all) > 0 {
			p.Resolve(idlWrapResponse(r.idl, r.newResponseObject(fromFetchResponse(all[0]), guardImmutable)))
			return p, nil
		}
	}
	p.Resolve(sobek.Undefined())
	return p, nil
}

// MatchAll is https://w3c.github.io/ServiceWorker/#cache-matchall.
func (c *cacheImpl) MatchAll(info webidl.Optional[RequestInfo], o CacheQueryOptions) (*webidl.Promise, error) {
	r := c.realm
	p := r.idl.NewPromise()
	q, ok, err := c.queryRequest(info, o)
	if err != nil {
		p.RejectError(err)
		return p, nil
	}
	var out []any
	if ok {
		for _, resp := range c.c.MatchAll(q, queryOptions(o)) {
			out = append(out, idlWrapResponse(r.idl, r.newResponseObject(fromFetchResponse(resp), guardImmutable)))
		}
	}
	p.Resolve(r.frozenArray(out))
	return p, nil
}

// frozenArray is a frozen Array of values.
func (r *Realm) frozenArray(values []any) sobek.Value {
	arr := r.vm.NewArray(values...)
	if freeze, ok := sobek.AssertFunction(r.vm.Get("Object").ToObject(r.vm).Get("freeze")); ok {
		freeze(sobek.Undefined(), arr)
	}
	return arr
}

// Add is https://w3c.github.io/ServiceWorker/#cache-add: addAll of one
// request.
func (c *cacheImpl) Add(info RequestInfo) (*webidl.Promise, error) {
	return c.AddAll([]RequestInfo{info})
}

// AddAll is https://w3c.github.io/ServiceWorker/#cache-addAll.
func (c *cacheImpl) AddAll(infos []RequestInfo) (*webidl.Promise, error) {
	r := c.realm
	p := r.idl.NewPromise()
	// 1-3. For each request whose info is requests: let r be the request
	//    of a new Request; if its URL's scheme is not http(s) or its
	//    method is not GET, reject with a TypeError.
	var reqs []*requestImpl
	for _, info := range infos {
		o, err := r.newRequest(info, RequestInit{})
		if err != nil {
			p.RejectError(err)
			return p, nil
		}
		if s := o.req.url.Scheme; (s != "http" && s != "https") || o.req.method != "GET" {
			p.RejectError(webidl.NewTypeError("Failed to execute 'addAll' on 'Cache': Request scheme '%s' or method '%s' is unsupported", s, o.req.method))
			return p, nil
		}
		reqs = append(reqs, o)
	}
	// 4-5. For each request: fetch it (destination "", initiator
	//    "fetch"); a network error, a response whose status is not ok
	//    or 206, or whose Vary is *, rejects; otherwise read its body.
	ops := make([]cachestorage.Operation, len(reqs))
	pending := len(reqs)
	failed := false
	fail := func(err error) {
		if !failed {
			failed = true
			p.RejectError(err)
		}
	}
	if pending == 0 {
		p.Resolve(sobek.Undefined())
		return p, nil
	}
	for i, o := range reqs {
		fr := r.fetchRequest(o.req)
		r.fetch(context.Background(), o.req, func(resp *response) {
			if failed {
				return
			}
			if resp.typ == "error" {
				fail(webidl.NewTypeError("Failed to execute 'addAll' on 'Cache': Request failed"))
				return
			}
			if resp.status < 200 || resp.status > 299 || resp.status == 206 {
				fail(webidl.NewTypeError("Failed to execute 'addAll' on 'Cache': Request failed with status %d", resp.status))
				return
			}
			if v, ok := resp.headers.Get("Vary"); ok && containsStar(v) {
				fail(webidl.NewTypeError("Failed to execute 'addAll' on 'Cache': Vary header contains *"))
				return
			}
			r.responseRecord(resp, func(rec *fetch.Response) {
				ops[i] = cachestorage.Operation{Type: "put", Request: fr, Response: rec}
				pending--
				if pending > 0 || failed {
					return
				}
				// 6. Batch cache operations with the put operations.
				if _, err := c.c.BatchCacheOperations(ops); err != nil {
					fail(cacheError(err))
					return
				}
				p.Resolve(sobek.Undefined())
			}, func(reason sobek.Value) {
				if !failed {
					failed = true
					p.Reject(reason)
				}
			})
		})
	}
	return p, nil
}

func containsStar(vary string) bool {
	for _, f := range strings.Split(vary, ",") {
		if strings.TrimSpace(f) == "*" {
			return true
		}
	}
	return false
}

// responseRecord reads resp's body whole and gives the response record
// to store, or the reason its body could not be read.
func (r *Realm) responseRecord(resp *response, done func(*fetch.Response), failure func(sobek.Value)) {
	rec := &fetch.Response{Type: string(resp.typ), Status: int(resp.status), StatusText: resp.statusText, Header: resp.headers.Clone()}
	if resp.url != nil {
		rec.URLList = []*url.URL{cloneURLPtr(resp.url)}
	}
	if resp.body == nil {
		done(rec)
		return
	}
	r.fullyReadBody(resp.body, func(data []byte) {
		rec.Body = &fetch.Body{Source: data}
		done(rec)
	}, failure)
}

// Put is https://w3c.github.io/ServiceWorker/#cache-put.
func (c *cacheImpl) Put(info RequestInfo, responseArg ResponseMethods) (*webidl.Promise, error) {
	r := c.realm
	p := r.idl.NewPromise()
	// 1-3. Let innerRequest be the request of a Request (a Request whose
	//    method is not GET is a TypeError); the URL's scheme must be
	//    http(s).
	o, err := r.newRequest(info, RequestInit{})
	if err != nil {
		p.RejectError(err)
		return p, nil
	}
	if info.Type == RequestInfoIsRequest && o.req.method != "GET" {
		p.RejectError(webidl.NewTypeError("Failed to execute 'put' on 'Cache': Request method '%s' is unsupported", o.req.method))
		return p, nil
	}
	if s := o.req.url.Scheme; s != "http" && s != "https" {
		p.RejectError(webidl.NewTypeError("Failed to execute 'put' on 'Cache': Request scheme '%s' is unsupported", s))
		return p, nil
	}
	// 4. Let innerResponse be response's response.
	resp := responseArg.idlImpl()
	// 5. If innerResponse's status is 206, reject with a TypeError.
	if resp.resp.status == 206 {
		p.RejectError(webidl.NewTypeError("Failed to execute 'put' on 'Cache': Partial response (status code 206) is unsupported"))
		return p, nil
	}
	// 6. If innerResponse's header list contains Vary with *, reject with
	//    a TypeError.
	if v, ok := resp.resp.headers.Get("Vary"); ok && containsStar(v) {
		p.RejectError(webidl.NewTypeError("Failed to execute 'put' on 'Cache': Vary header contains *"))
		return p, nil
	}
	// 7. If innerResponse's body is disturbed or locked, reject with a
	//    TypeError.
	if resp.isUnusable() {
		p.RejectError(webidl.NewTypeError("Failed to execute 'put' on 'Cache': Response body is already used"))
		return p, nil
	}
	fr := r.fetchRequest(o.req)
	// 8-13. Read the body whole, then batch cache operations with a put
	//    operation; resolve with undefined.
	r.responseRecord(resp.resp, func(rec *fetch.Response) {
		if _, err := c.c.BatchCacheOperations([]cachestorage.Operation{{Type: "put", Request: fr, Response: rec}}); err != nil {
			p.RejectError(cacheError(err))
			return
		}
		p.Resolve(sobek.Undefined())
	}, func(reason sobek.Value) { p.Reject(reason) })
	if resp.body != nil {
		resp.body.used = true
	}
	return p, nil
}

// Delete is https://w3c.github.io/ServiceWorker/#cache-delete.
func (c *cacheImpl) Delete(info RequestInfo, o CacheQueryOptions) (*webidl.Promise, error) {
	r := c.realm
	p := r.idl.NewPromise()
	q, ok, err := c.queryRequest(webidl.Some(info), o)
	if err != nil {
		p.RejectError(err)
		return p, nil
	}
	if !ok {
		p.Resolve(r.vm.ToValue(false))
		return p, nil
	}
	removed, err := c.c.BatchCacheOperations([]cachestorage.Operation{{Type: "delete", Request: q, Options: queryOptions(o)}})
	if err != nil {
		p.RejectError(cacheError(err))
		return p, nil
	}
	p.Resolve(r.vm.ToValue(len(removed) > 0))
	return p, nil
}

// Keys is https://w3c.github.io/ServiceWorker/#cache-keys: new Request
// objects for the cached requests (with new signals: an abort signal is
// not stored).
func (c *cacheImpl) Keys(info webidl.Optional[RequestInfo], o CacheQueryOptions) (*webidl.Promise, error) {
	r := c.realm
	p := r.idl.NewPromise()
	q, ok, err := c.queryRequest(info, o)
	if err != nil {
		p.RejectError(err)
		return p, nil
	}
	var out []any
	if ok {
		for _, fr := range c.c.Keys(q, queryOptions(o)) {
			out = append(out, idlWrapRequest(r.idl, r.requestFromRecord(fr)))
		}
	}
	p.Resolve(r.frozenArray(out))
	return p, nil
}
