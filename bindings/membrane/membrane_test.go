package membrane

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/grafana/sobek"
)

// pair is two runtimes of one membrane: "frame" is A's global wrapped in B
// (as a same-origin iframe's window is seen by its parent), "parentWin" is
// B's global wrapped in A.
type pair struct {
	m    *Membrane
	a, b *sobek.Runtime
}

const prelude = `
globalThis.DOMException = class DOMException extends Error {
	constructor(message, name) { super(message); this.name = name; }
};
globalThis.log = [];
`

func newPair(t testing.TB) *pair {
	t.Helper()
	p := &pair{m: New(), a: sobek.New(), b: sobek.New()}
	for _, vm := range []*sobek.Runtime{p.a, p.b} {
		if err := p.m.Add(vm); err != nil {
			t.Fatal(err)
		}
		if _, err := vm.RunString(prelude); err != nil {
			t.Fatal(err)
		}
	}
	p.b.Set("frame", p.m.Wrap(p.a, p.b, p.a.GlobalObject()))
	p.a.Set("parentWin", p.m.Wrap(p.b, p.a, p.b.GlobalObject()))
	return p
}

func run(t testing.TB, vm *sobek.Runtime, src string) sobek.Value {
	t.Helper()
	v, err := vm.RunString(src)
	if err != nil {
		t.Fatalf("%s\n%v", src, err)
	}
	return v
}

// expectTrue runs each expression in vm and fails for those not true.
func expectTrue(t *testing.T, vm *sobek.Runtime, exprs ...string) {
	t.Helper()
	for _, e := range exprs {
		v, err := vm.RunString(e)
		if err != nil {
			t.Errorf("%s: %v", e, err)
			continue
		}
		if b, ok := v.Export().(bool); !ok || !b {
			t.Errorf("%s: got %v, want true", e, v)
		}
	}
}

func TestCallsBothWays(t *testing.T) {
	p := newPair(t)
	run(t, p.a, `
		function add(a, b) { return a + b; }
		function callMe(f, x) { return f(x) + 1; }
		function whoAmI() { return this === globalThis; }
	`)
	run(t, p.b, `function double(x) { return x * 2; }`)
	expectTrue(t, p.b,
		`frame.add(1, 2) === 3`,
		`frame.add("a", "b") === "ab"`,
		`frame.add(1n, 2n) === 3n`,
		`frame.callMe(x => x * 10, 4) === 41`,
		`frame.callMe(double, 5) === 11`,
		`typeof frame.add === "function"`,
		`frame.add.length === 2 && frame.add.name === "add"`,
		`frame.add.call(null, 2, 3) === 5 && frame.add.apply(null, [2, 4]) === 6`,
		`frame.whoAmI() === true`, // sloppy this is A's global
		`Reflect.apply(frame.add, undefined, [1, 1]) === 2`,
	)
	expectTrue(t, p.a,
		`parentWin.double(21) === 42`,
		`parentWin.frame.add(2, 2) === 4`,
		`parentWin.frame === globalThis`, // unwrap back to the original
	)
}

func TestAccessorsAndProperties(t *testing.T) {
	p := newPair(t)
	run(t, p.a, `
		var obj = { _v: 1, get v() { return this._v; }, set v(x) { this._v = x * 2; }, s: Symbol("s") };
		obj[obj.s] = "by symbol";
		var arr = [1, "two", { three: 3 }];
		var big = []; big.length = 4294967295;
	`)
	expectTrue(t, p.b,
		`frame.obj.v === 1`,
		`(frame.obj.v = 5, frame.obj.v === 10)`,
		`frame.obj[frame.obj.s] === "by symbol"`,
		`"v" in frame.obj && !("nope" in frame.obj)`,
		`(frame.obj.added = {x: 1}, frame.obj.added.x === 1)`,
		`delete frame.obj.added && !("added" in frame.obj)`,
		`(Object.defineProperty(frame.obj, "d", {value: 7, enumerable: false, configurable: true}), frame.obj.d === 7)`,
		`Object.getOwnPropertyDescriptor(frame.obj, "d").enumerable === false`,
		`typeof Object.getOwnPropertyDescriptor(frame.obj, "v").get === "function"`,
		`JSON.stringify(Object.keys(frame.obj)) === '["_v","v","s"]'`,
		`Reflect.ownKeys(frame.obj).length === 5`,
		`Array.isArray(frame.arr)`,
		`Object.getOwnPropertyDescriptor(frame.big, "length").value === 4294967295 && frame.big.length === 4294967295`,
		`Object.getOwnPropertyDescriptor(frame.arr, "length").value === 3`,
		`frame.arr.length === 3 && frame.arr[2].three === 3`,
		`JSON.stringify(frame.arr) === '[1,"two",{"three":3}]'`,
		`JSON.stringify(frame.obj) === '{"_v":10,"v":10}'`,
		`[...frame.arr].length === 3`,
		`frame.arr.map(x => typeof x).join() === "number,string,object"`,
		`Object.prototype.toString.call(frame.arr) === "[object Array]"`,
		`(() => { const ks = []; for (const k in frame.obj) ks.push(k); return ks.join() === "_v,v,s"; })()`,
		`JSON.stringify({...frame.obj}) === '{"_v":10,"v":10}'`,
		`Object.assign({}, frame.obj).v === 10`,
		`Object.entries(frame.obj).length === 3`,
		`(() => { const o = Object.create(frame.obj); o._v = 3; return o.v === 3 && frame.obj._v === 10; })()`,
	)
	expectTrue(t, p.a, `obj._v === 10 && obj.added === undefined && obj.d === 7`)
}

func TestIdentity(t *testing.T) {
	p := newPair(t)
	run(t, p.a, `
		var obj = {};
		function same(x) { return x === obj; }
		function echo(x) { return x; }
		var sym = Symbol("a");
		var reg = Symbol.for("shared");
	`)
	expectTrue(t, p.b,
		`frame.obj === frame.obj`,
		`frame.same(frame.obj)`,
		`(() => { const o = {}; return frame.echo(o) === o; })()`,
		`(() => { const f = () => 1; return frame.echo(f) === f; })()`,
		`frame.echo(frame.echo) === frame.echo`,
		`frame.sym === frame.sym && typeof frame.sym === "symbol"`,
		`frame.reg === Symbol.for("shared")`,
		`frame.echo(Symbol.iterator) === Symbol.iterator`,
		`frame.Symbol.iterator === Symbol.iterator && frame.Symbol.hasInstance === Symbol.hasInstance`,
		`frame.Symbol.toStringTag === Symbol.toStringTag`,
		`frame.Object.prototype === Object.getPrototypeOf(frame.obj)`,
		`Object.getPrototypeOf(frame.obj) !== Object.prototype`,
	)
	// Go side: wrapping twice gives the same proxy; unwrapping gives the
	// original.
	o := p.a.Get("obj")
	w1 := p.m.Wrap(p.a, p.b, o)
	w2 := p.m.Wrap(p.a, p.b, o)
	if w1 != w2 {
		t.Error("same object wrapped twice gives different wrappers")
	}
	if back := p.m.Wrap(p.b, p.a, w1); back != o {
		t.Error("unwrapping did not give the original object")
	}
}

func TestInstanceofAndClasses(t *testing.T) {
	p := newPair(t)
	run(t, p.a, `
		class Foo { constructor(x) { this.x = x; } get twice() { return this.x * 2; } static make(x) { return new Foo(x); } }
		globalThis.Foo = Foo;
		var BoundFoo = Foo.bind(null, 5);
		var arr = [];
	`)
	expectTrue(t, p.b,
		`new frame.Foo(3).twice === 6`,
		`new frame.Foo(1) instanceof frame.Foo`,
		`!(new frame.Foo(1) instanceof Object)`,
		`frame.Foo.make(2) instanceof frame.Foo`,
		`frame.arr instanceof frame.Array && !(frame.arr instanceof Array)`,
		`frame.Foo.prototype === Object.getPrototypeOf(new frame.Foo(1))`,
		`Object.getOwnPropertyDescriptor(frame.Foo, "prototype").writable === false`,
		`frame.Foo.prototype === frame.Foo.prototype`,
		`new frame.BoundFoo().x === 5 && new frame.BoundFoo() instanceof frame.Foo`,
		`!Reflect.ownKeys(frame.BoundFoo).includes("prototype") && frame.BoundFoo.prototype === undefined`,
		`Reflect.ownKeys(frame.Foo).includes("prototype")`,
		`Reflect.ownKeys(frame.Proxy).join() === frame.Reflect.ownKeys(frame.Proxy).join()`,
		`(() => { class Bar extends frame.Foo { constructor() { super(4); } } const b = new Bar(); return b instanceof Bar && b instanceof frame.Foo && b.twice === 8; })()`,
		`(() => { try { frame.Foo(); return false } catch (e) { return e instanceof frame.TypeError && !(e instanceof TypeError); } })()`,
		`(() => { try { new frame.Math.max(); return false } catch (e) { return e instanceof TypeError; } })()`,
	)
}

func TestExceptions(t *testing.T) {
	p := newPair(t)
	run(t, p.a, `
		function fail() { throw new DOMException("nope", "SecurityError"); }
		function failPrimitive() { throw 42; }
		function catchFrom(f) { try { f(); return "no throw"; } catch (e) { return (e instanceof Error) + ":" + (e instanceof parentWin.Error) + ":" + e.message; } }
	`)
	expectTrue(t, p.b,
		`(() => { try { frame.fail(); } catch (e) { return e instanceof frame.DOMException && !(e instanceof DOMException) && e.name === "SecurityError" && e.message === "nope"; } })()`,
		`(() => { try { frame.failPrimitive(); } catch (e) { return e === 42; } })()`,
		`frame.catchFrom(() => { throw new Error("from b"); }) === "false:true:from b"`,
		`(() => { try { frame.undefinedFunction(); } catch (e) { return e instanceof TypeError; } })()`,
	)
	// A throw crossing twice comes back as the original value.
	run(t, p.b, `var mine = new Error("mine"); function throwMine() { throw mine; }`)
	run(t, p.a, `function relay() { parentWin.throwMine(); }`)
	expectTrue(t, p.b, `(() => { try { frame.relay(); } catch (e) { return e === mine; } })()`)
}

func TestPromises(t *testing.T) {
	p := newPair(t)
	run(t, p.a, `
		var resolveLater;
		function later() { return new Promise(r => { resolveLater = r; }); }
		function fire(v) { resolveLater(v); }
		async function asyncAdd(a, b) { await null; return a + b; }
		function rejected() { return Promise.reject(new DOMException("bad", "AbortError")); }
	`)
	run(t, p.b, `
		var results = [];
		(async () => {
			const q = frame.later();
			results.push(q instanceof frame.Promise, !(q instanceof Promise));
			results.push(await q);
			results.push(await frame.asyncAdd(1, 2));
			try { await frame.rejected(); } catch (e) { results.push(e instanceof frame.DOMException && e.name); }
			const v = await new Promise(r => frame.later().then(r));
			results.push(v);
		})();
		frame.fire("first");
	`)
	got := run(t, p.b, `JSON.stringify(results)`).String()
	if got != `[true,true,"first",3,"AbortError"]` {
		t.Fatalf("results = %s", got)
	}
	run(t, p.a, `fire("second")`)
	p.m.Checkpoint()
	got = run(t, p.b, `JSON.stringify(results)`).String()
	if got != `[true,true,"first",3,"AbortError","second"]` {
		t.Fatalf("results after second = %s", got)
	}
}

// TestMicrotaskOrder checks the interleavings of jobs queued in two
// runtimes against what a browser does with one microtask queue per agent.
func TestMicrotaskOrder(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{
			// A's reaction must not run while B's script is still running.
			"run-to-completion",
			`frame.queueInA("A-micro"); log.push("B-sync");`,
			"A-sync,B-sync,A-micro",
		},
		{
			"A-then-B",
			`frame.resolved.then(() => log.push("A1")); Promise.resolve().then(() => log.push("B1"));`,
			"A1,B1",
		},
		{
			"B-then-A",
			`Promise.resolve().then(() => log.push("B1")); frame.resolved.then(() => log.push("A1"));`,
			"B1,A1",
		},
		{
			// await of another realm's promise takes the thenable path:
			// three ticks, as in browsers.
			"await-foreign",
			`(async () => { log.push("start"); await frame.resolved; log.push("after-await"); })();
			 Promise.resolve().then(() => log.push("B1")).then(() => log.push("B2")).then(() => log.push("B3")).then(() => log.push("B4"));`,
			"start,B1,B2,after-await,B3,B4",
		},
		{
			// A calls back into B, which queues a job; then A queues
			// one: one FIFO in a browser.
			"nested-callback",
			`frame.callBack(() => Promise.resolve().then(() => log.push("B-micro"))); log.push("B-sync");`,
			"B-sync,B-micro,A-micro",
		},
		{
			// Property reads after the call do not move A's jobs later.
			"access-after-call",
			`frame.resolved.then(() => log.push("A1")); Promise.resolve().then(() => log.push("B1")); frame.resolved; frame.log;`,
			"A1,B1",
		},
		{
			// Promise chains alternating between the realms.
			"ping-pong",
			`frame.resolved.then(() => { log.push("A1"); return Promise.resolve().then(() => log.push("B-in-A1")); }).then(() => log.push("A2"));
			 Promise.resolve().then(() => log.push("B1")).then(() => log.push("B2")).then(() => log.push("B3")).then(() => log.push("B4")).then(() => log.push("B5"));`,
			"A1,B1,B-in-A1,B2,B3,A2,B4,B5",
		},
		{
			// Deviation (documented): A's jobs queued between B's run
			// together at the first one's place. A browser gives A1,B1,A2.
			"deviation-batched",
			`frame.resolved.then(() => log.push("A1")); Promise.resolve().then(() => log.push("B1")); frame.resolved.then(() => log.push("A2"));`,
			"A1,A2,B1",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPair(t)
			run(t, p.a, `
				var resolved = Promise.resolve();
				function queueInA(s) { log.push("A-sync"); Promise.resolve().then(() => log.push(s)); }
				function callBack(f) { f(); Promise.resolve().then(() => log.push("A-micro")); }
			`)
			// B's log is the one both realms push to.
			run(t, p.a, `log = parentWin.log;`)
			run(t, p.b, c.src)
			p.m.Checkpoint()
			if got := run(t, p.b, `log.join()`).String(); got != c.want {
				t.Errorf("order %s, want %s", got, c.want)
			}
		})
	}
}

func TestFrozenAndNonConfigurable(t *testing.T) {
	p := newPair(t)
	run(t, p.a, `
		var frozen = Object.freeze({ x: 1, inner: {}, get g() { return 2; } });
		var sealed = Object.seal({ y: 1 });
		var nc = {};
		Object.defineProperty(nc, "fixed", { value: {}, writable: false, configurable: false });
		Object.defineProperty(nc, "acc", { get() { return 3; }, configurable: false });
		function f() {}
	`)
	expectTrue(t, p.b,
		`Object.isFrozen(frame.frozen)`,
		`frame.frozen.x === 1 && frame.frozen.inner === frame.frozen.inner && frame.frozen.g === 2`,
		`Object.getOwnPropertyDescriptor(frame.frozen, "x").configurable === false`,
		`Object.keys(frame.frozen).join() === "x,inner,g"`,
		`Object.isSealed(frame.sealed) && !Object.isFrozen(frame.sealed)`,
		`(frame.sealed.y = 5, frame.sealed.y === 5)`,
		`Object.getOwnPropertyDescriptor(frame.sealed, "y").value === 5`,
		`Object.getOwnPropertyDescriptor(frame.nc, "fixed").value === frame.nc.fixed`,
		`Object.getOwnPropertyDescriptor(frame.nc, "acc").get === Object.getOwnPropertyDescriptor(frame.nc, "acc").get`,
		`frame.nc.acc === 3`,
		`Object.getOwnPropertyDescriptor(frame.f, "prototype").configurable === false`,
		`(() => { "use strict"; try { frame.frozen.x = 2; return false; } catch (e) { return e instanceof TypeError; } })()`,
		`(Object.preventExtensions(frame.nc), !Object.isExtensible(frame.nc))`,
		`Object.getPrototypeOf(frame.nc) === frame.Object.prototype`,
		`(() => { const o = {}; Object.defineProperty(frame.nc, "fixed", { value: frame.nc.fixed }); return true; })()`,
	)
	expectTrue(t, p.a, `!Object.isExtensible(nc)`)
}

func TestGoSideAndErrors(t *testing.T) {
	p := newPair(t)
	other := sobek.New()
	func() {
		defer func() {
			if r := recover(); r != ErrNotAdded {
				t.Errorf("Wrap with an unknown runtime: recovered %v, want ErrNotAdded", r)
			}
		}()
		p.m.Wrap(other, p.b, other.GlobalObject())
	}()
	// Primitives pass as they are.
	for _, v := range []sobek.Value{sobek.Undefined(), sobek.Null(), p.a.ToValue(1.5), p.a.ToValue("s"), p.a.ToValue(true)} {
		if got := p.m.Wrap(p.a, p.b, v); got != v {
			t.Errorf("Wrap(%v) = %v", v, got)
		}
	}
	// A crossing started from Go with no JavaScript running: jobs queued
	// in A run at Checkpoint.
	run(t, p.a, `var ran = false; function q() { Promise.resolve().then(() => { ran = true; }); }`)
	q := p.m.Wrap(p.a, p.b, p.a.Get("q"))
	fn, _ := sobek.AssertFunction(q)
	if _, err := fn(sobek.Undefined()); err != nil {
		t.Fatal(err)
	}
	p.m.Checkpoint()
	if !p.a.Get("ran").ToBoolean() {
		t.Error("job queued by a Go-initiated crossing did not run at Checkpoint")
	}
}

func TestInterruptedRealm(t *testing.T) {
	p := newPair(t)
	run(t, p.a, `function spin() { for (;;) {} }`)
	run(t, p.b, `var f = frame.spin;`)
	p.a.Interrupt("closed")
	v := run(t, p.b, `(() => { try { f(); return "no"; } catch (e) { return "caught " + e; } })()`)
	if !strings.HasPrefix(v.String(), "caught") {
		t.Errorf("got %v", v)
	}
	p.a.ClearInterrupt()
}

func TestWrappersAreCollected(t *testing.T) {
	p := newPair(t)
	// Cycles across runtimes: b (of B) holds a wrapper of an A object
	// that holds a wrapper of b.
	// No collection until the wrappers are counted: they are weak, so a
	// GC during the loop would drop some before the count.
	gcPercent := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(gcPercent)
	run(t, p.a, `function make(back) { return { back }; }`)
	run(t, p.b, `for (let i = 0; i < 100; i++) { const b = {}; b.a = frame.make(b); }`)
	count := func() int {
		p.m.mu.Lock()
		defer p.m.mu.Unlock()
		return len(p.m.wrappers)
	}
	before := count()
	debug.SetGCPercent(gcPercent)
	if before < 200 {
		t.Fatalf("%d wrappers recorded, want at least 200 (100 each way)", before)
	}
	for i := 0; i < 100 && count() > before-150; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if after := count(); after > before-150 {
		t.Errorf("wrappers after GC: %d (before %d): unreachable wrappers are kept", after, before)
	}
}

func TestEndlessRecursionAcrossRuntimes(t *testing.T) {
	p := newPair(t)
	p.m.MaxDepth = 200
	run(t, p.a, `function rec(n) { return parentWin.rec(n + 1); }`)
	run(t, p.b, `function rec(n) { return frame.rec(n + 1); }`)
	expectTrue(t, p.b,
		`(() => { try { rec(0); return false; } catch (e) { return e instanceof RangeError || e instanceof frame.RangeError; } })()`,
		`frame.rec.length === 1`, // the membrane still works afterwards
	)
	if p.m.depth != 0 {
		t.Errorf("depth %d after unwinding", p.m.depth)
	}
}

// Three windows: an object of A reached by C through B is wrapped from
// the original (no proxy of a proxy), with one identity in C.
func TestThreeRuntimes(t *testing.T) {
	p := newPair(t)
	c := sobek.New()
	if err := p.m.Add(c); err != nil {
		t.Fatal(err)
	}
	c.Set("frameA", p.m.Wrap(p.a, c, p.a.GlobalObject()))
	c.Set("frameB", p.m.Wrap(p.b, c, p.b.GlobalObject()))
	run(t, p.a, `var shared = { n: 1 };`)
	run(t, p.b, `var viaB = frame.shared;`)
	expectTrue(t, c,
		`frameB.viaB === frameA.shared`,
		`frameB.frame === frameA`,
		`frameB.viaB.n === 1`,
	)
	viaB := p.b.Get("viaB")
	orig, vm := p.m.Unwrap(viaB)
	if vm != p.a || orig != p.a.Get("shared") {
		t.Errorf("Unwrap gave %v in %p, want A's shared in %p", orig, vm, p.a)
	}
	if v, vm := p.m.Unwrap(p.a.Get("shared")); vm != nil || v != p.a.Get("shared") {
		t.Error("Unwrap of a plain object must give it back with no runtime")
	}
}

func TestAsyncBothWays(t *testing.T) {
	p := newPair(t)
	run(t, p.b, `async function fromB(x) { await null; return x + "!"; }`)
	run(t, p.a, `
		var out = [];
		(async () => {
			const q = parentWin.fromB("hi");
			out.push(q instanceof parentWin.Promise);
			out.push(await q);
			const o = Object.create(parentWin.Object.prototype);
			out.push(o instanceof parentWin.Object);
		})();
	`)
	p.m.Checkpoint()
	if got := run(t, p.a, `out.join()`).String(); got != "true,hi!,true" {
		t.Errorf("got %s", got)
	}
}

// Page code replacing Promise.prototype.constructor or then after Add
// does not see or break the membrane's own jobs.
func TestIntrinsicsCapturedAtAdd(t *testing.T) {
	p := newPair(t)
	run(t, p.b, `
		var touched = 0;
		Object.defineProperty(Promise.prototype, "constructor", { get() { touched++; return Promise; } });
		Promise.prototype.then = function () { touched += 100; };
		Reflect.get = () => "hijacked";
	`)
	run(t, p.a, `var resolved = Promise.resolve(1); var obj = { x: 1 };
		Object.defineProperty(Object.prototype, "value", { set(v) { throw new Error("polluted"); }, configurable: true });
		Object.prototype.get = function () {};`)
	run(t, p.b, `var got; frame.obj.x; touched = 0;`)
	p.m.Checkpoint()
	expectTrue(t, p.b, `frame.obj.x === 1`, `touched === 0`,
		`(Object.defineProperty(frame.obj, "y", { value: 2, writable: true, enumerable: true, configurable: true }), frame.obj.y === 2)`)
}
