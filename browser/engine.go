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
func (e *engine) NewWindow(u *url.URL, opts bindings.Options) (*bindings.Realm, *html.Document, error) {
	doc, err := e.ua.OpenWindow(u)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the window: %v", err)
	}
	r, _, err := e.NewWindowFor(doc, opts)
	return r, doc, err
}

// NewWindowFor creates the realm of an existing window Document (the
// active document a child navigable was navigated to).
func (e *engine) NewWindowFor(doc *html.Document, opts bindings.Options) (*bindings.Realm, envHandle, error) {
	env := doc.EnvironmentSettingsObject()
	// The window's client gets its active service worker, if any.
	serviceworker.HandleFetchReservedClient(env)
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
