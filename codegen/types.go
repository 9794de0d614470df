package codegen

import (
	"sort"
	"strings"

	"github.com/gowebengine/weblocks/idl"
)

// category is a type's category for distinguishability and for the union
// and overload resolution algorithms.
type category int

const (
	catAny category = iota
	catUndefined
	catBoolean
	catNumeric
	catBigint
	catString
	catObject
	catSymbol
	catInterface // interface types and buffer source types
	catCallback  // callback function types
	catDictLike  // dictionaries, records, callback interfaces
	catSequence  // sequence, FrozenArray, ObservableArray
	catPromise
	catUnion
)

// tinfo is what the generator knows about one (typedef-resolved) type.
type tinfo struct {
	t       *idl.Type
	key     string // Go identifier unique to the type and its conversion-relevant attributes
	goType  string
	nilable bool // the Go zero value (nil) is IDL null / absent
	cat     category
	// name is the interface, dictionary, enum, callback or buffer name.
	name string
	// legacyNonObjectAsNull for callback functions.
	legacyNonObjectAsNull bool
	nullable              bool
	inner                 *tinfo   // nullable: the inner type; sequence/promise: element; record: value
	keyT                  *tinfo   // record key
	members               []*tinfo // union: flattened member types (non-nullable)
	numericKind           string   // for numeric types: the IDL type name
	// external: a union type declared by an imported package.
	external bool
}

var integerGo = map[string]string{
	"byte": "int8", "octet": "uint8", "short": "int16", "unsigned short": "uint16",
	"long": "int32", "unsigned long": "uint32", "long long": "int64", "unsigned long long": "uint64",
}
var integerConv = map[string]string{
	"byte": "ToByte", "octet": "ToOctet", "short": "ToShort", "unsigned short": "ToUnsignedShort",
	"long": "ToLong", "unsigned long": "ToUnsignedLong", "long long": "ToLongLong", "unsigned long long": "ToUnsignedLongLong",
}
var floatGo = map[string]string{
	"float": "float32", "unrestricted float": "float32", "double": "float64", "unrestricted double": "float64",
}
var floatConv = map[string]string{
	"float": "ToFloat", "unrestricted float": "ToUnrestrictedFloat", "double": "ToDouble", "unrestricted double": "ToUnrestrictedDouble",
}

// bufferTypes are the buffer source types and the BufferKinds they accept.
var bufferTypes = map[string][]string{
	"ArrayBuffer":       {"webidl.KindArrayBuffer"},
	"SharedArrayBuffer": {},
	"DataView":          {"webidl.KindDataView"},
	"Int8Array":         {`"Int8Array"`},
	"Int16Array":        {`"Int16Array"`},
	"Int32Array":        {`"Int32Array"`},
	"Uint8Array":        {`"Uint8Array"`},
	"Uint16Array":       {`"Uint16Array"`},
	"Uint32Array":       {`"Uint32Array"`},
	"Uint8ClampedArray": {`"Uint8ClampedArray"`},
	"BigInt64Array":     {`"BigInt64Array"`},
	"BigUint64Array":    {`"BigUint64Array"`},
	"Float16Array":      {`"Float16Array"`},
	"Float32Array":      {`"Float32Array"`},
	"Float64Array":      {`"Float64Array"`},
	// The WebIDL typedefs, when the input does not define them.
	"ArrayBufferView":         {`"view"`},
	"BufferSource":            {"webidl.KindArrayBuffer", `"view"`},
	"AllowSharedBufferSource": {"webidl.KindArrayBuffer", `"view"`},
}

// GoName turns an IDL identifier into an exported Go identifier: its
// words (runs of letters and digits, split where a lower-case letter or
// digit meets an upper-case one) capitalized, Go's initialisms upper-case
// (clientId is ClientID, innerHtml InnerHTML, baseURI BaseURI).
func GoName(s string) string {
	s = strings.TrimPrefix(s, "_")
	var b strings.Builder
	for _, w := range words(s) {
		if up := strings.ToUpper(w); initialisms[up] {
			b.WriteString(up)
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]) + w[1:])
	}
	out := b.String()
	if out == "" || out[0] >= '0' && out[0] <= '9' {
		out = "X" + out
	}
	return out
}

// initialisms are the words Go spells upper-case (the list of Go's
// linters, with the ones Web IDL names use).
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "CPU": true, "CSS": true, "DNS": true, "DOM": true, "EOF": true,
	"GPU": true, "GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true, "IP": true, "JSON": true,
	"RPC": true, "SQL": true, "SSH": true, "SVG": true, "TCP": true, "TLS": true, "TTL": true, "UDP": true,
	"UI": true, "UID": true, "UUID": true, "URI": true, "URL": true, "UTF8": true, "VM": true, "XML": true,
	"XMPP": true, "XSRF": true, "XSS": true,
}

// words splits an identifier into its words: "getElementById" is get,
// Element, By, Id; "HTMLElement" HTML, Element; "webkit-foo" webkit, foo;
// digits stay with the word before them ("utf8", "2d").
func words(s string) []string {
	isUpper := func(c byte) bool { return c >= 'A' && c <= 'Z' }
	isLower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || !(isUpper(s[i]) || isLower(s[i]) || isDigit(s[i])) {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
			continue
		}
		c, p := s[i], s[i-1]
		// aB, 1B: a new word; ABc: the B starts one.
		if isUpper(c) && (isLower(p) || isDigit(p) || isUpper(p) && i+1 < len(s) && isLower(s[i+1])) {
			out = append(out, s[start:i])
			start = i
		}
	}
	return out
}

// attrNames returns the conversion-relevant extended attributes of a type.
func typeAttrs(t *idl.Type) (mode string, nullToEmpty, allowShared bool) {
	mode = "webidl.IntWrap"
	for _, a := range t.ExtAttrs.List() {
		switch a.Name {
		case "EnforceRange":
			mode = "webidl.IntEnforceRange"
		case "Clamp":
			mode = "webidl.IntClamp"
		case "LegacyNullToEmptyString":
			nullToEmpty = true
		case "AllowShared", "AllowResizable":
			allowShared = true
		}
	}
	return
}

// typeOf returns the type information of t (after typedef resolution).
func (g *Generator) typeOf(t0 *idl.Type) (*tinfo, error) {
	if _, buf := bufferTypes[t0.Name]; buf && g.m.A.IsBuiltin(t0.Name) {
		// Web IDL's own buffer typedefs, when the input does not define
		// them: the binding's buffer source type.
		return g.typeOfResolved(t0)
	}
	t, err := g.m.ResolveType(t0)
	if err != nil {
		return nil, err
	}
	for _, a := range t.ExtAttrs.List() {
		if _, ok := supportedExtAttrs[a.Name]; !ok {
			return nil, posErrorf(a.Pos(), "unsupported extended attribute [%s] on type %s", a.Name, t)
		}
	}
	prevName := g.unionName
	g.unionName = g.unionTypedef(t0)
	ti, err := g.typeOfResolved(t)
	g.unionName = prevName
	if err != nil {
		return nil, err
	}
	if prev, ok := g.types[ti.key]; ok {
		return prev, nil
	}
	g.types[ti.key] = ti
	return ti, nil
}

// unionTypedef returns the name of the typedef t refers to when that
// typedef stands for a union type (the union's Go type is named after
// it), else "". A typedef of such a typedef is a Go type of its own,
// named after it.
func (g *Generator) unionTypedef(t *idl.Type) string {
	if t == nil || t.Union || t.Generic() != "" {
		return ""
	}
	if _, ok := g.m.A.Lookup(t.Name).(*idl.Typedef); !ok {
		return ""
	}
	if u := g.m.A.Underlying(t); u != nil && u.Union {
		return t.Name
	}
	return ""
}

func (g *Generator) typeOfResolved(t *idl.Type) (*tinfo, error) {
	if t.Nullable {
		c := *t
		c.Nullable = false
		inner, err := g.typeOfResolved(&c)
		if err != nil {
			return nil, err
		}
		if prev, ok := g.types[inner.key]; ok {
			inner = prev
		} else {
			g.types[inner.key] = inner
		}
		ti := &tinfo{t: t, key: "Nullable" + inner.key, nullable: true, inner: inner, cat: inner.cat, name: inner.name,
			legacyNonObjectAsNull: inner.legacyNonObjectAsNull, members: inner.members}
		if inner.nilable {
			ti.goType, ti.nilable = inner.goType, true
		} else {
			ti.goType = "webidl.Nullable[" + inner.goType + "]"
		}
		return ti, nil
	}
	mode, nullToEmpty, _ := typeAttrs(t)
	modeKey := strings.TrimPrefix(strings.TrimPrefix(mode, "webidl.Int"), "Wrap")
	switch {
	case t.Union:
		typedefName := g.unionName
		g.unionName = ""
		var members []*tinfo
		seen := map[string]bool{}
		var add func(s *idl.Type) error
		nullable := false
		add = func(s *idl.Type) error {
			s, err := g.m.ResolveType(s)
			if err != nil {
				return err
			}
			if s.Union {
				if s.Nullable {
					nullable = true
				}
				for _, x := range s.Subtypes() {
					if err := add(x); err != nil {
						return err
					}
				}
				return nil
			}
			if s.Nullable {
				nullable = true
				c := *s
				c.Nullable = false
				s = &c
			}
			mi, err := g.typeOfResolved(s)
			if err != nil {
				return err
			}
			if prev, ok := g.types[mi.key]; ok {
				mi = prev
			} else {
				g.types[mi.key] = mi
			}
			if mi.cat == catUnion {
				for _, x := range mi.members {
					if !seen[x.key] {
						seen[x.key] = true
						members = append(members, x)
					}
				}
				return nil
			}
			if !seen[mi.key] {
				seen[mi.key] = true
				members = append(members, mi)
			}
			return nil
		}
		for _, s := range t.Subtypes() {
			if err := add(s); err != nil {
				return nil, err
			}
		}
		var names []string
		for _, mi := range members {
			names = append(names, mi.key)
		}
		key := strings.Join(names, "Or")
		ti := &tinfo{t: t, key: key, goType: key, cat: catUnion, members: members}
		if typedefName != "" {
			// Named after its typedef (an imported typedef's union is the
			// imported package's type).
			ti.key, ti.goType = GoName(typedefName), g.m.qualify(typedefName)
			if imp := g.m.External[typedefName]; imp != nil {
				ti.key, ti.external = imp.Name+"_"+ti.key, true
			}
			key = ti.key
		} else if g.ext != nil {
			// A union written in imported IDL: the imported package's
			// Go type (its conversions are generated here).
			ti.key, ti.goType, ti.external = g.ext.Name+"_"+key, g.ext.Name+"."+key, true
			key = ti.key
		}
		if nullable {
			g.types[key] = ti
			return &tinfo{t: t, key: "Nullable" + key, goType: "webidl.Nullable[" + ti.goType + "]", nullable: true, inner: ti, cat: catUnion, members: members}, nil
		}
		return ti, nil
	case t.Generic() != "":
		subs := make([]*tinfo, len(t.Subtypes()))
		for i, s := range t.Subtypes() {
			si, err := g.typeOf(s)
			if err != nil {
				return nil, err
			}
			subs[i] = si
		}
		switch t.Generic() {
		case "async_sequence":
			return &tinfo{t: t, key: "AsyncSequenceOf" + subs[0].key, goType: "*webidl.AsyncSequence", nilable: true, cat: catSequence, inner: subs[0], name: "async_sequence"}, nil
		case "sequence", "FrozenArray", "ObservableArray":
			if len(subs) != 1 {
				return nil, posErrorf(t.Pos(), "%s takes one type", t.Generic())
			}
			prefix := map[string]string{"sequence": "Sequence", "FrozenArray": "FrozenArray", "ObservableArray": "ObservableArray"}[t.Generic()]
			return &tinfo{t: t, key: prefix + "Of" + subs[0].key, goType: "[]" + subs[0].goType, cat: catSequence, inner: subs[0], name: t.Generic()}, nil
		case "Promise":
			if len(subs) != 1 {
				return nil, posErrorf(t.Pos(), "Promise takes one type")
			}
			return &tinfo{t: t, key: "PromiseOf" + subs[0].key, goType: "*webidl.Promise", nilable: true, cat: catPromise, inner: subs[0]}, nil
		case "record":
			if len(subs) != 2 || subs[0].cat != catString || subs[0].name != "" {
				return nil, posErrorf(t.Pos(), "record keys must be DOMString, USVString or ByteString")
			}
			return &tinfo{t: t, key: "RecordOf" + subs[0].key + "To" + subs[1].key,
				goType: "webidl.Record[" + subs[0].goType + ", " + subs[1].goType + "]", cat: catDictLike, keyT: subs[0], inner: subs[1], name: "record"}, nil
		}
		return nil, posErrorf(t.Pos(), "unknown generic type %s", t.Generic())
	}
	name := t.Name
	switch name {
	case "any":
		return &tinfo{t: t, key: "Any", goType: "sobek.Value", nilable: true, cat: catAny}, nil
	case "undefined":
		return &tinfo{t: t, key: "Undefined", goType: "webidl.Undefined", cat: catUndefined}, nil
	case "boolean":
		return &tinfo{t: t, key: "Boolean", goType: "bool", cat: catBoolean}, nil
	case "bigint":
		return &tinfo{t: t, key: "BigInt", goType: "*big.Int", nilable: true, cat: catBigint}, nil
	case "DOMString":
		k := "DOMString"
		if nullToEmpty {
			k = "DOMStringNullToEmpty"
		}
		return &tinfo{t: t, key: k, goType: "webidl.DOMString", cat: catString}, nil
	case "USVString":
		return &tinfo{t: t, key: "USVString", goType: "string", cat: catString}, nil
	case "ByteString":
		return &tinfo{t: t, key: "ByteString", goType: "webidl.ByteString", cat: catString}, nil
	case "object":
		return &tinfo{t: t, key: "Object", goType: "*sobek.Object", nilable: true, cat: catObject}, nil
	case "symbol":
		return &tinfo{t: t, key: "Symbol", goType: "*sobek.Symbol", nilable: true, cat: catSymbol}, nil
	}
	if gt, ok := integerGo[name]; ok {
		return &tinfo{t: t, key: GoName(name) + modeKey, goType: gt, cat: catNumeric, numericKind: name}, nil
	}
	if gt, ok := floatGo[name]; ok {
		return &tinfo{t: t, key: GoName(name), goType: gt, cat: catNumeric, numericKind: name}, nil
	}
	if _, ok := bufferTypes[name]; ok {
		return &tinfo{t: t, key: name, goType: "webidl.BufferSource", cat: catInterface, name: name}, nil
	}
	q := g.m.qualify(name)
	if _, ok := g.m.Enums[name]; ok {
		return &tinfo{t: t, key: GoName(name), goType: q, cat: catString, name: name}, nil
	}
	if _, ok := g.m.Dictionaries[name]; ok {
		return &tinfo{t: t, key: GoName(name), goType: q, cat: catDictLike, name: name}, nil
	}
	if cb, ok := g.m.Callbacks[name]; ok {
		return &tinfo{t: t, key: GoName(name), goType: "*" + q, nilable: true, cat: catCallback, name: name,
			legacyNonObjectAsNull: cb.ExtAttrs.Has("LegacyTreatNonObjectAsNull")}, nil
	}
	if it, ok := g.m.Interfaces[name]; ok {
		switch it.Kind {
		case "callback interface":
			return &tinfo{t: t, key: GoName(name), goType: "*" + q, nilable: true, cat: catDictLike, name: name}, nil
		case "interface":
			return &tinfo{t: t, key: GoName(name), goType: q + "Methods", nilable: true, cat: catInterface, name: name}, nil
		}
		return nil, posErrorf(t.Pos(), "%s %s is not a type", it.Kind, name)
	}
	// Names the IDL uses without an IDL definition: CSSOM's CSSOMString
	// (an implementation-chosen string type: DOMString here), HTML's
	// WindowProxy (the Window itself in this engine), and interface
	// names made global by [LegacyWindowAlias] (SVGPoint for DOMPoint, ...).
	switch name {
	case "CSSOMString":
		c := *t
		c.Name = "DOMString"
		return g.typeOfResolved(&c)
	case "WindowProxy":
		if _, ok := g.m.Interfaces["Window"]; ok {
			c := *t
			c.Name = "Window"
			return g.typeOfResolved(&c)
		}
	}
	if target, ok := g.m.A.AliasOf(name); ok {
		c := *t
		c.Name = target
		return g.typeOfResolved(&c)
	}
	return nil, posErrorf(t.Pos(), "unknown type %s", name)
}

func (g *Generator) isDictionary(t *tinfo) bool {
	_, ok := g.m.Dictionaries[t.name]
	return ok
}

// sortedTypeKeys returns the generator's types in key order.
func (g *Generator) sortedTypeKeys() []string {
	keys := make([]string, 0, len(g.types))
	for k := range g.types {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
