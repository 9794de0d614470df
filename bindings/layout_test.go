package bindings

import (
	"go/ast"
	"go/types"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/codegen"
	"github.com/gowebengine/weblocks/idl"
	"golang.org/x/tools/go/packages"
)

// The hand-written files of this package follow one rule (doc.go): one
// file per interface, named after it in lower case (abortsignal.go for
// AbortSignal), holding its implementation type, its Methods methods and
// its statics. A mixin's members may live in the mixin's file
// (parentnode.go) or in the file of an interface including it; a member
// shared by several interfaces implemented by one Go type (src of
// HTMLScriptElement and HTMLIFrameElement) in the file of any of them.
// Files not named after an interface (realm.go, clone.go...) hold no
// interface's members.
func TestOneFilePerInterface(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command (go/packages needs it)")
	}
	l := loadLayout(t)
	var problems []string
	for _, f := range l.files {
		base := strings.TrimSuffix(filepath.Base(l.pkg.Fset.Position(f.Pos()).Filename), ".go")
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					continue
				}
				obj, _ := l.pkg.TypesInfo.Defs[d.Name].(*types.Func)
				if obj == nil {
					continue
				}
				recv := namedOf(obj.Type().(*types.Signature).Recv().Type())
				if recv == nil {
					continue
				}
				if want := l.staticsOwner(recv); want != "" {
					if base != strings.ToLower(want) {
						problems = append(problems, base+".go: "+recv.Obj().Name()+"."+d.Name.Name+" (statics of "+want+") belongs in "+strings.ToLower(want)+".go")
					}
					continue
				}
				owners := l.owners(recv, d.Name.Name)
				if len(owners) > 0 && !containsFold(owners, base) {
					problems = append(problems, base+".go: "+recv.Obj().Name()+"."+d.Name.Name+" implements a member of "+strings.Join(owners, " or ")+", not of "+base)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					tn, _ := l.pkg.TypesInfo.Defs[ts.Name].(*types.TypeName)
					if tn == nil {
						continue
					}
					named, _ := tn.Type().(*types.Named)
					if named == nil {
						continue
					}
					if want := l.staticsOwner(named); want != "" {
						if base != strings.ToLower(want) {
							problems = append(problems, base+".go: type "+ts.Name.Name+" (statics of "+want+") belongs in "+strings.ToLower(want)+".go")
						}
						continue
					}
					if impl := l.declares(named); len(impl) > 0 && !containsFold(impl, base) {
						problems = append(problems, base+".go: type "+ts.Name.Name+" implements "+strings.Join(impl, ", ")+": it belongs in the file of one of them")
					}
				}
			}
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
	if len(l.methods) < 50 || l.checked < 300 {
		t.Fatalf("found %d Methods interfaces and checked %d methods: the test lost its input", len(l.methods), l.checked)
	}
}

// The layout test catches a misplaced method, a misplaced statics type
// and a misplaced implementation type (it can fail).
func TestOneFilePerInterfaceDetects(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command (go/packages needs it)")
	}
	l := loadLayout(t)
	lookup := func(name string) *types.Named {
		return l.pkg.Types.Scope().Lookup(name).Type().(*types.Named)
	}
	if o := l.owners(lookup("lockImpl"), "Mode"); !equalStrings(o, []string{"Lock"}) {
		t.Errorf("owners of lockImpl.Mode = %v, want [Lock] (not lockmanager.go)", o)
	}
	if o := l.owners(lookup("nodeImpl"), "Append"); !containsFold(o, "parentnode") || !containsFold(o, "element") || containsFold(o, "node") {
		t.Errorf("owners of nodeImpl.Append = %v, want ParentNode and its includers, not Node", o)
	}
	if o := l.owners(lookup("globalBase"), "SetTimeout"); !containsFold(o, "windoworworkerglobalscope") || containsFold(o, "eventtarget") {
		t.Errorf("owners of globalBase.SetTimeout = %v, want WindowOrWorkerGlobalScope (through its embedders)", o)
	}
	if o := l.owners(lookup("lockManagerImpl"), "request"); len(o) != 0 {
		t.Errorf("owners of the helper lockManagerImpl.request = %v, want none", o)
	}
	if s := l.staticsOwner(lookup("urlSearchParamsStatics")); s != "URLSearchParams" {
		t.Errorf("urlSearchParamsStatics are the statics of %q, want URLSearchParams", s)
	}
	if impl := l.declares(lookup("abortSignalImpl")); !equalStrings(impl, []string{"AbortSignal"}) {
		t.Errorf("abortSignalImpl declares the members of %v, want [AbortSignal] (EventTarget's are promoted)", impl)
	}
	if impl := l.declares(lookup("globalBase")); len(impl) != 0 {
		t.Errorf("globalBase declares the members of %v, want none (its own are a mixin's)", impl)
	}
}

type layout struct {
	pkg   *packages.Package
	files []*ast.File // hand-written, non-test
	// methods: interface name -> its XMethods interface; statics likewise.
	methods, statics map[string]*types.Interface
	// mixins: mixin name -> Go method names of its members; includes:
	// interface -> mixins it includes.
	mixins   map[string]map[string]bool
	includes map[string][]string
	named    []*types.Named
	checked  int
}

func loadLayout(t *testing.T) *layout {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo, Dir: "."}, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 {
		t.Fatalf("loading the package: %d packages", len(pkgs))
	}
	if len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading the package: %v", pkgs[0].Errors)
	}
	l := &layout{pkg: pkgs[0], methods: map[string]*types.Interface{}, statics: map[string]*types.Interface{},
		mixins: map[string]map[string]bool{}, includes: map[string][]string{}}
	for _, f := range l.pkg.Syntax {
		name := l.pkg.Fset.Position(f.Pos()).Filename
		if !strings.HasSuffix(name, "_gen.go") && !strings.HasSuffix(name, "_test.go") {
			l.files = append(l.files, f)
		}
	}
	scope := l.pkg.Types.Scope()
	for _, n := range scope.Names() {
		tn, ok := scope.Lookup(n).(*types.TypeName)
		if !ok {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		if it, ok := named.Underlying().(*types.Interface); ok && tn.Exported() {
			if x, ok := strings.CutSuffix(n, "Methods"); ok {
				l.methods[x] = it
			}
			continue
		}
		if it, ok := named.Underlying().(*types.Interface); ok && strings.HasPrefix(n, "idl") {
			// The generated idlXStatics (unexported: the package
			// registers its definitions itself).
			if x, ok := strings.CutSuffix(strings.TrimPrefix(n, "idl"), "Statics"); ok {
				l.statics[x] = it
			}
			continue
		}
		l.named = append(l.named, named)
	}
	files, err := codegen.ParseDir("webidls")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		for _, d := range f.Definitions {
			switch d := d.(type) {
			case *idl.Interface:
				if !d.Mixin {
					continue
				}
				if l.mixins[d.Name] == nil {
					l.mixins[d.Name] = map[string]bool{}
				}
				for _, m := range d.Members {
					if n := m.MemberName(); n != "" {
						g := codegen.GoName(n)
						l.mixins[d.Name][g] = true
						l.mixins[d.Name]["Set"+g] = true
					}
				}
			case *idl.Includes:
				l.includes[d.Target] = append(l.includes[d.Target], d.Mixin)
			}
		}
	}
	return l
}

// implements lists the interfaces whose Methods T (or *T) implements.
func (l *layout) implements(t *types.Named) []string {
	var out []string
	for x, it := range l.methods {
		if types.Implements(t, it) || types.Implements(types.NewPointer(t), it) {
			out = append(out, x)
		}
	}
	sort.Strings(out)
	return out
}

// declares lists the interfaces T implements declaring some of their own
// members itself (not only through an embedded field, as EventTargetBase
// or globalBase implement EventTarget).
func (l *layout) declares(t *types.Named) []string {
	var out []string
	for _, x := range l.implements(t) {
		it := l.methods[x]
		for i := 0; i < it.NumExplicitMethods(); i++ {
			if sel := types.NewMethodSet(types.NewPointer(t)).Lookup(l.pkg.Types, it.ExplicitMethod(i).Name()); sel != nil && len(sel.Index()) == 1 {
				out = append(out, x)
				break
			}
		}
	}
	return out
}

// staticsOwner is the interface whose Statics the unexported type t
// implements ("" when none).
func (l *layout) staticsOwner(t *types.Named) string {
	if !strings.HasSuffix(t.Obj().Name(), "Statics") || t.Obj().Exported() {
		return ""
	}
	for x, it := range l.statics {
		if types.Implements(t, it) {
			return x
		}
	}
	return ""
}

// owners lists the interfaces and mixins that have a member implemented
// by method m of t: the interfaces t or a type embedding it (globalBase
// is embedded by the globals' implementations) implements, whose own members (mixins included, not inherited ones) have the Go
// name m, and the included mixins declaring it. Helper methods have no
// owners.
func (l *layout) owners(t *types.Named, m string) []string {
	l.checked++
	impl := l.implements(t)
	for _, e := range l.embedders(t) {
		impl = append(impl, l.implements(e)...)
	}
	set := map[string]bool{}
	for _, x := range impl {
		it := l.methods[x]
		for i := 0; i < it.NumExplicitMethods(); i++ {
			if it.ExplicitMethod(i).Name() == m {
				set[x] = true
				for _, mx := range l.includes[x] {
					if l.mixins[mx][m] {
						set[mx] = true
					}
				}
			}
		}
	}
	var out []string
	for x := range set {
		out = append(out, x)
	}
	sort.Strings(out)
	return out
}

// embedders are the package's types that embed t, directly or through
// other embedded fields.
func (l *layout) embedders(t *types.Named) []*types.Named {
	var out []*types.Named
	for _, n := range l.named {
		if n != t && embeds(n, t, 0) {
			out = append(out, n)
		}
	}
	return out
}

func embeds(n, t *types.Named, depth int) bool {
	st, ok := n.Underlying().(*types.Struct)
	if !ok || depth > 5 {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Embedded() {
			continue
		}
		fn := namedOf(f.Type())
		if fn == nil {
			continue
		}
		if fn == t || embeds(fn, t, depth+1) {
			return true
		}
	}
	return false
}

func namedOf(t types.Type) *types.Named {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := t.(*types.Named)
	return n
}

// containsFold reports whether list has the interface or mixin whose
// file name is base.
func containsFold(list []string, base string) bool {
	for _, x := range list {
		if strings.ToLower(x) == base {
			return true
		}
	}
	return false
}

func equalStrings(a, b []string) bool {
	return strings.Join(a, ",") == strings.Join(b, ",")
}
