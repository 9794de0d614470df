package fetch

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestFedBody: the chunks pushed into a feed reach the body's subscribers
// in order while the feed is open, each Push's next runs once its chunk
// was read, and the end ends the load; canceling it (the fetch's context
// ending first) stops the load with the context's error and tells the
// producer once.
func TestFedBody(t *testing.T) {
	b, feed := NewFedBody(func(error) { t.Error("canceled after a clean end") })
	got := make(chan string, 4)
	sofar, ended, _ := b.Subscribe(func(c []byte) { got <- string(c) }, func(err error) {
		if err != nil {
			t.Errorf("end: %v", err)
		}
		close(got)
	})
	if len(sofar) != 0 || ended {
		t.Fatalf("Subscribe = %q, %v", sofar, ended)
	}
	go b.Load()
	read := make(chan struct{})
	feed.Push([]byte("one"), func() { close(read) })
	if c := <-got; c != "one" {
		t.Fatalf("first chunk %q", c)
	}
	<-read // next ran: the producer may give the next chunk
	if b.Loaded() {
		t.Fatal("the body ended while its feed is open")
	}
	feed.Push(nil, nil) // an empty chunk is no chunk
	feed.Push([]byte("two"), nil)
	feed.End(nil)
	var rest []string
	for c := range got {
		rest = append(rest, c)
	}
	if len(rest) != 1 || rest[0] != "two" {
		t.Fatalf("later chunks %q", rest)
	}
	if data, err := b.Result(); string(data) != "onetwo" || err != nil {
		t.Fatalf("Result = %q, %v", data, err)
	}
	if feed.Push([]byte("late"), nil) {
		t.Error("Push after End accepted a chunk")
	}

	// Canceled by the fetch's context while open.
	canceled := make(chan error, 2)
	b, feed = NewFedBody(func(err error) { canceled <- err })
	ctx, cancel := context.WithCancel(context.Background())
	b.CancelWhenDone(ctx)
	loaded := make(chan struct{})
	b.OnLoad(func() { close(loaded) })
	go b.Load()
	feed.Push([]byte("partial"), nil)
	cancel()
	select {
	case <-loaded:
	case <-time.After(10 * time.Second):
		t.Fatal("the load did not end with the context")
	}
	if _, err := b.Result(); !errors.Is(err, context.Canceled) {
		t.Errorf("Result error %v, want context.Canceled", err)
	}
	if err := <-canceled; !errors.Is(err, context.Canceled) {
		t.Errorf("onCancel got %v", err)
	}
	feed.Cancel(nil)
	select {
	case err := <-canceled:
		t.Errorf("onCancel ran twice (%v)", err)
	default:
	}
	if feed.Push([]byte("after"), nil) {
		t.Error("Push after a cancel accepted a chunk")
	}
}
