// Command bindgen generates the Go bindings from Web IDL.
//
//	go run ./tools/bindgen                 regenerate bindings/*_gen.go from bindings/webidls/*.idl
//	go run ./tools/bindgen -in DIR -out DIR -pkg NAME [-impls FILE]   an integrator's IDL, referring to package bindings's definitions
//	go run ./tools/bindgen coverage        generate and build every @webref/idl definition
//
// Without -in, bindgen regenerates package bindings, and only inside this
// module: elsewhere it says so and exits 2, writing nothing. A missing or
// empty -in directory is an error. Paths are used and shown in messages
// as given; -out defaults to the working directory when -in is given.
// -impls names an implementations file (see codegen.ReadImpls): the Go
// type of each interface, checked at compile time by the generated code.
//
// The coverage mode installs @webref/idl with npm into the test cache
// (internal/testenv.CacheDir), generates Go for every definition against
// stub implementations in a temporary module directory, builds it with
// `go build`, and prints "generated and compiled: N/M definitions".
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gowebengine/weblocks/codegen"
	"github.com/gowebengine/weblocks/idl"
	"github.com/gowebengine/weblocks/internal/testenv"
	"golang.org/x/mod/modfile"
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
	os.Exit(generate(os.Args[1:], os.Stderr))
}

// bindingsModule is the module whose package bindings bindgen regenerates
// when no -in is given.
const bindingsModule = "github.com/gowebengine/weblocks"

// generate runs bindgen with the arguments args (without the command
// name) and returns the exit status: 0 on success, 1 when generation
// fails, 2 on a usage error. Paths are used and shown as given.
func generate(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("bindgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := findModuleRoot()
	defaultIn := filepath.Join(root, "bindings", "webidls")
	in := fs.String("in", "", "directory of .idl sources (default: bindings/webidls of module "+bindingsModule+", when run inside it)")
	out := fs.String("out", "", "output directory (default: bindings of module "+bindingsModule+" without -in, else the working directory)")
	pkg := fs.String("pkg", "bindings", "Go package name of the generated files")
	withBindings := fs.Bool("bindings", true, "the IDL may refer to the definitions of package bindings (EventTarget, AbortSignal, DOMString typedefs...); ignored when generating package bindings itself")
	selfRegister := fs.Bool("self-register", false, "register the definitions in an init function, the statics of interface X implemented by the zero value of the package's hand-written type xStatics (always on when generating package bindings itself)")
	impls := fs.String("impls", "", "implementations file: one \"Interface GoType\" a line, the Go type implementing each IDL interface, checked at compile time (default: implementations.txt of bindings/webidls when generating package bindings)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "bindgen: unexpected argument %q (the input directory is given with -in)\n", fs.Arg(0))
		return 2
	}
	if *in == "" {
		if modulePath(root) != bindingsModule {
			fmt.Fprintf(stderr, "bindgen: no -in given, and the working directory is not in module %s (whose bindings bindgen regenerates by default): generate your own IDL with -in DIR -out DIR -pkg NAME\n", bindingsModule)
			return 2
		}
		*in = defaultIn
		if *impls == "" {
			*impls = filepath.Join(defaultIn, "implementations.txt")
		}
		if *out == "" {
			*out = filepath.Join(root, "bindings")
		}
		if wd, err := os.Getwd(); err == nil {
			if rel, err := filepath.Rel(wd, *in); err == nil {
				*in = rel // positions in messages relative to the working directory
			}
		}
	}
	if *out == "" {
		*out = "."
	}
	cfg := codegen.Config{In: *in, Out: *out, Package: *pkg, Warnings: stderr,
		WithBindings: *withBindings && !sameDir(*in, defaultIn),
		SelfRegister: *selfRegister || sameDir(*in, defaultIn), Impls: *impls}
	if err := codegen.Run(cfg); err != nil {
		fmt.Fprintln(stderr, codegen.Detail(err, parsed(cfg)...))
		return 1
	}
	return 0
}

// modulePath returns the module path declared in dir/go.mod, or "".
func modulePath(dir string) string {
	src, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return ""
	}
	return modfile.ModulePath(src)
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
