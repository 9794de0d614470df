package webidl

import (
	"strings"
	"testing"

	"github.com/grafana/sobek"
)

// TestForeignMember: a member whose this value fails the brand check is
// handed to ForeignMember with the interface and member names, the kind
// and the arguments; its result is the call's. Only the call's own this
// value is forwarded, and a refusal keeps the TypeError.
func TestForeignMember(t *testing.T) {
	r := newTestRealm(t, true)
	foreign := r.VM.NewObject()
	must(r.VM.Set("foreign", foreign))
	type call struct {
		iface, member string
		kind          ForeignKind
		args          int
	}
	var got []call
	r.ForeignMember = func(this sobek.Value, iface string) func(string, ForeignKind, []sobek.Value) sobek.Value {
		if this != foreign {
			return nil
		}
		return func(member string, kind ForeignKind, args []sobek.Value) sobek.Value {
			got = append(got, call{iface, member, kind, len(args)})
			return StringValue("forwarded " + member)
		}
	}
	// In order: the calls are checked in this order below.
	for _, c := range [][2]string{
		{`Thing.prototype.later.call(foreign)`, "forwarded later"},
		{`Object.getOwnPropertyDescriptor(Thing.prototype, "n").get.call(foreign)`, "forwarded n"},
		{`Object.getOwnPropertyDescriptor(Thing.prototype, "n").set.call(foreign, 3)`, "forwarded n"},
		{`Base.prototype.baseOp.call(foreign, 1, 2)`, "forwarded baseOp"},
		{`Thing.prototype.later.call({}).constructor === Promise`, "true"},
		{`try { Base.prototype.baseOp.call({}, 1) } catch (e) { e instanceof TypeError }`, "true"},
		{`new Thing(5).n`, "5"},
		{`try { Base.prototype.baseOp.call(Object.create(foreign), 1); "no" } catch (e) { e.name }`, "TypeError"},
	} {
		if got := run(t, r, c[0]); got != c[1] {
			t.Errorf("%s = %q, want %q", c[0], got, c[1])
		}
	}
	want := []call{
		{"Thing", "later", ForeignOperation, 0},
		{"Thing", "n", ForeignGetter, 0},
		{"Thing", "n", ForeignSetter, 1},
		{"Base", "baseOp", ForeignOperation, 2},
	}
	if len(got) != len(want) {
		t.Fatalf("forwarded %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("call %d: %v, want %v", i, got[i], want[i])
		}
	}
	// A refusal is the brand check's TypeError.
	r.ForeignMember = func(sobek.Value, string) func(string, ForeignKind, []sobek.Value) sobek.Value { return nil }
	expectJS(t, r, map[string]string{
		`try { Base.prototype.baseOp.call(foreign, 1); "no" } catch (e) { e instanceof TypeError }`: "true",
	})
}

// TestForeignObject: a conversion to an interface type admits an object
// that ForeignObject says stands for a platform object of another realm
// installed from the same registry, and gives that realm's
// implementation; wrapping the implementation again gives the view
// (ForeignValue), never a second object, and the object keeps its
// identity in its own realm. Brand checks (This) do not admit it, and a
// realm whose definition of the interface differs refuses it.
func TestForeignObject(t *testing.T) {
	reg := testRegistry()
	reg.Add(&InterfaceDef{
		Name: "Taker", Exposed: []string{"Window"}, Namespace: true,
		Members: []Member{
			{Name: "take", Kind: Operation, Length: 1, Op: func(r *Realm, call sobek.FunctionCall) sobek.Value {
				return r.VM.ToValue(r.ToInterface(AnyValue(Arg(call, 0)), "Base").(*thing).n)
			}},
			{Name: "give", Kind: Operation, Length: 1, Op: func(r *Realm, call sobek.FunctionCall) sobek.Value {
				return r.Wrap(r.ToInterface(AnyValue(Arg(call, 0)), "Thing"), "Thing")
			}},
		},
	})
	newRealm := func(reg *Registry) *Realm {
		r := NewRealm(sobek.New(), "Window", nil, true)
		if err := r.Install(reg); err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b := newRealm(reg), newRealm(reg)
	run(t, a, `var t = new Thing(5); t.x = "expando"; 0`)
	tA := a.VM.Get("t").(*sobek.Object)
	// view is b's stand-in for a's object (a membrane's proxy in a host).
	view := b.VM.NewObject()
	must(b.VM.Set("view", view))
	b.ForeignObject = func(v *sobek.Object) (*Realm, *sobek.Object) {
		if v == view {
			return a, tA
		}
		return nil, nil
	}
	b.ForeignValue = func(from *Realm, v sobek.Value) sobek.Value {
		if from == a && v == tA {
			return view
		}
		return nil
	}
	expectJS(t, b, map[string]string{
		`Taker.take(view)`:          "5",
		`Taker.give(view) === view`: "true",
		`try { Taker.take({}); "no" } catch (e) { e instanceof TypeError }`: "true",
		// A brand check stays in the realm: this is no Thing of b.
		`try { Object.getOwnPropertyDescriptor(Thing.prototype, "n").get.call(view); "no" } catch (e) { e.message }`: IllegalInvocation,
	})
	// a's object is still a's: the same object, with its expando.
	expectJS(t, a, map[string]string{
		`Taker.give(t) === t && Taker.give(t).x`: "expando",
	})
	// Another registry's Thing is another interface.
	c := newRealm(testRegistryWithTaker(reg))
	cview := c.VM.NewObject()
	must(c.VM.Set("view", cview))
	c.ForeignObject = func(v *sobek.Object) (*Realm, *sobek.Object) { return a, tA }
	expectJS(t, c, map[string]string{
		`try { Taker.take(view); "no" } catch (e) { e instanceof TypeError }`: "true",
	})
}

// testRegistryWithTaker is a second registry with reg's Taker and its own
// Base and Thing.
func testRegistryWithTaker(reg *Registry) *Registry {
	r2 := testRegistry()
	r2.Add(reg.defs["Taker"])
	return r2
}

// TestForeignBufferSource: a buffer source of another realm of the agent
// (seen through the host's view of it) converts to the buffer source
// types, and its bytes are the other realm's.
func TestForeignBufferSource(t *testing.T) {
	a := NewRealm(sobek.New(), "Window", nil, true)
	b := NewRealm(sobek.New(), "Window", nil, true)
	v, err := a.VM.RunString(`var u = new Uint8Array([0x68, 0x69, 0x21, 0x3f]); ({ab: u.buffer, u8: u.subarray(1, 3), dv: new DataView(u.buffer, 2), plain: {}})`)
	must(err)
	objs := v.(*sobek.Object)
	views := map[*sobek.Object]*sobek.Object{}
	for _, name := range []string{"ab", "u8", "dv", "plain"} {
		view := b.VM.NewObject()
		views[view] = objs.Get(name).(*sobek.Object)
		must(b.VM.Set(name, view))
	}
	b.ForeignObject = func(v *sobek.Object) (*Realm, *sobek.Object) {
		if o := views[v]; o != nil {
			return a, o
		}
		return nil, nil
	}
	conv := func(name, typeName string, kinds ...BufferKind) (BufferSource, *sobek.Exception) {
		var bs BufferSource
		ex := b.VM.Try(func() { bs = b.ToBufferSource(b.VM.Get(name), typeName, kinds...) })
		return bs, ex
	}
	for _, c := range []struct {
		name  string
		kinds []BufferKind
		kind  BufferKind
		bytes string
	}{
		{"ab", []BufferKind{KindArrayBuffer, "view"}, KindArrayBuffer, "hi!?"},
		{"u8", []BufferKind{KindArrayBuffer, "view"}, "Uint8Array", "i!"},
		{"u8", []BufferKind{"Uint8Array"}, "Uint8Array", "i!"},
		{"dv", []BufferKind{"view"}, KindDataView, "!?"},
	} {
		bs, ex := conv(c.name, "T", c.kinds...)
		if ex != nil {
			t.Fatalf("%s %v: %v", c.name, c.kinds, ex)
		}
		if bs.Kind != c.kind || string(bs.Bytes()) != c.bytes || bs.Value() != b.VM.Get(c.name) {
			t.Errorf("%s %v: %s %q", c.name, c.kinds, bs.Kind, bs.Bytes())
		}
		if k := b.BufferKindOf(b.VM.Get(c.name)); k != c.kind {
			t.Errorf("BufferKindOf(%s) = %q", c.name, k)
		}
	}
	// The other realm's kinds still decide.
	for _, c := range []struct {
		name  string
		kinds []BufferKind
	}{{"ab", []BufferKind{"view"}}, {"u8", []BufferKind{KindArrayBuffer}}, {"dv", []BufferKind{"Uint8Array"}}, {"plain", []BufferKind{KindArrayBuffer, "view"}}} {
		if _, ex := conv(c.name, "T", c.kinds...); ex == nil || !strings.Contains(ex.Error(), "not of type 'T'") {
			t.Errorf("%s %v: %v", c.name, c.kinds, ex)
		}
	}
	if k := b.BufferKindOf(b.VM.Get("plain")); k != "" {
		t.Errorf("BufferKindOf(plain) = %q", k)
	}
}
