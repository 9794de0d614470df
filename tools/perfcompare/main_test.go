package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/browser"
	"github.com/gowebengine/weblocks/internal/testenv"
)

// TestMain: the go-renderer engine's renderer processes are this test
// binary.
func TestMain(m *testing.M) {
	browser.MaybeRunRenderer()
	os.Exit(m.Run())
}

func TestParseFlags(t *testing.T) {
	cfg, err := parseFlags([]string{"-n", "10, 200", "-workloads", "cycle,abort", "-engines", "go-manual", "-o", ""}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.ns) != 2 || cfg.ns[0] != 10 || cfg.ns[1] != 200 || len(cfg.workloads) != 2 || cfg.workloads[1].name != "abort" ||
		len(cfg.engines) != 1 || cfg.out != "" {
		t.Errorf("parsed %+v", cfg)
	}
	// By default the three curves: in-process, cross-process, Chromium.
	def, err := parseFlags(nil, io.Discard)
	if err != nil || strings.Join(def.engines, ",") != "go,go-renderer,chromium" {
		t.Errorf("default engines %v (%v)", def.engines, err)
	}
	for _, bad := range [][]string{
		{"-n", "0"}, {"-n", "x"}, {"-n", ""}, {"-workloads", "nope"}, {"-engines", "firefox"}, {"extra"},
	} {
		if _, err := parseFlags(bad, io.Discard); err == nil {
			t.Errorf("parseFlags(%q) accepted", bad)
		}
	}
	if _, err := parseFlags([]string{"-h"}, io.Discard); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v", err)
	}
}

// Every workload runs in both go engines at a small N and reports a
// positive cost; the progress line names each run.
func TestGoEngines(t *testing.T) {
	cfg := config{ns: []int{20}, workloads: workloads, timeout: time.Minute}
	var progressOut bytes.Buffer
	ms := compare(context.Background(), cfg, []engine{goEngine{}, goEngine{manual: true}}, newProgress(&progressOut))
	if len(ms) != 2*len(workloads) {
		t.Fatalf("%d measurements, want %d", len(ms), 2*len(workloads))
	}
	for _, m := range ms {
		if m.err != nil || m.usPerOp <= 0 {
			t.Errorf("%s %s N=%d: %v µs/op, error %v", m.engine, m.workload, m.n, m.usPerOp, m.err)
		}
		if !strings.Contains(progressOut.String(), m.engine+" "+m.workload+" N=20") {
			t.Errorf("progress output lacks %s %s: %q", m.engine, m.workload, progressOut.String())
		}
	}
}

// TestRendererEngine: every workload runs in a renderer process (this
// test binary, see TestMain) at a small N and reports a positive cost.
func TestRendererEngine(t *testing.T) {
	cfg := config{ns: []int{20}, workloads: workloads, timeout: time.Minute}
	e := newRendererEngine()
	defer e.close()
	ms := compare(context.Background(), cfg, []engine{e}, newProgress(io.Discard))
	if len(ms) != len(workloads) {
		t.Fatalf("%d measurements, want %d", len(ms), len(workloads))
	}
	for _, m := range ms {
		if m.err != nil || m.usPerOp <= 0 || m.engine != "go-renderer" {
			t.Errorf("%s %s N=%d: %v µs/op, error %v", m.engine, m.workload, m.n, m.usPerOp, m.err)
		}
	}
}

// A workload that fails or never finishes is reported as an error, not
// as a cost.
func TestFailingWorkload(t *testing.T) {
	for _, e := range []engine{goEngine{}, goEngine{manual: true}} {
		bad := []workload{
			{name: "throws", unit: "op", src: `async (N, now) => { throw new Error('boom'); }`},
			{name: "hangs", unit: "op", src: `async (N, now) => { await new Promise(() => {}); }`},
		}
		ms := compare(context.Background(), config{ns: []int{5}, workloads: bad, timeout: 2 * time.Second}, []engine{e}, nil)
		for _, m := range ms {
			if m.err == nil {
				t.Errorf("%s %s: no error (%v µs/op)", e.name(), m.workload, m.usPerOp)
			}
		}
		if !strings.Contains(ms[0].err.Error(), "boom") {
			t.Errorf("%s: error %v does not carry the exception", e.name(), ms[0].err)
		}
	}
}

func TestTable(t *testing.T) {
	ms := []measurement{
		{workload: "cycle", unit: "request", n: 1000, engine: "go", usPerOp: 5},
		{workload: "cycle", unit: "request", n: 1000, engine: "chromium", usPerOp: 150},
		{workload: "query", unit: "entry", n: 1000, engine: "go", err: errors.New("timed out")},
		{workload: "query", unit: "entry", n: 1000, engine: "chromium", usPerOp: 40},
	}
	var out bytes.Buffer
	printTable(&out, ms, []string{"go", "chromium"})
	for _, want := range []string{"chromium/go", "5.00", "150.00", "30.0×", "error", "go query N=1000: timed out"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

// The quick end-to-end run: small N, the go engine and Chromium side by
// side, a table with ratios and both plot formats.
func TestWithChromium(t *testing.T) {
	path := testenv.Chromium(t)
	cfg, err := parseFlags([]string{"-n", "10,30", "-workloads", "cycle,query,abort", "-engines", "go,chromium", "-chromium", path}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	engines, err := startEngines(cfg, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, e := range engines {
			e.close()
		}
	}()
	if len(engines) != 2 {
		t.Fatalf("engines %v, want go and chromium", engineNames(engines))
	}
	ms := compare(context.Background(), cfg, engines, nil)
	for _, m := range ms {
		if m.err != nil || m.usPerOp <= 0 {
			t.Errorf("%s %s N=%d: %v µs/op, error %v", m.engine, m.workload, m.n, m.usPerOp, m.err)
		}
	}
	var out bytes.Buffer
	printTable(&out, ms, engineNames(engines))
	if !strings.Contains(out.String(), "chromium/go") || strings.Count(out.String(), "×") != 6 {
		t.Errorf("table:\n%s", out.String())
	}
	dir := t.TempDir()
	for _, name := range []string{"plot.svg", "plot.png"} {
		p := filepath.Join(dir, name)
		if err := writePlot(p, ms, engineNames(engines)); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		svg := bytes.Contains(data[:min(len(data), 200)], []byte("<svg"))
		png := bytes.HasPrefix(data, []byte("\x89PNG"))
		if (name == "plot.svg" && !svg) || (name == "plot.png" && !png) {
			t.Errorf("%s is not the expected format (%d bytes)", name, len(data))
		}
	}
}
