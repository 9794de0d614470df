package weblocks

import (
	"strconv"
	"strings"
	"testing"
)

// mqueryInto is QueryInto on the manual scheduler.
func mqueryInto(t testing.TB, w *manualWorld, dst *Snapshot) {
	t.Helper()
	v := mqueryWith(t, w, func() (*Future, error) { return QueryInto(w.env, dst) })
	if v != dst {
		t.Fatalf("QueryInto fulfilled with %T %v, want dst", v, v)
	}
}

// TestQueryIntoMatchesQuery checks that a snapshot reused by QueryInto
// reports what Query reports as the locks change (growing, shrinking,
// emptying), and that the entries read from an earlier result stay valid.
func TestQueryIntoMatchesQuery(t *testing.T) {
	w := newManualWorld(t)
	var dst Snapshot
	check := func(step string) []LockInfo {
		t.Helper()
		want := mquery(t, w)
		mqueryInto(t, w, &dst)
		if got, exp := describeSnapshot(dst), describeSnapshot(want); got != exp {
			t.Fatalf("%s: QueryInto %s, Query %s", step, got, exp)
		}
		return append(dst.Held.Infos(), dst.Pending.Infos()...)
	}
	var waitings []*Future
	for i := 0; i < 40; i++ {
		name := Name("n" + strconv.Itoa(i%7))
		mode := Exclusive
		if i%3 == 0 {
			mode = Shared
		}
		waitings = append(waitings, w.hold(t, name, mode))
	}
	w.sched.RunUntilIdle()
	first := check("40 requests")
	kept := append([]LockInfo(nil), first...)
	for _, f := range waitings[:25] {
		f.Resolve(nil)
	}
	w.sched.RunUntilIdle()
	check("after 25 releases")
	for i := range first {
		if first[i] != kept[i] {
			t.Fatalf("entry %d read from the first result changed: %+v, was %+v", i, first[i], kept[i])
		}
	}
	w.hold(t, "late", Shared)
	w.sched.RunUntilIdle()
	check("one more")
	for _, f := range waitings[25:] {
		f.Resolve(nil)
	}
	w.sched.RunUntilIdle()
	if got := check("all but one released"); len(got) != 1 {
		t.Fatalf("%d entries left, want 1", len(got))
	}
}

// TestQueryIntoStaleCopy checks that a copy of an earlier QueryInto result,
// overwritten by a later one in place, can still be read (overwritten, not
// out of range): here the later result has more names than the earlier
// result's names table, and as many held locks as its records.
func TestQueryIntoStaleCopy(t *testing.T) {
	w := newManualWorld(t)
	var dst Snapshot
	a1 := w.hold(t, "a", Shared)
	a2 := w.hold(t, "a", Shared)
	w.sched.RunUntilIdle()
	mqueryInto(t, w, &dst)
	old := dst.Held
	if old.Len() != 2 {
		t.Fatalf("first result: %v, want 2 held locks", old)
	}
	a1.Resolve(nil)
	a2.Resolve(nil)
	w.hold(t, "x", Shared)
	w.hold(t, "y", Shared)
	w.sched.RunUntilIdle()
	mqueryInto(t, w, &dst)
	if got := describeSnapshot(dst); !strings.Contains(got, "x") || !strings.Contains(got, "y") {
		t.Fatalf("second result %s, want x and y held", got)
	}
	for i := range old.Len() {
		func() {
			defer func() {
				if v := recover(); v != nil {
					t.Fatalf("reading entry %d of the earlier result's copy panicked: %v", i, v)
				}
			}()
			old.At(i)
		}()
	}
}
