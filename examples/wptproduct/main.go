// Command wptproduct is an example of a third party's web-platform-tests
// runner: its own main registers its own product and hands the command
// line to package runner, which gives it everything wpt-runner has (the
// server, isolation in child processes, reports, expectations, chunks,
// merge).
//
// Its product, "go-greeting", is the engine's go product with one more
// Web IDL interface in every window (Greeting, package greeting) and a
// fetcher wrapper that serves a script of its own (under
// /wptproduct-served/) to every test:
//
//	go run ./examples/wptproduct --products go-greeting web-locks/mode.https.any.js
//	go run ./examples/wptproduct --wpt-root examples/wptproduct/testdata   (needs resources/testharness.js)
//	go run ./examples/wptproduct --help
package main

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/examples/wptproduct/greeting"
	"github.com/gowebengine/weblocks/wpt-runner/goproduct"
	"github.com/gowebengine/weblocks/wpt-runner/product"
	"github.com/gowebengine/weblocks/wpt-runner/runner"
)

func init() {
	product.Register(product.Factory{
		Name:        "go-greeting",
		Description: "the go product with the Greeting interface (examples/wptproduct)",
		// Run in child processes by default, as the go product does.
		Isolate: true,
		New:     newProduct,
	})
}

// newProduct builds the product: the go product with the Greeting
// interface installed into every window and a fetcher that serves
// servedScripts.
func newProduct(product.Config) (product.Product, error) {
	reg, err := greeting.Registry()
	if err != nil {
		return nil, err
	}
	return goproduct.New(goproduct.Options{
		Name:       "go-greeting",
		Interfaces: []*webidl.Registry{reg},
		WrapFetcher: func(f browser.Fetcher) browser.Fetcher {
			if rf, ok := f.(browser.RequestFetcher); ok {
				return servingRequestFetcher{servingFetcher{rf}, rf}
			}
			return servingFetcher{f}
		},
	}), nil
}

// servedPrefix is the path under which the fetcher wrapper serves the
// scripts of servedScripts itself, on every host: what an engine's own
// resources (a test-only API shim, say) could be.
const servedPrefix = "/wptproduct-served/"

var servedScripts = map[string]string{
	"greeting-flag.js": "self.servedByTheProduct = 'go-greeting';\n",
}

// The fetcher is the browser's network, under package fetch: every load
// of a page (its document, scripts, workers, fetch() calls) reaches it as
// one HTTP request per hop, after the Fetch Standard's checks.

// served is the response to a request for u under servedPrefix (ok
// false: not such a request).
func served(u *url.URL) (status int, contentType string, body []byte, ok bool) {
	name, ok := strings.CutPrefix(u.Path, servedPrefix)
	if !ok {
		return 0, "", nil, false
	}
	if body, ok := servedScripts[name]; ok {
		return 200, "text/javascript;charset=utf-8", []byte(body), true
	}
	return 404, "text/plain", []byte("not served by go-greeting"), true
}

// servingFetcher answers the requests under servedPrefix and passes the
// others on.
type servingFetcher struct{ browser.Fetcher }

func (s servingFetcher) Fetch(ctx context.Context, u *url.URL) (*browser.Response, error) {
	if status, ct, body, ok := served(u); ok {
		essence, charset, _ := strings.Cut(ct, ";charset=")
		return &browser.Response{URL: u, Status: status, ContentType: essence, Charset: charset, Body: body}, nil
	}
	return s.Fetcher.Fetch(ctx, u)
}

// servingRequestFetcher is servingFetcher for a wrapped fetcher that
// takes whole requests (browser.RequestFetcher, as the runner's does):
// the browser then sends every request through FetchRequest.
type servingRequestFetcher struct {
	servingFetcher
	rf browser.RequestFetcher
}

func (s servingRequestFetcher) FetchRequest(ctx context.Context, req *browser.FetchRequest) (*browser.FetchResponse, error) {
	if status, ct, body, ok := served(req.URL); ok {
		if req.Method == "HEAD" {
			body = nil
		}
		return &browser.FetchResponse{Status: status, Header: http.Header{"Content-Type": {ct}}, Body: body}, nil
	}
	return s.rf.FetchRequest(ctx, req)
}

func main() {
	os.Exit(runner.Main(os.Args[1:]))
}
