// Package suite holds the bundled Web Locks conformance suite: tests written
// for this project in web-platform-tests format (web-locks/*.https.any.js and
// a few .https.window.js files), their helpers, and a harness written here
// (resources/testharness.js) that implements the part of the testharness.js
// API the tests use with the same semantics.
//
// The runner serves Root() as a WPT tree. It must provide
// /resources/testharnessreport.js itself and generate the .any.html,
// .any.worker.html (+ .any.worker.js) and .window.html wrappers as wptserve
// does; the tree contains only sources.
package suite

import (
	"embed"
	"io/fs"
)

// FS is the embedded tree; its files live under the directory "wpt".
//
//go:embed all:wpt
var FS embed.FS

// Root returns the WPT tree itself: paths such as
// "resources/testharness.js" and "web-locks/query.https.any.js".
func Root() fs.FS {
	sub, err := fs.Sub(FS, "wpt")
	if err != nil {
		// fs.Sub fails only for an invalid directory name, which "wpt" is not.
		panic(err)
	}
	return sub
}
