package codegen

import (
	"fmt"
	"strconv"
	"strings"
)

// from returns the name of the generated function converting a JavaScript
// value to the Go value of ti: func(r *webidl.Realm, v sobek.Value) T.
func (g *Generator) from(ti *tinfo) string {
	if _, ok := g.types[ti.key]; !ok {
		g.types[ti.key] = ti
	}
	g.use(ti)
	return "idlFrom" + ti.key
}

// to returns the name of the generated function converting the Go value
// of ti to JavaScript: func(r *webidl.Realm, x T) sobek.Value.
func (g *Generator) to(ti *tinfo) string {
	if _, ok := g.types[ti.key]; !ok {
		g.types[ti.key] = ti
	}
	g.use(ti)
	return "idlTo" + ti.key
}

// use marks a type (and the types it is made of) as needed by generated
// code, so that its conversions are emitted.
func (g *Generator) use(ti *tinfo) {
	if g.used[ti.key] {
		return
	}
	g.used[ti.key] = true
	for _, sub := range []*tinfo{ti.inner, ti.keyT} {
		if sub != nil {
			g.use(sub)
		}
	}
	for _, m := range ti.members {
		g.use(m)
	}
}

// emitConversions writes the from/to functions of a type (and of the
// types it is made of) into the shared file, once.
func (g *Generator) emitConversions(ti *tinfo) {
	if g.convDone[ti.key] {
		return
	}
	g.convDone[ti.key] = true
	for _, sub := range []*tinfo{ti.inner, ti.keyT} {
		if sub != nil {
			g.emitConversions(sub)
		}
	}
	for _, m := range ti.members {
		g.emitConversions(m)
	}
	b := g.shared
	fmt.Fprintf(b, "// idlFrom%s converts a JavaScript value to the IDL type %s.\nfunc idlFrom%s(r *webidl.Realm, v sobek.Value) %s {\n", ti.key, ti.t, ti.key, ti.goType)
	b.WriteString(g.fromBody(ti))
	b.WriteString("}\n\n")
	fmt.Fprintf(b, "// idlTo%s converts an IDL %s value to JavaScript.\nfunc idlTo%s(r *webidl.Realm, x %s) sobek.Value {\n", ti.key, ti.t, ti.key, ti.goType)
	b.WriteString(g.toBody(ti))
	b.WriteString("}\n\n")
	if ti.cat == catSequence && !ti.nullable && ti.name != "async_sequence" {
		fmt.Fprintf(b, "// idlFrom%sWith converts an iterable whose @@iterator method was already\n// obtained (union and overload resolution).\nfunc idlFrom%sWith(r *webidl.Realm, obj *sobek.Object, method sobek.Value) %s {\n\tout := %s{}\n\tr.IterateWith(obj, method, func(x sobek.Value) { out = append(out, %s(r, x)) })\n\treturn out\n}\n\n",
			ti.key, ti.key, ti.goType, ti.goType, g.from(ti.inner))
	}
	if ti.cat == catUnion && !ti.nullable && !ti.external {
		g.emitUnionType(ti)
	}
	if ti.name != "" && !ti.nullable && g.m.External[ti.name] != nil {
		// An imported enumeration or dictionary: its value list or
		// member conversions are the imported package's unexported
		// helpers, so this package has its own.
		if e := g.m.Enums[ti.name]; e != nil {
			g.emitEnumValues(b, e)
		}
		if d := g.m.Dictionaries[ti.name]; d != nil {
			g.emitDictionaryConversions(b, d)
		}
	}
}

func (g *Generator) fromBody(ti *tinfo) string {
	if ti.nullable {
		inner := ti.inner
		if ti.cat == catUnion && hasCat(ti.members, catUndefined) {
			return fmt.Sprintf("\tif sobek.IsNull(v) {\n\t\treturn webidl.Null[%s]()\n\t}\n\treturn webidl.NonNull(%s(r, v))\n", inner.goType, g.from(inner))
		}
		if inner.legacyNonObjectAsNull {
			return fmt.Sprintf("\treturn %s(r, v)\n", g.from(inner))
		}
		if ti.nilable {
			return fmt.Sprintf("\tif webidl.IsNullish(v) {\n\t\treturn nil\n\t}\n\treturn %s(r, v)\n", g.from(inner))
		}
		return fmt.Sprintf("\tif webidl.IsNullish(v) {\n\t\treturn webidl.Null[%s]()\n\t}\n\treturn webidl.NonNull(%s(r, v))\n", inner.goType, g.from(inner))
	}
	mode, nullToEmpty, _ := typeAttrs(ti.t)
	switch ti.cat {
	case catAny:
		return "\treturn webidl.AnyValue(v)\n"
	case catUndefined:
		return "\treturn webidl.Undefined{}\n"
	case catBoolean:
		return "\treturn r.ToBoolean(v)\n"
	case catNumeric:
		if c, ok := integerConv[ti.numericKind]; ok {
			return fmt.Sprintf("\treturn r.%s(webidl.AnyValue(v), %s)\n", c, mode)
		}
		return fmt.Sprintf("\treturn r.%s(webidl.AnyValue(v))\n", floatConv[ti.numericKind])
	case catBigint:
		return "\treturn r.ToBigInt(webidl.AnyValue(v))\n"
	case catString:
		switch {
		case ti.name != "":
			return fmt.Sprintf("\treturn %s(r.ToEnum(webidl.AnyValue(v), %q, idlValues%s))\n", ti.goType, ti.name, GoName(ti.name))
		case ti.goType == "webidl.DOMString" && nullToEmpty:
			return "\treturn r.ToDOMStringLegacyNullToEmpty(webidl.AnyValue(v))\n"
		case ti.goType == "webidl.DOMString":
			return "\treturn r.ToDOMString(webidl.AnyValue(v))\n"
		case ti.goType == "string":
			return "\treturn r.ToUSVString(webidl.AnyValue(v))\n"
		default:
			return "\treturn r.ToByteString(webidl.AnyValue(v))\n"
		}
	case catObject:
		return "\treturn r.ToObject(webidl.AnyValue(v))\n"
	case catSymbol:
		return "\treturn r.ToSymbol(webidl.AnyValue(v))\n"
	case catInterface:
		if kinds, ok := bufferTypes[ti.name]; ok {
			return fmt.Sprintf("\treturn r.ToBufferSource(webidl.AnyValue(v), %q%s)\n", ti.name, prefixComma(kinds))
		}
		return fmt.Sprintf("\treturn webidl.As[%s](r, webidl.AnyValue(v), %q)\n", ti.goType, ti.name)
	case catCallback:
		return fmt.Sprintf("\tcb := r.ToCallbackFunction(webidl.AnyValue(v), %v)\n\tif cb == nil {\n\t\treturn nil\n\t}\n\treturn &%s{CallbackFunction: cb}\n", ti.legacyNonObjectAsNull, strings.TrimPrefix(ti.goType, "*"))
	case catDictLike:
		switch {
		case ti.name == "record":
			return fmt.Sprintf("\tvar out %s\n\tr.ToRecord(webidl.AnyValue(v), func(k sobek.Value, x func() sobek.Value) { key := %s(r, k); out.Set(key, %s(r, x())) })\n\tif out == nil {\n\t\tout = %s{}\n\t}\n\treturn out\n", ti.goType, g.from(ti.keyT), g.from(ti.inner), ti.goType)
		case strings.HasPrefix(ti.goType, "*"):
			return fmt.Sprintf("\treturn &%s{CallbackInterface: r.ToCallbackInterface(webidl.AnyValue(v))}\n", strings.TrimPrefix(ti.goType, "*"))
		default:
			return fmt.Sprintf("\tvar d %s\n\tidlReadDict%s(r, r.DictionaryObject(webidl.AnyValue(v), %q), &d)\n\treturn d\n", ti.goType, GoName(ti.name), ti.name)
		}
	case catSequence:
		if ti.name == "async_sequence" {
			return "\treturn r.ToAsyncSequence(webidl.AnyValue(v))\n"
		}
		return fmt.Sprintf("\tout := %s{}\n\tr.ToSequence(webidl.AnyValue(v), func(x sobek.Value) { out = append(out, %s(r, x)) })\n\treturn out\n", ti.goType, g.from(ti.inner))
	case catPromise:
		return "\treturn r.ToPromise(v)\n"
	case catUnion:
		return g.unionFromBody(ti)
	}
	panic(fmt.Errorf("no conversion for %s", ti.t))
}

func prefixComma(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return ", " + strings.Join(s, ", ")
}

func hasCat(ts []*tinfo, c category) bool {
	for _, t := range ts {
		if t.cat == c {
			return true
		}
	}
	return false
}

func (g *Generator) toBody(ti *tinfo) string {
	if ti.nullable {
		if ti.nilable {
			return fmt.Sprintf("\tif x == nil {\n\t\treturn sobek.Null()\n\t}\n\treturn %s(r, x)\n", g.to(ti.inner))
		}
		return fmt.Sprintf("\tif x.Null {\n\t\treturn sobek.Null()\n\t}\n\treturn %s(r, x.Value)\n", g.to(ti.inner))
	}
	switch ti.cat {
	case catAny:
		return "\treturn webidl.AnyValue(x)\n"
	case catUndefined:
		return "\treturn sobek.Undefined()\n"
	case catBoolean:
		return "\treturn r.VM.ToValue(x)\n"
	case catNumeric:
		if strings.HasPrefix(ti.goType, "float") {
			return "\treturn r.VM.ToValue(float64(x))\n"
		}
		return "\treturn r.VM.ToValue(x)\n"
	case catBigint:
		return "\tif x == nil {\n\t\treturn r.BigIntValue(new(big.Int))\n\t}\n\treturn r.BigIntValue(x)\n"
	case catString:
		switch {
		case ti.name != "" || ti.goType == "string":
			return "\treturn webidl.StringValue(string(x))\n"
		default:
			return "\treturn x.Value()\n"
		}
	case catObject:
		return "\treturn webidl.ObjectValue(x)\n"
	case catSymbol:
		return "\tif x == nil {\n\t\treturn sobek.Undefined()\n\t}\n\treturn x\n"
	case catInterface:
		if _, ok := bufferTypes[ti.name]; ok {
			return "\treturn x.Value()\n"
		}
		return fmt.Sprintf("\tif x == nil {\n\t\treturn sobek.Null()\n\t}\n\treturn r.Wrap(x, %q)\n", ti.name)
	case catCallback:
		return "\tif x == nil {\n\t\treturn sobek.Null()\n\t}\n\treturn x.CallbackFunction.Value()\n"
	case catDictLike:
		switch {
		case ti.name == "record":
			return fmt.Sprintf("\treturn webidl.RecordValue(r, x, func(k %s) sobek.Value { return %s(r, k) }, func(e %s) sobek.Value { return %s(r, e) })\n", ti.keyT.goType, g.to(ti.keyT), ti.inner.goType, g.to(ti.inner))
		case strings.HasPrefix(ti.goType, "*"):
			return "\tif x == nil {\n\t\treturn sobek.Null()\n\t}\n\treturn x.CallbackInterface.Value()\n"
		default:
			return fmt.Sprintf("\tobj := r.VM.NewObject()\n\tidlWriteDict%s(r, obj, &x)\n\treturn obj\n", GoName(ti.name))
		}
	case catSequence:
		if ti.name == "async_sequence" {
			return "\treturn x.Value()\n"
		}
		fn := "SequenceValue"
		if ti.name == "FrozenArray" || ti.name == "ObservableArray" {
			fn = "FrozenArrayValue"
		}
		return fmt.Sprintf("\treturn webidl.%s(r, x, func(e %s) sobek.Value { return %s(r, e) })\n", fn, ti.inner.goType, g.to(ti.inner))
	case catPromise:
		return "\treturn x.Value()\n"
	case catUnion:
		var b strings.Builder
		b.WriteString("\tswitch x.Type {\n")
		for i, m := range ti.members {
			fmt.Fprintf(&b, "\tcase %d:\n\t\treturn %s(r, x.%s)\n", i+1, g.to(m), m.key)
		}
		b.WriteString("\t}\n\treturn sobek.Undefined()\n")
		return b.String()
	}
	panic(fmt.Errorf("no conversion for %s", ti.t))
}

func (g *Generator) emitUnionType(ti *tinfo) {
	b := g.shared
	fmt.Fprintf(b, "// %s is the IDL union type %s. Type is the 1-based index of the\n// member type the value has (0: none).\ntype %s struct {\n\tType int\n", ti.key, ti.t, ti.key)
	for _, m := range ti.members {
		fmt.Fprintf(b, "\t%s %s\n", m.key, m.goType)
	}
	b.WriteString("}\n\n")
	b.WriteString("// Member type indexes of " + ti.key + ".\nconst (\n")
	for i, m := range ti.members {
		fmt.Fprintf(b, "\t%sIs%s = %d\n", ti.key, m.key, i+1)
	}
	b.WriteString(")\n\n")
}

// alt is one alternative of a selection: a union member type, or an
// overload entry whose type at the distinguishing index is t.
type alt struct {
	label    int
	t        *tinfo
	optional bool // overloads: the argument is optional
}

// flat returns the flattened member types of t (t itself unless a union).
func flat(t *tinfo) []*tinfo {
	if t.cat == catUnion {
		return t.members
	}
	if t.nullable && t.inner != nil {
		return []*tinfo{t.inner}
	}
	return []*tinfo{t}
}

// emitSelect writes statements that set `sel` (an int, initially -1) to
// the label of the alternative the WebIDL union conversion / overload
// resolution algorithm picks for the JavaScript value in variable v;
// seqMethod receives the @@iterator method when a sequence is picked.
// overload selects the overload resolution variant (optional arguments
// and `any` entries).
func (g *Generator) emitSelect(b *strings.Builder, alts []alt, overload bool) {
	first := func(pred func(t *tinfo, a alt) bool) []alt {
		var out []alt
		for _, a := range alts {
			for _, t := range flat(a.t) {
				if pred(t, a) {
					out = append(out, a)
					break
				}
			}
		}
		return out
	}
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	// Overloads 1: undefined and an optional argument.
	if overload {
		for _, a := range alts {
			if a.optional {
				w("\tif sel < 0 && webidl.IsUndefined(v) {\n\t\tsel = %d\n\t}\n", a.label)
				break
			}
		}
	} else if as := first(func(t *tinfo, _ alt) bool { return t.cat == catUndefined }); len(as) > 0 {
		w("\tif sel < 0 && webidl.IsUndefined(v) {\n\t\tsel = %d\n\t}\n", as[0].label)
	}
	// Null or undefined: nullable / dictionary.
	if overload {
		for _, a := range alts {
			isDict := false
			for _, t := range flat(a.t) {
				if g.isDictionary(t) {
					isDict = true
				}
			}
			if a.t.nullable || isDict {
				w("\tif sel < 0 && webidl.IsNullish(v) {\n\t\tsel = %d\n\t}\n", a.label)
				break
			}
		}
	} else if as := first(func(t *tinfo, _ alt) bool { return g.isDictionary(t) }); len(as) > 0 {
		w("\tif sel < 0 && webidl.IsNullish(v) {\n\t\tsel = %d\n\t}\n", as[0].label)
	}
	objectAlt := first(func(t *tinfo, _ alt) bool { return t.cat == catObject })
	seqAlt := first(func(t *tinfo, _ alt) bool { return t.cat == catSequence })
	boolAlt := first(func(t *tinfo, _ alt) bool { return t.cat == catBoolean })
	// The object block is built apart: a union with no object alternative
	// gets neither the block nor, unless a boolean alternative needs it,
	// the isObj test.
	outer := b
	var objBlock strings.Builder
	b = &objBlock
	const objHeader = "\tif sel < 0 && isObj {\n"
	w(objHeader)
	// Platform objects.
	for _, a := range alts {
		for _, t := range flat(a.t) {
			if t.cat == catInterface {
				if _, buf := bufferTypes[t.name]; !buf {
					w("\t\tif _, ok := r.ConvertsToInterface(v, %q); sel < 0 && ok {\n\t\t\tsel = %d\n\t\t}\n", t.name, a.label)
				}
			}
		}
	}
	if len(objectAlt) > 0 {
		w("\t\tif sel < 0 && r.ImplOf(v) != nil {\n\t\t\tsel = %d\n\t\t}\n", objectAlt[0].label)
	}
	// Buffer sources.
	var bufAlts []string
	for _, a := range alts {
		for _, t := range flat(a.t) {
			if kinds, buf := bufferTypes[t.name]; buf && t.cat == catInterface {
				for _, k := range kinds {
					cond := "kind == " + k
					if k == `"view"` {
						cond = "kind != \"\" && kind != webidl.KindArrayBuffer"
					}
					bufAlts = append(bufAlts, fmt.Sprintf("\t\t\tif sel < 0 && %s {\n\t\t\t\tsel = %d\n\t\t\t}\n", cond, a.label))
				}
			}
		}
	}
	if len(bufAlts) > 0 || len(objectAlt) > 0 {
		w("\t\tif sel < 0 {\n\t\t\tkind := r.BufferKindOf(v)\n")
		for _, s := range bufAlts {
			b.WriteString(s)
		}
		if len(objectAlt) > 0 {
			w("\t\t\tif sel < 0 && kind != \"\" {\n\t\t\t\tsel = %d\n\t\t\t}\n", objectAlt[0].label)
		}
		w("\t\t}\n")
	}
	// Callable.
	if as := first(func(t *tinfo, _ alt) bool { return t.cat == catCallback }); len(as) > 0 {
		w("\t\tif sel < 0 && webidl.IsCallable(v) {\n\t\t\tsel = %d\n\t\t}\n", as[0].label)
	} else if len(objectAlt) > 0 {
		w("\t\tif sel < 0 && webidl.IsCallable(v) {\n\t\t\tsel = %d\n\t\t}\n", objectAlt[0].label)
	}
	// Iterables.
	if len(seqAlt) > 0 && (overload || seqAlt[0].t.name == "async_sequence") {
		// Overload resolution only selects; the overload converts.
		w("\t\tif sel < 0 && r.GetMethod(obj, \"iterator\") != nil {\n\t\t\tsel = %d\n\t\t}\n", seqAlt[0].label)
	} else if len(seqAlt) > 0 {
		w("\t\tif sel < 0 {\n\t\t\tif m := r.GetMethod(obj, \"iterator\"); m != nil {\n\t\t\t\tsel, seqMethod = %d, m\n\t\t\t}\n\t\t}\n", seqAlt[0].label)
	}
	// Dictionary-like, then object.
	if as := first(func(t *tinfo, _ alt) bool { return t.cat == catDictLike }); len(as) > 0 {
		w("\t\tif sel < 0 {\n\t\t\tsel = %d\n\t\t}\n", as[0].label)
	}
	if len(objectAlt) > 0 {
		w("\t\tif sel < 0 {\n\t\t\tsel = %d\n\t\t}\n", objectAlt[0].label)
	}
	w("\t}\n")
	b = outer
	emptyObj := objBlock.String() == objHeader+"\t}\n"
	switch {
	case len(seqAlt) > 0 && !emptyObj:
		w("\tobj, isObj := v.(*sobek.Object)\n")
	case !emptyObj || len(boolAlt) > 0:
		w("\t_, isObj := v.(*sobek.Object)\n")
	}
	if !emptyObj {
		b.WriteString(objBlock.String())
	}
	numAlt := first(func(t *tinfo, _ alt) bool { return t.cat == catNumeric })
	bigAlt := first(func(t *tinfo, _ alt) bool { return t.cat == catBigint })
	strAlt := first(func(t *tinfo, _ alt) bool { return t.cat == catString })
	if len(boolAlt) > 0 {
		w("\tif _, isBool := v.Export().(bool); sel < 0 && !isObj && isBool {\n\t\tsel = %d\n\t}\n", boolAlt[0].label)
	}
	if len(numAlt) > 0 {
		w("\tif sel < 0 && sobek.IsNumber(v) {\n\t\tsel = %d\n\t}\n", numAlt[0].label)
	}
	if len(bigAlt) > 0 {
		w("\tif sel < 0 && sobek.IsBigInt(v) {\n\t\tsel = %d\n\t}\n", bigAlt[0].label)
	}
	if len(strAlt) > 0 {
		w("\tif sel < 0 {\n\t\tsel = %d\n\t}\n", strAlt[0].label)
	}
	if len(numAlt) > 0 && len(bigAlt) > 0 {
		// ToNumeric: a BigInt primitive result goes to bigint (handled
		// above for primitives); objects convert to the numeric type.
		w("\tif sel < 0 {\n\t\tsel = %d\n\t}\n", numAlt[0].label)
	}
	if len(numAlt) > 0 {
		w("\tif sel < 0 {\n\t\tsel = %d\n\t}\n", numAlt[0].label)
	}
	if len(boolAlt) > 0 {
		w("\tif sel < 0 {\n\t\tsel = %d\n\t}\n", boolAlt[0].label)
	}
	if len(bigAlt) > 0 {
		w("\tif sel < 0 {\n\t\tsel = %d\n\t}\n", bigAlt[0].label)
	}
	if overload {
		for _, a := range alts {
			if a.t.cat == catAny {
				w("\tif sel < 0 {\n\t\tsel = %d\n\t}\n", a.label)
				break
			}
		}
	}
}

func (g *Generator) unionFromBody(ti *tinfo) string {
	var b strings.Builder
	b.WriteString("\tv = webidl.AnyValue(v)\n\tsel := -1\n")
	var alts []alt
	for i, m := range ti.members {
		alts = append(alts, alt{label: i, t: m})
		if m.cat == catSequence && m.name != "async_sequence" && !strings.Contains(b.String(), "seqMethod") {
			b.WriteString("\tvar seqMethod sobek.Value\n")
		}
	}
	g.emitSelect(&b, alts, false)
	b.WriteString("\tswitch sel {\n")
	for i, m := range ti.members {
		fmt.Fprintf(&b, "\tcase %d:\n", i)
		if m.cat == catSequence && m.name != "async_sequence" {
			fmt.Fprintf(&b, "\t\treturn %s{Type: %d, %s: idlFrom%sWith(r, v.(*sobek.Object), seqMethod)}\n", ti.goType, i+1, m.key, m.key)
		} else {
			fmt.Fprintf(&b, "\t\treturn %s{Type: %d, %s: %s(r, v)}\n", ti.goType, i+1, m.key, g.from(m))
		}
	}
	b.WriteString("\t}\n")
	fmt.Fprintf(&b, "\tr.ThrowTypeError(\"The provided value is not of type '%s'\")\n\treturn %s{}\n", strings.ReplaceAll(ti.t.String(), `"`, `'`), ti.goType)
	return b.String()
}

var _ = strconv.Quote
