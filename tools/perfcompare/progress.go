package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// progress keeps one status line on a terminal-like writer: the run under
// way and how long it has taken so far (refreshed every half second, so
// long runs show that they are alive), then each finished run's result.
type progress struct {
	w       io.Writer
	mu      sync.Mutex
	label   string
	started time.Time
	stop    chan struct{}
	wg      sync.WaitGroup
}

// newProgress returns a progress line on w (nil: no output).
func newProgress(w io.Writer) *progress { return &progress{w: w} }

func (p *progress) start(label string) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	p.label, p.started = label, time.Now()
	p.mu.Unlock()
	p.draw()
	if p.stop == nil {
		p.stop = make(chan struct{})
		p.wg.Add(1)
		go p.tick()
	}
}

func (p *progress) tick() {
	defer p.wg.Done()
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.draw()
		}
	}
}

func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.label == "" {
		return
	}
	fmt.Fprintf(p.w, "\r\033[K%s  %.1fs", p.label, time.Since(p.started).Seconds())
}

func (p *progress) done(m measurement) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	res := fmt.Sprintf("%.2f µs/%s", m.usPerOp, m.unit)
	if m.err != nil {
		res = "error: " + m.err.Error()
	}
	fmt.Fprintf(p.w, "\r\033[K%s  %s (%.1fs)\n", p.label, res, time.Since(p.started).Seconds())
	p.label = ""
}

func (p *progress) finish() {
	if p == nil || p.stop == nil {
		return
	}
	close(p.stop)
	p.wg.Wait()
	p.stop = nil
}
