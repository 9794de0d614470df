package browser

import (
	"errors"
	"fmt"
	"github.com/gowebengine/weblocks/csp"
	"github.com/gowebengine/weblocks/csp/container"
	"net/url"
	"sync"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// Shared workers: new SharedWorker(url, name) in a window finds the user
// agent's shared worker for (url, name, the window's storage key) or runs
// a new one (html.ObtainSharedWorker, which also puts the window's
// document in the worker's owner set); then connect fires at the worker's
// global with a port entangled with the SharedWorker object's port. The
// worker is one agent and one environment however many documents connect
// (one Web Locks client). When its last owner document is unloaded (the
// window closes, the iframe is removed) html terminates its agent, which
// closes its realm and releases its locks.

// sharedWorkerHost is the browser's side of one shared worker: its realm,
// and the connections that wait for its script to have run.
type sharedWorkerHost struct {
	s   *Browser
	sw  *html.SharedWorker
	url *url.URL

	module bool // a module shared worker (options type "module")
	// credentials is the options' credentials member (module workers);
	// ownerClient is the request client of the worker's script: the
	// environment of the document whose new SharedWorker() created it.
	credentials string
	ownerClient *fetch.Client

	mu      sync.Mutex
	realm   *bindings.Realm
	ready   bool // the script ran: connections fire connect at once
	failed  bool // the script could not be fetched or run
	pending []*bindings.SharedWorkerConnection
}

// sharedWorkerHostSlot holds the host of a shared worker, on its
// environment.
var sharedWorkerHostSlot = html.NewSlot[*sharedWorkerHost]()

// sharedWorkerHooks lets a window's realm (of environment env, whose
// request client client gives) construct SharedWorker objects.
func (s *Browser) sharedWorkerHooks(env envHandle, client func() *fetch.Client) bindings.SharedWorkerHooks {
	return bindings.SharedWorkerHooks{Connect: func(c *bindings.SharedWorkerConnection) error {
		return s.connectSharedWorker(env, client, c)
	}}
}

// connectSharedWorker is the part of new SharedWorker() the embedder does,
// on the owner's event loop: find or create the shared worker (a
// cross-origin script URL fires error at it: see startWorker), connect c
// to it, and run it when it is new.
func (s *Browser) connectSharedWorker(owner envHandle, client func() *fetch.Client, c *bindings.SharedWorkerConnection) error {
	u, err := url.Parse(c.URL)
	if err != nil {
		return dom.NewDOMException(fmt.Sprintf("Failed to construct 'SharedWorker': The URL '%s' is invalid.", c.URL), dom.SyntaxError)
	}
	// In a renderer process, the browser process's registry says whether
	// the worker runs here, or in another renderer (renderer_sw.go).
	if s.xproc.connectSharedWorker(owner, u, c) {
		return nil
	}
	sw, created, err := html.ObtainSharedWorker(owner, u, c.Name)
	switch {
	case errors.Is(err, html.ErrWorkerOrigin):
		// A cross-origin script URL: HTML's same-origin fetch of the
		// script is a network error (no request), which fires error at
		// the SharedWorker (as in Chromium; no exception).
		s.log(fmt.Sprintf("sharedworker %s: not same origin with %s (a same-origin request: network error)", u, s.eng.OriginOf(owner)))
		c.QueueErrorEvent()
		return nil
	case errors.Is(err, html.ErrSharedWorkerMismatch):
		// Queue a global task to fire an event named error at worker and
		// abort these steps.
		c.QueueErrorEvent()
		return nil
	case err != nil:
		return dom.NewDOMException("Failed to construct 'SharedWorker': "+err.Error(), dom.InvalidStateError)
	}
	h := sharedWorkerHostSlot.GetOrInit(sw.Env(), func() *sharedWorkerHost {
		return &sharedWorkerHost{s: s, sw: sw, url: u, module: c.Type == "module", credentials: c.Credentials, ownerClient: client()}
	})
	// 11.8.4-6. If worker global scope's type is not options["type"] (or
	//    its credentials differ), fire error at worker and abort these
	//    steps. (The owner was already added; see the package doc.)
	if !created && h.module != (c.Type == "module") {
		c.QueueErrorEvent()
		return nil
	}
	h.connect(c)
	if created {
		s.xproc.hosting(sw)
		s.busy.Add(1)
		go func() {
			defer s.busy.Add(-1)
			s.guard(h.run)
		}()
	}
	return nil
}

// connect fires connect at the worker's global for c once its script has
// run (at once when it has).
func (h *sharedWorkerHost) connect(c *bindings.SharedWorkerConnection) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.failed:
		failConnection(c)
	case !h.ready:
		h.pending = append(h.pending, c)
	default:
		h.realm.FireConnect(c.Port)
	}
}

// fail reports a failed script to every waiting connection and terminates
// the worker.
func (h *sharedWorkerHost) fail() {
	h.mu.Lock()
	h.failed = true
	pending := h.pending
	h.pending = nil
	h.mu.Unlock()
	for _, c := range pending {
		failConnection(c)
	}
	h.sw.Terminate()
}

// run is HTML's "run a worker" for a new shared worker, on its own
// goroutine: fetch the script, create the SharedWorkerGlobalScope realm,
// run the script, then fire connect for the connections made meanwhile.
func (h *sharedWorkerHost) run() {
	s := h.s
	var text string
	// scriptURL becomes the worker global scope's url: the response's URL
	// for a classic script (a same-origin redirect changes it).
	scriptURL, policy := h.url, ""
	var cspList csp.List
	if !h.module {
		var err error
		// Fetch a classic worker script given url, outside settings,
		// destination "sharedworker", and inside settings.
		text, scriptURL, policy, cspList, err = s.fetchAClassicWorkerScript(h.url, h.ownerClient, "sharedworker", h.sw.Env())
		if err != nil {
			s.log("sharedworker " + h.url.String() + ": " + err.Error())
			h.fail()
			return
		}
	}
	if h.sw.IsClosing() {
		return
	}
	container.SetList(h.sw.Env(), cspList)
	realm, err := bindings.NewSharedWorkerRealm(h.sw.Env(), bindings.Options{
		WorkerURL: scriptURL,
		Console: func(level bindings.ConsoleLevel, msg string) {
			s.log(fmt.Sprintf("sharedworker %s %v: %s", h.url, level, msg))
		},
		// A shared worker's uncaught exceptions are reported in the
		// worker only (no owner to propagate them to).
		OnError: func(se *bindings.ScriptError) {
			s.log("sharedworker " + h.url.String() + ": uncaught " + se.Error())
		},
		OnUnhandledRejection: func(_ sobek.Value, se *bindings.ScriptError) {
			s.log("sharedworker " + h.url.String() + ": unhandled rejection: " + se.Error())
		},
	})
	if err != nil {
		h.fail()
		return
	}
	s.addRealm(realm)
	if h.sw.Env().Agent().AddTerminationSteps(func() { s.removeRealm(realm) }) == 0 {
		// Terminated meanwhile.
		s.removeRealm(realm)
		return
	}
	h.mu.Lock()
	h.realm = realm
	h.mu.Unlock()
	realm.QueueTask(func(vm *sobek.Runtime) {
		s.guard(func() {
			imports := &dedicatedWorker{s: s, url: scriptURL, realm: realm, env: h.sw.Env(), referrerPolicy: policy}
			realm.SetHostHooks(bindings.HostHooks{
				Name: h.sw.Name(),
				ImportScripts: func(urls []string) error {
					if h.module {
						panic(vm.NewTypeError(importScriptsInModuleWorker))
					}
					imports.importScripts(vm, urls)
					return nil
				},
				Close: h.closeByScript,
			})
			mm := s.enableModules(realm, func() *url.URL { return scriptURL })
			mm.client = imports.client
			// fetch() requests get the worker's referrer policy.
			realm.SetFetchHost(fetchHost{b: s, referrerPolicy: func() string { return policy }})
			if h.module {
				// Fetch a module worker script graph; null fires error at
				// every waiting SharedWorker and terminates the worker.
				opts := moduleFetchOptions{destination: "sharedworker", credentials: h.credentials, client: h.ownerClient}
				mm.fetchAModuleScriptGraph(h.url, opts, func(ms *moduleScript) {
					if ms == nil {
						go s.guard(h.fail)
						return
					}
					mm.runAModuleScript(ms, nil)
					h.connectPending(realm)
				})
				return
			}
			// Run the classic script (errors are reported by the realm).
			s.scripts.evaluate(realm, scriptURL.String(), text)
			h.connectPending(realm)
		})
	})
}

// connectPending is the end of "run a worker" for a shared worker: if is
// shared is true, then queue a global task on the DOM manipulation task
// source given worker global scope to fire connect (one per connection
// made so far, in order).
func (h *sharedWorkerHost) connectPending(realm *bindings.Realm) {
	h.mu.Lock()
	h.ready = true
	pending := h.pending
	h.pending = nil
	h.mu.Unlock()
	for _, c := range pending {
		realm.FireConnect(c.Port)
	}
}

// closeByScript is the shared worker's self.close(): the worker is
// terminated after the running task (its closing flag set, its agent
// terminated, releasing what it holds; a later new SharedWorker() runs a
// new worker).
func (h *sharedWorkerHost) closeByScript() {
	h.mu.Lock()
	realm := h.realm
	h.mu.Unlock()
	terminate := func() { go h.s.guard(h.sw.Terminate) }
	if realm == nil || !realm.QueueTask(func(*sobek.Runtime) { terminate() }) {
		terminate()
	}
}

// failConnection tells c's SharedWorker that the worker failed: error at
// it, or, for a connection of another renderer (no owner realm here),
// the close of its port.
func failConnection(c *bindings.SharedWorkerConnection) {
	if c.Owner == nil {
		c.Port.Close()
		return
	}
	c.QueueErrorEvent()
}
