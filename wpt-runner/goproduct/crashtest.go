package goproduct

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/weblocks"
	"github.com/gowebengine/weblocks/weblocks/htmlhost"
	"github.com/gowebengine/weblocks/wpt-runner/product"
)

// testWaitScript resolves once the root element of the window's document
// does not have the class "test-wait" (wptrunner's crash test protocol;
// the engine has no MutationObserver, so it looks again every few
// milliseconds).
const testWaitScript = `new Promise(resolve => {
  const waiting = () => {
    const root = document.documentElement;
    return root !== null && (root.getAttribute("class") || "").split(/[ \t\n\f\r]+/).includes("test-wait");
  };
  const check = () => waiting() ? setTimeout(check, 5) : resolve(true);
  check();
})`

// lockCheckLimit bounds the wait, after a crash test's window is closed,
// for its lock managers to drop what its clients held or requested.
const lockCheckLimit = 5 * time.Second

// runCrashtest runs a crash test (product.TestRequest.Crashtest) as
// wptrunner does: it loads the page in a fresh browser (its page in a
// renderer process with Options.RendererProcesses), waits for the load
// event and then until the root element loses the class "test-wait",
// closes the window, and checks that the user agent's lock managers hold
// no lock and no request any more (every client of the browser's user
// agent is the page's: its window, frames and workers). The result is
// PASS, CRASH for a panic of the engine, the death of the page's renderer
// process or lock state left behind, TIMEOUT
// when the page does not finish within the harness timeout, or ERROR when
// it cannot be loaded.
func runCrashtest(ctx context.Context, fetcher browser.Fetcher, scripts *browser.ScriptCache, req product.TestRequest, opts Options) (res product.TestResult) {
	crashed := make(chan product.TestResult, 1)
	defer func() {
		if v := recover(); v != nil {
			res = crashResult(v, nil)
		}
	}()
	if opts.RendererProcesses && (len(opts.Interfaces) > 0 || opts.testHook != nil) {
		return product.TestResult{Status: product.ERROR, Message: "goproduct: Options.Interfaces cannot run in renderer processes"}
	}
	cfg := browser.Config{
		Fetcher: fetcher,
		Scripts: scripts,
		Console: func(line string) {
			if opts.Console != nil {
				opts.Console(req.URL, line)
			}
		},
		OnPanic: func(v any, stack []byte) {
			select {
			case crashed <- crashResult(v, stack):
			default:
			}
		},
		InitWindow: func(w *browser.Window) {
			for _, reg := range opts.Interfaces {
				if err := w.Realm().IDL().Install(reg); err != nil {
					// The page loads without them.
					if opts.Console != nil {
						opts.Console(req.URL, "installing Options.Interfaces: "+err.Error())
					}
				}
			}
			if opts.testHook != nil {
				opts.testHook(w)
			}
		},
	}
	if opts.RendererProcesses {
		// The page, its frames and its workers run in a renderer process,
		// as runPage's do: the page's crash (stack overflow, out of
		// memory) is the renderer's, and the test's CRASH, never the
		// runner's. The lock service stays here, in the browser process,
		// where locksLeft looks at it.
		cfg.Process = browser.RendererProcesses
		cfg.Renderer = browser.RendererConfig{
			Inits: []string{rendererInit},
			OnExit: func(_ *browser.Window, err *browser.RendererExitError) {
				select {
				case crashed <- product.TestResult{Status: product.CRASH, Message: err.Reason + ": " + err.Error()}:
				default:
				}
			},
		}
	}
	b := browser.New(cfg)
	defer b.Close()
	changed := make(chan struct{}, 1)
	htmlhost.SetObserver(b.UserAgent(), func(weblocks.Event) {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	tctx, cancel := context.WithTimeout(ctx, req.Timeout)
	defer cancel()
	fail := func(err error, doing string) product.TestResult {
		select {
		case r := <-crashed:
			return r
		default:
		}
		var pe *browser.PanicError
		var re *browser.RendererExitError
		switch {
		case errors.As(err, &pe):
			return crashResult(pe.Value, pe.Stack)
		case errors.As(err, &re):
			return product.TestResult{Status: product.CRASH, Message: re.Reason + ": " + re.Error()}
		case tctx.Err() != nil:
			return product.TestResult{Status: product.TIMEOUT, Message: fmt.Sprintf("the crash test did not finish (%s) within %v", doing, req.Timeout)}
		}
		return product.TestResult{Status: product.ERROR, Message: err.Error()}
	}
	w, err := b.Open(tctx, req.URL)
	if err != nil {
		return fail(err, "load event")
	}
	if _, err := w.Evaluate(tctx, testWaitScript); err != nil {
		var ee *browser.EvalError
		if !errors.As(err, &ee) {
			return fail(err, `class "test-wait" removed`)
		}
		// The page replaced what the script needs (document): it has
		// finished as far as it can tell.
	}
	if opts.crashtestHook != nil {
		opts.crashtestHook(tctx, b, w)
	}
	w.Close()
	select {
	case r := <-crashed:
		return r
	default:
	}
	lctx, lcancel := context.WithTimeout(ctx, lockCheckLimit)
	defer lcancel()
	if left, err := locksLeft(lctx, b, changed); err != nil {
		return fail(err, "lock check")
	} else if left != "" {
		return product.TestResult{Status: product.CRASH, Message: "lock state left behind by the page's clients after it was closed: " + left}
	}
	select {
	case r := <-crashed:
		return r
	default:
	}
	return product.TestResult{Status: product.PASS}
}

// locksLeft waits until no lock manager of b's user agent holds a lock or
// a request, and describes what is left when ctx ends first ("" when
// nothing is). changed receives a value whenever a lock manager's state
// changes (htmlhost.SetObserver).
func locksLeft(ctx context.Context, b *browser.Browser, changed <-chan struct{}) (string, error) {
	for {
		var left []string
		for _, m := range htmlhost.LockManagers(b.UserAgent()) {
			s, err := m.Snapshot(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return "the lock task queue did not answer within " + lockCheckLimit.String(), nil
				}
				return "", err
			}
			for _, l := range s.Held.All() {
				left = append(left, fmt.Sprintf("held %q (%s) by %s", l.Name, l.Mode, l.ClientID))
			}
			for _, l := range s.Pending.All() {
				left = append(left, fmt.Sprintf("pending %q (%s) of %s", l.Name, l.Mode, l.ClientID))
			}
		}
		if len(left) == 0 && ctx.Err() == nil {
			return "", nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			if len(left) == 0 {
				return "", nil
			}
			if len(left) > 10 {
				left = append(left[:10], fmt.Sprintf("and %d more", len(left)-10))
			}
			return strings.Join(left, "; "), nil
		}
	}
}
