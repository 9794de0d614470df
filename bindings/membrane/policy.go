package membrane

import "github.com/grafana/sobek"

// Op names the operation a wrapper is asked to perform: the proxy traps.
type Op uint8

// The operations a Policy is consulted for.
const (
	OpGet Op = iota
	OpSet
	OpHas
	OpDelete
	OpDefineProperty
	OpGetOwnProperty
	OpOwnKeys
	OpGetPrototypeOf
	OpSetPrototypeOf
	OpIsExtensible
	OpPreventExtensions
	OpCall
	OpConstruct
)

var opNames = [...]string{"get", "set", "has", "deleteProperty", "defineProperty",
	"getOwnPropertyDescriptor", "ownKeys", "getPrototypeOf", "setPrototypeOf",
	"isExtensible", "preventExtensions", "apply", "construct"}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "unknown"
}

// perProperty reports whether o takes a property key.
func (o Op) perProperty() bool { return o <= OpGetOwnProperty }

// Decision is a Policy's answer.
type Decision uint8

const (
	// Allow forwards the operation.
	Allow Decision = iota
	// Deny throws Policy.Error in the accessing runtime. For whole-object
	// operations (key nil) other than OpCall and OpConstruct, any answer
	// but Allow restricts the object instead, as HTML does for
	// cross-origin objects: getPrototypeOf gives null, setPrototypeOf
	// succeeds only for null, isExtensible gives true,
	// preventExtensions fails, and ownKeys gives Policy.OwnKeys(obj).
	Deny
	// Fallback makes the property look like an own data property with
	// the value undefined, not writable, not enumerable, configurable
	// (HTML's CrossOriginPropertyFallback): get gives undefined, has gives
	// true, and set, deleteProperty and defineProperty throw Policy.Error.
	Fallback
	// CrossOrigin allows the operation the way HTML's cross-origin
	// [[Get]], [[Set]] and [[GetOwnProperty]] do: functions reached (a
	// method's value, an accessor's get and set) are handed out as
	// functions of the accessing runtime that call the original with the
	// object as this — the same function each time — instead of
	// wrappers; reported descriptors are configurable; deleteProperty and
	// defineProperty throw Policy.Error.
	CrossOrigin
)

// Policy restricts what one runtime may do with the objects of another
// (Membrane.SetPolicy). Check is consulted before every operation on a
// wrapper; obj is the original object, in the runtime being accessed; key
// is the property key (a string or a symbol) or nil for whole-object
// operations. A nil Check allows everything.
type Policy struct {
	Check func(obj *sobek.Object, op Op, key sobek.Value) Decision
	// Error makes the exception thrown in the accessing runtime vm for a
	// denied operation (e.g. a DOMException named SecurityError of vm).
	// Without it, or if it returns nil, a TypeError is thrown.
	Error func(vm *sobek.Runtime, obj *sobek.Object, op Op, key sobek.Value) sobek.Value
	// OwnKeys gives the keys ownKeys reports for a restricted object, as
	// values of the accessing runtime (strings, symbols). Without it the
	// object's own keys are filtered by Check(obj, OpGetOwnProperty, key).
	OwnKeys func(vm *sobek.Runtime, obj *sobek.Object) []sobek.Value
}

func (p *Policy) check(obj *sobek.Object, op Op, key sobek.Value) Decision {
	if p == nil || p.Check == nil {
		return Allow
	}
	return p.Check(obj, op, key)
}

// ObjectKind tells the cross-origin rules what an object is.
type ObjectKind uint8

const (
	// OtherObject is not subject to cross-origin checks.
	OtherObject ObjectKind = iota
	// WindowObject is a Window (or the WindowProxy standing for it).
	WindowObject
	// LocationObject is a Location.
	LocationObject
)

// CrossOriginRules implements HTML's cross-origin object rules as a
// Policy (https://html.spec.whatwg.org/multipage/nav-history-apis.html#crossoriginproperties-(-o-)):
// for a Window or Location that is not same origin-domain with the
// accessing realm, only CrossOriginProperties are reachable, "then",
// @@toStringTag, @@hasInstance and @@isConcatSpreadable read as undefined,
// and everything else throws the Error (a SecurityError DOMException).
type CrossOriginRules struct {
	// Kind tells what obj (an object of the accessed runtime) is.
	Kind func(obj *sobek.Object) ObjectKind
	// SameOrigin is IsPlatformObjectSameOrigin(obj) for the accessing realm.
	SameOrigin func(obj *sobek.Object) bool
	// FrameCount gives the number of document-tree child navigables of a
	// window: their indices are cross-origin properties too. Optional.
	FrameCount func(window *sobek.Object) int
	// ChildNames gives the target names of a window's document-tree child
	// navigables that are exposed cross-origin. Optional.
	ChildNames func(window *sobek.Object) []string
	// Error makes the SecurityError thrown in the accessing runtime.
	Error func(vm *sobek.Runtime, obj *sobek.Object, op Op, key sobek.Value) sobek.Value
}

// crossOriginProperty is an entry of CrossOriginProperties(O).
type crossOriginProperty struct {
	name              string
	needsGet, needSet bool // for attributes; methods have both false
	method            bool
}

// windowCrossOrigin and locationCrossOrigin are the lists
// crossOriginProperties returns.
var windowCrossOrigin = []crossOriginProperty{
	{name: "window", needsGet: true}, {name: "self", needsGet: true},
	{name: "location", needsGet: true, needSet: true}, {name: "close", method: true},
	{name: "closed", needsGet: true}, {name: "focus", method: true},
	{name: "blur", method: true}, {name: "frames", needsGet: true},
	{name: "length", needsGet: true}, {name: "top", needsGet: true},
	{name: "opener", needsGet: true}, {name: "parent", needsGet: true},
	{name: "postMessage", method: true},
}

var locationCrossOrigin = []crossOriginProperty{
	{name: "href", needSet: true}, {name: "replace", method: true},
}

// crossOriginFallbackSymbols are the symbols of
// CrossOriginPropertyFallback besides "then".
var crossOriginFallbackSymbols = []*sobek.Symbol{sobek.SymToStringTag, sobek.SymHasInstance, sobek.SymIsConcatSpreadable}

// crossOriginProperties is
// https://html.spec.whatwg.org/multipage/nav-history-apis.html#crossoriginproperties-(-o-)
// for an object of the given kind.
func crossOriginProperties(kind ObjectKind) []crossOriginProperty {
	// 1. O is a Location or a Window.
	// 2. A Location: href (set only) and replace.
	if kind == LocationObject {
		return locationCrossOrigin
	}
	// 3. A Window: the thirteen members of windowCrossOrigin.
	return windowCrossOrigin
}

// isCrossOriginPropertyFallback tells whether
// https://html.spec.whatwg.org/multipage/nav-history-apis.html#crossoriginpropertyfallback-(-p-)
// gives a value for key: step 1, "then" and the three symbols get an
// undefined-valued, configurable descriptor (the Fallback decision);
// step 2, anything else throws a SecurityError (Deny).
func isCrossOriginPropertyFallback(key sobek.Value) bool {
	if s, ok := key.(sobek.String); ok {
		return s.String() == "then"
	}
	if sym, ok := key.(*sobek.Symbol); ok {
		for _, f := range crossOriginFallbackSymbols {
			if f == sym {
				return true
			}
		}
	}
	return false
}

// Policy returns the Policy implementing the rules.
func (c *CrossOriginRules) Policy() *Policy {
	return &Policy{Check: c.check, Error: c.Error, OwnKeys: c.ownKeys}
}

// isPlatformObjectSameOrigin is
// https://html.spec.whatwg.org/multipage/nav-history-apis.html#isplatformobjectsameorigin-(-o-)
// through the SameOrigin callback (same origin-domain as the current
// settings object), for Window and Location objects; other objects are
// never restricted.
func (c *CrossOriginRules) isPlatformObjectSameOrigin(obj *sobek.Object) (ObjectKind, bool) {
	if c.Kind == nil {
		return OtherObject, true
	}
	k := c.Kind(obj)
	if k == OtherObject {
		return k, true
	}
	// Without a SameOrigin callback every window and location is
	// treated as cross-origin (the safe side).
	return k, c.SameOrigin != nil && c.SameOrigin(obj)
}

// check is the policy's Check: the IsPlatformObjectSameOrigin test that
// starts every internal method of Window, WindowProxy and Location, then
// for property operations
// https://html.spec.whatwg.org/multipage/nav-history-apis.html#crossorigingetownpropertyhelper-(-o,-p-)
// (with CrossOriginGet's and CrossOriginSet's NeedsGet/NeedsSet tests) and
// CrossOriginPropertyFallback; [[DefineOwnProperty]] and [[Delete]] throw.
func (c *CrossOriginRules) check(obj *sobek.Object, op Op, key sobek.Value) Decision {
	kind, same := c.isPlatformObjectSameOrigin(obj)
	if same {
		return Allow
	}
	if !op.perProperty() {
		if op == OpCall || op == OpConstruct {
			return Deny
		}
		return CrossOrigin
	}
	// CrossOriginGetOwnPropertyHelper step 2: for each e of
	// CrossOriginProperties(O), if SameValue(e.[[Property]], P).
	if name, ok := key.(sobek.String); ok {
		s := name.String()
		for _, p := range crossOriginProperties(kind) {
			if p.name != s {
				continue
			}
			switch op {
			case OpGet:
				// CrossOriginGet: a getter is needed for attributes.
				if p.method || p.needsGet {
					return CrossOrigin
				}
				return Deny
			case OpSet:
				// CrossOriginSet: a setter is needed.
				if p.needSet {
					return CrossOrigin
				}
				return Deny
			case OpHas, OpGetOwnProperty:
				return CrossOrigin
			default:
				return Deny
			}
		}
		// WindowProxy [[GetOwnProperty]]: indexed child navigables, and
		// Window's named ones, are reachable too.
		if kind == WindowObject && c.isChild(obj, s) {
			switch op {
			case OpGet, OpHas, OpGetOwnProperty:
				return CrossOrigin
			}
			return Deny
		}
	}
	// CrossOriginGetOwnPropertyHelper step 3: not found; the caller
	// (e.g. [[GetOwnProperty]]) goes on with CrossOriginPropertyFallback.
	if isCrossOriginPropertyFallback(key) {
		return fallbackFor(op)
	}
	return Deny
}

func fallbackFor(op Op) Decision {
	switch op {
	case OpGet, OpHas, OpGetOwnProperty:
		return Fallback
	}
	return Deny
}

// isChild reports whether s is an index of one of window's child
// navigables or one of their exposed names.
func (c *CrossOriginRules) isChild(window *sobek.Object, s string) bool {
	if c.FrameCount != nil {
		if i, ok := arrayIndex(s); ok && i < c.FrameCount(window) {
			return true
		}
	}
	if c.ChildNames != nil {
		for _, n := range c.ChildNames(window) {
			if n == s {
				return true
			}
		}
	}
	return false
}

func arrayIndex(s string) (int, bool) {
	if s == "" || len(s) > 9 || (s[0] == '0' && len(s) > 1) {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// ownKeys is WindowProxy's and Location's [[OwnPropertyKeys]] for a
// cross-origin object: for a window its child navigables' indices and
// names, then crossOriginOwnPropertyKeys.
func (c *CrossOriginRules) ownKeys(vm *sobek.Runtime, obj *sobek.Object) []sobek.Value {
	var keys []sobek.Value
	kind, _ := c.isPlatformObjectSameOrigin(obj)
	if kind == WindowObject {
		if c.FrameCount != nil {
			for i, n := 0, c.FrameCount(obj); i < n; i++ {
				keys = append(keys, vm.ToValue(itoa(i)))
			}
		}
		if c.ChildNames != nil {
			for _, n := range c.ChildNames(obj) {
				keys = append(keys, vm.ToValue(n))
			}
		}
	}
	return append(keys, crossOriginOwnPropertyKeys(vm, kind)...)
}

// crossOriginOwnPropertyKeys is
// https://html.spec.whatwg.org/multipage/nav-history-apis.html#crossoriginownpropertykeys-(-o-)
func crossOriginOwnPropertyKeys(vm *sobek.Runtime, kind ObjectKind) []sobek.Value {
	// 1. Let keys be a new empty List.
	var keys []sobek.Value
	// 2. For each e of CrossOriginProperties(O), append e.[[Property]].
	for _, p := range crossOriginProperties(kind) {
		keys = append(keys, vm.ToValue(p.name))
	}
	// 3. Return keys followed by "then", @@toStringTag, @@hasInstance and
	// @@isConcatSpreadable.
	keys = append(keys, vm.ToValue("then"))
	for _, s := range crossOriginFallbackSymbols {
		keys = append(keys, s)
	}
	return keys
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	return string(b[n:])
}
