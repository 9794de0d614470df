package bindings

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The hand-written code of this package wraps implementations with the
// generated typed idlWrapX and idlWrapNewX (whose argument must implement
// XMethods), never with (*webidl.Realm).Wrap or WrapNew and an interface
// named by a string, which take any value and fail at run time.
func TestNoUntypedWrap(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_gen.go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) < 2 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Wrap" && sel.Sel.Name != "WrapNew" {
				return true
			}
			if lit, ok := call.Args[1].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				t.Errorf("%s: %s(..., %s): use the generated idl%s%s", fset.Position(call.Pos()), sel.Sel.Name, lit.Value, sel.Sel.Name, strings.Trim(lit.Value, `"`))
			}
			return true
		})
	}
	if checked < 20 {
		t.Fatalf("checked %d files", checked)
	}
}

// Hand-written code never downcasts a value of a generated type (an
// XMethods interface, a union member, a dictionary field) to a Go type:
// where implementations.txt names one Go type for an interface and its
// descendants, the interface's generated idlImpl method gives it, so a
// wrong implementation type is a compile error, not a failed assertion
// at run time. (Asserting another interface, "is this node an Element?",
// stays allowed.)
func TestNoDowncastOfGeneratedValues(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command (go/packages needs it)")
	}
	l := loadLayout(t)
	info := l.pkg.TypesInfo
	generated := func(e ast.Expr) string {
		named, ok := types.Unalias(info.TypeOf(e)).(*types.Named)
		if !ok || named.Obj().Pkg() != l.pkg.Types || !strings.HasSuffix(l.pkg.Fset.Position(named.Obj().Pos()).Filename, "_gen.go") {
			return ""
		}
		return named.Obj().Name()
	}
	concrete := func(e ast.Expr) bool {
		t := info.TypeOf(e)
		return t != nil && !types.IsInterface(t)
	}
	checked := 0
	for _, f := range l.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeAssertExpr:
				checked++
				if n.Type != nil && concrete(n.Type) {
					if g := generated(n.X); g != "" {
						t.Errorf("%s: downcast of a %s (generated) to %s: use idlImpl", l.pkg.Fset.Position(n.Pos()), g, types.ExprString(n.Type))
					}
				}
			case *ast.TypeSwitchStmt:
				var x ast.Expr
				switch s := n.Assign.(type) {
				case *ast.AssignStmt:
					x = s.Rhs[0].(*ast.TypeAssertExpr).X
				case *ast.ExprStmt:
					x = s.X.(*ast.TypeAssertExpr).X
				}
				g := generated(x)
				for _, c := range n.Body.List {
					for _, e := range c.(*ast.CaseClause).List {
						if g != "" && concrete(e) {
							t.Errorf("%s: type switch case %s on a %s (generated): use idlImpl or an interface", l.pkg.Fset.Position(e.Pos()), types.ExprString(e), g)
						}
					}
				}
			}
			return true
		})
	}
	if checked < 20 {
		t.Fatalf("checked %d type assertions", checked)
	}
}

// The generated names the package exports are the Go face of its IDL,
// which an integrator's generated code refers to (XMethods, dictionaries,
// enumerations, unions, callbacks, typedefs, their constants) and the
// registry; the registration and the statics interfaces, which nothing
// outside needs, are unexported (the package registers itself).
func TestGeneratedExportsAreIDLTypes(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command (go/packages needs it)")
	}
	l := loadLayout(t)
	scope := l.pkg.Types.Scope()
	exported := 0
	for _, n := range scope.Names() {
		obj := scope.Lookup(n)
		if !obj.Exported() || !strings.HasSuffix(l.pkg.Fset.Position(obj.Pos()).Filename, "_gen.go") {
			continue
		}
		exported++
		switch obj.(type) {
		case *types.Func:
			t.Errorf("generated exported function %s", n)
		case *types.Var:
			if n != "Interfaces" {
				t.Errorf("generated exported variable %s", n)
			}
		case *types.TypeName:
			if strings.HasSuffix(n, "Statics") || n == "Statics" {
				t.Errorf("generated exported type %s: statics are unexported in a self-registering package", n)
			}
		}
	}
	if exported < 100 {
		t.Fatalf("%d generated exported names", exported)
	}
}
