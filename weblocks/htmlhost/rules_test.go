package htmlhost

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/storage"
	. "github.com/gowebengine/weblocks/weblocks"
)

// Tests for the rules other engines got wrong, and for each rejection of the
// request() and query() method steps. They run on the goroutine scheduler.

func infos(s LockList) string {
	var b []string
	for _, l := range s.All() {
		b = append(b, string(l.Name)+"/"+l.Mode.String())
	}
	return strings.Join(b, " ")
}

// Node.js leaked the lock of a callback that throws synchronously.
func TestThrowingCallbackReleasesLock(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	var released *Future
	onLoop(t, env, func() {
		var err error
		released, err = Request(env, "r", Options{}, func(*Lock) Waiting { panic("boom") })
		if err != nil {
			t.Error(err)
		}
	})
	_, err := result(t, released)
	var cp *CallbackPanic
	if !errors.As(err, &cp) || cp.Value != "boom" {
		t.Fatalf("released promise: got %v, want a rejection with the panic", err)
	}
	// The lock was released: another exclusive request is granted.
	request(t, env, "r", Options{}).await()
	if s := query(t, env); infos(s.Held) != "r/exclusive" || s.Pending.Len() != 0 {
		t.Fatalf("snapshot %+v", s)
	}
}

// The same with a callback that returns a rejected promise (JS: an async
// function that throws).
func TestRejectingCallbackReleasesLock(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	var released *Future
	onLoop(t, env, func() {
		released, _ = Request(env, "r", Options{}, func(*Lock) Waiting { return Rejected("nope") })
	})
	result(t, released)
	var re *dom.AbortReasonError
	if _, err := released.Result(); !errors.As(err, &re) || re.Reason != "nope" {
		t.Fatalf("rejection reason: got %v", err)
	}
	request(t, env, "r", Options{}).await()
}

// Node.js let a new shared request jump a queued exclusive one.
func TestSharedDoesNotJumpQueuedExclusive(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	s1 := request(t, env, "r", Options{Mode: Shared})
	h1 := s1.await()
	x := request(t, env, "r", Options{Mode: Exclusive})
	s2 := request(t, env, "r", Options{Mode: Shared})
	snap := query(t, env)
	if infos(snap.Held) != "r/shared" || infos(snap.Pending) != "r/exclusive r/shared" {
		t.Fatalf("snapshot held [%s] pending [%s]", infos(snap.Held), infos(snap.Pending))
	}
	s2.notGranted()
	h1.release(t, nil)
	hx := x.await()
	s2.notGranted()
	hx.release(t, nil)
	s2.await()
}

// Deno's grantable ignored the queue: ifAvailable must get null when the
// mode would be compatible with the holders but others are queued.
func TestIfAvailableNeedsEmptyQueue(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	h := request(t, env, "r", Options{Mode: Shared}).await()
	request(t, env, "r", Options{Mode: Exclusive}) // queued
	var got []string
	var released *Future
	onLoop(t, env, func() {
		released, _ = Request(env, "r", Options{Mode: Shared, IfAvailable: true}, func(l *Lock) Waiting {
			if l == nil {
				got = append(got, "null")
			} else {
				got = append(got, "lock")
			}
			return Resolved("done")
		})
	})
	v, err := result(t, released)
	if err != nil || v != "done" || !slices.Equal(got, []string{"null"}) {
		t.Fatalf("ifAvailable: callback got %v, released %v %v", got, v, err)
	}
	// With no queue and compatible holders it is granted at once.
	h.release(t, nil)
	env2 := openWindow(t, ua, "https://b.test/")
	request(t, env2, "r", Options{Mode: Shared}).await()
	onLoop(t, env2, func() {
		released, _ = Request(env2, "r", Options{Mode: Shared, IfAvailable: true}, func(l *Lock) Waiting {
			if l == nil {
				return Resolved("null")
			}
			return Resolved(l.Mode().String())
		})
	})
	if v, _ := result(t, released); v != "shared" {
		t.Fatalf("compatible ifAvailable: got %v", v)
	}
}

// Node.js did not wake waiters when a thread holding a lock exited.
func TestTerminatingAnAgentGrantsTheNextWaiter(t *testing.T) {
	ua := newUA(t)
	win := openWindow(t, ua, "https://a.test/")
	worker := startWorker(t, win, "https://a.test/w.js")
	request(t, worker, "r", Options{}).await()
	request(t, worker, "q", Options{}).await()
	request(t, worker, "q", Options{}) // a pending request of the worker
	w := request(t, win, "r", Options{})
	w.notGranted()
	worker.Agent().Terminate()
	w.await()
	s := query(t, win)
	if infos(s.Held) != "r/exclusive" || s.Pending.Len() != 0 {
		t.Fatalf("after termination: held [%s] pending [%s]", infos(s.Held), infos(s.Pending))
	}
	for _, l := range s.Held.All() {
		if l.ClientID != win.ID() {
			t.Fatalf("held by %s, want %s", l.ClientID, win.ID())
		}
	}
	// A terminated environment cannot request any more.
	var err error
	onLoop(t, win, func() {
		_, err = Request(worker, "z", Options{}, func(*Lock) Waiting { return nil })
	})
	if domErrorName(err) != dom.InvalidStateError {
		t.Fatalf("request from a terminated worker: %v", err)
	}
}

// Unloading a same-origin iframe releases its locks only, not those of its
// parent that shares its agent (the deliberate deviation, see client).
func TestUnloadingAnIframeKeepsItsParentsLocks(t *testing.T) {
	ua := newUA(t)
	top := openWindow(t, ua, "https://a.test/")
	frame := openFrame(t, top, "https://a.test/frame", false)
	if top.Agent() != frame.Agent() {
		t.Fatal("setup: a same-origin iframe should share its parent's agent")
	}
	request(t, top, "parent", Options{}).await()
	request(t, frame, "child", Options{}).await()
	request(t, frame, "parent", Options{}) // pending
	frame.AssociatedDocument().Unload()
	s := query(t, top)
	if infos(s.Held) != "parent/exclusive" || s.Pending.Len() != 0 || s.Held.At(0).ClientID != top.ID() {
		t.Fatalf("after unloading the iframe: held [%s] pending [%s]", infos(s.Held), infos(s.Pending))
	}
	// The unloaded document cannot request.
	var err error
	onLoop(t, top, func() {
		_, err = Request(frame, "x", Options{}, func(*Lock) Waiting { return nil })
	})
	if domErrorName(err) != dom.InvalidStateError {
		t.Fatalf("request from an unloaded document: %v", err)
	}
}

// Node.js's query() only listed the calling thread's locks; query must list
// every client of the bucket, pending requests per name in request order.
func TestQueryListsEveryClientOfTheBucket(t *testing.T) {
	ua := newUA(t)
	top := openWindow(t, ua, "https://a.test/")
	frame := openFrame(t, top, "https://a.test/f", false)
	worker := startWorker(t, top, "https://a.test/w.js")
	other := openWindow(t, ua, "https://a.test/other") // another agent
	request(t, top, "n1", Options{}).await()
	request(t, frame, "n2", Options{Mode: Shared}).await()
	request(t, worker, "n2", Options{Mode: Shared}).await()
	request(t, other, "n1", Options{})
	request(t, worker, "n1", Options{Mode: Shared})
	request(t, frame, "n2", Options{})
	request(t, top, "n1", Options{})
	want := map[string][]string{}
	for _, env := range []*struct {
		name string
		id   string
	}{{"top", top.ID()}, {"frame", frame.ID()}, {"worker", worker.ID()}, {"other", other.ID()}} {
		want[env.id] = []string{env.name}
	}
	name := func(id string) string { return want[id][0] }
	s := query(t, other)
	var held, pending []string
	for _, l := range s.Held.All() {
		held = append(held, string(l.Name)+"/"+l.Mode.String()+"/"+name(l.ClientID))
	}
	for _, l := range s.Pending.All() {
		pending = append(pending, string(l.Name)+"/"+l.Mode.String()+"/"+name(l.ClientID))
	}
	wantHeld := []string{"n1/exclusive/top", "n2/shared/frame", "n2/shared/worker"}
	if !slices.Equal(held, wantHeld) {
		t.Fatalf("held %v, want %v", held, wantHeld)
	}
	// per-name request order (the order across names is not specified)
	var n1, n2 []string
	for _, p := range pending {
		if strings.HasPrefix(p, "n1/") {
			n1 = append(n1, p)
		} else {
			n2 = append(n2, p)
		}
	}
	if w := []string{"n1/exclusive/other", "n1/shared/worker", "n1/exclusive/top"}; !slices.Equal(n1, w) {
		t.Fatalf("n1 pending %v, want %v", n1, w)
	}
	if w := []string{"n2/exclusive/frame"}; !slices.Equal(n2, w) {
		t.Fatalf("n2 pending %v, want %v", n2, w)
	}
}

// Chromium reported a random GUID per connection: clientId must be the
// environment's id.
func TestClientIDIsTheEnvironmentID(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	worker := startWorker(t, env, "https://a.test/w.js")
	request(t, env, "x", Options{}).await()
	request(t, worker, "y", Options{}).await()
	s := query(t, worker)
	ids := map[string]string{}
	for _, l := range s.Held.All() {
		ids[string(l.Name)] = l.ClientID
	}
	if ids["x"] != env.ID() || ids["y"] != worker.ID() || env.ID() == worker.ID() {
		t.Fatalf("clientIds %v, want x=%s y=%s", ids, env.ID(), worker.ID())
	}
}

// Locks never cross origins, partitions, buckets or user agents: an
// exclusive lock held in one leaves the same name free in the others.
func TestLocksNeverCrossScopes(t *testing.T) {
	ua := newUA(t)
	a := openWindow(t, ua, "https://a.test/")
	request(t, a, "r", Options{}).await()
	sameKey := openWindow(t, ua, "https://a.test/again")
	if r := ifAvailable(t, sameKey, nil); r != "null" {
		t.Fatalf("same storage key in another window: got %s, want null (shared manager)", r)
	}
	bTop := openWindow(t, ua, "https://b.test/")
	check := func(what string, got string) {
		t.Helper()
		if got != "exclusive" {
			t.Errorf("%s: got %s, want the lock (no sharing)", what, got)
		}
	}
	check("another origin, same site", ifAvailable(t, openWindow(t, ua, "https://x.a.test/"), nil))
	check("another port", ifAvailable(t, openWindow(t, ua, "https://a.test:8443/"), nil))
	check("same origin under another top-level site", ifAvailable(t, openFrame(t, bTop, "https://a.test/", false), nil))
	check("another user agent (private browsing)", ifAvailable(t, openWindow(t, ua.NewPrivateBrowsingSession(), "https://a.test/"), nil))
	shelf, err := storage.ObtainALocalStorageShelf(a)
	if err != nil {
		t.Fatal(err)
	}
	bucket, err := shelf.OpenBucket("other")
	if err != nil {
		t.Fatal(err)
	}
	check("another bucket", ifAvailable(t, a, LockManagerForBucket(ua, bucket)))
	// and the same partitioned key is shared within its partition
	f1 := openFrame(t, bTop, "https://a.test/one", false)
	request(t, f1, "p", Options{}).await()
	bTop2 := openWindow(t, ua, "https://b.test/2")
	f2 := openFrame(t, bTop2, "https://a.test/two", false)
	if got := ifAvailableName(t, f2, nil, "p"); got != "null" {
		t.Fatalf("same partition, another page: got %s, want null", got)
	}
}

// ifAvailable requests "r" with ifAvailable from env (in manager m, or env's
// default one) and returns what the callback got: "null" or the mode.
func ifAvailable(t *testing.T, env *html.EnvironmentSettingsObject, m *Manager) string {
	t.Helper()
	return ifAvailableName(t, env, m, "r")
}

func ifAvailableName(t *testing.T, env *html.EnvironmentSettingsObject, m *Manager, name Name) string {
	t.Helper()
	var f *Future
	var err error
	onLoop(t, env, func() {
		cb := func(l *Lock) Waiting {
			if l == nil {
				return Resolved("null")
			}
			return Resolved(l.Mode().String())
		}
		if m != nil {
			f, err = m.Request(env, name, Options{IfAvailable: true}, cb)
		} else {
			f, err = Request(env, name, Options{IfAvailable: true}, cb)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	v, err := result(t, f)
	if err != nil {
		t.Fatal(err)
	}
	return v.(string)
}

// Terminating a worker from another goroutine while its event loop is busy
// requesting locks must leave none of its locks or requests behind.
func TestTerminateWhileRequesting(t *testing.T) {
	ua := newUA(t)
	win := openWindow(t, ua, "https://a.test/")
	for round := 0; round < 50; round++ {
		worker := startWorker(t, win, "https://a.test/w.js")
		started := make(chan struct{})
		worker.ResponsibleEventLoop().QueueTask(html.DOMManipulationTaskSource, func() {
			close(started)
			for i := 0; i < 200; i++ {
				Request(worker, "r", Options{Mode: Mode(i % 2)}, func(*Lock) Waiting { return NewFuture() })
			}
		})
		<-started
		worker.Agent().Terminate()
		h := request(t, win, "r", Options{}).await()
		if s := query(t, win); s.Held.Len() != 1 || s.Pending.Len() != 0 || s.Held.At(0).ClientID != win.ID() {
			t.Fatalf("round %d: worker state left behind: held [%s] pending [%s]", round, infos(s.Held), infos(s.Pending))
		}
		h.release(t, nil)
	}
}
