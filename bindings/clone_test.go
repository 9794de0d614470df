package bindings

import (
	"errors"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

func TestStructuredClone(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.exec(prelude + `
			const o = {a: 1, s: "x\ud800y", n: null, u: undefined, neg: -0, nan: NaN, big: 12345678901234567890n};
			o.self = o;
			o.arr = [1, , 3]; o.arr.extra = "e";
			o.shared = {k: 1}; o.shared2 = o.shared;
			const c = structuredClone(o);
			log(c !== o, c.self === c, c.a, c.s === "x\ud800y", c.n, "u" in c, c.u, Object.is(c.neg, -0), Number.isNaN(c.nan), c.big === o.big);
			log(Array.isArray(c.arr), c.arr.length, 1 in c.arr, c.arr[2], c.arr.extra, c.shared === c.shared2, c.shared !== o.shared);
			const m = new Map([[1, "one"], [{k: 2}, new Set([1, 2])]]); m.set("me", m);
			const cm = structuredClone(m);
			log(cm instanceof Map, cm.size, cm.get(1), cm.get("me") === cm, [...cm.keys()][1].k, [...cm.values()][1] instanceof Set, [...[...cm.values()][1]].join());
			const d = new Date(1234567890123); const cd = structuredClone(d);
			log(cd instanceof Date, cd !== d, cd.getTime(), Number.isNaN(structuredClone(new Date(NaN)).getTime()));
			const re = /a+b/gi; re.lastIndex = 3; const cre = structuredClone(re);
			log(cre instanceof RegExp, cre.source, cre.flags, cre.lastIndex);
			for (const E of [Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError]) {
				const e = structuredClone(new E("m"));
				if (!(e instanceof E) || e.message !== "m" || e.name !== E.name) log("bad error clone", E.name);
			}
			const ce = structuredClone(Object.assign(new Error("x"), {name: "Custom"}));
			log(ce.constructor === Error, ce.name, ce.message, Object.prototype.hasOwnProperty.call(structuredClone(new Error()), "message") ? "has message" : "no own message");
			const buf = new ArrayBuffer(8); const u8 = new Uint8Array(buf, 2, 4); u8[0] = 7;
			const dv = new DataView(buf, 1, 3);
			const cv = structuredClone({u8, dv, f: new Float64Array([1.5]), b: new BigInt64Array([-1n]), cl: new Uint8ClampedArray([300])});
			log(cv.u8 instanceof Uint8Array, cv.u8.byteOffset, cv.u8.length, cv.u8[0], cv.u8.buffer === cv.dv.buffer, cv.dv instanceof DataView, cv.dv.byteOffset, cv.dv.byteLength, cv.f[0], cv.b[0], cv.cl instanceof Uint8ClampedArray, cv.cl[0]);
			log(typeof structuredClone(Object(1)), structuredClone(new String("s")) instanceof String, structuredClone(Object(false)).valueOf(), structuredClone(Object(2n)).valueOf() === 2n);
			const ex = structuredClone(new DOMException("msg", "NotFoundError"));
			log(ex instanceof DOMException, ex.name, ex.message, ex.code);
			const bad = [() => 1, Symbol("s"), {f() {}}, new WeakMap(), new WeakSet(), Promise.resolve(), new Proxy({}, {}), self, new EventTarget(), [Object(Symbol())]];
			log(bad.map(v => { try { structuredClone(v); return "cloned"; } catch (e) { return e instanceof DOMException && e.name === "DataCloneError" && e.code === 25; } }).join());
			const getterThrows = {get x() { throw new Error("getter") }};
			try { structuredClone(getterThrows); } catch (e) { log("getter", e.message); }
			var deep = {}; for (var i = 0; i < 10001; i++) deep = {d: deep};
			try { structuredClone(deep); log("deep cloned"); } catch (e) { log("deep", e instanceof RangeError); }
			let ok = {}; for (let i = 0; i < 1000; i++) ok = [ok];
			log("1000 deep", Array.isArray(structuredClone(ok)));
			// Transfer: ArrayBuffers are detached; duplicates and non-transferables throw.
			const tb = new ArrayBuffer(4); new Uint8Array(tb)[0] = 9;
			const tc = structuredClone({tb}, {transfer: [tb]});
			log("transfer", tb.byteLength, tc.tb.byteLength, new Uint8Array(tc.tb)[0]);
			for (const list of [[tb], [new ArrayBuffer(1), {}], (() => { const x = new ArrayBuffer(1); return [x, x]; })()]) {
				try { structuredClone(1, {transfer: list}); log("no throw"); } catch (e) { log(e.name); }
			}
		`)
		want := []string{
			"true true 1 true null true undefined true true true",
			"true 3 false 3 e true true",
			"true 3 one true 2 true 1,2",
			"true true 1234567890123 true",
			"true a+b gi 0",
			"true Error x no own message",
			"true 2 4 7 true true 1 3 1.5 -1 true 255",
			"object true false true",
			"true NotFoundError msg 8",
			"true,true,true,true,true,true,true,true,true,true",
			"getter getter",
			"deep true",
			"1000 deep true",
			"transfer 0 4 9",
			"DataCloneError", "DataCloneError", "DataCloneError",
		}
		got := j.takeLog()
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})
}

// A value nested a million levels deep (built from Go: building it in
// sobek takes seconds) throws a RangeError instead of exhausting the Go
// stack, and so does deserializing a record that deep.
func TestStructuredCloneMillionDeep(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a million objects")
	}
	w := newWorld(t)
	j := w.window("https://example.com/")
	j.r.QueueTask(func(vm *sobek.Runtime) {
		v := vm.NewObject()
		for i := 0; i < 1e6; i++ {
			o := vm.NewObject()
			_ = o.Set("d", v)
			v = o
		}
		_, err := j.r.StructuredSerialize(v)
		var se *webidl.SimpleError
		if !errors.As(err, &se) || se.Kind != webidl.RangeError {
			t.Errorf("serialize: %v", err)
		}
		rec := &html.SerializedRecord{Kind: html.SerializedObject}
		for i := 0; i < 1e6; i++ {
			rec = &html.SerializedRecord{Kind: html.SerializedObject, ID: i + 1, Props: []html.SerializedProperty{{Key: "d", Value: rec}}}
		}
		if _, err := j.r.StructuredDeserialize(rec); !errors.As(err, &se) || se.Kind != webidl.RangeError {
			t.Errorf("deserialize: %v", err)
		}
		_ = vm.Set("deep", v)
	})
	w.settle()
	if got := j.eval(`try { structuredClone(deep); "cloned" } catch (e) { e instanceof RangeError }`); got != "true" {
		t.Errorf("structuredClone: %s", got)
	}
}
