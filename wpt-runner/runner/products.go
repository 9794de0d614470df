package runner

// The products the command can run. Each package registers itself with
// product.Register from an init function (the "go" registration replaces
// the placeholder of package product).
import (
	"github.com/gowebengine/weblocks/wpt-runner/chromium"
	_ "github.com/gowebengine/weblocks/wpt-runner/goproduct"
)

// findChromium reports whether Chromium is installed.
func findChromium(path string) error {
	_, err := chromium.Find(path)
	return err
}
