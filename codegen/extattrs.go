package codegen

// The extended attributes the generator understands, in one place. Any
// other extended attribute in the input is an error for the definition
// that carries it.
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
	"AllowShared":                "binding: accepts shared buffers (goja has none)",
	"AllowResizable":             "binding: accepts resizable buffers (goja has none)",
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

// SupportedExtendedAttributes returns the names the generator accepts.
func SupportedExtendedAttributes() []string {
	out := make([]string, 0, len(supportedExtAttrs))
	for k := range supportedExtAttrs {
		out = append(out, k)
	}
	return out
}

// Unsupported lists the constructs the generator rejects, by name, with
// why. A definition using one fails with an error naming it.
var Unsupported = map[string]string{}
