package codegen

import (
	"strings"
	"testing"
)

// A typedef's name is the Go type's name wherever the typedef is used:
// as a type argument, as a union member, and nullable; the union it
// stands for is not spelt out member by member. A typedef of a union
// typedef is named after itself.
func TestTypedefNamesKept(t *testing.T) {
	_, outs := generate(t, `
typedef (ArrayBuffer or DOMString) Part;
typedef Part PartAlias;
typedef sequence<Part> Parts;
typedef (Part or boolean) PartOrFlag;
[Exposed=Window] interface X {
  undefined a(sequence<Part> parts);
  undefined b(Parts parts);
  undefined c(record<DOMString, PartAlias> parts);
  undefined d(Promise<Part> p);
  undefined e(PartOrFlag p);
  undefined f(Part? p);
  undefined g(FrozenArray<PartAlias> parts);
};`)
	var src strings.Builder
	for _, o := range outs {
		src.Write(o.Src)
	}
	s := src.String()
	for _, want := range []string{
		"A(argParts []Part)",
		"B(argParts []Part)",
		"C(argParts webidl.Record[webidl.DOMString, PartAlias])",
		"type PartAlias struct",
		"E(argP PartOrFlag)",
		"F(argP webidl.Nullable[Part])",
		"G(argParts []PartAlias)",
		"type Part struct",
		"type PartOrFlag struct",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("generated code lacks %q", want)
		}
	}
	if strings.Contains(s, "ArrayBufferOrDOMString") {
		t.Errorf("the union of typedef Part is named after its members:\n%s", s)
	}
}
