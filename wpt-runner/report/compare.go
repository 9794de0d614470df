package report

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/gowebengine/weblocks/wpt-runner/product"
)

// Cell is one product's outcome of a test or subtest; Present is false
// when that product has no such result.
type Cell struct {
	Present bool
	Status  product.Status
	Message string
	// With expectations (CompareWith): Expected is what they expect, and
	// Mark is MarkExpected for a result other than OK/PASS that they allow
	// (a known failure), MarkUnexpected for a result they do not allow, and
	// "" otherwise.
	Expected Expected
	Mark     string
}

// Cell marks.
const (
	MarkExpected   = "expected"
	MarkUnexpected = "unexpected"
)

// mark sets the cell's expectation mark.
func (c *Cell) mark(exp *Expectations, want Expected, def product.Status) {
	if exp == nil || !c.Present || c.Status == product.SKIP {
		return
	}
	c.Expected = want
	switch {
	case !want.Allows(c.Status):
		c.Mark = MarkUnexpected
	case c.Status != def:
		c.Mark = MarkExpected
	}
}

// Row is a subtest (or, with Subtest "", the harness status) across products.
type Row struct {
	Subtest string
	Cells   []Cell
	Differs bool
}

// TestRow is one test across products.
type TestRow struct {
	Test    string
	Harness Row
	// Passed and Total subtests per product.
	Passed, Total []int
	Subtests      []Row
	Differs       bool
}

// Comparison lines up the results of several products.
type Comparison struct {
	Products []string
	Tests    []TestRow
}

func cellsDiffer(cells []Cell) bool {
	for _, c := range cells[1:] {
		if c.Present != cells[0].Present || c.Status != cells[0].Status {
			return true
		}
	}
	return false
}

// Compare builds the comparison of runs (in the given product order).
func Compare(runs []*Run) *Comparison { return CompareWith(runs, nil) }

// CompareWith is Compare with every result marked as expected or
// unexpected by exp (see Cell).
func CompareWith(runs []*Run, exp *Expectations) *Comparison {
	c := &Comparison{}
	ids := map[string]bool{}
	for _, r := range runs {
		c.Products = append(c.Products, r.Product)
		for id := range r.Results {
			ids[id] = true
		}
	}
	var sorted []string
	for id := range ids {
		sorted = append(sorted, id)
	}
	sort.Strings(sorted)
	for _, id := range sorted {
		tr := TestRow{Test: id, Passed: make([]int, len(runs)), Total: make([]int, len(runs))}
		tr.Harness.Cells = make([]Cell, len(runs))
		var names []string
		seen := map[string]bool{}
		sub := make([]map[string]product.SubtestResult, len(runs))
		for i, r := range runs {
			res, ok := r.Results[id]
			sub[i] = map[string]product.SubtestResult{}
			if !ok {
				continue
			}
			tr.Harness.Cells[i] = Cell{Present: true, Status: res.Status, Message: res.Message}
			tr.Harness.Cells[i].mark(exp, exp.Test(r.Product, id), DefaultStatus(id))
			for _, st := range res.Subtests {
				if _, dup := sub[i][st.Name]; !dup {
					sub[i][st.Name] = st
				}
				tr.Total[i]++
				if st.Status == product.PASS {
					tr.Passed[i]++
				}
				if !seen[st.Name] {
					seen[st.Name] = true
					names = append(names, st.Name)
				}
			}
		}
		tr.Harness.Differs = len(runs) > 1 && cellsDiffer(tr.Harness.Cells)
		tr.Differs = tr.Harness.Differs
		for _, n := range names {
			row := Row{Subtest: n, Cells: make([]Cell, len(runs))}
			for i, r := range runs {
				if st, ok := sub[i][n]; ok {
					row.Cells[i] = Cell{Present: true, Status: st.Status, Message: st.Message}
					row.Cells[i].mark(exp, exp.Subtest(r.Product, id, n), product.PASS)
				}
			}
			row.Differs = len(runs) > 1 && cellsDiffer(row.Cells)
			tr.Differs = tr.Differs || row.Differs
			tr.Subtests = append(tr.Subtests, row)
		}
		c.Tests = append(c.Tests, tr)
	}
	return c
}

func (c Cell) String() string {
	if !c.Present {
		return "(missing)"
	}
	s := string(c.Status) + c.MarkText()
	if c.Message == "" {
		return s
	}
	return s + ": " + oneLine(c.Message)
}

// MarkText is the cell's mark as the terminal shows it: " (expected)" or
// " (unexpected; expected X)".
func (c Cell) MarkText() string {
	switch c.Mark {
	case MarkExpected:
		return " (expected)"
	case MarkUnexpected:
		return " (unexpected; expected " + c.Expected.String() + ")"
	}
	return ""
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// WriteTable prints the per-test table: subtests passed per product (and
// the harness status when it is not OK), or a crash test's status.
func (c *Comparison) WriteTable(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "test\t%s\t\n", strings.Join(c.Products, "\t"))
	for _, t := range c.Tests {
		fmt.Fprintf(tw, "%s", t.Test)
		for i, cell := range t.Harness.Cells {
			s := "-"
			switch {
			case cell.Present && DefaultStatus(t.Test) == product.PASS:
				// A crash test has no subtests: its status is its result.
				s = string(cell.Status)
			case cell.Present:
				s = fmt.Sprintf("%d/%d", t.Passed[i], t.Total[i])
				if cell.Status != DefaultStatus(t.Test) {
					s += " " + string(cell.Status)
				}
			}
			fmt.Fprintf(tw, "\t%s", s)
		}
		fmt.Fprint(tw, "\t\n")
	}
	tw.Flush()
}

// WriteDifferences prints every harness status and subtest on which the
// products differ, grouped by test, with each product's status and message
// (on one line when no product has a message). It returns the number of
// differences.
func (c *Comparison) WriteDifferences(w io.Writer) int {
	n := 0
	for _, t := range c.Tests {
		rows := t.Subtests
		if t.Harness.Differs {
			rows = append([]Row{t.Harness}, rows...)
		}
		header := false
		for _, r := range rows {
			if !r.Differs {
				continue
			}
			if !header {
				fmt.Fprintln(w, t.Test)
				header = true
			}
			n++
			name := r.Subtest
			if name == "" {
				name = "(harness status)"
			}
			withMsg := false
			for _, cell := range r.Cells {
				withMsg = withMsg || cell.Message != ""
			}
			if !withMsg {
				parts := make([]string, len(r.Cells))
				for i, cell := range r.Cells {
					parts[i] = c.Products[i] + " " + cell.String()
				}
				fmt.Fprintf(w, "  %s: %s\n", name, strings.Join(parts, ", "))
				continue
			}
			fmt.Fprintf(w, "  %s:\n", name)
			for i, cell := range r.Cells {
				fmt.Fprintf(w, "      %-10s %s\n", c.Products[i]+":", cell)
			}
		}
	}
	return n
}

var htmlTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"lower": func(s product.Status) string { return strings.ToLower(string(s)) },
}).Parse(`<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>wpt-runner: {{range $i, $p := .Products}}{{if $i}} vs {{end}}{{$p}}{{end}}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1em; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #ccc; padding: 2px 6px; vertical-align: top; text-align: left; }
tr.test th { background: #eef; }
tr.diff td, tr.diff th { background: #ffe08a; }
tr.diff td.subtest::before { content: "≠ "; font-weight: bold; color: #b00; }
.mark { font-size: 11px; border-radius: 3px; padding: 0 4px; margin-left: 4px; }
.mark.expected { background: #ddd; color: #333; } .mark.expected::before { content: "✓ "; }
.mark.unexpected { background: #b00; color: #fff; } .mark.unexpected::before { content: "! "; }
.pass, .ok { color: #070; } .fail, .error, .crash { color: #b00; } .timeout, .notrun, .precondition_failed { color: #a50; }
.msg { display: block; color: #555; font-size: 12px; white-space: pre-wrap; }
#summary span { margin-right: 1.5em; }
body.only-diff tr.test:not(.has-diff), body.only-diff tr.subtest:not(.diff) { display: none; }
</style>
<h1>wpt-runner results</h1>
<p id="summary"><span>tests: <b id="tests">{{len .Tests}}</b></span><span>differing subtests and harness statuses: <b id="differences">{{.DiffCount}}</b></span>
{{range $i, $p := .Products}}<span>{{$p}}: <b class="passed" data-product="{{$p}}">{{index $.PassedTotal $i}}</b>/{{index $.SubtestTotal $i}} subtests passed</span>{{end}}</p>
<p><label><input type="checkbox" id="only-diff" onchange="document.body.classList.toggle('only-diff', this.checked)"> show only differences</label></p>
<table>
<thead><tr><th>test / subtest</th>{{range .Products}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{range $t := .Tests}}<tr class="test{{if $t.Differs}} has-diff{{end}}{{if $t.Harness.Differs}} diff{{end}}" data-test="{{$t.Test}}"><th>{{$t.Test}}</th>{{range $i, $c := $t.Harness.Cells}}<th>{{if $c.Present}}<span class="{{lower $c.Status}}">{{$c.Status}}</span>{{template "mark" $c}} {{index $.TestPassed $t.Test $i}}{{if $c.Message}}<span class="msg">{{$c.Message}}</span>{{end}}{{else}}(missing){{end}}</th>{{end}}</tr>
{{range $t.Subtests}}<tr class="subtest{{if .Differs}} diff{{end}}"><td class="subtest">{{.Subtest}}</td>{{range .Cells}}<td>{{if .Present}}<span class="{{lower .Status}}">{{.Status}}</span>{{template "mark" .}}{{if .Message}}<span class="msg">{{.Message}}</span>{{end}}{{else}}(missing){{end}}</td>{{end}}</tr>
{{end}}{{end}}</tbody>
</table>
</html>
{{define "mark"}}{{if eq .Mark "expected"}}<span class="mark expected" title="allowed by the expectations">expected</span>{{else if eq .Mark "unexpected"}}<span class="mark unexpected" title="not allowed by the expectations">unexpected; expected {{.Expected.String}}</span>{{end}}{{end}}`))

// DiffCount counts differing rows (harness statuses and subtests).
func (c *Comparison) DiffCount() int {
	n := 0
	for _, t := range c.Tests {
		if t.Harness.Differs {
			n++
		}
		for _, r := range t.Subtests {
			if r.Differs {
				n++
			}
		}
	}
	return n
}

// WriteHTML writes the side-by-side report page; rows where the products
// differ have the class "diff" and are highlighted.
func (c *Comparison) WriteHTML(w io.Writer) error {
	passed := make([]int, len(c.Products))
	total := make([]int, len(c.Products))
	testPassed := map[string][]string{}
	for _, t := range c.Tests {
		cells := make([]string, len(c.Products))
		for i := range c.Products {
			passed[i] += t.Passed[i]
			total[i] += t.Total[i]
			cells[i] = fmt.Sprintf("%d/%d", t.Passed[i], t.Total[i])
			if DefaultStatus(t.Test) == product.PASS {
				cells[i] = "" // a crash test: the status shown is its result
			}
		}
		testPassed[t.Test] = cells
	}
	return htmlTmpl.Execute(w, map[string]any{
		"Products": c.Products, "Tests": c.Tests, "DiffCount": c.DiffCount(),
		"PassedTotal": passed, "SubtestTotal": total, "TestPassed": testPassed,
	})
}
