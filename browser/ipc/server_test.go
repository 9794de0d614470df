package ipc

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/browser/ipc/lockspb"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/weblocks"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// rawRenderer is a renderer speaking the wire protocol by hand (a hostile
// one can send anything).
type rawRenderer struct {
	t      *testing.T
	served *Served
	cc     *grpc.ClientConn
	locks  *FramedConn // its ends of the lock socket pairs (framed)
	stream clientStream
	events chan *lockspb.Event
	end    chan error // the session's end (Recv's error)
	killed chan string
}

func site(s string) origin.Site { return origin.ObtainSite(origin.Parse(s)) }

// transport is the lock session's transport a test runs on.
type transport bool

const (
	grpcSession   transport = false
	framedSession transport = true
)

// eachTransport runs f on a gRPC session and on a framed one.
func eachTransport(t *testing.T, f func(t *testing.T, tr transport)) {
	t.Run("grpc", func(t *testing.T) { f(t, grpcSession) })
	t.Run("framed", func(t *testing.T) { f(t, framedSession) })
}

// lockPair returns the lock socket pairs of a renderer served on tr: the
// browser process's ends (Peer.Locks) and the renderer's (nil, nil on
// gRPC).
func (tr transport) lockPair(t testing.TB) (*FramedConn, *FramedConn) {
	if tr == grpcSession {
		return nil, nil
	}
	browserEnds, calls, events, err := NewFramedPair()
	if err != nil {
		t.Fatal(err)
	}
	rendererEnds, err := FramedConnFromFiles(calls, events)
	if err != nil {
		t.Fatal(err)
	}
	return browserEnds, rendererEnds
}

// blockingFramed is a framed session whose sends wait for the socket (a
// hostile renderer sends as fast as the browser process reads).
type blockingFramed struct{ *framedClientStream }

func (b blockingFramed) Send(c *lockspb.Call) error {
	buf, err := appendFrame(nil, c, 0, 1<<30)
	if err != nil {
		return err
	}
	return b.c.out.writeAll(buf)
}

func (tr transport) newRaw(t *testing.T, ls *LockServer, siteURL string, maxOutstanding int) *rawRenderer {
	t.Helper()
	return tr.newRawPeer(t, ls, Peer{Site: site(siteURL), MaxOutstanding: maxOutstanding}, true)
}

// newRawPeer is newRaw with the renderer's Peer (Name and Kill are the
// test's); a renderer that does not read never receives its events.
func (tr transport) newRawPeer(t *testing.T, ls *LockServer, p Peer, read bool) *rawRenderer {
	t.Helper()
	browserEnd, rendererEnd, err := SocketPair()
	if err != nil {
		t.Fatal(err)
	}
	conn, err := FileConn(rendererEnd)
	if err != nil {
		t.Fatal(err)
	}
	r := &rawRenderer{t: t, events: make(chan *lockspb.Event, 1024), end: make(chan error, 1), killed: make(chan string, 1)}
	p.Name = "test renderer " + p.Site.Serialize()
	p.Kill = func(reason string) { r.killed <- reason }
	p.Locks, r.locks = tr.lockPair(t)
	r.served = ls.ServeConn(browserEnd, p)
	r.cc, err = Connect(conn)
	if err != nil {
		t.Fatal(err)
	}
	if r.locks != nil {
		r.cc.Connect() // its gRPC connection is up, as a renderer's is
		r.stream = blockingFramed{newFramedClientStream(r.locks)}
	} else if r.stream, err = lockspb.NewLockServiceClient(r.cc).Session(context.Background()); err != nil {
		t.Fatal(err)
	}
	go func() {
		if !read {
			return
		}
		for {
			ev, err := r.stream.Recv()
			if err != nil {
				r.end <- err
				close(r.events)
				return
			}
			r.events <- ev
		}
	}()
	t.Cleanup(func() { r.close(); r.served.Close() })
	return r
}

// close closes the renderer's end of its connections (it is gone).
func (r *rawRenderer) close() {
	r.cc.Close()
	if r.locks != nil {
		r.locks.Close()
	}
}

func (r *rawRenderer) send(c *lockspb.Call) {
	r.t.Helper()
	if err := r.stream.Send(c); err != nil {
		r.t.Fatalf("send: %v", err)
	}
}

func (r *rawRenderer) register(client uint64, id, originURL string) {
	r.send(&lockspb.Call{Call: &lockspb.Call_Register{Register: &lockspb.Register{Client: client, Id: id,
		Key: &lockspb.StorageKey{Origin: originURL, TopLevelSite: originURL}}}})
}

func (r *rawRenderer) request(client, req uint64, name string, mode lockspb.Mode, wait lockspb.WaitMode) {
	r.send(&lockspb.Call{Call: &lockspb.Call_Request{Request: &lockspb.Request{Client: client, Request: req, Name: []byte(name), Mode: mode, Wait: wait}}})
}

func (r *rawRenderer) next() *lockspb.Event {
	r.t.Helper()
	select {
	case ev, ok := <-r.events:
		if !ok {
			r.t.Fatalf("session ended: %v", <-r.end)
		}
		return ev
	case <-time.After(time.Minute):
		r.t.Fatal("no event within a minute")
	}
	return nil
}

func (r *rawRenderer) outcome() *lockspb.Outcome {
	r.t.Helper()
	o := r.next().GetOutcome()
	if o == nil {
		r.t.Fatal("not an outcome")
	}
	return o
}

// refused waits for the session to end with code, and for the kill.
func (r *rawRenderer) refused(code codes.Code, want string) {
	r.t.Helper()
	timeout := time.After(2 * time.Minute)
drain:
	for {
		select {
		case _, ok := <-r.events:
			if !ok {
				break drain
			}
		case <-timeout:
			r.t.Fatalf("the session was not refused (want %v %q)", code, want)
		}
	}
	err := <-r.end
	if status.Code(err) != code || !strings.Contains(status.Convert(err).Message(), want) {
		r.t.Fatalf("session ended with %v, want %v containing %q", err, code, want)
	}
	select {
	case <-r.killed:
	case <-time.After(time.Minute):
		r.t.Fatal("the renderer was not killed")
	}
}

func (r *rawRenderer) query(client, id uint64) *lockspb.Snapshot {
	r.t.Helper()
	r.send(&lockspb.Call{Call: &lockspb.Call_Query{Query: &lockspb.Query{Client: client, Query: id}}})
	s := r.next().GetSnapshot()
	if s == nil || s.Query != id {
		r.t.Fatalf("want snapshot %d, got %v", id, s)
	}
	return s
}

func clientIDs(l []*lockspb.LockInfo) []string {
	var out []string
	for _, x := range l {
		out = append(out, string(x.Name)+":"+x.ClientId)
	}
	return out
}

const (
	excl = lockspb.Mode_MODE_EXCLUSIVE
	wait = lockspb.WaitMode_WAIT_MODE_WAIT
)

func TestSessionsContendFIFO(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		ls := NewLockServer(weblocks.NewService(), t.Logf)
		a := tr.newRaw(t, ls, "https://a.test", 0)
		b := tr.newRaw(t, ls, "https://a.test", 0)
		a.register(1, "env-a", "https://a.test")
		b.register(1, "env-b", "https://a.test")
		a.request(1, 1, "L", excl, wait)
		g := a.outcome()
		if g.Kind != lockspb.OutcomeKind_OUTCOME_KIND_GRANTED || g.Request != 1 {
			t.Fatalf("a: %v", g)
		}
		b.request(1, 1, "L", excl, wait)
		b.query(1, 1) // b's request is queued (one session's calls are ordered)
		a.request(1, 2, "L", excl, wait)
		a.query(1, 1)
		s := b.query(1, 2)
		if got := strings.Join(clientIDs(s.Held), ","); got != "L:env-a" {
			t.Fatalf("held %s", got)
		}
		if got := strings.Join(clientIDs(s.Pending), ","); got != "L:env-b,L:env-a" {
			t.Fatalf("pending %s", got)
		}
		a.send(&lockspb.Call{Call: &lockspb.Call_Release{Release: &lockspb.Release{Lock: g.Lock}}})
		if o := b.outcome(); o.Kind != lockspb.OutcomeKind_OUTCOME_KIND_GRANTED {
			t.Fatalf("b: %v", o)
		}
		s = a.query(1, 2)
		if got := strings.Join(clientIDs(s.Held), ",") + "|" + strings.Join(clientIDs(s.Pending), ","); got != "L:env-b|L:env-a" {
			t.Fatalf("state %s", got)
		}
	})
}

func TestSessionEndReleases(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		ls := NewLockServer(weblocks.NewService(), t.Logf)
		a := tr.newRaw(t, ls, "https://a.test", 0)
		b := tr.newRaw(t, ls, "https://a.test", 0)
		a.register(1, "env-a", "https://a.test")
		b.register(1, "env-b", "https://a.test")
		a.request(1, 1, "L", excl, wait)
		a.outcome()
		b.request(1, 1, "L", excl, wait)
		b.query(1, 1) // b's request is queued
		// The holder's renderer goes away (its connection closes).
		a.close()
		if o := b.outcome(); o.Kind != lockspb.OutcomeKind_OUTCOME_KIND_GRANTED {
			t.Fatalf("b: %v", o)
		}
		<-a.served.Done()
		s := b.query(1, 2)
		if got := strings.Join(clientIDs(s.Held), ",") + "|" + strings.Join(clientIDs(s.Pending), ","); got != "L:env-b|" {
			t.Fatalf("state %s", got)
		}
		// The dead renderer's environment id is free again.
		c := tr.newRaw(t, ls, "https://a.test", 0)
		c.register(1, "env-a", "https://a.test")
		c.query(1, 1)
	})
}

func TestStealAcrossSessions(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		ls := NewLockServer(weblocks.NewService(), t.Logf)
		a := tr.newRaw(t, ls, "https://a.test", 0)
		b := tr.newRaw(t, ls, "https://a.test", 0)
		a.register(1, "env-a", "https://a.test")
		b.register(1, "env-b", "https://a.test")
		a.request(1, 1, "L", excl, wait)
		g := a.outcome()
		b.request(1, 1, "L", excl, lockspb.WaitMode_WAIT_MODE_STEAL)
		if o := b.outcome(); o.Kind != lockspb.OutcomeKind_OUTCOME_KIND_GRANTED {
			t.Fatalf("b: %v", o)
		}
		o := a.outcome()
		if o.Kind != lockspb.OutcomeKind_OUTCOME_KIND_REVOKED || o.Lock != g.Lock || o.Reason.GetName() != "AbortError" {
			t.Fatalf("a: %v", o)
		}
		// Releasing the stolen lock does nothing (and is no violation).
		a.send(&lockspb.Call{Call: &lockspb.Call_Release{Release: &lockspb.Release{Lock: g.Lock}}})
		a.query(1, 1)
	})
}

func TestAbortCall(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		ls := NewLockServer(weblocks.NewService(), t.Logf)
		a := tr.newRaw(t, ls, "https://a.test", 0)
		a.register(1, "env-a", "https://a.test")
		a.request(1, 1, "L", excl, wait)
		a.outcome()
		a.request(1, 2, "L", excl, wait)
		a.send(&lockspb.Call{Call: &lockspb.Call_Abort{Abort: &lockspb.Abort{Request: 2}}})
		o := a.outcome()
		if o.Kind != lockspb.OutcomeKind_OUTCOME_KIND_ABORTED || o.Request != 2 || o.Reason.GetKind() != lockspb.Reason_KIND_ABORT_CALL {
			t.Fatalf("%v", o)
		}
		// Aborting a granted or finished request does nothing.
		a.send(&lockspb.Call{Call: &lockspb.Call_Abort{Abort: &lockspb.Abort{Request: 1}}})
		a.send(&lockspb.Call{Call: &lockspb.Call_Abort{Abort: &lockspb.Abort{Request: 2}}})
		if s := a.query(1, 1); len(s.Held) != 1 || len(s.Pending) != 0 {
			t.Fatalf("%v", s)
		}
	})
}

// TestForgedCalls: a renderer naming what is not its own, or sending a
// malformed call, is refused and killed; the other renderers keep going.
func TestForgedCalls(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		cases := []struct {
			name string
			code codes.Code
			want string
			do   func(bad, victim *rawRenderer, victimLock uint64)
		}{
			{"another renderer's lock", codes.PermissionDenied, "was not granted to this renderer", func(bad, _ *rawRenderer, lock uint64) {
				bad.send(&lockspb.Call{Call: &lockspb.Call_Release{Release: &lockspb.Release{Lock: lock}}})
			}},
			{"another renderer's client", codes.PermissionDenied, "not registered by this renderer", func(bad, _ *rawRenderer, _ uint64) {
				bad.request(7, 2, "L", excl, wait)
			}},
			{"another renderer's environment id", codes.PermissionDenied, "belongs to a client of another renderer", func(bad, _ *rawRenderer, _ uint64) {
				bad.register(2, "env-victim", "https://a.test")
			}},
			{"another site's bucket", codes.PermissionDenied, "storage key of https://b.test", func(bad, _ *rawRenderer, _ uint64) {
				bad.register(2, "env-x", "https://b.test")
			}},
			{"bad mode", codes.InvalidArgument, "bad lock mode", func(bad, _ *rawRenderer, _ uint64) {
				bad.request(1, 2, "L", lockspb.Mode(9), wait)
			}},
			{"bad wait mode", codes.InvalidArgument, "bad wait mode", func(bad, _ *rawRenderer, _ uint64) {
				bad.request(1, 2, "L", excl, lockspb.WaitMode_WAIT_MODE_UNSPECIFIED)
			}},
			{"steal shared", codes.InvalidArgument, "steal with a shared lock", func(bad, _ *rawRenderer, _ uint64) {
				bad.request(1, 2, "L", lockspb.Mode_MODE_SHARED, lockspb.WaitMode_WAIT_MODE_STEAL)
			}},
			{"reserved name", codes.InvalidArgument, "starting with '-'", func(bad, _ *rawRenderer, _ uint64) {
				bad.request(1, 2, "-L", excl, wait)
			}},
			{"name too long", codes.InvalidArgument, "over the limit", func(bad, _ *rawRenderer, _ uint64) {
				bad.request(1, 2, strings.Repeat("x", MaxNameBytes+1), excl, wait)
			}},
			{"reused request id", codes.InvalidArgument, "not a new one", func(bad, _ *rawRenderer, _ uint64) {
				bad.request(1, 2, "A", excl, wait)
				bad.request(1, 2, "B", excl, wait)
			}},
			{"empty call", codes.InvalidArgument, "empty call", func(bad, _ *rawRenderer, _ uint64) {
				bad.send(&lockspb.Call{})
			}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				ls := NewLockServer(weblocks.NewService(), t.Logf)
				victim := tr.newRaw(t, ls, "https://a.test", 0)
				victim.register(1, "env-victim", "https://a.test")
				victim.request(1, 1, "L", excl, wait)
				g := victim.outcome()
				bad := tr.newRaw(t, ls, "https://a.test", 0)
				bad.register(1, "env-bad", "https://a.test")
				bad.request(1, 1, "L", excl, wait) // queued behind the victim
				bad.query(1, 1)
				tc.do(bad, victim, g.Lock)
				bad.refused(tc.code, tc.want)
				// The victim still holds its lock, and the bad renderer's
				// request is gone with it.
				s := victim.query(1, 1)
				if got := strings.Join(clientIDs(s.Held), ",") + "|" + strings.Join(clientIDs(s.Pending), ","); got != "L:env-victim|" {
					t.Fatalf("state %s", got)
				}
			})
		}
	})
}

// TestFlood: a renderer past its bound of outstanding requests is killed,
// and what it held is released.
func TestFlood(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		ls := NewLockServer(weblocks.NewService(), t.Logf)
		const max = 100
		a := tr.newRaw(t, ls, "https://a.test", max)
		a.register(1, "env-a", "https://a.test")
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := uint64(1); i <= 1000; i++ {
				if a.stream.Send(&lockspb.Call{Call: &lockspb.Call_Request{Request: &lockspb.Request{Client: 1, Request: i, Name: []byte("L"), Mode: excl, Wait: wait}}}) != nil {
					return
				}
			}
		}()
		a.refused(codes.ResourceExhausted, "over the limit of 100")
		wg.Wait()
		b := tr.newRaw(t, ls, "https://a.test", 0)
		b.register(1, "env-b", "https://a.test")
		b.request(1, 1, "L", excl, wait)
		if o := b.outcome(); o.Kind != lockspb.OutcomeKind_OUTCOME_KIND_GRANTED {
			t.Fatalf("b: %v", o)
		}
	})
}

var _ net.Conn = (*notifyConn)(nil)
