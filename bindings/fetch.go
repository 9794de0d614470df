package bindings

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/url"

	"github.com/gowebengine/weblocks/csp/container"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/fileapi"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/serviceworker"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/streams"
	"github.com/grafana/sobek"
)

// This file is fetch() (https://fetch.spec.whatwg.org/#fetch-method) and
// the parts of "fetch" and "main fetch" a realm runs itself: mode checks,
// CORS preflight and check, response tainting and filtering. Sending a
// request over the network is the embedder's part (FetchHost).

// FetchHost runs the fetches of a realm's fetch() calls.
type FetchHost interface {
	// StartFetch runs fetch.Fetch(ctx, p) without blocking the caller
	// (the realm's event loop), with the host's network as p.Network,
	// calls done exactly once, from any goroutine, with the response (a
	// network error included), and then runs the response's Load. ctx
	// ends when the fetch is aborted.
	StartFetch(ctx context.Context, p *fetch.Params, done func(*fetch.Response))
}

type fetchHostKey struct{}

// SetFetchHost sets the host that sends the network requests of fetch().
// Call it right after creating the realm, before scripts run. Without a
// host, fetch() rejects every request with a TypeError (network error).
func (r *Realm) SetFetchHost(h FetchHost) { r.SetValue(fetchHostKey{}, h) }

func (r *Realm) fetchHost() FetchHost {
	h, _ := r.Value(fetchHostKey{}).(FetchHost)
	return h
}

// fetchMethod is https://fetch.spec.whatwg.org/#dom-global-fetch.
func (r *Realm) fetchMethod(input RequestInfo, init RequestInit) *webidl.Promise {
	// 1. Let p be a new promise.
	p := r.idl.NewPromise()
	// 2. Let requestObject be the result of invoking the initial value of
	// Request as constructor with input and init as arguments. If this
	// throws an exception, reject p with it and return p.
	requestObject, err := r.newRequest(input, init)
	if err != nil {
		p.RejectError(err)
		return p
	}
	// 3. Let request be requestObject's request.
	req := requestObject.req
	// 4. If requestObject's signal is aborted, then abort the fetch() call
	// with p, request, null, and requestObject's signal's abort reason,
	// and return p.
	sig := requestObject.signal
	if sig.sig.Aborted() {
		r.abortFetchCall(p, req, nil, sig.abortReason())
		return p
	}
	// 5-8. (No service workers; the request's client is this realm's.)
	// 9. Let responseObject be null.
	var responseObject *responseImpl
	// 11. Let locallyAborted be false.
	locallyAborted := false
	// 12. Let controller be null.
	ctx, cancel := context.WithCancel(context.Background())
	// The fetch group of a realm that closes (its document unloaded, its
	// worker terminated) is terminated: the request ends with it, unless
	// its keepalive is true (a fetch started in unload or pagehide
	// outlives its document).
	go func() {
		if req.keepalive {
			return
		}
		select {
		case <-r.closedCh:
			cancel()
		case <-ctx.Done():
		}
	}()
	// 13. Add the following abort steps to requestObject's signal:
	id := sig.sig.AddAlgorithm(func() {
		// 13.1. Set locallyAborted to true.
		locallyAborted = true
		// 13.3-13.4. Abort the fetch() call with p, request,
		// responseObject, and requestObject's signal's abort reason.
		r.abortFetchCall(p, req, responseObject, sig.abortReason())
		// 13.5. Abort controller with the abort reason.
		cancel()
	})
	// 14. Set controller to the result of calling fetch given request and
	// processResponse given response being these steps:
	r.fetch(ctx, req, func(resp *response) {
		// 14.1. If locallyAborted is true, then abort these steps.
		if locallyAborted {
			return
		}
		// 14.3. If response is a network error, then reject p with a
		// TypeError and abort these steps.
		if resp.typ == "error" {
			sig.sig.RemoveAlgorithm(id)
			cancel()
			p.RejectError(webidl.NewTypeError("Failed to fetch"))
			return
		}
		// The abort steps stay, as the standard says: an abort errors the
		// body's stream while it is readable, all of the body arrived or
		// not. The network read ends with the body (or the abort).
		if resp.body != nil && resp.body.net != nil {
			resp.body.net.OnLoad(func() { r.fetchTask(cancel) })
			// Canceling the body's stream ends the fetch.
			resp.body.terminate = cancel
		} else if resp.internalBody != nil {
			// An opaque response's body is read (and its connection
			// kept) until it ends or the fetch is aborted.
			resp.internalBody.OnLoad(func() { r.fetchTask(cancel) })
		} else {
			sig.sig.RemoveAlgorithm(id)
			cancel()
		}
		// 14.4. Set responseObject to the result of creating a Response
		// object, given response, "immutable", and relevantRealm.
		responseObject = r.newResponseObject(resp, guardImmutable)
		// 14.5. Resolve p with responseObject.
		p.Resolve(idlWrapResponse(r.idl, responseObject))
	})
	// 15. Return p.
	return p
}

// abortFetchCall is https://fetch.spec.whatwg.org/#abort-fetch.
func (r *Realm) abortFetchCall(p *webidl.Promise, req *request, responseObject *responseImpl, reason sobek.Value) {
	// 1. Reject promise with error (a no-op when it already settled).
	p.Reject(reason)
	// 2. If request's body is non-null and is readable, then cancel
	// request's body with error.
	if b := req.body; b != nil && b.stream != nil && b.stream.s.State() == streams.Readable {
		r.streamHost().MarkHandled(streams.ReadableStreamCancel(b.stream.s, reason))
	}
	// 3. If responseObject is null, then return.
	if responseObject == nil {
		return
	}
	// 4-5. If response's body is non-null and is readable, then error
	// response's body with error (its readers reject with it; the
	// aborted network read ends with the fetch's context).
	if b := responseObject.body; b != nil {
		if s := r.bodyStream(b).s; s.State() == streams.Readable {
			streams.Error(s, reason)
		}
	}
}

// fetchTask queues steps on the realm's event loop (networking task
// source); false when the realm no longer runs tasks.
func (r *Realm) fetchTask(steps func()) bool {
	return r.queueTask(html.NetworkingTaskSource, steps)
}

// fetch starts https://fetch.spec.whatwg.org/#concept-fetch (package
// fetch) for a request whose client is this realm. processResponse runs
// in a task of the realm's event loop (never during this call).
func (r *Realm) fetch(ctx context.Context, req *request, processResponse func(*response)) {
	finish := func(resp *response) {
		r.fetchTask(func() { processResponse(resp) })
	}
	host := r.fetchHost()
	if host == nil {
		finish(networkError())
		return
	}
	p := &fetch.Params{Request: r.fetchRequest(req)}
	if req.body != nil && req.body.streamOnly {
		// A body from a ReadableStream has a null source: the network
		// reads its stream as it sends the request (only over HTTP/2),
		// and a request that never reaches the network (data:) leaves
		// it unread. The request has the use-CORS-preflight flag.
		up, err := r.newUploadReader(ctx, req.body)
		if err != nil {
			finish(networkError())
			return
		}
		p.Request.Body = &fetch.Body{Upload: up}
		p.Request.UseCORSPreflight = true
	}
	if r.env != nil {
		p.BlobURLs = fileapi.StoreOf(r.env.UserAgent())
	}
	// HTTP fetch's Handle Fetch: a request whose client has an active
	// service worker goes to it first (fetchevent.go).
	if r.env != nil && serviceworker.ActiveServiceWorker(r.env) != nil {
		p.HandleFetch = r.serviceWorkerHook()
	}
	host.StartFetch(ctx, p, func(resp *fetch.Response) { finish(fromFetchResponse(resp)) })
}

// uploadReader is the network's side of
// https://fetch.spec.whatwg.org/#concept-request-transmit-body for a
// body whose source is null: each Read takes a chunk of the body's
// stream from the realm's event loop (a read request queued as a
// networking task) and waits for it, or for the fetch to end.
type uploadReader struct {
	r      *Realm
	ctx    context.Context
	reader *streams.DefaultReader
	rest   []byte // what the last chunk had beyond the caller's buffer
	done   error  // io.EOF once the stream closed; the error that ended it
}

type uploadChunk struct {
	data []byte
	err  error
}

// newUploadReader gets a reader for b's stream (locking it) on the event
// loop, now.
func (r *Realm) newUploadReader(ctx context.Context, b *body) (*uploadReader, error) {
	reader, err := streams.AcquireReadableStreamDefaultReader(r.bodyStream(b).s)
	if err != nil {
		return nil, err
	}
	return &uploadReader{r: r, ctx: ctx, reader: reader}, nil
}

// Read implements io.Reader, off the event loop.
func (u *uploadReader) Read(p []byte) (int, error) {
	for len(u.rest) == 0 {
		if u.done != nil {
			return 0, u.done
		}
		ch := make(chan uploadChunk, 1)
		// transmit-body 1-5: read a chunk from the body's stream; a
		// chunk that is not a Uint8Array, or the stream's error, ends
		// the fetch (a network error).
		queued := u.r.fetchTask(func() {
			streams.ReadableStreamDefaultReaderRead(u.reader, streams.ReadRequest{
				Chunk: func(chunk any) {
					v := jsStreamValue(chunk)
					if u.r.idl.BufferKindOf(v) != "Uint8Array" {
						ch <- uploadChunk{err: errors.New("the request body's stream gave a chunk that is not a Uint8Array")}
						return
					}
					ch <- uploadChunk{data: bytes.Clone(webidl.BufferSource{Object: v.(*sobek.Object), Kind: "Uint8Array"}.Bytes())}
				},
				Close: func() { ch <- uploadChunk{err: io.EOF} },
				Error: func(any) { ch <- uploadChunk{err: errors.New("the request body's stream errored")} },
			})
		})
		if !queued {
			u.done = errors.New("the request body's realm is gone")
			continue
		}
		select {
		case c := <-ch:
			u.rest, u.done = c.data, c.err
		case <-u.ctx.Done():
			u.done = u.ctx.Err()
		}
	}
	n := copy(p, u.rest)
	u.rest = u.rest[n:]
	return n, nil
}

// fetchClient is this realm's settings object as a request's client:
// its origin, its URL (the "client" referrer), its top-level site, the
// CSP list of its policy container (main fetch enforces it) and its fetch
// group (the keepalive quota; its fetches end with the document).
func (r *Realm) fetchClient() *fetch.Client {
	o := r.fetchOrigin()
	client := &fetch.Client{Origin: o}
	if !o.IsOpaque() {
		client.URL = r.fetchClientURL()
	}
	if r.env != nil {
		client.TopLevelSite = r.env.TopLevelSite()
		client.CSP = container.ListOf(r.env)
	}
	client.FetchGroup = r.fetchGroup()
	return client
}

// fetchRequest is the request of package fetch for req, whose client is
// this realm.
func (r *Realm) fetchRequest(req *request) *fetch.Request {
	client := r.fetchClient()
	o := client.Origin
	u := cloneURLPtr(req.url)
	fr := &fetch.Request{Method: req.method, URLList: []*url.URL{u}, Header: req.headers.Clone(), Client: client,
		Origin: o, Referrer: req.referrer, ReferrerPolicy: string(req.referrerPolicy), Mode: string(req.mode),
		Credentials: string(req.credentials), Redirect: string(req.redirect), Integrity: req.integrity, Cache: string(req.cache), Keepalive: req.keepalive, UnsafeRequest: true,
		Destination: string(req.destination)}
	if req.body != nil {
		fr.Body = &fetch.Body{Source: req.body.source}
	}
	return fr
}

type fetchGroupKey struct{}

// fetchGroup is the fetch group of the realm's environment settings
// object (https://fetch.spec.whatwg.org/#concept-fetch-group), made the
// first time a fetch needs it; the realm's fetch() calls share it.
func (r *Realm) fetchGroup() *fetch.FetchGroup {
	if g, ok := r.Value(fetchGroupKey{}).(*fetch.FetchGroup); ok {
		return g
	}
	g := &fetch.FetchGroup{}
	r.SetValue(fetchGroupKey{}, g)
	return g
}

// fetchOrigin is the origin of the realm's environment.
func (r *Realm) fetchOrigin() origin.Origin {
	if r.env != nil {
		return r.env.Origin()
	}
	s := r.originString()
	if s == "null" {
		return origin.NewOpaque()
	}
	return origin.Parse(s)
}

// serviceWorkerHook is fetch.Params.HandleFetch for a request whose
// client is this realm: package serviceworker's Handle Fetch, which waits
// for the service worker's fetch event.
func (r *Realm) serviceWorkerHook() func(context.Context, *fetch.Request) *fetch.Response {
	client := r.env
	return func(ctx context.Context, fr *fetch.Request) *fetch.Response {
		// (Only the first request of the fetch: a redirect the service
		// worker answered with goes to the network.)
		if fr.RedirectCount > 0 {
			return nil
		}
		return serviceworker.HandleFetch(ctx, client, fr)
	}
}

// fromFetchResponse is the response record script sees for a response
// of package fetch.
func fromFetchResponse(fr *fetch.Response) *response {
	if fr.IsNetworkError() {
		return networkError()
	}
	resp := &response{typ: ResponseType(fr.Type), url: fr.URL(), redirected: fr.Redirected(),
		status: uint16(fr.Status), statusText: fr.StatusText, headers: fr.Header.Clone()}
	if fr.Body != nil {
		resp.body = &body{net: fr.Body}
	} else if fr.Internal != nil && fr.Internal.Body != nil {
		resp.internalBody = fr.Internal.Body
	}
	return resp
}

// toFetchResponse is the response of package fetch for a response a
// service worker gave, whose body (if any) is b (handOverBody).
func toFetchResponse(resp *response, b *fetch.Body) *fetch.Response {
	fr := &fetch.Response{Type: string(resp.typ), Status: int(resp.status), StatusText: resp.statusText, Header: resp.headers.Clone()}
	if resp.typ == "error" {
		return fetch.NetworkError(errors.New("the service worker answered with a network error"))
	}
	if resp.url != nil {
		// The URL list's length is all that matters besides its last URL.
		fr.URLList = []*url.URL{resp.url}
		if resp.redirected {
			fr.URLList = append([]*url.URL{resp.url}, resp.url)
		}
	}
	fr.Body = b
	return fr
}
