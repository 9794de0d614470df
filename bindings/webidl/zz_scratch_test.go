package webidl

import (
	"testing"

	"github.com/grafana/sobek"
)

func BenchmarkZZ(b *testing.B) {
	cases := map[string]func(vm *sobek.Runtime){
		"none":    func(vm *sobek.Runtime) {},
		"Promise": func(vm *sobek.Runtime) { vm.GlobalObject().Get("Promise") },
		"PromiseThen": func(vm *sobek.Runtime) {
			vm.GlobalObject().Get("Promise").(*sobek.Object).Get("prototype").(*sobek.Object).Get("then")
		},
		"NewPromise": func(vm *sobek.Runtime) { vm.NewPromise() },
		"Error":      func(vm *sobek.Runtime) { vm.GlobalObject().Get("Error") },
		"TypeError":  func(vm *sobek.Runtime) { vm.GlobalObject().Get("TypeError") },
		"Object":     func(vm *sobek.Runtime) { vm.GlobalObject().Get("Object").(*sobek.Object).Get("prototype").(*sobek.Object).Get("hasOwnProperty") },
		"Array": func(vm *sobek.Runtime) {
			vm.GlobalObject().Get("Array").(*sobek.Object).Get("prototype").(*sobek.Object).Get("values")
		},
		"WeakMap": func(vm *sobek.Runtime) {
			w := vm.GlobalObject().Get("WeakMap").(*sobek.Object)
			w.Get("prototype").(*sobek.Object).Get("set")
			vm.New(w)
		},
		"Function": func(vm *sobek.Runtime) {
			vm.GlobalObject().Get("Function").(*sobek.Object).Get("prototype").(*sobek.Object).Get("call")
		},
		"Reflect": func(vm *sobek.Runtime) { vm.GlobalObject().Get("Reflect").(*sobek.Object).Get("get") },
		"Symbol":  func(vm *sobek.Runtime) { vm.GlobalObject().Get("Symbol").(*sobek.Object).Get("asyncIterator") },
		"JSON":    func(vm *sobek.Runtime) { vm.GlobalObject().Get("JSON").(*sobek.Object).Get("stringify") },
		"fn10": func(vm *sobek.Runtime) {
			for i := 0; i < 10; i++ {
				vm.ToValue(func(sobek.FunctionCall) sobek.Value { return nil })
			}
		},
		"proxy": func(vm *sobek.Runtime) { vm.NewProxy(vm.NewObject(), &sobek.ProxyTrapConfig{}) },
	}
	for _, n := range []string{"none", "Promise", "PromiseThen", "NewPromise", "Error", "TypeError", "Object", "Array", "WeakMap", "Function", "Reflect", "Symbol", "JSON", "fn10", "proxy"} {
		f := cases[n]
		b.Run(n, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				vm := NewRuntime()
				f(vm)
			}
		})
	}
}
