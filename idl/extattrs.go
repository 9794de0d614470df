package idl

// Extended attribute checks: the forms and places of the extended
// attributes that Web IDL defines, plus those that well-known platform
// specifications define (their forms are checked too); any other name is
// reported as unknown, with a warning.

// extAttrForm is a bit set of the syntactic forms an extended attribute
// may take.
type extAttrForm uint16

const (
	formNoArgs       extAttrForm = 1 << iota // [X]
	formArgList                              // [X(args)]
	formIdent                                // [X=Ident]
	formIdentList                            // [X=(A, B)]
	formWildcard                             // [X=*]
	formNamedArgList                         // [X=Ident(args)]
	formString                               // [X="s"]
	formInteger                              // [X=1]
	formDecimal                              // [X=1.5]
	formStringList                           // [X=("a", "b")]
	formIntegerList                          // [X=(1, 2)]
	formDecimalList                          // [X=(1.5, 2.5)]
)

var formNames = []string{
	"no arguments", "an argument list", "an identifier", "an identifier list", "*",
	"a named argument list", "a string", "an integer", "a decimal", "a string list",
	"an integer list", "a decimal list",
}

func (f extAttrForm) String() string {
	var out string
	n := 0
	for i, name := range formNames {
		if f&(1<<i) != 0 {
			if n > 0 {
				out += " or "
			}
			out += name
			n++
		}
	}
	return out
}

// extAttrSpec describes one known extended attribute.
type extAttrSpec struct {
	forms extAttrForm
	// typeCheck, when set, restricts the type the attribute annotates.
	typeCheck func(v *validator, t *Type) bool
	// want describes typeCheck's requirement for messages.
	want string
}

func integerType(v *validator, t *Type) bool {
	var buf [8]*Type
	ms := v.a.FlattenedMemberTypes(buf[:0], t)
	for _, m := range ms {
		if m.Generic() != "" || !NumericTypes[m.Name] || m.Name == "float" || m.Name == "double" ||
			m.Name == "unrestricted float" || m.Name == "unrestricted double" {
			return false
		}
	}
	return len(ms) > 0
}

func bufferType(v *validator, t *Type) bool {
	var buf [8]*Type
	ms := v.a.FlattenedMemberTypes(buf[:0], t)
	for _, m := range ms {
		if m.Generic() != "" || !BufferSourceTypes[m.Name] {
			return false
		}
	}
	return len(ms) > 0
}

func domStringType(v *validator, t *Type) bool {
	r := v.a.Underlying(t)
	return r != nil && !r.Union && r.Generic() == "" && (r.Name == "DOMString" || r.Name == "CSSOMString")
}

var knownExtAttrs = map[string]extAttrSpec{
	// Web IDL.
	"AllowResizable":                    {forms: formNoArgs, typeCheck: bufferType, want: "a buffer type"},
	"AllowShared":                       {forms: formNoArgs, typeCheck: bufferType, want: "a buffer type"},
	"Clamp":                             {forms: formNoArgs, typeCheck: integerType, want: "an integer type"},
	"EnforceRange":                      {forms: formNoArgs, typeCheck: integerType, want: "an integer type"},
	"LegacyNullToEmptyString":           {forms: formNoArgs, typeCheck: domStringType, want: "DOMString"},
	"CrossOriginIsolated":               {forms: formNoArgs},
	"Default":                           {forms: formNoArgs},
	"Exposed":                           {forms: formIdent | formIdentList | formWildcard},
	"Global":                            {forms: formIdent | formIdentList},
	"NewObject":                         {forms: formNoArgs},
	"PutForwards":                       {forms: formIdent},
	"Replaceable":                       {forms: formNoArgs},
	"SameObject":                        {forms: formNoArgs},
	"SecureContext":                     {forms: formNoArgs},
	"Unscopable":                        {forms: formNoArgs},
	"LegacyFactoryFunction":             {forms: formNamedArgList},
	"LegacyLenientSetter":               {forms: formNoArgs},
	"LegacyLenientThis":                 {forms: formNoArgs},
	"LegacyNamespace":                   {forms: formIdent},
	"LegacyNoInterfaceObject":           {forms: formNoArgs},
	"LegacyOverrideBuiltIns":            {forms: formNoArgs},
	"LegacyTreatNonObjectAsNull":        {forms: formNoArgs},
	"LegacyUnenumerableNamedProperties": {forms: formNoArgs},
	"LegacyUnforgeable":                 {forms: formNoArgs},
	"LegacyWindowAlias":                 {forms: formIdent | formIdentList},
	// HTML.
	"CEReactions":                 {forms: formNoArgs},
	"HTMLConstructor":             {forms: formNoArgs},
	"Serializable":                {forms: formNoArgs},
	"Transferable":                {forms: formNoArgs},
	"Reflect":                     {forms: formNoArgs | formIdent | formString},
	"ReflectDefault":              {forms: formInteger | formDecimal | formString | formIdent},
	"ReflectNonNegative":          {forms: formNoArgs},
	"ReflectPositive":             {forms: formNoArgs},
	"ReflectPositiveWithFallback": {forms: formNoArgs},
	"ReflectRange":                {forms: formIntegerList},
	"ReflectSetter":               {forms: formNoArgs},
	"ReflectURL":                  {forms: formNoArgs},
	// WebGL, Trusted Types.
	"WebGLHandlesContextLoss": {forms: formNoArgs},
	"StringContext":           {forms: formIdent},
}

// renamedExtAttrs maps obsolete names to their current ones.
var renamedExtAttrs = map[string]string{
	"NoInterfaceObject":    "LegacyNoInterfaceObject",
	"LenientSetter":        "LegacyLenientSetter",
	"LenientThis":          "LegacyLenientThis",
	"TreatNonObjectAsNull": "LegacyTreatNonObjectAsNull",
	"Unforgeable":          "LegacyUnforgeable",
	"NamedConstructor":     "LegacyFactoryFunction",
	"OverrideBuiltins":     "LegacyOverrideBuiltIns",
	"TreatNullAs":          "LegacyNullToEmptyString",
}

// RenamedExtendedAttribute returns the current name of an extended
// attribute that Web IDL renamed (NoInterfaceObject is now
// LegacyNoInterfaceObject, TreatNullAs LegacyNullToEmptyString...): the
// validator warns about the old names ("renamed-legacy"), and the bindings
// generator reads them as their current names.
func RenamedExtendedAttribute(name string) (current string, ok bool) {
	current, ok = renamedExtAttrs[name]
	return current, ok
}

// formOf returns the syntactic form of an extended attribute.
func formOf(a *ExtendedAttribute) extAttrForm {
	if a.RHS == nil {
		if a.HasArguments {
			return formArgList
		}
		return formNoArgs
	}
	switch a.RHS.Kind {
	case "identifier":
		if a.HasArguments {
			return formNamedArgList
		}
		return formIdent
	case "identifier-list":
		return formIdentList
	case "*":
		return formWildcard
	case "string":
		return formString
	case "integer":
		return formInteger
	case "decimal":
		return formDecimal
	case "string-list":
		return formStringList
	case "integer-list":
		return formIntegerList
	case "decimal-list":
		return formDecimalList
	}
	return 0
}

// checkExtAttrs checks an extended attribute list; typ is the type the
// attributes annotate (for types, arguments and dictionary members), or nil.
func (v *validator) checkExtAttrs(l *ExtAttrList, owner Node, typ *Type) {
	hasClamp, hasEnforce := false, false
	for _, a := range l.List() {
		if a.HasArguments {
			v.checkArguments(a.Arguments)
		}
		if a.Name == "LegacyNoInterfaceObject" {
			v.reportAt("no-nointerfaceobject", a.Loc,
				"[LegacyNoInterfaceObject] is an undesirable legacy feature that may be removed from Web IDL")
		}
		if a.Name == "Constructor" {
			v.reportAt("constructor-member", a.Loc, "[Constructor] is obsolete; declare a constructor() operation in the interface instead")
			continue
		}
		if to, ok := renamedExtAttrs[a.Name]; ok {
			v.reportAt("renamed-legacy", a.Loc, "["+a.Name+"] is now called ["+to+"]")
			continue
		}
		spec, ok := knownExtAttrs[a.Name]
		if !ok {
			v.reportAt("unknown-extended-attribute", a.Loc, "["+a.Name+"] is not a standard extended attribute")
			continue
		}
		if f := formOf(a); spec.forms&f == 0 {
			v.reportAt("malformed-extended-attribute", a.Loc, "["+a.Name+"] takes "+spec.forms.String()+", not "+f.String())
			continue
		}
		if spec.typeCheck != nil {
			if typ == nil {
				if _, onAttr := owner.(*Attribute); !onAttr {
					v.reportAt("malformed-extended-attribute", a.Loc, "["+a.Name+"] only applies to types")
				}
			} else if !spec.typeCheck(v, typ) && v.resolvable(typ) {
				v.reportAt("malformed-extended-attribute", a.Loc, "["+a.Name+"] only applies to "+spec.want+", not "+typ.String())
			}
		}
		hasClamp = hasClamp || a.Name == "Clamp"
		hasEnforce = hasEnforce || a.Name == "EnforceRange"
	}
	if hasClamp && hasEnforce {
		v.reportAt("malformed-extended-attribute", l.List()[0].Loc, "[Clamp] and [EnforceRange] cannot be used together")
	}
}

// resolvable reports whether every named type in t's flattened member
// types is known, so that type-based checks do not pile onto an
// undefined-type problem.
func (v *validator) resolvable(t *Type) bool {
	var buf [8]*Type
	for _, m := range v.a.FlattenedMemberTypes(buf[:0], t) {
		if m.Generic() == "" && !primitiveNames[m.Name] && !BufferSourceTypes[m.Name] {
			_, defined := v.defs[m.Name]
			_, prose := proseTypes[m.Name]
			if !defined && !prose {
				return false
			}
		}
	}
	return true
}
