package webidl

import (
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
