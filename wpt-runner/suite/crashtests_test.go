package suite

import (
	"context"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/internal/testenv"
	"github.com/gowebengine/weblocks/wpt-runner/chromium"
	"github.com/gowebengine/weblocks/wpt-runner/manifest"
	"github.com/gowebengine/weblocks/wpt-runner/product"
	"github.com/gowebengine/weblocks/wpt-runner/server"
)

// TestCrashtestsInChromium runs the suite's crash tests in the runner's
// Chromium product: each must PASS there, as in the go product
// (goproduct's TestBundledSuite), since they test lock bookkeeping at
// teardown that both engines must survive.
func TestCrashtestsInChromium(t *testing.T) {
	exe := testenv.Chromium(t)
	tests, _, err := manifest.Discover(Root(), []string{"web-locks/crashtests"})
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) < 5 {
		t.Fatalf("%d crash tests, want the suite's five at least", len(tests))
	}
	srv, err := server.Start(server.Config{Root: Root(), TimeoutMultiplier: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	p := chromium.New(exe)
	if err := p.Start(context.Background(), srv.Env(1, t.Logf)); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	defer p.Close()
	for _, tc := range tests {
		if !tc.Crashtest {
			t.Errorf("%s is not a crash test", tc.ID)
			continue
		}
		r := product.SafeRun(context.Background(), p, product.TestRequest{ID: tc.ID, URL: srv.URL(tc), Timeout: 30 * time.Second, Crashtest: true}, 5*time.Second)
		if r.Status != product.PASS {
			t.Errorf("%s: %s %s", tc.ID, r.Status, r.Message)
		}
	}
}
