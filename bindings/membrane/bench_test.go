package membrane

import (
	"testing"

	"github.com/grafana/sobek"
)

// benchLoop runs body (an expression using i) b.N times in a JavaScript
// loop of runtime vm, after setup.
func benchLoop(b *testing.B, vm *sobek.Runtime, setup, body string) {
	b.Helper()
	run(b, vm, setup)
	f, ok := sobek.AssertFunction(run(b, vm, `(function (n) { let s = 0; for (let i = 0; i < n; i++) { s += `+body+`; } return s; })`))
	if !ok {
		b.Fatal("no loop function")
	}
	b.ReportAllocs()
	b.ResetTimer()
	if _, err := f(sobek.Undefined(), vm.ToValue(b.N)); err != nil {
		b.Fatal(err)
	}
}

const benchA = `
	function add1(x) { return x + 1; }
	var obj = { x: 1 };
	function make() { return {}; }
	function same() { return obj; }
`

// BenchmarkCall compares a call to a function of the same runtime with
// a call through the membrane to a function of another runtime.
func BenchmarkCall(b *testing.B) {
	b.Run("same-runtime", func(b *testing.B) {
		p := newPair(b)
		benchLoop(b, p.b, benchA, `add1(i)`)
	})
	b.Run("cross-runtime", func(b *testing.B) {
		p := newPair(b)
		run(b, p.a, benchA)
		benchLoop(b, p.b, `var add1 = frame.add1;`, `add1(i)`)
	})
}

// BenchmarkGet compares reading a property of an object of the same
// runtime with reading it through a wrapper.
func BenchmarkGet(b *testing.B) {
	b.Run("same-runtime", func(b *testing.B) {
		p := newPair(b)
		benchLoop(b, p.b, benchA, `obj.x`)
	})
	b.Run("cross-runtime", func(b *testing.B) {
		p := newPair(b)
		run(b, p.a, benchA)
		benchLoop(b, p.b, `var obj = frame.obj;`, `obj.x`)
	})
}

// BenchmarkWrapper measures a call returning an object: a new object
// each time (a wrapper is made for it) or the same one (the cached wrapper
// is found), against the same calls within one runtime.
func BenchmarkWrapper(b *testing.B) {
	b.Run("same-runtime-new", func(b *testing.B) {
		p := newPair(b)
		benchLoop(b, p.b, benchA, `(make(), 1)`)
	})
	b.Run("cross-runtime-new", func(b *testing.B) {
		p := newPair(b)
		run(b, p.a, benchA)
		benchLoop(b, p.b, `var make = frame.make;`, `(make(), 1)`)
	})
	b.Run("cross-runtime-cached", func(b *testing.B) {
		p := newPair(b)
		run(b, p.a, benchA)
		benchLoop(b, p.b, `var same = frame.same;`, `(same(), 1)`)
	})
	b.Run("go-wrap-new", func(b *testing.B) {
		p := newPair(b)
		objs := make([]sobek.Value, b.N)
		for i := range objs {
			objs[i] = p.a.NewObject()
		}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			p.m.Wrap(p.a, p.b, objs[i])
		}
	})
}
