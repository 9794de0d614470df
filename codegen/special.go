package codegen

import (
	"bytes"
	"fmt"

	"github.com/gowebengine/weblocks/idl"
)

// specialKind tells an indexed special operation (first argument
// unsigned long) from a named one (a string type).
func specialKind(g *Generator, op *idl.Operation) (string, error) {
	ti, err := g.typeOf(op.Arguments[0].Type)
	if err != nil {
		return "", err
	}
	switch {
	case ti.cat == catNumeric && ti.numericKind == "unsigned long":
		return "indexed", nil
	case ti.cat == catString && ti.name == "":
		return "named", nil
	}
	return "", posErrorf(op.Pos(), "%s special operation's first argument must be unsigned long or a string type, not %s", op.Special, op.Arguments[0].Type)
}

// special is one special operation and its Go method.
type special struct {
	op     *idl.Operation
	kind   string // "indexed" or "named"
	method string
}

// specials collects the special operations of an interface and names the
// Go methods of the unnamed ones; it also returns the names of the
// Methods entries for supported indices and names.
func (g *Generator) specials(it *Interface, sets []*opSet, methods *namer) (getters, setters, deleters map[string]*special) {
	getters, setters, deleters = map[string]*special{}, map[string]*special{}, map[string]*special{}
	for _, mi := range it.Members {
		op, ok := mi.Member.(*idl.Operation)
		if !ok || (op.Special != "getter" && op.Special != "setter" && op.Special != "deleter") {
			continue
		}
		kind, err := specialKind(g, op)
		if err != nil {
			panic(err)
		}
		sp := &special{op: op, kind: kind}
		if op.Name != "" {
			for _, s := range sets {
				for _, d := range s.ops {
					if d.mi == mi {
						sp.method = d.method
					}
				}
			}
		} else {
			prefix := map[string]string{"indexed": "Indexed", "named": "Named"}[kind]
			suffix := map[string]string{"getter": "Getter", "setter": "Setter", "deleter": "Deleter"}[op.Special]
			sp.method = methods.name(prefix + suffix)
		}
		switch op.Special {
		case "getter":
			getters[kind] = sp
		case "setter":
			setters[kind] = sp
		case "deleter":
			deleters[kind] = sp
		}
	}
	return
}

// emitSpecialMethods writes the Methods entries of unnamed special
// operations and of the supported indices/names.
func (g *Generator) emitSpecialMethods(b *bytes.Buffer, getters, setters, deleters map[string]*special, stub string) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	recv := "\t"
	if stub != "" {
		recv = "func (*" + stub + ") "
	}
	body := func(ret string) string {
		if stub == "" {
			return "\n"
		}
		if ret == "error" {
			return " { return nil }\n\n"
		}
		return " {\n\tvar zero " + ret + "\n\treturn zero, nil\n}\n\n"
	}
	for _, m := range []map[string]*special{getters, setters, deleters} {
		for _, kind := range []string{"indexed", "named"} {
			sp := m[kind]
			if sp == nil || sp.op.Name != "" {
				continue
			}
			decls := g.argDecls(sp.op.Arguments)
			ret := g.mustType(sp.op.ReturnType)
			if sp.op.Special == "getter" {
				w("%s%s(%s) (%s, error)%s", recv, sp.method, decls[0], ret.goType, body(ret.goType))
			} else {
				w("%s%s(%s) error%s", recv, sp.method, joinDecls(decls), body("error"))
			}
		}
	}
	if getters["indexed"] != nil {
		w("%sIndexedLength() (uint32, error)%s", recv, body("uint32"))
	}
	if getters["named"] != nil {
		w("%sSupportedPropertyNames() ([]webidl.DOMString, error)%s", recv, body("[]webidl.DOMString"))
	}
}

func joinDecls(d []string) string {
	out := ""
	for i, x := range d {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}

// emitLegacy writes the LegacyProperties of an interface with special
// operations.
func (g *Generator) emitLegacy(b *bytes.Buffer, it *Interface, getters, setters, deleters map[string]*special) {
	if getters["indexed"] == nil && getters["named"] == nil {
		return
	}
	n := GoName(it.Name)
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	if getters["named"] != nil && hasAttr(it.ExtAttrs, "Global") {
		w("\t\tNamedPropertiesObject: true,\n")
	}
	w("\t\tLegacy: &webidl.LegacyProperties{\n")
	if sp := getters["indexed"]; sp != nil {
		idx := g.mustType(sp.op.Arguments[0].Type)
		ret := g.mustType(sp.op.ReturnType)
		w("\t\t\tIndexedLength: func(r *webidl.Realm, impl any) uint32 {\n\t\t\t\tn, err := impl.(%sMethods).IndexedLength()\n\t\t\t\tif err != nil {\n\t\t\t\t\tr.Throw(err)\n\t\t\t\t}\n\t\t\t\treturn n\n\t\t\t},\n", n)
		w("\t\t\tIndexedGet: func(r *webidl.Realm, impl any, i uint32) sobek.Value {\n\t\t\t\tv, err := impl.(%sMethods).%s(%s(r, r.VM.ToValue(i)))\n\t\t\t\tif err != nil {\n\t\t\t\t\tr.Throw(err)\n\t\t\t\t}\n\t\t\t\treturn %s(r, v)\n\t\t\t},\n", n, sp.method, g.from(idx), g.to(ret))
		if st := setters["indexed"]; st != nil {
			val := g.mustType(st.op.Arguments[len(st.op.Arguments)-1].Type)
			w("\t\t\tIndexedSet: func(r *webidl.Realm, impl any, i uint32, v sobek.Value) {\n\t\t\t\tif err := impl.(%sMethods).%s(%s(r, r.VM.ToValue(i)), %s(r, v)); err != nil {\n\t\t\t\t\tr.Throw(err)\n\t\t\t\t}\n\t\t\t},\n", n, st.method, g.from(idx), g.from(val))
		}
	}
	if sp := getters["named"]; sp != nil {
		key := g.mustType(sp.op.Arguments[0].Type)
		ret := g.mustType(sp.op.ReturnType)
		w("\t\t\tNamedNames: func(r *webidl.Realm, impl any) []string {\n\t\t\t\tnames, err := impl.(%sMethods).SupportedPropertyNames()\n\t\t\t\tif err != nil {\n\t\t\t\t\tr.Throw(err)\n\t\t\t\t}\n\t\t\t\tout := make([]string, len(names))\n\t\t\t\tfor i, s := range names {\n\t\t\t\t\tout[i] = string(s)\n\t\t\t\t}\n\t\t\t\treturn out\n\t\t\t},\n", n)
		w("\t\t\tNamedGet: func(r *webidl.Realm, impl any, name string) sobek.Value {\n\t\t\t\tv, err := impl.(%sMethods).%s(%s(r, webidl.StringValue(name)))\n\t\t\t\tif err != nil {\n\t\t\t\t\tr.Throw(err)\n\t\t\t\t}\n\t\t\t\treturn %s(r, v)\n\t\t\t},\n", n, sp.method, g.from(key), g.to(ret))
		if st := setters["named"]; st != nil {
			val := g.mustType(st.op.Arguments[len(st.op.Arguments)-1].Type)
			w("\t\t\tNamedSet: func(r *webidl.Realm, impl any, name string, v sobek.Value) {\n\t\t\t\tif err := impl.(%sMethods).%s(%s(r, webidl.StringValue(name)), %s(r, v)); err != nil {\n\t\t\t\t\tr.Throw(err)\n\t\t\t\t}\n\t\t\t},\n", n, st.method, g.from(key), g.from(val))
		}
		if dl := deleters["named"]; dl != nil {
			ret := g.mustType(dl.op.ReturnType)
			call := fmt.Sprintf("impl.(%sMethods).%s(%s(r, webidl.StringValue(name)))", n, dl.method, g.from(key))
			if ret.cat == catUndefined {
				w("\t\t\tNamedDelete: func(r *webidl.Realm, impl any, name string) {\n\t\t\t\tif err := %s; err != nil {\n\t\t\t\t\tr.Throw(err)\n\t\t\t\t}\n\t\t\t},\n", call)
			} else {
				w("\t\t\tNamedDelete: func(r *webidl.Realm, impl any, name string) {\n\t\t\t\tif _, err := %s; err != nil {\n\t\t\t\t\tr.Throw(err)\n\t\t\t\t}\n\t\t\t},\n", call)
			}
		}
		if hasAttr(it.ExtAttrs, "LegacyUnenumerableNamedProperties") {
			w("\t\t\tUnenumerableNamed: true,\n")
		}
		if hasAttr(it.ExtAttrs, "LegacyOverrideBuiltIns") {
			w("\t\t\tOverrideBuiltIns: true,\n")
		}
	}
	w("\t\t},\n")
}
