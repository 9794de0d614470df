package codegen

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidls"
	"github.com/gowebengine/weblocks/idl"
)

// Config is one generation of a Go package from a directory of IDL.
type Config struct {
	// In is the directory of .idl files, Out the directory of the
	// generated package, Package its name.
	In, Out, Package string
	// Imports are the packages whose definitions the IDL refers to;
	// WithBindings adds this module's bindings package (inheriting
	// EventTarget, taking an AbortSignal, ...).
	Imports      []*Import
	WithBindings bool
	// Warnings receives the validator's warnings (nil: discarded).
	Warnings io.Writer
	// SelfRegister: the package registers its definitions itself (see
	// Options.SelfRegister).
	SelfRegister bool
	// Impls is the implementations file (see ReadImpls and
	// Options.Impls); "" for none.
	Impls string
}

// ReadImpls reads an implementations file: one line for each IDL
// interface, its name then the Go type implementing it ("Lock
// *lockImpl"); blank lines and lines starting with # are skipped.
func ReadImpls(path string) (map[string]string, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseImpls(path, src)
}

// parseImpls parses the implementations file path holding src.
func parseImpls(path string, src []byte) (map[string]string, error) {
	impls := map[string]string{}
	var errs []error
	for i, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		switch {
		case len(f) != 2:
			errs = append(errs, fmt.Errorf("%s:%d: want an IDL interface name and a Go type, got %q", path, i+1, idl.Sanitize(line)))
		case impls[f[0]] != "":
			errs = append(errs, fmt.Errorf("%s:%d: a second line for %s", path, i+1, idl.Sanitize(f[0])))
		default:
			impls[f[0]] = f[1]
		}
	}
	return impls, errors.Join(errs...)
}

// EmbeddedBindingsImport returns the Import of this module's bindings
// package, with its IDL as compiled into the program (so that it works
// from any module).
func EmbeddedBindingsImport() (*Import, error) {
	files, err := ParseFS(webidls.FS, ".", "bindings/webidls")
	if err != nil {
		return nil, err
	}
	src, err := webidls.FS.ReadFile("implementations.txt")
	if err != nil {
		return nil, err
	}
	impls, err := parseImpls("bindings/webidls/implementations.txt", src)
	if err != nil {
		return nil, err
	}
	return &Import{Path: "github.com/gowebengine/weblocks/bindings", Name: "bindings", Files: files, Impls: impls}, nil
}

// Run parses, validates and generates: the Go files of cfg.In are written
// to cfg.Out. It validates the IDL (with the imported IDL) as webidl check
// does, with the same severities: any error stops it; warnings go to
// cfg.Warnings. Every problem found is returned, not only the first, as
// an errors.Join whose Detail (with the parsed files) shows each with its
// source line and a caret.
func Run(cfg Config) error {
	if st, err := os.Stat(cfg.In); err != nil {
		return fmt.Errorf("input directory of .idl files: %w", err)
	} else if !st.IsDir() {
		return fmt.Errorf("input %s is not a directory: give the directory of the .idl files", cfg.In)
	}
	files, err := ParseDir(cfg.In)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("no .idl files in %s", cfg.In)
	}
	imports := cfg.Imports
	if cfg.WithBindings {
		b, err := EmbeddedBindingsImport()
		if err != nil {
			return err
		}
		imports = append([]*Import{b}, imports...)
	}
	if err := Check(files, imports, cfg.Warnings); err != nil {
		return err
	}
	var impls map[string]string
	if cfg.Impls != "" {
		if impls, err = ReadImpls(cfg.Impls); err != nil {
			return fmt.Errorf("implementations file: %w", err)
		}
	}
	g, outs, err := Generate(Load(files, imports...), Options{Package: cfg.Package, SelfRegister: cfg.SelfRegister, Impls: impls})
	if err != nil {
		return err
	}
	if errs := g.AllErrors(); len(errs) > 0 {
		return errors.Join(errs...)
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return err
	}
	return WriteOutputs(cfg.Out, outs)
}

// Check validates files together with the imported IDL (whose own
// problems are not reported): the problems of severity error are
// returned, the warnings written to warnings, formatted as webidl check
// formats them.
func Check(files []*idl.File, imports []*Import, warnings io.Writer) error {
	var all []*idl.File
	for _, imp := range imports {
		all = append(all, imp.Files...)
	}
	all = append(all, files...)
	local := map[string]bool{}
	for _, f := range files {
		local[f.Name] = true
	}
	var errs []error
	for _, p := range idl.Validate(all...) {
		if !local[p.Pos.Filename] {
			continue
		}
		if p.Severity == idl.SeverityWarning {
			if warnings != nil {
				fmt.Fprintf(warnings, "%s: %s: warning: %s\n%s\n", p.Pos, p.Rule, p.Message, p.Excerpt())
			}
			continue
		}
		errs = append(errs, &ValidationError{p})
	}
	return errors.Join(errs...)
}

// ValidationError is a problem of severity error found by idl.Validate.
type ValidationError struct{ Problem idl.Problem }

// Error formats the problem as webidl check does, on one line.
func (e *ValidationError) Error() string { return e.Problem.String() }

// AllErrors returns the generator's errors in a deterministic order:
// definitions by name, then mixins.
func (g *Generator) AllErrors() []error {
	var out []error
	for _, n := range sortedKeys(g.Errors) {
		out = append(out, g.Errors[n]...)
	}
	for _, n := range sortedKeys(g.MixinErrors) {
		out = append(out, fmt.Errorf("mixin %s: %w", n, g.MixinErrors[n]))
	}
	return out
}
