package idl

import (
	"strings"
	"testing"
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
