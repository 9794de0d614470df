package bindings

import (
	"strconv"
	"testing"
	"weak"

	"github.com/grafana/sobek"
)

// TestKeptLockRetainsNoCallback checks that a Lock object the page keeps
// after its lock was released does not keep the request's callback or its
// waiting promise alive (the Lock object's slot keeps the request's state;
// what is only needed until the release is let go of), for callbacks that
// return a plain value and callbacks that return a promise.
func TestKeptLockRetainsNoCallback(t *testing.T) {
	w := newWorld(t)
	j := w.window("https://example.com/")
	const n = 20
	j.async(`
		globalThis.kept = [];
		globalThis.cbs = [];
		globalThis.waits = [];
		const ps = [];
		for (let i = 0; i < 20; i++) {
			const cb = i % 2 ? lock => { kept.push(lock); } : async lock => { kept.push(lock); };
			cbs.push(cb);
			ps.push(navigator.locks.request('r', cb).then(v => waits.push(v)));
		}
		Promise.all(ps).then(done);
	`)
	var ptrs []weak.Pointer[sobek.Object]
	j.r.QueueTask(func(vm *sobek.Runtime) {
		cbs := vm.Get("cbs").(*sobek.Object)
		kept := vm.Get("kept").(*sobek.Object)
		for i := range n {
			ptrs = append(ptrs, weak.Make(cbs.Get(strconv.Itoa(i)).(*sobek.Object)))
			if j.r.idl.ImplOf(kept.Get(strconv.Itoa(i))) == nil {
				t.Errorf("kept[%d] is not a Lock", i)
			}
		}
	})
	w.settle()
	if len(ptrs) != n {
		t.Fatalf("%d callbacks, want %d", len(ptrs), n)
	}
	j.exec(`cbs = null; waits = null;`)
	if alive := aliveAfterGC(ptrs); alive > 0 {
		t.Errorf("%d of %d callbacks of released locks whose Lock objects the page keeps are still alive", alive, n)
	}
	if got := j.eval(`kept.length + ' ' + kept[3].name + ' ' + kept[4].mode`); got != "20 r exclusive" {
		t.Errorf("kept locks: %q", got)
	}
}

// TestKeptLockRetainsNoRequest checks that a Lock object the page keeps
// after its lock was released does not keep its request's released
// promise alive: the Lock object's slot (which the realm's slot table
// holds as long as the object lives, and for a while after) holds only
// the lock's name and mode, not the request's bindings state.
func TestKeptLockRetainsNoRequest(t *testing.T) {
	w := newWorld(t)
	j := w.window("https://example.com/")
	const n = 20
	j.async(`
		globalThis.kept = [];
		globalThis.rels = [];
		for (let i = 0; i < 20; i++) rels.push(navigator.locks.request('k', lock => { kept.push(lock); }));
		Promise.all(rels).then(done);
	`)
	var ptrs []weak.Pointer[sobek.Object]
	j.r.QueueTask(func(vm *sobek.Runtime) {
		rels := vm.Get("rels").(*sobek.Object)
		for i := range n {
			ptrs = append(ptrs, weak.Make(rels.Get(strconv.Itoa(i)).(*sobek.Object)))
		}
	})
	w.settle()
	if len(ptrs) != n {
		t.Fatalf("%d released promises, want %d", len(ptrs), n)
	}
	j.exec(`rels = null;`)
	if alive := aliveAfterGC(ptrs); alive > 0 {
		t.Errorf("%d of %d released promises of locks whose Lock objects the page keeps are still alive", alive, n)
	}
	if got := j.eval(`kept.length + ' ' + kept[7].name + ' ' + kept[8].mode`); got != "20 k exclusive" {
		t.Errorf("kept locks: %q", got)
	}
}

// TestLockCallbackFrameInUse checks that a grant while the LockManager's
// callback frame is in use (a nested grant) invokes the callback with its
// Lock all the same and leaves the frame to its user.
func TestLockCallbackFrameInUse(t *testing.T) {
	w := newWorld(t)
	j := w.window("https://example.com/")
	var m *lockManagerImpl
	j.r.QueueTask(func(vm *sobek.Runtime) {
		m, _ = j.r.idl.ImplOf(vm.Get("navigator").(*sobek.Object).Get("locks")).(*lockManagerImpl)
	})
	w.settle()
	if m == nil {
		t.Fatal("navigator.locks has no lockManagerImpl")
	}
	m.frameBusy = true
	m.frame[1] = sobek.Null()
	j.async(`navigator.locks.request('f', l => l.name + ' ' + l.mode).then(v => { console.log(v); done(); });`)
	if got := j.takeLog(); len(got) != 1 || got[0] != "f exclusive" {
		t.Errorf("log %q, want [f exclusive]", got)
	}
	if !m.frameBusy || m.frame[1] != sobek.Null() {
		t.Errorf("the frame in use was changed: busy %v, frame[1] %v", m.frameBusy, m.frame[1])
	}
	m.frameBusy = false
	j.async(`navigator.locks.request('f', l => l.name).then(v => { console.log(v); done(); });`)
	if got := j.takeLog(); len(got) != 1 || got[0] != "f" {
		t.Errorf("log %q, want [f]", got)
	}
	if m.frameBusy || m.frame[1] != nil {
		t.Errorf("the frame was not released: busy %v, frame[1] %v", m.frameBusy, m.frame[1])
	}
}
