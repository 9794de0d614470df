package bindings

import (
	"errors"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/cachestorage"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/grafana/sobek"
)

// This file is CacheStorage (https://w3c.github.io/ServiceWorker/#cachestorage-interface)
// over package cachestorage, which keeps the name to cache map of the
// realm's storage key.

type cacheStorageImpl struct {
	webidl.Reflector
	realm *Realm
}

func (c *cacheStorageImpl) WebIDLInterface() string { return "CacheStorage" }

type cacheStorageKey struct{}

// cacheStorage is the realm's CacheStorage object ([SameObject]).
func (r *Realm) cacheStorage() *cacheStorageImpl {
	if c, ok := r.Value(cacheStorageKey{}).(*cacheStorageImpl); ok {
		return c
	}
	c := &cacheStorageImpl{realm: r}
	r.SetValue(cacheStorageKey{}, c)
	return c
}

// nameToCacheMap is the relevant name to cache map; a SecurityError when
// the realm has no storage key.
func (r *Realm) nameToCacheMap() (*cachestorage.Storage, error) {
	if r.env == nil {
		return nil, dom.NewDOMException("Cache storage is not available here.", dom.SecurityError)
	}
	s, err := cachestorage.Obtain(r.env)
	if err != nil {
		return nil, dom.NewDOMException("Cache storage is disabled: "+err.Error(), dom.SecurityError)
	}
	return s, nil
}

// cacheError converts an error of package cachestorage.
func cacheError(err error) error {
	var te *cachestorage.TypeError
	if errors.As(err, &te) {
		return webidl.NewTypeError("%s", te.Message)
	}
	return err
}

// Match is https://w3c.github.io/ServiceWorker/#cache-storage-match.
func (c *cacheStorageImpl) Match(request RequestInfo, options MultiCacheQueryOptions) (*webidl.Promise, error) {
	r := c.realm
	p := r.idl.NewPromise()
	s, err := r.nameToCacheMap()
	if err != nil {
		p.RejectError(err)
		return p, nil
	}
	q, err := r.cacheQueryRequest(request)
	if err != nil {
		p.RejectError(err)
		return p, nil
	}
	var name *string
	if options.CacheName.Present {
		n := string(options.CacheName.Value)
		name = &n
	}
	if q != nil {
		if resp, ok := s.Match(q, queryOptions(options.CacheQueryOptions), name); ok {
			p.Resolve(idlWrapResponse(r.idl, r.newResponseObject(fromFetchResponse(resp), guardImmutable)))
			return p, nil
		}
	}
	p.Resolve(sobek.Undefined())
	return p, nil
}

// Has is https://w3c.github.io/ServiceWorker/#cache-storage-has.
func (c *cacheStorageImpl) Has(name webidl.DOMString) (*webidl.Promise, error) {
	p := c.realm.idl.NewPromise()
	s, err := c.realm.nameToCacheMap()
	if err != nil {
		p.RejectError(err)
		return p, nil
	}
	p.Resolve(c.realm.vm.ToValue(s.Has(string(name))))
	return p, nil
}

// Open is https://w3c.github.io/ServiceWorker/#cache-storage-open.
func (c *cacheStorageImpl) Open(name webidl.DOMString) (*webidl.Promise, error) {
	r := c.realm
	p := r.idl.NewPromise()
	s, err := r.nameToCacheMap()
	if err != nil {
		p.RejectError(err)
		return p, nil
	}
	p.Resolve(idlWrapCache(r.idl, &cacheImpl{realm: r, c: s.Open(string(name))}))
	return p, nil
}

// Delete is https://w3c.github.io/ServiceWorker/#cache-storage-delete.
func (c *cacheStorageImpl) Delete(name webidl.DOMString) (*webidl.Promise, error) {
	p := c.realm.idl.NewPromise()
	s, err := c.realm.nameToCacheMap()
	if err != nil {
		p.RejectError(err)
		return p, nil
	}
	p.Resolve(c.realm.vm.ToValue(s.Delete(string(name))))
	return p, nil
}

// Keys is https://w3c.github.io/ServiceWorker/#cache-storage-keys.
func (c *cacheStorageImpl) Keys() (*webidl.Promise, error) {
	p := c.realm.idl.NewPromise()
	s, err := c.realm.nameToCacheMap()
	if err != nil {
		p.RejectError(err)
		return p, nil
	}
	p.Resolve(c.realm.vm.ToValue(s.Keys()))
	return p, nil
}

func queryOptions(o CacheQueryOptions) cachestorage.QueryOptions {
	return cachestorage.QueryOptions{IgnoreSearch: o.IgnoreSearch, IgnoreMethod: o.IgnoreMethod, IgnoreVary: o.IgnoreVary}
}

// cacheQueryRequest is the request of a match, matchAll, delete or keys
// argument: a Request's request (nil when its method is not GET and
// ignoreMethod is false is the caller's check), or a new Request's for a
// string.
func (r *Realm) cacheQueryRequest(info RequestInfo) (*fetch.Request, error) {
	o, err := r.newRequest(info, RequestInit{})
	if err != nil {
		return nil, err
	}
	return r.fetchRequest(o.req), nil
}

// requestFromRecord is a new Request object for a cached request
// record: its own headers and a new signal, never aborted.
func (r *Realm) requestFromRecord(fr *fetch.Request) *requestImpl {
	req := &request{method: fr.Method, url: cloneURLPtr(fr.CurrentURL()), headers: fr.Header.Clone(),
		mode: RequestMode(fr.Mode), credentials: RequestCredentials(fr.Credentials), cache: "default",
		redirect: RequestRedirect(fr.Redirect), referrer: fr.Referrer, referrerPolicy: ReferrerPolicy(fr.ReferrerPolicy),
		integrity: fr.Integrity, origin: r.originString()}
	if req.referrer == "" {
		req.referrer = "client"
	}
	o := &requestImpl{req: req}
	o.bodyOwner = bodyOwner{realm: r, headers: &req.headers}
	o.headers = newHeaders(&req.headers, guardImmutable)
	o.signal = r.signalImpl(dom.CreateADependentAbortSignal(nil))
	return o
}
