package browser_test

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/browser"
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
