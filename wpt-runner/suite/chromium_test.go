package suite

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/gowebengine/weblocks/wpt-runner/manifest"
	"io/fs"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/gowebengine/weblocks/internal/testenv"
	"github.com/gowebengine/weblocks/wpt-runner/chromium"
	"github.com/gowebengine/weblocks/wpt-runner/server"
)

// Statuses as testharness.js numbers them.
var subtestStatus = map[int]string{0: "PASS", 1: "FAIL", 2: "TIMEOUT", 3: "NOTRUN", 4: "PRECONDITION_FAILED"}
var harnessStatus = map[int]string{0: "OK", 1: "ERROR", 2: "TIMEOUT", 3: "PRECONDITION_FAILED"}

type subtestResult struct {
	Name    string  `json:"name"`
	Status  int     `json:"status"`
	Message *string `json:"message"`
}

type fileResult struct {
	Status  int             `json:"status"`
	Message *string         `json:"message"`
	Tests   []subtestResult `json:"tests"`
}

func (r fileResult) String() string {
	var sb strings.Builder
	msg := ""
	if r.Message != nil {
		msg = " (" + *r.Message + ")"
	}
	fmt.Fprintf(&sb, "harness %s%s\n", harnessStatus[r.Status], msg)
	for _, t := range r.Tests {
		m := ""
		if t.Message != nil {
			m = ": " + *t.Message
		}
		fmt.Fprintf(&sb, "  %s %q%s\n", subtestStatus[t.Status], t.Name, m)
	}
	return sb.String()
}

// layers is a file tree made of others: a file is taken from the first
// layer that has it (fstest.MapFS layers replace single files).
type layers []fs.FS

func (l layers) Open(name string) (fs.File, error) {
	for _, f := range l {
		if file, err := f.Open(name); err == nil {
			return file, nil
		}
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// runInChromium loads url in a fresh browser context of the browser bctx
// and returns the harness's completion data, as the runner's
// testharnessreport.js stores it in self.__wptrunner_result.
func runInChromium(bctx context.Context, url string, timeout time.Duration) (fileResult, error) {
	ctx, cancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	defer cancel()
	tctx, tcancel := context.WithTimeout(ctx, timeout+5*time.Second)
	defer tcancel()
	if err := chromedp.Do(tctx, chromedp.Navigate(url)); err != nil {
		return fileResult{}, fmt.Errorf("navigate %s: %w", url, err)
	}
	report, err := chromedp.Run(tctx, chromedp.Poll[string]("self.__wptrunner_result",
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(timeout)))
	if err != nil {
		return fileResult{}, fmt.Errorf("waiting for results of %s: %w", url, err)
	}
	var res fileResult
	if err := json.Unmarshal([]byte(report), &res); err != nil {
		return fileResult{}, fmt.Errorf("results of %s: %w", url, err)
	}
	return res, nil
}

// wrapperURLs lists the wrapper URLs of every test file under dir of root
// (skipping resources directories).
func wrapperURLs(t *testing.T, root fs.FS, dir string) []string {
	var urls []string
	err := fs.WalkDir(root, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "resources" {
				return fs.SkipDir
			}
			return nil
		}
		switch {
		case strings.HasSuffix(p, ".any.js"):
			// The wrappers of the globals its META global line names.
			tests, err := manifest.TestsForFile(root, p)
			if err != nil {
				return err
			}
			for _, tc := range tests {
				urls = append(urls, tc.Path)
			}
		case strings.HasSuffix(p, ".window.js"):
			urls = append(urls, "/"+strings.TrimSuffix(p, ".js")+".html")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(urls)
	return urls
}

// testURLs lists the wrapper URLs of every test file of the suite.
func testURLs(t *testing.T, root fs.FS) []string { return wrapperURLs(t, root, "web-locks") }

// runAll serves tree with the runner's WPT server (its wrappers and
// testharnessreport.js, with a timeout multiplier of 3 so that a loaded
// machine does not turn slow runs into TIMEOUTs) and loads urls, a few at a
// time, in the runner's Chromium product (its launch flags map the WPT host
// names to the server and trust its certificate). It skips without
// Chromium outside CI.
func runAll(t *testing.T, tree fs.FS, urls []string) map[string]fileResult {
	exe := testenv.Chromium(t)
	srv, err := server.Start(server.Config{Root: tree, TimeoutMultiplier: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	browser := chromium.New(exe)
	if err := browser.Start(context.Background(), srv.Env(1, nil)); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	t.Cleanup(func() { browser.Close() })
	base := "https://" + server.MainHost + ":" + strconv.Itoa(srv.HTTPSPorts()[0])
	results := make(map[string]fileResult)
	var mu sync.Mutex
	sem := make(chan struct{}, 3)
	var wg sync.WaitGroup
	for _, u := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			start := time.Now()
			res, err := runInChromium(browser.BrowserContext(), base+u, 30*time.Second)
			if d := time.Since(start); d > 5*time.Second {
				t.Logf("%s took %v", u, d.Round(time.Millisecond))
			}
			if err != nil {
				t.Errorf("%s: %v", u, err)
				return
			}
			mu.Lock()
			results[u] = res
			mu.Unlock()
		}()
	}
	wg.Wait()
	return results
}

// TestSuiteInChromium runs every file of the suite in Chromium, in the window
// and dedicated-worker scopes, under the suite's own harness, and requires
// harness OK and PASS for every subtest.
func TestSuiteInChromium(t *testing.T) {
	testenv.Chromium(t)
	root := Root()
	urls := testURLs(t, root)
	if f := os.Getenv("SUITE_FILTER"); f != "" {
		var keep []string
		for _, u := range urls {
			if strings.Contains(u, f) {
				keep = append(keep, u)
			}
		}
		urls = keep
	}
	results := runAll(t, root, urls)
	total, unique := 0, map[string]bool{}
	for _, u := range urls {
		res, ok := results[u]
		if !ok {
			continue
		}
		bad := res.Status != 0 || len(res.Tests) == 0
		for _, st := range res.Tests {
			total++
			unique[strings.TrimSuffix(strings.TrimSuffix(u, ".worker.html"), ".html")+" :: "+st.Name] = true
			if st.Status != 0 {
				bad = true
			}
		}
		if bad {
			t.Errorf("%s:\n%s", u, res)
		} else {
			t.Logf("%s: %d subtests pass", u, len(res.Tests))
		}
	}
	t.Logf("%d files, %d subtest results, %d distinct subtests", len(results), total, len(unique))
	if os.Getenv("SUITE_FILTER") == "" && len(unique) < 100 {
		t.Errorf("suite has %d distinct subtests, want at least 100", len(unique))
	}
}

// TestChromiumDeviations runs testdata/chromium-deviations: spec behaviour
// Chromium gets wrong, kept out of the bundled suite (which must agree 100%
// between our engine and Chromium) and covered by the engine's Go tests
// instead. Each subtest must still FAIL in Chromium; when one starts to pass,
// move it into the suite.
func TestChromiumDeviations(t *testing.T) {
	testenv.Chromium(t)
	urls := []string{
		"/chromium-deviations/not-fully-active.https.window.html",
		"/chromium-deviations/query-names.https.any.html",
		"/chromium-deviations/query-names.https.any.worker.html",
		"/chromium-deviations/clientid-is-client-id.https.window.html",
		"/chromium-deviations/fetch-event-client-id.https.window.html",
		"/chromium-deviations/cross-origin-set-prototype.https.window.html",
	}
	results := runAll(t, layers{Root(), os.DirFS("testdata")}, urls)
	for _, u := range urls {
		res, ok := results[u]
		if !ok {
			continue
		}
		if res.Status != 0 || len(res.Tests) == 0 {
			t.Errorf("%s: want harness OK with subtests:\n%s", u, res)
			continue
		}
		for _, st := range res.Tests {
			if st.Status != 1 {
				t.Errorf("%s: %q is %s in Chromium now (want FAIL): move it into the suite", u, st.Name, subtestStatus[st.Status])
			}
		}
		t.Logf("%s:\n%s", u, res)
	}
}
