package browser_test

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/internal/chromebench"
)

// BenchmarkRendererStart starts a renderer process per op: Open of a tiny
// page in RendererProcesses (the renderer is this test binary) and its
// first task (Evaluate "1"), then Close. ms/op is the start-up to first
// task; idle-RSS-MB is the renderer's resident memory after it, idle
// (VmRSS, the mean over the renderers started).
func BenchmarkRendererStart(b *testing.B) {
	br := rendererBrowser(b, browser.Config{})
	ctx := testCtx(b)
	var rss, n float64
	for b.Loop() {
		w, err := br.Open(ctx, "https://a.test/index.html")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.Evaluate(ctx, "1"); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if kb, err := vmRSS(w.RendererPID()); err == nil {
			rss += float64(kb) / 1024
			n++
		}
		w.Close()
		b.StartTimer()
	}
	if n > 0 {
		b.ReportMetric(rss/n, "idle-RSS-MB")
	}
}

// vmRSS reads a process's resident set size (KiB) from /proc.
func vmRSS(pid int) (int, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	return 0, fmt.Errorf("no VmRSS for %d", pid)
}

// cpuTime is the CPU time (ns) of this process (pid 0) or of a child
// process, from its threads' /proc schedstat.
func cpuTime(pid int) int64 {
	dir := "/proc/self/task"
	if pid != 0 {
		dir = fmt.Sprintf("/proc/%d/task", pid)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	var sum int64
	for _, e := range ents {
		b, err := os.ReadFile(dir + "/" + e.Name() + "/schedstat")
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) > 0 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			sum += n
		}
	}
	return sum
}

// BenchmarkRendererLockCycleSideBySide runs one JavaScript loop — one
// `await navigator.locks.request('a', () => {})` per iteration — in a
// window of a single-process browser ("in-process"), in a window of a
// renderer process, whose every request and release crosses to the
// browser process's lock service over gRPC ("renderer"), and in headless
// Chromium, whose renderer also crosses to its browser process
// ("chromium"), in one run: compare their ns/op as ratios. The engine
// floor of the same loop is bindings' BenchmarkEngineFloorCycle.
func BenchmarkRendererLockCycleSideBySide(b *testing.B) {
	const loop = `(async n => { for (let i = 0; i < n; i++) await navigator.locks.request('a', () => {}); })`
	run := func(b *testing.B, br *browser.Browser) {
		ctx := testCtx(b)
		w, err := br.Open(ctx, "https://a.test/index.html")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.Evaluate(ctx, "globalThis.cycle = "+loop+"; cycle(100)"); err != nil {
			b.Fatal(err)
		}
		pid := w.RendererPID()
		b.ResetTimer()
		self0, r0 := cpuTime(0), cpuTime(pid)
		if _, err := w.Evaluate(ctx, fmt.Sprintf("cycle(%d)", b.N)); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		self1, r1 := cpuTime(0), cpuTime(pid)
		b.ReportMetric(float64(self1-self0)/float64(b.N), "browser-cpu-ns/op")
		if pid != 0 {
			b.ReportMetric(float64(r1-r0)/float64(b.N), "renderer-cpu-ns/op")
		}
	}
	b.Run("in-process", func(b *testing.B) {
		br := browser.New(browser.Config{Fetcher: browser.FSFetcher{FS: rendererSite}})
		defer br.Close()
		run(b, br)
	})
	b.Run("renderer", func(b *testing.B) { run(b, rendererBrowser(b, browser.Config{})) })
	b.Run("renderer-grpc", func(b *testing.B) {
		run(b, rendererBrowser(b, browser.Config{Renderer: browser.RendererConfig{LockTransport: browser.LockTransportGRPC}}))
	})
	b.Run("chromium", func(b *testing.B) { chromebench.Loop(b, loop) })
}
