package bindings

import (
	"fmt"
	"testing"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/grafana/sobek"
)

// The engine floor: the JavaScript of BenchmarkRequestCycle and
// BenchmarkRequestQueued run in a bare sobek runtime (webidl.NewRuntime,
// no realm, no event loop, no lock manager), where req(name, callback) is
// the least a host function of that shape can do: make a promise with
// sobek's NewPromise, call the callback with a fresh object and resolve
// the promise with the callback's result. What the engine costs above
// these benchmarks (ours/floor, in one run) is what the bindings, the
// event loop and weblocks add.

// floorRuntime returns a bare runtime with req installed.
func floorRuntime(b *testing.B) *sobek.Runtime {
	vm := webidl.NewRuntime()
	err := vm.Set("req", func(call sobek.FunctionCall) sobek.Value {
		p, resolve, _ := vm.NewPromise()
		cb, ok := sobek.AssertFunction(call.Argument(1))
		if !ok {
			panic(vm.NewTypeError("callback is not a function"))
		}
		v, err := cb(sobek.Undefined(), vm.NewObject())
		if err != nil {
			panic(err)
		}
		if err := resolve(v); err != nil {
			panic(err)
		}
		return vm.ToValue(p)
	})
	if err != nil {
		b.Fatal(err)
	}
	return vm
}

// runFloor runs src (a function expression taking n and returning a
// promise) once with b.N in vm, checking that the promise fulfilled: sobek
// runs the promise jobs when the outermost call returns.
func runFloor(b *testing.B, vm *sobek.Runtime, src string) {
	fn, err := vm.RunString(src)
	if err != nil {
		b.Fatal(err)
	}
	call, ok := sobek.AssertFunction(fn)
	if !ok {
		b.Fatal("not a function")
	}
	// Warm up.
	if _, err := call(sobek.Undefined(), vm.ToValue(100)); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	defer reportCPU(b, processCPU())
	v, err := call(sobek.Undefined(), vm.ToValue(b.N))
	if err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	p, ok := v.Export().(*sobek.Promise)
	if !ok || p.State() != sobek.PromiseStateFulfilled {
		b.Fatalf("the loop's promise did not fulfil: %v", v)
	}
}

// BenchmarkEngineFloorCycle is BenchmarkRequestCycle's loop on the floor.
func BenchmarkEngineFloorCycle(b *testing.B) {
	runFloor(b, floorRuntime(b), `(async n => { for (let i = 0; i < n; i++) await req('a', () => {}); })`)
}

// BenchmarkEngineFloorCycleTasks is BenchmarkEngineFloorCycle with req's
// work split the way an event loop must split it (it is not the floor of
// the targets, only a reference for what sobek costs an embedder): req
// makes the promise and keeps the callback and the resolving function;
// Go then calls the callback, and resolves the promise with its result,
// each from outside the engine (a grant task's call, then the waiting
// promise's settlement), which is when sobek runs the jobs: the
// callback's jobs must all run before the promise's reactions, so the two
// cannot share one entry. Each entry costs sobek a new value stack and
// job queue (Runtime.leave drops both).
func BenchmarkEngineFloorCycleTasks(b *testing.B) {
	vm := webidl.NewRuntime()
	var cb sobek.Callable
	var resolve func(any) error
	err := vm.Set("req", func(call sobek.FunctionCall) sobek.Value {
		p, res, _ := vm.NewPromise()
		c, ok := sobek.AssertFunction(call.Argument(1))
		if !ok {
			panic(vm.NewTypeError("callback is not a function"))
		}
		cb, resolve = c, res
		return vm.ToValue(p)
	})
	if err != nil {
		b.Fatal(err)
	}
	fn, err := vm.RunString(`(async n => { for (let i = 0; i < n; i++) await req('a', () => {}); })`)
	if err != nil {
		b.Fatal(err)
	}
	loop, _ := sobek.AssertFunction(fn)
	// run starts the loop, then runs its "tasks" until it is done: one
	// request is pending at a time.
	run := func(n int) sobek.Value {
		v, err := loop(sobek.Undefined(), vm.ToValue(n))
		if err != nil {
			b.Fatal(err)
		}
		for cb != nil {
			c, res := cb, resolve
			cb, resolve = nil, nil
			r, err := c(sobek.Undefined(), vm.NewObject())
			if err != nil {
				b.Fatal(err)
			}
			if err := res(r); err != nil {
				b.Fatal(err)
			}
		}
		return v
	}
	run(100)
	b.ResetTimer()
	defer reportCPU(b, processCPU())
	v := run(b.N)
	b.StopTimer()
	if p, ok := v.Export().(*sobek.Promise); !ok || p.State() != sobek.PromiseStateFulfilled {
		b.Fatalf("the loop's promise did not fulfil: %v", v)
	}
}

// BenchmarkEngineFloorQueued is BenchmarkRequestQueued's script on the
// floor: every callback runs (and every promise resolves) inside req, so
// this is what the script itself costs, with no grant work at all.
func BenchmarkEngineFloorQueued(b *testing.B) {
	runFloor(b, floorRuntime(b), `(n => {
		const ps = [];
		for (let i = 0; i < n; i++) ps.push(req('a', () => {}));
		return Promise.all(ps);
	})`)
}

// BenchmarkEngineFloorQueuedDeferred is BenchmarkEngineFloorQueued with the
// callbacks called later, one entry into sobek each (as a grant task
// does), in request order: req keeps the callback and the resolving
// function of each request until then. It adds what holding b.N pending
// requests and entering the engine once per grant cost.
func BenchmarkEngineFloorQueuedDeferred(b *testing.B) {
	vm := webidl.NewRuntime()
	type pending struct {
		cb      sobek.Callable
		resolve func(any) error
	}
	var queue []pending
	err := vm.Set("req", func(call sobek.FunctionCall) sobek.Value {
		p, resolve, _ := vm.NewPromise()
		cb, ok := sobek.AssertFunction(call.Argument(1))
		if !ok {
			panic(vm.NewTypeError("callback is not a function"))
		}
		queue = append(queue, pending{cb, resolve})
		return vm.ToValue(p)
	})
	if err != nil {
		b.Fatal(err)
	}
	src := `(n => {
		const ps = [];
		for (let i = 0; i < n; i++) ps.push(req('a', () => {}));
		return Promise.all(ps);
	})`
	fn, err := vm.RunString(src)
	if err != nil {
		b.Fatal(err)
	}
	loop, _ := sobek.AssertFunction(fn)
	// grant calls every queued callback in order, each from Go (so
	// sobek drains its jobs after each), and resolves its promise.
	grant := func() {
		for i, q := range queue {
			v, err := q.cb(sobek.Undefined(), vm.NewObject())
			if err != nil {
				b.Fatal(err)
			}
			if err := q.resolve(v); err != nil {
				b.Fatal(err)
			}
			queue[i] = pending{}
		}
		queue = queue[:0]
	}
	run := func(n int) sobek.Value {
		v, err := loop(sobek.Undefined(), vm.ToValue(n))
		if err != nil {
			b.Fatal(err)
		}
		grant()
		return v
	}
	run(100)
	queue = nil
	b.ResetTimer()
	defer reportCPU(b, processCPU())
	v := run(b.N)
	b.StopTimer()
	if p, ok := v.Export().(*sobek.Promise); !ok || p.State() != sobek.PromiseStateFulfilled {
		b.Fatalf("Promise.all did not fulfil: %v", v)
	}
	if len(queue) != 0 {
		b.Fatal(fmt.Sprint(len(queue), " requests left"))
	}
}
