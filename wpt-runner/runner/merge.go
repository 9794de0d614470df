package runner

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gowebengine/weblocks/wpt-runner/report"
)

// runMerge is the merge subcommand: it combines wptreport files (for
// example one per --this-chunk on several CI machines) into one report per
// product, writes report.html and wptreport-<product>.json into
// --report-dir, and prints the comparison. Exit status as for a run: 1 when
// a merged result is unexpected, 2 when the merge failed.
func runMerge(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("wpt-runner merge", flag.ContinueOnError)
	fset.SetOutput(stderr)
	reportDir := fset.String("report-dir", "", "write the merged wptreport-<product>.json and report.html here (required)")
	expDir := fset.String("expectations", "", "directory of wptrunner .ini expectation files, to mark expected results")
	fset.Usage = func() {
		fmt.Fprintf(stderr, "usage: %s merge --report-dir DIR [--expectations DIR] WPTREPORT.json...\n", progName())
		fset.PrintDefaults()
	}
	if err := fset.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return ExitOK
		}
		return ExitFailed
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "wpt-runner merge: "+format+"\n", a...)
		return ExitFailed
	}
	files := fset.Args()
	if *reportDir == "" || len(files) == 0 {
		fset.Usage()
		return ExitFailed
	}
	if err := checkWritable(&options{reportDir: *reportDir}); err != nil {
		return fail("%v", err)
	}
	var exp *report.Expectations
	if *expDir != "" {
		var err error
		if exp, err = report.LoadExpectations(*expDir); err != nil {
			return fail("--expectations: %v", err)
		}
		if err := exp.Check(); err != nil {
			return fail("--expectations: %v", err)
		}
	}
	byProduct := map[string]*report.Run{}
	var order []string
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return fail("%v", err)
		}
		r, err := report.ReadWPTReport(f)
		f.Close()
		if err != nil {
			return fail("%s: %v", name, err)
		}
		if r.Product == "" {
			return fail("%s: no run_info.product", name)
		}
		m, ok := byProduct[r.Product]
		if !ok {
			byProduct[r.Product] = r
			order = append(order, r.Product)
			continue
		}
		for id, res := range r.Results {
			if _, dup := m.Results[id]; dup {
				return fail("%s: %s has a result for %s already (from another file)", name, r.Product, id)
			}
			m.Results[id] = res
		}
		if r.TimeStart.Before(m.TimeStart) {
			m.TimeStart = r.TimeStart
		}
		if r.TimeEnd.After(m.TimeEnd) {
			m.TimeEnd = r.TimeEnd
		}
		if m.Version != r.Version && !strings.Contains(m.Version, r.Version) {
			m.Version += "; " + r.Version
		}
	}
	sort.Strings(order)
	var runs []*report.Run
	for _, p := range order {
		runs = append(runs, byProduct[p])
	}
	cmp := report.CompareWith(runs, exp)
	cmp.WriteTable(stdout)
	if len(runs) > 1 {
		fmt.Fprintf(stdout, "\nDifferences between %s:\n", strings.Join(order, " and "))
		if cmp.WriteDifferences(stdout) == 0 {
			fmt.Fprintln(stdout, "    none")
		}
	}
	if err := writeReports(*reportDir, runs, cmp, exp); err != nil {
		return fail("writing reports: %v", err)
	}
	unexpected := 0
	for _, r := range runs {
		n := len(report.FindUnexpected(r, exp))
		unexpected += n
		fmt.Fprintf(stdout, "%s: %d tests, %d unexpected results\n", r.Product, len(r.Results), n)
	}
	fmt.Fprintf(stderr, "wpt-runner merge: merged %d files into %s\n", len(files), filepath.Join(*reportDir, "report.html"))
	if unexpected > 0 {
		return ExitUnexpected
	}
	return ExitOK
}
