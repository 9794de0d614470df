package browser

import (
	"context"
	"errors"
	"net/url"
	"testing"

	"github.com/gowebengine/weblocks/html"
)

// TestMisuseIsAnError: a zero-value Browser and a nil or zero-value
// *Window give an error (or a zero result) from every exported method,
// never a panic.
func TestMisuseIsAnError(t *testing.T) {
	ctx := context.Background()
	u, _ := url.Parse("https://example.test/")
	for name, b := range map[string]*Browser{"zero": {}, "nil": nil} {
		if w, err := b.Open(ctx, "https://example.test/"); w != nil || !errors.Is(err, ErrNotCreated) {
			t.Errorf("%s Browser: Open = %v, %v; want ErrNotCreated", name, w, err)
		}
		if w, err := b.Start(ctx, "https://example.test/"); w != nil || !errors.Is(err, ErrNotCreated) {
			t.Errorf("%s Browser: Start = %v, %v", name, w, err)
		}
		if w, err := b.StartHTML(u, "<p>"); w != nil || !errors.Is(err, ErrNotCreated) {
			t.Errorf("%s Browser: StartHTML = %v, %v", name, w, err)
		}
		if err := b.RunUntilIdle(ctx); !errors.Is(err, ErrNotCreated) {
			t.Errorf("%s Browser: RunUntilIdle = %v", name, err)
		}
		if err := b.Err(); err != nil {
			t.Errorf("%s Browser: Err = %v", name, err)
		}
		if ua := b.UserAgent(); ua != nil {
			t.Errorf("%s Browser: UserAgent = %v", name, ua)
		}
		b.Close()
	}
	if got := ErrNotCreated.Error(); got != "browser: Browser not created by browser.New" {
		t.Errorf("ErrNotCreated = %q", got)
	}
	for name, w := range map[string]*Window{"zero": {}, "nil": nil} {
		if v, err := w.Evaluate(ctx, "1"); v != nil || !errors.Is(err, ErrNoWindow) {
			t.Errorf("%s Window: Evaluate = %v, %v; want ErrNoWindow", name, v, err)
		}
		if _, err := w.LockState(ctx); !errors.Is(err, ErrNoWindow) {
			t.Errorf("%s Window: LockState = %v", name, err)
		}
		if w.URL() != nil || w.Realm() != nil || w.Document() != nil || w.Browser() != nil ||
			w.NotRestoredReasons() != nil || w.InBackForwardCache() {
			t.Errorf("%s Window: accessors not zero", name)
		}
		if c := w.Current(); c != nil && c != w {
			t.Errorf("%s Window: Current = %v", name, c)
		}
		if got := w.String(); got != "window (none)" {
			t.Errorf("%s Window: String = %q", name, got)
		}
		if _, err := w.Traverse(ctx, -1); !errors.Is(err, ErrNoWindow) {
			t.Errorf("%s Window: Traverse: %v", name, err)
		}
		if _, err := w.Navigate(ctx, "x"); !errors.Is(err, ErrNoWindow) {
			t.Errorf("%s Window: Navigate: %v", name, err)
		}
		if w.EvictFromBackForwardCache() {
			t.Errorf("%s Window: evicted", name)
		}
		w.Close()
	}
	if _, err := EnvironmentLockState(ctx, nil, nil); err == nil {
		t.Error("EnvironmentLockState(nil, nil): no error")
	}
	if _, err := EnvironmentLockState(ctx, &html.UserAgent{}, nil); err == nil {
		t.Error("EnvironmentLockState(zero UserAgent, nil): no error")
	}
}
