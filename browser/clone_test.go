package browser

import (
	"errors"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// cloneAcross serializes the value of expr in one runtime and deserializes it
// in a fresh one, where it is bound to the global "v".
func cloneAcross(t *testing.T, expr string) (*goja.Runtime, error) {
	t.Helper()
	src := goja.New()
	dst := goja.New()
	sin, err := captureIntrinsics(src)
	if err != nil {
		t.Fatal(err)
	}
	din, err := captureIntrinsics(dst)
	if err != nil {
		t.Fatal(err)
	}
	v, err := src.RunString("(" + expr + ")")
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	s, err := sin.StructuredSerialize(v)
	if err != nil {
		return nil, err
	}
	out, err := din.StructuredDeserialize(s)
	if err != nil {
		t.Fatal(err)
	}
	dst.Set("v", out)
	return dst, nil
}

func TestStructuredCloneRoundTrip(t *testing.T) {
	cases := []struct{ expr, check string }{
		{`undefined`, `v === undefined`},
		{`null`, `v === null`},
		{`-0`, `Object.is(v, -0)`},
		{`NaN`, `Number.isNaN(v)`},
		{`12345678901234567890n`, `v === 12345678901234567890n`},
		{`"a\uD800b"`, `v.length === 3 && v.charCodeAt(1) === 0xD800`},
		{`{a: 1, b: "x", c: [1, 2, {d: true}]}`, `v.a === 1 && v.b === "x" && v.c[2].d === true && Array.isArray(v.c)`},
		{`(() => { const o = {x: 1}; o.self = o; return o; })()`, `v.self === v`},
		{`(() => { const s = {}; return [s, s]; })()`, `v[0] === v[1]`},
		{`(() => { const a = [1, , 3]; a.extra = "e"; return a; })()`, `v.length === 3 && !(1 in v) && v.extra === "e"`},
		{`new Date(86400000)`, `v instanceof Date && v.getTime() === 86400000`},
		{`/a+b/gi`, `v instanceof RegExp && v.source === "a+b" && v.flags === "gi"`},
		{`new Map([[1, "one"], [{k: 1}, [2]]])`, `v instanceof Map && v.get(1) === "one" && [...v.keys()][1].k === 1`},
		{`new Set([1, "two", 1])`, `v instanceof Set && v.size === 2 && v.has("two")`},
		{`new Uint8Array([1, 2, 3]).buffer`, `v instanceof ArrayBuffer && v.byteLength === 3 && new Uint8Array(v)[2] === 3`},
		{`new Uint16Array([1, 65535])`, `v instanceof Uint16Array && v[1] === 65535 && v.length === 2`},
		{`new Uint8Array([0,1,2,3,4,5]).subarray(2, 4)`, `v instanceof Uint8Array && v.length === 2 && v[0] === 2 && v.byteOffset === 2 && v.buffer.byteLength === 6`},
		{`(() => { const b = new ArrayBuffer(4); return [new Uint8Array(b), new DataView(b, 1)]; })()`,
			`v[0].buffer === v[1].buffer && v[1] instanceof DataView && v[1].byteOffset === 1 && v[1].byteLength === 3`},
		{`new Float64Array([1.5])`, `v instanceof Float64Array && v[0] === 1.5`},
		{`new TypeError("bad")`, `v instanceof TypeError && v.message === "bad" && v.name === "TypeError"`},
		{`(() => { const e = new Error("m"); e.name = "Weird"; return e; })()`, `v.constructor === Error && v.message === "m"`},
		{`new Number(3)`, `typeof v === "object" && v.valueOf() === 3`},
		{`new String("s")`, `typeof v === "object" && v.valueOf() === "s"`},
		{`Object(5n)`, `typeof v === "object" && v.valueOf() === 5n`},
		{`new Uint8ClampedArray([300])`, `v instanceof Uint8ClampedArray && v[0] === 255`},
		{`new Boolean(false)`, `typeof v === "object" && v.valueOf() === false`},
		{`{__proto__: null, ["__proto__"]: 5}`, `Object.getPrototypeOf(v) === Object.prototype`},
		{`JSON.parse('{"__proto__": {"polluted": 1}}')`, `Object.getPrototypeOf(v) === Object.prototype && v.__proto__ === undefined || Object.getOwnPropertyNames(v).includes("__proto__")`},
		{`{get g() { return 7; }}`, `Object.getOwnPropertyDescriptor(v, "g").value === 7`},
	}
	for _, c := range cases {
		vm, err := cloneAcross(t, c.expr)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		ok, err := vm.RunString(c.check)
		if err != nil {
			t.Errorf("%s: check %s: %v", c.expr, c.check, err)
			continue
		}
		if !ok.ToBoolean() {
			t.Errorf("%s: check failed: %s", c.expr, c.check)
		}
	}
}

func TestStructuredCloneDataCloneError(t *testing.T) {
	for _, expr := range []string{
		`function f() {}`,
		`() => 1`,
		`Symbol("s")`,
		`{a: [Symbol.iterator]}`,
		`new Proxy({}, {})`,
		`Promise.resolve(1)`,
		`new WeakMap()`, `new WeakSet()`, `Object(Symbol())`, `(function() { return arguments; })()`,
		`{f() {}}`,
	} {
		_, err := cloneAcross(t, expr)
		var ce *cloneError
		if !errors.As(err, &ce) {
			t.Errorf("%s: want a DataCloneError, got %v", expr, err)
		}
	}
}

func TestStructuredCloneGetterThrows(t *testing.T) {
	src := goja.New()
	in, err := captureIntrinsics(src)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := src.RunString(`({get g() { throw new RangeError("from getter"); }})`)
	ex := src.Try(func() { in.StructuredSerialize(v) })
	if ex == nil || !strings.Contains(ex.Error(), "from getter") {
		t.Fatalf("want the getter's exception, got %v", ex)
	}
}

func TestStructuredCloneIgnoresReplacedGlobals(t *testing.T) {
	src := goja.New()
	dst := goja.New()
	sin, _ := captureIntrinsics(src)
	din, _ := captureIntrinsics(dst)
	dst.RunString(`Map = function() { throw new Error("replaced"); }; Date = null;`)
	v, _ := src.RunString(`[new Map([[1, 2]]), new Date(5)]`)
	s, err := sin.StructuredSerialize(v)
	if err != nil {
		t.Fatal(err)
	}
	out, err := din.StructuredDeserialize(s)
	if err != nil {
		t.Fatal(err)
	}
	dst.Set("v", out)
	ok, err := dst.RunString(`v[0].get(1) === 2 && v[1].getTime() === 5`)
	if err != nil || !ok.ToBoolean() {
		t.Fatalf("got %v %v", ok, err)
	}
}
