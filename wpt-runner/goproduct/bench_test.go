//go:build unix

package goproduct

import (
	"context"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/wpt-runner/product"
	"github.com/gowebengine/weblocks/wpt-runner/server"
	"github.com/gowebengine/weblocks/wpt-runner/suite"
)

// BenchmarkRunTestScripts runs one suite file (window and worker) in the go
// product with the scripts compiled once for all runs ("shared", as the
// product does) and compiled again for every run ("per-test"), side by side.
// The tests mostly wait for timers, so the process CPU time per op
// (cpu-ms/op) says more than ns/op.
func BenchmarkRunTestScripts(b *testing.B) {
	srv, err := server.Start(server.Config{Root: suite.Root()})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	env := srv.Env(1, nil)
	fetcher, release := NewFetcher(FetcherOptions{Hosts: env.Hosts, RootCAs: env.CertPool})
	defer release()
	base := "https://" + server.MainHost + ":" + strconv.Itoa(srv.HTTPSPorts()[0])
	ids := []string{"/web-locks/release.https.any.html", "/web-locks/release.https.any.worker.html"}
	run := func(b *testing.B, scripts *browser.ScriptCache) {
		for _, id := range ids {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			res := runPage(ctx, fetcher, scripts, product.TestRequest{ID: id, URL: base + id, Timeout: 10 * time.Second}, Options{})
			cancel()
			if res.Status != product.OK {
				b.Fatalf("%s: %s %s", id, res.Status, res.Message)
			}
		}
	}
	cpu := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	b.Run("shared", func(b *testing.B) {
		var scripts browser.ScriptCache
		start := cpu()
		for b.Loop() {
			run(b, &scripts)
		}
		b.ReportMetric(float64(cpu()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	})
	b.Run("per-test", func(b *testing.B) {
		start := cpu()
		for b.Loop() {
			run(b, &browser.ScriptCache{})
		}
		b.ReportMetric(float64(cpu()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	})
}
