// Command perfcompare runs the same Web Locks workloads in this project's
// engine (a sobek window realm) and in headless Chromium, in one run, for
// several sizes N, and shows how the cost of one operation grows with N in
// each engine:
//
//	go run ./tools/perfcompare [-n 1000,10000,100000] [-workloads cycle,queued,...]
//	    [-engines go,go-renderer,chromium] [-o perfcompare.svg] [-chromium PATH] [-timeout 10m]
//
// Workloads (each times N operations inside the page with
// performance.now()):
//
//	cycle   N sequential `await navigator.locks.request('cycle', () => {})`
//	queued  N requests queued on one held name, then granted in turn
//	held    N locks on distinct names acquired (held together) and released
//	query   one query() while N locks are held (cost per entry)
//	steal   N sequential steal requests, each breaking the previous lock
//	abort   N queued requests aborted through their signals
//
// By default three engines run: go (in-process), go-renderer (the page in
// a renderer process, the lock service in the browser process, its lock
// session framed on a socket pair: browser.LockTransportFramed) and
// chromium. It prints a table of microseconds per operation in each
// engine and the ratio chromium/go, and writes a plot of cost against N
// with one curve per engine (SVG, or PNG when the output name ends in
// .png). A progress line on stderr says which run is under way and for how
// long. Without Chromium (see -chromium) only the go engines run.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/gowebengine/weblocks/browser"
)

// config is what the flags select.
type config struct {
	ns        []int
	workloads []workload
	engines   []string
	out       string
	chromium  string
	timeout   time.Duration
}

// measurement is one workload at one N in one engine.
type measurement struct {
	workload string
	unit     string
	n        int
	engine   string
	// usPerOp is the microseconds per operation; err says why there is
	// none (a timeout, a script error).
	usPerOp float64
	err     error
}

func main() {
	// The go-renderer engine's renderer processes are this executable.
	browser.MaybeRunRenderer()
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "perfcompare:", err)
		os.Exit(2)
	}
	engines, err := startEngines(cfg, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "perfcompare:", err)
		os.Exit(2)
	}
	defer func() {
		for _, e := range engines {
			e.close()
		}
	}()
	ms := compare(context.Background(), cfg, engines, newProgress(os.Stderr))
	printTable(os.Stdout, ms, engineNames(engines))
	if cfg.out != "" {
		if err := writePlot(cfg.out, ms, engineNames(engines)); err != nil {
			fmt.Fprintln(os.Stderr, "perfcompare:", err)
			os.Exit(1)
		}
		fmt.Fprintln(os.Stdout, "plot:", cfg.out)
	}
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("perfcompare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ns := fs.String("n", "1000,10000,100000", "comma-separated sizes N")
	wl := fs.String("workloads", "cycle,queued,held,query,steal,abort", "comma-separated workloads")
	en := fs.String("engines", "go,go-renderer,chromium", "comma-separated engines: go (default scheduler), go-manual (manual scheduler, no goroutine hand-offs), go-renderer (the page in a renderer process, locks in the browser process), chromium")
	out := fs.String("o", "perfcompare.svg", "plot file (.svg or .png); empty for none")
	chrome := fs.String("chromium", "", "Chromium binary (default: $CHROMIUM, /usr/bin/chromium, chromium on PATH)")
	timeout := fs.Duration("timeout", 10*time.Minute, "limit for one run (one workload, one N, one engine)")
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	if fs.NArg() > 0 {
		return config{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	cfg := config{out: *out, chromium: *chrome, timeout: *timeout}
	for _, s := range splitList(*ns) {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return config{}, fmt.Errorf("-n: %q is not a positive integer", s)
		}
		cfg.ns = append(cfg.ns, n)
	}
	for _, s := range splitList(*wl) {
		w, ok := workloadByName(s)
		if !ok {
			return config{}, fmt.Errorf("-workloads: unknown workload %q", s)
		}
		cfg.workloads = append(cfg.workloads, w)
	}
	for _, s := range splitList(*en) {
		if s != "go" && s != "go-manual" && s != "go-renderer" && s != "chromium" {
			return config{}, fmt.Errorf("-engines: unknown engine %q (go, go-manual, go-renderer, chromium)", s)
		}
		cfg.engines = append(cfg.engines, s)
	}
	if len(cfg.ns) == 0 || len(cfg.workloads) == 0 || len(cfg.engines) == 0 {
		return config{}, errors.New("-n, -workloads and -engines must not be empty")
	}
	return cfg, nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// startEngines starts the selected engines. Chromium missing is not an
// error: the go engine runs alone, with a note on stderr.
func startEngines(cfg config, stderr io.Writer) ([]engine, error) {
	var engines []engine
	for _, name := range cfg.engines {
		switch name {
		case "go":
			engines = append(engines, goEngine{})
		case "go-manual":
			engines = append(engines, goEngine{manual: true})
		case "go-renderer":
			engines = append(engines, newRendererEngine())
		case "chromium":
			c, err := newChromium(cfg.chromium)
			if err != nil {
				fmt.Fprintf(stderr, "perfcompare: chromium skipped: %v\n", err)
				continue
			}
			engines = append(engines, c)
		}
	}
	if len(engines) == 0 {
		return nil, errors.New("no engine to run")
	}
	return engines, nil
}

func engineNames(engines []engine) []string {
	names := make([]string, len(engines))
	for i, e := range engines {
		names[i] = e.name()
	}
	return names
}

// compare runs every workload at every N in every engine, one run at a
// time (so the engines do not compete for the CPU), the engines side by
// side for each workload and N.
func compare(ctx context.Context, cfg config, engines []engine, p *progress) []measurement {
	total := len(cfg.workloads) * len(cfg.ns) * len(engines)
	var out []measurement
	i := 0
	for _, w := range cfg.workloads {
		for _, n := range cfg.ns {
			for _, e := range engines {
				i++
				p.start(fmt.Sprintf("[%d/%d] %s %s N=%d", i, total, e.name(), w.name, n))
				rctx, cancel := context.WithTimeout(ctx, cfg.timeout)
				ms, err := e.run(rctx, w.src, n)
				cancel()
				if err == nil && (ms < 0 || ms != ms) {
					err = fmt.Errorf("the workload reported %v ms", ms)
				}
				if errors.Is(err, context.DeadlineExceeded) {
					err = fmt.Errorf("timed out after %v", cfg.timeout)
				}
				m := measurement{workload: w.name, unit: w.unit, n: n, engine: e.name(), err: err}
				if err == nil {
					m.usPerOp = ms * 1000 / float64(n)
				}
				p.done(m)
				out = append(out, m)
			}
		}
	}
	p.finish()
	return out
}

// lookup returns the measurement of (workload, n, engine).
func lookup(ms []measurement, workload string, n int, engine string) (measurement, bool) {
	for _, m := range ms {
		if m.workload == workload && m.n == n && m.engine == engine {
			return m, true
		}
	}
	return measurement{}, false
}

// printTable writes µs per operation for each engine and, when Chromium
// ran, the ratio chromium/e for every other engine e (how many times
// faster e is).
func printTable(w io.Writer, ms []measurement, engines []string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := "workload\tper\tN\t"
	for _, e := range engines {
		header += e + " µs/op\t"
	}
	chrome := -1
	for i, e := range engines {
		if e == "chromium" {
			chrome = i
		}
	}
	for i, e := range engines {
		if chrome >= 0 && i != chrome {
			header += "chromium/" + e + "\t"
		}
	}
	fmt.Fprintln(tw, header)
	seen := map[string]bool{}
	for _, m := range ms {
		key := fmt.Sprint(m.workload, m.n)
		if seen[key] {
			continue
		}
		seen[key] = true
		row := fmt.Sprintf("%s\t%s\t%d\t", m.workload, m.unit, m.n)
		var vals []float64
		for _, e := range engines {
			x, _ := lookup(ms, m.workload, m.n, e)
			if x.err != nil {
				row += "error\t"
				vals = append(vals, 0)
				continue
			}
			row += fmt.Sprintf("%.2f\t", x.usPerOp)
			vals = append(vals, x.usPerOp)
		}
		for i := range engines {
			if chrome < 0 || i == chrome {
				continue
			}
			if vals[i] > 0 && vals[chrome] > 0 {
				row += fmt.Sprintf("%.1f×\t", vals[chrome]/vals[i])
			} else {
				row += "-\t"
			}
		}
		fmt.Fprintln(tw, row)
	}
	tw.Flush()
	for _, m := range ms {
		if m.err != nil {
			fmt.Fprintf(w, "%s %s N=%d: %v\n", m.engine, m.workload, m.n, m.err)
		}
	}
}
