package html

import (
	"bytes"
	"net/url"
	"runtime"
	"strconv"
	"testing"
	"time"
)

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func mustOpen(t testing.TB, ua *UserAgent, s string) *Document {
	t.Helper()
	d, err := ua.OpenWindowURL(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustChild(t testing.TB, d *Document, s string, opts ChildNavigableOptions) *Document {
	t.Helper()
	c, err := d.CreateChildNavigableURL(s, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// stackGoid is the goroutine id parsed from runtime.Stack (slow, but from the
// runtime itself).
func stackGoid() uint64 {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	b := bytes.TrimPrefix(buf[:n], []byte("goroutine "))
	b = b[:bytes.IndexByte(b, ' ')]
	id, _ := strconv.ParseUint(string(b), 10, 64)
	return id
}

// waitFor polls cond for up to 60 s (a bound for a broken build, not a
// timing assumption: on a loaded 2-core machine events take a while).
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

func manualUA() (*ManualScheduler, *UserAgent) {
	ms := NewManualScheduler()
	return ms, NewUserAgent(WithScheduler(ms))
}

func runtimeGoroutines() int { return runtime.NumGoroutine() }

// testTaskSource is the task source of the tests' tasks.
var testTaskSource = NewTaskSource("test")

// testQueueSlot holds each user agent's test parallel queue (what the tests
// used the Web Locks lock task queue for before it moved to weblocks).
var testQueueSlot = NewSlot[*ParallelQueue]()

// testQueue is a user agent's one parallel queue for tests, started on
// first use.
func testQueue(ua *UserAgent) *ParallelQueue {
	return testQueueSlot.GetOrInit(ua, func() *ParallelQueue { return ua.StartANewNamedParallelQueue("test queue") })
}
