package webidl

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSourceMapsNotLoaded checks that a sourceMappingURL comment neither
// fails a script nor makes the engine read a local file, in compiled
// scripts and in eval.
func TestSourceMapsNotLoaded(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.map")
	if err := os.WriteFile(bad, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, url := range []string{"/nonexistent/x.js.map", bad} {
		src := "var x = 1 + 1;\n//# sourceMappingURL=" + url + "\n"
		prg, err := Compile("page.js", src, false)
		if err != nil {
			t.Fatalf("Compile with a source map comment for %s: %v", url, err)
		}
		vm := NewRuntime()
		if _, err := vm.RunProgram(prg); err != nil {
			t.Fatal(err)
		}
		v, err := vm.RunString("eval(" + `"2 + 3;\n//# sourceMappingURL=` + url + `\n"` + ")")
		if err != nil {
			t.Fatalf("eval with a source map comment for %s: %v", url, err)
		}
		if v.ToInteger() != 5 {
			t.Fatalf("eval = %v", v)
		}
	}
}
