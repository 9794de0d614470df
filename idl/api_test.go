package idl

import (
	"encoding/json"
	"testing"
)

// The per-node JSON helpers give the same JSON as the node inside the
// whole file's JSON, and the Analysis accessors expose what was analyzed.
func TestNodeJSONAndAnalysisAccessors(t *testing.T) {
	src := `dictionary D { long x; };
interface mixin M { attribute long m; };
interface I { undefined f((D or DOMString) arg); };
I includes M;`
	f, err := Parse("t.idl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	iface := f.Definitions[2].(*Interface)
	op := iface.Members[0]
	var def, mem, typ any
	for name, b := range map[string][]byte{"definition": DefinitionJSON(iface), "member": MemberJSON(op), "type": TypeJSON(op.(*Operation).Arguments[0].Type)} {
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s JSON: %v\n%s", name, err, b)
		}
		switch name {
		case "definition":
			def = v
		case "member":
			mem = v
		case "type":
			typ = v
		}
	}
	if def.(map[string]any)["name"] != "I" || mem.(map[string]any)["name"] != "f" || typ.(map[string]any)["union"] != true {
		t.Errorf("JSON: definition %v, member %v, type %v", def, mem, typ)
	}

	a := Analyze(f)
	if got := a.Files(); len(got) != 1 || got[0] != f {
		t.Errorf("Files() = %v", got)
	}
	if inc := a.Includes("I"); len(inc) != 1 || inc[0].Mixin != "M" {
		t.Errorf("Includes(I) = %v", inc)
	}
	if d := a.DictionaryIn(op.(*Operation).Arguments[0].Type); d == nil || d.Name != "D" {
		t.Errorf("DictionaryIn((D or DOMString)) = %v", d)
	}
}
