package idl

import (
	"fmt"
	"strings"
	"testing"
)

func analyze(t testing.TB, src ...string) *Analysis {
	t.Helper()
	var files []*File
	for i, s := range src {
		f, err := Parse(fmt.Sprintf("f%d.idl", i), []byte(s))
		if err != nil {
			t.Fatalf("parse: %v", err)
		}
		files = append(files, f)
	}
	return Analyze(files...)
}

// typeOf parses a type by declaring it as a typedef's type in a file of
// its own, so that the typedef's name does not interfere.
func typeOf(t testing.TB, a *Analysis, src string) *Type {
	t.Helper()
	f, err := Parse("type.idl", []byte("typedef "+src+" T__;"))
	if err != nil {
		t.Fatalf("parse type %q: %v", src, err)
	}
	return f.Definitions[0].(*Typedef).Type
}

func Example() {
	src := `
[Exposed=Window] interface Node {};
[Exposed=Window] interface Element : Node {};
[Exposed=Window] interface Event {};
dictionary Options { boolean capture = false; };
typedef (Element or DOMString) Target;
[Exposed=Window] interface Doc {
  undefined add(Target t, optional Options o = {});
  undefined add(Event e, long n);
};
partial interface Doc { attribute DOMString title; };
interface mixin Extra { undefined extra(); };
Doc includes Extra;
`
	f, err := Parse("doc.idl", []byte(src))
	if err != nil {
		panic(err)
	}
	a := Analyze(f)

	// Merged members: the interface, its partial, the included mixin.
	for _, m := range a.Members("Doc") {
		fmt.Printf("member %q from %s %s\n", m.Member.MemberName(), KindOf(m.Part.Def), m.Part.Def.DefinitionName())
	}

	// Typedefs resolved, categories, distinguishability.
	target := a.Lookup("Doc").(*Interface).Members[0].(*Operation).Arguments[0].Type
	fmt.Println("Target resolves to", a.Resolve(target), "category", a.CategoryOf(target))
	node := &Type{Name: "Node"}
	fmt.Println("Target vs Node distinguishable:", a.Distinguishable(target, node))

	// Overload sets and the distinguishing argument index per length.
	for _, set := range a.OverloadSets("Doc") {
		for n := set.MinLength(); n <= set.MaxLength(); n++ {
			entries := set.Effective(n)
			i, ok, _ := a.DistinguishingIndex(entries)
			fmt.Printf("%s with %d arguments: %d overloads, distinguishing index %d (%v)\n", set.Name, n, len(entries), i, ok)
		}
	}
	// Output:
	// member "add" from interface Doc
	// member "add" from interface Doc
	// member "title" from interface Doc
	// member "extra" from interface mixin Extra
	// Target resolves to (Element or DOMString) category union
	// Target vs Node distinguishable: false
	// add with 1 arguments: 1 overloads, distinguishing index 0 (true)
	// add with 2 arguments: 2 overloads, distinguishing index 0 (true)
	// extra with 0 arguments: 1 overloads, distinguishing index 0 (true)
}

// TestDistinguishableTable checks every cell of the table of
// https://webidl.spec.whatwg.org/#dfn-distinguishable, both ways round,
// with two different representatives per category.
func TestDistinguishableTable(t *testing.T) {
	a := analyze(t, `
[Exposed=Window] interface I1 {};
[Exposed=Window] interface I2 {};
callback CB = undefined ();
callback CB2 = long (long x);
dictionary D {};
callback interface CI { undefined handleEvent(); };
enum E { "a" };
`)
	reps := map[Category][2]string{
		CategoryUndefined:        {"undefined", "undefined"},
		CategoryBoolean:          {"boolean", "boolean"},
		CategoryNumeric:          {"long", "unrestricted double"},
		CategoryBigInt:           {"bigint", "bigint"},
		CategoryString:           {"DOMString", "E"},
		CategoryObject:           {"object", "object"},
		CategorySymbol:           {"symbol", "symbol"},
		CategoryInterfaceLike:    {"I1", "Uint8Array"},
		CategoryCallbackFunction: {"CB", "CB2"},
		CategoryDictionaryLike:   {"D", "record<DOMString, long>"},
		CategoryAsyncSequence:    {"async_sequence<long>", "async_sequence<DOMString>"},
		CategorySequenceLike:     {"sequence<long>", "FrozenArray<DOMString>"},
	}
	// marked lists, for each row, the columns at or right of the diagonal
	// the table marks (with a mark or a satisfied letter).
	marked := map[Category][]Category{
		CategoryUndefined: {CategoryBoolean, CategoryNumeric, CategoryBigInt, CategoryString, CategoryObject, CategorySymbol,
			CategoryInterfaceLike, CategoryCallbackFunction, CategoryAsyncSequence, CategorySequenceLike},
		CategoryBoolean: {CategoryNumeric, CategoryBigInt, CategoryString, CategoryObject, CategorySymbol,
			CategoryInterfaceLike, CategoryCallbackFunction, CategoryDictionaryLike, CategoryAsyncSequence, CategorySequenceLike},
		CategoryNumeric: {CategoryBigInt, CategoryString, CategoryObject, CategorySymbol,
			CategoryInterfaceLike, CategoryCallbackFunction, CategoryDictionaryLike, CategoryAsyncSequence, CategorySequenceLike},
		CategoryBigInt: {CategoryString, CategoryObject, CategorySymbol,
			CategoryInterfaceLike, CategoryCallbackFunction, CategoryDictionaryLike, CategoryAsyncSequence, CategorySequenceLike},
		CategoryString: {CategoryObject, CategorySymbol,
			CategoryInterfaceLike, CategoryCallbackFunction, CategoryDictionaryLike, CategoryAsyncSequence, CategorySequenceLike},
		CategoryObject: {CategorySymbol},
		CategorySymbol: {CategoryInterfaceLike, CategoryCallbackFunction, CategoryDictionaryLike, CategoryAsyncSequence, CategorySequenceLike},
		CategoryInterfaceLike: {CategoryInterfaceLike, CategoryCallbackFunction, CategoryDictionaryLike,
			CategoryAsyncSequence, CategorySequenceLike},
		CategoryCallbackFunction: {CategoryDictionaryLike, CategoryAsyncSequence, CategorySequenceLike},
		CategoryDictionaryLike:   {CategoryAsyncSequence, CategorySequenceLike},
	}
	for row := CategoryUndefined; row <= CategorySequenceLike; row++ {
		for col := row; col <= CategorySequenceLike; col++ {
			want := false
			for _, c := range marked[row] {
				want = want || c == col
			}
			x, y := typeOf(t, a, reps[row][0]), typeOf(t, a, reps[col][1])
			if got := a.CategoryOf(x); got != row {
				t.Fatalf("category of %s = %v, want %v", x, got, row)
			}
			if got := a.CategoryOf(y); got != col {
				t.Fatalf("category of %s = %v, want %v", y, got, col)
			}
			if got := a.Distinguishable(x, y); got != want {
				t.Errorf("%v (%s) and %v (%s): distinguishable = %v, want %v", row, x, col, y, got, want)
			}
			if got := a.Distinguishable(y, x); got != want {
				t.Errorf("%v (%s) and %v (%s): distinguishable = %v, want %v", col, y, row, x, got, want)
			}
		}
	}
}

func TestDistinguishableRules(t *testing.T) {
	a := analyze(t, `
[Exposed=Window] interface Node {};
[Exposed=Window] interface Element : Node {};
[Exposed=Window] interface HTMLElement : Element {};
[Exposed=Window] interface Text : Node {};
[LegacyWindowAlias=OldNode, Exposed=Window] interface Other {};
[LegacyTreatNonObjectAsNull] callback Handler = any (any e);
callback Plain = undefined ();
dictionary D { long x; };
callback interface CI { undefined handleEvent(); };
typedef (Element or DOMString) ElementOrString;
typedef long? MaybeLong;
typedef (D or long) DictOrLong;
`)
	cases := []struct {
		x, y string
		want bool
	}{
		// (a): the same interface, or one inheriting from the other.
		{"Node", "Node", false},
		{"HTMLElement", "Node", false},
		{"Node", "HTMLElement", false},
		{"Element", "Text", true},
		{"Node?", "Node", false},
		{"Node?", "Other", true},
		{"OldNode", "Other", false}, // an alias is its interface
		// (c): [LegacyTreatNonObjectAsNull] callbacks and dictionary-likes.
		{"Plain", "D", true},
		{"Handler", "D", false},
		{"Handler", "CI", false},
		{"Plain", "record<DOMString, long>", true},
		// Step 1: nullable against nullable or dictionary.
		{"long?", "DOMString?", false},
		{"long?", "D", false},
		{"long?", "(D or DOMString)", false},
		{"MaybeLong", "D", false},
		{"MaybeLong", "DOMString", true},
		{"DictOrLong", "DOMString?", false},
		{"DOMString?", "long", true},
		// Steps 2 and 3: unions member by member, typedefs followed.
		{"ElementOrString", "Node", false},
		{"ElementOrString", "Text", true},
		{"ElementOrString", "long", true},
		{"ElementOrString", "USVString", false},
		{"(Text or long)", "(Element or DOMString)", true},
		{"(Text or long)", "(Element or double)", false},
		// Types outside the table.
		{"any", "long", false},
		{"Promise<long>", "DOMString", false},
		{"ObservableArray<long>", "sequence<long>", false},
		{"ObservableArray<long>", "long", true},
		// Buffer source types are interface-like.
		{"ArrayBuffer", "Uint8Array", true},
		{"BufferSource", "Uint8Array", false},
		{"BufferSource", "DOMString", true},
		{"object", "Node", false},
		{"object", "symbol", true},
	}
	for _, c := range cases {
		x, y := typeOf(t, a, c.x), typeOf(t, a, c.y)
		if got := a.Distinguishable(x, y); got != c.want {
			t.Errorf("Distinguishable(%s, %s) = %v, want %v", c.x, c.y, got, c.want)
		}
		if got := a.Distinguishable(y, x); got != c.want {
			t.Errorf("Distinguishable(%s, %s) = %v, want %v", c.y, c.x, got, c.want)
		}
	}
}

func TestResolve(t *testing.T) {
	a := analyze(t, `
typedef [Clamp] long Small;
typedef Small? MaybeSmall;
typedef sequence<MaybeSmall> Smalls;
typedef (Smalls or DOMString) Both;
`)
	cases := []struct{ in, want string }{
		{"MaybeSmall", "long?"},
		{"Smalls", "sequence<long?>"},
		{"Both?", "(sequence<long?> or DOMString)?"},
		{"record<DOMString, Small>", "record<DOMString, long>"},
		{"long", "long"},
	}
	for _, c := range cases {
		in := typeOf(t, a, c.in)
		r := a.Resolve(in)
		if r == nil || r.String() != c.want {
			t.Errorf("Resolve(%s) = %v, want %s", c.in, r, c.want)
		}
		if in.String() != c.in {
			t.Errorf("Resolve modified its argument: %s became %s", c.in, in)
		}
	}
	r := a.Resolve(typeOf(t, a, "MaybeSmall"))
	if !r.ExtAttrs.Has("Clamp") {
		t.Errorf("Resolve(MaybeSmall) lost [Clamp]: %+v", r.ExtAttrs.List())
	}
	if u := a.Underlying(typeOf(t, a, "MaybeSmall")); u.String() != "long" {
		t.Errorf("Underlying(MaybeSmall) = %s, want long (as written in Small)", u)
	}
}

// TestTypedefCycles builds cycles and chains longer than any recursion
// limit: every typedef of a cycle is found, whatever its length, and the
// typedefs leading into a cycle do not resolve.
func TestTypedefCycles(t *testing.T) {
	for _, n := range []int{1, 2, 9000, 11000, 100000} {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "typedef T%d T%d;\n", (i+1)%n, i)
		}
		b.WriteString("typedef (T0 or long) Into;\ntypedef long Fine;\n")
		a := analyze(t, b.String())
		if got := len(a.TypedefCycles()); got != n {
			t.Errorf("cycle of %d: %d typedefs in cycles", n, got)
		}
		if r := a.Resolve(&Type{Name: "Into"}); r != nil {
			t.Errorf("cycle of %d: Into resolves to %s", n, r)
		}
		if r := a.Resolve(&Type{Name: "Fine"}); r == nil || r.String() != "long" {
			t.Errorf("cycle of %d: Fine resolves to %v", n, r)
		}
	}
	// A long chain without a cycle resolves, in linear time.
	var b strings.Builder
	n := 100000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "typedef T%d T%d;\n", i+1, i)
	}
	fmt.Fprintf(&b, "typedef DOMString? T%d;\n", n)
	a := analyze(t, b.String())
	if c := a.TypedefCycles(); len(c) != 0 {
		t.Errorf("chain: %d typedefs in cycles", len(c))
	}
	if r := a.Resolve(&Type{Name: "T0"}); r == nil || r.String() != "DOMString?" {
		t.Errorf("chain: T0 resolves to %v", r)
	}
	if !a.IncludesNullable(&Type{Name: "T0"}) {
		t.Errorf("chain: T0 does not include a nullable type")
	}
}

// TestEffectiveOverloadSet checks the example of
// https://webidl.spec.whatwg.org/#compute-the-effective-overload-set.
func TestEffectiveOverloadSet(t *testing.T) {
	a := analyze(t, `
[Exposed=Window] interface Node {};
[Exposed=Window] interface Event {};
[Exposed=Window] interface A {
  /* f1 */ undefined f(DOMString a);
  /* f2 */ undefined f(Node a, DOMString b, double... c);
  /* f3 */ undefined f();
  /* f4 */ undefined f(Event a, DOMString b, optional DOMString c, double... d);
};`)
	sets := a.OverloadSets("A")
	if len(sets) != 1 || sets[0].Name != "f" || len(sets[0].Overloads) != 4 {
		t.Fatalf("overload sets: %+v", sets)
	}
	s := sets[0]
	var got []string
	for n := 0; n <= s.MaxLength(); n++ {
		for _, e := range s.Effective(n) {
			var types, opts []string
			for i := 0; i < e.Length; i++ {
				types = append(types, e.Type(i).String())
				opts = append(opts, e.Optionality(i).String())
			}
			got = append(got, fmt.Sprintf("<f%d, (%s), (%s)>", e.Overload+1, strings.Join(types, ", "), strings.Join(opts, ", ")))
		}
	}
	want := []string{
		"<f3, (), ()>",
		"<f1, (DOMString), (required)>",
		"<f2, (Node, DOMString), (required, required)>",
		"<f4, (Event, DOMString), (required, required)>",
		"<f2, (Node, DOMString, double), (required, required, variadic)>",
		"<f4, (Event, DOMString, DOMString), (required, required, optional)>",
		"<f2, (Node, DOMString, double, double), (required, required, variadic, variadic)>",
		"<f4, (Event, DOMString, DOMString, double), (required, required, optional, variadic)>",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("effective overload set:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s.MinLength() != 0 || s.MaxLength() != 4 {
		t.Errorf("MinLength, MaxLength = %d, %d; want 0, 4", s.MinLength(), s.MaxLength())
	}
	for n := 2; n <= 4; n++ {
		if i, ok, _ := a.DistinguishingIndex(s.Effective(n)); !ok || i != 0 {
			t.Errorf("length %d: distinguishing index %d, %v; want 0", n, i, ok)
		}
	}
	// An index past a shared prefix, and none at all.
	a = analyze(t, `
[Exposed=Window] interface B {
  undefined g(DOMString a, long b);
  undefined g(DOMString a, Node b);
  undefined h(long a);
  undefined h(double a);
};
[Exposed=Window] interface Node {};`)
	for _, s := range a.OverloadSets("B") {
		i, ok, _ := a.DistinguishingIndex(s.Effective(s.MaxLength()))
		switch s.Name {
		case "g":
			if !ok || i != 1 {
				t.Errorf("g: index %d, %v; want 1", i, ok)
			}
		case "h":
			if ok {
				t.Errorf("h: index %d found; long and double are not distinguishable", i)
			}
		}
	}
}

func TestPartsAndMembers(t *testing.T) {
	a := analyze(t, `
[Exposed=Window] interface A { attribute long x; };
interface mixin M { undefined m(); };
partial interface mixin M { undefined pm(); };
A includes M;
partial interface A { undefined p(); constructor(); };
dictionary D { long a; };
partial dictionary D { long b; };
partial namespace A { undefined wrongKind(); };
`, `A includes NotAMixin; [Exposed=Window] interface NotAMixin {};`)
	var got []string
	for _, m := range a.Members("A") {
		from := ""
		if m.Part.Mixin != nil {
			from = " via " + m.Part.Mixin.Name
		}
		got = append(got, fmt.Sprintf("%T %s%s", m.Member, m.Member.MemberName(), from))
	}
	want := "*idl.Attribute x|*idl.Operation p|*idl.Constructor |*idl.Operation m via M|*idl.Operation pm via M"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("members of A:\n%s\nwant\n%s", g, want)
	}
	if ds := a.DictionaryParts("D"); len(ds) != 2 || ds[1].Members[0].Name != "b" {
		t.Errorf("dictionary parts of D: %v", ds)
	}
	if got := a.IncludedBy("M"); len(got) != 1 || got[0] != "A" {
		t.Errorf("IncludedBy(M) = %v", got)
	}
	if a.Lookup("DOMException") == nil || !a.IsBuiltin("DOMException") || a.IsBuiltin("A") {
		t.Errorf("built-in names are not known as such")
	}
}
