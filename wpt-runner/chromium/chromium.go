// Package chromium is the wpt-runner product that runs tests in Chromium
// (Debian's /usr/bin/chromium by default): one headless browser per run,
// started through chromedp.
//
// Tests run in browser contexts that the product keeps and cleans between
// tests (slot.go), so that no state such as held Web Locks, storage or
// service worker registrations leaks from one test file to the next: each
// test gets one new tab in the window of a context, created directly at
// the test's URL (no about:blank first, which would cost a renderer
// process of its own). The product talks to the page through a small
// DevTools session of its own (session.go) rather than chromedp's tab
// set-up, which enables a dozen domains on every tab: the session enables
// Inspector (to see renderer crashes) and Page (to dismiss dialogs), and
// reads the result with Runtime.evaluate.
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
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/inspector"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/gowebengine/weblocks/wpt-runner/product"
)

// DefaultPath is where Debian installs Chromium.
const DefaultPath = "/usr/bin/chromium"

// InstallHint says how to get Chromium.
const InstallHint = "install it with: apt-get install -y chromium (or pass --chromium PATH)"

func init() {
	product.Register(product.Factory{
		Name:        "chromium",
		Description: "Chromium over the DevTools protocol (--chromium, $CHROMIUM or /usr/bin/chromium)",
		New:         func(cfg product.Config) (product.Product, error) { return New(cfg.ChromiumPath), nil },
		Available:   func(cfg product.Config) error { _, err := Find(cfg.ChromiumPath); return err },
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
	router        *router // the sessions with the pages of this browser
	generation    int     // counts launches
	// tmpDir is the browser's TMPDIR and holds its profile: Chromium
	// leaves org.chromium.Chromium.* directories in its temporary
	// directory, so each launch gets one of its own, removed when the
	// browser has exited.
	tmpDir    string
	restartMu sync.Mutex // one restart at a time
	pool      slots      // idle browser contexts (slot.go)
}

// New returns an unstarted Chromium product using the binary at path (""
// for the default lookup).
func New(path string) *Chromium { return &Chromium{path: path} }

// Name implements product.Product.
func (c *Chromium) Name() string { return "chromium" }

// Version implements product.Product.
func (c *Chromium) Version() string { return c.version }

// DisabledFeatures are the Chromium features the product turns off, on top
// of chromedp's defaults (Translate, BlinkGenPropertyTrees). Each test gets
// a window of its own, and each window of Chromium 156 starts two WebUI
// renderer processes for its omnibox popups (WebUIOmniboxPopup,
// WebUIOmniboxAimPopup): in a run of the bundled suite they used more CPU
// than the tests' own renderers. The spare renderer Chromium keeps ready
// for the next navigation belongs to one browser context, and every test
// has a new one, so each spare was started for nothing
// (SpareRendererForSitePerProcess). None of these changes what a web page
// can observe.
var DisabledFeatures = []string{"Translate", "BlinkGenPropertyTrees",
	"WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "SpareRendererForSitePerProcess"}

// Flags returns the extra command-line switches wptrunner-style runs need:
// WPT host names mapped to loopback, the start-up certificate trusted by
// its public key, no network chatter, and experimental web platform
// features on as wptrunner does for Chrome; see also DisabledFeatures.
func Flags(env *product.Env) []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.Flag("disable-features", strings.Join(DisabledFeatures, ",")),
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

// launch starts a browser, replacing the previous one if any.
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
	browserCtx, browserCancel := chromedp.NewContext(allocCtx, chromedp.WithBrowserOption(chromedp.WithBrowserErrorf(c.browserError)))
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
	r := newRouter(browserCtx, chromedp.FromContext(browserCtx).Browser)
	c.mu.Lock()
	oldBrowser, oldAlloc, oldTmp := c.browserCancel, c.allocCancel, c.tmpDir
	c.allocCancel, c.browserCtx, c.browserCancel, c.router, c.tmpDir = allocCancel, browserCtx, browserCancel, r, tmpDir
	c.generation++
	c.mu.Unlock()
	c.dropIdle()
	if oldBrowser != nil {
		oldBrowser()
		oldAlloc() // waits for the browser to exit
		removeAll(oldTmp)
	}
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
		c.dropIdle()
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

// browserError reports chromedp's diagnostics, except the one it gives
// for the sessions of this package: chromedp does not know them and says
// so when they end.
func (c *Chromium) browserError(format string, args ...any) {
	if strings.HasPrefix(format, "executor for %q doesn't exist") {
		return
	}
	if c.env != nil && c.env.Logf != nil {
		c.env.Logf("chromedp: "+format, args...)
	}
}

// RunTest loads the test in a new browser context and waits for the
// runner's testharnessreport.js to hand over the harness result. When the
// browser itself died, it starts a new one and runs the test again, once.
func (c *Chromium) RunTest(ctx context.Context, req product.TestRequest) product.TestResult {
	start := time.Now()
	for attempt := 0; ; attempt++ {
		c.mu.Lock()
		bctx, r, gen := c.browserCtx, c.router, c.generation
		c.mu.Unlock()
		if bctx == nil {
			return product.TestResult{Status: product.ERROR, Message: "chromium product not started"}
		}
		res, infra := c.runOnce(ctx, bctx, r, gen, req, start)
		if !infra || attempt > 0 || ctx.Err() != nil || alive(bctx) {
			return res
		}
		if err := c.restart(ctx, gen); err != nil {
			return product.TestResult{Status: product.ERROR, Message: "restarting the browser: " + err.Error(), Duration: time.Since(start)}
		}
	}
}

// waitCommit is evaluated in a new page until it answers from the test's
// document: the page is created with the test's URL, and the session can
// reach it while it still shows its initial about:blank document, in which
// case the evaluation fails when the test's document replaces it.
const waitCommit = `location.href === 'about:blank' ? new Promise(() => {}) : location.href`

// waitDone waits for the harness result: testharnessreport.js, a classic
// script of the test's document, defines self.__wptrunner_done when it
// runs, which is before the load event.
const waitDone = `(async () => {
	if (!self.__wptrunner_done && document.readyState !== 'complete') {
		await new Promise(resolve => addEventListener('load', resolve, {once: true}));
	}
	return self.__wptrunner_done;
})()`

// waitCrashtest waits, in a crash test, for the load event and then,
// while the root element has the class "test-wait", until that class is
// removed (wptrunner's crash test protocol).
const waitCrashtest = `(async () => {
	if (document.readyState !== 'complete') {
		await new Promise(resolve => addEventListener('load', resolve, {once: true}));
	}
	const root = document.documentElement;
	if (root && root.classList.contains('test-wait')) {
		await new Promise(resolve => {
			const observer = new MutationObserver(() => {
				if (!root.classList.contains('test-wait')) {
					observer.disconnect();
					resolve();
				}
			});
			observer.observe(root, {attributes: true, attributeFilter: ['class']});
		});
	}
	return 'done';
})()`

// crashtest runs the rest of a crash test (product.TestRequest.Crashtest)
// in its page s: PASS once the page has finished (waitCrashtest), CRASH
// when its renderer crashed, TIMEOUT when it has not finished within the
// harness timeout. result is runOnce's.
func (c *Chromium) crashtest(ctx context.Context, s *session, req product.TestRequest, result func(product.Status, string) (product.TestResult, bool), crashCh <-chan struct{}) (product.TestResult, bool) {
	wctx, cancel := context.WithTimeout(ctx, req.Timeout)
	defer cancel()
	var done string
	err := evaluate(wctx, s, waitCrashtest, &done)
	select {
	case <-crashCh:
		return result(product.CRASH, "the renderer crashed")
	default:
	}
	switch {
	case err == nil && done == "done":
		return result(product.PASS, "")
	case wctx.Err() != nil && ctx.Err() == nil:
		return result(product.TIMEOUT, fmt.Sprintf(`the crash test did not finish (load event, class "test-wait" removed) within %v`, req.Timeout))
	case err == nil:
		return result(product.ERROR, fmt.Sprintf("the crash test's wait answered %q", done))
	}
	msg := err.Error()
	if strings.Contains(msg, "Execution context was destroyed") || strings.Contains(msg, "Inspected target navigated") {
		msg = "the crash test navigated away before it finished"
	}
	return result(product.ERROR, msg)
}

// evaluate evaluates expr in the page's main world, awaiting a promise,
// and stores a string result in *str (when it is a string).
func evaluate(ctx context.Context, s *session, expr string, str *string) error {
	var ev runtime.EvaluateResult
	yes := true
	if err := s.call(ctx, runtime.Evaluate.Method, runtime.EvaluateParams{Expression: expr, AwaitPromise: &yes, ReturnByValue: &yes}, &ev); err != nil {
		return err
	}
	if d := ev.ExceptionDetails; d != nil {
		if d.Exception != nil && d.Exception.Description != "" {
			return errors.New(d.Exception.Description)
		}
		return errors.New(d.Text)
	}
	if ev.Result != nil && ev.Result.Type == runtime.RemoteObjectTypeString {
		return jsonv2.Unmarshal(ev.Result.Value, str, chromedp.DefaultUnmarshalOptions)
	}
	return nil
}

// runOnce runs the test in a new page (a tab) of one of the product's
// browser contexts (slot.go). infra reports a failure of the browser
// machinery rather than a result of the test.
//
// The page is created with the test's URL, so that it gets one renderer,
// for the test's site, and none for an about:blank first; the session
// with it enables only Inspector (crashes) and Page (dialogs). When the
// test is over, the browser context is cleaned for the next test, or
// disposed of when that fails.
func (c *Chromium) runOnce(ctx, bctx context.Context, r *router, gen int, req product.TestRequest, start time.Time) (res product.TestResult, infra bool) {
	b := chromedp.FromContext(bctx).Browser
	sl, err := c.takeSlot(ctx, b, r, gen)
	if err != nil {
		return c.infraResult(ctx, "creating a browser context", err, start)
	}
	// The context goes back to the pool only when the test ended with a
	// result of its own (not a timeout or a crash, after which the
	// page may not close in time) and the cleanup succeeded.
	reuse := false
	defer func() {
		c.putSlot(b, sl, reuse && !infra && res.Status != product.TIMEOUT && res.Status != product.CRASH)
	}()
	tr, err := cdp.Call(ctx, b, target.CreateTarget, target.CreateTargetParams{URL: req.URL, BrowserContextID: sl.id})
	if err != nil {
		return c.infraResult(ctx, "opening a page", err, start)
	}
	reuse = true

	runCtx, runCancel := context.WithCancel(ctx)
	defer runCancel()
	crashCh := make(chan struct{})
	var crashed sync.Once
	dialogs := make(chan struct{}, 1)
	s, err := r.attach(ctx, tr.TargetID, func(method string, _ jsonv2.Value) {
		switch method {
		case inspector.TargetCrashed.Method:
			crashed.Do(func() { close(crashCh); runCancel() })
		case page.JavascriptDialogOpening.Method:
			select {
			case dialogs <- struct{}{}:
			default:
			}
		}
	})
	if err != nil {
		return c.infraResult(ctx, "attaching to the page", err, start)
	}
	defer r.remove(s)
	// alert()/confirm()/prompt() would block the page: dismiss them. The
	// page may have opened one before Page.enable, which then reports
	// nothing: try once after it.
	go func() {
		for {
			select {
			case <-runCtx.Done():
				return
			case <-dialogs:
				s.call(runCtx, page.HandleJavaScriptDialog.Method, page.HandleJavaScriptDialogParams{Accept: true}, nil)
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
		// The page's session ends with the browser: then the browser
		// machinery failed, and RunTest restarts a dead browser.
		return product.TestResult{Status: status, Message: msg, Duration: time.Since(start)}, s.detached() || lostConnection(b)
	}
	go func() {
		if s.call(runCtx, page.Enable.Method, page.EnableParams{}, nil) == nil {
			select {
			case dialogs <- struct{}{}:
			default:
			}
		}
	}()
	if err := s.call(runCtx, inspector.Enable.Method, cdp.Empty{}, nil); err != nil {
		return result(product.ERROR, "Inspector.enable: "+err.Error())
	}
	var href string
	for i := 0; ; i++ {
		err = evaluate(runCtx, s, waitCommit, &href)
		if err == nil || i == 3 || runCtx.Err() != nil || s.detached() {
			break
		}
	}
	if err != nil {
		return result(product.ERROR, "loading "+req.URL+": "+err.Error())
	}
	if strings.HasPrefix(href, "chrome-error:") {
		return result(product.ERROR, "loading "+req.URL+" failed (Chromium shows its error page)")
	}
	if req.Crashtest {
		return c.crashtest(runCtx, s, req, result, crashCh)
	}
	var report string
	if err := evaluate(runCtx, s, waitDone, &report); err != nil {
		msg := err.Error()
		if strings.Contains(msg, "Execution context was destroyed") || strings.Contains(msg, "Inspected target navigated") {
			msg = "the test navigated away before the harness completed"
		}
		return result(product.ERROR, msg)
	}
	if report == "" {
		return result(product.ERROR, "the page did not load /resources/testharnessreport.js (not a testharness test, or it navigated away)")
	}
	res, err = product.ParseReport([]byte(report))
	if err != nil {
		return result(product.ERROR, err.Error())
	}
	res.Duration = time.Since(start)
	return res, false
}

// lostConnection reports whether the connection to the browser is gone.
func lostConnection(b *chromedp.Browser) bool {
	select {
	case <-b.LostConnection:
		return true
	default:
		return false
	}
}

// infraResult is the result of a browser command that failed before the
// test ran.
func (c *Chromium) infraResult(ctx context.Context, what string, err error, start time.Time) (product.TestResult, bool) {
	if ctx.Err() != nil {
		return product.TestResult{Status: product.TIMEOUT, Message: what + ": " + err.Error(), Duration: time.Since(start)}, false
	}
	return product.TestResult{Status: product.ERROR, Message: what + ": " + err.Error(), Duration: time.Since(start)}, true
}
