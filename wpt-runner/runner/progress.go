package runner

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/gowebengine/weblocks/wpt-runner/product"
)

// progress prints one status line, rewritten in place on a terminal and
// printed every few seconds otherwise.
type progress struct {
	mu        sync.Mutex
	w         io.Writer
	tty       bool
	total     int
	finished  int
	running   map[string]string // product -> latest test started
	lastPrint time.Time
	width     int
}

func newProgress(w io.Writer, total int) *progress {
	tty := false
	if f, ok := w.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	return &progress{w: w, tty: tty, total: total, running: map[string]string{}}
}

func (p *progress) line() string {
	s := fmt.Sprintf("[%d/%d]", p.finished, p.total)
	for _, name := range []string{"go", "chromium"} {
		if t, ok := p.running[name]; ok {
			s += fmt.Sprintf(" %s: %s", name, t)
		}
	}
	for name, t := range p.running {
		if name != "go" && name != "chromium" {
			s += fmt.Sprintf(" %s: %s", name, t)
		}
	}
	return s
}

func (p *progress) print(force bool) {
	if p.tty {
		l := p.line()
		if len(l) > 150 {
			l = l[:150]
		}
		pad := p.width - len(l)
		if pad < 0 {
			pad = 0
		}
		fmt.Fprintf(p.w, "\r%s%*s", l, pad, "")
		p.width = len(l)
		return
	}
	if force || time.Since(p.lastPrint) > 5*time.Second {
		fmt.Fprintln(p.w, p.line())
		p.lastPrint = time.Now()
	}
}

func (p *progress) started(productName, test string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running[productName] = test
	p.print(false)
}

func (p *progress) done(productName, test string, res product.TestResult) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finished++
	if res.Status == product.CRASH || (res.Status == product.TIMEOUT && res.Message != "") {
		p.clear()
		fmt.Fprintf(p.w, "%s %s: %s %s\n", productName, test, res.Status, res.Message)
	}
	p.print(p.finished == p.total)
}

func (p *progress) clear() {
	if p.tty && p.width > 0 {
		fmt.Fprintf(p.w, "\r%*s\r", p.width, "")
		p.width = 0
	}
}

func (p *progress) log(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	fmt.Fprintf(p.w, format+"\n", args...)
}

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.width > 0 {
		fmt.Fprintln(p.w)
		p.width = 0
	}
}
