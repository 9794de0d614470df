//go:build unix

package main

import (
	"syscall"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/weblocks"
	"github.com/grafana/sobek"
)

// The foreign host's request/release cycle against the engine floor: the
// same script in a bare sobek runtime whose req makes a promise, calls the
// callback and resolves the promise with its result (as bindings'
// BenchmarkEngineFloorCycle). Side by side in one run:
//
//	go test -run x -bench . -benchmem -count 3 ./examples/foreignhost

const cycleScript = `(async n => { for (let i = 0; i < n; i++) await navigator.locks.request('a', () => {}); })`

func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	if d := processCPU() - start; d > 0 {
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkCycle is one uncontended navigator.locks.request() cycle in the
// foreign host: the script's await on the page's loop, the lock task
// queue, and back.
func BenchmarkCycle(b *testing.B) {
	p, err := NewPage(weblocks.NewService(), "bench", "https://example.com/", func(string) {})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	if got := p.Run(`var cycle = ` + cycleScript + `; cycle(1000)`); got != "undefined" {
		b.Fatal(got)
	}
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b, processCPU())
	if got := p.Run(`cycle(` + itoa(b.N) + `)`); got != "undefined" {
		b.Fatal(got)
	}
}

// BenchmarkFloorCycle is BenchmarkCycle's script on the floor.
func BenchmarkFloorCycle(b *testing.B) {
	vm := sobek.New()
	_, _ = vm.RunString(`var navigator = {locks: {}}`)
	_ = vm.Get("navigator").ToObject(vm).Get("locks").ToObject(vm).Set("request", func(call sobek.FunctionCall) sobek.Value {
		p, resolve, _ := vm.NewPromise()
		cb, _ := sobek.AssertFunction(call.Argument(1))
		v, err := cb(sobek.Undefined(), vm.NewObject())
		if err != nil {
			panic(err)
		}
		_ = resolve(v)
		return vm.ToValue(p)
	})
	fn, err := vm.RunString(cycleScript)
	if err != nil {
		b.Fatal(err)
	}
	call, _ := sobek.AssertFunction(fn)
	if _, err := call(nil, vm.ToValue(1000)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	defer reportCPU(b, processCPU())
	v, err := call(nil, vm.ToValue(b.N))
	if err != nil {
		b.Fatal(err)
	}
	if p, ok := v.Export().(*sobek.Promise); !ok || p.State() != sobek.PromiseStateFulfilled {
		b.Fatal("the loop did not finish")
	}
}

func itoa(n int) string { return sobek.New().ToValue(n).String() }
