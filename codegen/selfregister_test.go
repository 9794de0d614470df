package codegen

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnexportedName(t *testing.T) {
	for in, want := range map[string]string{"AbortSignal": "abortSignal", "DOMException": "domException", "URL": "url",
		"URLSearchParams": "urlSearchParams", "HTMLElement": "htmlElement", "Text": "text", "X2d": "x2d", "ID": "id", "A": "a"} {
		if got := UnexportedName(in); got != want {
			t.Errorf("UnexportedName(%q) = %q, want %q", in, got, want)
		}
	}
}

const selfRegisterIDL = `
[Exposed=Window] interface Gadget { constructor(); undefined spin(); static Gadget make(); };
[Exposed=Window] interface URLThing { constructor(DOMString s); readonly attribute DOMString s; };
[Exposed=Window] interface Plain { undefined noop(); };
`

// With SelfRegister the generated package registers itself, each
// interface's statics being the zero value of the hand-written xStatics
// type; without it (the integrators' default) nothing registers.
func TestSelfRegisterInit(t *testing.T) {
	for _, self := range []bool{false, true} {
		_, outs, err := Generate(load(t, selfRegisterIDL), Options{Package: "p", SelfRegister: self})
		if err != nil {
			t.Fatal(err)
		}
		var all strings.Builder
		for _, o := range outs {
			all.Write(o.Src)
		}
		src := all.String()
		for _, want := range []string{"\t\tGadget:   gadgetStatics{},\n", "\t\tURLThing: urlThingStatics{},\n"} {
			if strings.Contains(src, want) != self {
				t.Errorf("SelfRegister=%v: %q present = %v", self, want, !self)
			}
		}
		if strings.Contains(src, "plainStatics") {
			t.Errorf("SelfRegister=%v: Plain has no statics but is given plainStatics", self)
		}
		if strings.Contains(src, "func init()") != self {
			t.Errorf("SelfRegister=%v: init present = %v", self, !self)
		}
	}
}

// A self-registering package that lacks the statics of an interface, or
// whose statics lack a member, does not compile: the error names the
// missing type or method. The package is built from an overlay inside
// this module (it imports bindings/webidl), never written to disk here.
func TestSelfRegisterMissingStaticsFailsToCompile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	_, outs, err := Generate(load(t, selfRegisterIDL), Options{Package: "p", SelfRegister: true})
	if err != nil {
		t.Fatal(err)
	}
	pkgDir, err := filepath.Abs(filepath.Join("internal", "selfregister_overlay"))
	if err != nil {
		t.Fatal(err)
	}
	const impl = `package p

import "github.com/gowebengine/weblocks/bindings/webidl"

type gadget struct{}

func (gadget) Spin() error { return nil }

type gadgetStatics struct{}

func (gadgetStatics) Constructor(r *webidl.Realm) (GadgetMethods, error) { return gadget{}, nil }
`
	const makeOp = `
func (gadgetStatics) Make(r *webidl.Realm) (GadgetMethods, error) { return gadget{}, nil }
`
	const urlThing = `
type urlThingStatics struct{}

func (urlThingStatics) Constructor(r *webidl.Realm, s webidl.DOMString) (URLThingMethods, error) { return nil, nil }
`
	for _, c := range []struct {
		name, impl, wantErr string
	}{
		{"complete", impl + makeOp + urlThing, ""},
		{"missing type", impl + makeOp, "undefined: urlThingStatics"},
		{"missing method", impl + urlThing, "missing method Make"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := buildOverlay(t, pkgDir, "./internal/selfregister_overlay", outs, c.impl)
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

// buildOverlay builds pkg (a directory of this module holding a package
// that exists only in an overlay, pkgDir absolute) with the generated
// files outs and impl.go, and returns go build's output and error.
func buildOverlay(t *testing.T, pkgDir, pkg string, outs []Output, impl string) ([]byte, error) {
	t.Helper()
	tmp := t.TempDir()
	overlay := map[string]map[string]string{"Replace": {}}
	files := map[string]string{"impl.go": impl}
	for _, o := range outs {
		files[o.Name] = string(o.Src)
	}
	for name, src := range files {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		overlay["Replace"][filepath.Join(pkgDir, name)] = p
	}
	js, _ := json.Marshal(overlay)
	ov := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(ov, js, 0o644); err != nil {
		t.Fatal(err)
	}
	return exec.Command("go", "build", "-overlay", ov, pkg).CombinedOutput()
}
