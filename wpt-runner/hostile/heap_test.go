package hostile

import (
	"context"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/wpt-runner/goproduct"
	"github.com/gowebengine/weblocks/wpt-runner/manifest"
	"github.com/gowebengine/weblocks/wpt-runner/product"
	"github.com/gowebengine/weblocks/wpt-runner/server"
)

// BenchmarkLiveHeapOverManyTests runs b.N tests in one in-process go
// product, each under a URL of its own (a distinct query, so every test
// page adds its inline scripts to the product's program cache), and reports
// the live heap after the first 1,000 tests and at the end. It fails when
// the heap grew by more than 32 MB. Run it over 10,000 tests with
//
//	go test -run - -bench LiveHeap -benchtime 10000x ./wpt-runner/hostile/
func BenchmarkLiveHeapOverManyTests(b *testing.B) {
	root := tree(b)
	srv, err := server.Start(server.Config{Root: root})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	p := goproduct.New(goproduct.Options{})
	if err := p.Start(context.Background(), srv.Env(1, nil)); err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	tests, _, err := manifest.Discover(root, []string{"hostile/ok.window.js"})
	if err != nil || len(tests) != 1 {
		b.Fatalf("%v %v", tests, err)
	}
	base := srv.URL(tests[0])
	live := func() float64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapAlloc) / (1 << 20)
	}
	var first float64
	i := 0
	for b.Loop() {
		i++
		u := base + "?n=" + strconv.Itoa(i)
		res := p.RunTest(context.Background(), product.TestRequest{ID: tests[0].ID + "?n=" + strconv.Itoa(i), URL: u, Global: "window", Timeout: 10 * time.Second})
		if res.Status != product.OK {
			b.Fatalf("test %d: %s %s", i, res.Status, res.Message)
		}
		if i == 1000 {
			b.StopTimer()
			first = live()
			b.StartTimer()
		}
	}
	b.StopTimer()
	end := live()
	if i >= 1000 {
		b.ReportMetric(first, "MB-live-at-1000")
		b.ReportMetric(end, "MB-live-at-end")
		if end > first+32 {
			b.Errorf("live heap grew from %.1f MB after 1,000 tests to %.1f MB after %d", first, end, i)
		}
	}
}
