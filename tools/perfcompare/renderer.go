package main

import (
	"context"
	"fmt"
	"net/url"

	"github.com/gowebengine/weblocks/browser"
)

// rendererEngine is this project's engine with the page in a renderer
// process (browser.RendererProcesses): every lock request, release and
// query crosses to the browser process's lock service (on the renderer's
// framed lock session, browser.LockTransportFramed), as Chromium's cross
// to its browser process. The renderer is this
// executable (main calls browser.MaybeRunRenderer).
type rendererEngine struct{ b *browser.Browser }

func newRendererEngine() *rendererEngine {
	return &rendererEngine{b: browser.New(browser.Config{Process: browser.RendererProcesses, Fetcher: browser.FSFetcher{}})}
}

func (e *rendererEngine) name() string { return "go-renderer" }

func (e *rendererEngine) close() { e.b.Close() }

func (e *rendererEngine) run(ctx context.Context, src string, n int) (float64, error) {
	u, _ := url.Parse("https://example.com/")
	w, err := e.b.StartHTML(u, "<!doctype html><title>perfcompare</title>")
	if err != nil {
		return 0, err
	}
	defer w.Close()
	v, err := w.Evaluate(ctx, script(src, n, "() => performance.now()"))
	if err != nil {
		return 0, err
	}
	switch ms := v.(type) {
	case float64:
		return ms, nil
	case int64:
		return float64(ms), nil
	}
	return 0, fmt.Errorf("the workload reported %v", v)
}
