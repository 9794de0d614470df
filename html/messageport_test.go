package html

import (
	"sync"
	"testing"
)

func msg(s string) SerializedWithTransfer {
	return SerializedWithTransfer{Serialized: &SerializedRecord{Kind: SerializedString, String: s}}
}

// portSink collects a port's deliveries; tasks run at once.
type portSink struct {
	mu  sync.Mutex
	got []string
}

func (s *portSink) attach(p *MessagePort) {
	p.Attach(func(steps func()) bool { steps(); return true }, func(m SerializedWithTransfer) {
		s.mu.Lock()
		s.got = append(s.got, m.Serialized.String)
		s.mu.Unlock()
	})
}

func (s *portSink) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.got
	s.got = nil
	return g
}

func TestMessagePortQueue(t *testing.T) {
	a, b := NewMessageChannel()
	if a.Entangled() != b || b.Entangled() != a {
		t.Fatal("not entangled")
	}
	var sb portSink
	sb.attach(b)
	a.PostMessage(msg("1"))
	a.PostMessage(msg("2"))
	if got := sb.take(); len(got) != 0 {
		t.Fatalf("delivered before start: %v", got)
	}
	b.Start()
	if got := sb.take(); len(got) != 2 || got[0] != "1" || got[1] != "2" {
		t.Fatalf("got %v", got)
	}
	// Shipping keeps queued messages for the next owner, disabled again.
	b.Ship()
	a.PostMessage(msg("3"))
	var sb2 portSink
	sb2.attach(b)
	if got := sb2.take(); len(got) != 0 {
		t.Fatalf("shipped port delivered before start: %v", got)
	}
	b.Start()
	if got := sb2.take(); len(got) != 1 || got[0] != "3" {
		t.Fatalf("got %v", got)
	}
	// Closing disentangles both sides; later posts are dropped.
	a.Close()
	if a.Entangled() != nil || b.Entangled() != nil || !a.Closed() {
		t.Fatal("still entangled after close")
	}
	b.PostMessage(msg("lost"))
	a.PostMessage(msg("lost"))
	if got := sb2.take(); len(got) != 0 {
		t.Fatalf("got %v", got)
	}
}

// Ports of different agents post concurrently without races or deadlocks.
func TestMessagePortConcurrent(t *testing.T) {
	a, b := NewMessageChannel()
	var sa, sb portSink
	sa.attach(a)
	sb.attach(b)
	a.Start()
	b.Start()
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				a.PostMessage(msg("x"))
			}
		}()
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				b.PostMessage(msg("y"))
			}
		}()
	}
	wg.Wait()
	if na, nb := len(sa.take()), len(sb.take()); na != 400 || nb != 400 {
		t.Fatalf("delivered %d, %d", na, nb)
	}
	c, d := NewMessageChannel()
	wg.Add(2)
	go func() { defer wg.Done(); Entangle(a, d) }()
	go func() { defer wg.Done(); Entangle(c, b) }()
	wg.Wait()
}
