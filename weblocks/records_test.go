package weblocks

import (
	"math/rand"
	"slices"
	"strconv"
	"testing"
)

// TestRecordsCompaction drives one manager through enough grants, releases
// and name churn that its record arrays and name slots are compacted many
// times, and checks after every step the bookkeeping (checkInvariants) and
// query()'s answer against a model kept by the test: held locks in the
// order their callbacks ran, pending requests per name in request order,
// names in the order they were first used since they last had state.
func TestRecordsCompaction(t *testing.T) {
	w := newManualWorld(t)
	m, err := ObtainALockManager(w.env)
	if err != nil {
		t.Fatal(err)
	}
	type req struct {
		name    Name
		mode    Mode
		waiting *Future
	}
	var held []*req              // in grant order
	pending := map[Name][]*req{} // per name, in request order
	rng := rand.New(rand.NewSource(1))
	request := func(name Name, mode Mode) {
		r := &req{name: name, mode: mode, waiting: NewFuture()}
		pending[name] = append(pending[name], r)
		w.asTask(w.env, func() {
			_, err := Request(w.env, name, Options{Mode: mode}, func(l *Lock) Waiting {
				q := pending[name]
				if len(q) == 0 || q[0] != r {
					t.Fatalf("%q granted out of order", name)
				}
				pending[name] = q[1:]
				held = append(held, r)
				return r.waiting
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
	check := func(step int) {
		t.Helper()
		w.sched.RunUntilIdle()
		if err := checkInvariants(m); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		var s Snapshot
		m.snapshotTheLockState(&s)
		if s.Held.Len() != len(held) {
			t.Fatalf("step %d: %d held, want %d", step, s.Held.Len(), len(held))
		}
		for i, r := range held {
			if s.Held.At(i).Name != r.name || s.Held.At(i).Mode != r.mode || s.Held.At(i).ClientID != w.env.ID() {
				t.Fatalf("step %d: held[%d] = %+v, want %q %v", step, i, s.Held.At(i), r.name, r.mode)
			}
		}
		// Pending: grouped by name, each group in request order; the
		// groups' order is the manager's name order, checked by
		// checkInvariants, so here each group must be contiguous.
		seen := map[Name]bool{}
		for i := 0; i < s.Pending.Len(); {
			n := s.Pending.At(i).Name
			if seen[n] {
				t.Fatalf("step %d: pending requests of %q not contiguous", step, n)
			}
			seen[n] = true
			want := pending[n]
			for j, r := range want {
				if i+j >= s.Pending.Len() || s.Pending.At(i+j).Name != n || s.Pending.At(i+j).Mode != r.mode {
					t.Fatalf("step %d: pending group %q differs", step, n)
				}
			}
			i += len(want)
		}
		total := 0
		for _, q := range pending {
			total += len(q)
		}
		if total != s.Pending.Len() {
			t.Fatalf("step %d: %d pending, want %d", step, s.Pending.Len(), total)
		}
	}
	churn := 0
	for step := 0; step < 3000; step++ {
		switch k := rng.Intn(10); {
		case k < 4: // a request on one of a few contended names
			mode := Exclusive
			if rng.Intn(3) == 0 {
				mode = Shared
			}
			request(Name("c"+strconv.Itoa(rng.Intn(20))), mode)
		case k < 6: // a fresh name, so that names come and go
			churn++
			request(Name("f"+strconv.Itoa(churn)), Exclusive)
		default: // release a random held lock
			if len(held) > 0 {
				i := rng.Intn(len(held))
				r := held[i]
				held = slices.Delete(held, i, i+1)
				r.waiting.Resolve(nil)
			}
		}
		check(step)
	}
	// Name churn with requests queued on other names: many name states
	// are created and dropped, so the slots are compacted and the queued
	// requests' slots renumbered.
	request("zz-blocked", Exclusive)
	w.sched.RunUntilIdle()
	blocker := held[len(held)-1]
	for i := 0; i < 5; i++ {
		request("zz-blocked", Shared)
	}
	w.sched.RunUntilIdle()
	for i := 0; i < 600; i++ {
		churn++
		request(Name("g"+strconv.Itoa(churn)), Exclusive)
		w.sched.RunUntilIdle()
		r := held[len(held)-1]
		held = held[:len(held)-1]
		r.waiting.Resolve(nil)
		check(i)
	}
	held = slices.DeleteFunc(held, func(r *req) bool { return r == blocker })
	blocker.waiting.Resolve(nil)
	check(-1)
	for len(held) > 0 {
		r := held[0]
		held = held[1:]
		r.waiting.Resolve(nil)
		check(-1)
	}
	if len(m.held.recs) != 0 || len(m.pend.recs) != 0 {
		t.Fatalf("records left: %d held, %d pending", len(m.held.recs), len(m.pend.recs))
	}
}
