package eventsource

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/origin"
)

type testHost struct {
	tasks  chan func()
	net    fetch.Network
	events []string
	ev     *EventSource
}

func (h *testHost) QueueTask(steps func()) bool { h.tasks <- steps; return true }
func (h *testHost) StartFetch(ctx context.Context, p *fetch.Params, done func(*fetch.Response)) {
	p.Network = h.net
	go func() {
		resp := fetch.Fetch(ctx, p)
		done(resp)
		resp.Load()
	}()
}
func (h *testHost) FireEvent(typ string, e *Event, origin string) {
	s := typ
	if e != nil {
		s = fmt.Sprintf("%s(%s,%s,%s)", typ, e.Data, e.LastEventID, origin)
	}
	h.events = append(h.events, s)
}

// runUntil runs tasks until n events were fired.
func (h *testHost) runUntil(t *testing.T, n int) {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for len(h.events) < n {
		select {
		case task := <-h.tasks:
			task()
		case <-deadline:
			t.Fatalf("events %v, waiting for %d", h.events, n)
		}
	}
}

func start(t *testing.T, net fetch.Network, withCredentials bool) *testHost {
	h := &testHost{tasks: make(chan func(), 1024), net: net}
	u, _ := url.Parse("https://a.test/stream")
	o := origin.Parse("https://a.test")
	h.ev = New(h, Client{Fetch: &fetch.Client{Origin: o, URL: u}, Origin: o}, u, withCredentials)
	return h
}

func TestReconnectWithLastEventID(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	net := fetch.NetworkFunc(func(ctx context.Context, req *fetch.NetworkRequest) (*fetch.NetworkResponse, error) {
		mu.Lock()
		seen = append(seen, req.Header.Get("Accept")+"|"+req.Header.Get("Last-Event-ID"))
		n := len(seen)
		mu.Unlock()
		body := "retry: 10\nid: 5\ndata: one\n\n"
		if n > 1 {
			body = "data: two\n\n"
		}
		return &fetch.NetworkResponse{Status: 200, Header: http.Header{"Content-Type": {"text/event-stream; charset=utf-8"}}, Body: []byte(body)}, nil
	})
	h := start(t, net, false)
	if h.ev.ReadyState() != Connecting {
		t.Fatalf("readyState %v", h.ev.ReadyState())
	}
	h.runUntil(t, 6)
	want := "open message(one,5,https://a.test) error open message(two,5,https://a.test) error"
	if got := strings.Join(h.events[:6], " "); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
	mu.Lock()
	if len(seen) < 2 || seen[0] != "text/event-stream|" || seen[1] != "text/event-stream|5" {
		t.Errorf("requests (Accept|Last-Event-ID): %q", seen)
	}
	mu.Unlock()
	if h.ev.ReconnectionTime != 10*time.Millisecond {
		t.Errorf("reconnection time %v", h.ev.ReconnectionTime)
	}
	h.ev.Close()
	if h.ev.ReadyState() != Closed {
		t.Errorf("readyState after close %v", h.ev.ReadyState())
	}
}

func TestFailTheConnection(t *testing.T) {
	for _, tc := range []struct {
		status int
		ct     string
	}{{404, "text/event-stream"}, {200, "text/plain"}, {204, ""}} {
		net := fetch.NetworkFunc(func(ctx context.Context, req *fetch.NetworkRequest) (*fetch.NetworkResponse, error) {
			return &fetch.NetworkResponse{Status: tc.status, Header: http.Header{"Content-Type": {tc.ct}}, Body: []byte("data: x\n\n")}, nil
		})
		h := start(t, net, false)
		h.runUntil(t, 1)
		if h.events[0] != "error" || h.ev.ReadyState() != Closed {
			t.Errorf("%d %q: events %v, readyState %v", tc.status, tc.ct, h.events, h.ev.ReadyState())
		}
	}
	// A network error reestablishes the connection (CONNECTING).
	calls := 0
	net := fetch.NetworkFunc(func(ctx context.Context, req *fetch.NetworkRequest) (*fetch.NetworkResponse, error) {
		calls++
		return nil, errors.New("refused")
	})
	h := start(t, net, true)
	h.runUntil(t, 1)
	if h.events[0] != "error" || h.ev.ReadyState() != Connecting {
		t.Errorf("network error: events %v, readyState %v", h.events, h.ev.ReadyState())
	}
	h.ev.Close()
}

func TestCrossOriginCredentials(t *testing.T) {
	// Access-Control-Allow-Origin: * with credentials is a CORS failure:
	// a network error, so the connection is reestablished; without
	// credentials it opens.
	net := fetch.NetworkFunc(func(ctx context.Context, req *fetch.NetworkRequest) (*fetch.NetworkResponse, error) {
		return &fetch.NetworkResponse{Status: 200, Header: http.Header{"Content-Type": {"text/event-stream"}, "Access-Control-Allow-Origin": {"*"}},
			Body: []byte("data: x\n\n")}, nil
	})
	for _, cred := range []bool{false, true} {
		h := &testHost{tasks: make(chan func(), 1024), net: net}
		u, _ := url.Parse("https://b.test/stream")
		o := origin.Parse("https://a.test")
		h.ev = New(h, Client{Fetch: &fetch.Client{Origin: o, URL: u}, Origin: o}, u, cred)
		h.runUntil(t, 1)
		if got := h.events[0]; (got == "open") == cred {
			t.Errorf("withCredentials %v: first event %s", cred, got)
		}
		h.ev.Close()
	}
}
