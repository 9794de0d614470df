// Package product defines what the wpt-runner needs from a browser engine
// ("product", in wptrunner's words): start once, run one test URL at a time
// (possibly concurrently), and report the harness status and subtest results
// in wptrunner's result model. Products register themselves in a small
// registry so that the command can pick them by name.
package product

import (
	"context"
	"crypto/x509"
	"net/http"
	"time"
)

// Status is a wptrunner status: a harness status (OK, ERROR, TIMEOUT, CRASH,
// PRECONDITION_FAILED) or a subtest status (PASS, FAIL, TIMEOUT, NOTRUN,
// PRECONDITION_FAILED).
type Status string

// Harness statuses.
const (
	OK      Status = "OK"
	ERROR   Status = "ERROR"
	TIMEOUT Status = "TIMEOUT"
	CRASH   Status = "CRASH"
	// PRECONDITION_FAILED is both a harness and a subtest status.
	PRECONDITION_FAILED Status = "PRECONDITION_FAILED"
	// SKIP marks a test the expectations disabled; it never ran.
	SKIP Status = "SKIP"
)

// Subtest statuses.
const (
	PASS   Status = "PASS"
	FAIL   Status = "FAIL"
	NOTRUN Status = "NOTRUN"
)

// ValidHarness reports whether s is a harness status.
func (s Status) ValidHarness() bool {
	switch s {
	case OK, ERROR, TIMEOUT, CRASH, PRECONDITION_FAILED, SKIP:
		return true
	}
	return false
}

// ValidCrashtest reports whether s is the status of a crash test: PASS,
// or ERROR, TIMEOUT, CRASH (and SKIP for one that did not run).
func (s Status) ValidCrashtest() bool {
	switch s {
	case PASS, ERROR, TIMEOUT, CRASH, SKIP:
		return true
	}
	return false
}

// ValidSubtest reports whether s is a subtest status.
func (s Status) ValidSubtest() bool {
	switch s {
	case PASS, FAIL, TIMEOUT, NOTRUN, PRECONDITION_FAILED:
		return true
	}
	return false
}

// SubtestResult is the outcome of one subtest (one test() / promise_test()
// / async_test() of a test file).
type SubtestResult struct {
	Name    string
	Status  Status
	Message string // "" when testharness.js gave none
	Stack   string
}

// TestResult is the outcome of one test URL.
type TestResult struct {
	Status   Status // harness status
	Message  string
	Stack    string
	Subtests []SubtestResult
	Duration time.Duration
}

// TestRequest asks a product to run one test URL.
type TestRequest struct {
	// ID is the test's wptrunner id: the URL path plus query,
	// e.g. "/web-locks/query.https.any.worker.html?x".
	ID string
	// URL is the absolute URL to load, e.g.
	// "https://web-platform.test:41234/web-locks/query.https.any.worker.html".
	URL string
	// Global is the scope the wrapper runs the test in: "window",
	// "dedicatedworker", "sharedworker", "serviceworker" (or the -module
	// variants), or "" for a plain .html test.
	Global string
	// Timeout is the harness timeout (10 s, or 60 s for timeout=long,
	// times the multiplier). The runner gives the product a context whose
	// deadline is Timeout plus a grace period, so the harness's own timeout
	// fires first and reports subtest results.
	Timeout time.Duration
	// TimeoutMultiplier is the --timeout-multiplier value, which the served
	// testharnessreport.js already passes to testharness.js.
	TimeoutMultiplier float64
	// Crashtest asks for a crash test (wptrunner's "crashtest" type): load
	// the page, wait for its load event and then, while its root element
	// has the class "test-wait", until that class is removed; the result
	// is PASS with no subtests, or CRASH when the engine crashed (a product
	// that can tell also counts state the page left behind that it
	// should not have, such as locks held for its clients after it is
	// gone), or TIMEOUT. The page loads no testharnessreport.js.
	Crashtest bool
}

// Env is what the runner provides to every product: how to reach the WPT
// server.
type Env struct {
	// Hosts are the WPT host names, all of which resolve to loopback:
	// web-platform.test, www.web-platform.test, www1..., www2...,
	// not-web-platform.test and its subdomains.
	Hosts []string
	// HTTPPorts and HTTPSPorts are the ports the server listens on
	// (127.0.0.1 only); index 0 is the main port.
	HTTPPorts, HTTPSPorts []int
	// HostResolverRules is the Chromium --host-resolver-rules value that
	// maps the WPT hosts to 127.0.0.1.
	HostResolverRules string
	// CertPool trusts the server's start-up certificate; SPKIHash is the
	// base64 SHA-256 of its public key (for
	// --ignore-certificate-errors-spki-list).
	CertPool *x509.CertPool
	SPKIHash string
	// CACert is the DER of the certificate authority CertPool trusts (what
	// a product in another process needs to rebuild CertPool).
	CACert []byte
	// HTTPClient reaches every WPT host on loopback and trusts the
	// certificate; a Go product loads wrappers and scripts with it.
	HTTPClient *http.Client
	// Origins, when not nil, lists every origin (scheme://host:port) the
	// server has had a request for so far, which is every origin a test
	// can have stored data for. It is nil in a product child process
	// (package isolate); then every WPT host on every port counts.
	Origins func() []string
	// Jobs is the number of tests the runner runs at the same time in this
	// product (--jobs).
	Jobs int
	// Logf prints diagnostics (never nil).
	Logf func(format string, args ...any)
}

// Product is a browser engine the runner can run tests in.
//
// Reporting: every testharness test page loads the runner's
// /resources/testharnessreport.js. When the harness completes it builds a
// JSON report {"status":n,"message":s,"stack":s,"tests":[{"name":s,
// "status":n,"message":s,"stack":s}]} with testharness.js's numeric
// statuses, then (1) calls self.__wptrunner_report(json) when the product
// defined such a function, (2) stores it in self.__wptrunner_result and
// (3) resolves the promise self.__wptrunner_done with it. ParseReport turns
// that JSON into a TestResult.
type Product interface {
	// Name is the product name used on the command line and in reports.
	Name() string
	// Start prepares the product (e.g. launches a browser). It is called
	// once, before any RunTest.
	Start(ctx context.Context, env *Env) error
	// RunTest loads req.URL and returns its result. It may be called from
	// several goroutines at once (up to Env.Jobs). It should return promptly
	// once ctx is done (with TIMEOUT); the runner stops waiting shortly after
	// the deadline anyway and reports TIMEOUT, and turns a panic into CRASH.
	RunTest(ctx context.Context, req TestRequest) TestResult
	// Version describes the engine build for the report's run_info
	// (e.g. "Chromium 156.0.8078.79"); "" when unknown.
	Version() string
	// Close releases everything Start acquired.
	Close() error
}
