package chromium

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"golang.org/x/net/publicsuffix"
)

// A slot is a browser context that tests run in one after the other, each
// in a new tab of the context's window.
//
// A window costs the browser process about 0.1 s of CPU, and a browser
// context has none until a page asks for one, so a fresh context per test
// spent nearly half of the browser's CPU on windows. A slot makes its window
// once, with an about:blank tab (the anchor) that keeps it open and that
// the product uses to clean the context. Between two tests, clean:
//   - closes every page of the context but the anchor (the test's tab, its
//     popups and their back/forward cache, which belongs to a tab);
//   - waits until the context has no target left but the anchor: no page,
//     frame, shared worker or service worker, so no Web Lock either (a lock
//     lives as long as the document or worker that holds it);
//   - clears everything stored for every origin a test could have used
//     (Storage.clearDataForOrigin with "all": cookies, local storage,
//     IndexedDB, Cache API, service worker registrations, ...), also under
//     the partitioned storage keys of its frames embedded cross-site, the
//     HTTP cache and the cookies of the context, and the permissions
//     granted in it.
//
// When a step fails or takes too long, or the test timed out or crashed,
// the context is disposed of instead, and the next test gets a new one.
// TestContextCleanedBetweenTests holds the proof: a test that leaves a held
// lock, storage of every kind, a service worker registration, a shared
// worker and an open popup, and that finds none of them when it runs again
// in the same context.
type slot struct {
	id     cdp.BrowserContextID
	gen    int       // the browser launch the context belongs to
	anchor target.ID // the about:blank tab that keeps the window
	s      *session  // the session with the anchor
	r      *router
	tests  int // tests run in the context
}

// cleanTimeout bounds the cleaning of a context; past it, the context is
// disposed of.
const cleanTimeout = 5 * time.Second

// slots is the pool of browser contexts. A context is cleaned while the
// next test runs in another one, so that the cleaning (about 0.1 s) does
// not delay the next test: there are up to two contexts per job.
type slots struct {
	mu       sync.Mutex
	cond     *sync.Cond // signalled when a context becomes idle or goes
	idle     []*slot
	live     int // contexts made and not disposed of
	cleaning int // contexts being cleaned
	// noClean, for tests, returns contexts to the pool without cleaning
	// them, to show that the isolation tests notice.
	noClean bool
	// made counts the contexts made, reused those reused (for tests).
	made, reused int
}

// maxSlots is the most browser contexts the product keeps for jobs tests
// at a time: one per test running and one being cleaned.
func maxSlots(jobs int) int { return 2 * max(jobs, 1) }

// takeSlot returns an idle context of browser generation gen, or a new one,
// waiting for a context being cleaned when there are enough already.
func (c *Chromium) takeSlot(ctx context.Context, b *chromedp.Browser, r *router, gen int) (*slot, error) {
	p := &c.pool
	p.mu.Lock()
	if p.cond == nil {
		p.cond = sync.NewCond(&p.mu)
	}
	for {
		if n := len(p.idle); n > 0 {
			sl := p.idle[n-1]
			p.idle = p.idle[:n-1]
			if sl.gen == gen && !sl.s.detached() {
				p.reused++
				p.mu.Unlock()
				return sl, nil
			}
			// A context of a browser that has been replaced is gone
			// with it; one whose anchor went away is disposed of.
			p.live--
			if sl.gen == gen {
				dispose(b, sl)
			}
			continue
		}
		if p.live < maxSlots(c.env.Jobs) || ctx.Err() != nil {
			break
		}
		stop := context.AfterFunc(ctx, func() {
			p.mu.Lock()
			p.cond.Broadcast()
			p.mu.Unlock()
		})
		p.cond.Wait()
		stop()
	}
	p.live++
	p.made++
	p.mu.Unlock()
	sl, err := newSlot(ctx, b, r, gen)
	if err != nil {
		c.slotGone()
		return nil, err
	}
	return sl, nil
}

// newSlot makes a browser context with its window.
func newSlot(ctx context.Context, b *chromedp.Browser, r *router, gen int) (*slot, error) {
	bc, err := cdp.Call(ctx, b, target.CreateBrowserContext, target.CreateBrowserContextParams{})
	if err != nil {
		return nil, err
	}
	sl := &slot{id: bc.BrowserContextID, gen: gen, r: r}
	// A new browser context has no window: the anchor makes one.
	newWindow := true
	tr, err := cdp.Call(ctx, b, target.CreateTarget, target.CreateTargetParams{URL: "about:blank", BrowserContextID: sl.id, NewWindow: &newWindow})
	if err == nil {
		sl.anchor = tr.TargetID
		sl.s, err = r.attach(ctx, tr.TargetID, nil)
	}
	if err != nil {
		dispose(b, sl)
		return nil, err
	}
	return sl, nil
}

// slotGone counts a context disposed of.
func (c *Chromium) slotGone() {
	c.pool.mu.Lock()
	c.pool.live--
	c.pool.cond.Broadcast()
	c.pool.mu.Unlock()
}

// putSlot cleans the context after a test, in the background, and puts it
// back in the pool, or disposes of it when it cannot be reused.
func (c *Chromium) putSlot(b *chromedp.Browser, sl *slot, reusable bool) {
	sl.tests++
	p := &c.pool
	if !reusable {
		dispose(b, sl)
		c.slotGone()
		return
	}
	p.mu.Lock()
	noClean := p.noClean
	p.cleaning++
	p.mu.Unlock()
	go func() {
		var err error
		if !noClean {
			ctx, cancel := context.WithTimeout(context.Background(), cleanTimeout)
			err = clean(ctx, b, sl, c.origins)
			cancel()
		}
		p.mu.Lock()
		p.cleaning--
		if err == nil {
			p.idle = append(p.idle, sl)
			p.cond.Broadcast()
		}
		p.mu.Unlock()
		if err != nil {
			if !lostConnection(b) {
				c.env.Logf("cleaning a browser context after a test: %v; using a new context", err)
			}
			dispose(b, sl)
			c.slotGone()
		}
	}()
}

// waitCleaned waits until no context is being cleaned (for tests).
func (c *Chromium) waitCleaned() {
	for {
		c.pool.mu.Lock()
		n := c.pool.cleaning
		c.pool.mu.Unlock()
		if n == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// dispose disposes of the context (asynchronously: it closes its pages).
func dispose(b *chromedp.Browser, sl *slot) {
	if sl.s != nil {
		sl.r.remove(sl.s)
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cdp.Call(ctx, b, target.DisposeBrowserContext, target.DisposeBrowserContextParams{BrowserContextID: sl.id})
	}()
}

// dropIdle forgets the idle contexts: the browser they belong to is
// closing or has been replaced.
func (c *Chromium) dropIdle() {
	c.pool.mu.Lock()
	c.pool.live -= len(c.pool.idle)
	c.pool.idle = nil
	if c.pool.cond != nil {
		c.pool.cond.Broadcast()
	}
	c.pool.mu.Unlock()
}

// origins lists the origins whose data clean clears.
func (c *Chromium) origins() []string {
	if c.env.Origins != nil {
		return c.env.Origins()
	}
	var out []string
	for _, h := range c.env.Hosts {
		for _, p := range c.env.HTTPPorts {
			out = append(out, "http://"+h+":"+strconv.Itoa(p))
		}
		for _, p := range c.env.HTTPSPorts {
			out = append(out, "https://"+h+":"+strconv.Itoa(p))
		}
	}
	return out
}

// clean makes the context as the next test must find it; see slot. It asks
// for the origins to clear once the pages of the test are gone, so that
// one a page was still loading while the test ended counts too.
func clean(ctx context.Context, b *chromedp.Browser, sl *slot, origins func() []string) error {
	// Close every page but the anchor, then wait for every target of
	// the context to go (service workers excepted: clearing the storage
	// unregisters them).
	if err := closeAll(ctx, b, sl, func(t *target.Info) bool { return t.Type != "service_worker" }); err != nil {
		return err
	}
	// Clear what the tests stored. The commands go to the anchor's
	// session, so they apply to its browser context.
	all := origins()
	var calls []func() error
	call := func(method string, params any) {
		calls = append(calls, func() error {
			if err := sl.s.call(ctx, method, params, nil); err != nil {
				return fmt.Errorf("%s: %v", method, err)
			}
			return nil
		})
	}
	for _, o := range all {
		call(storage.ClearDataForOrigin.Method, storage.ClearDataForOriginParams{Origin: o, StorageTypes: "all"})
	}
	// Clearing an origin leaves what its frames stored under another
	// top-level site (partitioned storage): clear those storage keys too.
	for _, k := range partitionedKeys(all) {
		call(storage.ClearDataForStorageKey.Method, storage.ClearDataForStorageKeyParams{StorageKey: k, StorageTypes: "all"})
	}
	call(network.ClearBrowserCache.Method, cdp.Empty{})
	call(network.ClearBrowserCookies.Method, cdp.Empty{})
	if err := callAll(calls); err != nil {
		return err
	}
	if _, err := cdp.Call(ctx, b, browser.ResetPermissions, browser.ResetPermissionsParams{BrowserContextID: sl.id}); err != nil {
		return fmt.Errorf("%s: %v", browser.ResetPermissions.Method, err)
	}
	// Now the service workers too.
	return closeAll(ctx, b, sl, func(*target.Info) bool { return true })
}

// callAll runs the calls at once and returns the first error (nil when
// all succeed). No call blocks when all of them fail (a closed context, a
// timeout): every error has a buffered place.
func callAll(calls []func() error) error {
	errs := make(chan error, len(calls))
	var wg sync.WaitGroup
	for _, c := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c(); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// closeAll closes the pages of the context but the anchor and waits until
// no target of the context that counts is left but the anchor.
func closeAll(ctx context.Context, b *chromedp.Browser, sl *slot, counts func(*target.Info) bool) error {
	closed := map[target.ID]bool{}
	for {
		ts, err := cdp.Call(ctx, b, target.GetTargets, target.GetTargetsParams{})
		if err != nil {
			return fmt.Errorf("listing the targets: %v", err)
		}
		left := 0
		for _, t := range ts.TargetInfos {
			if t.BrowserContextID != sl.id || t.TargetID == sl.anchor || !counts(t) {
				continue
			}
			left++
			if t.Type == "page" && !closed[t.TargetID] {
				closed[t.TargetID] = true
				if _, err := cdp.Call(ctx, b, target.CloseTarget, target.CloseTargetParams{TargetID: t.TargetID}); err != nil && ctx.Err() != nil {
					return err
				}
			}
		}
		if left == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return errors.New("the pages and workers of the test did not go away")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// partitionedKeys lists the storage keys, in Chromium's serialization,
// under which a frame of one of the origins can have stored data while
// embedded in a page of another site: "<origin>/^0<top-level site>" for
// each site of the origins but its own, and "<origin>/^31" for a frame of
// the top-level site nested in a cross-site frame.
func partitionedKeys(origins []string) []string {
	site := func(o string) string {
		u, err := url.Parse(o)
		if err != nil {
			return ""
		}
		h := u.Hostname()
		if net.ParseIP(h) == nil {
			if d, err := publicsuffix.EffectiveTLDPlusOne(h); err == nil {
				h = d
			}
		}
		return u.Scheme + "://" + h
	}
	var sites []string
	for _, o := range origins {
		if s := site(o); !slices.Contains(sites, s) {
			sites = append(sites, s)
		}
	}
	var keys []string
	for _, o := range origins {
		keys = append(keys, o+"/^31")
		for _, s := range sites {
			if s != site(o) {
				keys = append(keys, o+"/^0"+s)
			}
		}
	}
	return keys
}
