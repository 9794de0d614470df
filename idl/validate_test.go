package idl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/internal/testenv"
)

// TestValidateRules runs Validate on testdata/validate: valid.idl must give
// no problem at all; every other file is named after the rule it exercises,
// must report that rule at least once, and matches its golden .problems file.
// Every rule of Rules has such a file.
func TestValidateRules(t *testing.T) {
	covered := map[string]bool{}
	for _, f := range readTestdata(t, "validate") {
		file, err := Parse(f.Path, f.Src)
		if err != nil {
			t.Errorf("%s: %v", f.Path, err)
			continue
		}
		problems := Validate(file)
		rule := strings.TrimSuffix(f.Name, ".idl")
		var b strings.Builder
		found := false
		for _, p := range problems {
			if _, ok := Rules[p.Rule]; !ok {
				t.Errorf("%s: problem with unlisted rule %q", f.Path, p.Rule)
			}
			if p.Severity != Rules[p.Rule].Severity {
				t.Errorf("%s: %s has severity %v, Rules says %v", f.Path, p.Rule, p.Severity, Rules[p.Rule].Severity)
			}
			found = found || p.Rule == rule
			b.WriteString(p.Severity.String() + " " + p.Detail() + "\n")
		}
		if rule == "valid" {
			if len(problems) > 0 {
				t.Errorf("%s: expected no problems, got:\n%s", f.Path, b.String())
			}
			continue
		}
		if _, ok := Rules[rule]; !ok {
			t.Errorf("%s: no rule named %q", f.Path, rule)
		}
		covered[rule] = true
		if !found {
			t.Errorf("%s: rule %s not reported; got:\n%s", f.Path, rule, b.String())
		}
		golden(t, strings.TrimSuffix(f.Path, ".idl")+".problems", []byte(b.String()))
	}
	for r := range Rules {
		if !covered[r] {
			t.Errorf("rule %s has no test file testdata/validate/%s.idl", r, r)
		}
	}
}

// TestValidateAcrossFiles checks that definitions, partials and includes
// are merged across files and that problems keep file order.
func TestValidateAcrossFiles(t *testing.T) {
	a, err := Parse("a.idl", []byte("[Exposed=Window] interface A { undefined f(); };\nA includes M;\n"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse("b.idl", []byte("interface mixin M { attribute B b; };\npartial interface A { undefined f(long x); };\n"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range Validate(a, b) {
		got = append(got, p.String())
	}
	want := []string{
		`b.idl:1:31: undefined-type: "B" is not defined (expected a type)`,
		`b.idl:2:33: no-cross-overload: operation "f" is overloaded across definitions of interface A; overloads must be declared together`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Alone, a.idl misses the mixin.
	if ps := Validate(a); len(ps) != 1 || ps[0].Rule != "undefined-type" {
		t.Errorf("Validate(a) = %v", ps)
	}
}

// TestValidateHostileOverloads checks that huge overload sets and argument
// lists validate quickly.
func TestValidateHostileOverloads(t *testing.T) {
	var b strings.Builder
	b.WriteString("[Exposed=Window] interface A {\n")
	for i := 0; i < 2000; i++ {
		b.WriteString("  undefined f(long a" + itoa(i) + ", long... rest);\n")
	}
	b.WriteString("  undefined g(")
	for i := 0; i < 5000; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("optional long x" + itoa(i))
	}
	b.WriteString(");\n  undefined g(DOMString... s);\n};\n")
	f, err := Parse("hostile.idl", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ps := Validate(f)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Validate took %v", d)
	}
	if len(ps) == 0 {
		t.Error("expected indistinguishable-overloads problems")
	}
}

// TestValidateLongChains checks long inheritance chains and a cycle that
// other definitions inherit into.
func TestValidateLongChains(t *testing.T) {
	var b strings.Builder
	const n = 20000
	for i := 0; i < n; i++ {
		b.WriteString("[Exposed=Window] interface I" + itoa(i))
		if i > 0 {
			b.WriteString(" : I" + itoa(i-1))
		}
		b.WriteString(" {};\ndictionary D" + itoa(i))
		if i > 0 {
			b.WriteString(" : D" + itoa(i-1))
		}
		b.WriteString(" { long m" + itoa(i) + "; };\n")
	}
	b.WriteString("[Exposed=Window] interface X : Y {};\n[Exposed=Window] interface Y : X {};\n[Exposed=Window] interface Z : X {};\n")
	f, err := Parse("chains.idl", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var got []string
	for _, p := range Validate(f) {
		got = append(got, p.Rule+": "+p.Message)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Validate took %v", d)
	}
	want := "bad-inheritance: interface X is part of an inheritance cycle\nbad-inheritance: interface Y is part of an inheritance cycle"
	if strings.Join(got, "\n") != want {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}

// TestValidateRulesVsWebidl2 runs webidl2.js's validate on each file of
// testdata/validate: every problem it reports under a rule we also have
// must be reported by us at the same line, except for the listed, deliberate
// differences.
func TestValidateRulesVsWebidl2(t *testing.T) {
	webidl2 := testenv.NPMPackage(t, "webidl2")
	node := testenv.Node(t)
	script, _ := filepath.Abs("testdata/webidl2-validate.js")
	dir, _ := filepath.Abs("testdata/validate")
	out, err := exec.Command(node, script, webidl2, dir, "each").Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	// Their rule names that differ from ours.
	renamed := map[string]string{"attr-invalid-type": "bad-attribute-type"}
	// Deliberate differences, with the reason.
	differences := map[string]string{
		"dict-arg-default.idl:3:dict-arg-default": "webidl2.js wants a default for every optional dictionary argument; " +
			"Web IDL only for dictionaries without required members",
	}
	ours := map[string]bool{}
	for _, f := range readTestdata(t, "validate") {
		file, err := Parse(f.Name, f.Src)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range Validate(file) {
			ours[fmt.Sprintf("%s:%d:%s", f.Name, p.Pos.Line, p.Rule)] = true
		}
	}
	compared := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var p struct {
			File, Rule string
			Line       int
		}
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		rule := p.Rule
		if r, ok := renamed[rule]; ok {
			rule = r
		}
		if _, ok := Rules[rule]; !ok {
			continue
		}
		key := fmt.Sprintf("%s:%d:%s", p.File, p.Line, rule)
		if _, ok := differences[key]; ok {
			continue
		}
		compared++
		if !ours[key] {
			t.Errorf("webidl2.js reports %s, we do not", key)
		}
	}
	if compared == 0 {
		t.Error("nothing compared")
	}
	t.Logf("%d webidl2.js findings on our rule tests, all reported by us too", compared)
}

// TestValidateTypedefExplosion checks typedefs of unions of typedefs, whose
// flattened member types double at each level, and typedef cycles
// (a fuzzing find: they used to make validation exponential).
func TestValidateTypedefExplosion(t *testing.T) {
	var b strings.Builder
	b.WriteString("typedef long T0;\n")
	for i := 1; i <= 60; i++ {
		b.WriteString("typedef (T" + itoa(i-1) + " or T" + itoa(i-1) + ")? T" + itoa(i) + ";\n")
	}
	b.WriteString("[Exposed=Window] interface A { undefined f(T60 x); undefined f(DOMString s); attribute T60 a; };\n")
	b.WriteString("typedef (C or C) C;\n[Exposed=Window] interface B { undefined g(C c); undefined g(long l); };\n")
	f, err := Parse("explode.idl", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	ps := Validate(f)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Validate took %v", d)
	}
	found := false
	for _, p := range ps {
		found = found || p.Rule == "typedef-cycle"
	}
	if !found {
		t.Errorf("no typedef-cycle problem in %v", ps)
	}
}
