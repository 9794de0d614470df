// Package chromium is the wpt-runner product that runs tests in Chromium
// (Debian's /usr/bin/chromium by default) through chromedp: one headless
// browser per run, a fresh browser context (and tab) per test so that no
// state such as held Web Locks leaks from one test file to the next.
package chromium

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/gowebengine/weblocks/wpt-runner/product"
)

// DefaultPath is where Debian installs Chromium.
const DefaultPath = "/usr/bin/chromium"

// InstallHint says how to get Chromium.
const InstallHint = "install it with: apt-get install -y chromium (or pass --chromium PATH)"

func init() {
	product.Register(product.Factory{
		Name:      "chromium",
		New:       func(cfg product.Config) (product.Product, error) { return New(cfg.ChromiumPath), nil },
		Available: func(cfg product.Config) error { _, err := Find(cfg.ChromiumPath); return err },
	})
}

// Find resolves the Chromium binary: path if given, else $CHROMIUM, else
// DefaultPath, else "chromium" on PATH.
func Find(path string) (string, error) {
	if path == "" {
		path = os.Getenv("CHROMIUM")
	}
	if path != "" {
		if _, err := os.Stat(path); err != nil {
			if p, lerr := exec.LookPath(path); lerr == nil {
				return p, nil
			}
			return "", fmt.Errorf("chromium %q not found (%v); %s", path, err, InstallHint)
		}
		return path, nil
	}
	if _, err := os.Stat(DefaultPath); err == nil {
		return DefaultPath, nil
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("chromium is not installed; %s", InstallHint)
}

// Chromium is the product.
type Chromium struct {
	path    string
	env     *product.Env
	version string

	mu            sync.Mutex
	allocCancel   context.CancelFunc
	browserCtx    context.Context
	browserCancel context.CancelFunc
	generation    int // counts launches
	// tmpDir is the browser's TMPDIR and holds its profile: Chromium
	// leaves org.chromium.Chromium.* directories in its temporary
	// directory, so each launch gets one of its own, removed when the
	// browser has exited.
	tmpDir    string
	restartMu sync.Mutex // one restart at a time
	// ready holds tabs opened ahead of time, each in a fresh browser
	// context: opening one costs most of a second, so the pool overlaps
	// that with running tests.
	ready chan tab
}

// tab is an open target in its own browser context.
type tab struct {
	ctx    context.Context
	cancel context.CancelFunc
	err    error
}

// openTab opens a tab in a new browser context. The first Run binds the
// target's life to tabCtx, which has no deadline.
func openTab(bctx context.Context) tab {
	tabCtx, cancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	if err := chromedp.Do(tabCtx); err != nil {
		cancel()
		return tab{err: err}
	}
	return tab{ctx: tabCtx, cancel: cancel}
}

// fill keeps the pool of ready tabs full until the browser stops.
func (c *Chromium) fill(bctx context.Context, ready chan tab) {
	for {
		t := openTab(bctx)
		select {
		case ready <- t:
		case <-bctx.Done():
			if t.cancel != nil {
				t.cancel()
			}
			return
		}
		if t.err != nil && bctx.Err() != nil {
			return
		}
	}
}

// New returns an unstarted Chromium product using the binary at path (""
// for the default lookup).
func New(path string) *Chromium { return &Chromium{path: path} }

// Name implements product.Product.
func (c *Chromium) Name() string { return "chromium" }

// Version implements product.Product.
func (c *Chromium) Version() string { return c.version }

// Flags returns the extra command-line switches wptrunner-style runs need:
// WPT host names mapped to loopback, the start-up certificate trusted by
// its public key, no network chatter, and experimental web platform
// features on as wptrunner does for Chrome.
func Flags(env *product.Env) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.Flag("host-resolver-rules", env.HostResolverRules),
		chromedp.Flag("ignore-certificate-errors-spki-list", env.SPKIHash),
		chromedp.Flag("enable-experimental-web-platform-features", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-proxy-server", true),
		chromedp.Flag("use-fake-ui-for-media-stream", true),
		chromedp.Flag("use-fake-device-for-media-stream", true),
		chromedp.Flag("autoplay-policy", "no-user-gesture-required"),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("mute-audio", true),
	}
}

// Start launches the browser.
func (c *Chromium) Start(ctx context.Context, env *product.Env) error {
	p, err := Find(c.path)
	if err != nil {
		return err
	}
	c.path, c.env = p, env
	return c.launch(ctx)
}

// launch starts a browser and its pool of ready tabs, replacing the
// previous browser if any.
func (c *Chromium) launch(ctx context.Context) error {
	tmpDir, err := os.MkdirTemp("", "wpt-chromium-")
	if err != nil {
		return err
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(c.path))
	opts = append(opts, Flags(c.env)...)
	opts = append(opts, chromedp.Env("TMPDIR="+tmpDir), chromedp.UserDataDir(filepath.Join(tmpDir, "profile")))
	// The browser lives until Close, not until ctx ends.
	allocCtx, allocCancel := chromedp.NewExecAllocator(context.Background(), opts...)
	browserCtx, browserCancel := chromedp.NewContext(allocCtx)
	startErr := make(chan error, 1)
	go func() { startErr <- chromedp.Do(browserCtx) }()
	select {
	case err = <-startErr:
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		browserCancel()
		allocCancel()
		removeAll(tmpDir)
		return fmt.Errorf("starting %s: %v", c.path, err)
	}
	if v, err := chromedp.Call(browserCtx, browser.GetVersion, cdp.Empty{}); err == nil {
		c.version = v.Product
	}
	jobs := c.env.Jobs
	if jobs < 1 {
		jobs = 1
	}
	ready := make(chan tab, jobs)
	c.mu.Lock()
	oldBrowser, oldAlloc, oldTmp := c.browserCancel, c.allocCancel, c.tmpDir
	c.allocCancel, c.browserCtx, c.browserCancel, c.ready, c.tmpDir = allocCancel, browserCtx, browserCancel, ready, tmpDir
	c.generation++
	c.mu.Unlock()
	if oldBrowser != nil {
		oldBrowser()
		oldAlloc() // waits for the browser to exit
		removeAll(oldTmp)
	}
	go c.fill(browserCtx, ready)
	return nil
}

// alive reports whether the browser still answers.
func alive(bctx context.Context) bool {
	ctx, cancel := context.WithTimeout(bctx, 5*time.Second)
	defer cancel()
	_, err := chromedp.Call(ctx, browser.GetVersion, cdp.Empty{})
	return err == nil
}

// restart restarts the browser after it died, unless another test did so
// already since generation gen.
func (c *Chromium) restart(ctx context.Context, gen int) error {
	c.restartMu.Lock()
	defer c.restartMu.Unlock()
	c.mu.Lock()
	cur, closed := c.generation, c.browserCancel == nil
	c.mu.Unlock()
	if closed {
		return errors.New("chromium product closed")
	}
	if cur != gen {
		return nil
	}
	c.env.Logf("the browser stopped answering; restarting it")
	return c.launch(ctx)
}

// Close stops the browser.
func (c *Chromium) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.browserCancel != nil {
		c.browserCancel()
		c.allocCancel() // waits for the browser to exit
		c.browserCancel, c.allocCancel = nil, nil
		removeAll(c.tmpDir)
		c.tmpDir = ""
	}
	return nil
}

// removeAll removes a browser's temporary directory, retrying briefly:
// processes of the browser may still be exiting.
func removeAll(dir string) {
	if dir == "" {
		return
	}
	for i := 0; i < 20; i++ {
		if err := os.RemoveAll(dir); err == nil {
			if _, err := os.Stat(dir); os.IsNotExist(err) {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// BrowserContext is the chromedp context of the running browser (for tests
// that drive it directly, e.g. to load a report page).
func (c *Chromium) BrowserContext() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.browserCtx
}

// RunTest loads the test in a new browser context and waits for the
// runner's testharnessreport.js to hand over the harness result. When the
// browser itself died, it starts a new one and runs the test again, once.
func (c *Chromium) RunTest(ctx context.Context, req product.TestRequest) product.TestResult {
	start := time.Now()
	for attempt := 0; ; attempt++ {
		c.mu.Lock()
		bctx, ready, gen := c.browserCtx, c.ready, c.generation
		c.mu.Unlock()
		if bctx == nil {
			return product.TestResult{Status: product.ERROR, Message: "chromium product not started"}
		}
		res, infra := c.runOnce(ctx, ready, req, start)
		if !infra || attempt > 0 || ctx.Err() != nil || alive(bctx) {
			return res
		}
		if err := c.restart(ctx, gen); err != nil {
			return product.TestResult{Status: product.ERROR, Message: "restarting the browser: " + err.Error(), Duration: time.Since(start)}
		}
	}
}

// runOnce runs the test in a tab from the pool. infra reports a failure of
// the browser machinery rather than a result of the test.
func (c *Chromium) runOnce(ctx context.Context, ready chan tab, req product.TestRequest, start time.Time) (res product.TestResult, infra bool) {
	var tb tab
	select {
	case tb = <-ready:
	case <-ctx.Done():
		return product.TestResult{Status: product.TIMEOUT, Message: "no browser tab became ready in time"}, false
	}
	if tb.err != nil {
		return product.TestResult{Status: product.ERROR, Message: "opening a tab: " + tb.err.Error()}, true
	}
	// Closing the tab disposes its browser context and everything in it.
	defer func() { go tb.cancel() }()
	runCtx, runCancel := context.WithCancel(tb.ctx)
	defer runCancel()
	stop := context.AfterFunc(ctx, runCancel)
	defer stop()

	var crashed sync.Once
	crashCh := make(chan struct{})
	dialogs := make(chan struct{}, 1)
	if err := chromedp.Listen(runCtx, func(ev any) {
		switch ev.(type) {
		case *inspector.EventTargetCrashed:
			crashed.Do(func() { close(crashCh); runCancel() })
		case *page.EventJavascriptDialogOpening:
			select {
			case dialogs <- struct{}{}:
			default:
			}
		}
	}); err != nil {
		return product.TestResult{Status: product.ERROR, Message: "listening to the tab: " + err.Error()}, true
	}
	// alert()/confirm()/prompt() would block the page: dismiss them.
	go func() {
		for {
			select {
			case <-runCtx.Done():
				return
			case <-dialogs:
				chromedp.Call(runCtx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
			}
		}
	}()

	result := func(status product.Status, msg string) (product.TestResult, bool) {
		select {
		case <-crashCh:
			return product.TestResult{Status: product.CRASH, Message: "the renderer crashed", Duration: time.Since(start)}, false
		default:
		}
		if ctx.Err() != nil {
			return product.TestResult{Status: product.TIMEOUT, Message: fmt.Sprintf("no harness result after %v", time.Since(start).Round(time.Millisecond)), Duration: time.Since(start)}, false
		}
		// The tab's context ends only when the browser goes away.
		return product.TestResult{Status: status, Message: msg, Duration: time.Since(start)}, runCtx.Err() != nil
	}

	if err := chromedp.Do(runCtx, chromedp.Navigate(req.URL)); err != nil {
		var le *chromedp.LoadError
		if errors.As(err, &le) {
			return result(product.ERROR, "loading "+req.URL+": "+le.ErrorText)
		}
		return result(product.ERROR, "loading "+req.URL+": "+err.Error())
	}
	report, err := chromedp.Run(runCtx, chromedp.Evaluate[string]("self.__wptrunner_done", chromedp.EvalAwaitPromise))
	if err != nil {
		if errors.Is(err, chromedp.ErrJSUndefined) || errors.Is(err, chromedp.ErrJSNull) {
			return result(product.ERROR, "the page did not load /resources/testharnessreport.js (not a testharness test, or it navigated away)")
		}
		msg := err.Error()
		if strings.Contains(msg, "Execution context was destroyed") || strings.Contains(msg, "Inspected target navigated") {
			msg = "the test navigated away before the harness completed"
		}
		return result(product.ERROR, msg)
	}
	res, err = product.ParseReport([]byte(report))
	if err != nil {
		return result(product.ERROR, err.Error())
	}
	res.Duration = time.Since(start)
	return res, false
}
