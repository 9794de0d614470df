// Package report turns test results into wptrunner's wptreport JSON, a
// side-by-side HTML comparison of products, and the text summary the
// command prints; it also reads wptrunner .ini expectation files.
package report

import (
	"encoding/json"
	"io"
	"runtime"
	"sort"
	"time"

	"github.com/gowebengine/weblocks/wpt-runner/product"
)

// Run is the results of one product.
type Run struct {
	Product   string
	Version   string
	TimeStart time.Time
	TimeEnd   time.Time
	// Results by test ID.
	Results map[string]product.TestResult
}

// NewRun returns an empty run of a product.
func NewRun(productName, version string) *Run {
	return &Run{Product: productName, Version: version, TimeStart: time.Now(), Results: map[string]product.TestResult{}}
}

// TestIDs lists the run's tests, sorted.
func (r *Run) TestIDs() []string {
	ids := make([]string, 0, len(r.Results))
	for id := range r.Results {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

type wptReport struct {
	RunInfo   map[string]any `json:"run_info"`
	TimeStart int64          `json:"time_start"`
	TimeEnd   int64          `json:"time_end"`
	Results   []wptResult    `json:"results"`
}

type wptResult struct {
	Test     string       `json:"test"`
	Status   string       `json:"status"`
	Message  *string      `json:"message"`
	Duration int64        `json:"duration"`
	Expected string       `json:"expected,omitempty"`
	Known    []string     `json:"known_intermittent,omitempty"`
	Subtests []wptSubtest `json:"subtests"`
}

type wptSubtest struct {
	Name     string   `json:"name"`
	Status   string   `json:"status"`
	Message  *string  `json:"message"`
	Expected string   `json:"expected,omitempty"`
	Known    []string `json:"known_intermittent,omitempty"`
}

func msg(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// WriteWPTReport writes the run in wptrunner's wptreport.json format. When
// exp is not nil, results that differ from the expectation carry
// "expected" (and "known_intermittent"), as wptrunner writes them.
func WriteWPTReport(w io.Writer, r *Run, exp *Expectations) error {
	rep := wptReport{
		RunInfo: map[string]any{
			"product":         r.Product,
			"browser_version": r.Version,
			"os":              runtime.GOOS,
			"processor":       runtime.GOARCH,
			"debug":           false,
		},
		TimeStart: r.TimeStart.UnixMilli(),
		TimeEnd:   r.TimeEnd.UnixMilli(),
		Results:   []wptResult{},
	}
	for _, id := range r.TestIDs() {
		res := r.Results[id]
		wr := wptResult{Test: id, Status: string(res.Status), Message: msg(res.Message), Duration: res.Duration.Milliseconds(), Subtests: []wptSubtest{}}
		if exp != nil {
			if want := exp.Test(r.Product, id); !want.Allows(res.Status) {
				wr.Expected, wr.Known = want.strings()
			}
		}
		for _, st := range res.Subtests {
			ws := wptSubtest{Name: st.Name, Status: string(st.Status), Message: msg(st.Message)}
			if exp != nil {
				if want := exp.Subtest(r.Product, id, st.Name); !want.Allows(st.Status) {
					ws.Expected, ws.Known = want.strings()
				}
			}
			wr.Subtests = append(wr.Subtests, ws)
		}
		rep.Results = append(rep.Results, wr)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(rep)
}

// ReadWPTReport parses a wptreport.json back into a Run.
func ReadWPTReport(rd io.Reader) (*Run, error) {
	var rep wptReport
	if err := json.NewDecoder(rd).Decode(&rep); err != nil {
		return nil, err
	}
	r := &Run{Results: map[string]product.TestResult{}, TimeStart: time.UnixMilli(rep.TimeStart), TimeEnd: time.UnixMilli(rep.TimeEnd)}
	r.Product, _ = rep.RunInfo["product"].(string)
	r.Version, _ = rep.RunInfo["browser_version"].(string)
	for _, wr := range rep.Results {
		tr := product.TestResult{Status: product.Status(wr.Status), Duration: time.Duration(wr.Duration) * time.Millisecond}
		if wr.Message != nil {
			tr.Message = *wr.Message
		}
		for _, ws := range wr.Subtests {
			st := product.SubtestResult{Name: ws.Name, Status: product.Status(ws.Status)}
			if ws.Message != nil {
				st.Message = *ws.Message
			}
			tr.Subtests = append(tr.Subtests, st)
		}
		r.Results[wr.Test] = tr
	}
	return r, nil
}

// Unexpected is one result that the expectations did not allow.
type Unexpected struct {
	Product, Test, Subtest string // Subtest "" for the harness status
	Status                 product.Status
	Expected               Expected
	Message                string
}

// FindUnexpected lists the results of r that exp does not allow (with nil
// exp every result is expected to be OK / PASS, and every crash test
// PASS).
func FindUnexpected(r *Run, exp *Expectations) []Unexpected {
	var out []Unexpected
	for _, id := range r.TestIDs() {
		res := r.Results[id]
		if res.Status == product.SKIP {
			continue
		}
		if want := exp.Test(r.Product, id); !want.Allows(res.Status) {
			out = append(out, Unexpected{Product: r.Product, Test: id, Status: res.Status, Expected: want, Message: res.Message})
		}
		for _, st := range res.Subtests {
			if want := exp.Subtest(r.Product, id, st.Name); !want.Allows(st.Status) {
				out = append(out, Unexpected{Product: r.Product, Test: id, Subtest: st.Name, Status: st.Status, Expected: want, Message: st.Message})
			}
		}
	}
	return out
}
