package gentest

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/grafana/sobek"
)

// shape is a test implementation of ShapeMethods.
type shape struct {
	webidl.Reflector
	r       *webidl.Realm
	name    webidl.DOMString
	color   Color
	level   uint8
	clamped int8
	child   *shape
	dict    ShapeDict
	log     *[]string
}

var errNegative = webidl.NewRangeError("negative")

func (s *shape) Name() (webidl.DOMString, error) { return s.name, nil }
func (s *shape) Color() (Color, error)           { return s.color, nil }
func (s *shape) SetColor(v Color) error          { s.color = v; return nil }
func (s *shape) Level() (uint8, error)           { return s.level, nil }
func (s *shape) SetLevel(v uint8) error          { s.level = v; return nil }
func (s *shape) Clamped() (int8, error)          { return s.clamped, nil }
func (s *shape) SetClamped(v int8) error         { s.clamped = v; return nil }
func (s *shape) Self() (ShapeMethods, error)     { return s, nil }
func (s *shape) Replaceable() (int32, error)     { return 5, nil }
func (s *shape) Child() (ShapeMethods, error) {
	if s.child == nil {
		s.child = &shape{r: s.r, name: "child", log: s.log}
	}
	return s.child, nil
}
func (s *shape) SetName(v webidl.DOMString) error { s.name = v; return nil }
func (s *shape) Forever() (bool, error)           { return true, nil }
func (s *shape) Lenient() (int32, error)          { return 7, nil }
func (s *shape) Label() (webidl.DOMString, error) { return "shape " + s.name, nil }
func (s *shape) SetIndexedValueNumbers(i uint32, v int32) error {
	*s.log = append(*s.log, fmt.Sprintf("set %d=%d", i, v))
	return nil
}
func (s *shape) DeleteIndexedValueNumbers(i uint32, v int32) error {
	*s.log = append(*s.log, fmt.Sprintf("delete %d=%d", i, v))
	return nil
}
func (s *shape) Clone() (ShapeMethods, error) { return &shape{r: s.r, name: s.name, log: s.log}, nil }

// Area implements both area() and area(scale) (merged overloads: scale is
// present when called with an argument, even undefined).
func (s *shape) Area(scale webidl.Optional[int32]) (int32, error) {
	if !scale.Present {
		return 10, nil
	}
	return 10 * scale.Value, nil
}
func (s *shape) DescribeWithCount(n int32) (webidl.DOMString, error) {
	return webidl.DOMString(fmt.Sprintf("long %d", n)), nil
}
func (s *shape) DescribeWithText(x webidl.DOMString) (webidl.DOMString, error) {
	return "string " + x, nil
}
func (s *shape) DescribeWithList(l []int32) (webidl.DOMString, error) {
	return webidl.DOMString(fmt.Sprintf("sequence %v", l)), nil
}
func (s *shape) DescribeWithDict(d RequiredDict) (webidl.DOMString, error) {
	return webidl.DOMString("dict " + string(d.Name)), nil
}
func (s *shape) DescribeWithVisitor(v *Visitor) (webidl.DOMString, error) { return "callback", nil }
func (s *shape) Pick(x ShapeOrSequenceOfDOMStringOrBooleanOrDouble) (webidl.DOMString, error) {
	switch x.Type {
	case ShapeOrSequenceOfDOMStringOrBooleanOrDoubleIsShape:
		n, _ := x.Shape.Name()
		return "shape " + n, nil
	case ShapeOrSequenceOfDOMStringOrBooleanOrDoubleIsSequenceOfDOMString:
		return webidl.DOMString(fmt.Sprintf("strings %q", x.SequenceOfDOMString)), nil
	case ShapeOrSequenceOfDOMStringOrBooleanOrDoubleIsBoolean:
		return webidl.DOMString(fmt.Sprintf("boolean %v", x.Boolean)), nil
	case ShapeOrSequenceOfDOMStringOrBooleanOrDoubleIsDouble:
		return webidl.DOMString(fmt.Sprintf("double %v", x.Double)), nil
	}
	return "", errors.New("no member")
}
func (s *shape) Sum(vals []int32) (int32, error) {
	var t int32
	for _, v := range vals {
		t += v
	}
	return t, nil
}
func (s *shape) Later(fail bool) (*webidl.Promise, error) {
	if fail {
		return nil, errNegative
	}
	return s.r.PromiseResolvedWith(s.r.VM.ToValue(42)), nil
}
func (s *shape) Visit(v *Visitor) error {
	n, err := v.Invoke(nil, s, webidl.Some(int32(3)))
	if err != nil {
		return err
	}
	*s.log = append(*s.log, fmt.Sprintf("visitor returned %d", n))
	return nil
}
func (s *shape) VisitAsync(v *AsyncVisitor) (*webidl.Promise, error) { return v.Invoke(nil, s), nil }
func (s *shape) Listen(l *Listener) error                            { return l.Handle(nil, "event") }
func (s *shape) ToDict() (ShapeDict, error) {
	d := s.dict
	d.Name = s.name
	return d, nil
}
func (s *shape) TakeDict(d ShapeDict) error {
	s.dict = d
	*s.log = append(*s.log, describeDict(d))
	return nil
}
func (s *shape) RoundTrip(x webidl.DOMString) (webidl.DOMString, error) { return x, nil }
func (s *shape) Usv(x string) (string, error)                           { return x, nil }
func (s *shape) Bytes(x webidl.ByteString) (webidl.ByteString, error)   { return x, nil }
func (s *shape) Echo(x sobek.Value) (sobek.Value, error)                { return x, nil }
func (s *shape) MaybeObject(o *sobek.Object) (*sobek.Object, error)     { return o, nil }
func (s *shape) Big(b *big.Int) (*big.Int, error)                       { return new(big.Int).Add(b, big.NewInt(1)), nil }
func (s *shape) Ull(x uint64) (uint64, error)                           { return x, nil }
func (s *shape) Buffer(src webidl.BufferSource) (webidl.BufferSource, error) {
	b := append([]byte(nil), src.Bytes()...)
	ab := s.r.VM.NewArrayBuffer(b)
	return webidl.BufferSource{Object: s.r.VM.ToValue(ab).(*sobek.Object), Kind: webidl.KindArrayBuffer}, nil
}

func describeDict(d ShapeDict) string {
	var b strings.Builder
	fmt.Fprintf(&b, "base=%d name=%s color=%q", d.Base, d.Name, d.Color)
	if d.Sides.Present {
		fmt.Fprintf(&b, " sides=%v", d.Sides.Value)
	}
	if d.Weight.Null {
		b.WriteString(" weight=null")
	} else {
		fmt.Fprintf(&b, " weight=%v", d.Weight.Value)
	}
	if d.Inner != nil {
		i := d.Inner
		fmt.Fprintf(&b, " inner=(%s)", describeDict(ShapeDict{BaseDict: i.BaseDict, Name: i.Name, Color: i.Color, Weight: i.Weight, Tag: i.Tag}))
	}
	switch d.Tag.Type {
	case LongOrDOMStringIsLong:
		fmt.Fprintf(&b, " tag=long:%d", d.Tag.Long)
	case LongOrDOMStringIsDOMString:
		fmt.Fprintf(&b, " tag=string:%s", d.Tag.DOMString)
	}
	if d.Flags.Present {
		for _, e := range d.Flags.Value {
			fmt.Fprintf(&b, " flag %s=%v", e.Key, e.Value)
		}
	}
	return b.String()
}

type square struct{ shape }

func (s *square) Side() (int32, error)    { return 4, nil }
func (s *square) WebIDLInterface() string { return "Square" }

type shapeList struct {
	webidl.Reflector
	items []*shape
}

func (l *shapeList) Length() (uint32, error) { return uint32(len(l.items)), nil }
func (l *shapeList) Item(i uint32) (ShapeMethods, error) {
	if int(i) >= len(l.items) {
		return nil, nil
	}
	return l.items[i], nil
}
func (l *shapeList) IndexedLength() (uint32, error) { return uint32(len(l.items)), nil }

type namedMap struct {
	webidl.Reflector
	keys []string
	vals map[string]string
}

func (m *namedMap) NamedGetter(n webidl.DOMString) (webidl.DOMString, error) {
	return webidl.DOMString(m.vals[string(n)]), nil
}
func (m *namedMap) NamedSetter(n, v webidl.DOMString) error {
	if _, ok := m.vals[string(n)]; !ok {
		m.keys = append(m.keys, string(n))
	}
	m.vals[string(n)] = string(v)
	return nil
}
func (m *namedMap) NamedDeleter(n webidl.DOMString) error {
	delete(m.vals, string(n))
	for i, k := range m.keys {
		if k == string(n) {
			m.keys = append(m.keys[:i], m.keys[i+1:]...)
			break
		}
	}
	return nil
}
func (m *namedMap) SupportedPropertyNames() ([]webidl.DOMString, error) {
	var out []webidl.DOMString
	for _, k := range m.keys {
		out = append(out, webidl.DOMString(k))
	}
	return out, nil
}

type pairs struct{ webidl.Reflector }

func (pairs) IterablePairs() ([]webidl.KV[webidl.DOMString, int32], error) {
	return []webidl.KV[webidl.DOMString, int32]{{Key: "a", Value: 1}, {Key: "b", Value: 2}}, nil
}

type registry struct {
	webidl.Reflector
	entries []webidl.KV[webidl.DOMString, int32]
}

func (m *registry) MaplikeEntries() ([]webidl.KV[webidl.DOMString, int32], error) {
	return m.entries, nil
}
func (m *registry) MaplikeSet(k webidl.DOMString, v int32) error {
	for i := range m.entries {
		if m.entries[i].Key == k {
			m.entries[i].Value = v
			return nil
		}
	}
	m.entries = append(m.entries, webidl.KV[webidl.DOMString, int32]{Key: k, Value: v})
	return nil
}
func (m *registry) MaplikeDelete(k webidl.DOMString) (bool, error) {
	for i := range m.entries {
		if m.entries[i].Key == k {
			m.entries = append(m.entries[:i], m.entries[i+1:]...)
			return true, nil
		}
	}
	return false, nil
}
func (m *registry) MaplikeClear() error { m.entries = nil; return nil }

type tags struct{ webidl.Reflector }

func (tags) SetlikeValues() ([]webidl.DOMString, error) { return []webidl.DOMString{"x", "y"}, nil }

type window struct {
	webidl.Reflector
	title webidl.DOMString
	log   *[]string
}

func (w *window) Self() (WindowMethods, error)      { return w, nil }
func (w *window) Title() (webidl.DOMString, error)  { return w.title, nil }
func (w *window) SetTitle(v webidl.DOMString) error { w.title = v; return nil }
func (w *window) Greet() error                      { *w.log = append(*w.log, "hello"); return nil }

type statics struct{ log *[]string }

func (statics) Count(r *webidl.Realm) (int32, error) { return 3, nil }
func (st statics) Constructor(r *webidl.Realm, name webidl.DOMString, opts ShapeDict) (ShapeMethods, error) {
	if name == "bad" {
		return nil, webidl.NewTypeError("bad name")
	}
	s := &shape{r: r, name: name, log: st.log, dict: opts}
	*st.log = append(*st.log, "constructed "+describeDict(opts))
	return s, nil
}
func (st statics) Create(r *webidl.Realm, name webidl.DOMString) (ShapeMethods, error) {
	return &shape{r: r, name: name, log: st.log}, nil
}

type squareStatics struct{ log *[]string }

func (st squareStatics) Constructor(r *webidl.Realm) (SquareMethods, error) {
	return &square{shape{r: r, name: "square", log: st.log}}, nil
}

type geometry struct{}

func (geometry) Version(r *webidl.Realm) (webidl.DOMString, error) { return "1", nil }
func (geometry) Twice(r *webidl.Realm, x int32) (int32, error)     { return 2 * x, nil }

type env struct {
	r   *webidl.Realm
	log []string
	win *window
}

func newEnv(t *testing.T, secure bool) *env {
	t.Helper()
	e := &env{}
	reg := webidl.NewRegistry()
	if err := Register(reg, Statics{Shape: statics{log: &e.log}, Square: squareStatics{log: &e.log}, Geometry: geometry{}}); err != nil {
		t.Fatal(err)
	}
	e.r = webidl.NewRealm(sobek.New(), "Window", nil, secure)
	e.win = &window{log: &e.log}
	e.r.SetGlobalImpl(e.win)
	if err := e.r.Install(reg); err != nil {
		t.Fatal(err)
	}
	g := e.r.Global()
	set := func(name string, f func(sobek.FunctionCall) sobek.Value) { _ = g.Set(name, f) }
	set("makeList", func(call sobek.FunctionCall) sobek.Value {
		l := &shapeList{}
		for _, a := range call.Arguments {
			l.items = append(l.items, &shape{r: e.r, name: webidl.DOMString(a.String()), log: &e.log})
		}
		return e.r.Wrap(l, "ShapeList")
	})
	set("makeMap", func(sobek.FunctionCall) sobek.Value {
		return e.r.Wrap(&namedMap{vals: map[string]string{}}, "NamedMap")
	})
	set("makePairs", func(sobek.FunctionCall) sobek.Value { return e.r.Wrap(&pairs{}, "Pairs") })
	set("makeRegistry", func(sobek.FunctionCall) sobek.Value { return e.r.Wrap(&registry{}, "Registry") })
	set("makeTags", func(sobek.FunctionCall) sobek.Value { return e.r.Wrap(&tags{}, "Tags") })
	set("clearLog", func(sobek.FunctionCall) sobek.Value { e.log = nil; return sobek.Undefined() })
	set("log", func(sobek.FunctionCall) sobek.Value { return e.r.VM.ToValue(strings.Join(e.log, "|")) })
	return e
}

func (e *env) run(t *testing.T, src string) string {
	t.Helper()
	// No script may hang a test: interrupt it after a deadline.
	timer := time.AfterFunc(10*time.Second, func() { e.r.VM.Interrupt("script timed out") })
	defer timer.Stop()
	v, err := e.r.VM.RunString(src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return v.String()
}

func (e *env) expect(t *testing.T, cases [][2]string) {
	t.Helper()
	for _, c := range cases {
		if got := e.run(t, c[0]); got != c[1] {
			t.Errorf("%s\n got %q\nwant %q", c[0], got, c[1])
		}
	}
}

const catchJS = `function c(f) { try { return String(f()); } catch (e) { return e.name + ": " + e.message; } }`

func TestGeneratedInterface(t *testing.T) {
	e := newEnv(t, true)
	e.run(t, catchJS)
	e.expect(t, [][2]string{
		{`var s = new Shape("a"); s.name`, "a"},
		{`Shape.length + ":" + Shape.name`, "1:Shape"},
		{`c(() => Shape("a"))`, "TypeError: Failed to construct 'Shape': Please use the 'new' operator, this DOM object constructor cannot be called as a function."},
		{`c(() => new Shape())`, "TypeError: Failed to execute 'constructor' on 'Shape': 1 argument(s) required, but only 0 present."},
		{`c(() => new Shape("bad"))`, "TypeError: bad name"},
		{`Shape.CIRCLE + Shape.RATIO + Shape.prototype.CIRCLE`, "3.5"},
		{`s.color = "green"; s.color`, "green"},
		// Web IDL's attribute setter: a value not of the enumeration is
		// ignored, not a TypeError.
		{`c(() => { s.color = "blue"; return s.color; })`, "green"},
		{`s.color = ""; JSON.stringify(s.color)`, `""`},
		{`s.level = 255; s.level`, "255"},
		{`c(() => { s.level = 256; })`, "TypeError: Value is outside the 'octet' value range"},
		{`s.clamped = 300; s.clamped`, "127"},
		{`s.self === s && s.self === s.self`, "true"},
		{`s.replaceable = 9; s.replaceable + ":" + Object.getOwnPropertyDescriptor(s, "replaceable").value`, "9:9"},
		{`s.child.name`, "child"},
		{`s.child = "renamed"; s.child.name`, "renamed"},
		{`Object.getOwnPropertyDescriptor(s, "forever").configurable + ":" + s.forever`, "false:true"},
		{`Object.getOwnPropertyDescriptor(Shape.prototype, "lenient").get.call({})`, "undefined"},
		{`c(() => Object.getOwnPropertyDescriptor(Shape.prototype, "name").get.call({}))`, "TypeError: Illegal invocation"},
		{`Shape.count + ":" + Shape.create("z").name`, "3:z"},
		{`String(s) + ":" + s.toString.length`, "shape a:0"},
		{`s.clone() !== s && s.clone() instanceof Shape`, "true"},
		{`s.area() + ":" + s.area(3) + ":" + s.area(undefined) + ":" + Shape.prototype.area.length`, "10:30:0:0"},
		{`s.describe(5)`, "long 5"},
		{`s.describe("x")`, "string x"},
		{`s.describe([1, 2])`, "sequence [1 2]"},
		{`s.describe(new Set([3]))`, "sequence [3]"},
		{`s.describe({name: "d"})`, "dict d"},
		{`c(() => s.describe(null))`, "TypeError: Failed to read the 'name' property from 'RequiredDict': Required member is undefined."},
		{`c(() => s.describe({}))`, "TypeError: Failed to read the 'name' property from 'RequiredDict': Required member is undefined."},
		{`s.describe(() => 1)`, "callback"},
		{`s.describe(true)`, "string true"},
		{`c(() => s.describe())`, "TypeError: Failed to execute 'describe' on 'Shape': 1 argument(s) required, but only 0 present."},
		{`s.pick(new Shape("p"))`, "shape p"},
		{`s.pick(["a", "b"])`, `strings ["a" "b"]`},
		{`s.pick(false)`, "boolean false"},
		{`s.pick(2.5)`, "double 2.5"},
		{`s.pick("7")`, "double 7"},
		{`c(() => s.pick({}))`, "TypeError: The provided value is non-finite"},
		{`c(() => s.pick(Symbol()))`, "TypeError: Cannot convert a Symbol value to a number"},
		{`s.sum() + ":" + s.sum(1, 2, 3) + ":" + Shape.prototype.sum.length`, "0:6:0"},
		{`s.roundTrip("a\uD800b") === "a\uD800b"`, "true"},
		{`s.usv("a\uD800b").charCodeAt(1)`, "65533"},
		{`c(() => s.bytes("\u0100"))`, "TypeError: Cannot convert to ByteString: character at index 0 has a value of 256, greater than 255"},
		{`var o = {}; s.echo(o) === o && s.echo(undefined) === undefined`, "true"},
		{`s.maybeObject(null) === null && c(() => s.maybeObject(1))`, "TypeError: The provided value is not an object"},
		{`s.big(41n) === 42n`, "true"},
		{`s.ull(2**53 - 1)`, "9007199254740991"},
		{`new Uint8Array(s.buffer(new Uint8Array([1, 2, 3]).subarray(1))).join()`, "2,3"},
		{`c(() => s.buffer([1]))`, "TypeError: The provided value is not of type 'BufferSource'"},
		{`var j = s.toJSON(); Object.keys(j).join() + ":" + (j.self === s) + ":" + j.level`, "name,color,level,clamped,self,replaceable,child,forever,lenient,label:true:255"},
		{`var sq = new Square(); [sq instanceof Shape, sq.side, sq.name, Object.getPrototypeOf(Square) === Shape].join()`, "true,4,square,true"},
		{`Object.getPrototypeOf(s.self) === Shape.prototype`, "true"},
		{`Geometry.twice(21) + ":" + Geometry.version + ":" + Object.prototype.toString.call(Geometry)`, "42:1:[object Geometry]"},
		{`typeof SecureThing + ":" + typeof WorkerScope`, "function:undefined"},
	})
}

func TestGeneratedGlobal(t *testing.T) {
	e := newEnv(t, true)
	e.expect(t, [][2]string{
		{`title = "hi"; title`, "hi"},
		{`greet(); log()`, "hello"},
		{`self === globalThis`, "true"},
		{`Object.getPrototypeOf(globalThis) === Window.prototype`, "true"},
		{`"greet" in Window.prototype`, "false"},
	})
	if e.win.title != "hi" {
		t.Fatalf("title = %q", e.win.title)
	}
	insecure := newEnv(t, false)
	insecure.expect(t, [][2]string{{`typeof SecureThing`, "undefined"}})
}

func TestGeneratedDictionaries(t *testing.T) {
	e := newEnv(t, true)
	e.run(t, catchJS)
	e.run(t, `var order = []; var src = {}; for (const k of ["base", "name", "color", "sides", "weight", "inner", "tag", "flags"]) {
		Object.defineProperty(src, k, {get() { order.push(k); return {base: 2, name: "n", color: "green", sides: [3, 4], weight: 1.5, inner: {name: "in", tag: "s"}, tag: 9, flags: {x: 1, y: 0}}[k]; }});
	}`)
	e.run(t, `new Shape("a", src)`)
	e.expect(t, [][2]string{
		// Inherited members first, then lexicographic order; each getter once.
		{`order.join()`, "base,color,flags,inner,name,sides,tag,weight"},
		{`log()`, `constructed base=2 name=n color="green" sides=[3 4] weight=1.5 inner=(base=1 name=in color="red" weight=null tag=string:s) tag=long:9 flag x=true flag y=false`},
		{`var s = new Shape("b"); s.takeDict(); log().split("|").pop()`, `base=1 name= color="red" weight=null tag=long:0`},
		{`c(() => s.takeDict({color: "x", name: "q"}))`, "TypeError: The provided value 'x' is not a valid enum value of type Color"},
		{`c(() => s.takeDict(5))`, "TypeError: The provided value is not of type 'ShapeDict'"},
		{`s.takeDict({name: "z", sides: [1], weight: null}); JSON.stringify(s.toDict())`, `{"base":1,"color":"red","name":"b","sides":[1],"tag":0,"weight":null}`},
		{`var sd = new Shape("c"); sd.takeDict({inner: {name: "deep", inner: {name: "ignored"}}}); log().split("|").pop()`, `base=1 name= color="red" weight=null inner=(base=1 name=deep color="red" weight=null tag=long:0) tag=long:0`},
	})
}

func TestGeneratedCallbacksAndPromises(t *testing.T) {
	e := newEnv(t, true)
	e.run(t, catchJS)
	e.run(t, `var s = new Shape("cb"); var out = []; clearLog();`)
	e.expect(t, [][2]string{
		{`s.visit(function (shape, depth) { "use strict"; out.push(this === undefined, shape.name, depth); return "12"; }); out.join() + "|" + log()`, "true,cb,3|visitor returned 12"},
		{`c(() => s.visit(function () { throw new RangeError("inner"); }))`, "RangeError: inner"},
		{`c(() => s.visit({}))`, "TypeError: The provided value is not a function"},
		{`c(() => s.listen({ handle(w) { out.push("handled " + w + " " + (this.tag)); }, tag: "T" })); out.pop()`, "handled event T"},
		{`c(() => s.listen({}))`, "TypeError: The 'handle' property of the callback interface is not callable"},
	})
	e.run(t, `var results = [];
		s.visitAsync(l => { throw new Error("boom"); }).catch(e => results.push("rejected " + e.message));
		s.visitAsync(l => l.name).then(v => results.push("fulfilled " + v));
		s.later().then(v => results.push("later " + v));
		s.later(true).catch(e => results.push("later " + e.name));
		Shape.prototype.later.call({}).catch(e => results.push("brand " + e.message));`)
	e.expect(t, [][2]string{{`results.join("|")`, "rejected boom|fulfilled cb|later 42|later RangeError|brand Illegal invocation"}})
}

func TestGeneratedLegacyAndIterables(t *testing.T) {
	e := newEnv(t, true)
	e.run(t, catchJS)
	e.expect(t, [][2]string{
		{`var l = makeList("a", "b"); l[0].name + l[1].name + ":" + l.length + ":" + l[2]`, "ab:2:undefined"},
		{`l[0] === l.item(0)`, "true"},
		{`Object.keys(l).join()`, "0,1"},
		{`0 in l && !(2 in l)`, "true"},
		{`[...l].map(x => x.name).join()`, "a,b"},
		{`ShapeList.prototype[Symbol.iterator] === Array.prototype.values && ShapeList.prototype.forEach === Array.prototype.forEach`, "true"},
		{`l[0] = 1; l[0].name`, "a"},
		{`l instanceof ShapeList && l.length === 2`, "true"},
		{`var m = makeMap(); m.foo = "bar"; m.foo + ":" + Object.keys(m).length + ":" + Object.getOwnPropertyNames(m).join()`, "bar:0:foo"},
		{`"foo" in m && delete m.foo && !("foo" in m)`, "true"},
		{`m.item = "x"; m.item`, "x"},
		{`var p = makePairs(); JSON.stringify([...p]) + JSON.stringify([...p.keys()]) + JSON.stringify([...p.values()])`, `[["a",1],["b",2]]["a","b"][1,2]`},
		{`Pairs.prototype[Symbol.iterator] === Pairs.prototype.entries`, "true"},
		{`Object.prototype.toString.call(p.entries())`, "[object Pairs Iterator]"},
		{`var fe = []; p.forEach((v, k, o) => fe.push(k + v + (o === p))); fe.join()`, "a1true,b2true"},
		{`var reg = makeRegistry(); reg.set("x", 1).set("y", "2"); reg.size + ":" + reg.get("y") + ":" + reg.has("x") + ":" + reg.has("z")`, "2:2:true:false"},
		{`reg.delete("x") + ":" + JSON.stringify([...reg]) + ":" + (Registry.prototype[Symbol.iterator] === Registry.prototype.entries)`, `true:[["y",2]]:true`},
		{`reg.clear(); reg.size`, "0"},
		{`var tg = makeTags(); [...tg].join() + ":" + tg.has("x") + ":" + tg.size + ":" + ("add" in tg) + ":" + (Tags.prototype.keys === Tags.prototype.values)`, "x,y:true:2:false:true"},
	})
}

func TestGeneratedObservableArray(t *testing.T) {
	e := newEnv(t, true)
	e.run(t, catchJS)
	e.expect(t, [][2]string{
		{`var s = new Shape("o"); clearLog(); var a = s.numbers; a === s.numbers && Array.isArray(a)`, "true"},
		{`a.push(1, "2"); a.length + ":" + a.join()`, "2:1,2"},
		{`a[0] = 5; a.join()`, "5,2"},
		{`c(() => { a[5] = 1; })`, "undefined"},
		{`a.length = 1; a.join()`, "5"},
		{`s.numbers = [7, 8]; s.numbers.join()`, "7,8"},
		{`log()`, "set 0=1|set 1=2|delete 0=1|set 0=5|delete 1=2|delete 0=5|set 0=7|set 1=8"},
	})
}

// A missing Statics implementation is an error when registering, never a
// TypeError when script first calls the constructor.
func TestRegisterRequiresEveryStatics(t *testing.T) {
	err := Register(webidl.NewRegistry(), Statics{Shape: statics{}, Geometry: geometry{}})
	if err == nil || !strings.Contains(err.Error(), "SquareStatics") || strings.Contains(err.Error(), "ShapeStatics") {
		t.Errorf("Register without Square: %v", err)
	}
	reg := webidl.NewRegistry()
	all := Statics{Shape: statics{}, Square: squareStatics{}, Geometry: geometry{}}
	if err := Register(reg, all); err != nil {
		t.Fatal(err)
	}
	if err := Register(reg, all); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Errorf("second Register: %v", err)
	}
}
