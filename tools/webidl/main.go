// Command webidl parses, checks and formats Web IDL.
//
// Usage:
//
//	webidl ast FILE             print the webidl2.js-compatible JSON AST of FILE
//	webidl check [-warnings=false] FILE|DIR...
//	                            parse and validate the files together; print
//	                            problems as file:line:col: rule: message with
//	                            the source line and a caret; exit 1 on errors
//	webidl fmt [-w] [-l] FILE|DIR...
//	                            print the canonical form of each file, or with
//	                            -w rewrite the files, or with -l list the files
//	                            whose formatting differs
//
// A directory argument stands for the .idl files directly inside it. Files
// are read and parsed in parallel, so hundreds of files take one call.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"

	"github.com/gowebengine/weblocks/idl"
)

func main() {
	// The process is short-lived and its heap is a small multiple of its
	// input: collect only when the heap nears a generous limit rather than
	// every time it doubles from a few megabytes.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(1 << 30)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage:
  webidl ast FILE
  webidl check [-warnings=false] FILE|DIR...
  webidl fmt [-w] [-l] FILE|DIR...
`

// run executes the command line args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "ast":
		return cmdAST(args[1:], stdout, stderr)
	case "check":
		return cmdCheck(args[1:], stdout, stderr)
	case "fmt":
		return cmdFmt(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "webidl: unknown command %q\n%s", args[0], usage)
	return 2
}

// parsed is the result of reading and parsing one file.
type parsed struct {
	path string
	src  []byte
	file *idl.File
	errs idl.ErrorList
	err  error // reading failed
}

// expand replaces directory arguments by the .idl files inside them.
func expand(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		names, err := filepath.Glob(filepath.Join(a, "*.idl"))
		if err != nil {
			return nil, err
		}
		sort.Strings(names)
		out = append(out, names...)
	}
	return out, nil
}

// parseAll reads and parses files in parallel, keeping their order.
func parseAll(paths []string) []*parsed {
	out := make([]*parsed, len(paths))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var parser idl.Parser // one per goroutine: shared allocations
			for i := range next {
				p := &parsed{path: paths[i]}
				p.src, p.err = os.ReadFile(paths[i])
				if p.err == nil {
					var err error
					p.file, err = parser.Parse(paths[i], p.src)
					if list, ok := err.(idl.ErrorList); ok {
						p.errs = list
					}
				}
				out[i] = p
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// printSyntaxErrors writes each error as file:line:col: syntax: message
// with its caret context.
func printSyntaxErrors(w io.Writer, errs idl.ErrorList) {
	for _, e := range errs {
		fmt.Fprintf(w, "%s: syntax: %s\n%s\n", e.Pos, e.Message, e.Excerpt())
	}
}

func cmdAST(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprint(stderr, "usage: webidl ast FILE\n")
		return 2
	}
	ps := parseAll(args)
	p := ps[0]
	if p.err != nil {
		fmt.Fprintf(stderr, "webidl: %v\n", p.err)
		return 1
	}
	if len(p.errs) > 0 {
		printSyntaxErrors(stderr, p.errs)
		return 1
	}
	out := p.file.AppendJSON(make([]byte, 0, len(p.src)*4))
	out = append(out, '\n')
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "webidl: %v\n", err)
		return 1
	}
	return 0
}

func cmdCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	warnings := fs.Bool("warnings", true, "also print warnings")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	paths, err := expand(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "webidl: %v\n", err)
		return 1
	}
	if len(paths) == 0 {
		fmt.Fprint(stderr, "usage: webidl check [-warnings=false] FILE|DIR...\n")
		return 2
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	status := 0
	var files []*idl.File
	for _, p := range parseAll(paths) {
		if p.err != nil {
			fmt.Fprintf(stderr, "webidl: %v\n", p.err)
			status = 1
			continue
		}
		if len(p.errs) > 0 {
			printSyntaxErrors(w, p.errs)
			status = 1
		}
		files = append(files, p.file)
	}
	nerr, nwarn := 0, 0
	for _, pr := range idl.Validate(files...) {
		if pr.Severity == idl.SeverityError {
			nerr++
			status = 1
		} else {
			nwarn++
			if !*warnings {
				continue
			}
		}
		msg := pr.Message
		if pr.Severity == idl.SeverityWarning {
			msg = "warning: " + msg
		}
		fmt.Fprintf(w, "%s: %s: %s\n%s\n", pr.Pos, pr.Rule, msg, pr.Excerpt())
	}
	w.Flush()
	fmt.Fprintf(stderr, "%d files: %d errors, %d warnings\n", len(paths), nerr, nwarn)
	return status
}

func cmdFmt(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fs.SetOutput(stderr)
	write := fs.Bool("w", false, "write the result to the files instead of printing it")
	list := fs.Bool("l", false, "list the files whose formatting differs")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	paths, err := expand(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "webidl: %v\n", err)
		return 1
	}
	if len(paths) == 0 {
		fmt.Fprint(stderr, "usage: webidl fmt [-w] [-l] FILE|DIR...\n")
		return 2
	}
	status := 0
	for _, p := range parseAll(paths) {
		if p.err != nil {
			fmt.Fprintf(stderr, "webidl: %v\n", p.err)
			status = 1
			continue
		}
		if len(p.errs) > 0 {
			printSyntaxErrors(stderr, p.errs)
			status = 1
			continue
		}
		out := idl.Format(p.file)
		changed := !bytes.Equal(out, p.src)
		if *list && changed {
			fmt.Fprintln(stdout, p.path)
		}
		switch {
		case *write:
			if changed {
				if err := writeFile(p.path, out); err != nil {
					fmt.Fprintf(stderr, "webidl: %v\n", err)
					status = 1
				}
			}
		case !*list:
			if _, err := stdout.Write(out); err != nil {
				fmt.Fprintf(stderr, "webidl: %v\n", err)
				return 1
			}
		}
	}
	return status
}

// writeFile replaces path's content atomically, keeping its permissions.
func writeFile(path string, data []byte) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(name, st.Mode().Perm())
	}
	if werr == nil {
		werr = os.Rename(name, path)
	}
	if werr != nil {
		os.Remove(name)
		return werr
	}
	return nil
}
