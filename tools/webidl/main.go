// Command webidl parses, checks and formats Web IDL.
//
// Usage:
//
//	webidl ast FILE             print the webidl2.js-compatible JSON AST of FILE
//	webidl check [-warnings=false] [-alone] [-with DIR] FILE|DIR...
//	                            parse and validate the files together; print
//	                            problems as file:line:col: rule: message with
//	                            the source line and a caret; exit 1 on errors
//	webidl fmt [-w] [-l] FILE|DIR...
//	                            print the canonical form of each file, or with
//	                            -w rewrite the files, or with -l list the files
//	                            whose formatting differs
//
// check resolves the names the files use against the Web IDL bundled with
// package bindings (bindings/webidls, embedded in the command), as bindgen
// does: a file that extends Navigator or takes an AbortSignal checks
// without naming dom.idl and html.idl. -with DIR adds the .idl files of DIR
// (for instance node_modules/@webref/idl) to that context; -alone checks
// the named files strictly by themselves. A context file with the same base
// name as a checked file is left out, so that checking a new version of
// bindings/webidls/web-locks.idl (or of a @webref/idl file) does not report
// every definition twice; a context file of DIR likewise replaces the
// bundled file of its name. Only problems in the checked files are
// reported; an unresolved name gets a hint saying where it may be defined.
//
// A directory argument stands for the .idl files directly inside it (one
// without any is an error); "-"
// stands for the standard input (not with fmt -w). Only regular files are
// read: FIFOs, devices and sockets are refused rather than waited on. Files
// are read and parsed in parallel, so hundreds of files take one call.
//
// Text from the input shown in messages (source lines, names, strings) has
// its control characters escaped, so that no input can send escape
// sequences to the terminal.
//
// fmt -w rewrites each file in place: through a symbolic link it formats
// the link's target, and the file keeps its mode, owner and hard links. A
// file without write permission is refused, even for a user who could
// override it.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/gowebengine/weblocks/bindings/webidls"
	"github.com/gowebengine/weblocks/idl"
)

func main() {
	// Collect when the heap has grown by half (rather than doubled), so
	// that the peak stays near what the parsed files keep live.
	debug.SetGCPercent(50)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage:
  webidl ast FILE
  webidl check [-warnings=false] [-alone] [-with DIR] FILE|DIR...
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
		if a == "-" {
			out = append(out, a)
			continue
		}
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			if !st.Mode().IsRegular() {
				return nil, fmt.Errorf("%s: not a regular file (%v)", a, st.Mode().Type())
			}
			out = append(out, a)
			continue
		}
		names, err := filepath.Glob(filepath.Join(a, "*.idl"))
		if err != nil {
			return nil, err
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("%s: directory holds no .idl files", a)
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
				p.src, p.err = readFile(paths[i])
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
		fmt.Fprintf(w, "%s: syntax: %s\n%s\n", idl.Sanitize(e.Pos.String()), idl.Sanitize(e.Message), e.Excerpt())
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
	alone := fs.Bool("alone", false, "check the files strictly by themselves, without the bundled Web IDL")
	with := fs.String("with", "", "also resolve names against the .idl files of `DIR` (e.g. node_modules/@webref/idl)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *alone && *with != "" {
		fmt.Fprint(stderr, "webidl: -alone and -with exclude each other\n")
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprint(stderr, "usage: webidl check [-warnings=false] [-alone] [-with DIR] FILE|DIR...\n")
		return 2
	}
	paths, err := expand(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "webidl: %s\n", idl.Sanitize(err.Error()))
		return 1
	}
	w := bufio.NewWriter(stdout)
	defer w.Flush()
	status := 0
	var files []*idl.File
	// nerr counts every error: unreadable files, syntax errors and
	// validation errors.
	nerr, nwarn := 0, 0
	checked := map[string]bool{} // base names of the checked files
	local := map[string]bool{}   // their names as given
	for _, p := range parseAll(paths) {
		checked[filepath.Base(p.path)] = true
		if p.err != nil {
			fmt.Fprintf(stderr, "webidl: %s\n", idl.Sanitize(p.err.Error()))
			nerr++
			status = 1
			continue
		}
		if len(p.errs) > 0 {
			printSyntaxErrors(w, p.errs)
			nerr += len(p.errs)
			status = 1
		}
		if p.file != nil {
			local[p.file.Name] = true
		}
		files = append(files, p.file)
	}
	var context []*idl.File
	if !*alone {
		context, err = contextFiles(*with, checked)
		if err != nil {
			fmt.Fprintf(stderr, "webidl: %s\n", idl.Sanitize(err.Error()))
			return 1
		}
	}
	// The context comes first, as bindgen orders its imports: a checked
	// file that redefines a context name is the duplicate.
	all := append(context[:len(context):len(context)], files...)
	for _, pr := range idl.Validate(all...) {
		if !local[pr.Pos.Filename] {
			continue
		}
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
		if pr.Rule == "undefined-type" {
			msg += hint(pr.Message, *alone, *with != "", checked)
		}
		fmt.Fprintf(w, "%s: %s: %s\n%s\n", idl.Sanitize(pr.Pos.String()), pr.Rule, idl.Sanitize(msg), pr.Excerpt())
	}
	w.Flush()
	fmt.Fprintf(stderr, "%d files: %d errors, %d warnings\n", len(paths), nerr, nwarn)
	return status
}

// bundledDir is the name the bundled files go by in messages.
const bundledDir = "bindings/webidls"

// contextFiles parses the Web IDL that check resolves names against: the
// bundled files, and the .idl files of dir when it is not empty, which
// replace the bundled files of the same base name. Files whose base name
// is in skip (those being checked) are left out.
func contextFiles(dir string, skip map[string]bool) ([]*idl.File, error) {
	byName := map[string]*idl.File{}
	bundled, err := bundledFiles()
	if err != nil {
		return nil, err
	}
	for _, f := range bundled {
		byName[filepath.Base(f.Name)] = f
	}
	if dir != "" {
		st, err := os.Stat(dir)
		if err != nil {
			return nil, fmt.Errorf("-with: %w", err)
		}
		if !st.IsDir() {
			return nil, fmt.Errorf("-with %s: not a directory", dir)
		}
		paths, err := expand([]string{dir})
		if err != nil {
			return nil, fmt.Errorf("-with %w", err)
		}
		for _, p := range parseAll(paths) {
			if p.err != nil {
				return nil, fmt.Errorf("-with: %w", p.err)
			}
			if len(p.errs) > 0 {
				// A broken context file would hide its names: say so.
				return nil, fmt.Errorf("-with: %s: syntax: %s", p.errs[0].Pos, p.errs[0].Message)
			}
			byName[filepath.Base(p.path)] = p.file
		}
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		if !skip[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	out := make([]*idl.File, len(names))
	for i, n := range names {
		out[i] = byName[n]
	}
	return out, nil
}

// bundledFiles parses the embedded Web IDL of package bindings.
func bundledFiles() ([]*idl.File, error) {
	names, err := fs.Glob(webidls.FS, "*.idl")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var parser idl.Parser
	out := make([]*idl.File, 0, len(names))
	for _, n := range names {
		src, err := fs.ReadFile(webidls.FS, n)
		if err != nil {
			return nil, err
		}
		f, err := parser.Parse(path.Join(bundledDir, n), src)
		if err != nil {
			return nil, fmt.Errorf("bundled Web IDL: %w", err)
		}
		out = append(out, f)
	}
	return out, nil
}

// hint says where the name of an undefined-type message may be defined.
// With -alone, it looks the name up in the bundled files.
func hint(msg string, alone, with bool, checked map[string]bool) string {
	name, ok := quotedName(msg)
	if !ok || !strings.Contains(msg, " is not defined ") {
		return "" // "X is an enum, not an interface": defined, of another kind
	}
	if alone {
		if files, err := bundledFiles(); err == nil {
			a := idl.Analyze(files...)
			if d := a.Lookup(name); d != nil && !a.IsBuiltin(name) && !checked[filepath.Base(d.Pos().Filename)] {
				return " (defined in " + d.Pos().Filename + ", which check resolves against without -alone)"
			}
		}
		return " (defined in another file? name that file too, or drop -alone to resolve against the bundled Web IDL)"
	}
	if with {
		return " (defined in another file? name that file too)"
	}
	return " (defined in another file? name that file too, or resolve against @webref/idl with -with DIR)"
}

// quotedName returns the first double-quoted name of msg.
func quotedName(msg string) (string, bool) {
	i := strings.IndexByte(msg, '"')
	if i < 0 {
		return "", false
	}
	j := strings.IndexByte(msg[i+1:], '"')
	if j < 0 {
		return "", false
	}
	return msg[i+1 : i+1+j], true
}

func cmdFmt(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fs.SetOutput(stderr)
	write := fs.Bool("w", false, "write the result to the files instead of printing it")
	list := fs.Bool("l", false, "list the files whose formatting differs")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprint(stderr, "usage: webidl fmt [-w] [-l] FILE|DIR...\n")
		return 2
	}
	paths, err := expand(fs.Args())
	if err != nil {
		fmt.Fprintf(stderr, "webidl: %s\n", idl.Sanitize(err.Error()))
		return 1
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
		case *write && p.path == "-":
			fmt.Fprintf(stderr, "webidl: cannot rewrite the standard input; use fmt without -w\n")
			status = 1
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

// readFile reads a regular file, or the standard input for "-". It opens
// without blocking and checks the opened file, so that a FIFO, device or
// socket (or a file swapped for one after expand looked at it) is refused
// instead of being waited on or read without end.
func readFile(path string) ([]byte, error) {
	if path == "-" {
		return io.ReadAll(os.Stdin)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%v)", path, st.Mode().Type())
	}
	buf := make([]byte, 0, st.Size()+1)
	for {
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return nil, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // the file grew
		}
	}
}

// writeFile rewrites path's content in place: the file (the target, when
// path is a symbolic link) keeps its identity, mode, owner and hard links.
// A file without any write permission bit is refused, even when the user
// could override it. The new content is written over the old and the file
// truncated to it.
func writeFile(path string, data []byte) error {
	st, err := os.Stat(path) // follows symbolic links
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", path)
	}
	if st.Mode().Perm()&0o222 == 0 {
		return fmt.Errorf("%s: file is read-only; not rewritten", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, werr := f.WriteAt(data, 0)
	if werr == nil {
		werr = f.Truncate(int64(len(data)))
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	return werr
}
