// Command bindgen generates the Go bindings from Web IDL.
//
//	go run ./tools/bindgen                 regenerate bindings/*_gen.go from bindings/webidls/*.idl
//	go run ./tools/bindgen -in DIR -out DIR -pkg NAME   an integrator's IDL, referring to package bindings's definitions
//	go run ./tools/bindgen coverage        generate and build every @webref/idl definition
//
// The coverage mode installs @webref/idl with npm into the test cache
// (internal/testenv.CacheDir), generates Go for every definition against
// stub implementations in a temporary module directory, builds it with
// `go build`, and prints "generated and compiled: N/M definitions".
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gowebengine/weblocks/codegen"
	"github.com/gowebengine/weblocks/idl"
	"github.com/gowebengine/weblocks/internal/testenv"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "coverage" {
		fs := flag.NewFlagSet("coverage", flag.ExitOnError)
		dir := fs.String("idl", "", "directory of .idl files (default: @webref/idl from npm)")
		verbose := fs.Bool("v", false, "list every failing definition")
		work := fs.String("work", "", "keep the generated package in this directory (inside the module)")
		_ = fs.Parse(os.Args[2:])
		if *dir == "" {
			d, err := testenv.InstallNPM("@webref/idl")
			if err != nil {
				fmt.Fprintln(os.Stderr, "bindgen coverage:", err)
				os.Exit(2)
			}
			*dir = d
		}
		if *work != "" {
			if err := os.MkdirAll(*work, 0o755); err != nil {
				fmt.Fprintln(os.Stderr, "bindgen coverage:", err)
				os.Exit(2)
			}
		}
		res, err := codegen.Coverage(*dir, *work)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bindgen coverage:", err)
			os.Exit(1)
		}
		if *verbose || res.Generated < res.Total {
			fmt.Print(res.Report)
		}
		fmt.Fprintf(os.Stderr, "generation %v (%d lines), go build %v\n", res.GenerateTime.Round(time.Millisecond), res.Lines, res.BuildTime.Round(time.Millisecond))
		fmt.Printf("generated and compiled: %d/%d definitions\n", res.Generated, res.Total)
		if res.Generated < res.Total {
			os.Exit(1)
		}
		return
	}
	root := findModuleRoot()
	defaultIn := filepath.Join(root, "bindings", "webidls")
	in := flag.String("in", defaultIn, "directory of .idl sources")
	out := flag.String("out", filepath.Join(root, "bindings"), "output directory")
	pkg := flag.String("pkg", "bindings", "Go package name of the generated files")
	withBindings := flag.Bool("bindings", true, "the IDL may refer to the definitions of package bindings (EventTarget, AbortSignal, DOMString typedefs...); ignored when generating package bindings itself")
	selfRegister := flag.Bool("self-register", false, "register the definitions in an init function, the statics of interface X implemented by the zero value of the package's hand-written type xStatics (always on when generating package bindings itself)")
	flag.Parse()
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, *in); err == nil && filepath.IsAbs(*in) {
			*in = rel // positions in messages relative to the working directory
		}
	}
	cfg := codegen.Config{In: *in, Out: *out, Package: *pkg, Warnings: os.Stderr,
		WithBindings: *withBindings && !sameDir(*in, defaultIn),
		SelfRegister: *selfRegister || sameDir(*in, defaultIn)}
	if err := codegen.Run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, codegen.Detail(err, parsed(cfg)...))
		os.Exit(1)
	}
}

// parsed re-reads the input (and the imported IDL) for the source lines
// of error messages.
func parsed(cfg codegen.Config) []*idl.File {
	files, _ := codegen.ParseDir(cfg.In)
	if cfg.WithBindings {
		if imp, err := codegen.EmbeddedBindingsImport(); err == nil {
			files = append(files, imp.Files...)
		}
	}
	return files
}

func sameDir(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// findModuleRoot walks up from the working directory to go.mod.
func findModuleRoot() string {
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}
