package htmlhost

import (
	"testing"
	"time"

	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/storage"
	. "github.com/gowebengine/weblocks/weblocks"
)

func register(t testing.TB, s *Service, id string) Client {
	t.Helper()
	o := origin.Parse("https://example.test")
	b := Bucket{Key: storage.StorageKey{Origin: o, TopLevelSite: origin.ObtainSite(o)}}
	c, err := s.Register(ClientConfig{ID: id, Bucket: b, Deliver: func(t Task) { t.RunTask() }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

type outcomes chan Outcome

func svcRequest(t testing.TB, s *Service, c Client, name Name, mode Mode, wait WaitMode) (RequestHandle, outcomes) {
	t.Helper()
	ch := make(outcomes, 4)
	h, err := s.Request(c, name, mode, wait, ReceiverFunc(func(o Outcome) { ch <- o }))
	if err != nil {
		t.Fatal(err)
	}
	return h, ch
}

func (ch outcomes) want(t testing.TB, kind OutcomeKind) Outcome {
	t.Helper()
	select {
	case o := <-ch:
		if o.Kind != kind {
			t.Fatalf("outcome %v (reason %v), want %v", o.Kind, o.Reason, kind)
		}
		return o
	case <-time.After(10 * time.Second):
		t.Fatal("no outcome delivered")
		return Outcome{}
	}
}

// none checks that nothing is delivered to ch by the time a query of c's
// bucket (which runs after every step enqueued before it) is answered.
func (ch outcomes) none(t testing.TB, s *Service, c Client) {
	t.Helper()
	done := make(chan struct{})
	if err := s.Query(c, nil, ReceiverFunc(func(Outcome) { close(done) })); err != nil {
		t.Fatal(err)
	}
	<-done
	select {
	case o := <-ch:
		t.Fatalf("unexpected outcome %v", o.Kind)
	default:
	}
}

// A client of a host of its own and an html environment of one user agent
// share the lock manager of their bucket through ServiceOf.
func TestServiceOfUserAgent(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://example.test/")
	s := ServiceOf(ua)
	if ServiceOf(nil) != nil {
		t.Fatal("ServiceOf(nil) is not nil")
	}
	c := register(t, s, "foreign")
	r := request(t, env, "r", Options{})
	h := r.await()
	_, ch := svcRequest(t, s, c, "r", Exclusive, Wait)
	ch.none(t, s, c)
	snap := query(t, env)
	if snap.Held.Len() != 1 || snap.Held.At(0).ClientID != env.ID() || snap.Pending.Len() != 1 || snap.Pending.At(0).ClientID != "foreign" {
		t.Fatalf("snapshot %v / %v", snap.Held, snap.Pending)
	}
	h.release(t, nil)
	l := ch.want(t, OutcomeGranted).Lock
	r2 := request(t, env, "r", Options{})
	r2.notGranted()
	if err := s.Release(l); err != nil {
		t.Fatal(err)
	}
	r2.await()
	if got := len(LockManagers(ua)); got != 1 {
		t.Fatalf("%d lock managers, want 1", got)
	}
}
