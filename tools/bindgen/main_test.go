package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runIn runs bindgen with args in the directory dir and returns its exit
// status and what it wrote to standard error.
func runIn(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	t.Chdir(dir)
	var stderr strings.Builder
	code := generate(args, &stderr)
	return code, stderr.String()
}

// noGoFiles fails when dir (recursively) holds a generated file.
func noGoFiles(t *testing.T, dir string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".go") {
			t.Errorf("bindgen wrote %s", p)
		}
		return nil
	})
}

// Without flags in another module, bindgen does not write an empty
// package: it says what to give.
func TestNoFlagsInAnotherModule(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/other\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, msg := runIn(t, dir)
	if code == 0 || !strings.Contains(msg, "no -in given") || !strings.Contains(msg, "-in DIR") {
		t.Errorf("exit %d, stderr %q", code, msg)
	}
	noGoFiles(t, dir)
}

// A missing input, a file given as the input directory and a directory
// without .idl files are errors naming the path as given.
func TestMissingOrEmptyInput(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{"/nonexistent", "/nonexistent: no such file or directory"},
		{"missing", "stat missing: no such file or directory"},
		{"a.txt", "input a.txt is not a directory"},
		{"empty", "no .idl files in empty"},
	} {
		code, msg := runIn(t, dir, "-in", c.in, "-out", "out", "-pkg", "x")
		if code != 1 || !strings.Contains(msg, c.want) {
			t.Errorf("-in %s: exit %d, stderr %q; want exit 1 and %q", c.in, code, msg, c.want)
		}
	}
	noGoFiles(t, dir)
}

// Error positions name the files by the path the user gave, relative or
// absolute, not relative to the working directory; a syntax error names
// its grammar rule.
func TestErrorPathsAsGiven(t *testing.T) {
	dir := t.TempDir()
	idlDir := filepath.Join(dir, "proj", "idl")
	if err := os.MkdirAll(idlDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(idlDir, "bad.idl"), []byte("interface A { attribute long; };\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{idlDir, "../proj/idl", "../proj/./idl/"} {
		code, msg := runIn(t, work, "-in", in, "-out", filepath.Join(dir, "out"), "-pkg", "x", "-bindings=false")
		want := filepath.Join(in, "bad.idl") + ":1:"
		if code != 1 || !strings.HasPrefix(msg, want) || !strings.Contains(msg, "AttributeRest") {
			t.Errorf("-in %s: exit %d, stderr %q; want it to start with %q and name the rule AttributeRest", in, code, msg, want)
		}
	}
	noGoFiles(t, dir)
}

// Extra arguments are a usage error, not ignored.
func TestExtraArgument(t *testing.T) {
	code, msg := runIn(t, t.TempDir(), "idl")
	if code != 2 || !strings.Contains(msg, `unexpected argument "idl"`) {
		t.Errorf("exit %d, stderr %q", code, msg)
	}
}
