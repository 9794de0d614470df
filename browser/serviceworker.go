package browser

import (
	"context"
	"fmt"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/serviceworker"
	"github.com/grafana/sobek"
)

// serviceWorkerHost is the browser's serviceworker.Host: it creates a
// service worker's ServiceWorkerGlobalScope realm and runs its script,
// fires its lifecycle and fetch events and closes its realm. The
// registrations, jobs (the script's fetch included), clients and Handle
// Fetch are package serviceworker's; the JavaScript objects are the
// bindings'.
type serviceWorkerHost struct{ s *Browser }

// Context implements serviceworker.Host: the browser's life.
func (h serviceWorkerHost) Context() context.Context { return h.s.ctx }

// Network implements serviceworker.Host: the browser's Fetcher.
func (h serviceWorkerHost) Network() fetch.Network { return h.s.network() }

// Run implements serviceworker.Host: the realm part of Run Service
// Worker, in w's new environment; it waits for the script's evaluation
// (an exception is a failure).
func (h serviceWorkerHost) Run(w *serviceworker.ServiceWorker) error {
	s := h.s
	u := w.ScriptURL()
	env := w.Env()
	realm, err := bindings.NewServiceWorkerRealm(env, w, bindings.Options{
		Console: func(level bindings.ConsoleLevel, msg string) {
			s.log(fmt.Sprintf("service worker %s %v: %s", u, level, msg))
		},
		OnError: func(se *bindings.ScriptError) {
			s.log("service worker " + u.String() + ": uncaught " + se.Error())
		},
		OnUnhandledRejection: func(_ sobek.Value, se *bindings.ScriptError) {
			s.log("service worker " + u.String() + ": unhandled rejection: " + se.Error())
		},
	})
	if err != nil {
		return err
	}
	s.addRealm(realm)
	// Its fetches' default referrer policy is its policy container's.
	policy := w.ReferrerPolicy()
	realm.SetFetchHost(fetchHost{b: s, referrerPolicy: func() string { return policy }})
	text := decodeText(w.Script(), "")
	result := make(chan error, 1)
	queued := realm.QueueTask(func(vm *sobek.Runtime) {
		s.guard(func() {
			// importScripts as in dedicated workers (the script's URL is
			// the base URL).
			imp := &dedicatedWorker{s: s, url: u, realm: realm}
			realm.SetHostHooks(bindings.HostHooks{
				ImportScripts: func(urls []string) error { imp.importScripts(vm, urls); return nil },
			})
			s.disallowImports(realm, u) // import() is a TypeError (modules.go)
			prg, err := s.scripts.compile(u.String(), text)
			if err != nil {
				_, err = realm.EvaluateScript(u.String(), text)
			} else {
				_, err = realm.EvaluateProgram(prg)
			}
			result <- err
		})
	})
	if !queued {
		return bindings.ErrRealmClosed
	}
	select {
	case err := <-result:
		if err != nil {
			s.log("service worker " + u.String() + ": " + err.Error())
		}
		return err
	case <-s.ctx.Done():
		return s.ctx.Err()
	}
}

// FireLifecycleEvent implements serviceworker.Host: install or activate
// at w's global, in a task of its realm.
func (h serviceWorkerHost) FireLifecycleEvent(w *serviceworker.ServiceWorker, name string, done func(failed bool)) {
	realm := h.realm(w)
	if realm == nil || !realm.QueueTask(func(*sobek.Runtime) {
		h.s.guard(func() { realm.FireExtendableEvent(name, done) })
	}) {
		done(true)
	}
}

// DispatchFetchEvent implements serviceworker.Host: the fetch event in
// w's realm.
func (h serviceWorkerHost) DispatchFetchEvent(w *serviceworker.ServiceWorker, req *fetch.Request, clientID, resultingClientID string, done func(serviceworker.FetchEventResult)) {
	realm := h.realm(w)
	if realm == nil {
		done(serviceworker.FetchEventResult{})
		return
	}
	realm.DispatchFetchEvent(req, clientID, resultingClientID, done)
}

// Terminate implements serviceworker.Host: w's realm closes (package
// serviceworker then terminates its agent, and its Web Locks go).
func (h serviceWorkerHost) Terminate(w *serviceworker.ServiceWorker) {
	if realm := h.realm(w); realm != nil {
		realm.Close()
		h.s.removeRealm(realm)
	}
}

func (h serviceWorkerHost) realm(w *serviceworker.ServiceWorker) *bindings.Realm {
	if env := w.Env(); env != nil {
		return bindings.RealmOf(env)
	}
	return nil
}
