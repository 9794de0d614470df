package webidl

import (
	"strconv"
	"testing"

	"github.com/grafana/sobek"
)

// TestCallbackCallability checks ToCallbackFunction's IsCallable against
// typeof (for an object, typeof is "function" exactly when it is
// callable), for every kind of function and for objects that are not
// callable, and that invoking each callable one through Invoke and
// InvokeFrame calls it with the this value and arguments given.
func TestCallbackCallability(t *testing.T) {
	r := newTestRealm(t, true)
	run(t, r, `globalThis.values = [
		function f(a) { return 'f' + a; },
		a => 'arrow' + a,
		async function af() {},
		async () => {},
		function* g() {},
		class C {},
		(function (a) { return this + a; }).bind('bound'),
		new Proxy(function (a) { return 'proxy' + a; }, {}),
		new Proxy({}, {}),
		Math.max,
		Promise,
		{},
		[],
		new Date(0),
		Object.create(Function.prototype),
	]; 0`)
	results := map[int]string{0: "f!", 1: "arrow!", 6: "bound!", 7: "proxy!", 9: "NaN"}
	values := r.VM.Get("values").(*sobek.Object)
	n := int(values.Get("length").ToInteger())
	for i := range n {
		v := values.Get(strconv.Itoa(i))
		want := run(t, r, "typeof values["+strconv.Itoa(i)+"]") == "function"
		var cb *CallbackFunction
		ex := r.VM.Try(func() { cb = r.ToCallbackFunction(v, false) })
		if got := ex == nil; got != want {
			t.Errorf("values[%d] (%s): converted %v, want %v (exception %v)", i, v, got, want, ex)
			continue
		}
		if !want {
			continue
		}
		// A second conversion for Invoke (which keeps a Callable).
		cb2 := r.ToCallbackFunction(v, false)
		frame := []sobek.Value{StringValue("this"), StringValue("!")}
		res1, err1 := cb.InvokeFrame(frame)
		res2, err2 := cb2.Invoke(StringValue("this"), StringValue("!"))
		if (err1 == nil) != (err2 == nil) {
			t.Errorf("values[%d]: InvokeFrame error %v, Invoke error %v", i, err1, err2)
			continue
		}
		if err1 == nil && res1.String() != res2.String() {
			t.Errorf("values[%d]: InvokeFrame gave %s, Invoke %s", i, res1, res2)
		}
		if w, ok := results[i]; ok && (err1 != nil || res1.String() != w) {
			t.Errorf("values[%d]: InvokeFrame gave %v (error %v), want %s", i, res1, err1, w)
		}
		if i == 5 && err1 == nil {
			t.Errorf("values[5]: invoking a class constructor did not throw")
		}
	}
	// A non-callable object with [LegacyTreatNonObjectAsNull] is kept and
	// invoking it does nothing.
	cb := r.ToCallbackFunction(r.VM.NewObject(), true)
	if res, err := cb.InvokeFrame([]sobek.Value{nil, sobek.Undefined()}); err != nil || res != sobek.Undefined() {
		t.Errorf("non-callable legacy callback: %v, %v", res, err)
	}
}
