package browser

import (
	"fmt"
	"net/url"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/serviceworker"
)

// engine is the platform under one test: a fresh html.UserAgent, the
// window it opens and the realms of that window and its workers. It creates
// environments and realms; events, event handlers and DOMExceptions go
// through the realms' own integration API (bindings.Realm).
type engine struct {
	ua *html.UserAgent
}

// envHandle is an environment settings object of the engine.
type envHandle = *html.EnvironmentSettingsObject

var errWorkerOrigin = html.ErrWorkerOrigin

// Close tears the user agent down: every agent terminates (running its
// termination steps, e.g. releasing Web Locks), every loop and queue stops.
func (e *engine) Close() { e.ua.Close() }

// NewWindow opens a top-level window for u (a new top-level traversable
// navigated to u: the Document's origin and the environment's creation URL
// come from u, and it is a secure context when u is potentially
// trustworthy) and creates its realm.
//
// The document is the embedder's, not fetched: its window's client gets
// the active worker of the registration matching u as its active service
// worker, as if its navigation had gone through HTTP fetch.
func (e *engine) NewWindow(u *url.URL, opts bindings.Options) (*bindings.Realm, *html.Document, error) {
	doc, err := e.ua.OpenWindow(u)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the window: %v", err)
	}
	serviceworker.HandleFetchReservedClient(doc.EnvironmentSettingsObject())
	r, err := bindings.NewWindowRealm(doc.EnvironmentSettingsObject(), opts)
	if err != nil {
		return nil, nil, fmt.Errorf("creating the window realm: %v", err)
	}
	return r, doc, nil
}

// NewWindowFor creates the realm of an existing window Document (the
// active document a navigable was navigated to). Its window client's
// active service worker is set first (Service Workers' window client
// case): creator is its creator document's environment (nil: none),
// httpFetched tells whether its navigation's fetch went through HTTP
// fetch (whose Handle Fetch matched its service worker).
func (e *engine) NewWindowFor(doc *html.Document, opts bindings.Options, creator envHandle, httpFetched bool) (*bindings.Realm, envHandle, error) {
	env := doc.EnvironmentSettingsObject()
	serviceworker.WindowClientCreated(env, creator, httpFetched)
	r, err := bindings.NewWindowRealm(env, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("creating the window realm: %v", err)
	}
	return r, env, nil
}

// NewWorkerEnvironment creates a dedicated worker's agent and environment.
func (e *engine) NewWorkerEnvironment(owner envHandle, u *url.URL) (envHandle, error) {
	return html.NewDedicatedWorker(owner, u)
}

// NewWorkerRealm creates the DedicatedWorkerGlobalScope realm of env.
func (e *engine) NewWorkerRealm(env envHandle, opts bindings.Options) (*bindings.Realm, error) {
	return bindings.NewDedicatedWorkerRealm(env, opts)
}

// TerminateWorker terminates a dedicated worker's agent.
func (e *engine) TerminateWorker(env envHandle) {
	if env != nil {
		env.Agent().Terminate()
	}
}

// OriginOf serializes an environment's origin.
func (e *engine) OriginOf(env envHandle) string { return env.Origin().Serialize() }
