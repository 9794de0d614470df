// Command wpt-runner serves a web-platform-tests tree, runs its tests in
// this engine (the "go" product) and in Chromium, and compares the results
// subtest by subtest.
//
//	go run ./wpt-runner [flags] [TEST_PATH...]
//	go run ./wpt-runner merge --report-dir DIR WPTREPORT.json...
//
// Without --wpt-root it runs the bundled Web Locks suite. The command is
// package runner's Main; `go run ./wpt-runner --help` lists the flags,
// subcommands and products, and wpt-runner/README.md describes them. A
// third party's engine gets the same command from its own main: see
// package runner and examples/wptproduct.
package main

import (
	"os"

	"github.com/gowebengine/weblocks/wpt-runner/runner"
)

func main() {
	os.Exit(runner.Main(os.Args[1:]))
}
