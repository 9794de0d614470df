package codegen

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/gowebengine/weblocks/idl"
)

// opDecl is one operation (or constructor) of an overload set.
type opDecl struct {
	args   []*idl.Argument
	ret    *idl.Type // nil for constructors
	method string    // Go method name
	mi     *MemberInfo
	// params are the Go method's parameters: args, or for overloads
	// merged into one method (see mergeOverloads) the longest argument
	// list, its arguments past the shortest one optional.
	params []*idl.Argument
	// declares is false for an overload whose Go method another overload
	// of its merge group declares.
	declares bool
	group    []*opDecl // the merge group, declaring overload first
}

// opSet is an overload set: the operations sharing an identifier (and
// staticness), or the constructors, as idl.Analysis.OverloadSets gives
// them (set), less repeated declarations.
type opSet struct {
	name   string
	static bool
	ctor   bool
	ops    []*opDecl
	set    *idl.OverloadSet
}

func (g *Generator) overloadSets(it *Interface) []*opSet {
	infos := map[idl.Member]*MemberInfo{}
	for _, mi := range it.Members {
		infos[mi.Member] = mi
	}
	var sets []*opSet
	for _, is := range g.m.A.OverloadSets(it.Name) {
		s := &opSet{name: is.Name, static: is.Static || it.Kind == "namespace", ctor: is.Constructor,
			set: &idl.OverloadSet{Name: is.Name, Static: is.Static, Constructor: is.Constructor}}
		for _, o := range is.Overloads {
			if op, ok := o.Member.(*idl.Operation); ok && op.Name == "toJSON" && hasAttr(op.ExtAttrs.List(), "Default") {
				continue // the binding's [Default] toJSON
			}
			if hasSameSignature(s.ops, o.Arguments) {
				continue
			}
			s.ops = append(s.ops, &opDecl{args: o.Arguments, ret: o.ReturnType, mi: infos[o.Member]})
			s.set.Overloads = append(s.set.Overloads, o)
		}
		if len(s.ops) > 0 {
			sets = append(sets, s)
		}
	}
	for _, s := range sets {
		mergeOverloads(s)
		nameOverloads(s)
	}
	return sets
}

// mergeOverloads gives one Go method to the overloads whose argument
// lists are prefixes of one another (alert() and alert(message)): same
// types and optionality where both have arguments, the shorter without
// optional or variadic arguments, the same return type. The method takes
// the longest list, its arguments past the shortest optional; each
// overload calls it with what it was called with.
func mergeOverloads(s *opSet) {
	sig := func(a *idl.Argument) string { return fmt.Sprintf("%v %v %s", a.Optional, a.Variadic, a.Type) }
	prefix := func(short, long *opDecl) bool {
		if len(short.args) > len(long.args) || fmt.Sprint(short.ret) != fmt.Sprint(long.ret) {
			return false
		}
		for j, a := range short.args {
			if a.Optional || a.Variadic || sig(a) != sig(long.args[j]) {
				return false
			}
		}
		return true
	}
	var groups [][]*opDecl
	for _, op := range s.ops {
		placed := false
		for gi, grp := range groups {
			lead := grp[0]
			switch {
			case prefix(op, lead):
				groups[gi] = append(grp, op)
				placed = true
			case prefix(lead, op) && allPrefix(grp, op, prefix):
				groups[gi] = append([]*opDecl{op}, grp...)
				placed = true
			}
			if placed {
				break
			}
		}
		if !placed {
			groups = append(groups, []*opDecl{op})
		}
	}
	for _, grp := range groups {
		lead := grp[0]
		shortest := len(lead.args)
		for _, op := range grp {
			shortest = min(shortest, len(op.args))
		}
		lead.params = lead.args
		if len(grp) > 1 {
			lead.params = make([]*idl.Argument, len(lead.args))
			for j, a := range lead.args {
				if j >= shortest && !a.Optional && !a.Variadic {
					c := *a
					c.Optional = true
					a = &c
				}
				lead.params[j] = a
			}
		}
		for i, op := range grp {
			op.declares = i == 0
			op.group = grp
			op.params = lead.params
		}
	}
}

func allPrefix(grp []*opDecl, long *opDecl, prefix func(a, b *opDecl) bool) bool {
	for _, op := range grp {
		if !prefix(op, long) {
			return false
		}
	}
	return true
}

// nameOverloads names the Go methods of an overload set: the IDL name for
// one method; for several, the IDL name "With" the first argument that
// tells the method's overloads from every other method's (requestWithOptions
// for request(name, options, callback) beside request(name, callback)).
func nameOverloads(s *opSet) {
	base := GoName(s.name)
	if s.ctor {
		base = "Constructor"
	}
	var leads []*opDecl
	for _, op := range s.ops {
		if op.declares {
			leads = append(leads, op)
		}
	}
	argAt := func(op *opDecl, j int) string {
		if j < len(op.params) {
			return fmt.Sprintf("%v %s", op.params[j].Variadic, op.params[j].Type)
		}
		return ""
	}
	used := map[string]bool{}
	for _, op := range leads {
		name := base
		if len(leads) > 1 {
			name = ""
			for j := range op.params {
				distinct := true
				for _, other := range leads {
					if other != op && argAt(other, j) == argAt(op, j) {
						distinct = false
					}
				}
				if distinct {
					name = base + "With" + GoName(op.params[j].Name())
					break
				}
			}
			if name == "" || used[name] {
				name = base + "With"
				for j, a := range op.params {
					if j > 0 {
						name += "And"
					}
					name += GoName(a.Name())
				}
				if len(op.params) == 0 {
					name = base + "WithNoArguments"
				}
			}
			for used[name] {
				name += "_"
			}
		}
		used[name] = true
		for _, m := range op.group {
			m.method = name
		}
	}
}

// entry is an item of an effective overload set.
type entry struct {
	op       int
	types    []*tinfo
	optional []bool
}

// effective is the effective overload set by argument count, with the
// distinguishing argument index of each count that has several entries.
type effective struct {
	maxArg  int
	byCount map[int][]entry
	dist    map[int]int
	minArgs int
}

// effectiveOverloads computes the effective overload set of an overload
// set for every argument count and their distinguishing argument indexes
// (idl.OverloadSet.Effective, idl.Analysis.DistinguishingIndex), with the
// generator's types.
func (g *Generator) effectiveOverloads(s *opSet) (*effective, error) {
	e := &effective{byCount: map[int][]entry{}, dist: map[int]int{}, maxArg: s.set.MaxLength(), minArgs: s.set.MinLength()}
	for k := 0; k <= e.maxArg; k++ {
		es := s.set.Effective(k)
		for _, x := range es {
			en := entry{op: x.Overload}
			for i := 0; i < k; i++ {
				ti, err := g.typeOf(x.Type(i))
				if err != nil {
					return nil, err
				}
				en.types = append(en.types, ti)
				en.optional = append(en.optional, x.Optionality(i) != idl.Required)
			}
			e.byCount[k] = append(e.byCount[k], en)
		}
		if len(es) < 2 {
			continue
		}
		d, ok, _ := g.m.A.DistinguishingIndex(es)
		if !ok {
			return nil, posErrorf(s.ops[0].mi.Member.Pos(), "overloads of %s with %d arguments are not distinguishable", s.name, k)
		}
		e.dist[k] = d
	}
	return e, nil
}

// optionalValue is the value for an optional parameter (without default)
// of the Go variable pn holding a value of type ti.
func optionalValue(ti *tinfo, pn string) string {
	if ti.nilable {
		return pn
	}
	return someExpr(ti, pn)
}

// absentValue is the value for a parameter of a merged method that the
// overload called does not have: its default, or absent.
func (g *Generator) absentValue(p *idl.Argument) string {
	ti := g.mustType(p.Type)
	switch {
	case p.Variadic || ti.nilable || ti.byPointer():
		return "nil"
	case p.Default != nil:
		return g.defaultExpr(ti, p.Default)
	}
	return optionalType(ti, false) + "{}"
}

// methodNames assigns the Go method names of an interface's Methods
// interface, resolving collisions.
type namer struct{ used map[string]bool }

func (n *namer) name(s string) string {
	for n.used[s] {
		s += "_"
	}
	n.used[s] = true
	return s
}

func retDecl(ti *tinfo) string {
	if ti == nil || ti.cat == catUndefined {
		return "error"
	}
	return "(" + ti.goType + ", error)"
}

// argDecls returns the Go parameter declarations of IDL arguments.
func (g *Generator) argDecls(args []*idl.Argument) []string {
	var out []string
	for _, a := range args {
		ti := g.mustType(a.Type)
		pn := "arg" + GoName(a.Name())
		switch {
		case a.Variadic:
			out = append(out, pn+" []"+ti.goType)
		case a.Optional && a.Default == nil:
			out = append(out, pn+" "+optionalType(ti, false))
		default:
			out = append(out, pn+" "+ti.goType)
		}
	}
	return out
}

// attrInfo is a regular or static attribute with its Go method names.
type attrInfo struct {
	a      *idl.Attribute
	mi     *MemberInfo
	ti     *tinfo
	getter string
	setter string // "" when no Go setter
	static bool
}

func memberExposure(mi *MemberInfo) (exp []string, secure bool, coi bool) {
	attrs := mi.Member.Attributes().List()
	exp = exposedOf(attrs)
	if exp == nil {
		exp = mi.Exposed
	}
	return exp, mi.Secure || hasAttr(attrs, "SecureContext"), hasAttr(attrs, "CrossOriginIsolated")
}

func (g *Generator) emitNamespace(b *bytes.Buffer, it *Interface) {
	g.emitInterfaceLike(b, it)
}

func (g *Generator) emitInterface(b *bytes.Buffer, it *Interface) {
	g.emitInterfaceLike(b, it)
}

// ifaceGen is the generation of one interface or namespace: what
// collect found, shared by the steps emitting the Methods and Statics
// interfaces and the definition.
type ifaceGen struct {
	g                          *Generator
	b                          *bytes.Buffer
	it                         *Interface
	n                          string // Go name
	isNS                       bool
	methods, statics           *namer
	sets                       []*opSet
	attrs                      []*attrInfo
	iter                       *idl.Iterable
	maplike                    *idl.Maplike
	setlike                    *idl.Setlike
	stringifier                *MemberInfo // bare stringifier / stringifier op / attribute
	defaultToJSON              bool
	getters, setters, deleters map[string]*special
	factories                  []*opSet // [LegacyFactoryFunction]s
	hasStatics                 bool
}

func (x *ifaceGen) w(format string, args ...any) { fmt.Fprintf(x.b, format, args...) }

// emitInterfaceLike writes an interface or namespace: its Methods
// interface (implemented per object), its Statics interface
// (constructors, static and namespace members) and the function building
// its webidl.InterfaceDef.
func (g *Generator) emitInterfaceLike(b *bytes.Buffer, it *Interface) {
	x := &ifaceGen{g: g, b: b, it: it, n: GoName(it.Name), isNS: it.Kind == "namespace"}
	x.collect()
	if !x.isNS {
		x.emitMethodsInterface()
	}
	x.emitStaticsInterface()
	x.emitDefinition()
}

// collect names the Go methods of the members and sorts them by kind.
func (x *ifaceGen) collect() {
	g, it := x.g, x.it
	x.methods = &namer{used: map[string]bool{}}
	x.statics = &namer{used: map[string]bool{}}
	x.sets = g.overloadSets(it)
	methods, statics, sets := x.methods, x.statics, x.sets
	// Reserve operation names first so that setters yield to them.
	for _, s := range sets {
		for _, op := range s.ops {
			if !op.declares {
				continue
			}
			nm := methods
			if s.static || s.ctor {
				nm = statics
			}
			name := nm.name(op.method)
			for _, m := range op.group {
				m.method = name
			}
		}
	}
	for _, mi := range it.Members {
		switch mem := mi.Member.(type) {
		case *idl.Attribute:
			ai := &attrInfo{a: mem, mi: mi, ti: g.mustType(mem.Type), static: mem.Special == "static" || x.isNS}
			nm := statics
			if !ai.static {
				nm = methods
			}
			if ai.ti.name == "ObservableArray" {
				// Observable arrays: the binding keeps the backing list;
				// the implementation gets the set/delete hooks.
				ai.getter = nm.name("SetIndexedValue" + GoName(mem.Name))
				ai.setter = nm.name("DeleteIndexedValue" + GoName(mem.Name))
			} else {
				ai.getter = nm.name(GoName(mem.Name))
				if !mem.Readonly {
					ai.setter = nm.name("Set" + GoName(mem.Name))
				}
			}
			x.attrs = append(x.attrs, ai)
			if mem.Special == "stringifier" {
				x.stringifier = mi
			}
		case *idl.Operation:
			if mem.Special == "stringifier" {
				x.stringifier = mi
			}
			if mem.Name == "toJSON" && hasAttr(mem.ExtAttrs.List(), "Default") {
				x.defaultToJSON = true
			}
		case *idl.Iterable:
			x.iter = mem
		case *idl.Maplike:
			x.maplike = mem
		case *idl.Setlike:
			x.setlike = mem
		}
	}
	x.getters, x.setters, x.deleters = g.specials(it, sets, methods)
	for _, a := range it.ExtAttrs {
		if a.Name == "LegacyFactoryFunction" && a.RHS != nil {
			ffName := a.RHS.Value
			ctor := &idl.Constructor{Loc: a.Loc, Arguments: a.Arguments}
			op := &opDecl{args: a.Arguments, params: a.Arguments, declares: true, method: statics.name("Factory" + GoName(ffName)), mi: &MemberInfo{Member: ctor}}
			op.group = []*opDecl{op}
			x.factories = append(x.factories, &opSet{name: ffName, ctor: true,
				ops: []*opDecl{op},
				set: &idl.OverloadSet{Name: ffName, Constructor: true, Overloads: []idl.Overload{{Member: ctor, Arguments: a.Arguments}}}})
		}
	}
}

// emitMethodsInterface writes the XMethods interface.
func (x *ifaceGen) emitMethodsInterface() {
	g, b, it, n, w := x.g, x.b, x.it, x.n, x.w
	attrs, sets, methods, stringifier := x.attrs, x.sets, x.methods, x.stringifier
	iter, maplike, setlike := x.iter, x.maplike, x.setlike
	getters, setters, deleters := x.getters, x.setters, x.deleters
	w("// %sMethods is implemented by the Go implementation of the IDL interface\n// %s.\ntype %sMethods interface {\n", n, it.Name, n)
	if it.Parent != "" && g.canEmbedParent(it) {
		// An implementation implements its ancestors' members too: the
		// compiler checks it.
		w("\t%sMethods\n", g.m.qualify(it.Parent))
	}
	if impl := g.sealedImpl(it.Name); impl != "" {
		w("\t// idlImpl returns the implementation itself: %s is the only Go\n\t// type implementing %s and the interfaces inheriting from it\n\t// (implementations.txt), which hand-written code gets from a value of\n\t// this interface without a type assertion.\n\tidlImpl() %s\n", impl, it.Name, impl)
		g.sealedTypes[impl] = true
	}
	for _, ai := range attrs {
		if ai.static {
			continue
		}
		if ai.ti.name == "ObservableArray" {
			w("\t// %s and %s are the \"set an indexed value\" and \"delete an indexed\n\t// value\" algorithms of the observable array attribute %q.\n\t%s(index uint32, v %s) error\n\t%s(index uint32, v %s) error\n", ai.getter, ai.setter, ai.a.Name, ai.getter, ai.ti.inner.goType, ai.setter, ai.ti.inner.goType)
			continue
		}
		w("\t// %s is the getter of the attribute %q.\n\t%s() (%s, error)\n", ai.getter, ai.a.Name, ai.getter, ai.ti.goType)
		if ai.setter != "" {
			w("\t// %s is the setter of the attribute %q.\n\t%s(v %s) error\n", ai.setter, ai.a.Name, ai.setter, ai.ti.goType)
		}
	}
	for _, s := range sets {
		if s.static || s.ctor {
			continue
		}
		for _, op := range s.ops {
			if !op.declares {
				continue
			}
			ret := g.mustType(op.ret)
			w("\t// %s implements the operation %q.\n\t%s(%s) %s\n", op.method, s.name, op.method, strings.Join(g.argDecls(op.params), ", "), retDecl(ret))
		}
	}
	if stringifier != nil {
		if op, ok := stringifier.Member.(*idl.Operation); ok && op.Name == "" {
			w("\t// Stringifier implements the stringifier.\n\t%s() (webidl.DOMString, error)\n", methods.name("Stringifier"))
		}
	}
	g.emitSpecialMethods(b, getters, setters, deleters, "")
	if iter != nil && (iter.Async || iter.Key != nil) {
		if iter.Async {
			w("\t// AsyncIterate starts an asynchronous iteration.\n\t%s(%s) (webidl.AsyncIterator, error)\n", methods.name("AsyncIterate"), strings.Join(g.argDecls(iter.Arguments), ", "))
		} else {
			k, v := g.mustType(iter.Key), g.mustType(iter.Value)
			w("\t// IterablePairs returns the value pairs to iterate over.\n\t%s() ([]webidl.KV[%s, %s], error)\n", methods.name("IterablePairs"), k.goType, v.goType)
		}
	}
	if maplike != nil {
		k, v := g.mustType(maplike.Key), g.mustType(maplike.Value)
		w("\t// MaplikeEntries returns the map entries.\n\t%s() ([]webidl.KV[%s, %s], error)\n", methods.name("MaplikeEntries"), k.goType, v.goType)
		if !maplike.Readonly {
			w("\t%s(key %s, value %s) error\n\t%s(key %s) (bool, error)\n\t%s() error\n", methods.name("MaplikeSet"), k.goType, v.goType, methods.name("MaplikeDelete"), k.goType, methods.name("MaplikeClear"))
		}
	}
	if setlike != nil {
		v := g.mustType(setlike.Value)
		w("\t// SetlikeValues returns the set entries.\n\t%s() ([]%s, error)\n", methods.name("SetlikeValues"), v.goType)
		if !setlike.Readonly {
			w("\t%s(value %s) error\n\t%s(value %s) (bool, error)\n\t%s() error\n", methods.name("SetlikeAdd"), v.goType, methods.name("SetlikeDelete"), v.goType, methods.name("SetlikeClear"))
		}
	}
	w("}\n\n")
	x.emitImplCheck()
}

// emitImplCheck writes, for an interface with a Go type in
// Options.Impls, its typed wrapping functions idlWrapX and idlWrapNewX
// (the untyped (*webidl.Realm).Wrap takes any value and an interface
// name) and the compile-time checks that the Go type implements its
// Methods interface and its ancestors'.
func (x *ifaceGen) emitImplCheck() {
	g, it, w := x.g, x.it, x.w
	impl := g.implType(it.Name)
	if impl == "" {
		return
	}
	value := "*new(" + impl + ")"
	if strings.HasPrefix(impl, "*") {
		value = "(" + impl + ")(nil)"
	}
	w("// idlWrap%s returns the JavaScript object of impl, a %s or an object of\n// an interface inheriting from it (see (*webidl.Realm).Wrap).\nfunc idlWrap%s(r *webidl.Realm, impl %sMethods) sobek.Value {\n\treturn r.Wrap(impl, %q)\n}\n\n", x.n, it.Name, x.n, x.n, it.Name)
	w("// idlWrapNew%s is idlWrap%s for an implementation whose object, when\n// made, keeps its internal slot in storage (see (*webidl.Realm).WrapNew).\nfunc idlWrapNew%s(r *webidl.Realm, impl %sMethods, storage *webidl.Slot) sobek.Value {\n\treturn r.WrapNew(impl, %q, storage)\n}\n\n", x.n, x.n, x.n, x.n, it.Name)
	var ancestors []string
	for _, a := range g.m.Ancestors(it.Name) {
		if a.Kind == "interface" {
			ancestors = append(ancestors, g.m.qualify(a.Name))
		}
	}
	if len(ancestors) == 0 {
		w("// %s implements %s: a missing or misspelled method fails to compile.\nvar _ %sMethods = %s\n\n", impl, it.Name, x.n, value)
		return
	}
	w("// %s implements %s and the interfaces it inherits from: a missing or\n// misspelled method fails to compile.\nvar (\n\t_ %sMethods = %s\n", impl, it.Name, x.n, value)
	for _, a := range ancestors {
		w("\t_ %sMethods = %s\n", a, value)
	}
	w(")\n\n")
}

// implType returns the Go type implementing the interface name, from
// Options.Impls, or "".
func (g *Generator) implType(name string) string {
	if g.opt.Stubs || g.m.External[name] != nil {
		return ""
	}
	return g.opt.Impls[name]
}

// sealedImpl returns the Go type implementing the interface name when it
// is the only one: Options.Impls names it for the interface and for
// every interface generated here that inherits from it. Else "".
func (g *Generator) sealedImpl(name string) string {
	impl := g.implType(name)
	if impl == "" {
		return ""
	}
	if g.unsealed == nil {
		g.unsealed = map[string]bool{}
		for _, n := range g.m.Order {
			if it := g.m.Interfaces[n]; it == nil || it.Kind != "interface" {
				continue
			}
			t := g.implType(n)
			for _, a := range g.m.Ancestors(n) {
				if g.implType(a.Name) != t {
					g.unsealed[a.Name] = true
				}
			}
		}
	}
	if g.unsealed[name] {
		return ""
	}
	return impl
}

// emitSealedImpls writes the idlImpl method of every Go type that
// sealedImpl returned for a generated interface.
func (g *Generator) emitSealedImpls(b *bytes.Buffer) {
	var types []string
	for t := range g.sealedTypes {
		types = append(types, t)
	}
	sort.Strings(types)
	for _, t := range types {
		fmt.Fprintf(b, "// idlImpl returns x: %s is the only implementation of the\n// interfaces whose Methods have idlImpl.\nfunc (x %s) idlImpl() %s { return x }\n\n", t, t, t)
	}
}

// checkImpls reports, with Options.Impls, the generated interfaces
// without a Go implementation and the entries naming no generated
// interface.
func (g *Generator) checkImpls() {
	if g.opt.Impls == nil || g.opt.Stubs {
		return
	}
	generated := map[string]bool{}
	for _, name := range g.Generated {
		if it := g.m.Interfaces[name]; it != nil && it.Kind == "interface" && g.m.External[name] == nil {
			generated[name] = true
			if g.opt.Impls[name] == "" {
				g.Errors[name] = append(g.Errors[name], fmt.Errorf("interface %s has no Go implementation: add a line \"%s *yourType\" to the implementations file", name, name))
			}
		}
	}
	for name := range g.opt.Impls {
		if !generated[name] {
			g.Errors[name] = append(g.Errors[name], fmt.Errorf("the implementations file names %s, which is not an interface generated from this IDL", name))
		}
	}
}

// canEmbedParent reports whether the Methods interface of it can embed its
// parent's: no member identifier of it is one of its ancestors' (a
// redeclared member could have another Go signature), and not both have
// special members (their Go methods have fixed names).
func (g *Generator) canEmbedParent(it *Interface) bool {
	names := func(x *Interface) (map[string]bool, bool) {
		out := map[string]bool{}
		special := false
		for _, mi := range x.Members {
			switch m := mi.Member.(type) {
			case *idl.Attribute:
				out[GoName(m.Name)] = true
				out["Set"+GoName(m.Name)] = true
				special = special || m.Special == "stringifier"
			case *idl.Operation:
				if m.Name != "" {
					out[GoName(m.Name)] = true
				}
				special = special || m.Special != "" && m.Special != "static"
			case *idl.Iterable, *idl.Maplike, *idl.Setlike:
				special = true
			}
		}
		return out, special
	}
	own, ownSpecial := names(it)
	for _, a := range g.m.Ancestors(it.Name) {
		theirs, special := names(a)
		if special && ownSpecial {
			return false
		}
		for n := range theirs {
			if own[n] || own[strings.TrimPrefix(n, "Set")] {
				return false
			}
			for o := range own {
				if strings.HasPrefix(o, n) || strings.HasPrefix(n, o) {
					return false // overloads named nWith...
				}
			}
		}
	}
	return len(g.m.Ancestors(it.Name)) > 0
}

// emitStaticsInterface writes the XStatics interface, when there are
// constructors, static members or namespace members.
func (x *ifaceGen) emitStaticsInterface() {
	g, it, n, w := x.g, x.it, x.n, x.w
	attrs, sets, factories := x.attrs, x.sets, x.factories
	var sb bytes.Buffer
	for _, ai := range attrs {
		if !ai.static {
			continue
		}
		x.hasStatics = true
		fmt.Fprintf(&sb, "\t%s(r *webidl.Realm) (%s, error)\n", ai.getter, ai.ti.goType)
		if ai.setter != "" {
			fmt.Fprintf(&sb, "\t%s(r *webidl.Realm, v %s) error\n", ai.setter, ai.ti.goType)
		}
	}
	for _, s := range append(append([]*opSet(nil), sets...), factories...) {
		if !s.static && !s.ctor {
			continue
		}
		x.hasStatics = true
		for _, op := range s.ops {
			if !op.declares {
				continue
			}
			params := strings.Join(append([]string{"r *webidl.Realm"}, g.argDecls(op.params)...), ", ")
			if s.ctor {
				fmt.Fprintf(&sb, "\t// %s implements the constructor steps.\n\t%s(%s) (%sMethods, error)\n", op.method, op.method, params, n)
			} else {
				fmt.Fprintf(&sb, "\t%s(%s) %s\n", op.method, params, retDecl(g.mustType(op.ret)))
			}
		}
	}
	if x.hasStatics {
		w("// %s implements the constructors, static members or namespace\n// members of %s.\ntype %s interface {\n%s}\n\n", g.staticsName(n), it.Name, g.staticsName(n), sb.String())
	}
}

// emitImplements writes the definition's Implements: whether a Go value
// implements the Methods interface of the interface and of each ancestor
// that it does not embed (see canEmbedParent).
func (x *ifaceGen) emitImplements() {
	g, it, w := x.g, x.it, x.w
	methods := []string{x.n + "Methods"}
	cur := it
	for _, a := range g.m.Ancestors(it.Name) {
		if a.Kind != "interface" {
			break
		}
		if cur.Parent != a.Name || !g.canEmbedParent(cur) {
			methods = append(methods, g.m.qualify(a.Name)+"Methods")
		}
		cur = a
	}
	w("\t\tImplements: func(impl any) bool {\n")
	for i, m := range methods {
		if i == 0 {
			w("\t\t\t_, ok := impl.(%s)\n", m)
		} else {
			w("\t\t\tif ok {\n\t\t\t\t_, ok = impl.(%s)\n\t\t\t}\n", m)
		}
	}
	w("\t\t\treturn ok\n\t\t},\n")
}

// emitDefinition writes idlDefX, which builds the webidl.InterfaceDef:
// the interface's flags, constants, legacy properties, constructors and
// members.
func (x *ifaceGen) emitDefinition() {
	g, b, it, n, w, isNS := x.g, x.b, x.it, x.n, x.w, x.isNS
	getters, setters, deleters, iter := x.getters, x.setters, x.deleters, x.iter
	g.regs = append(g.regs, regEntry{name: it.Name, statics: x.hasStatics})
	if x.hasStatics {
		w("// idlDef%s returns the definition of %s, calling statics.\nfunc idlDef%s(statics %s) *webidl.InterfaceDef {\n", n, it.Name, n, g.staticsName(n))
	} else {
		w("// idlDef%s returns the definition of %s.\nfunc idlDef%s() *webidl.InterfaceDef {\n", n, it.Name, n)
	}
	w("\treturn &webidl.InterfaceDef{\n\t\tName: %q,\n", it.Name)
	if isNS {
		w("\t\tNamespace: true,\n")
	}
	if it.Parent != "" {
		w("\t\tParent: %q,\n", it.Parent)
	}
	w("\t\tExposed: %s,\n", goStrings(it.Exposed))
	if !isNS {
		x.emitImplements()
	}
	if it.Secure {
		w("\t\tSecureContext: true,\n")
	}
	if hasAttr(it.ExtAttrs, "CrossOriginIsolated") {
		w("\t\tCrossOriginIsolated: true,\n")
	}
	if a := getAttr(it.ExtAttrs, "Global"); a != nil {
		w("\t\tGlobal: true,\n")
		names := []string{it.Name}
		if a.RHS != nil {
			names = nil
			if a.RHS.IsList() {
				for _, v := range a.RHS.List {
					names = append(names, v.Value)
				}
			} else {
				names = []string{a.RHS.Value}
			}
		}
		w("\t\tGlobalNames: %s,\n", goStrings(names))
	}
	if hasAttr(it.ExtAttrs, "LegacyNoInterfaceObject") {
		w("\t\tNoInterfaceObject: true,\n")
	}
	if a := getAttr(it.ExtAttrs, "LegacyNamespace"); a != nil && a.RHS != nil {
		w("\t\tLegacyNamespace: %q,\n", a.RHS.Value)
	}
	if a := getAttr(it.ExtAttrs, "LegacyWindowAlias"); a != nil && a.RHS != nil {
		var names []string
		if a.RHS.IsList() {
			for _, v := range a.RHS.List {
				names = append(names, v.Value)
			}
		} else {
			names = []string{a.RHS.Value}
		}
		w("\t\tLegacyWindowAlias: %s,\n", goStrings(names))
	}
	if it.Name == "DOMException" {
		// WebIDL: DOMException's prototype inherits from %Error.prototype%.
		w("\t\tErrorPrototype: true,\n")
	}
	var unscopables []string
	for _, mi := range it.Members {
		if hasAttr(mi.Member.Attributes().List(), "Unscopable") && mi.Member.MemberName() != "" {
			unscopables = append(unscopables, mi.Member.MemberName())
		}
	}
	if len(unscopables) > 0 {
		sort.Strings(unscopables)
		w("\t\tUnscopables: %s,\n", goStrings(unscopables))
	}
	g.emitConstants(b, it)
	g.emitLegacy(b, it, getters, setters, deleters)
	if iter != nil && !iter.Async && iter.Key == nil {
		w("\t\tValueIterator: true,\n")
	}
	x.emitConstructors()
	x.emitMembers()
}

// emitConstructors writes the Constructor and LegacyFactoryFunctions of
// the definition.
func (x *ifaceGen) emitConstructors() {
	g, b, it, w, sets, factories := x.g, x.b, x.it, x.w, x.sets, x.factories
	// Constructor.
	for _, s := range sets {
		if !s.ctor {
			continue
		}
		eff, err := g.effectiveOverloads(s)
		if err != nil {
			panic(err)
		}
		w("\t\tConstructorLength: %d,\n", eff.minArgs)
		w("\t\tConstructor: func(r *webidl.Realm, args []sobek.Value, newTarget *sobek.Object) any {\n")
		g.emitConstructorDispatch(b, it, s, eff)
		w("\t\t},\n")
	}
	// Legacy factory functions.
	if len(factories) > 0 {
		w("\t\tLegacyFactoryFunctions: []webidl.FactoryFunction{\n")
		for _, s := range factories {
			eff, err := g.effectiveOverloads(s)
			if err != nil {
				panic(err)
			}
			w("\t\t\t{Name: %q, Length: %d, Call: func(r *webidl.Realm, args []sobek.Value, newTarget *sobek.Object) any {\n", s.name, eff.minArgs)
			g.emitConstructorDispatch(b, it, s, eff)
			w("\t\t\t}},\n")
		}
		w("\t\t},\n")
	}
}

// emitMembers writes the Members of the definition (and, for the coverage
// check, the stubs).
func (x *ifaceGen) emitMembers() {
	g, b, it, n, w := x.g, x.b, x.it, x.n, x.w
	attrs, sets, factories, stringifier := x.attrs, x.sets, x.factories, x.stringifier
	iter, maplike, setlike := x.iter, x.maplike, x.setlike
	getters, setters, deleters := x.getters, x.setters, x.deleters
	w("\t\tMembers: []webidl.Member{\n")
	for _, ai := range attrs {
		g.emitAttribute(b, it, ai)
	}
	for _, s := range sets {
		if s.ctor {
			continue
		}
		eff, err := g.effectiveOverloads(s)
		if err != nil {
			panic(err)
		}
		exp, sec, coi := memberExposure(s.ops[0].mi)
		unf := hasAttr(s.ops[0].mi.Member.Attributes().List(), "LegacyUnforgeable") || hasAttr(it.ExtAttrs, "LegacyUnforgeable")
		w("\t\t\t{Name: %q, Kind: webidl.Operation%s, Length: %d,\n", s.name, memberFlags(s.static, unf, exp, sec, coi), eff.minArgs)
		w("\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n")
		promise := false
		for _, op := range s.ops {
			if rt := g.mustType(op.ret); rt.cat == catPromise {
				promise = true
			}
		}
		if promise {
			w("\t\t\t\t\treturn r.PromiseOperation(func() sobek.Value {\n")
		}
		if !s.static {
			w("\t\t\t\t\tself := webidl.Self[%sMethods](r, call.This, %q)\n", n, it.Name)
		}
		g.emitDispatch(b, it, s, eff)
		if promise {
			w("\t\t\t\t\t})\n")
		}
		w("\t\t\t\t}},\n")
	}
	if stringifier != nil {
		g.emitStringifier(b, it, stringifier, attrs)
	}
	if x.defaultToJSON {
		g.emitDefaultToJSON(b, it)
	}
	if iter != nil && (iter.Async || iter.Key != nil) {
		g.emitIterable(b, it, iter)
	}
	if maplike != nil {
		g.emitMaplike(b, it, maplike)
	}
	if setlike != nil {
		g.emitSetlike(b, it, setlike)
	}
	w("\t\t},\n\t}\n}\n\n")
	if g.opt.Stubs {
		g.emitStub(b, it, attrs, append(append([]*opSet(nil), sets...), factories...), iter, maplike, setlike, stringifier, x.hasStatics)
		if it.Kind != "namespace" {
			g.emitSpecialMethods(b, getters, setters, deleters, "stub"+n)
		}
	}
}

func (g *Generator) emitAttribute(b *bytes.Buffer, it *Interface, ai *attrInfo) {
	n := GoName(it.Name)
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	a := ai.a
	exp, sec, coi := memberExposure(ai.mi)
	if ai.ti.name == "ObservableArray" && !ai.static {
		el := ai.ti.inner
		w("\t\t\t{Name: %q, Kind: webidl.Attribute%s,\n", a.Name, memberFlags(false, false, exp, sec, coi))
		create := fmt.Sprintf(`func() *webidl.ObservableArray {
					self := webidl.Self[%sMethods](r, this, %q)
					return r.NewObservableArray(func(v sobek.Value) sobek.Value { return %s(r, %s(r, v)) },
						func(i uint32, v sobek.Value) {
							if err := self.%s(i, %s(r, v)); err != nil {
								r.Throw(err)
							}
						},
						func(i uint32, v sobek.Value) {
							if err := self.%s(i, %s(r, v)); err != nil {
								r.Throw(err)
							}
						})
				}`, n, it.Name, g.to(el), g.from(el), ai.getter, g.from(el), ai.setter, g.from(el))
		w("\t\t\t\tGet: func(r *webidl.Realm, this sobek.Value) sobek.Value {\n\t\t\t\t\treturn r.ObservableArrayAttribute(this, %q, %s).Object\n\t\t\t\t},\n", a.Name, create)
		if !a.Readonly {
			w("\t\t\t\tSet: func(r *webidl.Realm, this sobek.Value, v sobek.Value) {\n\t\t\t\t\tarr := r.ObservableArrayAttribute(this, %q, %s)\n\t\t\t\t\tvar vals []sobek.Value\n\t\t\t\t\tr.ToSequence(v, func(x sobek.Value) { vals = append(vals, x) })\n\t\t\t\t\tarr.Replace(vals)\n\t\t\t\t},\n", a.Name, create)
		}
		w("\t\t\t},\n")
		return
	}
	attrs := a.ExtAttrs.List()
	unf := hasAttr(attrs, "LegacyUnforgeable") || hasAttr(it.ExtAttrs, "LegacyUnforgeable")
	lenient := hasAttr(attrs, "LegacyLenientThis")
	w("\t\t\t{Name: %q, Kind: webidl.Attribute%s,\n", a.Name, memberFlags(ai.static, unf, exp, sec, coi))
	// Getter.
	w("\t\t\t\tGet: func(r *webidl.Realm, this sobek.Value) sobek.Value {\n")
	promise := ai.ti.cat == catPromise
	if promise {
		w("\t\t\t\t\treturn r.PromiseOperation(func() sobek.Value {\n")
	}
	if lenient && !ai.static {
		w("\t\t\t\t\tif _, ok := r.Implements(webidl.AnyValue(this), %q); !ok && !webidl.IsNullish(this) {\n\t\t\t\t\t\treturn sobek.Undefined()\n\t\t\t\t\t}\n", it.Name)
	}
	body := ""
	if ai.static {
		body = fmt.Sprintf("res, err := statics.%s(r)\n", ai.getter)
	} else {
		body = fmt.Sprintf("self := webidl.Self[%sMethods](r, this, %q)\nres, err := self.%s()\n", n, it.Name, ai.getter)
	}
	body += fmt.Sprintf("if err != nil {\n\tr.Throw(err)\n}\nreturn %s(r, res)\n", g.to(ai.ti))
	if hasAttr(attrs, "SameObject") && !ai.static {
		w("\t\t\t\t\tself := webidl.Self[%sMethods](r, this, %q)\n\t\t\t\t\treturn r.CachedAttribute(this, %q, func() sobek.Value {\n\t\t\t\t\t\tres, err := self.%s()\n\t\t\t\t\t\tif err != nil {\n\t\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t\t}\n\t\t\t\t\t\treturn %s(r, res)\n\t\t\t\t\t})\n", n, it.Name, a.Name, ai.getter, g.to(ai.ti))
	} else {
		b.WriteString(body)
	}
	if promise {
		w("\t\t\t\t\t})\n")
	}
	w("\t\t\t\t},\n")
	// Setter.
	switch {
	case !a.Readonly:
		w("\t\t\t\tSet: func(r *webidl.Realm, this sobek.Value, v sobek.Value) {\n")
		if lenient && !ai.static {
			w("\t\t\t\t\tif _, ok := r.Implements(webidl.AnyValue(this), %q); !ok && !webidl.IsNullish(this) {\n\t\t\t\t\t\treturn\n\t\t\t\t\t}\n", it.Name)
		}
		if ai.static {
			w("\t\t\t\t\tx := %s(r, v)\n\t\t\t\t\tif err := statics.%s(r, x); err != nil {\n\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t}\n", g.from(ai.ti), ai.setter)
		} else if ai.ti.cat == catString && ai.ti.name != "" {
			// An enumeration: a value that is not one of its values
			// makes the setter do nothing (Web IDL, "attribute setter").
			w("\t\t\t\t\tself := webidl.Self[%sMethods](r, this, %q)\n\t\t\t\t\ts, ok := r.ToEnumForAttribute(webidl.AnyValue(v), idlValues%s)\n\t\t\t\t\tif !ok {\n\t\t\t\t\t\treturn\n\t\t\t\t\t}\n\t\t\t\t\tif err := self.%s(%s(s)); err != nil {\n\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t}\n", n, it.Name, GoName(ai.ti.name), ai.setter, ai.ti.goType)
		} else {
			w("\t\t\t\t\tself := webidl.Self[%sMethods](r, this, %q)\n\t\t\t\t\tx := %s(r, v)\n\t\t\t\t\tif err := self.%s(x); err != nil {\n\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t}\n", n, it.Name, g.from(ai.ti), ai.setter)
		}
		w("\t\t\t\t},\n")
	case hasAttr(attrs, "Replaceable"):
		w("\t\t\t\tSet: func(r *webidl.Realm, this sobek.Value, v sobek.Value) {\n\t\t\t\t\tr.This(this, %q)\n\t\t\t\t\tif err := r.ThisObject(this).DefineDataProperty(%q, v, sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_TRUE); err != nil {\n\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t}\n\t\t\t\t},\n", it.Name, a.Name)
	case getAttr(attrs, "PutForwards") != nil:
		fwd := getAttr(attrs, "PutForwards").RHS.Value
		w("\t\t\t\tSet: func(r *webidl.Realm, this sobek.Value, v sobek.Value) {\n\t\t\t\t\tr.This(this, %q)\n\t\t\t\t\tq, ok := r.ThisObject(this).Get(%q).(*sobek.Object)\n\t\t\t\t\tif !ok {\n\t\t\t\t\t\tr.ThrowTypeError(\"%s.%s is not an object\")\n\t\t\t\t\t}\n\t\t\t\t\tif err := q.Set(%q, v); err != nil {\n\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t}\n\t\t\t\t},\n", it.Name, a.Name, it.Name, a.Name, fwd)
	case hasAttr(attrs, "LegacyLenientSetter"):
		w("\t\t\t\tSet: func(r *webidl.Realm, this sobek.Value, v sobek.Value) {},\n")
	}
	w("\t\t\t},\n")
}

// emitConstructorDispatch is emitDispatch for constructors and legacy
// factory functions (args and newTarget in scope), which make the call
// value when their arguments are read.
func (g *Generator) emitConstructorDispatch(b *bytes.Buffer, it *Interface, s *opSet, eff *effective) {
	var body bytes.Buffer
	g.emitDispatch(&body, it, s, eff)
	if usesIdent(body.Bytes(), "call") {
		b.WriteString("\t\t\tcall := sobek.FunctionCall{This: newTarget, Arguments: args}\n")
	}
	b.Write(body.Bytes())
}

// usesIdent reports whether Go source mentions the identifier id.
func usesIdent(src []byte, id string) bool {
	for i := 0; ; {
		j := bytes.Index(src[i:], []byte(id))
		if j < 0 {
			return false
		}
		j += i
		end := j + len(id)
		if (j == 0 || !isIdentByte(src[j-1]) && src[j-1] != '.') && (end == len(src) || !isIdentByte(src[end])) {
			return true
		}
		i = end
	}
}

// emitDispatch writes the overload resolution and the call of the
// selected operation; it returns a sobek.Value (or the implementation for
// constructors). In scope: r, call, self (regular operations).
func (g *Generator) emitDispatch(b *bytes.Buffer, it *Interface, s *opSet, eff *effective) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	what := s.name
	if s.ctor {
		what = "constructor"
	}
	// A single operation: check the argument count, then the body.
	single := len(s.ops) == 1
	if single && eff.minArgs > 0 {
		w("\t\t\t\t\tif len(call.Arguments) < %d {\n\t\t\t\t\t\tr.ThrowTypeError(\"Failed to execute '%s' on '%s': %d argument(s) required, but only %%d present.\", len(call.Arguments))\n\t\t\t\t\t}\n", eff.minArgs, what, it.Name, eff.minArgs)
	}
	outer := b
	// One closure per operation.
	for i, op := range s.ops {
		var ob bytes.Buffer
		b = &ob
		w = func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
		w("\t\t\t\t\tcall%d := func() %s {\n", i, map[bool]string{true: "any", false: "sobek.Value"}[s.ctor])
		var names []string
		if s.ctor || s.static {
			names = append(names, "r")
		}
		for j, a := range op.args {
			ti := g.mustType(a.Type)
			pn := "arg" + GoName(a.Name())
			if p := op.params[j]; p.Optional && p.Default == nil && !p.Variadic && !a.Optional {
				// A merged overload's argument, optional in the method.
				names = append(names, optionalValue(ti, pn))
			} else {
				names = append(names, pn)
			}
			switch {
			case a.Variadic:
				w("\t\t\t\t\t\t%s := []%s{}\n\t\t\t\t\t\tfor k := %d; k < len(call.Arguments); k++ {\n\t\t\t\t\t\t\t%s = append(%s, %s(r, call.Arguments[k]))\n\t\t\t\t\t\t}\n", pn, ti.goType, j, pn, pn, g.from(ti))
			case a.Optional && a.Default != nil:
				w("\t\t\t\t\t\tvar %s %s\n\t\t\t\t\t\tif v := webidl.Arg(call, %d); !webidl.IsUndefined(v) {\n\t\t\t\t\t\t\t%s = %s(r, v)\n\t\t\t\t\t\t} else {\n\t\t\t\t\t\t\t%s = %s\n\t\t\t\t\t\t}\n", pn, ti.goType, j, pn, g.from(ti), pn, g.defaultExpr(ti, a.Default))
			case a.Optional:
				w("\t\t\t\t\t\tvar %s %s\n\t\t\t\t\t\tif v := webidl.Arg(call, %d); !webidl.IsUndefined(v) {\n", pn, optionalType(ti, false), j)
				if ti.nilable {
					w("\t\t\t\t\t\t\t%s = %s(r, v)\n", pn, g.from(ti))
				} else {
					w("\t\t\t\t\t\t\t%s = %s\n", pn, someExpr(ti, g.from(ti)+"(r, v)"))
				}
				w("\t\t\t\t\t\t}\n")
			default:
				w("\t\t\t\t\t\t%s := %s(r, webidl.AnyValue(webidl.Arg(call, %d)))\n", pn, g.from(ti), j)
			}
		}
		for _, p := range op.params[len(op.args):] {
			// Arguments of a merged method this overload does not have.
			names = append(names, g.absentValue(p))
		}
		recv := "self"
		if s.ctor || s.static {
			recv = "statics"
		}
		var ret *tinfo
		if !s.ctor {
			ret = g.mustType(op.ret)
		}
		switch {
		case s.ctor:
			w("\t\t\t\t\t\tres, err := %s.%s(%s)\n\t\t\t\t\t\tif err != nil {\n\t\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t\t}\n\t\t\t\t\t\treturn res\n\t\t\t\t\t}\n", recv, op.method, strings.Join(names, ", "))
		case ret.cat == catUndefined:
			w("\t\t\t\t\t\tif err := %s.%s(%s); err != nil {\n\t\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t\t}\n\t\t\t\t\t\treturn sobek.Undefined()\n\t\t\t\t\t}\n", recv, op.method, strings.Join(names, ", "))
		default:
			w("\t\t\t\t\t\tres, err := %s.%s(%s)\n\t\t\t\t\t\tif err != nil {\n\t\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t\t}\n\t\t\t\t\t\treturn %s(r, res)\n\t\t\t\t\t}\n", recv, op.method, strings.Join(names, ", "), g.to(ret))
		}
		code := ob.String()
		if single {
			// Inline the closure's body.
			code = code[strings.Index(code, "\n")+1 : strings.LastIndex(code, "\t\t\t\t\t}\n")]
		}
		outer.WriteString(code)
	}
	b = outer
	w = func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	if single {
		return
	}
	w("\t\t\t\t\targc := len(call.Arguments)\n\t\t\t\t\tif argc > %d {\n\t\t\t\t\t\targc = %d\n\t\t\t\t\t}\n", eff.maxArg, eff.maxArg)
	var counts []int
	for k := range eff.byCount {
		counts = append(counts, k)
	}
	sort.Ints(counts)
	w("\t\t\t\t\tswitch argc {\n")
	for _, k := range counts {
		entries := eff.byCount[k]
		w("\t\t\t\t\tcase %d:\n", k)
		if len(entries) == 1 {
			w("\t\t\t\t\t\treturn call%d()\n", entries[0].op)
			continue
		}
		d := eff.dist[k]
		var sel strings.Builder
		var alts []alt
		for _, e := range entries {
			alts = append(alts, alt{label: e.op, t: e.types[d], optional: e.optional[d]})
		}
		g.emitSelect(&sel, alts, true)
		w("\t\t\t\t\t\t{\n\t\t\t\t\t\t\tv := webidl.AnyValue(webidl.Arg(call, %d))\n\t\t\t\t\t\t\tsel := -1\n", d)
		b.WriteString(sel.String())
		w("\t\t\t\t\t\t\tswitch sel {\n")
		for _, e := range entries {
			w("\t\t\t\t\t\t\tcase %d:\n\t\t\t\t\t\t\t\treturn call%d()\n", e.op, e.op)
		}
		w("\t\t\t\t\t\t\t}\n\t\t\t\t\t\t\tr.ThrowTypeError(\"Failed to execute '%s' on '%s': no overload matches the arguments\")\n\t\t\t\t\t\t}\n", what, it.Name)
	}
	w("\t\t\t\t\t}\n")
	w("\t\t\t\t\tr.ThrowTypeError(\"Failed to execute '%s' on '%s': %d argument(s) required, but only %%d present.\", len(call.Arguments))\n\t\t\t\t\treturn nil\n", what, it.Name, eff.minArgs)
}

func (g *Generator) emitStringifier(b *bytes.Buffer, it *Interface, mi *MemberInfo, attrs []*attrInfo) {
	n := GoName(it.Name)
	exp, sec, coi := memberExposure(mi)
	unf := hasAttr(mi.Member.Attributes().List(), "LegacyUnforgeable") || hasAttr(it.ExtAttrs, "LegacyUnforgeable")
	fmt.Fprintf(b, "\t\t\t{Name: \"toString\", Kind: webidl.Operation%s, Length: 0,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\tself := webidl.Self[%sMethods](r, call.This, %q)\n", memberFlags(false, unf, exp, sec, coi), n, it.Name)
	switch mem := mi.Member.(type) {
	case *idl.Attribute:
		var ai *attrInfo
		for _, a := range attrs {
			if a.a == mem {
				ai = a
			}
		}
		fmt.Fprintf(b, "\t\t\t\t\tres, err := self.%s()\n\t\t\t\t\tif err != nil {\n\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t}\n\t\t\t\t\treturn %s(r, res)\n", ai.getter, g.to(ai.ti))
	case *idl.Operation:
		if mem.Name != "" {
			ret := g.mustType(mem.ReturnType)
			fmt.Fprintf(b, "\t\t\t\t\tres, err := self.%s()\n\t\t\t\t\tif err != nil {\n\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t}\n\t\t\t\t\treturn %s(r, res)\n", GoName(mem.Name), g.to(ret))
		} else {
			fmt.Fprintf(b, "\t\t\t\t\tres, err := self.Stringifier()\n\t\t\t\t\tif err != nil {\n\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t}\n\t\t\t\t\treturn res.Value()\n")
		}
	}
	b.WriteString("\t\t\t\t}},\n")
}

// isJSONType implements WebIDL's "JSON types".
func (g *Generator) isJSONType(t *tinfo) bool {
	switch t.cat {
	case catNumeric, catBoolean, catString, catBigint:
		return t.cat != catBigint
	case catObject:
		return true
	case catSequence:
		return (t.name == "sequence" || t.name == "FrozenArray") && g.isJSONType(t.inner)
	case catUnion:
		for _, m := range t.members {
			if !g.isJSONType(m) {
				return false
			}
		}
		return true
	case catDictLike:
		if t.name == "record" {
			return g.isJSONType(t.inner)
		}
		if d := g.m.Dictionaries[t.name]; d != nil {
			for _, fs := range g.m.DictionaryMembers(t.name) {
				for _, f := range fs {
					if !g.isJSONType(g.mustType(f.Type)) {
						return false
					}
				}
			}
			return true
		}
	case catInterface:
		if it := g.m.Interfaces[t.name]; it != nil {
			for _, mi := range it.Members {
				if op, ok := mi.Member.(*idl.Operation); ok && op.Name == "toJSON" {
					return true
				}
			}
		}
	}
	return false
}

// emitDefaultToJSON writes the [Default] toJSON operation: an object with
// the JSON-typed regular attributes of the interface and its ancestors
// that also have a [Default] toJSON, root first.
func (g *Generator) emitDefaultToJSON(b *bytes.Buffer, it *Interface) {
	chain := append([]*Interface{it}, g.m.Ancestors(it.Name)...)
	var names []string
	for i := len(chain) - 1; i >= 0; i-- {
		c := chain[i]
		hasDefault := false
		for _, mi := range c.Members {
			if op, ok := mi.Member.(*idl.Operation); ok && op.Name == "toJSON" && hasAttr(op.ExtAttrs.List(), "Default") {
				hasDefault = true
			}
		}
		if !hasDefault {
			continue
		}
		for _, mi := range c.Members {
			if a, ok := mi.Member.(*idl.Attribute); ok && a.Special != "static" {
				if g.isJSONType(g.mustType(a.Type)) {
					names = append(names, a.Name)
				}
			}
		}
	}
	_ = names
	// The operation itself is generated from the IDL's toJSON (its
	// Methods entry); [Default] means the binding supplies the body, so
	// the Methods method is still declared but the Op below overrides it.
	fmt.Fprintf(b, "\t\t\t{Name: \"toJSON\", Kind: webidl.Operation, Alias: \"\", Length: 0, Exposed: nil,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\tr.This(call.This, %q)\n\t\t\t\t\tthis := r.ThisObject(call.This)\n\t\t\t\t\tout := r.VM.NewObject()\n\t\t\t\t\tfor _, name := range %s {\n\t\t\t\t\t\t_ = out.Set(name, this.Get(name))\n\t\t\t\t\t}\n\t\t\t\t\treturn out\n\t\t\t\t}},\n", it.Name, strings.Replace(goStrings(names), "nil", "[]string{}", 1))
}

func (g *Generator) emitIterable(b *bytes.Buffer, it *Interface, iter *idl.Iterable) {
	n := GoName(it.Name)
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	if iter.Async {
		// async_iterable: entries/keys/values (pair) or values (value),
		// @@asyncIterator the same function as entries / values.
		decls := g.argDecls(iter.Arguments)
		var conv strings.Builder
		var names []string
		for j, a := range iter.Arguments {
			ti := g.mustType(a.Type)
			pn := "arg" + GoName(a.Name())
			names = append(names, pn)
			switch {
			case a.Optional && a.Default != nil:
				fmt.Fprintf(&conv, "\t\t\t\t\tvar %s %s\n\t\t\t\t\tif v := webidl.Arg(call, %d); !webidl.IsUndefined(v) {\n\t\t\t\t\t\t%s = %s(r, v)\n\t\t\t\t\t} else {\n\t\t\t\t\t\t%s = %s\n\t\t\t\t\t}\n", pn, ti.goType, j, pn, g.from(ti), pn, g.defaultExpr(ti, a.Default))
			case a.Optional:
				fmt.Fprintf(&conv, "\t\t\t\t\tvar %s %s\n\t\t\t\t\tif v := webidl.Arg(call, %d); !webidl.IsUndefined(v) {\n", pn, optionalType(ti, false), j)
				if ti.nilable {
					fmt.Fprintf(&conv, "\t\t\t\t\t\t%s = %s(r, v)\n\t\t\t\t\t}\n", pn, g.from(ti))
				} else {
					fmt.Fprintf(&conv, "\t\t\t\t\t\t%s = %s\n\t\t\t\t\t}\n", pn, someExpr(ti, g.from(ti)+"(r, v)"))
				}
			default:
				fmt.Fprintf(&conv, "\t\t\t\t\t%s := %s(r, webidl.AnyValue(webidl.Arg(call, %d)))\n", pn, g.from(ti), j)
			}
		}
		_ = decls
		mk := func(name, alias string, length int) {
			w("\t\t\t{Name: %q, Kind: webidl.Operation, Length: %d, Alias: %q,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\tself := webidl.Self[%sMethods](r, call.This, %q)\n%s\t\t\t\t\tai, err := self.AsyncIterate(%s)\n\t\t\t\t\tif err != nil {\n\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t}\n\t\t\t\t\treturn r.NewAsyncIterator(%q, ai)\n\t\t\t\t}},\n",
				name, length, alias, n, it.Name, conv.String(), strings.Join(names, ", "), it.Name)
		}
		length := 0
		for _, a := range iter.Arguments {
			if !a.Optional && !a.Variadic {
				length++
			}
		}
		if iter.Key != nil {
			mk("entries", "", length)
			mk("keys", "", length)
			mk("values", "", length)
			w("\t\t\t{Name: \"entries\", Symbol: \"asyncIterator\", NotEnumerable: true, Kind: webidl.Operation, Alias: \"entries\"},\n")
		} else {
			mk("values", "", length)
			w("\t\t\t{Name: \"values\", Symbol: \"asyncIterator\", NotEnumerable: true, Kind: webidl.Operation, Alias: \"values\"},\n")
		}
		return
	}
	k, v := g.mustType(iter.Key), g.mustType(iter.Value)
	pairs := fmt.Sprintf("func() []webidl.Pair {\n\t\t\t\t\t\tkvs, err := self.IterablePairs()\n\t\t\t\t\t\tif err != nil {\n\t\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t\t}\n\t\t\t\t\t\tout := make([]webidl.Pair, len(kvs))\n\t\t\t\t\t\tfor i, kv := range kvs {\n\t\t\t\t\t\t\tout[i] = webidl.Pair{Key: %s(r, kv.Key), Value: %s(r, kv.Value)}\n\t\t\t\t\t\t}\n\t\t\t\t\t\treturn out\n\t\t\t\t\t}", g.to(k), g.to(v))
	for _, x := range []struct{ name, kind string }{{"entries", "webidl.IterateKeyValue"}, {"keys", "webidl.IterateKeys"}, {"values", "webidl.IterateValues"}} {
		w("\t\t\t{Name: %q, Kind: webidl.Operation, Length: 0,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\tself := webidl.Self[%sMethods](r, call.This, %q)\n\t\t\t\t\treturn r.NewPairIterator(%q, %s, %s)\n\t\t\t\t}},\n", x.name, n, it.Name, it.Name, x.kind, pairs)
	}
	w("\t\t\t{Name: \"forEach\", Kind: webidl.Operation, Length: 1,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\tself := webidl.Self[%sMethods](r, call.This, %q)\n\t\t\t\t\treturn r.PairForEach(call.This, call, %s)\n\t\t\t\t}},\n", n, it.Name, pairs)
	w("\t\t\t{Name: \"entries\", Symbol: \"iterator\", NotEnumerable: true, Kind: webidl.Operation, Alias: \"entries\"},\n")
}

func (g *Generator) emitMaplike(b *bytes.Buffer, it *Interface, ml *idl.Maplike) {
	n := GoName(it.Name)
	k, v := g.mustType(ml.Key), g.mustType(ml.Value)
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	entries := fmt.Sprintf("func() []webidl.Pair {\n\t\t\t\t\t\tkvs, err := self.MaplikeEntries()\n\t\t\t\t\t\tif err != nil {\n\t\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t\t}\n\t\t\t\t\t\tout := make([]webidl.Pair, len(kvs))\n\t\t\t\t\t\tfor i, kv := range kvs {\n\t\t\t\t\t\t\tout[i] = webidl.Pair{Key: %s(r, kv.Key), Value: %s(r, kv.Value)}\n\t\t\t\t\t\t}\n\t\t\t\t\t\treturn out\n\t\t\t\t\t}", g.to(k), g.to(v))
	self := fmt.Sprintf("self := webidl.Self[%sMethods](r, call.This, %q)\n", n, it.Name)
	w("\t\t\t{Name: \"size\", Kind: webidl.Attribute, Get: func(r *webidl.Realm, this sobek.Value) sobek.Value {\n\t\t\t\tcall := sobek.FunctionCall{This: this}\n\t\t\t\t%s\t\t\t\treturn r.VM.ToValue(len((%s)()))\n\t\t\t}},\n", self, entries)
	for _, x := range []struct{ name, kind string }{{"entries", "webidl.IterateKeyValue"}, {"keys", "webidl.IterateKeys"}, {"values", "webidl.IterateValues"}} {
		w("\t\t\t{Name: %q, Kind: webidl.Operation, Length: 0,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\t%s\t\t\t\t\treturn r.NewPairIterator(%q, %s, %s)\n\t\t\t\t}},\n", x.name, self, it.Name, x.kind, entries)
	}
	w("\t\t\t{Name: \"entries\", Symbol: \"iterator\", NotEnumerable: true, Kind: webidl.Operation, Alias: \"entries\"},\n")
	w("\t\t\t{Name: \"forEach\", Kind: webidl.Operation, Length: 1,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\t%s\t\t\t\t\treturn r.PairForEach(call.This, call, %s)\n\t\t\t\t}},\n", self, entries)
	for _, op := range []string{"get", "has"} {
		w("\t\t\t{Name: %q, Kind: webidl.Operation, Length: 1,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\t%s\t\t\t\t\tkey := %s(r, %s(r, webidl.AnyValue(webidl.Arg(call, 0))))\n\t\t\t\t\tfor _, p := range (%s)() {\n\t\t\t\t\t\tif p.Key.SameAs(key) {\n", op, self, g.to(k), g.from(k), entries)
		if op == "get" {
			w("\t\t\t\t\t\t\treturn p.Value\n\t\t\t\t\t\t}\n\t\t\t\t\t}\n\t\t\t\t\treturn sobek.Undefined()\n\t\t\t\t}},\n")
		} else {
			w("\t\t\t\t\t\t\treturn r.VM.ToValue(true)\n\t\t\t\t\t\t}\n\t\t\t\t\t}\n\t\t\t\t\treturn r.VM.ToValue(false)\n\t\t\t\t}},\n")
		}
	}
	if !ml.Readonly {
		w("\t\t\t{Name: \"set\", Kind: webidl.Operation, Length: 2,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\t%s\t\t\t\t\tif err := self.MaplikeSet(%s(r, webidl.AnyValue(webidl.Arg(call, 0))), %s(r, webidl.AnyValue(webidl.Arg(call, 1)))); err != nil {\n\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t}\n\t\t\t\t\treturn call.This\n\t\t\t\t}},\n", self, g.from(k), g.from(v))
		w("\t\t\t{Name: \"delete\", Kind: webidl.Operation, Length: 1,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\t%s\t\t\t\t\tok, err := self.MaplikeDelete(%s(r, webidl.AnyValue(webidl.Arg(call, 0))))\n\t\t\t\t\tif err != nil {\n\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t}\n\t\t\t\t\treturn r.VM.ToValue(ok)\n\t\t\t\t}},\n", self, g.from(k))
		w("\t\t\t{Name: \"clear\", Kind: webidl.Operation, Length: 0,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\t%s\t\t\t\t\tif err := self.MaplikeClear(); err != nil {\n\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t}\n\t\t\t\t\treturn sobek.Undefined()\n\t\t\t\t}},\n", self)
	}
}

func (g *Generator) emitSetlike(b *bytes.Buffer, it *Interface, sl *idl.Setlike) {
	n := GoName(it.Name)
	v := g.mustType(sl.Value)
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	entries := fmt.Sprintf("func() []webidl.Pair {\n\t\t\t\t\t\tvals, err := self.SetlikeValues()\n\t\t\t\t\t\tif err != nil {\n\t\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t\t}\n\t\t\t\t\t\tout := make([]webidl.Pair, len(vals))\n\t\t\t\t\t\tfor i, x := range vals {\n\t\t\t\t\t\t\tjv := %s(r, x)\n\t\t\t\t\t\t\tout[i] = webidl.Pair{Key: jv, Value: jv}\n\t\t\t\t\t\t}\n\t\t\t\t\t\treturn out\n\t\t\t\t\t}", g.to(v))
	self := fmt.Sprintf("self := webidl.Self[%sMethods](r, call.This, %q)\n", n, it.Name)
	w("\t\t\t{Name: \"size\", Kind: webidl.Attribute, Get: func(r *webidl.Realm, this sobek.Value) sobek.Value {\n\t\t\t\tcall := sobek.FunctionCall{This: this}\n\t\t\t\t%s\t\t\t\treturn r.VM.ToValue(len((%s)()))\n\t\t\t}},\n", self, entries)
	w("\t\t\t{Name: \"entries\", Kind: webidl.Operation, Length: 0,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\t%s\t\t\t\t\treturn r.NewPairIterator(%q, webidl.IterateKeyValue, %s)\n\t\t\t\t}},\n", self, it.Name, entries)
	w("\t\t\t{Name: \"values\", Kind: webidl.Operation, Length: 0,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\t%s\t\t\t\t\treturn r.NewPairIterator(%q, webidl.IterateValues, %s)\n\t\t\t\t}},\n", self, it.Name, entries)
	w("\t\t\t{Name: \"values\", Symbol: \"iterator\", NotEnumerable: true, Kind: webidl.Operation, Alias: \"values\"},\n")
	w("\t\t\t{Name: \"keys\", Kind: webidl.Operation, Alias: \"values\"},\n")
	w("\t\t\t{Name: \"forEach\", Kind: webidl.Operation, Length: 1,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\t%s\t\t\t\t\treturn r.PairForEach(call.This, call, %s)\n\t\t\t\t}},\n", self, entries)
	w("\t\t\t{Name: \"has\", Kind: webidl.Operation, Length: 1,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\t%s\t\t\t\t\tkey := %s(r, %s(r, webidl.AnyValue(webidl.Arg(call, 0))))\n\t\t\t\t\tfor _, p := range (%s)() {\n\t\t\t\t\t\tif p.Key.SameAs(key) {\n\t\t\t\t\t\t\treturn r.VM.ToValue(true)\n\t\t\t\t\t\t}\n\t\t\t\t\t}\n\t\t\t\t\treturn r.VM.ToValue(false)\n\t\t\t\t}},\n", self, g.to(v), g.from(v), entries)
	if !sl.Readonly {
		w("\t\t\t{Name: \"add\", Kind: webidl.Operation, Length: 1,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\t%s\t\t\t\t\tif err := self.SetlikeAdd(%s(r, webidl.AnyValue(webidl.Arg(call, 0)))); err != nil {\n\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t}\n\t\t\t\t\treturn call.This\n\t\t\t\t}},\n", self, g.from(v))
		w("\t\t\t{Name: \"delete\", Kind: webidl.Operation, Length: 1,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\t%s\t\t\t\t\tok, err := self.SetlikeDelete(%s(r, webidl.AnyValue(webidl.Arg(call, 0))))\n\t\t\t\t\tif err != nil {\n\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t}\n\t\t\t\t\treturn r.VM.ToValue(ok)\n\t\t\t\t}},\n", self, g.from(v))
		w("\t\t\t{Name: \"clear\", Kind: webidl.Operation, Length: 0,\n\t\t\t\tOp: func(r *webidl.Realm, call sobek.FunctionCall) sobek.Value {\n\t\t\t\t\t%s\t\t\t\t\tif err := self.SetlikeClear(); err != nil {\n\t\t\t\t\t\tr.Throw(err)\n\t\t\t\t\t}\n\t\t\t\t\treturn sobek.Undefined()\n\t\t\t\t}},\n", self)
	}
}

// memberFlags formats the non-default flags of a webidl.Member literal.
func memberFlags(static, unforgeable bool, exposed []string, secure, coi bool) string {
	var b strings.Builder
	if static {
		b.WriteString(", Static: true")
	}
	if unforgeable {
		b.WriteString(", Unforgeable: true")
	}
	if exposed != nil {
		b.WriteString(", Exposed: " + goStrings(exposed))
	}
	if secure {
		b.WriteString(", SecureContext: true")
	}
	if coi {
		b.WriteString(", CrossOriginIsolated: true")
	}
	return b.String()
}

// hasSameSignature reports whether an overload with exactly these argument
// types is already in ops: the same operation declared twice (by two
// specifications' partial definitions) is one operation.
func hasSameSignature(ops []*opDecl, args []*idl.Argument) bool {
	sig := func(as []*idl.Argument) string {
		var b strings.Builder
		for _, a := range as {
			fmt.Fprintf(&b, "%v %v %s,", a.Optional, a.Variadic, a.Type)
		}
		return b.String()
	}
	s := sig(args)
	for _, op := range ops {
		if sig(op.args) == s {
			return true
		}
	}
	return false
}
