package weblocks

import (
	"strconv"
	"testing"
)

// TestTerminateManyNamesTrimsOnce terminates a worker holding most of a
// manager's names (the map is rebuilt, see trimIdle) and then one holding a
// few of them (names deleted one by one): both leave the manager's
// bookkeeping consistent, the other client's locks in place, and the freed
// names requestable again.
func TestTerminateManyNamesTrimsOnce(t *testing.T) {
	w := newManualWorld(t)
	m, err := ObtainALockManager(w.env)
	if err != nil {
		t.Fatal(err)
	}
	const others = 10
	for i := 0; i < others; i++ {
		w.hold(t, Name("other"+strconv.Itoa(i)), Exclusive)
	}
	w.sched.RunUntilIdle()
	for _, locks := range []int{500, 3} {
		worker := startWorker(t, w.env, "https://a.test/w.js")
		var futures []*Future
		w.asTask(worker, func() {
			for i := 0; i < locks; i++ {
				f, err := Request(worker, Name("w"+strconv.Itoa(i)), Options{}, func(*Lock) Waiting { return NewFuture() })
				if err != nil {
					t.Fatal(err)
				}
				futures = append(futures, f)
			}
		})
		w.sched.RunUntilIdle()
		worker.Agent().Terminate()
		w.sched.RunUntilIdle()
		if err := checkInvariants(m); err != nil {
			t.Fatalf("%d locks: %v", locks, err)
		}
		// (500 > maxIdleNames: the first round leaves the idle list full.)
		if want := others + maxIdleNames; len(m.names) != want || m.idleCount != maxIdleNames {
			t.Fatalf("%d locks: %d names (%d idle), want %d", locks, len(m.names), m.idleCount, want)
		}
		for ns := m.firstName; ns != nil; ns = ns.next {
			if m.names[ns.name] != ns {
				t.Fatalf("%d locks: name %q listed but not mapped", locks, ns.name)
			}
		}
		for _, f := range futures {
			if _, err := result(t, f); domErrorName(err) != "AbortError" {
				t.Fatalf("%d locks: released future: %v, want AbortError", locks, err)
			}
		}
	}
	s := mquery(t, w)
	if len(s.Held) != others || len(s.Pending) != 0 {
		t.Fatalf("query after terminations: %d held, %d pending", len(s.Held), len(s.Pending))
	}
	// A freed name (dropped from the map) and an idle one can be taken again.
	for _, n := range []Name{"w0", "w499", "other0x"} {
		w.hold(t, n, Exclusive)
	}
	w.sched.RunUntilIdle()
	if s := mquery(t, w); len(s.Held) != others+3 {
		t.Fatalf("after re-requesting: %d held, want %d", len(s.Held), others+3)
	}
	if err := checkInvariants(m); err != nil {
		t.Fatal(err)
	}
}

// mquery is query on the manual scheduler.
func mquery(t testing.TB, w *manualWorld) Snapshot {
	t.Helper()
	var f *Future
	var err error
	w.asTask(w.env, func() { f, err = Query(w.env) })
	if err != nil {
		t.Fatal(err)
	}
	w.sched.RunUntilIdle()
	v, err := result(t, f)
	if err != nil {
		t.Fatal(err)
	}
	return v.(Snapshot)
}
