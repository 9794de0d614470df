package bindings

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// fakeHost is a deterministic single-goroutine event loop for testing the
// realm core without the html package: tasks run when the test steps them;
// timers use a fake clock that only Advance moves.
type fakeHost struct {
	tasks    []func()
	clock    time.Duration
	timers   []fakeTimer
	seq      int
	realm    *Realm
	executed int
}

type fakeTimer struct {
	at    time.Duration
	seq   int
	steps func()
}

func (h *fakeHost) queueTask(_ string, steps func()) bool {
	h.tasks = append(h.tasks, steps)
	return true
}

func (h *fakeHost) startTimer(ms uint64, steps func()) func() {
	h.seq++
	seq := h.seq
	h.timers = append(h.timers, fakeTimer{at: h.clock + time.Duration(ms)*time.Millisecond, seq: seq, steps: steps})
	return func() {
		for i, t := range h.timers {
			if t.seq == seq {
				h.timers = append(h.timers[:i], h.timers[i+1:]...)
				return
			}
		}
	}
}

func (h *fakeHost) now() time.Duration { return h.clock }

// runTasks runs queued tasks (and the microtask checkpoint after each)
// until none is left.
func (h *fakeHost) runTasks() {
	for len(h.tasks) > 0 {
		t := h.tasks[0]
		h.tasks = h.tasks[1:]
		t()
		h.executed++
		if h.realm != nil {
			h.realm.microtaskCheckpoint()
		}
	}
}

// advance moves the clock to the next due timer(s) up to d ahead, running
// tasks in between.
func (h *fakeHost) advance(d time.Duration) {
	end := h.clock + d
	for {
		h.runTasks()
		sort.SliceStable(h.timers, func(i, j int) bool {
			if h.timers[i].at != h.timers[j].at {
				return h.timers[i].at < h.timers[j].at
			}
			return h.timers[i].seq < h.timers[j].seq
		})
		if len(h.timers) == 0 || h.timers[0].at > end {
			break
		}
		t := h.timers[0]
		h.timers = h.timers[1:]
		if t.at > h.clock {
			h.clock = t.at
		}
		h.tasks = append(h.tasks, t.steps)
	}
	h.clock = end
	h.runTasks()
}

func newFakeRealm(t *testing.T, kind GlobalKind) (*Realm, *fakeHost, *strings.Builder) {
	t.Helper()
	h := &fakeHost{}
	var out strings.Builder
	r := newRealm(h, kind, Options{ConsoleWriter: &out})
	r.installTimers()
	h.realm = r
	return r, h, &out
}

func TestFakeTimersOrderAndArgs(t *testing.T) {
	r, h, out := newFakeRealm(t, WindowGlobal)
	r.QueueScript("t.js", `
		setTimeout((a, b) => console.log("t10", a, b), 10, "x", 2);
		setTimeout(() => console.log("t0"));
		const id = setTimeout(() => console.log("never"), 5);
		clearTimeout(id);
		let n = 0;
		const iv = setInterval(() => { console.log("iv", ++n); if (n === 3) clearInterval(iv); }, 3);
		queueMicrotask(() => console.log("micro"));
		Promise.resolve().then(() => console.log("then"));
		console.log("sync");
	`, func(err error) {
		if err != nil {
			t.Errorf("script: %v", err)
		}
	})
	h.advance(100 * time.Millisecond)
	want := "log: sync\nlog: micro\nlog: then\nlog: t0\nlog: iv 1\nlog: iv 2\nlog: iv 3\nlog: t10 x 2\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
	_ = goja.Undefined()
}
