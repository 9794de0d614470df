// Package archtest enforces the layering of the module:
//
//	core (dom, fetch, html, storage, weblocks, ...) <- bindings <- browser <- wpt-runner
//
// The core never imports a JavaScript engine, bindings, the browser or
// the runner; bindings never imports the browser or the runner; the
// browser never imports the runner. The core is every top-level package
// not listed in notCore: a new package is JS-free unless this test says
// otherwise. The examples are integrators' programs on top of every
// layer, except examples/foreignhost, a host of its own over the core: it
// may import a JavaScript engine, but none of html, bindings, browser and
// the runner.
//
// Web Locks: package weblocks (the lock service contract, the lock
// managers and the page side) is html-free, so that any host can use it;
// our html host is its subpackage weblocks/htmlhost, one client of the
// contract like any other; html itself never names weblocks.
package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/gowebengine/weblocks"

// rule forbids packages under From (the package or its subpackages) to
// depend, directly or not, on any package under one of Not.
type rule struct {
	From   string
	Not    []string
	Except []string // subpackages of From the rule does not apply to
}

var jsEngines = []string{"github.com/dop251/goja", "github.com/grafana/sobek"}

// notCore are the top-level folders allowed to use a JavaScript engine.
// examples holds integrators' programs, which sit on top of every layer.
var notCore = map[string]bool{"bindings": true, "browser": true, "wpt-runner": true, "codegen": true, "tools": true, "examples": true}

// coreNot is what a core package must not depend on.
var coreNot = append([]string{module + "/bindings", module + "/browser", module + "/wpt-runner"}, jsEngines...)

var rules = []rule{
	// origin is a leaf: every other package may use it.
	{From: module + "/origin", Not: []string{module + "/html", module + "/dom", module + "/storage", module + "/fetch", module + "/weblocks", module + "/fileapi"}},
	{From: module + "/bindings", Not: []string{module + "/browser", module + "/wpt-runner"}},
	{From: module + "/browser", Not: []string{module + "/wpt-runner"}},
	{From: module + "/examples/foreignhost", Not: []string{module + "/html", module + "/bindings", module + "/browser", module + "/wpt-runner"}},
	{From: module + "/weblocks", Not: []string{module + "/html", module + "/bindings", module + "/browser"}, Except: []string{module + "/weblocks/htmlhost"}},
	{From: module + "/html", Not: []string{module + "/weblocks"}},
}

// rulesFor lists the rules that apply to pkg: the core rule for a
// package whose top-level folder is not in notCore, and the listed ones.
func rulesFor(pkg string) []rule {
	var out []rule
	if rest, ok := strings.CutPrefix(pkg, module+"/"); ok {
		top, _, _ := strings.Cut(rest, "/")
		if !notCore[top] {
			out = append(out, rule{From: module + "/" + top, Not: coreNot})
		}
	}
	for _, r := range rules {
		if under(pkg, r.From) && !exempt(pkg, r.Except) {
			out = append(out, r)
		}
	}
	return out
}

// exempt reports whether pkg is under one of except.
func exempt(pkg string, except []string) bool {
	for _, e := range except {
		if under(pkg, e) {
			return true
		}
	}
	return false
}

// under reports whether pkg is prefix or one of its subpackages.
func under(pkg, prefix string) bool {
	return pkg == prefix || strings.HasPrefix(pkg, prefix+"/")
}

// violations lists "pkg -> dep" for every dependency breaking a rule;
// deps maps each package to its transitive dependencies.
func violations(deps map[string][]string) []string {
	var out []string
	for pkg, ds := range deps {
		for _, r := range rulesFor(pkg) {
			for _, d := range ds {
				for _, not := range r.Not {
					if under(d, not) {
						out = append(out, pkg+" -> "+d)
					}
				}
			}
		}
	}
	return out
}

func TestLayering(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	// Deps lists transitive non-test dependencies.
	out, err := exec.Command(goTool, "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 {
			deps[f[0]] = f[1:]
		}
	}
	for _, want := range []string{module + "/html", module + "/fetch", module + "/bindings", module + "/browser", module + "/wpt-runner/goproduct", module + "/examples/foreignhost", module + "/weblocks", module + "/weblocks/htmlhost"} {
		if _, ok := deps[want]; !ok {
			t.Fatalf("go list did not list %s", want)
		}
	}
	for _, v := range violations(deps) {
		t.Errorf("layering violation: %s", v)
	}
}

// TestRulesCatchViolations checks that the rules fail on bad graphs.
func TestRulesCatchViolations(t *testing.T) {
	bad := map[string][]string{
		module + "/html":                 {"github.com/dop251/goja"},
		module + "/weblocks/internal/x":  {"github.com/grafana/sobek/ast"},
		module + "/bindings/membrane":    {module + "/browser"},
		module + "/browser":              {module + "/wpt-runner/product"},
		module + "/wpt-runner/goproduct": {module + "/browser", "github.com/dop251/goja"},
		module + "/browserx":             {module + "/wpt-runner"},
		module + "/fetch":                {module + "/bindings", "github.com/grafana/sobek"},
		module + "/newpkg/sub":           {"github.com/dop251/goja"},
		module + "/codegen":              {"github.com/grafana/sobek"},
		module + "/examples/foreignhost": {"github.com/grafana/sobek", module + "/weblocks", module + "/bindings", module + "/html"},
		module + "/origin":               {module + "/html"},
		// Web Locks: the core package and the foreign host are
		// html-free; the html host is not; html never names weblocks.
		module + "/weblocks":            {module + "/html"},
		module + "/weblocks/internal/y": {module + "/browser"},
		module + "/weblocks/htmlhost":   {module + "/html", module + "/dom"},
		module + "/html/sub":            {module + "/weblocks/htmlhost"},
	}
	got := violations(bad)
	if len(got) != 15 {
		t.Fatalf("want 15 violations, got %d: %v", len(got), got)
	}
}
