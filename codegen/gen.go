package codegen

import (
	"bytes"
	"fmt"
	goformat "go/format"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/gowebengine/weblocks/idl"
)

// Options configure a generation run.
type Options struct {
	// Package is the Go package name of the generated files.
	Package string
	// Registry is the name of the generated *webidl.Registry variable.
	Registry string
	// Stubs also generates stub implementations of every Methods and
	// Statics interface (for the coverage check).
	Stubs bool
	// SelfRegister makes the generated package register its definitions
	// itself, in an init function: the implementation of XStatics is the
	// zero value of the hand-written struct type xStatics (UnexportedName
	// of X, then "Statics"), declared in the package beside X's
	// implementation. A missing or incomplete one fails to compile.
	// Ignored with Stubs.
	SelfRegister bool
	// Impls maps IDL interface names to the Go types implementing them
	// ("Lock": "*lockImpl"), read by ReadImpls from an implementations
	// file. When it is not nil, every interface generated gets a
	// compile-time check that its Go type implements its Methods
	// interface and those of the interfaces it inherits from, so that a
	// missing or misspelled method fails to compile; an interface without
	// an entry, or an entry that names no generated interface, is an
	// error of the generation. Ignored with Stubs.
	Impls map[string]string
}

// Generator turns a Model into Go source files.
type Generator struct {
	m     *Model
	opt   Options
	types map[string]*tinfo
	// emitted conversion helpers, by key
	convDone map[string]bool
	used     map[string]bool
	// idents are the package-level Go identifiers in use.
	idents map[string]bool
	shared *bytes.Buffer
	// Errors per definition; a definition with errors is not generated.
	Errors map[string][]error
	// unionName is the typedef naming the union type being resolved.
	unionName string
	// ext is the import whose IDL types are being resolved (mustTypeIn).
	ext *Import
	// regs are the definitions Register adds.
	regs []regEntry
	// Generated lists the definitions generated.
	Generated []string
	// Mixins lists the interface mixins whose members were generated in
	// every interface including them; MixinErrors the others.
	Mixins      []string
	MixinErrors map[string]error
	// unsealed are the interfaces with descendants of another Go type
	// (sealedImpl); sealedTypes the Go types given idlImpl.
	unsealed    map[string]bool
	sealedTypes map[string]bool
}

// Output is one generated file.
type Output struct {
	Name string // file name (for example "web-locks_gen.go")
	Src  []byte
}

// Generate generates Go for every definition of the model. Definitions
// that cannot be generated are reported in g.Errors (and in m.Errors
// from loading) and left out; the rest still compiles.
func Generate(m *Model, opt Options) (*Generator, []Output, error) {
	if opt.Package == "" {
		opt.Package = "bindings"
	}
	if opt.Registry == "" {
		opt.Registry = "Interfaces"
	}
	g := &Generator{m: m, opt: opt, types: map[string]*tinfo{}, convDone: map[string]bool{}, used: map[string]bool{}, idents: map[string]bool{}, sealedTypes: map[string]bool{}, Errors: map[string][]error{}}
	for k, v := range m.Errors {
		g.Errors[k] = append(g.Errors[k], v...)
	}
	// Validate every definition first, so that a failing definition is
	// excluded and nothing refers to it.
	bad := map[string]bool{}
	for name := range g.Errors {
		bad[name] = true
	}
	for changed := true; changed; {
		changed = false
		for _, name := range m.Order {
			if bad[name] {
				continue
			}
			if err := g.check(name, bad); err != nil {
				g.Errors[name] = append(g.Errors[name], err)
				bad[name] = true
				changed = true
			}
		}
	}
	for _, name := range m.Order {
		gn := GoName(name)
		for _, id := range []string{gn, gn + "Methods", gn + "Statics", g.staticsName(gn), gn + "StaticsImpl", gn + "Type"} {
			g.idents[id] = true
		}
	}
	byFile := map[string][]string{}
	for _, name := range m.Order {
		if bad[name] {
			continue
		}
		byFile[m.FileOf[name]] = append(byFile[m.FileOf[name]], name)
	}
	var files []string
	for f := range byFile {
		files = append(files, f)
	}
	sort.Strings(files)
	g.shared = &bytes.Buffer{}
	var outs []Output
	for _, f := range files {
		var b bytes.Buffer
		names := byFile[f]
		sort.Strings(names)
		for _, name := range names {
			var db bytes.Buffer
			if err := g.emitDefinition(&db, name); err != nil {
				return nil, nil, fmt.Errorf("%s: %v", name, err)
			}
			b.Write(db.Bytes())
			g.Generated = append(g.Generated, name)
		}
		out, err := g.file(fileName(f), "// Source: "+filepath.Base(f)+"\n", b.Bytes())
		if err != nil {
			return nil, nil, err
		}
		outs = append(outs, Output{Name: fileName(f), Src: out})
	}
	g.checkMixins()
	g.checkImpls()
	// Shared helpers: registry, registration, conversions, unions.
	var sb bytes.Buffer
	fmt.Fprintf(&sb, "// %s holds the definitions Register added (every interface, callback\n// interface and namespace generated from the IDL); a realm installs the\n// exposed ones with (*webidl.Realm).Install.\nvar %s = webidl.NewRegistry()\n\n", opt.Registry, opt.Registry)
	g.emitRegister(&sb)
	g.emitSealedImpls(&sb)
	// Conversions can use more types (an imported dictionary's members):
	// repeat until every used type has its conversions.
	for more := true; more; {
		more = false
		for _, k := range g.sortedTypeKeys() {
			if g.used[k] && !g.convDone[k] {
				g.emitConversions(g.types[k])
				more = true
			}
		}
	}
	sb.Write(g.shared.Bytes())
	out, err := g.file("bindings_gen.go", "", sb.Bytes())
	if err != nil {
		return nil, nil, err
	}
	outs = append(outs, Output{Name: "bindings_gen.go", Src: out})
	return g, outs, nil
}

// checkMixins decides which interface mixins were generated: through the
// interfaces that include them, all of which must have been generated.
func (g *Generator) checkMixins() {
	m := g.m
	g.MixinErrors = map[string]error{}
	generated := map[string]bool{}
	for _, n := range g.Generated {
		generated[n] = true
	}
	var mixins []string
	for n := range m.Mixins {
		if m.External[n] == nil {
			mixins = append(mixins, n)
		}
	}
	sort.Strings(mixins)
	for _, n := range mixins {
		var err error
		for _, target := range m.IncludedBy[n] {
			if !generated[target] && m.External[target] == nil {
				err = fmt.Errorf("included by %s, which cannot be generated", target)
				break
			}
		}
		if len(m.IncludedBy[n]) == 0 {
			err = g.checkMembersStandalone(m.Mixins[n])
		}
		if err != nil {
			g.MixinErrors[n] = err
		} else {
			g.Mixins = append(g.Mixins, n)
		}
	}
}

// regEntry is a definition Register adds.
type regEntry struct {
	name    string
	statics bool // idlDef takes the XStatics implementation
}

// emitRegister writes the Statics struct and Register: the one place an
// implementation supplies the constructors, static members and namespace
// members, checked when registering (a missing one is an error there,
// never a TypeError when script first calls it).
func (g *Generator) emitRegister(b *bytes.Buffer) {
	sort.Slice(g.regs, func(i, j int) bool { return g.regs[i].name < g.regs[j].name })
	statics, register := g.registerNames()
	fmt.Fprintf(b, "// %s holds the implementations of the Statics interfaces of the\n// IDL (constructors, static members, namespace members), one field per\n// interface or namespace that has any. %s requires every field.\ntype %s struct {\n", statics, register, statics)
	for _, r := range g.regs {
		if r.statics {
			n := GoName(r.name)
			fmt.Fprintf(b, "\t%s %s\n", n, g.staticsName(n))
		}
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(b, "// %s adds every interface, callback interface and namespace\n// generated from the IDL to reg, their static members implemented by\n// impl. It fails, adding nothing, when a field of impl is nil or reg\n// already has one of the definitions.\nfunc %s(reg *webidl.Registry, impl %s) error {\n\tvar missing []string\n", register, register, statics)
	for _, r := range g.regs {
		if r.statics {
			fmt.Fprintf(b, "\tif impl.%s == nil {\n\t\tmissing = append(missing, %q)\n\t}\n", GoName(r.name), g.staticsName(GoName(r.name)))
		}
	}
	var names []string
	for _, r := range g.regs {
		names = append(names, strconv.Quote(r.name))
	}
	b.WriteString("\tif len(missing) > 0 {\n\t\treturn webidl.MissingImplementations(missing)\n\t}\n")
	if len(names) > 0 {
		fmt.Fprintf(b, "\tif err := reg.CheckNew(%s); err != nil {\n\t\treturn err\n\t}\n", strings.Join(names, ", "))
	}
	for _, r := range g.regs {
		if r.statics {
			fmt.Fprintf(b, "\treg.Add(idlDef%s(impl.%s))\n", GoName(r.name), GoName(r.name))
		} else {
			fmt.Fprintf(b, "\treg.Add(idlDef%s())\n", GoName(r.name))
		}
	}
	b.WriteString("\treturn nil\n}\n\n")
	if g.opt.Stubs {
		b.WriteString("func init() {\n\tif err := " + register + "(" + g.opt.Registry + ", " + statics + "{\n")
		for _, r := range g.regs {
			if r.statics {
				fmt.Fprintf(b, "\t\t%s: stubStatics%s{},\n", GoName(r.name), GoName(r.name))
			}
		}
		b.WriteString("\t}); err != nil {\n\t\tpanic(err)\n\t}\n}\n\n")
	} else if g.opt.SelfRegister {
		b.WriteString("// init registers the definitions in " + g.opt.Registry + ", the statics of each\n// interface implemented by the zero value of its hand-written xStatics\n// type (a missing one fails to compile).\nfunc init() {\n\tif err := " + register + "(" + g.opt.Registry + ", " + statics + "{\n")
		for _, r := range g.regs {
			if r.statics {
				fmt.Fprintf(b, "\t\t%s: %sStatics{},\n", GoName(r.name), UnexportedName(GoName(r.name)))
			}
		}
		b.WriteString("\t}); err != nil {\n\t\tpanic(err)\n\t}\n}\n\n")
	}
}

// selfRegistered reports whether the package registers its definitions
// itself (Options.SelfRegister): nothing outside it needs its Statics,
// Register and XStatics, which are then unexported.
func (g *Generator) selfRegistered() bool { return g.opt.SelfRegister && !g.opt.Stubs }

// registerNames returns the names of the generated Statics struct and
// Register function.
func (g *Generator) registerNames() (statics, register string) {
	if g.selfRegistered() {
		return "idlStatics", "idlRegister"
	}
	return "Statics", "Register"
}

// staticsName returns the name of the Statics interface of the interface
// or namespace whose Go name is n.
func (g *Generator) staticsName(n string) string {
	if g.selfRegistered() {
		return "idl" + n + "Statics"
	}
	return n + "Statics"
}

// sealedIn reports whether the imported interface name is sealed in its
// package imp (see sealedImpl): its Go type implements every interface
// of imp inheriting from it.
func (g *Generator) sealedIn(imp *Import, name string) bool {
	impl := imp.Impls[name]
	if impl == "" {
		return false
	}
	for n, i := range g.m.External {
		if i != imp || g.m.Interfaces[n] == nil || g.m.Interfaces[n].Kind != "interface" || imp.Impls[n] == impl {
			continue
		}
		for _, a := range g.m.Ancestors(n) {
			if a.Name == name {
				return false
			}
		}
	}
	return true
}

// UnexportedName returns the Go name n with its leading capitals lowered,
// keeping the capital that starts the next word: AbortSignal abortSignal,
// DOMException domException, URL url.
func UnexportedName(n string) string {
	r := []rune(n)
	i := 0
	for i < len(r) && unicode.IsUpper(r[i]) {
		i++
	}
	if i > 1 && i < len(r) && unicode.IsLower(r[i]) {
		i-- // the last capital starts the next word
	}
	for j := 0; j < i; j++ {
		r[j] = unicode.ToLower(r[j])
	}
	return string(r)
}

func fileName(idlFile string) string {
	base := filepath.Base(idlFile)
	base = strings.TrimSuffix(base, filepath.Ext(base))
	return strings.ReplaceAll(base, ".", "_") + "_gen.go"
}

// format gofmts generated source. The body is formatted a declaration
// at a time (with the comment before it), so that time and memory stay
// proportional to the size of one declaration rather than growing with
// the whole file's syntax tree (a 100k-deep dictionary chain makes a
// file of a hundred megabytes). The pieces split where a blank line is
// followed by a declaration at column 0, so gofmt of the whole file
// gives the same bytes.
//
// Generated declarations repeat with other names: formatting depends on
// the lengths of the tokens, not on which digits they hold, so the
// declarations with every digit replaced by 0 (their shape) are
// formatted once each (declShapes) and the digits put back.
func format(name string, header, body []byte) ([]byte, error) {
	out, err := formatPiece(name, header, 1)
	if err != nil {
		return nil, err
	}
	out = append(append(make([]byte, 0, len(out)+len(body)+len(body)/16), bytes.TrimRight(out, "\n")...), "\n\n"...)
	line := 1 + bytes.Count(header, []byte("\n"))
	shapes := declShapes{formatted: map[string][]byte{}}
	for len(body) > 0 {
		n := chunkEnd(body, 1)
		piece, err := shapes.format(name, body[:n], line)
		if err != nil {
			return nil, err
		}
		// Exactly one blank line between pieces, as between any two
		// top-level declarations in gofmt's output.
		out = append(append(out, bytes.TrimSpace(piece)...), "\n\n"...)
		line += bytes.Count(body[:n], []byte("\n"))
		body = body[n:]
	}
	// A file ends with one line break, as gofmt leaves it.
	return append(bytes.TrimRight(out, "\n"), '\n'), nil
}

// declShapes formats declarations by their shape: the declaration with
// each ASCII digit replaced by 0, whose gofmt output is the
// declaration's but for the digits (gofmt aligns by token lengths and
// keeps the non-blank characters). A shape whose output differs from it
// in more than blanks (gofmt rewrote something) is not used: such a
// declaration is formatted itself.
type declShapes struct {
	formatted map[string][]byte // shape -> gofmt of the shape, or nil: format the declaration itself
	size      int               // bytes held in formatted
	shape     []byte            // scratch
}

// maxShapeBytes bounds the memory held by declShapes: shapes met once it
// is full are formatted without being kept.
const maxShapeBytes = 16 << 20

func (s *declShapes) format(name string, decl []byte, first int) ([]byte, error) {
	s.shape = append(s.shape[:0], decl...)
	for i, c := range s.shape {
		if c >= '1' && c <= '9' {
			s.shape[i] = '0'
		}
	}
	f, ok := s.formatted[string(s.shape)]
	if !ok {
		var err error
		f, err = formatDecl(s.shape)
		if err != nil || !sameNonBlank(f, s.shape) {
			f = nil
		}
		if s.size+len(decl)+len(f) <= maxShapeBytes {
			s.formatted[string(s.shape)] = f
			s.size += len(decl) + len(f)
		}
	}
	if f == nil {
		out, err := formatPiece(name, append([]byte(declPackage), decl...), first-2)
		return bytes.TrimPrefix(out, []byte(declPackage)), err
	}
	// Put the declaration's digits back, in order.
	out := make([]byte, len(f))
	j := 0
	for i, c := range f {
		if c == '0' {
			for decl[j] < '0' || decl[j] > '9' {
				j++
			}
			c = decl[j]
			j++
		}
		out[i] = c
	}
	return out, nil
}

// declPackage makes a declaration a file, which gofmt formats as a whole
// (doc comments too, unlike a list of declarations).
const declPackage = "package p\n\n"

// formatDecl gofmts a declaration.
func formatDecl(decl []byte) ([]byte, error) {
	out, err := goformat.Source(append([]byte(declPackage), decl...))
	return bytes.TrimPrefix(out, []byte(declPackage)), err
}

// sameNonBlank reports whether a and b hold the same characters but for
// spaces, tabs and line breaks.
func sameNonBlank(a, b []byte) bool {
	blank := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	i, j := 0, 0
	for {
		for i < len(a) && blank(a[i]) {
			i++
		}
		for j < len(b) && blank(b[j]) {
			j++
		}
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		if a[i] != b[j] {
			return false
		}
		i++
		j++
	}
}

// chunkEnd returns the end of the first piece of src of at least min
// bytes that ends before a top-level declaration or comment (a blank
// line, then a line starting with a letter or "/"), or len(src).
func chunkEnd(src []byte, min int) int {
	for i := min; i < len(src); {
		j := bytes.Index(src[i:], []byte("\n\n"))
		if j < 0 {
			break
		}
		k := i + j + 2
		if k < len(src) && (src[k] == '/' || src[k] >= 'a' && src[k] <= 'z') {
			return k
		}
		i = k - 1
	}
	return len(src)
}

// formatPiece gofmts src, whole declarations (or the header), which
// starts at line first of the generated file.
func formatPiece(name string, src []byte, first int) ([]byte, error) {
	out, err := goformat.Source(src)
	if err != nil {
		// Return the unformatted source in the error for debugging.
		lines := strings.Split(string(src), "\n")
		var ctx strings.Builder
		el := errLine(err)
		if el > 0 {
			for i := max(0, el-5); i < min(len(lines), el+3); i++ {
				fmt.Fprintf(&ctx, "%5d %s\n", first+i, lines[i])
			}
		}
		return nil, fmt.Errorf("formatting %s: line %d: %v\n%s", name, first+max(el, 1)-1, err, ctx.String())
	}
	return out, nil
}

// errLine returns the line of a go/format error ("12:5: expected ..."
// for a piece of a file, "name:12:5: ..." otherwise), or 0.
func errLine(err error) int {
	parts := strings.SplitN(err.Error(), ":", 3)
	for _, p := range parts[:min(2, len(parts))] {
		if n, err := strconv.Atoi(p); err == nil {
			return n
		}
	}
	return 0
}

// file assembles a generated Go file: the header, the package clause, the
// imports the body uses, and the body.
func (g *Generator) file(name, source string, body []byte) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by bindgen. DO NOT EDIT.\n")
	b.WriteString(source)
	fmt.Fprintf(&b, "\npackage %s\n\n", g.opt.Package)
	var std, other []string
	for _, imp := range g.imports() {
		if usesPackage(body, imp.name) {
			if strings.Contains(imp.path, ".") {
				other = append(other, strconv.Quote(imp.path))
			} else {
				std = append(std, strconv.Quote(imp.path))
			}
		}
	}
	sort.Strings(std)
	sort.Strings(other)
	if len(std)+len(other) > 0 {
		b.WriteString("import (\n")
		for _, p := range std {
			b.WriteString("\t" + p + "\n")
		}
		if len(std) > 0 && len(other) > 0 {
			b.WriteString("\n")
		}
		for _, p := range other {
			b.WriteString("\t" + p + "\n")
		}
		b.WriteString(")\n\n")
	}
	return format(name, b.Bytes(), body)
}

type goImport struct{ name, path string }

// imports lists the packages generated code may use, by package name.
func (g *Generator) imports() []goImport {
	out := []goImport{{"big", "math/big"}, {"sobek", "github.com/grafana/sobek"}, {"webidl", "github.com/gowebengine/weblocks/bindings/webidl"}}
	for _, imp := range g.m.imports {
		out = append(out, goImport{imp.Name, imp.Path})
	}
	return out
}

// usesPackage reports whether Go source refers to the package name pkg
// (an identifier pkg followed by a dot, not inside a longer identifier).
func usesPackage(src []byte, pkg string) bool {
	needle := []byte(pkg + ".")
	for i := 0; ; {
		j := bytes.Index(src[i:], needle)
		if j < 0 {
			return false
		}
		j += i
		if j == 0 || !isIdentByte(src[j-1]) && src[j-1] != '.' {
			return true
		}
		i = j + len(needle)
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// check validates one definition: extended attributes and types.
func (g *Generator) check(name string, bad map[string]bool) error {
	m := g.m
	checkAttrs := func(attrs []*idl.ExtendedAttribute) error {
		for _, a := range attrs {
			if _, ok := supportedExtAttrs[a.Name]; !ok {
				return posErrorf(a.Pos(), "unsupported extended attribute [%s]", a.Name)
			}
		}
		return nil
	}
	checkType := func(t *idl.Type) error {
		if t == nil {
			return nil
		}
		ti, err := g.typeOf(t)
		if err != nil {
			return err
		}
		var refs []string
		collectRefs(ti, &refs)
		for _, r := range refs {
			if bad[r] {
				return posErrorf(t.Pos(), "uses %s, which cannot be generated", r)
			}
		}
		return nil
	}
	checkArgs := func(args []*idl.Argument) error {
		for _, a := range args {
			if err := checkAttrs(a.ExtAttrs.List()); err != nil {
				return err
			}
			if err := checkType(a.Type); err != nil {
				return err
			}
		}
		return nil
	}
	if it, ok := m.Interfaces[name]; ok {
		if err := checkAttrs(it.ExtAttrs); err != nil {
			return err
		}
		if it.Parent != "" {
			if _, ok := m.Interfaces[it.Parent]; !ok || bad[it.Parent] {
				return posErrorf(it.Def.Pos(), "parent interface %s is not available", it.Parent)
			}
		}
		for _, a := range m.Ancestors(name) {
			if imp := m.External[a.Name]; imp != nil && g.sealedIn(imp, a.Name) {
				return posErrorf(it.Def.Pos(), "interface %s inherits %s, whose only implementation is %s of package %s: it cannot be inherited outside that package", name, a.Name, imp.Impls[a.Name], imp.Path)
			}
		}
		if it.Kind == "interface" && len(it.Exposed) == 0 && !hasAttr(it.ExtAttrs, "LegacyNoInterfaceObject") {
			return posErrorf(it.Def.Pos(), "interface %s has no [Exposed]", it.Name)
		}
		for _, mi := range it.Members {
			if err := checkAttrs(mi.Member.Attributes().List()); err != nil {
				return err
			}
			switch mem := mi.Member.(type) {
			case *idl.Attribute:
				if err := checkType(mem.Type); err != nil {
					return err
				}
			case *idl.Operation:
				if mem.Special == "getter" || mem.Special == "setter" || mem.Special == "deleter" {
					if len(mem.Arguments) == 0 {
						return posErrorf(mem.Pos(), "%s without arguments", mem.Special)
					}
					if _, err := specialKind(g, mem); err != nil {
						return err
					}
				}
				if err := checkType(mem.ReturnType); err != nil {
					return err
				}
				if err := checkArgs(mem.Arguments); err != nil {
					return err
				}
			case *idl.Constructor:
				if err := checkArgs(mem.Arguments); err != nil {
					return err
				}
			case *idl.Constant:
				if err := checkType(mem.Type); err != nil {
					return err
				}
			case *idl.Iterable:
				for _, t := range []*idl.Type{mem.Key, mem.Value} {
					if err := checkType(t); err != nil {
						return err
					}
				}
				if err := checkArgs(mem.Arguments); err != nil {
					return err
				}
			case *idl.Maplike:
				for _, t := range []*idl.Type{mem.Key, mem.Value} {
					if err := checkType(t); err != nil {
						return err
					}
				}
			case *idl.Setlike:
				if err := checkType(mem.Value); err != nil {
					return err
				}
			}
		}
		// Overload sets must be resolvable.
		if it.Kind != "mixin" {
			for _, set := range g.overloadSets(it) {
				if _, err := g.effectiveOverloads(set); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if d, ok := m.Dictionaries[name]; ok {
		if err := checkAttrs(d.ExtAttrs); err != nil {
			return err
		}
		if d.Parent != "" {
			if _, ok := m.Dictionaries[d.Parent]; !ok || bad[d.Parent] {
				return fmt.Errorf("dictionary %s inherits from unavailable %s", name, d.Parent)
			}
		}
		for _, f := range d.Members {
			if err := checkAttrs(f.ExtAttrs.List()); err != nil {
				return err
			}
			if err := checkType(f.Type); err != nil {
				return err
			}
		}
		return nil
	}
	if e, ok := m.Enums[name]; ok {
		return checkAttrs(e.ExtAttrs.List())
	}
	if td, ok := m.Typedefs[name]; ok {
		if err := checkAttrs(td.ExtAttrs.List()); err != nil {
			return err
		}
		return checkType(td.Type)
	}
	if cb, ok := m.Callbacks[name]; ok {
		if err := checkAttrs(cb.ExtAttrs.List()); err != nil {
			return err
		}
		if err := checkType(cb.ReturnType); err != nil {
			return err
		}
		return checkArgs(cb.Arguments)
	}
	return nil
}

// checkMembersStandalone type-checks the members of a mixin that no
// interface includes (nothing is generated for it).
func (g *Generator) checkMembersStandalone(it *Interface) error {
	for _, mi := range it.Members {
		for _, a := range mi.Member.Attributes().List() {
			if _, ok := supportedExtAttrs[a.Name]; !ok {
				return posErrorf(a.Pos(), "unsupported extended attribute [%s]", a.Name)
			}
		}
		var types []*idl.Type
		switch mem := mi.Member.(type) {
		case *idl.Attribute:
			types = append(types, mem.Type)
		case *idl.Operation:
			types = append(types, mem.ReturnType)
			for _, a := range mem.Arguments {
				types = append(types, a.Type)
			}
		case *idl.Constant:
			types = append(types, mem.Type)
		}
		for _, t := range types {
			if t == nil {
				continue
			}
			if _, err := g.typeOf(t); err != nil {
				return err
			}
		}
	}
	return nil
}

// collectRefs lists the named definitions a type refers to.
func collectRefs(t *tinfo, out *[]string) {
	if t == nil {
		return
	}
	if t.name != "" {
		*out = append(*out, t.name)
	}
	collectRefs(t.inner, out)
	collectRefs(t.keyT, out)
	for _, m := range t.members {
		collectRefs(m, out)
	}
}

// mustTypeIn is mustType for a type written in imported IDL: its union
// types are the imported package's.
func (g *Generator) mustTypeIn(t *idl.Type, imp *Import) *tinfo {
	prev := g.ext
	g.ext = imp
	defer func() { g.ext = prev }()
	return g.mustType(t)
}

func (g *Generator) mustType(t *idl.Type) *tinfo {
	ti, err := g.typeOf(t)
	if err != nil {
		panic(err)
	}
	return ti
}

func (g *Generator) emitDefinition(b *bytes.Buffer, name string) (err error) {
	defer func() {
		if x := recover(); x != nil {
			if e, ok := x.(error); ok {
				err = e
				return
			}
			panic(x)
		}
	}()
	m := g.m
	switch {
	case m.Interfaces[name] != nil:
		it := m.Interfaces[name]
		switch it.Kind {
		case "interface":
			g.emitInterface(b, it)
		case "namespace":
			g.emitNamespace(b, it)
		case "callback interface":
			g.emitCallbackInterface(b, it)
		}
	case m.Dictionaries[name] != nil:
		g.emitDictionary(b, m.Dictionaries[name])
	case m.Enums[name] != nil:
		g.emitEnum(b, m.Enums[name])
	case m.Typedefs[name] != nil:
		td := m.Typedefs[name]
		if g.unionTypedef(&idl.Type{Name: name}) != "" {
			// The union type is named after the typedef.
			g.use(g.mustType(&idl.Type{Name: name, Loc: td.Loc}))
			return nil
		}
		ti := g.mustType(td.Type)
		g.use(ti)
		fmt.Fprintf(b, "// %sType is the IDL typedef %s = %s.\ntype %s = %s\n\n", GoName(name), name, td.Type, GoName(name)+"Type", ti.goType)
	case m.Callbacks[name] != nil:
		g.emitCallback(b, m.Callbacks[name])
	}
	return nil
}

// ---- enums ----

func enumConst(enum, value string) string {
	// The value's alphanumeric runs, each capitalized, after the enum's
	// name (which makes a leading digit fine).
	var b strings.Builder
	up := true
	for _, c := range value {
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			if up && c >= 'a' && c <= 'z' {
				c -= 'a' - 'A'
			}
			b.WriteRune(c)
			up = false
		default:
			up = true
		}
	}
	v := b.String()
	if v == "" {
		v = "Empty"
	}
	return GoName(enum) + v
}

func (g *Generator) emitEnum(b *bytes.Buffer, e *idl.Enum) {
	n := GoName(e.Name)
	fmt.Fprintf(b, "// %s is the IDL enumeration %s.\ntype %s string\n\n", n, e.Name, n)
	if len(e.Values) > 0 {
		b.WriteString("// Values of " + n + ".\nconst (\n")
		for _, v := range e.Values {
			c := enumConst(e.Name, v.Value)
			for g.idents[c] {
				c += "_"
			}
			g.idents[c] = true
			fmt.Fprintf(b, "\t%s %s = %s\n", c, n, strconv.Quote(v.Value))
		}
		b.WriteString(")\n\n")
	}
	g.emitEnumValues(b, e)
}

// emitEnumValues writes the list of an enumeration's values.
func (g *Generator) emitEnumValues(b *bytes.Buffer, e *idl.Enum) {
	var vals []string
	for _, v := range e.Values {
		vals = append(vals, strconv.Quote(v.Value))
	}
	fmt.Fprintf(b, "var idlValues%s = []string{%s}\n\n", GoName(e.Name), strings.Join(vals, ", "))
}

// ---- dictionaries ----

func (g *Generator) fieldName(d *Dictionary, f *idl.Field) string {
	n := GoName(f.Name)
	if d.Parent != "" && n == GoName(d.Parent) {
		n += "_"
	}
	return n
}

// memberGoType returns the Go type of a dictionary member or optional
// argument without default: T when required/defaulted or nil-able, else
// webidl.Optional[T].
func optionalType(ti *tinfo, hasValue bool) string {
	if hasValue || ti.nilable {
		return ti.goType
	}
	if ti.byPointer() {
		return "*" + ti.goType
	}
	return "webidl.Optional[" + ti.goType + "]"
}

// byPointer: optional dictionaries are held by pointer (nil = absent), as
// a dictionary may contain itself.
func (t *tinfo) byPointer() bool {
	return t.cat == catDictLike && !t.nullable && !t.nilable && t.name != "record"
}

// someExpr wraps a converted value for an optional slot of type ti.
func someExpr(ti *tinfo, expr string) string {
	if ti.byPointer() {
		return "webidl.Ptr(" + expr + ")"
	}
	return "webidl.Some(" + expr + ")"
}

// presentExpr and valueExpr read an optional slot of type ti.
func presentExpr(ti *tinfo, x string) string {
	if ti.byPointer() {
		return x + " != nil"
	}
	return x + ".Present"
}

func valueExpr(ti *tinfo, x string) string {
	if ti.byPointer() {
		return "*" + x
	}
	return x + ".Value"
}

func (g *Generator) emitDictionary(b *bytes.Buffer, d *Dictionary) {
	n := GoName(d.Name)
	fmt.Fprintf(b, "// %s is the IDL dictionary %s.\ntype %s struct {\n", n, d.Name, n)
	if d.Parent != "" {
		fmt.Fprintf(b, "\t%s\n", g.m.qualify(d.Parent))
	}
	for _, f := range g.m.OwnDictionaryMembers(d.Name) {
		ti := g.mustType(f.Type)
		req := ""
		if f.Required {
			req = " (required)"
		}
		typ := optionalType(ti, f.Required || f.Default != nil)
		if nullableWithoutDefault(ti, f) {
			typ = "webidl.Optional[" + ti.goType + "]"
		}
		fmt.Fprintf(b, "\t// %s is the member %q%s.\n\t%s %s\n", g.fieldName(d, f), f.Name, req, g.fieldName(d, f), typ)
	}
	b.WriteString("}\n\n")
	g.emitDictionaryConversions(b, d)
}

// nullableWithoutDefault reports whether f is an optional member of a
// nullable type whose Go type is nil-able, without a default: it is a
// webidl.Optional, so that a member given as null (Present, a nil Value)
// differs from one absent (RequestInit's signal: null removes the input
// request's signal).
func nullableWithoutDefault(ti *tinfo, f *idl.Field) bool {
	return !f.Required && f.Default == nil && ti.nilable && ti.nullable
}

// emitDictionaryConversions writes the functions reading a dictionary from
// a JavaScript object and writing it to one (an imported dictionary's too,
// as its package's are unexported).
func (g *Generator) emitDictionaryConversions(b *bytes.Buffer, d *Dictionary) {
	n := GoName(d.Name)
	q := g.m.qualify(d.Name)
	fields := g.m.OwnDictionaryMembers(d.Name)
	typ := g.mustType
	if imp := g.m.External[d.Name]; imp != nil {
		typ = func(t *idl.Type) *tinfo { return g.mustTypeIn(t, imp) }
	}
	if d.Parent != "" {
		// The parent's conversions are needed (an imported parent's are
		// generated here).
		g.from(g.mustType(&idl.Type{Name: d.Parent}))
	}
	fmt.Fprintf(b, "// idlReadDict%s reads the members of %s from obj (nil for undefined\n// or null).\nfunc idlReadDict%s(r *webidl.Realm, obj *sobek.Object, d *%s) {\n", n, d.Name, n, q)
	if d.Parent != "" {
		fmt.Fprintf(b, "\tidlReadDict%s(r, obj, &d.%s)\n", GoName(d.Parent), GoName(d.Parent))
	}
	for _, f := range fields {
		ti := typ(f.Type)
		fn := g.fieldName(d, f)
		fmt.Fprintf(b, "\tif v := r.DictionaryMember(obj, %s); v != nil {\n", strconv.Quote(f.Name))
		if f.Required || f.Default != nil || ti.nilable && !nullableWithoutDefault(ti, f) {
			fmt.Fprintf(b, "\t\td.%s = %s(r, v)\n", fn, g.from(ti))
		} else {
			fmt.Fprintf(b, "\t\td.%s = %s\n", fn, someExpr(ti, g.from(ti)+"(r, v)"))
		}
		switch {
		case f.Required:
			fmt.Fprintf(b, "\t} else {\n\t\tr.RequiredMemberMissing(%s, %s)\n", strconv.Quote(d.Name), strconv.Quote(f.Name))
		case f.Default != nil:
			fmt.Fprintf(b, "\t} else {\n\t\td.%s = %s\n", fn, g.defaultExpr(ti, f.Default))
		}
		b.WriteString("\t}\n")
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(b, "// idlWriteDict%s writes the members of %s to obj.\nfunc idlWriteDict%s(r *webidl.Realm, obj *sobek.Object, d *%s) {\n", n, d.Name, n, q)
	if d.Parent != "" {
		fmt.Fprintf(b, "\tidlWriteDict%s(r, obj, &d.%s)\n", GoName(d.Parent), GoName(d.Parent))
	}
	for _, f := range fields {
		ti := typ(f.Type)
		fn := g.fieldName(d, f)
		key := strconv.Quote(f.Name)
		switch {
		case f.Required || f.Default != nil:
			fmt.Fprintf(b, "\t_ = obj.DefineDataProperty(%s, %s(r, d.%s), sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_TRUE)\n", key, g.to(ti), fn)
		case ti.nilable && !nullableWithoutDefault(ti, f):
			fmt.Fprintf(b, "\tif d.%s != nil {\n\t\t_ = obj.DefineDataProperty(%s, %s(r, d.%s), sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_TRUE)\n\t}\n", fn, key, g.to(ti), fn)
		default:
			fmt.Fprintf(b, "\tif %s {\n\t\t_ = obj.DefineDataProperty(%s, %s(r, %s), sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_TRUE)\n\t}\n", presentExpr(ti, "d."+fn), key, g.to(ti), valueExpr(ti, "d."+fn))
		}
	}
	b.WriteString("}\n\n")
}

// defaultExpr is the Go expression of an IDL default value of type ti,
// evaluated in a context where r is the realm: the literal's JavaScript
// value converted like an argument ({} is undefined, [] an empty
// sequence).
func (g *Generator) defaultExpr(ti *tinfo, v *idl.Value) string {
	var js string
	switch v.Kind {
	case "boolean":
		js = "webidl.ConstValue(" + v.Text + ")"
	case "number":
		js = "webidl.ConstValue(" + numberLiteral(v.Text) + ")"
	case "string":
		js = "webidl.StringValue(" + strconv.Quote(v.Text) + ")"
	case "null":
		js = "sobek.Null()"
	case "undefined", "dictionary":
		js = "sobek.Undefined()"
	case "Infinity":
		if v.Negative {
			js = "sobek.NegativeInf()"
		} else {
			js = "sobek.PositiveInf()"
		}
	case "NaN":
		js = "sobek.NaN()"
	case "sequence":
		if ti.cat == catSequence && !ti.nullable {
			return ti.goType + "{}"
		}
		js = "r.VM.NewArray()"
	default:
		panic(posErrorf(v.Pos(), "unknown default value kind %s", v.Kind))
	}
	return g.from(ti) + "(r, " + js + ")"
}

// numberLiteral turns an IDL number literal into a Go float64 or int64
// constant expression.
func numberLiteral(text string) string {
	if i, err := strconv.ParseInt(text, 0, 64); err == nil {
		return "int64(" + strconv.FormatInt(i, 10) + ")"
	}
	if strings.HasPrefix(text, "-0") && !strings.ContainsAny(text, ".eE") {
		if i, err := strconv.ParseInt(strings.TrimPrefix(text, "-"), 0, 64); err == nil {
			return "int64(-" + strconv.FormatInt(i, 10) + ")"
		}
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		if u, err2 := strconv.ParseUint(text, 0, 64); err2 == nil {
			return "float64(" + strconv.FormatUint(u, 10) + ")"
		}
		panic(fmt.Errorf("bad number literal %q", text))
	}
	return "float64(" + strconv.FormatFloat(f, 'g', -1, 64) + ")"
}

// ---- callbacks ----

func (g *Generator) paramList(args []*idl.Argument) (decl []string, conv []string) {
	for _, a := range args {
		ti := g.mustType(a.Type)
		pn := "arg" + GoName(a.Name())
		switch {
		case a.Variadic:
			decl = append(decl, pn+" []"+ti.goType)
		case a.Optional && a.Default == nil:
			decl = append(decl, pn+" "+optionalType(ti, false))
		default:
			decl = append(decl, pn+" "+ti.goType)
		}
		_ = conv
	}
	return decl, nil
}

func (g *Generator) emitCallback(b *bytes.Buffer, cb *idl.Callback) {
	n := GoName(cb.Name)
	ret := g.mustType(cb.ReturnType)
	fmt.Fprintf(b, "// %s is the IDL callback function type %s.\ntype %s struct{ *webidl.CallbackFunction }\n\n", n, cb.Name, n)
	decl, _ := g.paramList(cb.Arguments)
	params := strings.Join(append([]string{"thisArg sobek.Value"}, decl...), ", ")
	var argsCode strings.Builder
	argsCode.WriteString("\t\tvar args []sobek.Value\n")
	g.emitCallbackArgs(&argsCode, cb.Arguments)
	switch {
	case ret.cat == catPromise:
		fmt.Fprintf(b, "// Invoke invokes the callback; an exception becomes a rejected promise.\nfunc (c *%s) Invoke(%s) *webidl.Promise {\n\tr := c.Realm\n\tvar p *webidl.Promise\n\tif err := r.Catch(func() {\n%s\t\tp = c.InvokePromise(thisArg, args...)\n\t}); err != nil {\n\t\treturn r.PromiseRejectedWithError(err)\n\t}\n\treturn p\n}\n\n", n, params, argsCode.String())
	case ret.cat == catUndefined:
		fmt.Fprintf(b, "// Invoke invokes the callback; a JavaScript exception is a *webidl.JSError.\nfunc (c *%s) Invoke(%s) error {\n\tr := c.Realm\n\tvar args []sobek.Value\n\tif err := r.Catch(func() {\n%s\t}); err != nil {\n\t\treturn err\n\t}\n\t_, err := c.CallbackFunction.Invoke(thisArg, args...)\n\treturn err\n}\n\n", n, params, strings.Replace(argsCode.String(), "\t\tvar args []sobek.Value\n", "", 1))
	default:
		fmt.Fprintf(b, "// Invoke invokes the callback and converts its result; a JavaScript\n// exception is a *webidl.JSError.\nfunc (c *%s) Invoke(%s) (%s, error) {\n\tr := c.Realm\n\tvar res %s\n\tvar args []sobek.Value\n\tif err := r.Catch(func() {\n%s\t}); err != nil {\n\t\treturn res, err\n\t}\n\tv, err := c.CallbackFunction.Invoke(thisArg, args...)\n\tif err != nil {\n\t\treturn res, err\n\t}\n\terr = r.Catch(func() { res = %s(r, webidl.AnyValue(v)) })\n\treturn res, err\n}\n\n",
			n, params, ret.goType, ret.goType, strings.Replace(argsCode.String(), "\t\tvar args []sobek.Value\n", "", 1), g.from(ret))
	}
}

// emitCallbackArgs appends the JavaScript values of callback arguments to
// args (missing optional trailing arguments left out).
func (g *Generator) emitCallbackArgs(b *strings.Builder, args []*idl.Argument) {
	for _, a := range args {
		ti := g.mustType(a.Type)
		pn := "arg" + GoName(a.Name())
		switch {
		case a.Variadic:
			fmt.Fprintf(b, "\t\tfor _, x := range %s {\n\t\t\targs = append(args, %s(r, x))\n\t\t}\n", pn, g.to(ti))
		case a.Optional && a.Default == nil && !ti.nilable:
			fmt.Fprintf(b, "\t\tif %s {\n\t\t\targs = append(args, %s(r, %s))\n\t\t} else {\n\t\t\targs = append(args, sobek.Undefined())\n\t\t}\n", presentExpr(ti, pn), g.to(ti), valueExpr(ti, pn))
		default:
			fmt.Fprintf(b, "\t\targs = append(args, %s(r, %s))\n", g.to(ti), pn)
		}
	}
}

func (g *Generator) emitCallbackInterface(b *bytes.Buffer, it *Interface) {
	n := GoName(it.Name)
	fmt.Fprintf(b, "// %s is the IDL callback interface %s.\ntype %s struct{ *webidl.CallbackInterface }\n\n", n, it.Name, n)
	var consts []*idl.Constant
	for _, mi := range it.Members {
		switch mem := mi.Member.(type) {
		case *idl.Operation:
			ret := g.mustType(mem.ReturnType)
			decl, _ := g.paramList(mem.Arguments)
			params := strings.Join(append([]string{"thisArg sobek.Value"}, decl...), ", ")
			var argsCode strings.Builder
			g.emitCallbackArgs(&argsCode, mem.Arguments)
			mn := GoName(mem.Name)
			if ret.cat == catUndefined {
				fmt.Fprintf(b, "// %s calls the user object's operation %q.\nfunc (c *%s) %s(%s) error {\n\tr := c.Realm\n\tvar args []sobek.Value\n\tif err := r.Catch(func() {\n%s\t}); err != nil {\n\t\treturn err\n\t}\n\t_, err := c.CallOperation(%s, thisArg, args...)\n\treturn err\n}\n\n",
					mn, mem.Name, n, mn, params, argsCode.String(), strconv.Quote(mem.Name))
			} else {
				fmt.Fprintf(b, "// %s calls the user object's operation %q.\nfunc (c *%s) %s(%s) (%s, error) {\n\tr := c.Realm\n\tvar res %s\n\tvar args []sobek.Value\n\tif err := r.Catch(func() {\n%s\t}); err != nil {\n\t\treturn res, err\n\t}\n\tv, err := c.CallOperation(%s, thisArg, args...)\n\tif err != nil {\n\t\treturn res, err\n\t}\n\terr = r.Catch(func() { res = %s(r, webidl.AnyValue(v)) })\n\treturn res, err\n}\n\n",
					mn, mem.Name, n, mn, params, ret.goType, ret.goType, argsCode.String(), strconv.Quote(mem.Name), g.from(ret))
			}
		case *idl.Constant:
			consts = append(consts, mem)
		}
	}
	if len(consts) > 0 {
		// A legacy callback interface object holding the constants.
		g.regs = append(g.regs, regEntry{name: it.Name})
		fmt.Fprintf(b, "// idlDef%s returns the definition of the legacy callback interface\n// object %s.\nfunc idlDef%s() *webidl.InterfaceDef {\n\treturn &webidl.InterfaceDef{\n\t\tName: %q,\n\t\tCallback: true,\n\t\tExposed: %s,\n", n, it.Name, n, it.Name, goStrings(it.Exposed))
		g.emitConstants(b, it)
		b.WriteString("\t}\n}\n\n")
	}
}

func goStrings(s []string) string {
	if s == nil {
		return "nil"
	}
	var q []string
	for _, x := range s {
		q = append(q, strconv.Quote(x))
	}
	return "[]string{" + strings.Join(q, ", ") + "}"
}

func (g *Generator) emitConstants(b *bytes.Buffer, it *Interface) {
	var consts []*MemberInfo
	for _, mi := range it.Members {
		if _, ok := mi.Member.(*idl.Constant); ok {
			consts = append(consts, mi)
		}
	}
	if len(consts) == 0 {
		return
	}
	b.WriteString("\t\tConstants: []webidl.Constant{\n")
	for _, mi := range consts {
		c := mi.Member.(*idl.Constant)
		var val string
		switch c.Value.Kind {
		case "boolean":
			val = "webidl.ConstValue(" + c.Value.Text + ")"
		case "number":
			val = "webidl.ConstValue(" + numberLiteral(c.Value.Text) + ")"
		case "Infinity":
			if c.Value.Negative {
				val = "sobek.NegativeInf()"
			} else {
				val = "sobek.PositiveInf()"
			}
		case "NaN":
			val = "sobek.NaN()"
		default:
			panic(posErrorf(c.Pos(), "constant value kind %s", c.Value.Kind))
		}
		fmt.Fprintf(b, "\t\t\t{Name: %q, Value: %s, Exposed: %s, SecureContext: %v},\n", c.Name, val, goStrings(mi.Exposed), mi.Secure || hasAttr(c.ExtAttrs.List(), "SecureContext"))
	}
	b.WriteString("\t\t},\n")
}
