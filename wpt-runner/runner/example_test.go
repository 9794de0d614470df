package runner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gowebengine/weblocks/wpt-runner/goproduct"
	"github.com/gowebengine/weblocks/wpt-runner/product"
	"github.com/gowebengine/weblocks/wpt-runner/runner"
)

// A third party's product: here the go product under a name of its own
// (goproduct.Options also takes extra Web IDL interfaces and a fetcher
// wrapper; see examples/wptproduct). Register it from an init function:
// the isolated product's child processes are the same executable, and
// find the product by name there.
func init() {
	product.Register(product.Factory{
		Name:        "example-engine",
		Description: "an example of a third party's product",
		Isolate:     true, // its tests run in child processes
		New: func(product.Config) (product.Product, error) {
			return goproduct.New(goproduct.Options{Name: "example-engine"}), nil
		},
	})
}

// The third party's main ends with os.Exit(runner.Main(os.Args[1:])),
// which has the whole command line (server, isolation, reports,
// expectations, chunks, merge); this example calls Run (Main without
// the signal handling) to keep the output short.
func Example_thirdPartyProduct() {
	dir, err := os.MkdirTemp("", "wpt-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	// One test of the bundled Web Locks suite, with a wptreport.
	code := runner.Run(context.Background(), []string{
		"--products", "example-engine", "--log-wptreport", filepath.Join(dir, "report.json"),
		"/web-locks/mode.https.any.html",
	}, io.Discard, io.Discard)
	fmt.Println("exit status", code)

	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		fmt.Println(err)
		return
	}
	var rep struct {
		RunInfo struct{ Product string } `json:"run_info"`
		Results []struct{ Test, Status string }
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rep.Results {
		fmt.Println(rep.RunInfo.Product, r.Test, r.Status)
	}
	// Output:
	// exit status 0
	// example-engine /web-locks/mode.https.any.html OK
}
