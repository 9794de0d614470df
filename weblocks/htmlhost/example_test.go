package htmlhost_test

import (
	"context"
	"fmt"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/weblocks"
	"github.com/gowebengine/weblocks/weblocks/htmlhost"
)

// inTask runs f as a task on env's event loop and waits until f calls done.
// Web Locks entry points are called from the environment's event loop, like
// script would.
func inTask(env *html.EnvironmentSettingsObject, f func(done func())) {
	ch := make(chan struct{})
	env.ResponsibleEventLoop().QueueTask(html.DOMManipulationTaskSource, func() {
		f(func() { close(ch) })
	})
	<-ch
}

// A request holds the lock until the callback's waiting promise settles;
// the released promise then settles with the same outcome.
func Example() {
	ua := html.NewUserAgent()
	defer ua.Close()
	doc, err := ua.OpenWindowURL("https://example.com/")
	if err != nil {
		panic(err)
	}
	env := doc.EnvironmentSettingsObject()

	inTask(env, func(done func()) {
		released, err := htmlhost.Request(env, "resource", weblocks.Options{}, func(lock *weblocks.Lock) weblocks.Waiting {
			fmt.Println("granted:", lock.Name(), lock.Mode())
			// Hold the lock until this future settles.
			return weblocks.Resolved("ok")
		})
		if err != nil {
			panic(err)
		}
		released.OnSettled(func() {
			v, err := released.Result()
			fmt.Println("released:", v, err)
			done()
		})
	})
	// Output:
	// granted: resource exclusive
	// released: ok <nil>
}

// With IfAvailable the callback gets nil instead of waiting when the lock
// cannot be granted at once.
func ExampleRequest_ifAvailable() {
	ua := html.NewUserAgent()
	defer ua.Close()
	doc, _ := ua.OpenWindowURL("https://example.com/")
	env := doc.EnvironmentSettingsObject()

	inTask(env, func(done func()) {
		hold := weblocks.NewFuture()
		htmlhost.Request(env, "r", weblocks.Options{}, func(*weblocks.Lock) weblocks.Waiting { return hold })
		released, _ := htmlhost.Request(env, "r", weblocks.Options{IfAvailable: true}, func(lock *weblocks.Lock) weblocks.Waiting {
			fmt.Println("got the lock:", lock != nil)
			return nil
		})
		released.OnSettled(func() {
			hold.Resolve(nil)
			done()
		})
	})
	// Output:
	// got the lock: false
}

// A signal aborts a request that is still waiting; its released promise
// rejects with the signal's abort reason.
func ExampleRequest_abort() {
	ua := html.NewUserAgent()
	defer ua.Close()
	doc, _ := ua.OpenWindowURL("https://example.com/")
	env := doc.EnvironmentSettingsObject()

	inTask(env, func(done func()) {
		hold := weblocks.NewFuture()
		htmlhost.Request(env, "r", weblocks.Options{}, func(*weblocks.Lock) weblocks.Waiting { return hold })
		ctrl := dom.NewAbortController()
		released, _ := htmlhost.Request(env, "r", weblocks.Options{Signal: ctrl.Signal()}, func(*weblocks.Lock) weblocks.Waiting {
			fmt.Println("never granted")
			return nil
		})
		released.OnSettled(func() {
			_, err := released.Result()
			fmt.Println("rejected:", err)
			hold.Resolve(nil)
			done()
		})
		ctrl.Abort(nil) // no reason: an "AbortError" DOMException
	})
	// Output:
	// rejected: AbortError: signal is aborted without reason
}

// Early rejections of the request() method steps come back as
// *dom.DOMException errors.
func ExampleRequest_rejections() {
	ua := html.NewUserAgent()
	defer ua.Close()
	doc, _ := ua.OpenWindowURL("https://example.com/")
	env := doc.EnvironmentSettingsObject()

	inTask(env, func(done func()) {
		cb := func(*weblocks.Lock) weblocks.Waiting { return nil }
		_, err := htmlhost.Request(env, "-reserved", weblocks.Options{}, cb)
		fmt.Println(err.(*dom.DOMException).Name)
		_, err = htmlhost.Request(env, "r", weblocks.Options{Steal: true, Mode: weblocks.Shared}, cb)
		fmt.Println(err.(*dom.DOMException).Name)
		done()
	})
	// Output:
	// NotSupportedError
	// NotSupportedError
}

// Query snapshots the lock manager of the environment's storage bucket:
// every client's held locks and pending requests.
func ExampleQuery() {
	ua := html.NewUserAgent()
	defer ua.Close()
	doc, _ := ua.OpenWindowURL("https://example.com/")
	env := doc.EnvironmentSettingsObject()

	inTask(env, func(done func()) {
		hold := weblocks.NewFuture()
		cb := func(*weblocks.Lock) weblocks.Waiting { return hold }
		htmlhost.Request(env, "a", weblocks.Options{Mode: weblocks.Shared}, cb)
		htmlhost.Request(env, "a", weblocks.Options{}, cb)
		snapshot, _ := htmlhost.Query(env)
		snapshot.OnSettled(func() {
			v, _ := snapshot.Result()
			s := v.(weblocks.Snapshot)
			for _, l := range s.Held.All() {
				fmt.Println("held:", l.Name, l.Mode, l.ClientID == env.ID())
			}
			for _, l := range s.Pending.All() {
				fmt.Println("pending:", l.Name, l.Mode, l.ClientID == env.ID())
			}
			hold.Resolve(nil)
			done()
		})
	})
	// Output:
	// held: a shared true
	// pending: a exclusive true
}

// hostPromise stands for a JS engine's promise: the bindings hand one to
// RequestPromise and settle their own JS promise when weblocks calls
// Resolve or Reject.
type hostPromise struct{ name string }

func (p hostPromise) Resolve(v any) {
	if w, ok := v.(weblocks.Waiting); ok {
		// "resolve p with waiting": a JS host resolves its promise with the
		// waiting JS promise; here we just wait for it.
		w.OnSettled(func() { fmt.Println(p.name, "resolved with the waiting promise") })
		return
	}
	fmt.Println(p.name, "resolved with", v)
}

func (p hostPromise) Reject(reason any) { fmt.Println(p.name, "rejected with", reason) }

// RequestPromise carries a host promise: every outcome, early rejections
// included, is delivered to it on the environment's event loop.
func ExampleRequestPromise() {
	ua := html.NewUserAgent()
	defer ua.Close()
	doc, _ := ua.OpenWindowURL("https://example.com/")
	env := doc.EnvironmentSettingsObject()

	inTask(env, func(done func()) {
		waiting := weblocks.NewFuture()
		htmlhost.RequestPromise(env, "-x", weblocks.Options{}, nil, hostPromise{"p1"})
		htmlhost.RequestPromise(env, "x", weblocks.Options{}, func(*weblocks.Lock) weblocks.Waiting {
			fmt.Println("granted")
			waiting.Resolve("v")
			return waiting
		}, hostPromise{"p2"})
		htmlhost.Query(env) // a query queued behind the request: wait for it
		q, _ := htmlhost.Query(env)
		q.OnSettled(done)
	})
	// Output:
	// p1 rejected with NotSupportedError: Lock names starting with '-' are reserved.
	// granted
	// p2 resolved with the waiting promise
}

// An embedder drives the Go API from its own goroutine: RunOnLoop runs the
// request on the environment's event loop, Wait blocks with a context, and
// the browser side lists and clears a storage key's locks without a page.
func Example_embedder() {
	ua := html.NewUserAgent()
	defer ua.Close()
	doc, _ := ua.OpenWindowURL("https://example.com/")
	env := doc.EnvironmentSettingsObject()
	ctx := context.Background()

	var released *weblocks.Future
	granted := make(chan struct{})
	err := env.ResponsibleEventLoop().RunOnLoop(ctx, func() (err error) {
		released, err = htmlhost.Request(env, "doc", weblocks.Options{}, func(*weblocks.Lock) weblocks.Waiting {
			close(granted)
			return weblocks.NewFuture() // held until the embedder clears it
		})
		return err
	})
	if err != nil {
		panic(err)
	}
	<-granted
	key, _ := env.StorageKey()
	for _, m := range htmlhost.LockManagersOf(ua, key) {
		s, _ := m.Snapshot(ctx)
		fmt.Println("held:", s.Held.Len(), "pending:", s.Pending.Len())
	}
	r, _ := htmlhost.ForceReleaseStorageKey(ctx, ua, key)
	fmt.Println("force-released locks:", r.Locks)
	_, err = released.Wait(ctx)
	fmt.Println("released promise:", err)
	// Output:
	// held: 1 pending: 0
	// force-released locks: 1
	// released promise: AbortError: The lock was released by the user agent.
}
