package webidl

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/grafana/sobek"
)

type thing struct {
	Reflector
	n int32
}

type errImpl struct{ msg string }

// testRegistry is a small hand-written registry exercising the builders.
func testRegistry() *Registry {
	reg := NewRegistry()
	reg.Add(&InterfaceDef{
		Name:    "Base",
		Exposed: []string{"Window", "Worker"},
		Constants: []Constant{
			{Name: "ONE", Value: sobek.Undefined()}, // replaced below
		},
		Members: []Member{
			{Name: "baseOp", Kind: Operation, Length: 1, Op: func(r *Realm, call sobek.FunctionCall) sobek.Value {
				r.This(call.This, "Base")
				return r.VM.ToValue(r.ToLong(AnyValue(Arg(call, 0)), IntWrap))
			}},
		},
	})
	reg.defs["Base"].Constants[0].Value = sobek.Undefined()
	reg.defs["Base"].Constants = []Constant{{Name: "ONE", Value: valueInt(1)}}
	reg.Add(&InterfaceDef{
		Name:    "Thing",
		Parent:  "Base",
		Exposed: []string{"Window"},
		Constructor: func(r *Realm, args []sobek.Value, nt *sobek.Object) any {
			t := &thing{}
			if len(args) > 0 {
				t.n = r.ToLong(args[0], IntEnforceRange)
			}
			return t
		},
		ConstructorLength: 1,
		Members: []Member{
			{Name: "n", Kind: Attribute, Get: func(r *Realm, this sobek.Value) sobek.Value {
				return r.VM.ToValue(r.This(this, "Thing").(*thing).n)
			}, Set: func(r *Realm, this sobek.Value, v sobek.Value) {
				r.This(this, "Thing").(*thing).n = r.ToLong(v, IntWrap)
			}},
			{Name: "ro", Kind: Attribute, Get: func(r *Realm, this sobek.Value) sobek.Value {
				r.This(this, "Thing")
				return StringValue("ro")
			}},
			{Name: "later", Kind: Operation, Length: 0, Op: func(r *Realm, call sobek.FunctionCall) sobek.Value {
				return r.PromiseOperation(func() sobek.Value {
					t := r.This(call.This, "Thing").(*thing)
					if t.n < 0 {
						r.Throw(NewRangeError("negative"))
					}
					return r.PromiseResolvedWith(r.VM.ToValue(t.n)).Object
				})
			}},
			{Name: "make", Kind: Operation, Static: true, Length: 0, Op: func(r *Realm, call sobek.FunctionCall) sobek.Value {
				return r.Wrap(&thing{n: 7}, "Thing")
			}},
			{Name: "secret", Kind: Attribute, SecureContext: true, Get: func(r *Realm, this sobek.Value) sobek.Value {
				return sobek.Undefined()
			}},
			{Name: "uf", Kind: Attribute, Unforgeable: true, Get: func(r *Realm, this sobek.Value) sobek.Value {
				return r.VM.ToValue(true)
			}},
		},
	})
	reg.Add(&InterfaceDef{Name: "WorkerOnly", Exposed: []string{"Worker"}})
	reg.Add(&InterfaceDef{Name: "SecureOnly", Exposed: []string{"Window"}, SecureContext: true})
	reg.Add(&InterfaceDef{Name: "NS", Namespace: true, Exposed: []string{"Window"}, Members: []Member{
		{Name: "f", Kind: Operation, Length: 2, Op: func(r *Realm, call sobek.FunctionCall) sobek.Value { return valueInt(42) }},
	}})
	reg.Add(&InterfaceDef{
		Name: "MyException", Exposed: []string{"*"}, ErrorPrototype: true,
		Constructor: func(r *Realm, args []sobek.Value, nt *sobek.Object) any {
			e := &errImpl{}
			if len(args) > 0 {
				e.msg = string(r.ToDOMString(args[0]))
			}
			return e
		},
		Members: []Member{{Name: "message", Kind: Attribute, Get: func(r *Realm, this sobek.Value) sobek.Value {
			return StringValue(r.This(this, "MyException").(*errImpl).msg)
		}}},
	})
	return reg
}

func valueInt(i int64) sobek.Value { return sobek.New().ToValue(i) }

func newTestRealm(t *testing.T, secure bool) *Realm {
	t.Helper()
	vm := sobek.New()
	r := NewRealm(vm, "Window", nil, secure)
	if err := r.Install(testRegistry()); err != nil {
		t.Fatal(err)
	}
	return r
}

// run evaluates JavaScript and returns its string result.
func run(t *testing.T, r *Realm, src string) string {
	t.Helper()
	// No script may hang a test: interrupt it after a deadline.
	timer := time.AfterFunc(10*time.Second, func() { r.VM.Interrupt("script timed out") })
	defer timer.Stop()
	v, err := r.VM.RunString(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return v.String()
}

func expectJS(t *testing.T, r *Realm, cases map[string]string) {
	t.Helper()
	for src, want := range cases {
		if got := run(t, r, src); got != want {
			t.Errorf("%s = %q, want %q", src, got, want)
		}
	}
}

func TestInterfaceObjects(t *testing.T) {
	r := newTestRealm(t, true)
	expectJS(t, r, map[string]string{
		`typeof Thing`: "function",
		`JSON.stringify(Object.getOwnPropertyDescriptor(Thing, "length"))`:                                                 `{"value":1,"writable":false,"enumerable":false,"configurable":true}`,
		`JSON.stringify(Object.getOwnPropertyDescriptor(Thing, "name"))`:                                                   `{"value":"Thing","writable":false,"enumerable":false,"configurable":true}`,
		`var d = Object.getOwnPropertyDescriptor(Thing, "prototype"); [d.writable, d.enumerable, d.configurable].join()`:   "false,false,false",
		`var d = Object.getOwnPropertyDescriptor(self = this, "Thing"); [d.writable, d.enumerable, d.configurable].join()`: "true,false,true",
		`Object.getPrototypeOf(Thing) === Base`:                                                                            "true",
		`Object.getPrototypeOf(Base) === Function.prototype`:                                                               "true",
		`Object.getPrototypeOf(Thing.prototype) === Base.prototype`:                                                        "true",
		`Object.getPrototypeOf(Base.prototype) === Object.prototype`:                                                       "true",
		`Thing.prototype.constructor === Thing`:                                                                            "true",
		`Object.prototype.toString.call(Thing.prototype)`:                                                                  "[object Thing]",
		`JSON.stringify(Object.getOwnPropertyDescriptor(Thing.prototype, Symbol.toStringTag))`:                             `{"value":"Thing","writable":false,"enumerable":false,"configurable":true}`,
		`try { Base(); "no" } catch (e) { e instanceof TypeError }`:                                                        "true",
		`try { new Base(); "no" } catch (e) { e instanceof TypeError && e.message }`:                                       "Illegal constructor",
		`try { Thing(1); "no" } catch (e) { e instanceof TypeError }`:                                                      "true",
		`new Thing(5).n`: "5",
		`try { new Thing(Infinity); "no" } catch (e) { e instanceof TypeError }`: "true",
		`var t = new Thing(3); t.n = 4.9; t.n`:                                   "4",
		`var d = Object.getOwnPropertyDescriptor(Thing.prototype, "n"); [typeof d.get, d.get.name, d.get.length, d.set.name, d.set.length, d.enumerable, d.configurable].join()`: "function,get n,0,set n,1,true,true",
		`Object.getOwnPropertyDescriptor(Thing.prototype, "ro").set === undefined`:                                                                                               "true",
		`var d = Object.getOwnPropertyDescriptor(Base.prototype, "baseOp"); [d.value.name, d.value.length, d.writable, d.enumerable, d.configurable].join()`:                     "baseOp,1,true,true,true",
		`new Thing().baseOp("12")`: "12",
		`try { Base.prototype.baseOp.call({}, 1); "no" } catch (e) { e instanceof TypeError && e.message }`:                                                         "Illegal invocation",
		`try { Object.getOwnPropertyDescriptor(Thing.prototype, "n").get.call(Base.prototype); "no" } catch (e) { e.message }`:                                      "Illegal invocation",
		`try { new Thing().n = undefined; Object.getOwnPropertyDescriptor(Thing.prototype, "n").set.call(new Thing()); "no" } catch (e) { e instanceof TypeError }`: "true",
		`JSON.stringify(Object.getOwnPropertyDescriptor(Base, "ONE"))`:                                                                                              `{"value":1,"writable":false,"enumerable":true,"configurable":false}`,
		`JSON.stringify(Object.getOwnPropertyDescriptor(Base.prototype, "ONE"))`:                                                                                    `{"value":1,"writable":false,"enumerable":true,"configurable":false}`,
		`Thing.ONE`:                          "1",
		`Thing.make().n`:                     "7",
		`Thing.make() instanceof Thing`:      "true",
		`"make" in Thing.prototype`:          "false",
		`typeof WorkerOnly`:                  "undefined",
		`typeof SecureOnly`:                  "function",
		`"secret" in Thing.prototype`:        "true",
		`Object.prototype.toString.call(NS)`: "[object NS]",
		`NS.f.length + NS.f()`:               "44",
		`var d = Object.getOwnPropertyDescriptor(new Thing(), "uf"); [d.configurable, typeof d.get].join()`: "false,function",
		`"uf" in Thing.prototype`: "false",
		`class Sub extends Thing {}; var s = new Sub(2); [s instanceof Sub, s.n].join()`:                                    "true,2",
		`var e = new MyException("boom"); [e instanceof Error, e instanceof MyException, e.message, typeof e.stack].join()`: "true,true,boom,string",
		`Object.getPrototypeOf(MyException.prototype) === Error.prototype`:                                                  "true",
		`Object.prototype.hasOwnProperty.call(new MyException("x"), "message")`:                                             "false",
	})
	// Promise-returning operations turn exceptions, including brand-check
	// failures, into rejected promises.
	run(t, r, `var out = []; Thing.prototype.later.call({}).catch(e => out.push(e.message));
		new Thing(-1).later().catch(e => out.push(e.name + ":" + e.message));
		new Thing(9).later().then(v => out.push(v));`)
	if got := run(t, r, `out.join("|")`); got != "Illegal invocation|RangeError:negative|9" {
		t.Errorf("promise ops: %q", got)
	}
}

func TestExposureInsecureAndWorker(t *testing.T) {
	r := newTestRealm(t, false)
	expectJS(t, r, map[string]string{
		`typeof SecureOnly`:           "undefined",
		`"secret" in Thing.prototype`: "false",
	})
	vm := sobek.New()
	w := NewRealm(vm, "DedicatedWorkerGlobalScope", []string{"DedicatedWorkerGlobalScope", "Worker", "DedicatedWorker"}, true)
	if err := w.Install(testRegistry()); err != nil {
		t.Fatal(err)
	}
	expectJS(t, w, map[string]string{
		`typeof WorkerOnly`:  "function",
		`typeof Thing`:       "undefined",
		`typeof Base`:        "function",
		`typeof MyException`: "function",
	})
}

func TestGlobalMembersOnGlobal(t *testing.T) {
	reg := NewRegistry()
	reg.Add(&InterfaceDef{Name: "ETarget", Exposed: []string{"*"}, Members: []Member{
		{Name: "on", Kind: Operation, Op: func(r *Realm, call sobek.FunctionCall) sobek.Value { r.This(call.This, "ETarget"); return valueInt(1) }},
	}})
	reg.Add(&InterfaceDef{Name: "WorkerThing", Exposed: []string{"Worker"}})
	reg.Add(&InterfaceDef{Name: "Win", Parent: "ETarget", Global: true, NamedPropertiesObject: true, GlobalNames: []string{"Win", "Worker"}, Exposed: []string{"Win"}, Members: []Member{
		{Name: "answer", Kind: Attribute, Get: func(r *Realm, this sobek.Value) sobek.Value {
			return r.VM.ToValue(r.This(this, "Win").(int))
		}},
	}})
	r := NewRealm(sobek.New(), "Win", nil, true)
	r.SetGlobalImpl(42)
	if err := r.Install(reg); err != nil {
		t.Fatal(err)
	}
	expectJS(t, r, map[string]string{
		`answer`: "42",
		`Object.getOwnPropertyDescriptor(globalThis, "answer") !== undefined`: "true",
		`"answer" in Win.prototype`:                           "false",
		`Object.getPrototypeOf(globalThis) === Win.prototype`: "true",
		`var npo = Object.getPrototypeOf(Win.prototype); Object.prototype.toString.call(npo) + (Object.getPrototypeOf(npo) === ETarget.prototype)`: "[object WinProperties]true",
		`on()`:               "1",
		`typeof WorkerThing`: "function",
		`var f = Object.getOwnPropertyDescriptor(globalThis, "answer").get; f.call(undefined)`: "42",
	})
}

func TestSameWrapper(t *testing.T) {
	r := newTestRealm(t, true)
	th := &thing{n: 1}
	a, b := r.Wrap(th, "Thing"), r.Wrap(th, "Thing")
	if a != b {
		t.Fatal("Wrap of the same Reflector gave two objects")
	}
	if impl, ok := r.Implements(a, "Base"); !ok || impl != th {
		t.Fatal("Implements through inheritance failed")
	}
	if _, ok := r.Implements(a, "MyException"); ok {
		t.Fatal("brand check accepted the wrong interface")
	}
	if r.Wrap(nil, "Thing") != sobek.Null() {
		t.Fatal("nil impl should be null")
	}
}

// conv calls a Go conversion from JavaScript and returns the result or
// the exception's constructor name.
func convRealm(t *testing.T) *Realm {
	r := newTestRealm(t, true)
	convs := map[string]func(sobek.Value) sobek.Value{
		"byte":    func(v sobek.Value) sobek.Value { return r.VM.ToValue(r.ToByte(v, IntWrap)) },
		"octet":   func(v sobek.Value) sobek.Value { return r.VM.ToValue(r.ToOctet(v, IntWrap)) },
		"octetC":  func(v sobek.Value) sobek.Value { return r.VM.ToValue(r.ToOctet(v, IntClamp)) },
		"octetE":  func(v sobek.Value) sobek.Value { return r.VM.ToValue(r.ToOctet(v, IntEnforceRange)) },
		"short":   func(v sobek.Value) sobek.Value { return r.VM.ToValue(r.ToShort(v, IntWrap)) },
		"ushort":  func(v sobek.Value) sobek.Value { return r.VM.ToValue(r.ToUnsignedShort(v, IntWrap)) },
		"long":    func(v sobek.Value) sobek.Value { return r.VM.ToValue(r.ToLong(v, IntWrap)) },
		"longC":   func(v sobek.Value) sobek.Value { return r.VM.ToValue(r.ToLong(v, IntClamp)) },
		"ulong":   func(v sobek.Value) sobek.Value { return r.VM.ToValue(r.ToUnsignedLong(v, IntWrap)) },
		"ulongE":  func(v sobek.Value) sobek.Value { return r.VM.ToValue(r.ToUnsignedLong(v, IntEnforceRange)) },
		"llong":   func(v sobek.Value) sobek.Value { return StringValue(itoa64(r.ToLongLong(v, IntWrap))) },
		"llongE":  func(v sobek.Value) sobek.Value { return StringValue(itoa64(r.ToLongLong(v, IntEnforceRange))) },
		"ullong":  func(v sobek.Value) sobek.Value { return StringValue(utoa64(r.ToUnsignedLongLong(v, IntWrap))) },
		"float":   func(v sobek.Value) sobek.Value { return r.VM.ToValue(float64(r.ToFloat(v))) },
		"ufloat":  func(v sobek.Value) sobek.Value { return r.VM.ToValue(float64(r.ToUnrestrictedFloat(v))) },
		"double":  func(v sobek.Value) sobek.Value { return r.VM.ToValue(r.ToDouble(v)) },
		"udouble": func(v sobek.Value) sobek.Value { return r.VM.ToValue(r.ToUnrestrictedDouble(v)) },
		"bool":    func(v sobek.Value) sobek.Value { return r.VM.ToValue(r.ToBoolean(v)) },
		"bigint":  func(v sobek.Value) sobek.Value { return r.BigIntValue(r.ToBigInt(v)) },
		"dom":     func(v sobek.Value) sobek.Value { return r.ToDOMString(v).Value() },
		"usv":     func(v sobek.Value) sobek.Value { return StringValue(r.ToUSVString(v)) },
		"bytes":   func(v sobek.Value) sobek.Value { return r.ToByteString(v).Value() },
		"object":  func(v sobek.Value) sobek.Value { return r.ToObject(v) },
		"symbol":  func(v sobek.Value) sobek.Value { return r.ToSymbol(v) },
		"enum": func(v sobek.Value) sobek.Value {
			return StringValue(r.ToEnum(v, "LockMode", []string{"shared", "exclusive"}))
		},
		"thing":    func(v sobek.Value) sobek.Value { return r.VM.ToValue(r.ToInterface(v, "Thing").(*thing).n) },
		"callback": func(v sobek.Value) sobek.Value { return r.ToCallbackFunction(v, false).Value() },
		"legacycb": func(v sobek.Value) sobek.Value { return r.ToCallbackFunction(v, true).Value() },
		"seq": func(v sobek.Value) sobek.Value {
			var out []int32
			r.ToSequence(v, func(x sobek.Value) { out = append(out, r.ToLong(x, IntWrap)) })
			return SequenceValue(r, out, func(i int32) sobek.Value { return r.VM.ToValue(i) })
		},
		"record": func(v sobek.Value) sobek.Value {
			var rec Record[DOMString, int32]
			r.ToRecord(v, func(k sobek.Value, x func() sobek.Value) { key := r.ToDOMString(k); rec.Set(key, r.ToLong(x(), IntWrap)) })
			return RecordValue(r, rec, func(k DOMString) sobek.Value { return k.Value() }, func(i int32) sobek.Value { return r.VM.ToValue(i) })
		},
		"buffer": func(v sobek.Value) sobek.Value {
			b := r.ToBufferSource(v, "BufferSource", KindArrayBuffer, "view")
			return StringValue(string(b.Kind) + ":" + string(b.Bytes()))
		},
		"abuf": func(v sobek.Value) sobek.Value {
			b := r.ToBufferSource(v, "ArrayBuffer", KindArrayBuffer)
			return r.VM.ToValue(len(b.Bytes()))
		},
		"promise": func(v sobek.Value) sobek.Value { return r.ToPromise(v).Object },
	}
	must(r.VM.Set("conv", func(call sobek.FunctionCall) sobek.Value {
		name := call.Argument(0).String()
		return convs[name](call.Argument(1))
	}))
	_, err := r.VM.RunString(`function c(t, v) { try { return String(conv(t, v)); } catch (e) { return e.constructor.name; } }`)
	must(err)
	return r
}

func itoa64(i int64) string {
	if i < 0 {
		return "-" + utoa64(uint64(-i))
	}
	return utoa64(uint64(i))
}

func utoa64(u uint64) string {
	if u == 0 {
		return "0"
	}
	var b []byte
	for u > 0 {
		b = append([]byte{byte('0' + u%10)}, b...)
		u /= 10
	}
	return string(b)
}

func TestConversions(t *testing.T) {
	r := convRealm(t)
	cases := [][2]string{
		{`c("byte", 128)`, "-128"}, {`c("byte", -129)`, "127"}, {`c("byte", "12.9")`, "12"},
		{`c("octet", -1)`, "255"}, {`c("octet", 256.5)`, "0"}, {`c("octet", NaN)`, "0"}, {`c("octet", Infinity)`, "0"},
		{`c("octetC", 300)`, "255"}, {`c("octetC", -5)`, "0"}, {`c("octetC", 2.5)`, "2"}, {`c("octetC", 3.5)`, "4"}, {`c("octetC", NaN)`, "0"},
		{`c("octetE", 255.9)`, "255"}, {`c("octetE", 256)`, "TypeError"}, {`c("octetE", NaN)`, "TypeError"}, {`c("octetE", -0.5)`, "0"},
		{`c("short", 32768)`, "-32768"}, {`c("ushort", -1)`, "65535"},
		{`c("long", 2147483648)`, "-2147483648"}, {`c("long", 4294967297)`, "1"}, {`c("long", -0)`, "0"},
		{`c("longC", 1e20)`, "2147483647"}, {`c("longC", -1e20)`, "-2147483648"},
		{`c("ulong", -1)`, "4294967295"}, {`c("ulongE", -1)`, "TypeError"}, {`c("ulongE", 4294967295)`, "4294967295"},
		{`c("llong", -1)`, "-1"}, {`c("llong", 2**63)`, "-9223372036854775808"}, {`c("llong", 2**64 + 4096)`, "4096"},
		{`c("llong", -(2**64) - 4096)`, "-4096"}, {`c("llongE", 2**53)`, "TypeError"}, {`c("llongE", 2**53 - 1)`, "9007199254740991"},
		{`c("ullong", -1)`, "18446744073709551615"}, {`c("ullong", 2**70)`, "0"},
		{`c("long", Symbol())`, "TypeError"}, {`c("long", 1n)`, "TypeError"}, {`c("long", {valueOf() { return 7 }})`, "7"},
		{`c("float", 1.5)`, "1.5"}, {`c("float", NaN)`, "TypeError"}, {`c("float", 1e39)`, "TypeError"}, {`c("ufloat", 1e39)`, "Infinity"},
		{`c("double", Infinity)`, "TypeError"}, {`c("udouble", -Infinity)`, "-Infinity"}, {`c("udouble", "x")`, "NaN"},
		{`c("bool", "")`, "false"}, {`c("bool", {})`, "true"},
		{`c("bigint", 5n)`, "5"}, {`c("bigint", "12")`, "12"}, {`c("bigint", 1)`, "TypeError"}, {`c("bigint", true)`, "1"},
		{`c("dom", 12)`, "12"}, {`c("dom", null)`, "null"}, {`c("dom", Symbol())`, "TypeError"},
		{`c("dom", "a\uD800b").charCodeAt(1)`, "55296"}, {`c("dom", "\uDC00\uD83D\uDE00").length`, "3"},
		{`c("dom", "\uDFFF") === "\uDFFF"`, "true"}, {`c("dom", "é\uD800\0") === "é\uD800\0"`, "true"},
		{`c("usv", "a\uD800b").charCodeAt(1)`, "65533"}, {`c("usv", "\uD83D\uDE00") === "\uD83D\uDE00"`, "true"},
		{`c("bytes", "\xff\x00a") === "\xff\x00a"`, "true"}, {`c("bytes", "\u0100")`, "TypeError"},
		{`c("object", 1)`, "TypeError"}, {`typeof conv("object", {})`, "object"},
		{`c("symbol", "s")`, "TypeError"}, {`typeof conv("symbol", Symbol.iterator)`, "symbol"},
		{`c("enum", "shared")`, "shared"}, {`c("enum", "SHARED")`, "TypeError"}, {`c("enum", {toString() { return "exclusive" }})`, "exclusive"},
		{`c("thing", new Thing(3))`, "3"}, {`c("thing", {})`, "TypeError"}, {`c("thing", Thing.prototype)`, "TypeError"},
		{`c("callback", 1)`, "TypeError"}, {`c("callback", {})`, "TypeError"}, {`typeof conv("callback", () => 1)`, "function"},
		{`c("legacycb", 1)`, "null"}, {`c("legacycb", {})`, "[object Object]"},
		{`c("seq", [1, "2", 3.7])`, "1,2,3"}, {`c("seq", new Set([4, 5]))`, "4,5"}, {`c("seq", 1)`, "TypeError"}, {`c("seq", {})`, "TypeError"},
		{`c("seq", {[Symbol.iterator]: 1})`, "TypeError"},
		{`JSON.stringify(conv("record", {b: 1, a: 2}))`, `{"b":1,"a":2}`},
		{`c("record", {b: 1, [Symbol()]: 3})`, "TypeError"}, // an enumerable Symbol key cannot be converted
		{`var s = {b: 1}; Object.defineProperty(s, Symbol(), {value: 1, enumerable: false}); JSON.stringify(conv("record", s))`, `{"b":1}`},
		{`var log = []; var p = new Proxy({a: 1, x: 2}, {get(t, k, r) { log.push("get " + String(k)); return Reflect.get(t, k, r); }}); conv("record", p); log.join()`, "get a,get x"},
		{`var o = {}; Object.defineProperty(o, "h", {value: 1, enumerable: false}); o.v = 5; JSON.stringify(conv("record", o))`, `{"v":5}`},
		{`c("record", 1)`, "TypeError"},
		{`c("buffer", new TextEncoderLike("hi").buffer)`, "ArrayBuffer:hi"},
		{`c("buffer", new Uint8Array([104, 105]))`, "Uint8Array:hi"},
		{`c("buffer", new Uint8Array([0, 104, 105, 0]).subarray(1, 3))`, "Uint8Array:hi"},
		{`c("buffer", new DataView(new Uint8Array([104, 105]).buffer))`, "DataView:hi"},
		{`c("buffer", [104])`, "TypeError"}, {`c("buffer", Object.create(Uint8Array.prototype))`, "TypeError"},
		{`c("abuf", new Uint8Array(2))`, "TypeError"}, {`c("abuf", new ArrayBuffer(3))`, "3"},
		{`var p = Promise.resolve(1); conv("promise", p) !== p`, "true"}, {`conv("promise", 1) instanceof Promise`, "true"},
	}
	run(t, r, `function TextEncoderLike(s) { return new Uint8Array([...s].map(ch => ch.charCodeAt(0))); }`)
	for _, c := range cases {
		if got := run(t, r, c[0]); got != c[1] {
			t.Errorf("%s = %q, want %q", c[0], got, c[1])
		}
	}
}

func TestDOMStringRoundTrip(t *testing.T) {
	units := [][]uint16{
		{0xD800}, {0xDC00, 0xD800}, {0x61, 0xD83D, 0xDE00, 0}, {0xDBFF, 0xDFFF}, {0xFFFF, 0xD7FF, 0xE000},
	}
	for _, u := range units {
		s := DOMStringFromUTF16(u)
		got := s.UTF16()
		if len(got) != len(u) {
			t.Fatalf("%x -> %q -> %x", u, s, got)
		}
		for i := range u {
			if got[i] != u[i] {
				t.Fatalf("%x -> %q -> %x", u, s, got)
			}
		}
	}
	if DOMStringFromUTF16([]uint16{0xD800}).ToUSVString() != "\uFFFD" {
		t.Fatal("USV replacement")
	}
	if !DOMString("héllo").IsWellFormed() || DOMStringFromUTF16([]uint16{0xDC00}).IsWellFormed() {
		t.Fatal("IsWellFormed")
	}
}

func TestCallbacks(t *testing.T) {
	r := newTestRealm(t, true)
	fn, _ := r.VM.RunString(`(function (a) { "use strict"; if (a === "throw") throw new RangeError("x"); return [this === undefined, a].join(); })`)
	cb := r.ToCallbackFunctionForTest(fn)
	v, err := cb.Invoke(nil, StringValue("hi"))
	if err != nil || v.String() != "true,hi" {
		t.Fatalf("Invoke: %v %v", v, err)
	}
	_, err = cb.Invoke(nil, StringValue("throw"))
	var js *JSError
	if !errors.As(err, &js) || !strings.Contains(js.Value.String(), "RangeError") {
		t.Fatalf("Invoke exception: %v", err)
	}
	p := cb.InvokePromise(nil, StringValue("throw"))
	if p.State() != sobek.PromiseStateRejected || !strings.Contains(p.Result().String(), "RangeError") {
		t.Fatalf("InvokePromise: %v %v", p.State(), p.Result())
	}
	p = cb.InvokePromise(nil, StringValue("ok"))
	if p.State() != sobek.PromiseStateFulfilled || p.Result().String() != "true,ok" {
		t.Fatalf("InvokePromise value: %v %v", p.State(), p.Result())
	}
	// Callback interface: callable object, or object with the operation.
	obj, _ := r.VM.RunString(`({ handleEvent(x) { return this.tag + x; }, tag: "t" })`)
	ci := &CallbackInterface{Object: obj.(*sobek.Object), Realm: r}
	v, err = ci.CallOperation("handleEvent", nil, StringValue("1"))
	if err != nil || v.String() != "t1" {
		t.Fatalf("CallOperation: %v %v", v, err)
	}
	_, err = ci.CallOperation("missing", nil)
	if !errors.As(err, &js) {
		t.Fatalf("CallOperation on missing op: %v", err)
	}
}

func (r *Realm) ToCallbackFunctionForTest(v sobek.Value) *CallbackFunction {
	var cb *CallbackFunction
	if err := r.Catch(func() { cb = r.ToCallbackFunction(v, false) }); err != nil {
		panic(err)
	}
	return cb
}

func TestDictionaryHelpers(t *testing.T) {
	r := newTestRealm(t, true)
	var log []string
	must(r.VM.Set("dict", func(call sobek.FunctionCall) sobek.Value {
		obj := r.DictionaryObject(call.Argument(0), "LockOptions")
		for _, k := range []string{"ifAvailable", "mode", "signal", "steal"} {
			v := r.DictionaryMember(obj, k)
			if v == nil {
				log = append(log, k+"=missing")
			} else {
				log = append(log, k+"="+v.String())
			}
		}
		return sobek.Undefined()
	}))
	run(t, r, `var gets = []; dict(new Proxy({mode: "shared"}, {get(t, k) { gets.push(k); return t[k]; }})); dict(undefined); dict(null);`)
	if got := run(t, r, `gets.join()`); got != "ifAvailable,mode,signal,steal" {
		t.Errorf("getter order: %s", got)
	}
	if got := run(t, r, `try { dict(1); "no" } catch (e) { e.constructor.name }`); got != "TypeError" {
		t.Errorf("non-object dictionary: %s", got)
	}
	if len(log) != 12 || log[1] != "mode=shared" || log[4] != "ifAvailable=missing" {
		t.Errorf("members: %v", log)
	}
}

func TestPromiseHelpers(t *testing.T) {
	r := newTestRealm(t, true)
	p := r.NewPromise()
	var got []string
	d := p.React(func(v sobek.Value) (sobek.Value, error) {
		got = append(got, "f:"+v.String())
		return StringValue("next"), nil
	}, nil)
	d.React(func(v sobek.Value) (sobek.Value, error) { got = append(got, "d:"+v.String()); return nil, nil }, nil)
	p.Resolve(StringValue("v"))
	if strings.Join(got, ",") != "f:v,d:next" {
		t.Fatalf("React: %v", got)
	}
	rej := r.PromiseRejectedWithError(NewTypeError("bad"))
	if rej.State() != sobek.PromiseStateRejected || !strings.Contains(rej.Result().String(), "TypeError: bad") {
		t.Fatalf("rejected: %v", rej.Result())
	}
	rej.MarkHandled()
	if r.ErrorValue(errors.New("plain")).(*sobek.Object).Get("name").String() != "TypeError" {
		t.Fatal("unknown error mapping")
	}
}

func TestIntBits(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want uint64
	}{{-1, math.MaxUint64}, {1 << 64, 0}, {-(1 << 64), 0}, {1<<63 + 2048, 1<<63 + 2048}, {-(1<<63 + 2048), 1<<63 - 2048}} {
		if got := intBits(c.x); got != c.want {
			t.Errorf("intBits(%v) = %d, want %d", c.x, got, c.want)
		}
	}
}

func TestIterators(t *testing.T) {
	r := newTestRealm(t, true)
	pairs := func() []Pair {
		return []Pair{{StringValue("a"), valueInt(1)}, {StringValue("b"), valueInt(2)}}
	}
	must(r.VM.Set("mk", func(call sobek.FunctionCall) sobek.Value {
		return r.NewPairIterator("Thing", IteratorKind(call.Argument(0).ToInteger()), pairs)
	}))
	expectJS(t, r, map[string]string{
		`JSON.stringify([...{[Symbol.iterator]() { return mk(0) }}])`: `[["a",1],["b",2]]`,
		`JSON.stringify([...{[Symbol.iterator]() { return mk(1) }}])`: `["a","b"]`,
		`JSON.stringify([...{[Symbol.iterator]() { return mk(2) }}])`: `[1,2]`,
		`Object.prototype.toString.call(mk(0))`:                       "[object Thing Iterator]",
		`var it = mk(0); Object.getPrototypeOf(Object.getPrototypeOf(it)) === Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()))`: "true",
		`try { mk(0).next.call({}); "no" } catch (e) { e.message }`:                                                                                "Illegal invocation",
	})
}

func TestPromiseAfterInterrupt(t *testing.T) {
	r := newTestRealm(t, true)
	p := r.NewPromise()
	q := r.NewPromise()
	r.VM.Interrupt("closed")
	// Settling a promise of an interrupted runtime must not panic.
	p.Resolve(StringValue("late"))
	q.Reject(StringValue("late"))
	q.MarkHandled()
	_ = p.React(func(v sobek.Value) (sobek.Value, error) { return v, nil }, nil)
}

func TestUnscopablesNamespaceAliasCrossOriginIsolated(t *testing.T) {
	reg := NewRegistry()
	op := func(r *Realm, call sobek.FunctionCall) sobek.Value { return valueInt(1) }
	reg.Add(&InterfaceDef{Name: "NS", Namespace: true, Exposed: []string{"*"}})
	reg.Add(&InterfaceDef{Name: "Inner", LegacyNamespace: "NS", Exposed: []string{"*"}})
	reg.Add(&InterfaceDef{Name: "U", Exposed: []string{"*"}, Unscopables: []string{"b"}, Members: []Member{
		{Name: "entries", Kind: Operation, Op: op},
		{Name: "entries", Symbol: "iterator", NotEnumerable: true, Kind: Operation, Alias: "entries"},
		{Name: "b", Kind: Operation, Op: op},
		{Name: "isolated", Kind: Operation, Op: op, CrossOriginIsolated: true},
	}})
	reg.Add(&InterfaceDef{Name: "Iso", Exposed: []string{"*"}, CrossOriginIsolated: true})
	r := NewRealm(sobek.New(), "Window", nil, true)
	if err := r.Install(reg); err != nil {
		t.Fatal(err)
	}
	expectJS(t, r, map[string]string{
		`typeof Inner + ":" + typeof NS.Inner`: "undefined:function",
		`var u = U.prototype[Symbol.unscopables]; [Object.getPrototypeOf(u), u.b, Object.getOwnPropertyDescriptor(U.prototype, Symbol.unscopables).writable].join()`: ",true,false",
		`U.prototype[Symbol.iterator] === U.prototype.entries`:                     "true",
		`Object.getOwnPropertyDescriptor(U.prototype, Symbol.iterator).enumerable`: "false",
		`"isolated" in U.prototype || typeof Iso !== "undefined"`:                  "false",
	})
}

func BenchmarkBrandCheckedCall(b *testing.B) {
	r := NewRealm(sobek.New(), "Window", nil, true)
	reg := NewRegistry()
	reg.Add(&InterfaceDef{Name: "T", Exposed: []string{"*"}, Members: []Member{
		{Name: "f", Kind: Operation, Op: func(r *Realm, call sobek.FunctionCall) sobek.Value {
			r.This(call.This, "T")
			return sobek.Undefined()
		}},
	}})
	if err := r.Install(reg); err != nil {
		b.Fatal(err)
	}
	_ = r.VM.Set("t", r.Wrap(&thing{}, "T"))
	_ = r.VM.Set("plain", func(sobek.FunctionCall) sobek.Value { return sobek.Undefined() })
	for _, c := range []struct{ name, src string }{
		{"webidl-op", "for (let i = 0; i < 1000; i++) t.f();"},
		{"plain-native", "for (let i = 0; i < 1000; i++) plain();"},
	} {
		prg := sobek.MustCompile("b.js", c.src, false)
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := r.VM.RunProgram(prg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// An interface's Implements admits the Go values its platform objects are
// made with: Wrap, WrapNew and constructors throw a TypeError for any
// other, and Install refuses a global implementation it rejects, so that
// This and ToInterface only ever return admitted implementations.
func TestImplementsGuardsObjectCreation(t *testing.T) {
	isThing := func(impl any) bool { _, ok := impl.(*thing); return ok }
	reg := NewRegistry()
	reg.Add(&InterfaceDef{Name: "Window", Exposed: []string{"Window"}, Global: true, Implements: isThing})
	reg.Add(&InterfaceDef{
		Name: "Sealed", Exposed: []string{"Window"}, Implements: isThing,
		Constructor: func(r *Realm, args []sobek.Value, nt *sobek.Object) any {
			if len(args) > 0 {
				return &errImpl{}
			}
			return &thing{n: 3}
		},
	})
	vm := sobek.New()
	r := NewRealm(vm, "Window", nil, true)
	r.SetGlobalImpl(&errImpl{})
	if err := r.Install(reg); err == nil || !strings.Contains(err.Error(), "*webidl.errImpl does not implement the interface Window") {
		t.Fatalf("Install with a rejected global implementation: %v", err)
	}
	r = NewRealm(sobek.New(), "Window", nil, true)
	r.SetGlobalImpl(&thing{})
	if err := r.Install(reg); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Implements(r.Wrap(&thing{n: 1}, "Sealed"), "Sealed"); !ok {
		t.Fatal("Wrap of an admitted implementation failed")
	}
	wrapErr := func(f func()) (msg string) {
		defer func() {
			if x := recover(); x != nil {
				msg = x.(*sobek.Object).Get("message").String()
			}
		}()
		f()
		return ""
	}
	for name, f := range map[string]func(){
		"Wrap":    func() { r.Wrap(&errImpl{}, "Sealed") },
		"WrapNew": func() { r.WrapNew(&errImpl{}, "Sealed", new(Slot)) },
	} {
		if msg := wrapErr(f); !strings.Contains(msg, "*webidl.errImpl does not implement the interface Sealed") {
			t.Errorf("%s of a rejected implementation: %q", name, msg)
		}
	}
	expectJS(t, r, map[string]string{
		"String(new Sealed() instanceof Sealed)":                                            "true",
		"try { new Sealed(1); 'made' } catch (e) { e.constructor.name + ': ' + e.message }": "TypeError: *webidl.errImpl does not implement the interface Sealed (its Methods interface, or the Go type that implementations.txt names)",
	})
}
