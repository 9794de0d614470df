package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// A generic package never names a particular specification: its
// exported identifiers contain none of otherSpecs' name parts. Other
// specifications keep their state in html's data slots and their
// algorithms in their own packages (serviceworker, weblocks, fetch).
var genericPackages = []string{"html"}

// otherSpecs are the name parts of the specifications built over html.
var otherSpecs = []string{"ServiceWorker", "Lock", "Fetch"}

// htmlTerms are the names HTML itself defines that contain one of
// otherSpecs: the service worker agent is one of HTML's agent kinds
// (https://html.spec.whatwg.org/#service-worker-agent).
var htmlTerms = map[string]bool{"ServiceWorkerAgent": true}

// exportedNames lists the exported identifiers of the Go files (tests
// excluded) in src (file name → source): top-level names, methods
// (Type.Method), struct fields and interface methods (Type.Field).
func exportedNames(t *testing.T, src map[string]string) []string {
	t.Helper()
	fset := token.NewFileSet()
	var out []string
	add := func(prefix, name string) {
		if ast.IsExported(name) {
			out = append(out, prefix+name)
		}
	}
	for name, text := range src {
		f, err := parser.ParseFile(fset, name, text, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parsing %s: %v", name, err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil && len(d.Recv.List) == 1 {
					typ := d.Recv.List[0].Type
					if s, ok := typ.(*ast.StarExpr); ok {
						typ = s.X
					}
					if ix, ok := typ.(*ast.IndexExpr); ok {
						typ = ix.X
					}
					if id, ok := typ.(*ast.Ident); ok && ast.IsExported(id.Name) {
						add(id.Name+".", d.Name.Name)
					}
					continue
				}
				add("", d.Name.Name)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						add("", s.Name.Name)
						if !ast.IsExported(s.Name.Name) {
							continue
						}
						var fields *ast.FieldList
						switch tt := s.Type.(type) {
						case *ast.StructType:
							fields = tt.Fields
						case *ast.InterfaceType:
							fields = tt.Methods
						}
						if fields != nil {
							for _, f := range fields.List {
								for _, n := range f.Names {
									add(s.Name.Name+".", n.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							add("", n.Name)
						}
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// otherSpecNames lists the names that name another specification.
func otherSpecNames(names []string) []string {
	var out []string
	for _, n := range names {
		for _, part := range strings.Split(n, ".") {
			if htmlTerms[part] {
				continue
			}
			for _, spec := range otherSpecs {
				if strings.Contains(part, spec) {
					out = append(out, n)
				}
			}
		}
	}
	return out
}

// readPackage returns the non-test Go files of dir.
func readPackage(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	src := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src[f] = string(b)
	}
	return src
}

// TestGenericPackagesNameNoOtherSpec: html's exported identifiers name no
// other specification.
func TestGenericPackagesNameNoOtherSpec(t *testing.T) {
	for _, pkg := range genericPackages {
		names := exportedNames(t, readPackage(t, filepath.Join("..", "..", pkg)))
		if len(names) < 100 {
			t.Fatalf("%s: only %d exported names found", pkg, len(names))
		}
		for _, n := range otherSpecNames(names) {
			t.Errorf("%s names another specification: %s", pkg, n)
		}
	}
}

// TestNamesCatchOtherSpecs checks that the name rule fails on bad
// sources.
func TestNamesCatchOtherSpecs(t *testing.T) {
	src := map[string]string{"a.go": `package html
type ServiceWorkerRegistration struct{ Scope string }
type Agent struct{ LockCount int }
type Env struct{}
func (e *Env) FetchHook() {}
func Claim(w *ServiceWorker) bool { return true }
var ErrFetch error
const ServiceWorkerAgent = 3
type Host interface{ RunServiceWorker() }
type fetchState struct{ ServiceWorker int }
`}
	got := otherSpecNames(exportedNames(t, src))
	want := []string{"Agent.LockCount", "Env.FetchHook", "ErrFetch", "Host.RunServiceWorker", "ServiceWorkerRegistration", "ServiceWorkerRegistration.Scope"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("got %v, want %v", got, want)
	}
}
