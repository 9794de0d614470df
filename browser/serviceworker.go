package browser

import (
	"errors"
	"fmt"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// serviceWorkerHost is the browser's html.ServiceWorkerHost: it runs a
// service worker's script in a new service worker agent with a
// ServiceWorkerGlobalScope realm, fires its lifecycle events and
// terminates it. The registrations, the job queue, clients and
// controllers are html's (html/serviceworker.go); the JavaScript objects
// are the bindings'.
type serviceWorkerHost struct{ s *Browser }

// Run is https://w3c.github.io/ServiceWorker/#run-service-worker-algorithm
// for a new worker (the script is fetched here, as Update's fetch):
// create the agent, environment and realm, then evaluate the script. It
// waits for the evaluation; an exception or a failed fetch is a failure.
func (h serviceWorkerHost) Run(w *html.ServiceWorker) error {
	s := h.s
	u := w.ScriptURL()
	text, err := s.fetchScript(u, true)
	if err != nil {
		s.log("service worker " + u.String() + ": " + err.Error())
		return err
	}
	env, err := html.NewServiceWorkerEnvironment(s.eng.ua, w)
	if err != nil {
		return err
	}
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
		env.Agent().Terminate()
		return err
	}
	s.addRealm(realm)
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
		return err
	case <-s.ctx.Done():
		return errors.New("browser closed")
	}
}

// FireLifecycleEvent fires install or activate at w's global, in a task
// of its realm.
func (h serviceWorkerHost) FireLifecycleEvent(w *html.ServiceWorker, name string, done func(failed bool)) {
	env := w.Env()
	var realm *bindings.Realm
	if env != nil {
		realm = bindings.RealmOf(env)
	}
	if realm == nil || !realm.QueueTask(func(*sobek.Runtime) {
		h.s.guard(func() { realm.FireExtendableEvent(name, done) })
	}) {
		done(true)
	}
}

// Terminate terminates a redundant worker's agent (its Web Locks go).
func (h serviceWorkerHost) Terminate(w *html.ServiceWorker) {
	env := w.Env()
	if env == nil {
		return
	}
	if realm := bindings.RealmOf(env); realm != nil {
		realm.Close()
		h.s.removeRealm(realm)
	}
	env.Agent().Terminate()
}
