package main

// The products the command can run. Each package registers itself with
// product.Register from an init function; the "go" product is a placeholder
// (harness ERROR "go product not built yet") until the package
// wpt-runner/goproduct registers the real engine and is imported here.
import (
	"github.com/gowebengine/weblocks/wpt-runner/chromium"
)

// findChromium reports whether Chromium is installed.
func findChromium(path string) error {
	_, err := chromium.Find(path)
	return err
}
