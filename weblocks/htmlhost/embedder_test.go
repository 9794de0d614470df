package htmlhost

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	. "github.com/gowebengine/weblocks/weblocks"
)

func waitCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func isAbortError(err error) bool {
	return errors.Is(err, &dom.DOMException{Name: dom.AbortError})
}

// A document that unloads while it holds a lock and waits for another:
// both released futures reject with "AbortError" (they used to hang).
func TestFutureSettlesOnUnload(t *testing.T) {
	ua := newUA(t)
	top := openWindow(t, ua, "https://a.test/")
	frame := openFrame(t, top, "https://a.test/f", false)
	holder := request(t, frame, "a", Options{})
	holder.await()
	waiter := request(t, frame, "a", Options{})
	if holder.err != nil || waiter.err != nil {
		t.Fatal(holder.err, waiter.err)
	}
	frame.AssociatedDocument().Unload()
	for _, f := range []*Future{holder.released, waiter.released} {
		if _, err := f.Wait(waitCtx(t)); !isAbortError(err) {
			t.Fatalf("released future after unload: %v; want AbortError", err)
		}
	}
}

// A worker's agent terminates while the worker holds a lock, waits for
// one, made an ifAvailable request and a query: every future settles.
func TestFutureSettlesOnAgentTermination(t *testing.T) {
	for i := 0; i < 20; i++ {
		ua := html.NewUserAgent()
		win := openWindow(t, ua, "https://a.test/")
		w := startWorker(t, win, "https://a.test/w.js")
		holder := request(t, w, "a", Options{})
		holder.await()
		var futures []*Future
		onLoop(t, w, func() {
			for _, opts := range []Options{{}, {IfAvailable: true}} {
				f, err := Request(w, "a", opts, func(*Lock) Waiting { return NewFuture() })
				if err != nil {
					t.Fatal(err)
				}
				futures = append(futures, f)
			}
			q, err := Query(w)
			if err != nil {
				t.Fatal(err)
			}
			futures = append(futures, q)
			// Terminate from inside a task, while tasks are in flight.
			w.Agent().Terminate()
		})
		futures = append(futures, holder.released)
		for j, f := range futures {
			if _, err := f.Wait(waitCtx(t)); err == nil && j != 2 {
				t.Fatalf("future %d fulfilled after termination", j)
			} else if err != nil && !isAbortError(err) {
				t.Fatalf("future %d: %v; want AbortError", j, err)
			}
		}
		ua.Close()
	}
}

func TestFutureWaitContext(t *testing.T) {
	f := NewFuture()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait on a pending future with a canceled ctx: %v", err)
	}
	go f.Resolve(7)
	if v, err := f.Wait(waitCtx(t)); v != 7 || err != nil {
		t.Fatalf("Wait = %v, %v", v, err)
	}
	r := Rejected("no")
	var re *dom.AbortReasonError
	if _, err := r.Wait(ctx); !errors.As(err, &re) || re.Reason != "no" {
		t.Fatalf("Wait on a rejected future = %v", err)
	}
}

// LockManager is [SecureContext]: an http:// window has no navigator.locks,
// and the Go API refuses it too.
func TestInsecureContextRefused(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "http://a.test/")
	if env.IsSecureContext() {
		t.Fatal("http://a.test is a secure context?")
	}
	cb := func(*Lock) Waiting { t.Error("callback called"); return nil }
	onLoop(t, env, func() {
		if _, err := Request(env, "x", Options{}, cb); !errors.Is(err, ErrInsecureContext) {
			t.Errorf("Request from http: %v; want ErrInsecureContext", err)
		}
		if _, err := Query(env); !errors.Is(err, ErrInsecureContext) {
			t.Errorf("Query from http: %v; want ErrInsecureContext", err)
		}
		p := NewFuture()
		RequestPromise(env, "x", Options{}, cb, p)
		if _, err := p.Result(); !errors.Is(err, ErrInsecureContext) {
			t.Errorf("RequestPromise from http: %v", err)
		}
	})
	local := openWindow(t, ua, "http://localhost/")
	onLoop(t, local, func() {
		if _, err := Query(local); err != nil {
			t.Errorf("Query from http://localhost (potentially trustworthy): %v", err)
		}
	})
}

// Calling the Go API from a goroutine that is not the environment's event
// loop fails with an error naming the loop.
func TestWrongGoroutineDetected(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	_, err := Request(env, "x", Options{}, func(*Lock) Waiting { return nil })
	var wg *html.WrongGoroutineError
	if !errors.As(err, &wg) || !strings.Contains(err.Error(), env.ResponsibleEventLoop().Name()) {
		t.Fatalf("Request from the test goroutine: %v; want a WrongGoroutineError naming %q", err, env.ResponsibleEventLoop().Name())
	}
	if _, err := Query(env); !errors.As(err, &wg) {
		t.Fatalf("Query from the test goroutine: %v", err)
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), "wrong goroutine") {
				t.Errorf("RequestPromise from the test goroutine: panic %v; want a wrong-goroutine panic", r)
			}
		}()
		RequestPromise(env, "x", Options{}, func(*Lock) Waiting { return nil }, NewFuture())
	}()
	// Another window's loop is not env's loop either.
	other := openWindow(t, ua, "https://b.test/")
	onLoop(t, other, func() {
		if _, err := Query(env); !errors.As(err, &wg) {
			t.Errorf("Query from another loop: %v", err)
		}
	})
}

func TestNilArguments(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	if _, err := Request(nil, "x", Options{}, func(*Lock) Waiting { return nil }); err == nil || !strings.Contains(err.Error(), "nil environment") {
		t.Errorf("Request(nil, ...) = %v", err)
	}
	if _, err := Query(nil); err == nil || !strings.Contains(err.Error(), "nil environment") {
		t.Errorf("Query(nil) = %v", err)
	}
	var m *Manager
	onLoop(t, env, func() {
		if _, err := m.Query(env); err == nil || !strings.Contains(err.Error(), "nil *Manager") {
			t.Errorf("nil manager Query = %v", err)
		}
		if _, err := Request(env, "x", Options{}, nil); err == nil || !strings.Contains(err.Error(), "nil callback") {
			t.Errorf("nil callback = %v", err)
		}
	})
	for what, f := range map[string]func(){
		"OnSettled(nil)":     func() { NewFuture().OnSettled(nil) },
		"RequestPromise nil": func() { RequestPromise(env, "x", Options{}, nil, nil) },
		"QueryPromise nil":   func() { QueryPromise(env, nil) },
	} {
		func() {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.HasPrefix(s, "weblocks: ") && !strings.HasPrefix(s, "htmlhost: ") {
					t.Errorf("%s: panic %#v; want a weblocks or htmlhost message", what, r)
				}
			}()
			f()
		}()
	}
}

// AbortController.Abort from another goroutine while a request with its
// signal is being granted used to race (the race detector flagged it); the
// signal is now bound to the requester's loop and the call panics with a
// message naming that loop.
func TestAbortFromWrongGoroutine(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	ctrl := dom.NewAbortController()
	r := request(t, env, "a", Options{Signal: ctrl.Signal()})
	defer func() {
		v := recover()
		s, _ := v.(string)
		if !strings.Contains(s, "wrong goroutine") || !strings.Contains(s, env.ResponsibleEventLoop().Name()) {
			t.Fatalf("Abort from the test goroutine: panic %#v; want a wrong-goroutine message naming %q", v, env.ResponsibleEventLoop().Name())
		}
		r.await()
		// On the loop it works.
		onLoop(t, env, func() { ctrl.Abort(nil) })
	}()
	ctrl.Abort("from the wrong goroutine")
}
