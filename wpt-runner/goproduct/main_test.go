package goproduct_test

import (
	"os"
	"testing"

	"github.com/gowebengine/weblocks/browser"
)

// TestMain: the renderer processes of go-renderer (TestRendererProcesses)
// are this test binary. (It lives in the external test package so that
// TestUserAgentTornDown, which counts the goroutines with goproduct
// frames, does not count the main goroutine.)
func TestMain(m *testing.M) {
	browser.MaybeRunRenderer()
	os.Exit(m.Run())
}
