package bindings

import (
	"go/ast"
	"go/parser"
	"go/token"
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
