package bindings

import (
	"errors"
	"testing"

	"github.com/grafana/sobek"
)

// Unbounded JavaScript recursion stops at the realm's call-stack limit
// instead of growing until the process runs out of memory.
func TestJSRecursionIsBounded(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://example.com/")
	var err error
	win.r.QueueTask(func(vm *sobek.Runtime) {
		_, err = vm.RunString("function f() { return f() + 1; } f();")
	})
	w.settle()
	var so *sobek.StackOverflowError
	if !errors.As(err, &so) {
		t.Fatalf("unbounded recursion: %v, want a stack overflow", err)
	}
	if got := win.eval("(function g(n) { return n === 0 ? 0 : 1 + g(n - 1); })(5000)"); got != "5000" {
		t.Errorf("a recursion 5000 deep: %s", got)
	}
}

// A stack overflow that reaches the top of a task is reported as the
// RangeError browsers throw: the global's error event sees that value.
func TestStackOverflowReportedAsRangeError(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://example.com/")
	win.r.QueueTask(func(vm *sobek.Runtime) {
		_, _ = vm.RunString(`var seen = "none"; addEventListener("error", e => { seen = e.error instanceof RangeError ? "RangeError: " + e.error.message : String(e.error); });`)
	})
	w.settle()
	win.r.QueueScript("overflow.js", "function f() { return f() + 1; } f();", nil)
	w.settle()
	if got := win.eval("seen"); got != "RangeError: Maximum call stack size exceeded" {
		t.Errorf("error event saw %s", got)
	}
}
