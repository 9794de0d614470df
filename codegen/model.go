package codegen

import (
	"slices"
	"sort"
	"strings"

	"github.com/gowebengine/weblocks/idl"
)

// Model is the merged view of a set of IDL files: partial definitions
// merged into their definitions, mixin members copied into the interfaces
// that include them, typedefs resolvable.
type Model struct {
	Interfaces   map[string]*Interface // interfaces, callback interfaces and namespaces
	Dictionaries map[string]*Dictionary
	Enums        map[string]*idl.Enum
	Typedefs     map[string]*idl.Typedef
	Callbacks    map[string]*idl.Callback
	Mixins       map[string]*Interface
	// IncludedBy maps a mixin to the interfaces that include it.
	IncludedBy map[string][]string
	// FileOf maps a definition name to the source file it is generated in.
	FileOf map[string]string
	// Errors per definition name (construct not supported, unknown
	// extended attribute, unresolvable type, ...).
	Errors map[string][]error
	// Order is every definition name to generate, in a deterministic
	// order (imported definitions are not in it).
	Order []string
	// External maps the names of imported definitions to their import.
	External map[string]*Import
	imports  []*Import
	// A is the semantic analysis of the input and imported IDL.
	A *idl.Analysis
}

// Import is IDL whose Go bindings live in another package: generated code
// refers to its definitions (inherits its interfaces, converts its
// dictionaries, enumerations and callbacks) without generating them. An
// integrator's IDL imports the engine's (package bindings) this way.
type Import struct {
	// Path is the Go import path of the package, Name its package name.
	Path, Name string
	Files      []*idl.File
	// Impls are the Go types implementing the package's interfaces (its
	// implementations file), or nil: an interface whose Go type also
	// implements all its descendants there cannot be inherited here
	// (its Methods have the unexported idlImpl).
	Impls map[string]string
}

// qualify returns the Go name of a definition as generated code refers to
// it: GoName, qualified with the package of an imported definition.
func (m *Model) qualify(name string) string {
	if imp := m.External[name]; imp != nil {
		return imp.Name + "." + GoName(name)
	}
	return GoName(name)
}

// Interface is a merged interface, interface mixin, callback interface or
// namespace.
type Interface struct {
	Name     string
	Kind     string // "interface", "mixin", "callback interface", "namespace"
	Parent   string
	ExtAttrs []*idl.ExtendedAttribute
	Members  []*MemberInfo
	Def      idl.Definition
	File     string
	Exposed  []string
	Secure   bool
}

// MemberInfo is a member with the exposure of the partial definition or
// mixin that declared it.
type MemberInfo struct {
	Member  idl.Member
	Exposed []string // nil: as the interface
	Secure  bool
	From    string // mixin name, or ""
}

// Dictionary is a merged dictionary.
type Dictionary struct {
	Name     string
	Parent   string
	Members  []*idl.Field
	ExtAttrs []*idl.ExtendedAttribute
	File     string
}

// exposedOf reads an [Exposed] extended attribute: nil when absent.
func exposedOf(attrs []*idl.ExtendedAttribute) []string {
	for _, a := range attrs {
		if a.Name != "Exposed" || a.RHS == nil {
			continue
		}
		if a.RHS.Kind == "*" {
			return []string{"*"}
		}
		if a.RHS.IsList() {
			var out []string
			for _, v := range a.RHS.List {
				out = append(out, v.Value)
			}
			return out
		}
		return []string{a.RHS.Value}
	}
	return nil
}

func hasAttr(attrs []*idl.ExtendedAttribute, name string) bool {
	for _, a := range attrs {
		if a.Name == name {
			return true
		}
	}
	return false
}

func getAttr(attrs []*idl.ExtendedAttribute, name string) *idl.ExtendedAttribute {
	for _, a := range attrs {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Load builds a model from parsed files, with the idl package's semantic
// layer (idl.Analyze) merging partial definitions, mixins and typedefs.
// Each definition is generated into the file of its non-partial
// definition. The definitions of imports can be referred to and are not
// generated.
func Load(files []*idl.File, imports ...*Import) *Model {
	m := &Model{
		External:     map[string]*Import{},
		imports:      imports,
		Interfaces:   map[string]*Interface{},
		Dictionaries: map[string]*Dictionary{},
		Enums:        map[string]*idl.Enum{},
		Typedefs:     map[string]*idl.Typedef{},
		Callbacks:    map[string]*idl.Callback{},
		Mixins:       map[string]*Interface{},
		IncludedBy:   map[string][]string{},
		FileOf:       map[string]string{},
	}
	type source struct {
		f   *idl.File
		imp *Import
	}
	var sources []source
	var all []*idl.File
	for _, im := range imports {
		for _, f := range im.Files {
			sources = append(sources, source{f, im})
			all = append(all, f)
		}
	}
	for _, f := range files {
		sources = append(sources, source{f, nil})
		all = append(all, f)
	}
	for _, f := range all {
		for _, d := range f.Definitions {
			walkExtAttrs(d, normalizeExtAttrs)
			// Extended attributes that apply to a type but are written on
			// the attribute, argument or dictionary member move to the
			// type.
			liftTypeAttrs(d)
		}
	}
	a := idl.Analyze(all...)
	m.A = a
	for _, src := range sources {
		for _, d := range src.f.Definitions {
			name := d.DefinitionName()
			if _, ok := d.(*idl.Includes); ok {
				continue
			}
			if idl.IsPartial(d) {
				m.checkPartial(d, src.imp)
				continue
			}
			if a.Lookup(name) != d {
				if src.imp == nil {
					m.errorAt(name, d.Pos(), "duplicate definition of %s", name)
				}
				continue
			}
			if src.imp != nil {
				m.External[name] = src.imp
			} else if it, ok := d.(*idl.Interface); !ok || !it.Mixin {
				m.FileOf[name] = src.f.Name
				m.Order = append(m.Order, name)
			}
			switch d := d.(type) {
			case *idl.Interface:
				it := m.merged(name, "interface", d, d.Inheritance, d.ExtAttrs.List())
				if d.Mixin {
					it.Kind = "mixin"
					m.Mixins[name] = it
				} else {
					m.Interfaces[name] = it
				}
			case *idl.CallbackInterface:
				m.Interfaces[name] = m.merged(name, "callback interface", d, "", d.ExtAttrs.List())
			case *idl.Namespace:
				m.Interfaces[name] = m.merged(name, "namespace", d, "", d.ExtAttrs.List())
			case *idl.Dictionary:
				dict := &Dictionary{Name: name, Parent: d.Inheritance, ExtAttrs: d.ExtAttrs.List(), File: src.f.Name}
				for _, p := range a.DictionaryParts(name) {
					dict.Members = append(dict.Members, p.Members...)
				}
				m.Dictionaries[name] = dict
			case *idl.Enum:
				m.Enums[name] = d
			case *idl.Typedef:
				m.Typedefs[name] = d
			case *idl.Callback:
				m.Callbacks[name] = d
			}
		}
	}
	// includes statements: the mixins' members are in the interfaces'
	// (Analysis.Members); here the statements that cannot be generated.
	for _, src := range sources {
		for _, d := range src.f.Definitions {
			inc, ok := d.(*idl.Includes)
			if !ok || src.imp != nil {
				continue
			}
			switch {
			case m.External[inc.Target] != nil:
				m.errorAt(inc.Target, inc.Pos(), "%s includes %s: %s is imported from %s, whose members cannot be extended here", inc.Target, inc.Mixin, inc.Target, m.External[inc.Target].Path)
			case m.Interfaces[inc.Target] == nil || m.Mixins[inc.Mixin] == nil:
				m.errorAt(inc.Target, inc.Pos(), "%s includes %s: unknown interface or mixin", inc.Target, inc.Mixin)
			}
		}
	}
	for name := range m.Mixins {
		for _, target := range a.IncludedBy(name) {
			if m.Interfaces[target] != nil {
				m.IncludedBy[name] = append(m.IncludedBy[name], target)
			}
		}
	}
	sort.Strings(m.Order)
	return m
}

// merged builds the merged view of an interface-like definition: its
// members from every part (Analysis.Members), each with the exposure of
// the partial definition or mixin declaring it.
func (m *Model) merged(name, kind string, d idl.Definition, parent string, attrs []*idl.ExtendedAttribute) *Interface {
	it := &Interface{Name: name, Kind: kind, Parent: parent, ExtAttrs: attrs, Def: d,
		Exposed: exposedOf(attrs), Secure: hasAttr(attrs, "SecureContext")}
	for _, ref := range m.A.Members(name) {
		mi := &MemberInfo{Member: ref.Member}
		if ref.Part.Def != d {
			pa := ref.Part.Def.Attributes().List()
			mi.Exposed, mi.Secure = exposedOf(pa), hasAttr(pa, "SecureContext")
		}
		if mx := ref.Part.Mixin; mx != nil {
			mi.From = mx.Name
			if mi.Exposed == nil {
				mi.Exposed = exposedOf(mx.ExtAttrs.List())
			}
			mi.Secure = mi.Secure || hasAttr(mx.ExtAttrs.List(), "SecureContext")
		}
		it.Members = append(it.Members, mi)
	}
	return it
}

// checkPartial reports a partial definition of the input that has no
// definition to merge into, or whose definition is imported.
func (m *Model) checkPartial(d idl.Definition, imp *Import) {
	if imp != nil {
		return
	}
	name := d.DefinitionName()
	target := m.A.Lookup(name)
	switch {
	case target == nil || idl.KindOf(target) != idl.KindOf(d):
		m.errorAt("partial "+name, d.Pos(), "partial %s has no definition to merge into", name)
	case m.External[name] != nil:
		m.errorAt("partial "+name, d.Pos(), "partial %s: %s is imported from %s, whose members cannot be extended here", name, name, m.External[name].Path)
	}
}

// ResolveType follows the typedef names at the top of t
// (https://webidl.spec.whatwg.org/#idl-typedefs): a name of a typedef
// gives the type at the end of its chain of typedefs, nullable when a
// link is, with the extended attributes of the use site first. Member
// types of unions and type arguments are left as written, so that the
// typedef names in them still name their Go types (sequence<BlobPart> is
// a []BlobPart).
func (m *Model) ResolveType(t *idl.Type) (*idl.Type, error) {
	if t == nil || t.Union || t.Generic() != "" {
		return t, nil
	}
	if _, ok := m.A.Lookup(t.Name).(*idl.Typedef); !ok {
		return t, nil
	}
	u := m.A.Underlying(t)
	if u == nil {
		return nil, posErrorf(t.Pos(), "typedef cycle at %s", t)
	}
	var attrs []*idl.ExtendedAttribute
	nullable := false
	for cur := t; cur != u; {
		td, ok := m.A.Lookup(cur.Name).(*idl.Typedef)
		if !ok || cur.Union || cur.Generic() != "" {
			break
		}
		nullable = nullable || cur.Nullable
		attrs = append(attrs, cur.ExtAttrs.List()...)
		cur = td.Type
	}
	if !nullable && len(attrs) == 0 {
		return u, nil
	}
	c := *u
	c.Nullable = c.Nullable || nullable
	c.ExtAttrs.SetList(append(attrs, u.ExtAttrs.List()...))
	return &c, nil
}

// Ancestors returns the inheritance chain of an interface, nearest first.
func (m *Model) Ancestors(name string) []*Interface {
	var out []*Interface
	for _, d := range m.A.Ancestors(name) {
		if it := m.Interfaces[d.DefinitionName()]; it != nil {
			out = append(out, it)
		}
	}
	return out
}

// DictionaryMembers returns the members of a dictionary in conversion
// order: inherited dictionaries' members first (most distant first), then
// each dictionary's own members in lexicographic order.
func (m *Model) DictionaryMembers(name string) [][]*idl.Field {
	d := m.Dictionaries[name]
	if d == nil {
		return nil
	}
	chain := []*Dictionary{d}
	for _, a := range m.A.Ancestors(name) {
		if p := m.Dictionaries[a.DefinitionName()]; p != nil {
			chain = append(chain, p)
		}
	}
	slices.Reverse(chain)
	var out [][]*idl.Field
	for _, d := range chain {
		out = append(out, sortedMembers(d))
	}
	return out
}

// OwnDictionaryMembers returns the members a dictionary declares itself
// (the last list of DictionaryMembers), in lexicographic order.
func (m *Model) OwnDictionaryMembers(name string) []*idl.Field {
	if d := m.Dictionaries[name]; d != nil {
		return sortedMembers(d)
	}
	return nil
}

func sortedMembers(d *Dictionary) []*idl.Field {
	fs := append([]*idl.Field(nil), d.Members...)
	sort.SliceStable(fs, func(i, j int) bool { return lessCodeUnits(fs[i].Name, fs[j].Name) })
	return fs
}

// lessCodeUnits compares identifiers as sequences of code units (IDL
// identifiers are ASCII, so byte order is code unit order).
func lessCodeUnits(a, b string) bool { return strings.Compare(a, b) < 0 }

// typeAttrNames are the extended attributes associated with types.
var typeAttrNames = map[string]bool{"EnforceRange": true, "Clamp": true, "LegacyNullToEmptyString": true, "AllowShared": true, "AllowResizable": true}

func lift(attrs *idl.ExtAttrList, t *idl.Type) {
	if t == nil {
		return
	}
	var keep []*idl.ExtendedAttribute
	for _, a := range attrs.List() {
		if typeAttrNames[a.Name] {
			if !t.ExtAttrs.Has(a.Name) {
				t.ExtAttrs.SetList(append(t.ExtAttrs.List(), a))
			}
		} else {
			keep = append(keep, a)
		}
	}
	attrs.SetList(keep)
}

func liftArgs(args []*idl.Argument) {
	for _, a := range args {
		lift(&a.ExtAttrs, a.Type)
	}
}

func liftMembers(ms []idl.Member) {
	for _, m := range ms {
		switch m := m.(type) {
		case *idl.Attribute:
			lift(&m.ExtAttrs, m.Type)
		case *idl.Operation:
			liftArgs(m.Arguments)
		case *idl.Constructor:
			liftArgs(m.Arguments)
		case *idl.Iterable:
			liftArgs(m.Arguments)
		}
	}
}

func liftTypeAttrs(d idl.Definition) {
	switch d := d.(type) {
	case *idl.Interface:
		liftMembers(d.Members)
		for _, a := range d.ExtAttrs.List() {
			liftArgs(a.Arguments)
		}
	case *idl.CallbackInterface:
		liftMembers(d.Members)
	case *idl.Namespace:
		liftMembers(d.Members)
	case *idl.Dictionary:
		for _, f := range d.Members {
			lift(&f.ExtAttrs, f.Type)
		}
	case *idl.Callback:
		liftArgs(d.Arguments)
	case *idl.Typedef:
		lift(&d.ExtAttrs, d.Type)
	}
}
