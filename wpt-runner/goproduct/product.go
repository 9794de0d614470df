// Package goproduct is the wpt-runner's "go" product: this engine running
// WPT test pages. Each test URL gets a fresh html.UserAgent; the page is
// fetched from the runner's server through a loopback-only HTTP client,
// parsed with golang.org/x/net/html, and its classic scripts run in document
// order as tasks of the window's event loop in a bindings realm. Dedicated
// workers, importScripts, postMessage with structured clone and the
// testharness.js worker protocol are supported; shared and service workers
// are reported as not yet supported. iframes (src, srcdoc, sandbox; removal
// and navigation unload their documents) and window.open get windows of
// their own, each with its own realm; since goja values never cross
// runtimes, contentWindow, parent and opener are WindowProxy stand-ins that
// support postMessage (and are the MessageEvent source) but not access to
// the other window's objects (frame.go). Module scripts are skipped, as by
// an engine without modules. Realms that lack URL and URLSearchParams get
// them (url.go). Results come back through the runner's
// testharnessreport.js (the __wptrunner_report hook).
package goproduct

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/wpt-runner/product"
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

	testHook func(*session, *bindings.Realm)
}

// Product is the go product.
type Product struct {
	opts   Options
	mu     sync.Mutex
	loader *Loader
	logf   func(string, ...any)
	// scripts are compiled once for all tests.
	scripts programs
}

// New returns an unstarted product.
func New(opts Options) *Product { return &Product{opts: opts, logf: func(string, ...any) {}} }

// Name implements product.Product.
func (p *Product) Name() string { return "go" }

// Version implements product.Product.
func (p *Product) Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/dop251/goja" {
				return "gowebengine (goja " + d.Version + ")"
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
	p.loader = NewLoader(LoaderOptions{Hosts: env.Hosts, RootCAs: env.CertPool})
	if env.Logf != nil {
		p.logf = env.Logf
	}
	return nil
}

// Close implements product.Product.
func (p *Product) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.loader != nil {
		p.loader.Close()
	}
	return nil
}

// RunTest implements product.Product. It returns the harness report, a
// TIMEOUT when ctx ends first, an ERROR for pages it cannot load or scopes
// it does not support, and a CRASH when the engine panicked (on any
// goroutine of the test's user agent). Every goroutine of the test's user
// agent has stopped when it returns.
func (p *Product) RunTest(ctx context.Context, req product.TestRequest) product.TestResult {
	start := time.Now()
	p.mu.Lock()
	loader := p.loader
	p.mu.Unlock()
	if loader == nil {
		return product.TestResult{Status: product.ERROR, Message: "go product used before Start"}
	}
	if scope := unsupportedScope(req); scope != "" {
		return product.TestResult{Status: product.ERROR, Message: "not yet supported by the go product: " + scope}
	}
	res := runPage(ctx, loader, &p.scripts, req, p.opts)
	res.Duration = time.Since(start)
	return res
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
		case strings.HasSuffix(path, ".sharedworker.html"), strings.HasSuffix(path, ".sharedworker-module.html"):
			g = "sharedworker"
		case strings.HasSuffix(path, ".serviceworker.html"), strings.HasSuffix(path, ".serviceworker-module.html"):
			g = "serviceworker"
		}
	}
	switch g {
	case "sharedworker", "sharedworker-module", "serviceworker", "serviceworker-module", "shadowrealm",
		"dedicatedworker-module":
		return g
	}
	return ""
}

// crashResult describes a Go panic as a CRASH.
func crashResult(v any, stack []byte) product.TestResult {
	return product.TestResult{Status: product.CRASH, Message: fmt.Sprintf("panic in the engine: %v", v), Stack: string(stack)}
}
