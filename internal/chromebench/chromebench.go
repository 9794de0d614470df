// Package chromebench runs the JavaScript loops of side-by-side benchmarks
// in headless Chromium.
package chromebench

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gowebengine/weblocks/internal/testenv"
)

// Loop times fn(b.N), an async function expression, in a page of
// headless Chromium on http://127.0.0.1 (a secure context) after a
// warm-up fn(100); page-ns/op is the in-page time. It skips (fails under
// CI) without Chromium. Side-by-side benchmarks run it next to the same
// loop in this engine.
func Loop(b *testing.B, fn string) {
	exe := testenv.Chromium(b)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!doctype html><title>bench</title>")
	}))
	defer srv.Close()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-gpu", true))
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer acancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
	defer cancelT()
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL)); err != nil {
		b.Fatal(err)
	}
	// Warm up, then time b.N iterations inside the page.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](fn+"(100)", chromedp.EvalAwaitPromise)); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](fmt.Sprintf(
		"(async () => { const t = performance.now(); await %s(%d); return performance.now() - t; })()", fn, b.N),
		chromedp.EvalAwaitPromise))
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(ms*1e6/float64(b.N), "page-ns/op")
}
