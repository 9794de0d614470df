package ipc

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/storage"
	"github.com/gowebengine/weblocks/weblocks"
)

// remoteRenderer is a RemoteService connected to a LockServer.
func (tr transport) remoteRenderer(t testing.TB, ls *LockServer, siteURL string) (*RemoteService, *Served, chan string) {
	t.Helper()
	browserEnd, rendererEnd, err := SocketPair()
	if err != nil {
		t.Fatal(err)
	}
	killed := make(chan string, 1)
	locksBrowser, locksRenderer := tr.lockPair(t)
	served := ls.ServeConn(browserEnd, Peer{Name: siteURL, Site: site(siteURL), Kill: func(r string) { killed <- r }, Locks: locksBrowser})
	conn, err := FileConn(rendererEnd)
	if err != nil {
		t.Fatal(err)
	}
	cc, err := Connect(conn)
	if err != nil {
		t.Fatal(err)
	}
	var rs *RemoteService
	if locksRenderer != nil {
		cc.Connect() // its gRPC connection is up, as a renderer's is
		rs = NewFramedRemoteService(locksRenderer, site(siteURL))
	} else {
		rs, err = NewRemoteService(cc, site(siteURL))
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rs.Close(); cc.Close(); served.Close() })
	return rs, served, killed
}

// loop is a client's event loop: delivered tasks run on it, in order.
type loop chan weblocks.Task

func (l loop) deliver(t weblocks.Task) { l <- t }

// outcome runs tasks until one delivers an outcome.
func (l loop) outcome(t *testing.T) weblocks.Outcome {
	t.Helper()
	got := make(chan weblocks.Outcome, 1)
	select {
	case task := <-l:
		d, ok := task.(*delivery)
		if !ok {
			t.Fatalf("not an outcome: %T", task)
		}
		r := d.recv
		d.recv = weblocks.ReceiverFunc(func(o weblocks.Outcome) { got <- o; r.Receive(o) })
		task.RunTask()
		return <-got
	case <-time.After(time.Minute):
		t.Fatal("nothing delivered within a minute")
	}
	return weblocks.Outcome{}
}

func benchBucket() weblocks.Bucket {
	o := origin.Parse("https://a.test")
	return weblocks.Bucket{Key: storage.StorageKey{Origin: o, TopLevelSite: origin.ObtainSite(o)}}
}

var nop = weblocks.ReceiverFunc(func(weblocks.Outcome) {})

func register(t *testing.T, s weblocks.LockService, id, originURL string) (weblocks.Client, loop) {
	t.Helper()
	l := make(loop, 64)
	o := origin.Parse(originURL)
	c, err := s.Register(weblocks.ClientConfig{ID: id, Bucket: weblocks.Bucket{Key: storage.StorageKey{Origin: o, TopLevelSite: origin.ObtainSite(o)}}, Deliver: l.deliver})
	if err != nil {
		t.Fatal(err)
	}
	return c, l
}

func query(t *testing.T, s weblocks.LockService, c weblocks.Client, l loop) string {
	t.Helper()
	if err := s.Query(c, nil, nop); err != nil {
		t.Fatal(err)
	}
	o := l.outcome(t)
	if o.Kind != weblocks.OutcomeSnapshot {
		t.Fatalf("got %v", o.Kind)
	}
	var held, pending []string
	for _, x := range o.Snapshot.Held.All() {
		held = append(held, string(x.Name)+":"+x.ClientID)
	}
	for _, x := range o.Snapshot.Pending.All() {
		pending = append(pending, string(x.Name)+":"+x.ClientID)
	}
	return strings.Join(held, ",") + "|" + strings.Join(pending, ",")
}

func TestRemoteContendFIFO(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		ls := NewLockServer(weblocks.NewService(), t.Logf)
		ra, _, _ := tr.remoteRenderer(t, ls, "https://a.test")
		rb, _, _ := tr.remoteRenderer(t, ls, "https://www.a.test")
		ca, la := register(t, ra, "env-a", "https://a.test")
		cb, lb := register(t, rb, "env-b", "https://www.a.test")
		ca2, la2 := register(t, ra, "env-a2", "https://www.a.test")
		if _, err := ra.Request(ca, "L", weblocks.Exclusive, weblocks.Wait, nop); err != nil {
			t.Fatal(err)
		}
		g := la.outcome(t)
		if g.Kind != weblocks.OutcomeGranted || g.Lock.Name() != "L" {
			t.Fatalf("%+v", g)
		}
		// Another origin of the site: another bucket.
		if _, err := ra.Request(ca2, "L", weblocks.Exclusive, weblocks.IfAvailable, nop); err != nil {
			t.Fatal(err)
		}
		if o := la2.outcome(t); o.Kind != weblocks.OutcomeGranted {
			t.Fatalf("%+v", o)
		}
		rb.Request(cb, "L", weblocks.Exclusive, weblocks.IfAvailable, nop)
		if o := lb.outcome(t); o.Kind != weblocks.OutcomeNotAvailable {
			t.Fatalf("%+v", o)
		}
		if _, err := rb.Request(cb, "M", weblocks.Shared, weblocks.Wait, nop); err != nil {
			t.Fatal(err)
		}
		lb.outcome(t)
		if got := query(t, ra, ca2, la2); got != "M:env-b,L:env-a2|" && got != "L:env-a2,M:env-b|" {
			t.Fatalf("state %s", got)
		}
		// Release, then query, from one renderer: the query sees the release.
		if err := ra.Release(g.Lock); err != nil {
			t.Fatal(err)
		}
		if err := ra.Release(g.Lock); err != nil { // idempotent
			t.Fatal(err)
		}
		if got := query(t, ra, ca2, la2); got != "L:env-a2,M:env-b|" {
			t.Fatalf("state %s", got)
		}
	})
}

func TestRemoteAbortStealTerminate(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		ls := NewLockServer(weblocks.NewService(), t.Logf)
		ra, _, _ := tr.remoteRenderer(t, ls, "https://a.test")
		rb, _, _ := tr.remoteRenderer(t, ls, "https://a.test")
		ca, la := register(t, ra, "env-a", "https://a.test")
		cb, lb := register(t, rb, "env-b", "https://a.test")
		ra.Request(ca, "L", weblocks.Exclusive, weblocks.Wait, nop)
		g := la.outcome(t)
		h, _ := rb.Request(cb, "L", weblocks.Exclusive, weblocks.Wait, nop)
		reason := errors.New("custom reason")
		if err := rb.Abort(h, reason); err != nil {
			t.Fatal(err)
		}
		if o := lb.outcome(t); o.Kind != weblocks.OutcomeAborted || o.Reason != reason {
			t.Fatalf("%+v", o)
		}
		rb.Request(cb, "L", weblocks.Exclusive, weblocks.Steal, nop)
		if o := lb.outcome(t); o.Kind != weblocks.OutcomeGranted {
			t.Fatalf("%+v", o)
		}
		o := la.outcome(t)
		var de *dom.DOMException
		if o.Kind != weblocks.OutcomeRevoked || o.Lock != g.Lock || !errors.As(o.Reason.(error), &de) || de.Name != "AbortError" {
			t.Fatalf("%+v", o)
		}
		ra.Request(ca, "L", weblocks.Exclusive, weblocks.Wait, nop)
		query(t, ra, ca, la) // queued
		if err := rb.TerminateClient(cb); err != nil {
			t.Fatal(err)
		}
		if o := lb.outcome(t); o.Kind != weblocks.OutcomeRevoked || o.Reason != weblocks.ErrClientTerminated {
			t.Fatalf("%+v", o)
		}
		if o := la.outcome(t); o.Kind != weblocks.OutcomeGranted {
			t.Fatalf("%+v", o)
		}
		if _, err := rb.Request(cb, "X", weblocks.Exclusive, weblocks.Wait, nop); err != weblocks.ErrClientTerminated {
			t.Fatalf("request of a terminated client: %v", err)
		}
	})
}

func TestRemoteBadInput(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		ls := NewLockServer(weblocks.NewService(), t.Logf)
		ra, _, _ := tr.remoteRenderer(t, ls, "https://a.test")
		rb, _, _ := tr.remoteRenderer(t, ls, "https://a.test")
		ca, _ := register(t, ra, "env-a", "https://a.test")
		local := weblocks.NewService()
		cl, _ := register(t, local, "env-l", "https://a.test")
		var nilService *RemoteService
		for _, tc := range []struct {
			err, want error
		}{
			{func() error { _, err := ra.Request(nil, "L", weblocks.Exclusive, weblocks.Wait, nop); return err }(), weblocks.ErrNilClient},
			{func() error { _, err := ra.Request(cl, "L", weblocks.Exclusive, weblocks.Wait, nop); return err }(), weblocks.ErrForeignClient},
			{func() error { _, err := rb.Request(ca, "L", weblocks.Exclusive, weblocks.Wait, nop); return err }(), weblocks.ErrForeignClient},
			{func() error { _, err := ra.Request(ca, "L", weblocks.Exclusive, weblocks.Wait, nil); return err }(), weblocks.ErrNilOutcome},
			{func() error { _, err := ra.Request(ca, "L", weblocks.Exclusive, 9, nop); return err }(), weblocks.ErrInvalidWaitMode},
			{func() error { _, err := ra.Request(ca, "L", 7, weblocks.Wait, nop); return err }(), errInvalidMode},
			{func() error {
				_, err := ra.Request(ca, weblocks.Name(strings.Repeat("x", MaxNameBytes+1)), weblocks.Exclusive, weblocks.Wait, nop)
				return err
			}(), errNameTooLong},
			{ra.Release(nil), weblocks.ErrNilHandle},
			{ra.Abort(nil, nil), weblocks.ErrNilHandle},
			{nilService.Query(ca, nil, nop), weblocks.ErrNilService},
			{ra.TerminateClient(cl), weblocks.ErrForeignClient},
		} {
			if tc.err != tc.want {
				t.Errorf("got %v, want %v", tc.err, tc.want)
			}
		}
		if _, err := ra.Register(weblocks.ClientConfig{ID: "x", Bucket: weblocks.Bucket{Key: storage.StorageKey{Origin: origin.Parse("https://b.test"), TopLevelSite: site("https://b.test")}}, Deliver: func(weblocks.Task) {}}); err == nil || !strings.Contains(err.Error(), "not of this renderer's site") {
			t.Errorf("another site's key: %v", err)
		}
		h, _ := local.Request(cl, "L", weblocks.Exclusive, weblocks.Wait, nop)
		if err := ra.Abort(h, nil); err != weblocks.ErrForeignHandle {
			t.Errorf("foreign handle: %v", err)
		}
	})
}

// TestRemoteBrowserGone: when the browser process's end closes, every
// waiting request and held lock is lost (ErrClientTerminated) and later
// calls fail.
func TestRemoteBrowserGone(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		ls := NewLockServer(weblocks.NewService(), t.Logf)
		ra, served, _ := tr.remoteRenderer(t, ls, "https://a.test")
		ca, la := register(t, ra, "env-a", "https://a.test")
		ra.Request(ca, "L", weblocks.Exclusive, weblocks.Wait, nop)
		la.outcome(t)
		ra.Request(ca, "L", weblocks.Exclusive, weblocks.Wait, nop)
		query(t, ra, ca, la)
		served.Close()
		if o := la.outcome(t); o.Kind != weblocks.OutcomeRevoked || o.Reason != weblocks.ErrClientTerminated {
			t.Fatalf("%+v", o)
		}
		if o := la.outcome(t); o.Kind != weblocks.OutcomeAborted || o.Reason != weblocks.ErrClientTerminated {
			t.Fatalf("%+v", o)
		}
		<-ra.Done()
		if _, err := ra.Request(ca, "L", weblocks.Exclusive, weblocks.Wait, nop); err != weblocks.ErrServiceClosed {
			t.Fatalf("after the end: %v", err)
		}
	})
}
