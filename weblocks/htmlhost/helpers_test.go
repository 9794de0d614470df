package htmlhost

import (
	"errors"
	"net/url"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/storage"
	. "github.com/gowebengine/weblocks/weblocks"
)

// These helpers run the implementation on the default (goroutine-backed)
// scheduler, so that the tests using them exercise real concurrency under
// -race: the test goroutine only hands work to event loops and waits.

func newUA(t testing.TB) *html.UserAgent {
	t.Helper()
	ua := html.NewUserAgent()
	t.Cleanup(ua.Close)
	return ua
}

func openWindow(t testing.TB, ua *html.UserAgent, u string) *html.EnvironmentSettingsObject {
	t.Helper()
	d, err := ua.OpenWindowURL(u)
	if err != nil {
		t.Fatal(err)
	}
	return d.EnvironmentSettingsObject()
}

func openFrame(t testing.TB, parent *html.EnvironmentSettingsObject, u string, sandboxed bool) *html.EnvironmentSettingsObject {
	t.Helper()
	d, err := parent.AssociatedDocument().CreateChildNavigableURL(u, html.ChildNavigableOptions{Sandboxed: sandboxed})
	if err != nil {
		t.Fatal(err)
	}
	return d.EnvironmentSettingsObject()
}

func startWorker(t testing.TB, owner *html.EnvironmentSettingsObject, u string) *html.EnvironmentSettingsObject {
	t.Helper()
	pu, _ := url.Parse(u)
	w, err := html.NewDedicatedWorker(owner, pu)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// onLoop runs f as a task on env's event loop and waits for it. If that
// loop is terminated (it will never run a task), f runs on the test's
// goroutine: nobody can be on a terminated loop.
func onLoop(t testing.TB, env *html.EnvironmentSettingsObject, f func()) {
	t.Helper()
	if env.ResponsibleEventLoop().IsTerminated() {
		f()
		return
	}
	done := make(chan struct{})
	env.ResponsibleEventLoop().QueueTask(html.DOMManipulationTaskSource, func() {
		defer close(done)
		f()
	})
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("event loop task did not run")
	}
}

// held is a granted lock seen from the test: which lock the callback got
// and a function that releases it (settles its waiting promise).
type held struct {
	lock    *Lock
	waiting *Future
	env     *html.EnvironmentSettingsObject
}

// tracked is a request made by the test.
type tracked struct {
	t        testing.TB
	env      *html.EnvironmentSettingsObject
	granted  chan held
	released *Future
	err      error
}

// request makes a request from env (on its event loop) whose callback
// reports the grant and holds the lock until the test releases it.
func request(t testing.TB, env *html.EnvironmentSettingsObject, name Name, opts Options) *tracked {
	t.Helper()
	r := &tracked{t: t, env: env, granted: make(chan held, 1)}
	onLoop(t, env, func() {
		r.released, r.err = Request(env, name, opts, func(l *Lock) Waiting {
			w := NewFuture()
			r.granted <- held{lock: l, waiting: w, env: env}
			return w
		})
	})
	return r
}

// await waits for the grant (or fails the test).
func (r *tracked) await() held {
	r.t.Helper()
	select {
	case h := <-r.granted:
		return h
	case <-time.After(10 * time.Second):
		r.t.Fatal("request not granted")
	}
	return held{}
}

// notGranted checks that no grant arrives within a short time.
func (r *tracked) notGranted() {
	r.t.Helper()
	select {
	case h := <-r.granted:
		r.granted <- h
		r.t.Fatalf("request unexpectedly granted (lock %v)", h.lock)
	case <-time.After(30 * time.Millisecond):
	}
}

// release settles the waiting promise of a granted lock (on its loop).
func (h held) release(t testing.TB, v any) {
	t.Helper()
	onLoop(t, h.env, func() { h.waiting.Resolve(v) })
}

// result waits for a future and returns its outcome.
func result(t testing.TB, f *Future) (any, error) {
	t.Helper()
	select {
	case <-f.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("promise did not settle")
	}
	return f.Result()
}

// query runs query() from env and waits for the snapshot.
func query(t testing.TB, env *html.EnvironmentSettingsObject) Snapshot {
	t.Helper()
	var f *Future
	var err error
	onLoop(t, env, func() { f, err = Query(env) })
	if err != nil {
		t.Fatal(err)
	}
	v, err := result(t, f)
	if err != nil {
		t.Fatal(err)
	}
	return v.(Snapshot)
}

// domErrorName returns the DOMException name of err ("" if none).
func domErrorName(err error) string {
	var de *dom.DOMException
	if errors.As(err, &de) {
		return de.Name
	}
	return ""
}

// defaultManager returns the lock manager of env's default bucket (after
// env used it).
func defaultManager(t testing.TB, env *html.EnvironmentSettingsObject) *LockManager {
	t.Helper()
	shelf, err := storage.ObtainALocalStorageShelf(env)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range LockManagersOf(env.UserAgent(), shelf.Key()) {
		if m.BucketName() == storage.DefaultBucket {
			return m
		}
	}
	t.Fatal("no lock manager of the default bucket")
	return nil
}
