package codegen

import (
	"fmt"
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
	// WindowAliases maps [LegacyWindowAlias] names to their interface.
	WindowAliases map[string]string
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
}

// Import is IDL whose Go bindings live in another package: generated code
// refers to its definitions (inherits its interfaces, converts its
// dictionaries, enumerations and callbacks) without generating them. An
// integrator's IDL imports the engine's (package bindings) this way.
type Import struct {
	// Path is the Go import path of the package, Name its package name.
	Path, Name string
	Files      []*idl.File
}

// BindingsImport returns the Import of this module's bindings package,
// with the IDL files of dir (bindings/webidls).
func BindingsImport(dir string) (*Import, error) {
	files, err := ParseDir(dir)
	if err != nil {
		return nil, err
	}
	return &Import{Path: "github.com/gowebengine/weblocks/bindings", Name: "bindings", Files: files}, nil
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

// Load builds a model from parsed files. Files are processed in the given
// order; each definition is generated into the file of its non-partial
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
	type partial struct {
		def  idl.Definition
		file string
		imp  *Import
	}
	var partials []partial
	var includes []*idl.Includes
	seen := map[string]bool{}
	var imp *Import // the import of the file being read
	define := func(name, file string, d idl.Definition) bool {
		if seen[name] {
			m.errorAt(name, d.Pos(), "duplicate definition of %s", name)
			return false
		}
		seen[name] = true
		if imp != nil {
			m.External[name] = imp
			return true
		}
		m.FileOf[name] = file
		m.Order = append(m.Order, name)
		return true
	}
	type source struct {
		f   *idl.File
		imp *Import
	}
	var sources []source
	for _, im := range imports {
		for _, f := range im.Files {
			sources = append(sources, source{f, im})
		}
	}
	for _, f := range files {
		sources = append(sources, source{f, nil})
	}
	for _, src := range sources {
		f := src.f
		imp = src.imp
		for _, d := range f.Definitions {
			walkExtAttrs(d, normalizeExtAttrs)
		}
		for _, d := range f.Definitions {
			switch d := d.(type) {
			case *idl.Interface:
				if d.Partial {
					partials = append(partials, partial{d, f.Name, imp})
					continue
				}
				kind := "interface"
				if d.Mixin {
					kind = "mixin"
				}
				it := &Interface{Name: d.Name, Kind: kind, Parent: d.Inheritance, ExtAttrs: d.ExtAttrs.List, Def: d, File: f.Name}
				for _, mem := range d.Members {
					it.Members = append(it.Members, &MemberInfo{Member: mem})
				}
				if d.Mixin {
					if seen["mixin "+d.Name] {
						m.errorAt(d.Name, d.Pos(), "duplicate mixin %s", d.Name)
						continue
					}
					seen["mixin "+d.Name] = true
					m.Mixins[d.Name] = it
					if imp != nil {
						m.External[d.Name] = imp
					}
					continue
				}
				if define(d.Name, f.Name, d) {
					m.Interfaces[d.Name] = it
				}
			case *idl.CallbackInterface:
				it := &Interface{Name: d.Name, Kind: "callback interface", ExtAttrs: d.ExtAttrs.List, Def: d, File: f.Name}
				for _, mem := range d.Members {
					it.Members = append(it.Members, &MemberInfo{Member: mem})
				}
				if define(d.Name, f.Name, d) {
					m.Interfaces[d.Name] = it
				}
			case *idl.Namespace:
				if d.Partial {
					partials = append(partials, partial{d, f.Name, imp})
					continue
				}
				it := &Interface{Name: d.Name, Kind: "namespace", ExtAttrs: d.ExtAttrs.List, Def: d, File: f.Name}
				for _, mem := range d.Members {
					it.Members = append(it.Members, &MemberInfo{Member: mem})
				}
				if define(d.Name, f.Name, d) {
					m.Interfaces[d.Name] = it
				}
			case *idl.Dictionary:
				if d.Partial {
					partials = append(partials, partial{d, f.Name, imp})
					continue
				}
				if define(d.Name, f.Name, d) {
					m.Dictionaries[d.Name] = &Dictionary{Name: d.Name, Parent: d.Inheritance, Members: append([]*idl.Field(nil), d.Members...), ExtAttrs: d.ExtAttrs.List, File: f.Name}
				}
			case *idl.Enum:
				if define(d.Name, f.Name, d) {
					m.Enums[d.Name] = d
				}
			case *idl.Typedef:
				if define(d.Name, f.Name, d) {
					m.Typedefs[d.Name] = d
				}
			case *idl.Callback:
				if define(d.Name, f.Name, d) {
					m.Callbacks[d.Name] = d
				}
			case *idl.Includes:
				if imp == nil && m.External[d.Target] != nil {
					m.errorAt(d.Target, d.Pos(), "%s includes %s: %s is imported from %s, whose members cannot be extended here", d.Target, d.Mixin, d.Target, m.External[d.Target].Path)
					continue
				}
				includes = append(includes, d)
			}
		}
	}
	// Merge partials: their members carry the partial's exposure.
	for _, p := range partials {
		if name := p.def.DefinitionName(); p.imp == nil && m.External[name] != nil {
			m.errorAt("partial "+name, p.def.Pos(), "partial %s: %s is imported from %s, whose members cannot be extended here", name, name, m.External[name].Path)
			continue
		}
		switch d := p.def.(type) {
		case *idl.Interface:
			var target *Interface
			if d.Mixin {
				target = m.Mixins[d.Name]
			} else {
				target = m.Interfaces[d.Name]
			}
			if target == nil {
				// A partial of something not in the input: nothing to
				// generate, but say so.
				m.errorAt("partial "+d.Name, d.Pos(), "partial %s has no definition to merge into", d.Name)
				continue
			}
			m.checkPartialAttrs(target.Name, d.ExtAttrs.List)
			exp, sec := exposedOf(d.ExtAttrs.List), hasAttr(d.ExtAttrs.List, "SecureContext")
			for _, mem := range d.Members {
				target.Members = append(target.Members, &MemberInfo{Member: mem, Exposed: exp, Secure: sec})
			}
		case *idl.Namespace:
			target := m.Interfaces[d.Name]
			if target == nil || target.Kind != "namespace" {
				m.errorAt("partial "+d.Name, d.Pos(), "partial namespace %s has no definition to merge into", d.Name)
				continue
			}
			exp, sec := exposedOf(d.ExtAttrs.List), hasAttr(d.ExtAttrs.List, "SecureContext")
			for _, mem := range d.Members {
				target.Members = append(target.Members, &MemberInfo{Member: mem, Exposed: exp, Secure: sec})
			}
		case *idl.Dictionary:
			target := m.Dictionaries[d.Name]
			if target == nil {
				m.errorAt("partial "+d.Name, d.Pos(), "partial dictionary %s has no definition to merge into", d.Name)
				continue
			}
			target.Members = append(target.Members, d.Members...)
		}
	}
	// includes: copy mixin members, with the mixin's (or the partial
	// mixin's) exposure, into the interface.
	for _, inc := range includes {
		target := m.Interfaces[inc.Target]
		mixin := m.Mixins[inc.Mixin]
		if target == nil || mixin == nil {
			m.errorAt(inc.Target, inc.Pos(), "%s includes %s: unknown interface or mixin", inc.Target, inc.Mixin)
			continue
		}
		m.IncludedBy[mixin.Name] = append(m.IncludedBy[mixin.Name], target.Name)
		mexp, msec := exposedOf(mixin.ExtAttrs), hasAttr(mixin.ExtAttrs, "SecureContext")
		for _, mem := range mixin.Members {
			mi := *mem
			mi.From = mixin.Name
			if mi.Exposed == nil {
				mi.Exposed = mexp
			}
			mi.Secure = mi.Secure || msec
			target.Members = append(target.Members, &mi)
		}
	}
	// Extended attributes that apply to a type but are written on the
	// attribute, argument or dictionary member move to the type.
	for _, f := range files {
		for _, d := range f.Definitions {
			liftTypeAttrs(d)
		}
	}
	m.WindowAliases = map[string]string{}
	for _, it := range m.Interfaces {
		it.Exposed = exposedOf(it.ExtAttrs)
		it.Secure = hasAttr(it.ExtAttrs, "SecureContext")
		if a := getAttr(it.ExtAttrs, "LegacyWindowAlias"); a != nil && a.RHS != nil {
			if a.RHS.IsList() {
				for _, v := range a.RHS.List {
					m.WindowAliases[v.Value] = it.Name
				}
			} else {
				m.WindowAliases[a.RHS.Value] = it.Name
			}
		}
	}
	sort.Strings(m.Order)
	return m
}

func (m *Model) checkPartialAttrs(def string, attrs []*idl.ExtendedAttribute) {
	for _, a := range attrs {
		if _, ok := supportedExtAttrs[a.Name]; !ok {
			m.errorAt(def, a.Pos(), "unsupported extended attribute [%s]", a.Name)
		}
	}
}

// ResolveType follows typedefs: it returns the type with typedef names
// replaced by their definitions (nullability and extended attributes of
// the use site kept).
func (m *Model) ResolveType(t *idl.Type) (*idl.Type, error) {
	return m.resolve(t, 0)
}

func (m *Model) resolve(t *idl.Type, depth int) (*idl.Type, error) {
	if depth > 50 {
		return nil, fmt.Errorf("typedef cycle at %s", t)
	}
	if t == nil {
		return nil, nil
	}
	switch {
	case t.Union || t.Generic != "":
		c := *t
		c.Subtypes = make([]*idl.Type, len(t.Subtypes))
		for i, s := range t.Subtypes {
			r, err := m.resolve(s, depth+1)
			if err != nil {
				return nil, err
			}
			c.Subtypes[i] = r
		}
		return &c, nil
	}
	td, ok := m.Typedefs[t.Name]
	if !ok {
		return t, nil
	}
	r, err := m.resolve(td.Type, depth+1)
	if err != nil {
		return nil, err
	}
	c := *r
	c.Nullable = r.Nullable || t.Nullable
	c.ExtAttrs.List = append(append([]*idl.ExtendedAttribute(nil), t.ExtAttrs.List...), r.ExtAttrs.List...)
	return &c, nil
}

// Ancestors returns the inheritance chain of an interface, nearest first.
func (m *Model) Ancestors(name string) []*Interface {
	var out []*Interface
	seen := map[string]bool{name: true}
	for it := m.Interfaces[name]; it != nil && it.Parent != ""; {
		if seen[it.Parent] {
			break
		}
		seen[it.Parent] = true
		p := m.Interfaces[it.Parent]
		if p == nil {
			break
		}
		out = append(out, p)
		it = p
	}
	return out
}

// DictionaryMembers returns the members of a dictionary in conversion
// order: inherited dictionaries' members first (most distant first), then
// each dictionary's own members in lexicographic order.
func (m *Model) DictionaryMembers(name string) [][]*idl.Field {
	var chain []*Dictionary
	seen := map[string]bool{}
	for d := m.Dictionaries[name]; d != nil && !seen[d.Name]; d = m.Dictionaries[d.Parent] {
		seen[d.Name] = true
		chain = append([]*Dictionary{d}, chain...)
	}
	var out [][]*idl.Field
	for _, d := range chain {
		fs := append([]*idl.Field(nil), d.Members...)
		sort.SliceStable(fs, func(i, j int) bool { return lessCodeUnits(fs[i].Name, fs[j].Name) })
		out = append(out, fs)
	}
	return out
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
	for _, a := range attrs.List {
		if typeAttrNames[a.Name] {
			if !t.ExtAttrs.Has(a.Name) {
				t.ExtAttrs.List = append(t.ExtAttrs.List, a)
			}
		} else {
			keep = append(keep, a)
		}
	}
	attrs.List = keep
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
		for _, a := range d.ExtAttrs.List {
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
