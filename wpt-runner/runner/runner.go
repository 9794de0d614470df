// Package runner is the wpt-runner as a library: it serves a
// web-platform-tests tree, runs its tests in the registered products
// (package product's registry: this engine's "go" product and "chromium"
// are always registered) and compares the results subtest by subtest,
// with everything the command has: isolation in child processes, reports,
// expectations, chunks and the merge subcommand.
//
// A third party runs its own engine by registering a product from its own
// main and handing the command line to Main:
//
//	func main() {
//		product.Register(product.Factory{Name: "mine", Isolate: true, New: newMine})
//		os.Exit(runner.Main(os.Args[1:]))
//	}
//
// wpt-runner/main.go is exactly that, without a product of its own.
// See wpt-runner/README.md for the flags, the exit statuses and how to
// write a product.
package runner

import (
	"context"
	"crypto/md5"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/big"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/wpt-runner/isolate"
	"github.com/gowebengine/weblocks/wpt-runner/manifest"
	"github.com/gowebengine/weblocks/wpt-runner/product"
	"github.com/gowebengine/weblocks/wpt-runner/report"
	"github.com/gowebengine/weblocks/wpt-runner/server"
	"github.com/gowebengine/weblocks/wpt-runner/suite"
)

// Main runs the wpt-runner command with args (the command line without
// the program name) and returns its exit status (ExitOK, ExitUnexpected,
// ExitFailed or ExitInterrupted). It writes the results to os.Stdout and
// progress and diagnostics to os.Stderr.
//
// Call it from main after registering one's products, with nothing else
// before it: when the process is a product child of package isolate (the
// same executable, started with a hidden argument), Main serves tests and
// exits the process. The first SIGINT or SIGTERM stops the run (the
// results so far are written, status ExitInterrupted); a second one exits
// at once.
func Main(args []string) int {
	// A renderer process of a product in renderer-process mode
	// (go-renderer), and a product child (package isolate), are this
	// executable started with a hidden argument: they run and exit here.
	browser.MaybeRunRenderer()
	isolate.MaybeChild()
	if len(args) > 0 && args[0] == "merge" {
		return runMerge(args[1:], os.Stdout, os.Stderr)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		sig, ok := <-sigs
		if !ok {
			return
		}
		fmt.Fprintf(os.Stderr, "\nwpt-runner: %v: stopping; writing the results so far (again to quit at once)\n", sig)
		cancel()
		if _, ok := <-sigs; ok {
			os.Exit(ExitInterrupted)
		}
	}()
	return Run(ctx, args, os.Stdout, os.Stderr)
}

// Exit statuses (`go run` reports any non-zero status of the program as
// its own exit status 1; build the binary to see them).
const (
	ExitOK          = 0 // every result as expected
	ExitUnexpected  = 1 // some result was not expected
	ExitFailed      = 2 // the run could not be done (bad flags, unwritable output, no tests, ...)
	ExitInterrupted = 3 // SIGINT/SIGTERM: the results so far were written, the rest marked not run
)

// options are the parsed command line.
type options struct {
	wptRoot           string
	products          []string
	chromiumPath      string
	reportDir         string
	logWPTReport      string
	timeoutMultiplier float64
	jobs              int
	expectations      string
	paths             []string
	grace             time.Duration
	isolate           map[string]bool
	childMemory       int64 // bytes
	thisChunk         int
	totalChunks       int
}

func parseArgs(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fset := flag.NewFlagSet("wpt-runner", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.StringVar(&o.wptRoot, "wpt-root", "", "serve this WPT checkout instead of the bundled Web Locks suite")
	productsFlag := fset.String("products", "", "comma-separated products to run (default: go, plus chromium when installed)")
	fset.StringVar(&o.chromiumPath, "chromium", "", "Chromium binary (default $CHROMIUM or /usr/bin/chromium)")
	fset.StringVar(&o.reportDir, "report-dir", "", "write wptreport-<product>.json and report.html into this directory")
	fset.StringVar(&o.logWPTReport, "log-wptreport", "", "write the wptreport JSON of the (single) product to this file")
	fset.Float64Var(&o.timeoutMultiplier, "timeout-multiplier", 1, "multiply every test timeout (10 s, 60 s for timeout=long) by this")
	fset.IntVar(&o.jobs, "jobs", runtime.NumCPU(), "tests run at the same time in each product")
	fset.StringVar(&o.expectations, "expectations", "", "directory of wptrunner .ini expectation files")
	fset.DurationVar(&o.grace, "grace", product.DefaultGrace, "extra time after the harness timeout before the runner declares a TIMEOUT")
	isolateFlag := fset.String("isolate", "", "comma-separated products whose tests run in child processes (a crash or out-of-memory costs one test); \"none\" for none (default: the products registered with Isolate, "+defaultIsolated()+")")
	childMemMiB := fset.Int64("child-memory-limit", isolate.DefaultMemoryLimit>>20, "memory limit of each child process of --isolate products, in MiB")
	fset.IntVar(&o.thisChunk, "this-chunk", 1, "run only this chunk (1-based) of --total-chunks")
	fset.IntVar(&o.totalChunks, "total-chunks", 1, "split the tests into this many chunks, as wptrunner's --chunk-type hash does (by the MD5 of the test's source path)")
	fset.Usage = func() { usage(stderr, fset) }
	// Flags may follow test paths.
	for len(args) > 0 {
		if err := fset.Parse(args); err != nil {
			return nil, err
		}
		args = fset.Args()
		if len(args) > 0 {
			o.paths = append(o.paths, args[0])
			args = args[1:]
		}
	}
	if *productsFlag != "" {
		seen := map[string]bool{}
		for _, p := range strings.Split(*productsFlag, ",") {
			if p = strings.TrimSpace(p); p != "" && !seen[p] {
				seen[p] = true
				o.products = append(o.products, p)
			}
		}
	}
	o.isolate = map[string]bool{}
	if *isolateFlag == "" {
		*isolateFlag = defaultIsolated()
	}
	for _, p := range strings.Split(*isolateFlag, ",") {
		if p = strings.TrimSpace(p); p != "" && p != "none" {
			o.isolate[p] = true
		}
	}
	if *childMemMiB < 64 || *childMemMiB > 1<<30 {
		return nil, errors.New("--child-memory-limit must be between 64 and 1073741824 MiB")
	}
	o.childMemory = *childMemMiB << 20
	if math.IsNaN(o.timeoutMultiplier) || math.IsInf(o.timeoutMultiplier, 0) || o.timeoutMultiplier <= 0 || o.timeoutMultiplier > maxTimeoutMultiplier {
		return nil, fmt.Errorf("--timeout-multiplier must be a positive number no larger than %d, not %v", maxTimeoutMultiplier, o.timeoutMultiplier)
	}
	if o.grace < 0 || o.grace > maxGrace {
		return nil, fmt.Errorf("--grace must be between 0 and %v, not %v", maxGrace, o.grace)
	}
	if o.jobs < 1 || o.jobs > maxJobs {
		return nil, fmt.Errorf("--jobs must be between 1 and %d, not %d", maxJobs, o.jobs)
	}
	if o.totalChunks < 1 || o.totalChunks > maxJobs*1000 {
		return nil, fmt.Errorf("--total-chunks must be between 1 and %d, not %d", maxJobs*1000, o.totalChunks)
	}
	if o.thisChunk < 1 || o.thisChunk > o.totalChunks {
		return nil, fmt.Errorf("--this-chunk must be between 1 and --total-chunks (%d), not %d", o.totalChunks, o.thisChunk)
	}
	return o, nil
}

// usage prints the command's synopsis, subcommands, registered products
// and flags.
func usage(w io.Writer, fset *flag.FlagSet) {
	fmt.Fprintf(w, `usage: %[1]s [flags] [TEST_PATH...]
       %[1]s merge --report-dir DIR [--expectations DIR] WPTREPORT.json...

Subcommands:
  (none)  serve the tree (--wpt-root, or the bundled Web Locks suite), run its
          tests in each product and compare the results subtest by subtest
  merge   combine wptreport files (one per --this-chunk) into one report per
          product and report.html; "%[1]s merge --help" for its flags

Products (--products):
`, progName())
	width := 0
	for _, n := range product.Names() {
		width = max(width, len(n))
	}
	for _, n := range product.Names() {
		f, _ := product.Lookup(n)
		var notes []string
		if f.Description != "" {
			notes = append(notes, f.Description)
		}
		if f.Placeholder {
			notes = append(notes, "placeholder")
		}
		if f.Isolate {
			notes = append(notes, "isolated by default")
		}
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, strings.Join(notes, "; "))
	}
	fmt.Fprintln(w, "\nFlags:")
	fset.PrintDefaults()
}

// progName is how the usage names the command.
func progName() string {
	if len(os.Args) > 0 {
		if base := filepath.Base(os.Args[0]); base != "" && !strings.HasSuffix(base, ".test") && base != "wpt-runner" {
			return base
		}
	}
	return "go run ./wpt-runner"
}

// defaultIsolated lists the registered products that run in child
// processes unless --isolate says otherwise.
func defaultIsolated() string {
	var names []string
	for _, n := range product.Names() {
		if f, _ := product.Lookup(n); f.Isolate && !f.Placeholder {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ",")
}

// Flag limits.
const (
	maxTimeoutMultiplier = 100 // 1000 s per test, 100 min for timeout=long
	maxGrace             = 10 * time.Minute
	maxJobs              = 256
)

// checkWritable makes sure the output paths can be written before the run
// starts, so that no run is lost to a typo.
func checkWritable(o *options) error {
	if o.reportDir != "" {
		if err := os.MkdirAll(o.reportDir, 0o755); err != nil {
			return fmt.Errorf("--report-dir: %v", err)
		}
		f, err := os.CreateTemp(o.reportDir, ".wpt-runner-check-*")
		if err != nil {
			return fmt.Errorf("--report-dir %s is not writable: %v", o.reportDir, err)
		}
		f.Close()
		os.Remove(f.Name())
	}
	if o.logWPTReport != "" {
		_, statErr := os.Stat(o.logWPTReport)
		f, err := os.OpenFile(o.logWPTReport, os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			return fmt.Errorf("--log-wptreport %s is not writable: %v", o.logWPTReport, err)
		}
		f.Close()
		if os.IsNotExist(statErr) {
			os.Remove(o.logWPTReport)
		}
	}
	return nil
}

// inChunk reports whether a test source belongs to chunk this (1-based) of
// total: wptrunner's "hash" chunker, which takes the MD5 of the test's
// path in the tree as a 128-bit number modulo total, so that all tests of
// one source file share a chunk.
func inChunk(source string, this, total int) bool {
	if total <= 1 {
		return true
	}
	sum := md5.Sum([]byte(source))
	n := new(big.Int).SetBytes(sum[:])
	return n.Mod(n, big.NewInt(int64(total))).Int64() == int64(this-1)
}

// treePaths turns command-line test paths into tree paths: a path that
// exists on disk inside --wpt-root is made relative to it.
func treePaths(o *options) ([]string, error) {
	var out []string
	for _, p := range o.paths {
		if o.wptRoot != "" {
			q, suffix := p, ""
			if i := strings.IndexAny(q, "?#"); i >= 0 {
				q, suffix = q[:i], q[i:]
			}
			if _, err := os.Stat(q); err == nil {
				absRoot, _ := filepath.Abs(o.wptRoot)
				absP, _ := filepath.Abs(q)
				if rel, err := filepath.Rel(absRoot, absP); err == nil && !strings.HasPrefix(rel, "..") {
					out = append(out, filepath.ToSlash(rel)+suffix)
					continue
				}
				if filepath.IsAbs(q) {
					return nil, fmt.Errorf("%s is outside --wpt-root %s", p, o.wptRoot)
				}
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// Run is Main without the process-wide parts (child processes, signals):
// it runs the command line args until ctx ends, writing the results to
// stdout and progress and diagnostics to stderr, and returns the exit
// status. A cancelled ctx is an interruption: the results so far are
// written and the status is ExitInterrupted. The merge subcommand is Main's.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseArgs(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(stderr, "wpt-runner:", err)
		return ExitFailed
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "wpt-runner: "+format+"\n", a...)
		return ExitFailed
	}
	if err := checkWritable(o); err != nil {
		return fail("%v", err)
	}

	var tree fs.FS
	treeName := "the bundled Web Locks suite"
	if o.wptRoot != "" {
		info, err := os.Stat(o.wptRoot)
		if err != nil || !info.IsDir() {
			return fail("--wpt-root %s is not a directory", o.wptRoot)
		}
		// os.Root keeps discovery and serving inside the tree, symlinks
		// included.
		root, err := os.OpenRoot(o.wptRoot)
		if err != nil {
			return fail("--wpt-root: %v", err)
		}
		defer root.Close()
		tree = root.FS()
		treeName = o.wptRoot
	} else {
		tree = suite.Root()
	}

	cfg := product.Config{ChromiumPath: o.chromiumPath}
	names := o.products
	if len(names) == 0 {
		names = []string{"go"}
		if err := findChromium(o.chromiumPath); err != nil {
			fmt.Fprintf(stderr, "wpt-runner: not running the chromium product: %v\n", err)
		} else {
			names = append(names, "chromium")
		}
	}
	var prods []product.Product
	for _, n := range names {
		f, ok := product.Lookup(n)
		if !ok {
			return fail("unknown product %q (known: %s)", n, strings.Join(product.Names(), ", "))
		}
		if f.Available != nil {
			if err := f.Available(cfg); err != nil {
				return fail("product %s is not available: %v", n, err)
			}
		}
		if f.Placeholder {
			fmt.Fprintf(stderr, "wpt-runner: note: the %s product is a placeholder for now\n", n)
		}
		var p product.Product
		if o.isolate[n] && !f.Placeholder {
			p = isolate.New(isolate.Options{Product: n, Config: cfg, MemoryLimit: o.childMemory, Grace: o.grace})
		} else if p, err = f.New(cfg); err != nil {
			return fail("product %s: %v", n, err)
		}
		prods = append(prods, p)
	}
	if o.logWPTReport != "" && len(prods) != 1 {
		return fail("--log-wptreport writes one product's report; choose one with --products (or use --report-dir)")
	}

	var exp *report.Expectations
	if o.expectations != "" {
		if exp, err = report.LoadExpectations(o.expectations); err != nil {
			return fail("--expectations: %v", err)
		}
		if err := exp.Check(); err != nil {
			return fail("--expectations: %v", err)
		}
	}

	paths, err := treePaths(o)
	if err != nil {
		return fail("%v", err)
	}
	tests, warnings, err := manifest.Discover(tree, paths)
	for _, w := range warnings {
		fmt.Fprintln(stderr, "wpt-runner: warning:", w)
	}
	if err != nil {
		return fail("%v", err)
	}
	if len(tests) == 0 {
		return fail("no testharness tests or crash tests found in %s under %v", treeName, paths)
	}
	// Every testharness test loads /resources/testharness.js: without it
	// each would wait for its deadline and end without a result.
	if info, err := fs.Stat(tree, "resources/testharness.js"); (err != nil || info.IsDir()) && !allCrashtests(tests) {
		return fail("%s has no resources/testharness.js, which every testharness test loads: is it a web-platform-tests checkout?", treeName)
	}
	if o.totalChunks > 1 {
		all := len(tests)
		var mine []manifest.Test
		for _, t := range tests {
			if inChunk(t.Source, o.thisChunk, o.totalChunks) {
				mine = append(mine, t)
			}
		}
		tests = mine
		fmt.Fprintf(stderr, "wpt-runner: chunk %d of %d: %d of %d tests\n", o.thisChunk, o.totalChunks, len(tests), all)
	}

	srv, err := server.Start(server.Config{Root: tree, TimeoutMultiplier: o.timeoutMultiplier,
		Logf: func(f string, a ...any) { fmt.Fprintf(stderr, "wpt-runner: "+f+"\n", a...) }})
	if err != nil {
		return fail("starting the server: %v", err)
	}
	defer srv.Close()
	fmt.Fprintf(stderr, "wpt-runner: serving %s on http ports %v, https ports %v; %d tests; products: %s\n",
		treeName, srv.HTTPPorts(), srv.HTTPSPorts(), len(tests), strings.Join(names, ", "))

	start := time.Now()
	runs, err := runAll(ctx, o, srv, prods, tests, exp, stderr)
	if err != nil {
		return fail("%v", err)
	}
	elapsed := time.Since(start)
	interrupted := ctx.Err() != nil
	notRun := 0
	if interrupted {
		// Every test without a result is marked as not run.
		for _, r := range runs {
			for _, t := range tests {
				if _, ok := r.Results[t.ID]; !ok {
					r.Results[t.ID] = product.TestResult{Status: product.SKIP, Message: notRunMessage}
					notRun++
				}
			}
		}
	}
	for _, w := range exp.Lint(tree, runs) {
		fmt.Fprintln(stderr, "wpt-runner: warning: expectations:", w)
	}

	cmp := report.CompareWith(runs, exp)
	fmt.Fprintln(stdout)
	cmp.WriteTable(stdout)
	if len(runs) > 1 {
		fmt.Fprintln(stdout)
		fmt.Fprintf(stdout, "Differences between %s:\n", strings.Join(names, " and "))
		if cmp.WriteDifferences(stdout) == 0 {
			fmt.Fprintln(stdout, "    none")
		}
	}

	if o.reportDir != "" {
		if err := writeReports(o.reportDir, runs, cmp, exp); err != nil {
			return fail("writing reports: %v", err)
		}
		fmt.Fprintf(stderr, "wpt-runner: wrote reports to %s\n", o.reportDir)
	}
	if o.logWPTReport != "" {
		if err := writeFile(o.logWPTReport, func(w io.Writer) error { return report.WriteWPTReport(w, runs[0], exp) }); err != nil {
			return fail("--log-wptreport: %v", err)
		}
	}

	unexpected := 0
	fmt.Fprintln(stdout)
	for _, r := range runs {
		un := report.FindUnexpected(r, exp)
		unexpected += len(un)
		passed, total, crashPassed, crashTotal := 0, 0, 0, 0
		for id, res := range r.Results {
			if report.DefaultStatus(id) == product.PASS {
				crashTotal++
				if res.Status == product.PASS {
					crashPassed++
				}
			}
			for _, st := range res.Subtests {
				total++
				if st.Status == product.PASS {
					passed++
				}
			}
		}
		crashes := ""
		if crashTotal > 0 {
			crashes = fmt.Sprintf(", %d/%d crash tests passed", crashPassed, crashTotal)
		}
		fmt.Fprintf(stdout, "%s: %d tests, %d/%d subtests passed%s, %d unexpected results, %v\n", r.Product, len(r.Results), passed, total, crashes, len(un), r.TimeEnd.Sub(r.TimeStart).Round(10*time.Millisecond))
		const maxShown = 50
		for i, u := range un {
			if i == maxShown {
				fmt.Fprintf(stdout, "    ... and %d more\n", len(un)-maxShown)
				break
			}
			name := u.Subtest
			if name == "" {
				name = "(harness status)"
			}
			m := ""
			if u.Message != "" {
				m = ": " + strings.Join(strings.Fields(u.Message), " ")
				if len(m) > 200 {
					m = m[:200] + "…"
				}
			}
			fmt.Fprintf(stdout, "    UNEXPECTED %s (expected %s) %s | %s%s\n", u.Status, u.Expected, u.Test, name, m)
		}
	}
	fmt.Fprintf(stdout, "ran %d tests in %d product(s) in %v\n", len(tests), len(runs), elapsed.Round(10*time.Millisecond))
	if interrupted {
		fmt.Fprintf(stdout, "interrupted: %d test runs not run (marked SKIP: %q)\n", notRun, notRunMessage)
		return ExitInterrupted
	}
	if unexpected > 0 {
		return ExitUnexpected
	}
	return ExitOK
}

// allCrashtests reports whether every test is a crash test (which needs no
// testharness.js).
func allCrashtests(tests []manifest.Test) bool {
	for _, t := range tests {
		if !t.Crashtest {
			return false
		}
	}
	return true
}

// notRunMessage marks the tests an interrupted run did not run.
const notRunMessage = "not run: the run was interrupted"

// testTimeout is the harness timeout of a test.
func testTimeout(t manifest.Test, multiplier float64) time.Duration {
	base := 10 * time.Second
	if t.Long {
		base = 60 * time.Second
	}
	return time.Duration(float64(base) * multiplier)
}

// runAll starts every product and runs all tests in all of them at the same
// time, each product with o.jobs workers, printing progress to stderr. The
// products start at the same time too, and each begins its tests as soon
// as it has started (the go product needs no browser to start); when one
// fails to start, the run stops and the error is returned.
func runAll(ctx context.Context, o *options, srv *server.Server, prods []product.Product, tests []manifest.Test, exp *report.Expectations, stderr io.Writer) ([]*report.Run, error) {
	prog := newProgress(stderr, len(tests)*len(prods))
	defer prog.finish()
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	runs := make([]*report.Run, len(prods))
	startErrs := make([]error, len(prods))
	var wg sync.WaitGroup
	for i, p := range prods {
		wg.Add(1)
		go func() {
			defer wg.Done()
			env := srv.Env(o.jobs, func(f string, a ...any) { prog.log(p.Name()+": "+f, a...) })
			if err := p.Start(runCtx, env); err != nil {
				startErrs[i] = fmt.Errorf("starting %s: %v", p.Name(), err)
				stop()
				return
			}
			defer p.Close()
			r := report.NewRun(p.Name(), p.Version())
			runs[i] = r
			runProduct(runCtx, ctx, o, srv, p, r, tests, exp, prog)
			r.TimeEnd = time.Now()
		}()
	}
	wg.Wait()
	for _, err := range startErrs {
		if err != nil {
			return nil, err
		}
	}
	return runs, nil
}

// runProduct runs the tests in one product with o.jobs workers. runCtx
// ends when the run stops (interruption or another product failing to
// start); ctx only with an interruption.
func runProduct(runCtx, ctx context.Context, o *options, srv *server.Server, p product.Product, r *report.Run, tests []manifest.Test, exp *report.Expectations, prog *progress) {
	var mu sync.Mutex
	var pwg sync.WaitGroup // this product's workers
	queue := make(chan manifest.Test)
	go func() {
		defer close(queue)
		for _, t := range tests {
			select {
			case queue <- t:
			case <-runCtx.Done():
				return
			}
		}
	}()
	for j := 0; j < o.jobs; j++ {
		pwg.Add(1)
		go func() {
			defer pwg.Done()
			for t := range queue {
				var res product.TestResult
				if exp.Disabled(p.Name(), t.ID) {
					res = product.TestResult{Status: product.SKIP, Message: "disabled by expectations"}
				} else {
					prog.started(p.Name(), t.ID)
					req := product.TestRequest{ID: t.ID, URL: srv.URL(t), Global: t.Global,
						Timeout: testTimeout(t, o.timeoutMultiplier), TimeoutMultiplier: o.timeoutMultiplier, Crashtest: t.Crashtest}
					res = product.SafeRun(ctx, p, req, o.grace)
					if ctx.Err() != nil && res.Status != product.OK {
						// Cut short by the interruption: not run.
						prog.done(p.Name(), t.ID, res)
						continue
					}
				}
				mu.Lock()
				r.Results[t.ID] = res
				mu.Unlock()
				prog.done(p.Name(), t.ID, res)
			}
		}()
	}
	pwg.Wait()
}

func writeFile(name string, write func(io.Writer) error) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeReports(dir string, runs []*report.Run, cmp *report.Comparison, exp *report.Expectations) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, r := range runs {
		if err := writeFile(filepath.Join(dir, "wptreport-"+r.Product+".json"), func(w io.Writer) error {
			return report.WriteWPTReport(w, r, exp)
		}); err != nil {
			return err
		}
	}
	return writeFile(filepath.Join(dir, "report.html"), cmp.WriteHTML)
}
