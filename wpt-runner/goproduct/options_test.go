package goproduct

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/wpt-runner/product"
	"github.com/gowebengine/weblocks/wpt-runner/server"
)

// countingFetcher counts the requests it passes on.
type countingFetcher struct {
	browser.Fetcher
	n *atomic.Int32
}

func (c countingFetcher) Fetch(ctx context.Context, u *url.URL) (*browser.Response, error) {
	c.n.Add(1)
	return c.Fetcher.Fetch(ctx, u)
}

// Options.Name names the product, Options.WrapFetcher sees every load of
// the test, and an Options.Interfaces registry that cannot be installed is
// the test's ERROR.
func TestOptions(t *testing.T) {
	root := testTree(t, nil, map[string]string{
		"a/x.window.js":     "test(() => {}, 'x');\n",
		"a/extra.window.js": "test(() => { assert_equals(typeof ExtraInterface, 'function'); }, 'extra');\n",
	})
	srv, err := server.Start(server.Config{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	var n atomic.Int32
	start := func(o Options) *Product {
		p := New(o)
		if err := p.Start(context.Background(), srv.Env(1, t.Logf)); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
	reqFor := func(path string) product.TestRequest {
		return product.TestRequest{ID: path, URL: "http://web-platform.test:" + strconv.Itoa(srv.HTTPPorts()[0]) + path, Global: "window", Timeout: 30 * time.Second}
	}
	req := reqFor("/a/x.window.html")

	p := start(Options{Name: "go-counted", WrapFetcher: func(f browser.Fetcher) browser.Fetcher { return countingFetcher{f, &n} }})
	if p.Name() != "go-counted" {
		t.Errorf("Name() = %q", p.Name())
	}
	res := product.SafeRun(context.Background(), p, req, time.Second)
	if res.Status != product.OK || len(res.Subtests) != 1 || res.Subtests[0].Status != product.PASS {
		t.Errorf("with a wrapped fetcher: %+v", res)
	}
	// The wrapper, the test script and testharness.js at least.
	if got := n.Load(); got < 3 {
		t.Errorf("the wrapped fetcher saw %d requests, want at least 3", got)
	}

	if err := New(Options{WrapFetcher: func(browser.Fetcher) browser.Fetcher { return nil }}).Start(context.Background(), srv.Env(1, t.Logf)); err == nil || !strings.Contains(err.Error(), "WrapFetcher returned nil") {
		t.Errorf("a nil wrapped fetcher: %v", err)
	}

	// An extra interface is in every window; one that cannot be
	// installed (its parent is unknown) is the test's ERROR.
	extra := webidl.NewRegistry()
	extra.Add(&webidl.InterfaceDef{Name: "ExtraInterface", Exposed: []string{"Window"}})
	p = start(Options{Interfaces: []*webidl.Registry{extra}})
	res = product.SafeRun(context.Background(), p, reqFor("/a/extra.window.html"), time.Second)
	if res.Status != product.OK || len(res.Subtests) != 1 || res.Subtests[0].Status != product.PASS {
		t.Errorf("an extra interface: %+v", res)
	}
	bad := webidl.NewRegistry()
	bad.Add(&webidl.InterfaceDef{Name: "Orphan", Parent: "NoSuchParent", Exposed: []string{"Window"}})
	p = start(Options{Interfaces: []*webidl.Registry{bad}})
	res = product.SafeRun(context.Background(), p, req, time.Second)
	if res.Status != product.ERROR || !strings.Contains(res.Message, "installing Options.Interfaces") {
		t.Errorf("a registry that cannot be installed: %+v", res)
	}
}

// A tree without /resources/testharness.js is an ERROR that says so at
// once, not a TIMEOUT at the deadline.
func TestMissingHarnessIsAnErrorAtOnce(t *testing.T) {
	root := fstest.MapFS{"a/x.window.js": {Data: []byte("test(() => {}, 'x');\n")}}
	srv, err := server.Start(server.Config{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	p := New(Options{})
	if err := p.Start(context.Background(), srv.Env(1, t.Logf)); err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	res := product.SafeRun(context.Background(), p, product.TestRequest{ID: "/a/x.window.html", URL: "http://web-platform.test:" + strconv.Itoa(srv.HTTPPorts()[0]) + "/a/x.window.html", Global: "window", Timeout: time.Minute}, time.Second)
	if res.Status != product.ERROR || !strings.Contains(res.Message, "testharness.js was not loaded") {
		t.Errorf("got %+v", res)
	}
}
