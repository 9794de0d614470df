package goproduct

import (
	"bytes"
	"context"
	"fmt"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gowebengine/weblocks/wpt-runner/product"
)

// The goroutines a crash test's browser starts carry the profiler label
// testLabel (goroutines inherit their creator's labels), so that those
// still running once the browser is closed can be found.
const testLabel = "wpt-runner-test"

var testSeq atomic.Int64

// leakSettle bounds the wait for a closed browser's goroutines to end.
const leakSettle = 2 * time.Second

// runLabeled runs a crash test under a label of its own and turns a PASS
// into a CRASH when goroutines it started outlive it: Browser.Close stops
// every goroutine of the browser, so one left is a leak of the engine.
// (Goroutines of net/http's connection pool, which the product's fetcher
// shares between tests, are not counted.)
func runLabeled(ctx context.Context, run func(context.Context) product.TestResult) product.TestResult {
	id := strconv.FormatInt(testSeq.Add(1), 10)
	var res product.TestResult
	pprof.Do(ctx, pprof.Labels(testLabel, id), func(ctx context.Context) { res = run(ctx) })
	if res.Status != product.PASS {
		return res
	}
	deadline := time.Now().Add(leakSettle)
	for {
		leaked := labeledGoroutines(id)
		if leaked == "" {
			return res
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return product.TestResult{Status: product.CRASH, Message: "goroutines of the engine still running after the browser was closed", Stack: leaked}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// labeledGoroutines returns the stacks (the goroutine profile's debug=1
// groups) of the goroutines labeled with test id, other than net/http's,
// or "".
func labeledGoroutines(id string) string {
	var buf bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&buf, 1); err != nil {
		return ""
	}
	label := fmt.Sprintf("%q:%q", testLabel, id)
	var out []string
	for _, group := range strings.Split(buf.String(), "\n\n") {
		if strings.Contains(group, label) && !strings.Contains(group, "net/http.") {
			out = append(out, group)
		}
	}
	return strings.Join(out, "\n\n")
}
