package codegen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const implsIDL = `
[Exposed=Window] interface Base { undefined ping(); };
[Exposed=Window] interface Gadget : Base { undefined spin(); readonly attribute long size; };
callback interface Listener { undefined handle(); };
`

// With Options.Impls every generated interface gets a compile-time check
// of its Go type, against its own Methods interface and its ancestors';
// an interface without an entry, or an entry naming no interface, is an
// error of the generation.
func TestImplsChecks(t *testing.T) {
	g, outs, err := Generate(load(t, implsIDL), Options{Package: "p", Impls: map[string]string{"Base": "*base", "Gadget": "gadget"}})
	if err != nil {
		t.Fatal(err)
	}
	if rep := g.ErrorReport(); rep != "" {
		t.Fatalf("errors:\n%s", rep)
	}
	var all strings.Builder
	for _, o := range outs {
		all.Write(o.Src)
	}
	for _, want := range []string{
		"var _ BaseMethods = (*base)(nil)\n",
		"\t_ GadgetMethods = *new(gadget)\n\t_ BaseMethods   = *new(gadget)\n",
	} {
		if !strings.Contains(all.String(), want) {
			t.Errorf("generated code lacks %q", want)
		}
	}
	for _, c := range []struct {
		impls map[string]string
		want  string
	}{
		{map[string]string{"Base": "*base"}, `Gadget: interface Gadget has no Go implementation: add a line "Gadget *yourType"`},
		{map[string]string{"Base": "*base", "Gadget": "*gadget", "Gadgett": "*gadget"}, "Gadgett: the implementations file names Gadgett, which is not an interface"},
		{map[string]string{"Base": "*base", "Gadget": "*gadget", "Listener": "*l"}, "Listener: the implementations file names Listener"},
	} {
		g, _, err := Generate(load(t, implsIDL), Options{Package: "p", Impls: c.impls})
		if err != nil {
			t.Fatal(err)
		}
		if rep := g.ErrorReport(); !strings.Contains(rep, c.want) {
			t.Errorf("Impls %v: errors %q, want %q", c.impls, rep, c.want)
		}
	}
}

func TestReadImpls(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "impls.txt")
	if err := os.WriteFile(p, []byte("# comment\n\nBase *base\n  Gadget   gadget  \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadImpls(p)
	if err != nil || len(got) != 2 || got["Base"] != "*base" || got["Gadget"] != "gadget" {
		t.Errorf("ReadImpls = %v, %v", got, err)
	}
	if err := os.WriteFile(p, []byte("Base *base\nGadget\nBase *other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadImpls(p)
	for _, want := range []string{p + `:2: want an IDL interface name and a Go type, got "Gadget"`, p + ":3: a second line for Base"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadImpls: %v, want %q", err, want)
		}
	}
}

// A Go type that lacks a method of its interface, or of an interface it
// inherits from, or misspells one, does not compile: the error names the
// method. Built from an overlay inside this module, as in
// TestSelfRegisterMissingStaticsFailsToCompile.
func TestImplsMissingMethodFailsToCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	_, outs, err := Generate(load(t, implsIDL), Options{Package: "p", Impls: map[string]string{"Base": "*base", "Gadget": "*gadget"}})
	if err != nil {
		t.Fatal(err)
	}
	pkgDir, err := filepath.Abs(filepath.Join("internal", "impls_overlay"))
	if err != nil {
		t.Fatal(err)
	}
	const base = "package p\n\ntype base struct{}\n\nfunc (*base) Ping() error { return nil }\n\ntype gadget struct{}\n\nfunc (*gadget) Size() (int32, error) { return 0, nil }\n"
	for _, c := range []struct {
		name, impl, wantErr string
	}{
		{"complete", base + "func (*gadget) Spin() error { return nil }\nfunc (*gadget) Ping() error { return nil }\n", ""},
		{"misspelled", base + "func (*gadget) Spinn() error { return nil }\nfunc (*gadget) Ping() error { return nil }\n", "missing method Spin"},
		{"inherited method missing", base + "func (*gadget) Spin() error { return nil }\n", "missing method Ping"},
		{"wrong signature", base + "func (*gadget) Spin() {}\nfunc (*gadget) Ping() error { return nil }\n", "wrong type for method Spin"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := buildOverlay(t, pkgDir, "./internal/impls_overlay", outs, c.impl)
			if c.wantErr == "" {
				if err != nil {
					t.Fatalf("build failed: %v\n%s", err, out)
				}
				return
			}
			if err == nil || !strings.Contains(string(out), c.wantErr) {
				t.Errorf("build: %v, want an error containing %q:\n%s", err, c.wantErr, out)
			}
		})
	}
}

// An interface whose Go type also implements every interface inheriting
// from it gets idlImpl in its Methods (hand-written code reaches the Go
// type without a type assertion), and its definition's Implements checks
// the Methods; an interface with a descendant of another Go type does not.
func TestImplsSealed(t *testing.T) {
	gen := func(impls map[string]string) string {
		t.Helper()
		g, outs, err := Generate(load(t, implsIDL), Options{Package: "p", Impls: impls})
		if err != nil {
			t.Fatal(err)
		}
		if rep := g.ErrorReport(); rep != "" {
			t.Fatalf("errors:\n%s", rep)
		}
		var all strings.Builder
		for _, o := range outs {
			all.Write(o.Src)
		}
		return all.String()
	}
	src := gen(map[string]string{"Base": "*base", "Gadget": "*gadget"})
	for _, want := range []string{
		"\tidlImpl() *gadget\n",
		"func (x *gadget) idlImpl() *gadget { return x }\n",
		"\t\tImplements: func(impl any) bool {\n\t\t\t_, ok := impl.(GadgetMethods)\n",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("generated code lacks %q", want)
		}
	}
	if strings.Contains(src, "idlImpl() *base") {
		t.Error("Base has a descendant of another Go type, yet its Methods have idlImpl")
	}
	src = gen(map[string]string{"Base": "*both", "Gadget": "*both"})
	if strings.Count(src, "\tidlImpl() *both\n") != 2 || strings.Count(src, "func (x *both) idlImpl()") != 1 {
		t.Errorf("one Go type for Base and Gadget: want idlImpl in both Methods, defined once:\n%s", src)
	}
}
