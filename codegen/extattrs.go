package codegen

import "github.com/gowebengine/weblocks/idl"

// The extended attributes the generator understands, in one place. Any
// other extended attribute is unknown to it: the validator warns about it
// (idl's "unknown-extended-attribute", the same warning as webidl check
// gives), and the generator ignores it.
//
// "binding" attributes change the generated ES binding; "hint"
// attributes have no effect on the ES binding itself in this engine
// (their semantics live in the implementations or in specifications the
// engine does not have): they are accepted knowingly, never silently.
var supportedExtAttrs = map[string]string{
	// Exposure.
	"Exposed":                 "binding: per-realm exposure set",
	"SecureContext":           "binding: exposed only in secure contexts",
	"CrossOriginIsolated":     "binding: treated like SecureContext gating is not modelled; exposed (engine has no cross-origin isolation)",
	"Global":                  "binding: members on the global object; global names",
	"LegacyNoInterfaceObject": "binding: no interface object property",
	"LegacyWindowAlias":       "binding: extra global names of the interface object",
	"LegacyFactoryFunction":   "binding: named constructors",
	"LegacyNamespace":         "binding: interface object lives on a namespace object",
	// Members.
	"SameObject":                        "binding: getter result cached per object",
	"NewObject":                         "hint: a new object every time (the implementation's duty)",
	"Replaceable":                       "binding: setter shadows with an own data property",
	"PutForwards":                       "binding: setter forwards to the attribute's object",
	"LegacyUnforgeable":                 "binding: own non-configurable members on instances",
	"LegacyLenientThis":                 "binding: getter/setter return undefined on a failed brand check",
	"LegacyLenientSetter":               "binding: readonly attribute with a no-op setter",
	"Default":                           "binding: default toJSON",
	"LegacyUnenumerableNamedProperties": "hint: named properties are not enumerable (no named properties object here)",
	"LegacyOverrideBuiltIns":            "hint: named properties shadow prototype members (named properties not exotic here)",
	"Unscopable":                        "binding: listed in @@unscopables",
	// Types.
	"EnforceRange":               "binding: integer conversion",
	"Clamp":                      "binding: integer conversion",
	"AllowShared":                "binding: accepts shared buffers (sobek has none)",
	"AllowResizable":             "binding: accepts resizable buffers (sobek has none)",
	"LegacyNullToEmptyString":    "binding: null converts to the empty string",
	"LegacyTreatNonObjectAsNull": "binding: callback conversion",
	// Hints for implementations.
	"CEReactions":                 "hint: custom element reactions (no custom elements in this engine)",
	"HTMLConstructor":             "hint: HTML element constructor steps (implementation)",
	"Serializable":                "hint: structured serialization (implementation)",
	"Transferable":                "hint: transfer (implementation)",
	"Reflect":                     "hint: reflected content attribute (implementation)",
	"ReflectSetter":               "hint: reflected content attribute (implementation)",
	"ReflectDefault":              "hint: reflected content attribute (implementation)",
	"ReflectRange":                "hint: reflected content attribute (implementation)",
	"ReflectURL":                  "hint: reflected content attribute (implementation)",
	"ReflectNonNegative":          "hint: reflected content attribute (implementation)",
	"ReflectPositive":             "hint: reflected content attribute (implementation)",
	"ReflectPositiveWithFallback": "hint: reflected content attribute (implementation)",
	"StringContext":               "hint: Trusted Types (implementation)",
	"WebGLHandlesContextLoss":     "hint: WebGL context loss handling (implementation)",
	"IsHTMLDDA":                   "hint: document.all emulation not modelled (typeof stays object)",
}

// normalizeExtAttrs renames the legacy names of extended attributes and
// drops the ones the generator does not know: the validator reports
// those with a warning ("unknown-extended-attribute"), and no binding
// behaviour can be given to them.
func normalizeExtAttrs(l *idl.ExtAttrList) {
	keep := l.List()[:0]
	for _, a := range l.List() {
		if to, ok := idl.RenamedExtendedAttribute(a.Name); ok {
			c := *a
			c.Name = to
			if to == "LegacyNullToEmptyString" {
				c.RHS = nil
			}
			a = &c
		}
		if _, ok := supportedExtAttrs[a.Name]; !ok {
			continue
		}
		keep = append(keep, a)
	}
	l.SetList(keep)
}

// walkExtAttrs calls fn with every extended attribute list of a
// definition: its own, its members', arguments', fields' and types'.
func walkExtAttrs(d idl.Definition, fn func(*idl.ExtAttrList)) {
	var typ func(t *idl.Type)
	typ = func(t *idl.Type) {
		if t == nil {
			return
		}
		fn(&t.ExtAttrs)
		for _, s := range t.Subtypes() {
			typ(s)
		}
	}
	args := func(as []*idl.Argument) {
		for _, a := range as {
			fn(&a.ExtAttrs)
			typ(a.Type)
		}
	}
	own := func(l *idl.ExtAttrList) {
		fn(l)
		for _, a := range l.List() {
			args(a.Arguments)
		}
	}
	members := func(ms []idl.Member) {
		for _, m := range ms {
			switch m := m.(type) {
			case *idl.Attribute:
				own(&m.ExtAttrs)
				typ(m.Type)
			case *idl.Operation:
				own(&m.ExtAttrs)
				typ(m.ReturnType)
				args(m.Arguments)
			case *idl.Constant:
				own(&m.ExtAttrs)
				typ(m.Type)
			case *idl.Constructor:
				own(&m.ExtAttrs)
				args(m.Arguments)
			case *idl.Iterable:
				own(&m.ExtAttrs)
				typ(m.Key)
				typ(m.Value)
				args(m.Arguments)
			case *idl.Maplike:
				own(&m.ExtAttrs)
				typ(m.Key)
				typ(m.Value)
			case *idl.Setlike:
				own(&m.ExtAttrs)
				typ(m.Value)
			}
		}
	}
	switch d := d.(type) {
	case *idl.Interface:
		own(&d.ExtAttrs)
		members(d.Members)
	case *idl.CallbackInterface:
		own(&d.ExtAttrs)
		members(d.Members)
	case *idl.Namespace:
		own(&d.ExtAttrs)
		members(d.Members)
	case *idl.Dictionary:
		own(&d.ExtAttrs)
		for _, f := range d.Members {
			fn(&f.ExtAttrs)
			typ(f.Type)
		}
	case *idl.Enum:
		fn(&d.ExtAttrs)
	case *idl.Typedef:
		fn(&d.ExtAttrs)
		typ(d.Type)
	case *idl.Callback:
		fn(&d.ExtAttrs)
		typ(d.ReturnType)
		args(d.Arguments)
	case *idl.Includes:
		fn(&d.ExtAttrs)
	}
}
