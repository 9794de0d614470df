package bindings

import (
	"testing"

	"github.com/grafana/sobek"
)

// RealmOf finds the realm made for an environment, and an EventTargetBase
// (what integrators embed for their EventTarget subclasses) fires events
// its JavaScript object's listeners see and can cancel.
func TestRealmOfAndEventTargetBase(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://example.com/")
	if RealmOf(win.env) != win.r {
		t.Fatal("RealmOf(env) is not the environment's realm")
	}
	var notCanceled, again bool
	win.r.QueueTask(func(vm *sobek.Runtime) {
		base := NewEventTargetBase(win.r.IDL())
		_ = vm.Set("t", win.r.IDL().Wrap(base.eventTargetImpl, "EventTarget"))
		if _, err := vm.RunString(`var seen = []; t.addEventListener("x", e => { seen.push(e.type + ":" + e.isTrusted); e.preventDefault(); });`); err != nil {
			t.Error(err)
		}
		notCanceled = base.FireEvent("x", true, nil)
		again = base.FireEvent("x", false, nil)
	})
	w.settle()
	if notCanceled || !again {
		t.Errorf("FireEvent: cancelable event not canceled = %v; non-cancelable = %v", notCanceled, again)
	}
	if got := win.eval("seen.join()"); got != "x:true,x:true" {
		t.Errorf("listener saw %s", got)
	}
}
