package bindings

import (
	"runtime"
	"strconv"
	"testing"
	"weak"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/grafana/sobek"
)

// TestReflectorObjectsAreCollected checks that Event and EventTarget
// objects (implementations embedding webidl.Reflector) are collected with
// their implementations once script drops them, while their realm lives
// on, and that one the page keeps survives with its expando properties.
func TestReflectorObjectsAreCollected(t *testing.T) {
	w := newWorld(t)
	j := w.window("https://example.com/")
	const n = 50
	j.exec(`
		globalThis.made = [];
		for (let i = 0; i < 50; i++) made.push(new Event('x'), new EventTarget());
		globalThis.kept = new EventTarget();
		kept.expando = 'kept';
		globalThis.flush = Array.from({length: 8}, () => new EventTarget());
	`)
	var ptrs []weak.Pointer[webidl.Reflector]
	j.r.QueueTask(func(vm *sobek.Runtime) {
		made := vm.Get("made").(*sobek.Object)
		for i := range 2 * n {
			switch impl := j.r.idl.ImplOf(made.Get(strconv.Itoa(i))).(type) {
			case *eventImpl:
				ptrs = append(ptrs, weak.Make(&impl.Reflector))
			case *eventTargetImpl:
				ptrs = append(ptrs, weak.Make(&impl.Reflector))
			default:
				t.Errorf("made[%d]: implementation %T", i, impl)
			}
		}
		// The slot lookup cache holds the last objects looked up: look
		// up others (more than it holds).
		flush := vm.Get("flush").(*sobek.Object)
		for i := range 8 {
			j.r.idl.ImplOf(flush.Get(strconv.Itoa(i)))
		}
	})
	w.settle()
	if len(ptrs) != 2*n {
		t.Fatalf("%d implementations found, want %d", len(ptrs), 2*n)
	}
	j.exec(`made = null;`)
	if alive := aliveAfterGC(ptrs); alive > 0 {
		t.Errorf("%d of %d dropped Event/EventTarget implementations are still alive", alive, 2*n)
	}
	if got := j.eval(`kept.expando + ' ' + (kept instanceof EventTarget)`); got != "kept true" {
		t.Errorf("kept object after collection: %q", got)
	}
}

// aliveAfterGC runs the collector a few times and counts the weak pointers
// whose values survived.
func aliveAfterGC[T any](ptrs []weak.Pointer[T]) int {
	for range 4 {
		runtime.GC()
	}
	alive := 0
	for _, p := range ptrs {
		if p.Value() != nil {
			alive++
		}
	}
	return alive
}
