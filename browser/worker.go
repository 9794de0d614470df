package browser

import (
	"errors"
	"fmt"
	"github.com/gowebengine/weblocks/csp/container"
	"net/url"
	"strings"
	"sync"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/origin"
	"github.com/grafana/sobek"
)

// dedicatedWorker runs one `new Worker(url)` of a window or worker realm:
// the bindings make the Worker object and the entangled port pair
// (bindings.DedicatedWorker); this is HTML's "run a worker": the worker's
// agent and environment, the fetch of its script, its realm, and its
// lifecycle (terminate, close).
type dedicatedWorker struct {
	s   *Browser
	dw  *bindings.DedicatedWorker
	url *url.URL
	env envHandle // the worker's environment
	// ownerClient is the request client of the worker's script: its
	// owner's environment (the outside settings) when new Worker() ran.
	ownerClient *fetch.Client
	// referrerPolicy is the worker's policy container's referrer policy
	// (set once its script is fetched, before its realm exists).
	referrerPolicy string

	mu         sync.Mutex
	realm      *bindings.Realm // once created
	terminated bool
	closing    bool
}

// workerHooks lets realm (of environment env, whose request client
// client gives) create dedicated workers.
func (s *Browser) workerHooks(env envHandle, client func() *fetch.Client) bindings.WorkerHooks {
	return bindings.WorkerHooks{StartWorker: func(dw *bindings.DedicatedWorker) error {
		return s.startWorker(env, client(), dw)
	}}
}

// startWorker is the part of new Worker() the embedder does, on the
// owner's event loop: obtain the worker's agent and environment, then run
// the worker in parallel. A cross-origin script URL (html refuses its
// environment) is what HTML's same-origin fetch of the script makes of
// it, without a request: error fires at the Worker (as in Chromium; no
// exception).
func (s *Browser) startWorker(owner envHandle, ownerClient *fetch.Client, dw *bindings.DedicatedWorker) error {
	u, err := url.Parse(dw.URL)
	if err != nil {
		return dom.NewDOMException(fmt.Sprintf("Failed to construct 'Worker': The URL '%s' is invalid.", dw.URL), dom.SyntaxError)
	}
	env, err := s.eng.NewWorkerEnvironment(owner, u)
	if err != nil {
		if errors.Is(err, errWorkerOrigin) {
			s.log(fmt.Sprintf("worker %s: not same origin with %s (a same-origin request: network error)", u, s.eng.OriginOf(owner)))
			dw.QueueErrorEvent(nil)
			return nil
		}
		return dom.NewDOMException("Failed to construct 'Worker': "+err.Error(), dom.InvalidStateError)
	}
	w := &dedicatedWorker{s: s, dw: dw, url: u, env: env, ownerClient: ownerClient}
	dw.OnTerminate = w.terminate
	s.busy.Add(1)
	go func() {
		defer s.busy.Add(-1)
		s.guard(w.run)
	}()
	return nil
}

// terminate is Worker.terminate(): terminate the worker's agent (its
// termination steps release what it holds, e.g. its Web Locks; its realm
// stops).
func (w *dedicatedWorker) terminate() {
	w.mu.Lock()
	if w.terminated {
		w.mu.Unlock()
		return
	}
	w.terminated = true
	realm := w.realm
	w.mu.Unlock()
	if realm != nil {
		realm.Close()
		w.s.removeRealm(realm)
	}
	w.s.eng.TerminateWorker(w.env)
}

func (w *dedicatedWorker) isTerminated() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.terminated
}

// run is HTML's "run a worker", on its own goroutine: fetch the script,
// create the realm, connect its global to the worker's port, run the
// script, then enable the port.
func (w *dedicatedWorker) run() {
	s := w.s
	if w.dw.Type == "module" {
		w.runModule()
		return
	}
	// Fetch a classic worker script given url, outside settings,
	// destination "worker", and inside settings.
	text, responseURL, policy, cspList, err := s.fetchAClassicWorkerScript(w.url, w.ownerClient, "worker", w.env)
	if err != nil || w.isTerminated() {
		if err != nil {
			s.log("worker " + w.url.String() + ": " + err.Error())
			// If fetching fails, queue a global task on the DOM
			// manipulation task source given worker's relevant global
			// object to fire an event named error at worker, and
			// terminate the worker's agent.
			w.dw.QueueErrorEvent(nil)
		}
		s.eng.TerminateWorker(w.env)
		return
	}
	// Set worker global scope's url to response's url (a same-origin
	// redirect changes it: location, the base URL of importScripts and
	// import()).
	w.url, w.referrerPolicy = responseURL, policy
	container.SetList(w.env, cspList)
	realm := w.newRealm()
	if realm == nil {
		return
	}
	realm.QueueTask(func(vm *sobek.Runtime) {
		s.guard(func() {
			w.setUpRealm(realm, vm, false)
			// Run the classic script (errors are reported by the realm).
			s.scripts.evaluate(realm, w.url.String(), text)
			// Enable the worker's port message queue: what the owner
			// posted meanwhile is delivered, in order.
			w.dw.Port.Start()
		})
	})
}

// newRealm creates the worker's realm, or returns nil (the error event
// queued) when it cannot be made or the worker was terminated meanwhile.
func (w *dedicatedWorker) newRealm() *bindings.Realm {
	s := w.s
	realm, err := s.eng.NewWorkerRealm(w.env, bindings.Options{
		WorkerURL: w.url,
		Console: func(level bindings.ConsoleLevel, msg string) {
			s.log(fmt.Sprintf("worker %s %v: %s", w.url, level, msg))
		},
		// An exception the worker's global did not handle fires error at
		// the Worker object and, unless canceled, is reported in the owner.
		OnError: func(se *bindings.ScriptError) { w.dw.QueueErrorEvent(se) },
		OnUnhandledRejection: func(_ sobek.Value, se *bindings.ScriptError) {
			s.log("worker " + w.url.String() + ": unhandled rejection: " + se.Error())
		},
	})
	if err != nil {
		w.dw.QueueErrorEvent(nil)
		return nil
	}
	w.mu.Lock()
	if w.terminated {
		w.mu.Unlock()
		realm.Close()
		return nil
	}
	w.realm = realm
	w.mu.Unlock()
	s.addRealm(realm)
	return realm
}

// setUpRealm installs the worker global's host hooks (on its loop): name,
// importScripts (a TypeError in a module worker), close, the port, nested
// workers, and the module map (import(), module scripts).
func (w *dedicatedWorker) setUpRealm(realm *bindings.Realm, vm *sobek.Runtime, module bool) {
	realm.SetHostHooks(bindings.HostHooks{
		Name: w.dw.Name,
		ImportScripts: func(urls []string) error {
			if module {
				panic(vm.NewTypeError(importScriptsInModuleWorker))
			}
			w.importScripts(vm, urls)
			return nil
		},
		Close: w.closeByScript,
	})
	realm.ConnectWorkerPort(w.dw.Port)
	realm.SetWorkerHooks(w.s.workerHooks(w.env, w.client))
	u := w.url
	w.s.enableModules(realm, func() *url.URL { return u }).client = w.client
	// fetch() requests get the worker's referrer policy.
	realm.SetFetchHost(fetchHost{b: w.s, referrerPolicy: func() string { return w.referrerPolicy }})
}

// importScriptsInModuleWorker is the TypeError message of importScripts()
// in a module worker ("If worker global scope's type is "module", throw a
// TypeError exception").
const importScriptsInModuleWorker = "Failed to execute 'importScripts' on 'WorkerGlobalScope': Module scripts don't support importScripts()."

// runModule is "run a worker" for a module worker: create the realm, fetch
// a module worker script graph through its module map, then run the module
// script and enable the port (a failed fetch fires error at the Worker and
// terminates the worker).
// https://html.spec.whatwg.org/multipage/workers.html#run-a-worker
func (w *dedicatedWorker) runModule() {
	s := w.s
	realm := w.newRealm()
	if realm == nil {
		return
	}
	realm.QueueTask(func(vm *sobek.Runtime) {
		s.guard(func() {
			w.setUpRealm(realm, vm, true)
			// 12. Obtain script by switching on the value of options's
			//     type member: "module": fetch a module worker script
			//     graph given url, outside settings, destination "worker",
			//     the credentials member of options, and inside settings.
			opts := moduleFetchOptions{destination: "worker", credentials: w.dw.Credentials, client: w.ownerClient}
			moduleMapOf(realm).fetchAModuleScriptGraph(w.url, opts, func(ms *moduleScript) {
				// If the algorithm asynchronously completes with null,
				// then queue a global task to fire an event named error at
				// worker, and terminate the worker's agent.
				if ms == nil {
					w.dw.QueueErrorEvent(nil)
					go s.guard(w.terminate)
					return
				}
				// 24. Otherwise, it is a module script; run the module
				//     script script (errors are reported by the realm).
				moduleMapOf(realm).runAModuleScript(ms, nil)
				// 25. Enable outside port's port message queue.
				w.dw.Port.Start()
			})
		})
	})
}

// closeByScript is the worker's self.close(): set the closing flag (later
// tasks are discarded) and terminate the worker's agent (releasing what it
// holds). The running script goes on to its end.
func (w *dedicatedWorker) closeByScript() {
	w.mu.Lock()
	already := w.closing || w.terminated
	w.closing = true
	realm := w.realm
	w.mu.Unlock()
	if already || realm == nil {
		return
	}
	// Close the realm (which would interrupt the running script) in a
	// task of its own, then terminate.
	queued := realm.QueueTask(func(*sobek.Runtime) {
		realm.Close()
		w.s.removeRealm(realm)
		go w.s.guard(func() { w.s.eng.TerminateWorker(w.env) })
	})
	if !queued {
		go w.s.guard(func() { w.s.eng.TerminateWorker(w.env) })
	}
}

// importScripts is WorkerGlobalScope.importScripts(...urls): parse every
// URL first (SyntaxError), then fetch each synchronously (fetch a classic
// worker-imported script: a network error or bad response is a
// NetworkError) and run it with errors rethrown. It runs inside the
// native importScripts call: it throws by panicking with JavaScript
// values.
func (w *dedicatedWorker) importScripts(vm *sobek.Runtime, args []string) {
	urls := make([]*url.URL, 0, len(args))
	for _, spec := range args {
		u, err := w.url.Parse(spec)
		if err != nil || u.Scheme == "" {
			panic(w.realm.NewDOMException("SyntaxError", fmt.Sprintf("Failed to execute 'importScripts': The URL '%s' is invalid.", spec)))
		}
		urls = append(urls, u)
	}
	for _, u := range urls {
		text, _, err := w.s.fetchAClassicWorkerImportedScript(u, w.client(), w.env)
		if err != nil {
			w.s.log("importScripts " + u.String() + ": " + err.Error())
			panic(w.realm.NewDOMException("NetworkError", fmt.Sprintf("Failed to execute 'importScripts': The script at '%s' failed to load.", u)))
		}
		prg, err := w.s.scripts.compile(u.String(), text)
		if err != nil {
			msg := err.Error()
			var ce *sobek.CompilerSyntaxError
			if errors.As(err, &ce) {
				msg = ce.Message
			}
			panic(syntaxError(vm, strings.TrimSpace(msg)))
		}
		if _, err := vm.RunProgram(prg); err != nil {
			// Rethrow: the exception propagates to importScripts' caller.
			panic(err)
		}
	}
}

// client is the request client of the worker's environment (the
// realm's, for the service workers' use of importScripts), else one of
// the script URL's origin, with the worker's referrer policy.
func (w *dedicatedWorker) client() *fetch.Client {
	env := w.env
	if env == nil && w.realm != nil {
		env = w.realm.Env()
	}
	if env == nil {
		return &fetch.Client{Origin: origin.FromURL(w.url), URL: w.url, ReferrerPolicy: w.referrerPolicy}
	}
	return envClient(env, w.referrerPolicy)
}

// syntaxError makes a SyntaxError of vm's realm.
func syntaxError(vm *sobek.Runtime, msg string) sobek.Value {
	if ctor, ok := sobek.AssertConstructor(vm.GlobalObject().Get("SyntaxError")); ok {
		if e, err := ctor(nil, vm.ToValue(msg)); err == nil {
			return e
		}
	}
	return vm.NewTypeError(msg)
}
