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
		worker.terminate()
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
	if s.Held.Len() != others || s.Pending.Len() != 0 {
		t.Fatalf("query after terminations: %d held, %d pending", s.Held.Len(), s.Pending.Len())
	}
	// A freed name (dropped from the map) and an idle one can be taken again.
	for _, n := range []Name{"w0", "w499", "other0x"} {
		w.hold(t, n, Exclusive)
	}
	w.sched.RunUntilIdle()
	if s := mquery(t, w); s.Held.Len() != others+3 {
		t.Fatalf("after re-requesting: %d held, want %d", s.Held.Len(), others+3)
	}
	if err := checkInvariants(m); err != nil {
		t.Fatal(err)
	}
}

// mquery is query on the manual scheduler.
func mquery(t testing.TB, w *manualWorld) Snapshot {
	t.Helper()
	return mqueryWith(t, w, func() (*Future, error) { return Query(w.env) }).(Snapshot)
}

// mqueryWith starts a query with start in a task of w's environment, runs
// the manual scheduler until idle, and returns the query's result.
func mqueryWith(t testing.TB, w *manualWorld, start func() (*Future, error)) any {
	t.Helper()
	var f *Future
	var err error
	w.asTask(w.env, func() { f, err = start() })
	if err != nil {
		t.Fatal(err)
	}
	w.sched.RunUntilIdle()
	v, err := result(t, f)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSnapshotIsFlat checks that a snapshot's allocations do not grow with
// the number of entries (one record array and one names table per list and
// the client ids), that a reused snapshot allocates nothing, and that it
// reads back what was held and queued.
func TestSnapshotIsFlat(t *testing.T) {
	allocs := map[int]float64{}
	for _, n := range []int{10, 1000} {
		w := newManualWorld(t)
		m, err := ObtainALockManager(w.env)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < n; i++ {
			name := Name("n" + strconv.Itoa(i%(n/2)))
			w.hold(t, name, Exclusive) // held, then pending behind it
		}
		w.sched.RunUntilIdle()
		var s Snapshot
		allocs[n] = testing.AllocsPerRun(20, func() { s = Snapshot{}; m.snapshotTheLockState(&s) })
		if a := testing.AllocsPerRun(20, func() { m.snapshotTheLockState(&s) }); a != 0 {
			t.Fatalf("n=%d: a reused snapshot allocates %v times", n, a)
		}
		if s.Held.Len() != n/2 || s.Pending.Len() != n/2 {
			t.Fatalf("n=%d: %d held, %d pending", n, s.Held.Len(), s.Pending.Len())
		}
		for i, l := range s.Held.All() {
			if want := Name("n" + strconv.Itoa(i)); l.Name != want || l.Mode != Exclusive || l.ClientID != w.env.ID() {
				t.Fatalf("n=%d: held[%d] = %+v, want %q", n, i, l, want)
			}
			if p := s.Pending.At(i); p.Name != l.Name || p.ClientID != w.env.ID() {
				t.Fatalf("n=%d: pending[%d] = %+v, want %q", n, i, p, l.Name)
			}
		}
	}
	if allocs[1000] > allocs[10] {
		t.Fatalf("snapshot allocations grow with entries: %v", allocs)
	}
}

func TestNewLockListRoundTrips(t *testing.T) {
	in := []LockInfo{{Name: "a", Mode: Shared, ClientID: "c1"}, {Name: "", ClientID: "c2"}, {Name: "😀", ClientID: "c1"}}
	l := NewLockList(in...)
	if got := l.Infos(); len(got) != len(in) || got[0] != in[0] || got[1] != in[1] || got[2] != in[2] {
		t.Fatalf("got %v, want %v", got, in)
	}
	if (LockList{}).Len() != 0 || len((LockList{}).Infos()) != 0 {
		t.Fatal("zero LockList is not empty")
	}
}
