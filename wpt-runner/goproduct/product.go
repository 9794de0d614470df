// Package goproduct is the wpt-runner's "go" product: this engine (package
// browser) running WPT test pages. Each test URL gets a fresh browser with
// its own html.UserAgent; pages, scripts and workers are fetched from the
// runner's server through a loopback-only HTTP client (fetcher.go), and
// results come back through the runner's testharnessreport.js (the
// __wptrunner_report hook this product defines in every window). Service
// workers and module workers are reported as not yet supported.
package goproduct

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/wpt-runner/product"
	"github.com/grafana/sobek"
)

func init() {
	product.Register(product.Factory{
		Name: "go",
		New:  func(product.Config) (product.Product, error) { return New(Options{}), nil },
	})
}

// Options configure the product.
type Options struct {
	// Console receives console output of test pages and workers ("" level
	// prefix included); nil discards it.
	Console func(testURL, line string)

	// testHook lets tests add globals to every window.
	testHook func(*browser.Window)
}

// Product is the go product.
type Product struct {
	opts    Options
	mu      sync.Mutex
	fetcher browser.Fetcher
	release func()
	logf    func(string, ...any)
	// scripts are compiled once for all tests.
	scripts browser.ScriptCache
}

// New returns an unstarted product.
func New(opts Options) *Product { return &Product{opts: opts, logf: func(string, ...any) {}} }

// Name implements product.Product.
func (p *Product) Name() string { return "go" }

// Version implements product.Product.
func (p *Product) Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/grafana/sobek" {
				return "gowebengine (sobek " + d.Version + ")"
			}
		}
	}
	return "gowebengine"
}

// Start implements product.Product: it builds the HTTP client that maps
// the WPT hosts to loopback and trusts the server's certificate.
func (p *Product) Start(ctx context.Context, env *product.Env) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.fetcher, p.release = NewFetcher(FetcherOptions{Hosts: env.Hosts, RootCAs: env.CertPool})
	if env.Logf != nil {
		p.logf = env.Logf
	}
	return nil
}

// Close implements product.Product.
func (p *Product) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.release != nil {
		p.release()
	}
	return nil
}

// RunTest implements product.Product. It returns the harness report, a
// TIMEOUT when ctx ends first, an ERROR for pages it cannot load or scopes
// it does not support, and a CRASH when the engine panicked (on any
// goroutine of the test's browser). Every goroutine of the test's browser
// has stopped when it returns.
func (p *Product) RunTest(ctx context.Context, req product.TestRequest) product.TestResult {
	start := time.Now()
	p.mu.Lock()
	fetcher := p.fetcher
	p.mu.Unlock()
	if fetcher == nil {
		return product.TestResult{Status: product.ERROR, Message: "go product used before Start"}
	}
	if scope := unsupportedScope(req); scope != "" {
		return product.TestResult{Status: product.ERROR, Message: "not yet supported by the go product: " + scope}
	}
	res := runPage(ctx, fetcher, &p.scripts, req, p.opts)
	res.Duration = time.Since(start)
	return res
}

// runPage loads req.URL in a fresh browser and waits for the harness
// report, ctx's end, or a crash.
func runPage(ctx context.Context, fetcher browser.Fetcher, scripts *browser.ScriptCache, req product.TestRequest, opts Options) (res product.TestResult) {
	done := make(chan product.TestResult, 1)
	finish := func(r product.TestResult) {
		select {
		case done <- r:
		default:
		}
	}
	defer func() {
		if v := recover(); v != nil {
			res = crashResult(v, debug.Stack())
		}
	}()
	b := browser.New(browser.Config{
		Fetcher: fetcher,
		Scripts: scripts,
		Console: func(line string) {
			if opts.Console != nil {
				opts.Console(req.URL, line)
			}
		},
		OnPanic: func(v any, stack []byte) { finish(crashResult(v, stack)) },
		InitWindow: func(w *browser.Window) {
			// The runner's testharnessreport.js hands the report here.
			w.DefineFunction("__wptrunner_report", 1, func(call sobek.FunctionCall) sobek.Value {
				r, err := product.ParseReport([]byte(call.Argument(0).String()))
				if err != nil {
					r = product.TestResult{Status: product.ERROR, Message: err.Error()}
				}
				finish(r)
				return sobek.Undefined()
			})
			if opts.testHook != nil {
				opts.testHook(w)
			}
		},
	})
	// Closing the browser tears its user agent down: every loop, queue
	// and timer it started stops, on every return path.
	defer b.Close()
	if _, err := b.Start(ctx, req.URL); err != nil {
		select {
		case r := <-done: // a crash while setting the window up
			return r
		default:
		}
		if ctx.Err() != nil {
			return timeoutResult(ctx)
		}
		return product.TestResult{Status: product.ERROR, Message: err.Error()}
	}
	select {
	case r := <-done:
		return r
	case <-ctx.Done():
		select {
		case r := <-done:
			return r
		default:
		}
		return timeoutResult(ctx)
	}
}

func timeoutResult(ctx context.Context) product.TestResult {
	msg := "the harness did not report before the runner's deadline"
	if errors.Is(ctx.Err(), context.Canceled) {
		msg = "run cancelled"
	}
	return product.TestResult{Status: product.TIMEOUT, Message: msg}
}

// unsupportedScope names the global a request needs that this product does
// not implement yet ("" when it is supported).
func unsupportedScope(req product.TestRequest) string {
	g := req.Global
	if g == "" {
		path := req.URL
		if i := strings.IndexAny(path, "?#"); i >= 0 {
			path = path[:i]
		}
		switch {
		case strings.HasSuffix(path, ".sharedworker-module.html"):
			g = "sharedworker-module"
		case strings.HasSuffix(path, ".serviceworker-module.html"):
			g = "serviceworker-module"
		}
	}
	switch g {
	case "sharedworker-module", "serviceworker-module", "shadowrealm",
		"dedicatedworker-module":
		return g
	}
	return ""
}

// crashResult describes a Go panic as a CRASH.
func crashResult(v any, stack []byte) product.TestResult {
	return product.TestResult{Status: product.CRASH, Message: fmt.Sprintf("panic in the engine: %v", v), Stack: string(stack)}
}
