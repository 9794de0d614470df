package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/wpt-runner/chromium"
	"github.com/grafana/sobek"
)

// An engine runs a workload's source with an argument N in a fresh page
// (a new window in its own user agent or browser context, so no lock
// state carries over) and returns the milliseconds the workload reported.
type engine interface {
	name() string
	run(ctx context.Context, src string, n int) (ms float64, err error)
	close()
}

// script is the expression the engines evaluate: a promise of the
// workload's result, given now, an expression for the clock. A warm-up
// run with at most 100 operations comes first (Chromium compiles hot
// functions on their first runs). The workload then runs until the runs
// add up to at least 20 ms (at most 1000 runs), and the mean of those runs
// is the result: Chromium's performance.now() is coarsened (100 µs steps
// in a page that is not cross-origin isolated), so one short run could
// read 0.
func script(src string, n int, now string) string {
	return fmt.Sprintf("(async (w, N, now) => { await w(Math.min(N, 100), now); let total = 0, runs = 0; do { total += await w(N, now); runs++; } while (total < 20 && runs < 1000); return total / runs; })(%s, %d, %s)", src, n, now)
}

// goEngine is this project's engine: a window realm on the default
// (goroutine) scheduler, as an embedder would run it, or (manual) on a
// manual scheduler stepped by the run's own goroutine: no goroutine
// hand-offs, so it shows the bindings' and the algorithms' own cost.
type goEngine struct{ manual bool }

func (e goEngine) name() string {
	if e.manual {
		return "go-manual"
	}
	return "go"
}

func (goEngine) close() {}

func (e goEngine) run(ctx context.Context, src string, n int) (float64, error) {
	var sched *html.ManualScheduler
	var ua *html.UserAgent
	if e.manual {
		sched = html.NewManualScheduler()
		ua = html.NewUserAgent(html.WithScheduler(sched))
	} else {
		ua = html.NewUserAgent()
	}
	defer ua.Close()
	doc, err := ua.OpenWindowURL("https://example.com/")
	if err != nil {
		return 0, err
	}
	ch := make(chan result, 1)
	send := func(res result) {
		select {
		case ch <- res:
		default: // the first result counts
		}
	}
	r, err := bindings.NewWindowRealm(doc.EnvironmentSettingsObject(), bindings.Options{
		OnError: func(se *bindings.ScriptError) { send(result{err: se}) },
	})
	if err != nil {
		return 0, err
	}
	start := time.Now()
	r.DefineGlobalFunction("__perfNow", 0, func(sobek.FunctionCall) sobek.Value {
		return r.Runtime().ToValue(float64(time.Since(start).Nanoseconds()) / 1e6)
	})
	r.DefineGlobalFunction("__perfReport", 1, func(call sobek.FunctionCall) sobek.Value {
		send(result{ms: call.Argument(0).ToFloat()})
		return sobek.Undefined()
	})
	r.DefineGlobalFunction("__perfFail", 1, func(call sobek.FunctionCall) sobek.Value {
		send(result{err: errors.New(call.Argument(0).String())})
		return sobek.Undefined()
	})
	r.QueueScript("perfcompare.js", script(src, n, "__perfNow")+".then(__perfReport, e => __perfFail(String(e && e.stack || e)))", func(err error) {
		if err != nil {
			send(result{err: err})
		}
	})
	if sched != nil {
		return stepUntilResult(ctx, sched, ch, r)
	}
	select {
	case res := <-ch:
		return res.ms, res.err
	case <-ctx.Done():
		r.Close()
		return 0, ctx.Err()
	}
}

// stepUntilResult runs a manual scheduler's tasks (firing timers at once:
// its clock is fake) until the workload reports.
func stepUntilResult[T interface{ get() (float64, error) }](ctx context.Context, s *html.ManualScheduler, ch chan T, r *bindings.Realm) (float64, error) {
	for {
		s.RunUntilIdle()
		select {
		case res := <-ch:
			return res.get()
		default:
		}
		if ctx.Err() != nil {
			r.Close()
			return 0, ctx.Err()
		}
		d, ok := s.NextTimer()
		if !ok {
			return 0, errors.New("the workload stopped without reporting (nothing left to run)")
		}
		s.Advance(d)
	}
}

// result is a workload's outcome in the go engine.
type result struct {
	ms  float64
	err error
}

func (r result) get() (float64, error) { return r.ms, r.err }

// chromiumEngine is headless Chromium driven with chromedp: one browser,
// a new browser context and tab per run, on a blank page served from
// http://127.0.0.1 (a secure context, so navigator.locks exists).
type chromiumEngine struct {
	srv           *httptest.Server
	allocCancel   context.CancelFunc
	browserCtx    context.Context
	browserCancel context.CancelFunc
}

// newChromium starts the browser found at path ("" for the project's
// default lookup: $CHROMIUM, /usr/bin/chromium, chromium on PATH).
func newChromium(path string) (*chromiumEngine, error) {
	exe, err := chromium.Find(path)
	if err != nil {
		return nil, err
	}
	c := &chromiumEngine{srv: httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!doctype html><title>perfcompare</title>")
	}))}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-gpu", true),
		// The browser-UI renderers every window starts would compete
		// with the measured page for the machine's cores.
		chromedp.Flag("disable-features", strings.Join(chromium.DisabledFeatures, ",")))
	var actx context.Context
	actx, c.allocCancel = chromedp.NewExecAllocator(context.Background(), opts...)
	c.browserCtx, c.browserCancel = chromedp.NewContext(actx)
	if err := chromedp.Do(c.browserCtx); err != nil {
		c.close()
		return nil, fmt.Errorf("starting %s: %w", exe, err)
	}
	return c, nil
}

func (c *chromiumEngine) name() string { return "chromium" }

func (c *chromiumEngine) close() {
	if c.browserCancel != nil {
		c.browserCancel()
	}
	if c.allocCancel != nil {
		c.allocCancel()
	}
	c.srv.Close()
}

func (c *chromiumEngine) run(ctx context.Context, src string, n int) (float64, error) {
	// The first action binds the tab's life to tabCtx, which has no
	// deadline; the run's deadline applies to what follows.
	tabCtx, cancel := chromedp.NewContext(c.browserCtx, chromedp.WithNewBrowserContext())
	defer cancel()
	if err := chromedp.Do(tabCtx); err != nil {
		return 0, err
	}
	runCtx, stop := context.WithCancel(tabCtx)
	defer stop()
	go func() {
		select {
		case <-ctx.Done():
			stop()
		case <-runCtx.Done():
		}
	}()
	if err := chromedp.Do(runCtx, chromedp.Navigate(c.srv.URL)); err != nil {
		return 0, err
	}
	ms, err := chromedp.Run(runCtx, chromedp.Evaluate[float64](script(src, n, "() => performance.now()"), chromedp.EvalAwaitPromise))
	if err != nil && ctx.Err() != nil {
		return 0, ctx.Err()
	}
	return ms, err
}
