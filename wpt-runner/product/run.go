package product

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"time"
)

// DefaultGrace is how long after the harness timeout the runner waits
// before it gives up on a test, so that testharness.js's own timeout fires
// first and reports which subtests timed out.
const DefaultGrace = 5 * time.Second

// SafeRun runs one test in p and always returns: it gives p a context that
// ends grace after req.Timeout, returns a TIMEOUT result when p has not
// answered shortly after that (the wedged call is abandoned), and turns a
// panic inside p.RunTest into a CRASH result for this test only.
func SafeRun(ctx context.Context, p Product, req TestRequest, grace time.Duration) TestResult {
	start := time.Now()
	limit := req.Timeout + grace
	tctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()

	done := make(chan TestResult, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- TestResult{Status: CRASH, Message: fmt.Sprintf("panic: %v", v), Stack: trimStack(string(debug.Stack()))}
			}
		}()
		done <- p.RunTest(tctx, req)
	}()

	// After the deadline the product gets a little longer to notice the
	// cancelled context and report what it has.
	settle := grace / 5
	if settle < 200*time.Millisecond {
		settle = 200 * time.Millisecond
	}
	hard := time.NewTimer(limit + settle)
	defer hard.Stop()
	var res TestResult
	select {
	case res = <-done:
	case <-hard.C:
		res = TestResult{Status: TIMEOUT, Message: fmt.Sprintf("%s did not finish within %v (harness timeout %v plus %v grace)", p.Name(), limit.Round(time.Millisecond), req.Timeout, grace)}
	case <-ctx.Done():
		res = TestResult{Status: ERROR, Message: "run cancelled: " + ctx.Err().Error()}
	}
	switch {
	case req.Crashtest && !res.Status.ValidCrashtest():
		res = TestResult{Status: ERROR, Message: fmt.Sprintf("%s reported invalid crash test status %q (%s)", p.Name(), res.Status, res.Message)}
	case !req.Crashtest && !res.Status.ValidHarness():
		res = TestResult{Status: ERROR, Message: fmt.Sprintf("%s reported invalid harness status %q", p.Name(), res.Status)}
	}
	for i, st := range res.Subtests {
		if !st.Status.ValidSubtest() {
			res.Subtests[i].Status = FAIL
			res.Subtests[i].Message = fmt.Sprintf("invalid subtest status %q: %s", st.Status, st.Message)
		}
	}
	if res.Duration == 0 {
		res.Duration = time.Since(start)
	}
	return res
}

// trimStack drops the runtime frames above the panicking function.
func trimStack(s string) string {
	if i := strings.Index(s, "panic("); i >= 0 {
		if j := strings.Index(s[i:], "\n"); j >= 0 {
			s = s[i+j+1:]
		}
	}
	const max = 4000
	if len(s) > max {
		s = s[:max] + "\n..."
	}
	return s
}
