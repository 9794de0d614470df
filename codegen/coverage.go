package codegen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// CoverageResult is the outcome of a coverage run.
type CoverageResult struct {
	Generated, Total int
	// Report lists the definitions that failed, with their errors.
	Report string
	// GenerateTime and BuildTime are the durations of the two phases;
	// Lines counts the generated lines.
	GenerateTime, BuildTime time.Duration
	Lines                   int
}

// Coverage generates Go for every definition of the .idl files in dir
// against stub implementations, builds the result with `go build` in a
// temporary package inside this module (work, or a new temporary
// directory under the module root when empty), and counts the
// definitions that were generated and compiled.
func Coverage(dir, work string) (*CoverageResult, error) {
	start := time.Now()
	files, err := ParseDir(dir)
	if err != nil {
		return nil, err
	}
	m := Load(files)
	total := len(m.Order) + len(m.Mixins)
	for name := range m.Errors {
		if strings.HasPrefix(name, "partial ") {
			total++
		}
	}
	g, outs, err := Generate(m, Options{Package: "webrefgen", Registry: "Interfaces", Stubs: true})
	if err != nil {
		return nil, err
	}
	root, err := moduleRoot()
	if err != nil {
		return nil, err
	}
	if work == "" {
		work, err = os.MkdirTemp(root, ".bindgen-coverage-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(work)
	}
	for _, o := range outs {
		if err := os.WriteFile(filepath.Join(work, o.Name), o.Src, 0o644); err != nil {
			return nil, err
		}
	}
	// -N -l: the check is that the code compiles; skipping optimization
	// of this one very large package halves the build time.
	cmd := exec.Command("go", "build", "-gcflags=-N -l", "-o", os.DevNull, ".")
	cmd.Dir = work
	genTime := time.Since(start)
	out, err := cmd.CombinedOutput()
	buildTime := time.Since(start) - genTime
	if err != nil {
		return nil, fmt.Errorf("go build of the generated code failed: %v\n%s", err, firstLines(string(out), 40))
	}
	report := g.ErrorReport()
	for n, err := range g.MixinErrors {
		report += fmt.Sprintf("mixin %s: %v\n", n, err)
	}
	var lines int
	for _, o := range outs {
		lines += strings.Count(string(o.Src), "\n")
	}
	return &CoverageResult{Generated: len(g.Generated) + len(g.Mixins), Total: total, Report: report,
		GenerateTime: genTime, BuildTime: buildTime, Lines: lines}, nil
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not inside a Go module")
	}
	return filepath.Dir(gomod), nil
}
