package webidl

import (
	"runtime"
	"strconv"
	"testing"
	"weak"

	"github.com/grafana/sobek"
)

// gc runs the collector enough times for weak pointers to clear and
// cleanups of cycles to finish.
func gc() {
	for range 4 {
		runtime.GC()
	}
}

// TestReflectedObjectsAreCollected checks that platform objects whose
// implementations embed a Reflector are collected, implementations
// included, once neither script nor Go code references them: the slot
// table must not keep them alive for the realm's lifetime.
func TestReflectedObjectsAreCollected(t *testing.T) {
	r := newTestRealm(t, true)
	const n = 100
	run(t, r, `globalThis.made = []; for (let i = 0; i < 100; i++) made.push(Thing.make()); 0`)
	made := r.VM.Get("made").(*sobek.Object)
	impls := make([]weak.Pointer[thing], n)
	for i := range n {
		impl, ok := r.ImplOf(made.Get(itoa(i))).(*thing)
		if !ok {
			t.Fatalf("made[%d] has no Thing implementation", i)
		}
		impls[i] = weak.Make(impl)
	}
	made = nil
	run(t, r, `made = null; 0`)
	// The lookup cache holds the last objects looked up: look up others.
	for range len(r.slotCache) + 1 {
		_ = r.ImplOf(r.Wrap(&thing{}, "Thing"))
	}
	gc()
	alive := 0
	for _, w := range impls {
		if w.Value() != nil {
			alive++
		}
	}
	if alive > 0 {
		t.Errorf("%d of %d unreferenced Thing implementations are still alive", alive, n)
	}
	runtime.KeepAlive(r) // the realm, and its slot table, stay
}

// TestReflectedObjectSurvivesCollection checks the other side: an object
// script still references keeps its slot (it is held by the object, not
// by the table), and an implementation Go code still references keeps its
// object, with the object's identity and expando properties.
func TestReflectedObjectSurvivesCollection(t *testing.T) {
	r := newTestRealm(t, true)
	th := &thing{n: 5}
	if err := r.VM.Set("get", func(sobek.FunctionCall) sobek.Value { return r.Wrap(th, "Thing") }); err != nil {
		t.Fatal(err)
	}
	run(t, r, `get().expando = 42; globalThis.kept = Thing.make(); 0`)
	first := weak.Make(r.Wrap(th, "Thing").(*sobek.Object))
	_ = r.ImplOf(r.Wrap(&thing{}, "Thing"))
	gc()
	expectJS(t, r, map[string]string{
		`get().expando`: "42",
		`kept.n`:        "7",
	})
	if first.Value() != r.Wrap(th, "Thing") {
		t.Error("the object of an implementation Go code references changed over a collection")
	}
	runtime.KeepAlive(th)
}

func itoa(i int) string { return strconv.Itoa(i) }
