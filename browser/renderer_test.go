package browser_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gowebengine/weblocks/browser"
)

// TestMain: the renderer processes of the RendererProcesses tests are
// this test binary (browser.MaybeRunRenderer), so no test builds
// anything.
func TestMain(m *testing.M) {
	if os.Getenv(forgerEnv) != "" && len(os.Args) > 1 && os.Args[1] == browser.RendererArg {
		runForger()
	}
	if mode := os.Getenv(hostileEnv); mode != "" && len(os.Args) > 1 && os.Args[1] == browser.RendererArg {
		runHostile(mode)
	}
	browser.MaybeRunRenderer()
	os.Exit(m.Run())
}

// rendererSite serves the pages of the renderer tests.
var rendererSite = fstest.MapFS{
	"index.html": {Data: []byte(`<!doctype html><title>renderer</title><script>window.fromScript = 40 + 2;</script>`)},
	"other.html": {Data: []byte(`<!doctype html><title>other</title>`)},
}

// rendererBrowser is a browser of RendererProcesses over rendererSite.
func rendererBrowser(t testing.TB, cfg browser.Config) *browser.Browser {
	t.Helper()
	if cfg.Fetcher == nil {
		cfg.Fetcher = browser.FSFetcher{FS: rendererSite}
	}
	cfg.Process = browser.RendererProcesses
	b := browser.New(cfg)
	t.Cleanup(b.Close)
	return b
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func TestRendererWindow(t *testing.T) {
	ctx := testCtx(t)
	b := rendererBrowser(t, browser.Config{})
	w, err := b.Open(ctx, "https://a.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if !w.InRenderer() || w.RendererPID() == os.Getpid() || w.RendererPID() == 0 {
		t.Fatalf("not in a renderer: pid %d", w.RendererPID())
	}
	if w.Realm() != nil || w.Document() != nil {
		t.Fatal("a renderer's window has no realm or document in the browser process")
	}
	for expr, want := range map[string]any{
		"fromScript":                     int64(42),
		"document.title":                 "renderer",
		"Promise.resolve([1, 'x'])":      []any{int64(1), "x"},
		"({a: 1.5})":                     map[string]any{"a": 1.5},
		"location.href":                  "https://a.test/index.html",
		"String(typeof navigator.locks)": "object",
	} {
		v, err := w.Evaluate(ctx, expr)
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		if got, ok := v.([]any); ok {
			if len(got) != 2 || got[0] != int64(1) || got[1] != "x" {
				t.Errorf("%s: %#v", expr, v)
			}
			continue
		}
		if m, ok := v.(map[string]any); ok {
			if m["a"] != 1.5 {
				t.Errorf("%s: %#v", expr, v)
			}
			continue
		}
		if v != want {
			t.Errorf("%s: %#v, want %#v", expr, v, want)
		}
	}
	_, err = w.Evaluate(ctx, "Promise.reject(new TypeError('no'))")
	var ee *browser.EvalError
	if !errors.As(err, &ee) || !ee.Rejected || !strings.Contains(ee.Message, "TypeError: no") {
		t.Fatalf("rejection: %v", err)
	}
	w.Close()
	if _, err := w.Evaluate(ctx, "1"); err == nil {
		t.Fatal("evaluate after close")
	}
}

// TestRendererCrashes: a page that overflows its stack, or exhausts its
// memory (itself or in its dedicated worker), or whose renderer is killed, costs only its own renderer: the
// embedder learns why, and another window keeps working.
func TestRendererCrashes(t *testing.T) {
	ctx := testCtx(t)
	exits := make(chan error, 8)
	b := rendererBrowser(t, browser.Config{Renderer: browser.RendererConfig{
		MemoryLimit: 256 << 20,
		OnExit:      func(w *browser.Window, err *browser.RendererExitError) { exits <- err },
	}})
	other, err := b.Open(ctx, "https://b.test/index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, expr, reason string
		kill               bool
	}{
		{"deep JSON.parse", `JSON.parse('['.repeat(5e6) + ']'.repeat(5e6))`, "stack overflow", false},
		{"deep eval", `eval('('.repeat(1e6) + '1' + ')'.repeat(1e6))`, "stack overflow", false},
		{"allocate until out of memory", `{ const a = []; for (let i = 0; ; i++) a.push('x'.repeat(1 << 24) + i); }`, "out of memory", false},
		// A dedicated worker runs in its window's renderer: its
		// out-of-memory is that renderer's.
		{"worker allocates until out of memory", `new Worker(URL.createObjectURL(new Blob(["const a = []; for (let i = 0; ; i++) a.push('x'.repeat(1 << 24) + i);"]))); new Promise(() => {})`, "out of memory", false},
		{"SIGKILL", `new Promise(() => {})`, "killed by a signal (killed)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := b.Open(ctx, "https://a.test/index.html")
			if err != nil {
				t.Fatal(err)
			}
			if tc.kill {
				go func() {
					if _, err := w.Evaluate(ctx, "1"); err == nil {
						syscall.Kill(w.RendererPID(), syscall.SIGKILL)
					}
				}()
			}
			_, err = w.Evaluate(ctx, tc.expr)
			var re *browser.RendererExitError
			if !errors.As(err, &re) || !strings.Contains(re.Reason, tc.reason) {
				t.Fatalf("got %v, want a renderer exit with %q", err, tc.reason)
			}
			if got := <-exits; got.Error() != re.Error() {
				t.Fatalf("OnExit got %v", got)
			}
			if err := w.RendererErr(); err == nil || !strings.Contains(err.Error(), tc.reason) {
				t.Fatalf("RendererErr: %v", err)
			}
			if v, err := other.Evaluate(ctx, "fromScript"); err != nil || v != int64(42) {
				t.Fatalf("the other window: %v %v", v, err)
			}
		})
	}
}

// TestRendererCommandNotARenderer: a Command that is not a renderer is a
// clear error at Open.
func TestRendererCommandNotARenderer(t *testing.T) {
	b := rendererBrowser(t, browser.Config{Renderer: browser.RendererConfig{Command: func() (*exec.Cmd, error) { return exec.Command("false"), nil }}})
	_, err := b.Open(testCtx(t), "https://a.test/index.html")
	var re *browser.RendererExitError
	if !errors.As(err, &re) || re.Reason != "exit status 1" {
		t.Fatalf("got %v", err)
	}
}
