package idl

// This file is the semantic layer of the package, the analogue of
// go/types for Web IDL: Analyze resolves a set of parsed files once
// (definitions by name, partial definitions, mixins and includes
// statements, typedefs, inheritance), and the resulting *Analysis answers
// the questions that validation and code generation both ask — the merged
// members of an interface, the category of a type, whether two types are
// distinguishable, and the effective overload sets of an operation.
//
// An *Analysis is immutable once Analyze returns: it is safe for concurrent
// use, and every answer is computed in time linear in the size of the
// types involved (typedef chains of any length included).

// Analysis is the resolved view of a set of Web IDL files.
//
// Names are resolved within the analyzed files first; the names the Web
// IDL standard defines itself (ArrayBufferView, BufferSource,
// AllowSharedBufferSource, Function, VoidFunction, DOMException,
// QuotaExceededError) are known without webidl.idl, and a definition of the
// same name in the files takes precedence (see IsBuiltin).
type Analysis struct {
	files []*File
	// defs holds the non-partial definitions by name, the first of each
	// name in file order, then the built-in ones.
	defs map[string]Definition
	// builtin holds the names that only the prelude defines.
	builtin map[string]bool
	// duplicates are the non-partial definitions whose name was taken.
	duplicates []Definition
	partials   map[string][]Definition
	includes   map[string][]*Includes // by target
	includedBy map[string][]string    // mixin -> targets, in statement order
	aliases    map[string]string      // [LegacyWindowAlias] name -> interface
	// cyclic holds the interfaces and dictionaries in inheritance cycles.
	cyclic map[string]bool
	// typedefs holds what is precomputed for each typedef.
	typedefs map[string]*typedefInfo
	// typedefCycles lists the typedefs that are part of a cycle, in file
	// order.
	typedefCycles []*Typedef
	// selfIncluding holds the dictionaries that include themselves.
	selfIncluding map[string]bool
}

// typedefInfo is what Analyze precomputes for one typedef.
type typedefInfo struct {
	// inCycle: the typedef is part of a cycle of typedefs (through
	// typedef names and union member types). unresolvable: it is, or it
	// leads into one.
	inCycle, unresolvable bool
	// nullable: its type includes a nullable type.
	nullable bool
	// dict is a dictionary that its type is, or that is a flattened
	// member type of its union type; nil when none.
	dict *Dictionary
	// underlying is the type at the end of its chain of typedef names.
	underlying *Type
}

// Analyze resolves a set of parsed files (nil files are skipped). It never
// fails: problems such as duplicate names, undefined references and cycles
// are recorded for Validate to report, and the queries answer as well as
// they can around them.
func Analyze(files ...*File) *Analysis {
	a := &Analysis{
		defs:       map[string]Definition{},
		builtin:    map[string]bool{},
		partials:   map[string][]Definition{},
		includes:   map[string][]*Includes{},
		includedBy: map[string][]string{},
		aliases:    map[string]string{},
	}
	for _, f := range files {
		if f != nil {
			a.files = append(a.files, f)
		}
	}
	for _, f := range a.files {
		for _, d := range f.Definitions {
			if inc, ok := d.(*Includes); ok {
				a.includes[inc.Target] = append(a.includes[inc.Target], inc)
				a.includedBy[inc.Mixin] = append(a.includedBy[inc.Mixin], inc.Target)
				continue
			}
			name := d.DefinitionName()
			if IsPartial(d) {
				a.partials[name] = append(a.partials[name], d)
				continue
			}
			if _, ok := a.defs[name]; ok {
				a.duplicates = append(a.duplicates, d)
				continue
			}
			a.defs[name] = d
			if x := d.Attributes().Get("LegacyWindowAlias"); x != nil && x.RHS != nil {
				if x.RHS.Kind == "identifier" {
					a.aliases[x.RHS.Value] = name
				}
				for _, v := range x.RHS.List {
					a.aliases[v.Value] = name
				}
			}
		}
	}
	for _, d := range preludeFile().Definitions {
		if _, ok := a.defs[d.DefinitionName()]; !ok {
			a.defs[d.DefinitionName()] = d
			a.builtin[d.DefinitionName()] = true
		}
	}
	a.findInheritanceCycles()
	a.analyzeTypedefs()
	a.findSelfIncludingDictionaries()
	return a
}

// Files returns the analyzed files (nil ones left out), in order.
func (a *Analysis) Files() []*File { return a.files }

// Lookup returns the non-partial definition named name (the first one, in
// file order, when several have the name), or a built-in one; nil when
// there is none.
func (a *Analysis) Lookup(name string) Definition { return a.defs[name] }

// IsBuiltin reports whether name is defined by the Web IDL standard itself
// (see Analysis) and not by the analyzed files.
func (a *Analysis) IsBuiltin(name string) bool { return a.builtin[name] }

// Duplicates returns the non-partial definitions whose name an earlier
// non-partial definition already has, in file order.
func (a *Analysis) Duplicates() []Definition { return a.duplicates }

// Partials returns the partial definitions named name, of any kind, in file
// order.
func (a *Analysis) Partials(name string) []Definition { return a.partials[name] }

// Includes returns the includes statements whose target is name, in file
// order.
func (a *Analysis) Includes(name string) []*Includes { return a.includes[name] }

// IncludedBy returns the targets of the includes statements that name the
// mixin, in file order.
func (a *Analysis) IncludedBy(mixin string) []string { return a.includedBy[mixin] }

// AliasOf returns the interface that a [LegacyWindowAlias] name stands for.
func (a *Analysis) AliasOf(name string) (string, bool) {
	s, ok := a.aliases[name]
	return s, ok
}

// IsPartial reports whether d is a partial interface, interface mixin,
// namespace or dictionary.
func IsPartial(d Definition) bool {
	switch d := d.(type) {
	case *Interface:
		return d.Partial
	case *Namespace:
		return d.Partial
	case *Dictionary:
		return d.Partial
	}
	return false
}

// KindOf names the kind of a definition: "interface", "interface mixin",
// "callback interface", "namespace", "dictionary", "enum", "typedef",
// "callback" or "includes statement".
func KindOf(d Definition) string {
	switch d := d.(type) {
	case *Interface:
		if d.Mixin {
			return "interface mixin"
		}
		return "interface"
	case *CallbackInterface:
		return "callback interface"
	case *Namespace:
		return "namespace"
	case *Dictionary:
		return "dictionary"
	case *Enum:
		return "enum"
	case *Typedef:
		return "typedef"
	case *Callback:
		return "callback"
	case *Includes:
		return "includes statement"
	}
	return "definition"
}

// ---------------------------------------------------------------------------
// Merged definitions

// Part is one definition that contributes members to an interface,
// interface mixin, callback interface or namespace: the definition itself,
// one of its partial definitions, or (for an interface) an included mixin
// or one of the mixin's partial definitions.
type Part struct {
	// Def is the contributing *Interface, *Namespace or *CallbackInterface.
	Def Definition
	// Mixin is the (non-partial) mixin that Def belongs to when Def was
	// reached through an includes statement, nil otherwise.
	Mixin *Interface
	// Includes is that includes statement, nil otherwise.
	Includes *Includes
}

// Members returns the members Def declares.
func (p Part) Members() []Member {
	switch d := p.Def.(type) {
	case *Interface:
		return d.Members
	case *Namespace:
		return d.Members
	case *CallbackInterface:
		return d.Members
	}
	return nil
}

// Parts is https://webidl.spec.whatwg.org/#dfn-partial-interface and
// https://webidl.spec.whatwg.org/#include: it returns the definitions
// whose members make up the interface, mixin, callback interface or
// namespace named name, as the Web IDL standard merges them: the
// definition itself, its
// partial definitions of the same kind in file order, then, for an
// interface, each mixin its includes statements name (in file order) with
// that mixin's partial definitions. Includes statements whose mixin is not
// an interface mixin are skipped. Parts returns nil when name is not an
// interface-like definition.
func (a *Analysis) Parts(name string) []Part {
	d := a.defs[name]
	var out []Part
	switch d := d.(type) {
	case *Interface, *Namespace, *CallbackInterface:
		out = append(out, Part{Def: d})
	default:
		return nil
	}
	kind := KindOf(d)
	for _, p := range a.partials[name] {
		if KindOf(p) == kind {
			out = append(out, Part{Def: p})
		}
	}
	if it, ok := d.(*Interface); ok && !it.Mixin {
		for _, inc := range a.includes[name] {
			m, ok := a.defs[inc.Mixin].(*Interface)
			if !ok || !m.Mixin {
				continue
			}
			out = append(out, Part{Def: m, Mixin: m, Includes: inc})
			for _, p := range a.partials[inc.Mixin] {
				if pm, ok := p.(*Interface); ok && pm.Mixin {
					out = append(out, Part{Def: pm, Mixin: m, Includes: inc})
				}
			}
		}
	}
	return out
}

// MemberRef is a member of a merged definition with the part declaring it.
type MemberRef struct {
	Member Member
	Part   Part
}

// Members returns every member of the merged interface, mixin, callback
// interface or namespace named name, in the order of Parts.
func (a *Analysis) Members(name string) []MemberRef {
	var out []MemberRef
	for _, p := range a.Parts(name) {
		for _, m := range p.Members() {
			out = append(out, MemberRef{m, p})
		}
	}
	return out
}

// DictionaryParts returns the dictionary named name and its partial
// dictionaries, in file order; nil when name is not a dictionary.
func (a *Analysis) DictionaryParts(name string) []*Dictionary {
	d, ok := a.defs[name].(*Dictionary)
	if !ok {
		return nil
	}
	out := []*Dictionary{d}
	for _, p := range a.partials[name] {
		if pd, ok := p.(*Dictionary); ok {
			out = append(out, pd)
		}
	}
	return out
}

// maxInheritanceDepth bounds the inheritance chains walked (real IDL has a
// handful of levels; absurd chains must not make queries quadratic).
const maxInheritanceDepth = 64

// Ancestors returns the inherited interfaces or dictionaries of the
// interface or dictionary named name, nearest first, up to the first name
// that is undefined or of another kind, or that repeats (a cycle), and at
// most 64 levels.
func (a *Analysis) Ancestors(name string) []Definition {
	var out []Definition
	seen := map[string]bool{name: true}
	cur := a.parentOf(name)
	for cur != "" && !seen[cur] && len(out) < maxInheritanceDepth {
		seen[cur] = true
		d := a.defs[cur]
		if KindOf(d) != KindOf(a.defs[name]) {
			break
		}
		out = append(out, d)
		cur = a.parentOf(cur)
	}
	return out
}

// Inherits reports whether the interface or dictionary named x is y or
// inherits from y, directly or not (looking up to 64 levels).
func (a *Analysis) Inherits(x, y string) bool {
	for depth := 0; x != "" && depth <= maxInheritanceDepth; depth++ {
		if x == y {
			return true
		}
		x = a.parentOf(x)
	}
	return false
}

// InInheritanceCycle reports whether the interface or dictionary named
// name is part of an inheritance cycle.
func (a *Analysis) InInheritanceCycle(name string) bool { return a.cyclic[name] }

func (a *Analysis) parentOf(name string) string {
	switch d := a.defs[name].(type) {
	case *Interface:
		if !d.Mixin {
			return d.Inheritance
		}
	case *Dictionary:
		return d.Inheritance
	}
	return ""
}

// findInheritanceCycles marks the interfaces and dictionaries that are
// part of an inheritance cycle, in time linear in the number of
// definitions.
func (a *Analysis) findInheritanceCycles() {
	a.cyclic = map[string]bool{}
	state := map[string]uint8{} // 1 on the current path, 2 finished
	var path []string
	for _, f := range a.files {
		for _, d := range f.Definitions {
			name := d.DefinitionName()
			if a.defs[name] != d || a.parentOf(name) == "" {
				continue
			}
			path = path[:0]
			for cur := name; cur != ""; cur = a.parentOf(cur) {
				st := state[cur]
				if st == 2 {
					break
				}
				if st == 1 {
					for i := len(path) - 1; i >= 0; i-- {
						a.cyclic[path[i]] = true
						if path[i] == cur {
							break
						}
					}
					break
				}
				state[cur] = 1
				path = append(path, cur)
			}
			for _, n := range path {
				state[n] = 2
			}
		}
	}
}

// ---------------------------------------------------------------------------
// Typedefs

// typedefRefs appends the names of the typedefs that t refers to directly
// or through union member types (not through generic type arguments).
func (a *Analysis) typedefRefs(out []string, t *Type) []string {
	if t == nil || t.Generic() != "" {
		return out
	}
	if t.Union {
		for _, s := range t.Subtypes() {
			out = a.typedefRefs(out, s)
		}
		return out
	}
	if _, ok := a.defs[t.Name].(*Typedef); ok {
		out = append(out, t.Name)
	}
	return out
}

// analyzeTypedefs finds the typedef cycles (the strongly connected
// components of the graph of typedef references, by Tarjan's algorithm
// run iteratively so that chains of any length work) and precomputes, for
// every typedef, whether it includes a nullable type and the dictionary it
// is or has as a flattened member type.
func (a *Analysis) analyzeTypedefs() {
	a.typedefs = map[string]*typedefInfo{}
	type node struct {
		name       string
		refs       []string
		next       int
		index, low int
	}
	index := 0
	var stack []string // Tarjan's stack
	onStack := map[string]bool{}
	nodes := map[string]*node{}
	var call []*node // the DFS, iteratively
	visit := func(name string) *node {
		td := a.defs[name].(*Typedef)
		n := &node{name: name, refs: a.typedefRefs(nil, td.Type), index: index, low: index}
		index++
		nodes[name] = n
		stack = append(stack, name)
		onStack[name] = true
		a.typedefs[name] = &typedefInfo{}
		return n
	}
	finish := func(n *node) {
		info := a.typedefs[n.name]
		td := a.defs[n.name].(*Typedef)
		if n.low == n.index {
			// n roots a strongly connected component.
			var comp []string
			for {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[top] = false
				comp = append(comp, top)
				if top == n.name {
					break
				}
			}
			self := false
			for _, r := range n.refs {
				self = self || r == n.name
			}
			if len(comp) > 1 || self {
				for _, c := range comp {
					ci := a.typedefs[c]
					ci.inCycle, ci.unresolvable = true, true
				}
			}
		}
		for _, r := range n.refs {
			if ri := a.typedefs[r]; ri.unresolvable {
				info.unresolvable = true
			}
		}
		if !info.unresolvable {
			info.nullable = a.includesNullable(td.Type)
			info.dict = a.dictionaryIn(td.Type)
			info.underlying = td.Type
			if t := td.Type; !t.Union && t.Generic() == "" {
				if _, ok := a.defs[t.Name].(*Typedef); ok {
					info.underlying = a.typedefs[t.Name].underlying
				}
			}
		}
	}
	for _, f := range append(a.files[:len(a.files):len(a.files)], preludeFile()) {
		for _, d := range f.Definitions {
			td, ok := d.(*Typedef)
			if !ok || a.defs[td.Name] != d || nodes[td.Name] != nil {
				continue
			}
			call = append(call[:0], visit(td.Name))
			for len(call) > 0 {
				n := call[len(call)-1]
				if n.next < len(n.refs) {
					r := n.refs[n.next]
					n.next++
					if m := nodes[r]; m == nil {
						call = append(call, visit(r))
					} else if onStack[r] {
						n.low = min(n.low, m.index)
					}
					continue
				}
				call = call[:len(call)-1]
				if len(call) > 0 {
					p := call[len(call)-1]
					p.low = min(p.low, n.low)
				}
				finish(n)
			}
		}
	}
	// A component's members finish before its root marks them: clear the
	// facts computed for those, and list them.
	for _, f := range a.files {
		for _, d := range f.Definitions {
			if td, ok := d.(*Typedef); ok && a.defs[td.Name] == d {
				if info := a.typedefs[td.Name]; info.inCycle {
					a.typedefCycles = append(a.typedefCycles, td)
					info.nullable, info.dict, info.underlying = false, nil, nil
				}
			}
		}
	}
}

// TypedefCycles returns the typedefs that are part of a cycle of typedefs
// (referring to themselves through typedef names and union member types),
// in file order.
func (a *Analysis) TypedefCycles() []*Typedef { return a.typedefCycles }

// Underlying follows typedef names from t to the type they stand for and
// returns that type as written in the last typedef (t itself when t does
// not name a typedef). It returns nil when the typedef is, or leads into,
// a cycle. The nullability and extended attributes of the names followed
// are not carried over; Resolve does that.
func (a *Analysis) Underlying(t *Type) *Type {
	if t == nil || t.Union || t.Generic() != "" {
		return t
	}
	if _, ok := a.defs[t.Name].(*Typedef); !ok {
		return t
	}
	return a.typedefs[t.Name].underlying // nil when unresolvable
}

// Resolve is https://webidl.spec.whatwg.org/#idl-typedefs: it returns t
// with every typedef name in it (at any depth: union member types and
// generic type arguments included) replaced by the type it stands for. The
// result is nullable
// when the name or the typedef's type is, and carries the extended
// attributes of the use site followed by those of the typedef's type. The
// nodes of t are not modified: a node that changes is copied. Resolve
// returns nil when a typedef is, or leads into, a cycle.
func (a *Analysis) Resolve(t *Type) *Type {
	return a.resolveMemo(t, map[string]*Type{})
}

// resolveMemo is Resolve with the typedefs resolved so far, so that
// typedefs of unions of typedefs take time linear in their number.
func (a *Analysis) resolveMemo(t *Type, memo map[string]*Type) *Type {
	if t == nil {
		return nil
	}
	if t.Union || t.Generic() != "" {
		var subs []*Type
		for i, s := range t.Subtypes() {
			r := a.resolveMemo(s, memo)
			if r == nil {
				return nil
			}
			if r != s && subs == nil {
				subs = append(make([]*Type, 0, len(t.Subtypes())), t.Subtypes()[:i]...)
			}
			if subs != nil {
				subs = append(subs, r)
			}
		}
		if subs == nil {
			return t
		}
		c := *t
		c.SetSubtypes(subs)
		return &c
	}
	td, ok := a.defs[t.Name].(*Typedef)
	if !ok {
		return t
	}
	r, ok := memo[td.Name]
	if !ok {
		if a.typedefs[td.Name].unresolvable {
			return nil
		}
		// Follow the chain of typedef names without recursion, collecting
		// nullability and extended attributes, then resolve what it ends in.
		var attrs []*ExtendedAttribute
		nullable := false
		cur := td.Type
		for !cur.Union && cur.Generic() == "" {
			next, isTypedef := a.defs[cur.Name].(*Typedef)
			if !isTypedef {
				break
			}
			nullable = nullable || cur.Nullable
			attrs = append(attrs, cur.ExtAttrs.List()...)
			cur = next.Type
		}
		r = a.resolveMemo(cur, memo)
		if r == nil {
			return nil
		}
		if nullable && !r.Nullable || len(attrs) > 0 {
			c := *r
			c.Nullable = c.Nullable || nullable
			c.ExtAttrs.SetList(append(attrs, r.ExtAttrs.List()...))
			r = &c
		}
		memo[td.Name] = r
	}
	if !t.Nullable && len(t.ExtAttrs.List()) == 0 {
		return r
	}
	c := *r
	c.Nullable = r.Nullable || t.Nullable
	c.ExtAttrs.SetList(append(append([]*ExtendedAttribute(nil), t.ExtAttrs.List()...), r.ExtAttrs.List()...))
	return &c
}

// ---------------------------------------------------------------------------
// Types

// IncludesNullable is https://webidl.spec.whatwg.org/#dfn-includes-a-nullable-type:
// it reports whether t includes a nullable type: it is nullable, names a typedef whose type includes a nullable type, or is a
// union type with a member type that includes one.
func (a *Analysis) IncludesNullable(t *Type) bool { return a.includesNullable(t) }

func (a *Analysis) includesNullable(t *Type) bool {
	if t == nil {
		return false
	}
	if t.Nullable {
		return true
	}
	if t.Union {
		for _, s := range t.Subtypes() {
			if a.includesNullable(s) {
				return true
			}
		}
		return false
	}
	if t.Generic() == "" {
		if _, ok := a.defs[t.Name].(*Typedef); ok {
			return a.typedefs[t.Name].nullable
		}
	}
	return false
}

// DictionaryIn returns the dictionary that t is, or that is one of the
// flattened member types of the union type t, typedefs followed; nil when
// there is none. (Nullable dictionaries count.)
func (a *Analysis) DictionaryIn(t *Type) *Dictionary { return a.dictionaryIn(t) }

func (a *Analysis) dictionaryIn(t *Type) *Dictionary {
	if t == nil || t.Generic() != "" {
		return nil
	}
	if t.Union {
		for _, s := range t.Subtypes() {
			if d := a.dictionaryIn(s); d != nil {
				return d
			}
		}
		return nil
	}
	switch d := a.defs[t.Name].(type) {
	case *Dictionary:
		return d
	case *Typedef:
		return a.typedefs[t.Name].dict
	}
	return nil
}

// IsDictionary reports whether t is a dictionary type (possibly nullable),
// typedefs followed.
func (a *Analysis) IsDictionary(t *Type) bool {
	r := a.Underlying(t)
	if r == nil || r.Union || r.Generic() != "" {
		return false
	}
	_, ok := a.defs[r.Name].(*Dictionary)
	return ok
}

// MaxFlattened bounds the flattened member types FlattenedMemberTypes
// returns: real unions have a few dozen at most, and typedefs of unions of
// typedefs could otherwise multiply without end.
const MaxFlattened = 256

// FlattenedMemberTypes is https://webidl.spec.whatwg.org/#dfn-flattened-union-member-types:
// it appends to out the flattened member types of t: typedefs followed, nested unions expanded, and nullable types replaced
// by their inner types (without modifying t: a copy is made). A type that
// is not a union is its own only member. Types in a typedef cycle are
// skipped, and at most MaxFlattened types are appended.
func (a *Analysis) FlattenedMemberTypes(out []*Type, t *Type) []*Type {
	start := len(out)
	return a.flatten(out, t, start)
}

func (a *Analysis) flatten(out []*Type, t *Type, start int) []*Type {
	if len(out)-start >= MaxFlattened {
		return out
	}
	r := a.Underlying(t)
	if r == nil {
		return out
	}
	if !r.Union {
		return append(out, stripNull(r))
	}
	for _, s := range r.Subtypes() {
		out = a.flatten(out, s, start)
	}
	return out
}

// stripNull returns t without its nullable flag (a shallow copy).
func stripNull(t *Type) *Type {
	if !t.Nullable {
		return t
	}
	c := *t
	c.Nullable = false
	return &c
}

// Category is a type's category in the table of the Web IDL
// "distinguishable" algorithm (https://webidl.spec.whatwg.org/#dfn-distinguishable),
// plus the kinds of types the table leaves out.
type Category int

const (
	// CategoryUndefined is the undefined type.
	CategoryUndefined Category = iota
	// CategoryBoolean is the boolean type.
	CategoryBoolean
	// CategoryNumeric holds the numeric types (the integer types, float,
	// double and their unrestricted forms).
	CategoryNumeric
	// CategoryBigInt is the bigint type.
	CategoryBigInt
	// CategoryString holds DOMString, ByteString, USVString, enumerations
	// (and CSSOM's CSSOMString).
	CategoryString
	// CategoryObject is the object type.
	CategoryObject
	// CategorySymbol is the symbol type.
	CategorySymbol
	// CategoryInterfaceLike holds interface types and the buffer source
	// types (ArrayBuffer, SharedArrayBuffer, DataView, typed arrays), and
	// HTML's WindowProxy.
	CategoryInterfaceLike
	// CategoryCallbackFunction holds callback function types.
	CategoryCallbackFunction
	// CategoryDictionaryLike holds dictionary, record and callback
	// interface types.
	CategoryDictionaryLike
	// CategoryAsyncSequence holds async_sequence types.
	CategoryAsyncSequence
	// CategorySequenceLike holds sequence, FrozenArray and ObservableArray
	// types.
	CategorySequenceLike

	// CategoryAny is the any type, which the table leaves out.
	CategoryAny
	// CategoryPromise holds Promise types, which the table leaves out.
	CategoryPromise
	// CategoryUnion holds union types (distinguished member by member).
	CategoryUnion
	// CategoryUnknown is a name that is not defined, or a typedef cycle.
	CategoryUnknown
)

var categoryNames = [...]string{
	"undefined", "boolean", "numeric types", "bigint", "string types", "object", "symbol",
	"interface-like", "callback function", "dictionary-like", "async sequence", "sequence-like",
	"any", "Promise", "union", "unknown",
}

// String returns the category's name as the Web IDL table writes it.
func (c Category) String() string {
	if c >= 0 && int(c) < len(categoryNames) {
		return categoryNames[c]
	}
	return "Category(" + itoa(int(c)) + ")"
}

// BufferSourceTypes are the buffer source types of Web IDL
// (https://webidl.spec.whatwg.org/#idl-buffer-source-types), which are
// interface-like.
var BufferSourceTypes = map[string]bool{
	"ArrayBuffer": true, "SharedArrayBuffer": true, "DataView": true,
	"Int8Array": true, "Int16Array": true, "Int32Array": true,
	"Uint8Array": true, "Uint16Array": true, "Uint32Array": true, "Uint8ClampedArray": true,
	"BigInt64Array": true, "BigUint64Array": true,
	"Float16Array": true, "Float32Array": true, "Float64Array": true,
}

// NumericTypes are the names of the numeric types
// (https://webidl.spec.whatwg.org/#dfn-numeric-type).
var NumericTypes = map[string]bool{
	"byte": true, "octet": true, "short": true, "unsigned short": true, "long": true,
	"unsigned long": true, "long long": true, "unsigned long long": true, "float": true,
	"unrestricted float": true, "double": true, "unrestricted double": true,
}

// StringTypes are the names of the built-in string types
// (https://webidl.spec.whatwg.org/#dfn-string-type); enumerations are
// string types too.
var StringTypes = map[string]bool{"DOMString": true, "ByteString": true, "USVString": true}

// proseTypes are types that platform specifications define in prose rather
// than in IDL: CSSOM's CSSOMString (a string type) and HTML's WindowProxy.
var proseTypes = map[string]Category{"CSSOMString": CategoryString, "WindowProxy": CategoryInterfaceLike}

// CategoryOf is the category of https://webidl.spec.whatwg.org/#dfn-distinguishable
// step 4: it returns the category of t, typedefs followed; for a nullable
// type, the category of its inner type. A union type (or a typedef of one)
// is CategoryUnion. A [LegacyWindowAlias] name is interface-like.
func (a *Analysis) CategoryOf(t *Type) Category {
	r := a.Underlying(t)
	if r == nil {
		return CategoryUnknown
	}
	if r.Union {
		return CategoryUnion
	}
	return a.category(r)
}

// category classifies a non-union type that names no typedef.
func (a *Analysis) category(t *Type) Category {
	switch t.Generic() {
	case "":
	case "sequence", "FrozenArray", "ObservableArray":
		return CategorySequenceLike
	case "record":
		return CategoryDictionaryLike
	case "async_sequence":
		return CategoryAsyncSequence
	case "Promise":
		return CategoryPromise
	default:
		return CategoryUnknown
	}
	switch {
	case t.Name == "any":
		return CategoryAny
	case t.Name == "undefined":
		return CategoryUndefined
	case t.Name == "boolean":
		return CategoryBoolean
	case NumericTypes[t.Name]:
		return CategoryNumeric
	case t.Name == "bigint":
		return CategoryBigInt
	case StringTypes[t.Name]:
		return CategoryString
	case t.Name == "object":
		return CategoryObject
	case t.Name == "symbol":
		return CategorySymbol
	case BufferSourceTypes[t.Name]:
		return CategoryInterfaceLike
	}
	switch d := a.defs[t.Name].(type) {
	case *Enum:
		return CategoryString
	case *Callback:
		return CategoryCallbackFunction
	case *Dictionary, *CallbackInterface:
		return CategoryDictionaryLike
	case *Interface:
		if !d.Mixin {
			return CategoryInterfaceLike
		}
		return CategoryUnknown
	case nil:
		if c, ok := proseTypes[t.Name]; ok {
			return c
		}
		if _, ok := a.aliases[t.Name]; ok {
			return CategoryInterfaceLike
		}
	}
	return CategoryUnknown
}

// distinguishableCategories[x] has bit y set when the table of the
// "distinguishable" algorithm marks categories x and y (cells with a
// letter are marked; requirement (a), for two interface-like types, and
// (c), for a callback function and a dictionary-like type, are checked by
// Distinguishable).
var distinguishableCategories = func() [CategorySequenceLike + 1]uint32 {
	var t [CategorySequenceLike + 1]uint32
	set := func(x Category, ys ...Category) {
		for _, y := range ys {
			t[x] |= 1 << y
			t[y] |= 1 << x
		}
	}
	set(CategoryUndefined, CategoryBoolean, CategoryNumeric, CategoryBigInt, CategoryString, CategoryObject, CategorySymbol,
		CategoryInterfaceLike, CategoryCallbackFunction, CategoryAsyncSequence, CategorySequenceLike)
	set(CategoryBoolean, CategoryNumeric, CategoryBigInt, CategoryString, CategoryObject, CategorySymbol,
		CategoryInterfaceLike, CategoryCallbackFunction, CategoryDictionaryLike, CategoryAsyncSequence, CategorySequenceLike)
	set(CategoryNumeric, CategoryBigInt, CategoryString, CategoryObject, CategorySymbol,
		CategoryInterfaceLike, CategoryCallbackFunction, CategoryDictionaryLike, CategoryAsyncSequence, CategorySequenceLike)
	set(CategoryBigInt, CategoryString, CategoryObject, CategorySymbol,
		CategoryInterfaceLike, CategoryCallbackFunction, CategoryDictionaryLike, CategoryAsyncSequence, CategorySequenceLike)
	set(CategoryString, CategoryObject, CategorySymbol,
		CategoryInterfaceLike, CategoryCallbackFunction, CategoryDictionaryLike, CategoryAsyncSequence, CategorySequenceLike)
	set(CategoryObject, CategorySymbol)
	set(CategorySymbol, CategoryInterfaceLike, CategoryCallbackFunction, CategoryDictionaryLike, CategoryAsyncSequence, CategorySequenceLike)
	set(CategoryInterfaceLike, CategoryInterfaceLike, CategoryCallbackFunction, CategoryDictionaryLike, CategoryAsyncSequence, CategorySequenceLike)
	set(CategoryCallbackFunction, CategoryDictionaryLike, CategoryAsyncSequence, CategorySequenceLike)
	set(CategoryDictionaryLike, CategoryAsyncSequence, CategorySequenceLike)
	return t
}()

// Distinguishable is https://webidl.spec.whatwg.org/#dfn-distinguishable
// for the types x and y (typedefs followed). Names that are not defined
// are compared as interface types named so, so that one undefined name
// does not also make every overload using it indistinguishable.
func (a *Analysis) Distinguishable(x, y *Type) bool {
	// 1. If one type includes a nullable type and the other type either
	// includes a nullable type, is a union type with flattened member types
	// including a dictionary type, or is a dictionary type, return false.
	if a.includesNullable(x) && (a.includesNullable(y) || a.dictionaryIn(y) != nil) {
		return false
	}
	if a.includesNullable(y) && (a.includesNullable(x) || a.dictionaryIn(x) != nil) {
		return false
	}
	rx, ry := a.Underlying(x), a.Underlying(y)
	if rx == nil || ry == nil {
		return false
	}
	// 2. If both types are either a union type or nullable union type,
	// return true if each member type of the one is distinguishable with
	// each member type of the other, or false otherwise.
	// 3. If one type is a union type or nullable union type, return true if
	// each member type of the union type is distinguishable with the
	// non-union type, or false otherwise.
	// (Compared over the flattened member types, whose nullability step 1
	// has already accounted for.)
	if rx.Union || ry.Union {
		var bx, by [8]*Type
		fx, fy := a.FlattenedMemberTypes(bx[:0], rx), a.FlattenedMemberTypes(by[:0], ry)
		for _, m := range fx {
			for _, n := range fy {
				if !a.distinguishableInnermost(m, n) {
					return false
				}
			}
		}
		return true
	}
	// 4. Consider the two "innermost" types derived by taking each type's
	// inner type if it is an annotated type, and then taking its inner type
	// if the result is a nullable type, and decide by the table.
	return a.distinguishableInnermost(rx, ry)
}

// distinguishableInnermost is step 4 of Distinguishable for two non-union
// types that name no typedef (their nullability ignored).
func (a *Analysis) distinguishableInnermost(x, y *Type) bool {
	cx, cy := a.category(x), a.category(y)
	if cx == CategoryUnknown && x.Generic() == "" && a.defs[x.Name] == nil {
		cx = CategoryInterfaceLike
	}
	if cy == CategoryUnknown && y.Generic() == "" && a.defs[y.Name] == nil {
		cy = CategoryInterfaceLike
	}
	if cx > CategorySequenceLike || cy > CategorySequenceLike {
		return false // any, Promise and the rest are in no cell
	}
	if distinguishableCategories[cx]&(1<<cy) == 0 {
		return false
	}
	switch {
	case cx == CategoryInterfaceLike && cy == CategoryInterfaceLike:
		// (a) The two identified interface-like types are not the same, and
		// no single platform object implements both interface-like types.
		nx, ny := a.interfaceName(x.Name), a.interfaceName(y.Name)
		return nx != ny && !a.Inherits(nx, ny) && !a.Inherits(ny, nx)
	case cx == CategoryCallbackFunction && cy == CategoryDictionaryLike:
		// (c) The callback function that does not have
		// [LegacyTreatNonObjectAsNull] is distinguishable from a type in
		// the dictionary-like category.
		return !a.defs[x.Name].Attributes().Has("LegacyTreatNonObjectAsNull")
	case cy == CategoryCallbackFunction && cx == CategoryDictionaryLike:
		return !a.defs[y.Name].Attributes().Has("LegacyTreatNonObjectAsNull")
	}
	return true
}

// interfaceName maps [LegacyWindowAlias] names and WindowProxy to the
// interface they stand for.
func (a *Analysis) interfaceName(name string) string {
	if a.defs[name] == nil {
		if t, ok := a.aliases[name]; ok {
			return t
		}
		if name == "WindowProxy" {
			if _, ok := a.defs["Window"]; ok {
				return "Window"
			}
		}
	}
	return name
}

// ---------------------------------------------------------------------------
// Overloads

// Overload is one operation or constructor of an overload set.
type Overload struct {
	// Member is the *Operation or *Constructor.
	Member Member
	// Part is the definition declaring it.
	Part Part
	// Arguments are the member's arguments.
	Arguments []*Argument
	// ReturnType is the operation's return type; nil for constructors and
	// for "stringifier;".
	ReturnType *Type
}

// OverloadSet is the set of operations of an interface, mixin, callback
// interface or namespace that share an identifier (regular and static
// operations apart), or the set of its constructors
// (https://webidl.spec.whatwg.org/#idl-overloading).
type OverloadSet struct {
	// Name is the identifier, "constructor" for constructors.
	Name string
	// Static is set for static operations.
	Static bool
	// Constructor is set for the constructors.
	Constructor bool
	// Overloads are in the order of Members.
	Overloads []Overload
	// required caches requiredCount of each overload's arguments.
	required []int
}

// OverloadSets is https://webidl.spec.whatwg.org/#dfn-overload-set: it
// returns the overload sets of the merged interface, mixin,
// callback interface or namespace named name, in the order of their first
// member, constructors included. Operations without an identifier
// (unnamed special operations) are in no set.
func (a *Analysis) OverloadSets(name string) []*OverloadSet {
	var sets []*OverloadSet
	var ctors *OverloadSet
	byName := map[string]*OverloadSet{}
	for _, p := range a.Parts(name) {
		for _, m := range p.Members() {
			switch m := m.(type) {
			case *Operation:
				if m.Name == "" {
					continue
				}
				static := m.Special == "static"
				key := m.Name
				if static {
					key = "static " + key
				}
				s := byName[key]
				if s == nil {
					s = &OverloadSet{Name: m.Name, Static: static}
					byName[key] = s
					sets = append(sets, s)
				}
				s.Overloads = append(s.Overloads, Overload{m, p, m.Arguments, m.ReturnType})
			case *Constructor:
				if ctors == nil {
					ctors = &OverloadSet{Name: "constructor", Constructor: true}
					sets = append(sets, ctors)
				}
				ctors.Overloads = append(ctors.Overloads, Overload{m, p, m.Arguments, nil})
			}
		}
	}
	return sets
}

// Optionality is an argument's optionality in an effective overload set.
type Optionality int

const (
	Required Optionality = iota
	Optional
	Variadic
)

// String returns "required", "optional" or "variadic".
func (o Optionality) String() string {
	switch o {
	case Optional:
		return "optional"
	case Variadic:
		return "variadic"
	}
	return "required"
}

// EffectiveEntry is one entry (callable, type list, optionality list) of
// an effective overload set. The lists are not materialized — a variadic
// argument repeats — so that entries of operations with many arguments
// cost nothing: use Type and Optionality.
type EffectiveEntry struct {
	// Overload is the index of the callable in its OverloadSet.
	Overload int
	// Length is the length of the type list.
	Length int
	args   []*Argument
}

// Type returns the i-th type of the entry's type list (0 ≤ i < Length).
func (e EffectiveEntry) Type(i int) *Type {
	if i < len(e.args) {
		return e.args[i].Type
	}
	return e.args[len(e.args)-1].Type
}

// Optionality returns the i-th optionality value of the entry.
func (e EffectiveEntry) Optionality(i int) Optionality {
	if i >= len(e.args)-1 && len(e.args) > 0 && e.args[len(e.args)-1].Variadic {
		return Variadic
	}
	if e.args[i].Optional {
		return Optional
	}
	return Required
}

// MaxLength returns the length of the longest argument list of the set.
func (s *OverloadSet) MaxLength() int {
	n := 0
	for _, o := range s.Overloads {
		n = max(n, len(o.Arguments))
	}
	return n
}

// MinLength returns the fewest arguments any overload of the set can be
// called with (its required arguments).
func (s *OverloadSet) MinLength() int {
	n := -1
	for _, o := range s.Overloads {
		r := requiredCount(o.Arguments)
		if n < 0 || r < n {
			n = r
		}
	}
	return max(n, 0)
}

// requiredCount is the number of arguments before the first optional or
// variadic one (the shortest type list of the overload).
func requiredCount(args []*Argument) int {
	for i, x := range args {
		if x.Optional || x.Variadic {
			return i
		}
	}
	return len(args)
}

// Effective is https://webidl.spec.whatwg.org/#compute-the-effective-overload-set:
// it returns the entries of the effective overload set of s, computed for argument count max(n, s.MaxLength()), whose type lists
// have length n — the entries overload resolution considers for a call
// with n arguments when n ≤ s.MaxLength() — in the order of the set's
// overloads. An overload whose last argument is variadic has entries for
// every length from its argument count up to max(n, s.MaxLength()).
//
// The set caches what it computes from its overloads on the first call:
// do not change Overloads afterwards, nor make the first call from several
// goroutines at once.
func (s *OverloadSet) Effective(n int) []EffectiveEntry {
	if len(s.required) != len(s.Overloads) {
		s.required = make([]int, len(s.Overloads))
		for i, o := range s.Overloads {
			s.required[i] = requiredCount(o.Arguments)
		}
	}
	var out []EffectiveEntry
	for i, o := range s.Overloads {
		k := len(o.Arguments)
		variadic := k > 0 && o.Arguments[k-1].Variadic
		// An overload declared with k arguments has the entry of length k,
		// entries of every longer length if variadic, and entries of
		// length i for each trailing optional (or variadic) argument i.
		if n == k || variadic && n > k || n < k && n >= s.required[i] {
			out = append(out, EffectiveEntry{Overload: i, Length: n, args: o.Arguments})
		}
	}
	return out
}

// DistinguishingIndexBudget bounds the pairs of types DistinguishingIndex
// compares for one call, so that absurd inputs (thousands of overloads of
// thousands of arguments) cannot make it run for ever; real overload sets
// need a few dozen comparisons.
const DistinguishingIndexBudget = 200000

// DistinguishingIndex is https://webidl.spec.whatwg.org/#dfn-distinguishing-argument-index:
// it returns the distinguishing argument index of entries that all have
// the same type list length: the smallest index at which every pair of entries has distinguishable
// types. ok is false when there is none (or when the budget of
// DistinguishingIndexBudget comparisons ran out, which exhausted also
// reports). With fewer than two entries the index is 0 and ok true.
func (a *Analysis) DistinguishingIndex(entries []EffectiveEntry) (index int, ok, exhausted bool) {
	budget := DistinguishingIndexBudget
	return a.distinguishingIndex(entries, &budget)
}

// distinguishingIndex is DistinguishingIndex spending a shared budget.
func (a *Analysis) distinguishingIndex(entries []EffectiveEntry, budget *int) (index int, ok, exhausted bool) {
	if len(entries) < 2 {
		return 0, true, false
	}
	n := entries[0].Length
	for i := 0; i < n; i++ {
		all := true
		for x := 0; x < len(entries) && all; x++ {
			for y := x + 1; y < len(entries) && all; y++ {
				if *budget--; *budget < 0 {
					return 0, false, true
				}
				all = a.Distinguishable(entries[x].Type(i), entries[y].Type(i))
			}
		}
		if all {
			return i, true, false
		}
	}
	return 0, false, false
}

// ---------------------------------------------------------------------------
// Dictionaries that include themselves

// IncludesItself is https://webidl.spec.whatwg.org/#idl-dictionaries (a
// dictionary member's type must not include its dictionary): it reports
// whether a member of the dictionary named name (or of one it inherits
// from) has a type that includes the dictionary. A type
// includes dictionary D when it is D or a dictionary inheriting from D, a
// nullable type, sequence or frozen array type whose inner or element type
// includes D, a union type with a member type that includes D, a record
// type whose value type includes D, or a dictionary with a member or
// inherited member whose type includes D. Typedefs are followed. A
// dictionary that is only part of an inheritance cycle is not reported here
// (see InInheritanceCycle).
func (a *Analysis) IncludesItself(name string) bool { return a.selfIncluding[name] }

// findSelfIncludingDictionaries computes IncludesItself for every
// dictionary: the dictionaries in a cycle of the graph whose nodes are the
// dictionaries and typedefs, with an edge from a dictionary to its parent
// and to the dictionaries and typedefs its members' types name, and from a
// typedef to those its type names. (A dictionary inheriting from D
// includes what D includes, and includes D; so every dictionary on such a
// cycle includes itself.) Linear in the size of the definitions.
func (a *Analysis) findSelfIncludingDictionaries() {
	a.selfIncluding = map[string]bool{}
	ids := map[string]int{}
	var names []string
	var defs []Definition
	for _, f := range a.files {
		for _, d := range f.Definitions {
			switch d.(type) {
			case *Dictionary, *Typedef:
				name := d.DefinitionName()
				if a.defs[name] == d {
					ids[name] = len(names)
					names = append(names, name)
					defs = append(defs, d)
				}
			}
		}
	}
	if len(names) == 0 {
		return
	}
	var refs func(out []int, t *Type) []int
	refs = func(out []int, t *Type) []int {
		if t == nil {
			return out
		}
		switch {
		case t.Union:
			for _, s := range t.Subtypes() {
				out = refs(out, s)
			}
		case t.Generic() == "sequence" || t.Generic() == "FrozenArray":
			out = refs(out, t.Subtypes()[0])
		case t.Generic() == "record":
			if len(t.Subtypes()) == 2 {
				out = refs(out, t.Subtypes()[1])
			}
		case t.Generic() == "":
			if id, ok := ids[t.Name]; ok {
				out = append(out, id)
			}
		}
		return out
	}
	succ := func(v int, out []int) []int {
		switch d := defs[v].(type) {
		case *Typedef:
			return refs(out, d.Type)
		case *Dictionary:
			if id, ok := ids[d.Inheritance]; ok {
				if _, isDict := defs[id].(*Dictionary); isDict {
					out = append(out, id)
				}
			}
			for _, part := range a.DictionaryParts(d.Name) {
				for _, f := range part.Members {
					out = refs(out, f.Type)
				}
			}
		}
		return out
	}
	for _, comp := range cyclicComponents(len(names), succ) {
		for _, v := range comp {
			if d, ok := defs[v].(*Dictionary); ok && !a.cyclic[d.Name] {
				a.selfIncluding[d.Name] = true
			}
		}
	}
}

// cyclicComponents returns the strongly connected components of a graph of
// n nodes that contain a cycle (more than one node, or a node with an edge
// to itself), by Tarjan's algorithm run iteratively, so that paths of any
// length work. succ appends the successors of a node to out.
func cyclicComponents(n int, succ func(v int, out []int) []int) [][]int {
	const unvisited = -1
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = unvisited
	}
	type frame struct {
		v    int
		next int
		succ []int
	}
	var out [][]int
	var stack []int
	var call []frame
	counter := 0
	for root := 0; root < n; root++ {
		if index[root] != unvisited {
			continue
		}
		push := func(v int) {
			index[v], low[v] = counter, counter
			counter++
			stack = append(stack, v)
			onStack[v] = true
			call = append(call, frame{v: v, succ: succ(v, nil)})
		}
		push(root)
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.next < len(f.succ) {
				w := f.succ[f.next]
				f.next++
				if index[w] == unvisited {
					push(w)
				} else if onStack[w] {
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v, vs := f.v, f.succ
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := &call[len(call)-1]
				low[p.v] = min(low[p.v], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			i := len(stack) - 1
			for stack[i] != v {
				i--
			}
			comp := append([]int(nil), stack[i:]...)
			stack = stack[:i]
			for _, w := range comp {
				onStack[w] = false
			}
			self := false
			for _, w := range vs {
				self = self || w == v
			}
			if len(comp) > 1 || self {
				out = append(out, comp)
			}
		}
	}
	return out
}
