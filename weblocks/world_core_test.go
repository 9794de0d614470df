package weblocks

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/storage"
)

// The core tests' world: a Service on a manual lock task queue, and
// environments (contract clients) each with a manual event loop, all run
// step by step by the test's goroutine (RunUntilIdle), with no html type.
// The entry points below (Request, Query, QueryInto) are the Go API's
// Future adapters (RequestFuture, QueryFuture) for a test environment, as
// a host's would be.

// manualSched runs the lock task queue and the event loops.
type manualSched struct {
	ltq   []Task
	loops []*testEnv
}

func (s *manualSched) EnqueueTask(t Task) bool { s.ltq = append(s.ltq, t); return true }

// RunUntilIdle runs the lock task queue's steps and the loops' tasks until
// none is left.
func (s *manualSched) RunUntilIdle() {
	for {
		ran := false
		for len(s.ltq) > 0 {
			t := s.ltq[0]
			s.ltq = s.ltq[1:]
			t.RunTask()
			ran = true
		}
		for _, e := range s.loops {
			for len(e.tasks) > 0 {
				t := e.tasks[0]
				e.tasks = e.tasks[1:]
				t.RunTask()
				ran = true
			}
		}
		if !ran {
			return
		}
	}
}

// testEnv is an environment of the core tests' world: a client of the
// default bucket of https://a.test/ with a manual event loop.
type testEnv struct {
	w     *manualWorld
	id    string
	c     Client
	tasks []Task
	gone  bool
}

// ID returns the environment's id.
func (e *testEnv) ID() string { return e.id }

// terminate terminates the environment (its agent or document went away).
func (e *testEnv) terminate() {
	e.gone = true
	_ = e.w.svc.TerminateClient(e.c)
}

func (e *testEnv) deliver(t Task) {
	if e.gone {
		t.DropTask()
		return
	}
	e.tasks = append(e.tasks, t)
}

type manualWorld struct {
	sched *manualSched
	svc   *Service
	env   *testEnv
	n     int
}

func coreBucket() Bucket {
	o := origin.Parse("https://a.test")
	return Bucket{Key: storage.StorageKey{Origin: o, TopLevelSite: origin.ObtainSite(o)}}
}

func newManualWorld(t testing.TB) *manualWorld {
	sched := &manualSched{}
	w := &manualWorld{sched: sched, svc: NewServiceOn(sched)}
	w.env = w.newEnv(t)
	return w
}

func (w *manualWorld) newEnv(t testing.TB) *testEnv {
	t.Helper()
	w.n++
	e := &testEnv{w: w, id: "env" + string(rune('0'+w.n))}
	c, err := w.svc.Register(ClientConfig{ID: e.id, Bucket: coreBucket(), Deliver: e.deliver})
	if err != nil {
		t.Fatal(err)
	}
	e.c = c
	w.sched.loops = append(w.sched.loops, e)
	return e
}

// startWorker adds another environment (the url is for show).
func startWorker(t testing.TB, owner *testEnv, _ string) *testEnv { return owner.w.newEnv(t) }

// ObtainALockManager returns the lock manager of env's bucket.
func ObtainALockManager(env *testEnv) (*LockManager, error) {
	return env.w.svc.managerFor(coreBucket()), nil
}

var testFacts = Facts{SecureContext: true}

// Request is the Go API's request() for a test environment.
func Request(env *testEnv, name Name, opts Options, callback Callback) (*Future, error) {
	return RequestFuture(env.w.svc, env.c, testFacts, name, opts, callback)
}

// Query is the Go API's query() for a test environment.
func Query(env *testEnv) (*Future, error) { return QueryFuture(env.w.svc, env.c, testFacts, nil) }

// QueryInto is Query into dst.
func QueryInto(env *testEnv, dst *Snapshot) (*Future, error) {
	if dst == nil {
		return nil, errors.New("nil *Snapshot")
	}
	return QueryFuture(env.w.svc, env.c, testFacts, dst)
}

// hold requests name and returns a future that releases the lock when
// settled (its waiting promise).
func (w *manualWorld) hold(b testing.TB, name Name, mode Mode) *Future {
	waiting := NewFuture()
	if _, err := Request(w.env, name, Options{Mode: mode}, func(*Lock) Waiting { return waiting }); err != nil {
		b.Fatal(err)
	}
	return waiting
}

// asTask runs f as script of env would (the manual world runs everything
// on the test's goroutine).
func (w *manualWorld) asTask(_ *testEnv, f func()) { f() }

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

// domErrorName returns the DOMException name of err ("" if none).
func domErrorName(err error) string {
	var de *dom.DOMException
	if errors.As(err, &de) {
		return de.Name
	}
	return ""
}

// describeSnapshot renders a snapshot: held locks in order, pending
// requests sorted by name (stable: each name's in request order).
func describeSnapshot(s Snapshot) string {
	var b strings.Builder
	b.WriteString("held[")
	for _, l := range s.Held.All() {
		fmt.Fprintf(&b, "%q/%s/%s ", string(l.Name), l.Mode, l.ClientID)
	}
	b.WriteString("] pending[")
	p := s.Pending.Infos()
	sort.SliceStable(p, func(i, j int) bool { return p[i].Name < p[j].Name })
	for _, l := range p {
		fmt.Fprintf(&b, "%q/%s/%s ", string(l.Name), l.Mode, l.ClientID)
	}
	b.WriteString("]")
	return b.String()
}
