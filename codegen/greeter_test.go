package codegen

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The example module codegen/testdata/greeter is an integrator's: its own
// IDL (a Greeter inheriting EventTarget, taking an AbortSignal, using the
// engine's typedefs, [SecureContext]) generated out of tree with bindgen
// and installed into realms of package bindings. Its generated files are
// up to date, and its test (JavaScript in a secure and a non-secure
// window) passes.
func TestGreeterExampleModule(t *testing.T) {
	dir := filepath.Join("testdata", "greeter")
	out := t.TempDir()
	if err := Run(Config{In: filepath.Join(dir, "idl"), Out: out, Package: "greeter", WithBindings: true, Impls: filepath.Join(dir, "implementations.txt")}); err != nil {
		t.Fatal(err)
	}
	gen, _ := filepath.Glob(filepath.Join(out, "*_gen.go"))
	committed, _ := filepath.Glob(filepath.Join(dir, "*_gen.go"))
	if len(gen) == 0 || len(gen) != len(committed) {
		t.Errorf("generated %d files, committed %d", len(gen), len(committed))
	}
	for _, p := range gen {
		want, _ := os.ReadFile(p)
		got, err := os.ReadFile(filepath.Join(dir, filepath.Base(p)))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s/%s is out of date: run go generate in %s", dir, filepath.Base(p), dir)
		}
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	// A copy of the module, its requirements brought up to date with
	// this module's (from the module cache) so that a new dependency here
	// does not break the example.
	work := t.TempDir()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(work, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
	for _, args := range [][]string{
		{"mod", "edit", "-replace", "github.com/gowebengine/weblocks=" + root},
		{"mod", "tidy", "-e"}, // -e: test-only imports of dependencies may be absent from a fresh module cache
		{"test", "-count=1", "./..."},
	} {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = work, env
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %v in a copy of %s: %v\n%s", args, dir, err, b)
		}
	}
}
