package htmlhost

import (
	"errors"
	"slices"
	"testing"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	. "github.com/gowebengine/weblocks/weblocks"
)

func TestRequestRejections(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	top := openWindow(t, ua, "https://b.test/")
	opaque := openFrame(t, top, "https://b.test/s", true)
	gone := openFrame(t, top, "https://b.test/gone", false)
	goneOpaque := openFrame(t, top, "https://b.test/gone2", true)
	gone.AssociatedDocument().Unload()
	goneOpaque.AssociatedDocument().Unload()
	aborted := dom.AbortSignalAbort("why")
	abortedDefault := dom.AbortSignalAbort(nil)
	live := dom.NewAbortController().Signal()
	cb := func(*Lock) Waiting { t.Error("callback called"); return nil }
	for _, c := range []struct {
		what string
		env  *html.EnvironmentSettingsObject
		name Name
		opts Options
		want string // DOMException name, or "reason:" + abort reason
	}{
		{"not fully active", gone, "x", Options{}, dom.InvalidStateError},
		{"not fully active beats opaque", goneOpaque, "x", Options{}, dom.InvalidStateError},
		{"not fully active beats bad options", gone, "-x", Options{Steal: true, IfAvailable: true}, dom.InvalidStateError},
		{"opaque origin", opaque, "x", Options{}, dom.SecurityError},
		{"opaque beats reserved name", opaque, "-x", Options{}, dom.SecurityError},
		{"reserved name", env, "-x", Options{}, dom.NotSupportedError},
		{"reserved name beats abort", env, "-", Options{Signal: aborted}, dom.NotSupportedError},
		{"steal and ifAvailable", env, "x", Options{Steal: true, IfAvailable: true}, dom.NotSupportedError},
		{"steal with shared", env, "x", Options{Steal: true, Mode: Shared}, dom.NotSupportedError},
		{"signal with steal", env, "x", Options{Steal: true, Signal: live}, dom.NotSupportedError},
		{"signal with ifAvailable", env, "x", Options{IfAvailable: true, Signal: live}, dom.NotSupportedError},
		{"signal with steal, already aborted", env, "x", Options{Steal: true, Signal: aborted}, dom.NotSupportedError},
		{"already aborted signal", env, "x", Options{Signal: aborted}, "reason:why"},
		{"already aborted signal, default reason", env, "x", Options{Signal: abortedDefault}, dom.AbortError},
	} {
		var err error
		var f *Future
		var viaPromise *Future
		onLoop(t, c.env, func() {
			f, err = Request(c.env, c.name, c.opts, cb)
			viaPromise = NewFuture()
			RequestPromise(c.env, c.name, c.opts, cb, viaPromise)
		})
		if f != nil {
			t.Errorf("%s: got a released promise, want an early rejection", c.what)
			continue
		}
		_, perr := viaPromise.Result()
		for _, e := range []error{err, perr} {
			got := domErrorName(e)
			var re *dom.AbortReasonError
			if errors.As(e, &re) {
				got = "reason:" + re.Reason.(string)
			}
			if got != c.want {
				t.Errorf("%s: got %v (%q), want %s", c.what, e, got, c.want)
			}
		}
	}
}

func TestGoCallerErrors(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	onLoop(t, env, func() {
		if _, err := Request(env, "x", Options{}, nil); err == nil {
			t.Error("nil callback accepted")
		}
		if _, err := Request(env, "x", Options{Mode: 7}, func(*Lock) Waiting { return nil }); err == nil {
			t.Error("invalid mode accepted")
		}
	})
	if m, ok := ParseMode("shared"); !ok || m != Shared {
		t.Error("ParseMode shared")
	}
	if _, ok := ParseMode("Exclusive"); ok {
		t.Error("ParseMode is case-sensitive")
	}
}

func TestQueryRejections(t *testing.T) {
	ua := newUA(t)
	top := openWindow(t, ua, "https://b.test/")
	opaque := openFrame(t, top, "https://b.test/s", true)
	gone := openFrame(t, top, "https://b.test/gone", false)
	gone.AssociatedDocument().Unload()
	for _, c := range []struct {
		env  *html.EnvironmentSettingsObject
		want string
	}{{gone, dom.InvalidStateError}, {opaque, dom.SecurityError}} {
		var err error
		p := NewFuture()
		onLoop(t, c.env, func() {
			_, err = Query(c.env)
			QueryPromise(c.env, p)
		})
		_, perr := p.Result()
		if domErrorName(err) != c.want || domErrorName(perr) != c.want {
			t.Errorf("query: got %v / %v, want %s", err, perr, c.want)
		}
	}
}

// Names are DOMStrings: lone surrogates and NUL round-trip exactly through
// request, Lock.Name and query.
func TestNamesRoundTrip(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	units := [][]uint16{
		{0xD800},
		{0xDFFF, 0xD800},
		{0},
		{'a', 0, 'b'},
		{0xD83D, 0xDE00},
		{0xDE00, 0xD83D},
		{0xD83D, 0xD83D, 0xDE00},
		{0xFFFF, 0xFFFE, 0xFEFF},
		{},
	}
	for _, u := range units {
		n := NameFromUTF16(u)
		if got := n.UTF16(); !slices.Equal(got, u) && !(len(got) == 0 && len(u) == 0) {
			t.Fatalf("UTF16(NameFromUTF16(%x)) = %x", u, got)
		}
		h := request(t, env, n, Options{}).await()
		if got := h.lock.Name().UTF16(); !slices.Equal(got, u) && len(u) > 0 {
			t.Fatalf("Lock.Name of %x: %x", u, got)
		}
		s := query(t, env)
		if s.Held.Len() != 1 || !slices.Equal(s.Held.At(0).Name.UTF16(), u) && len(u) > 0 {
			t.Fatalf("query of %x: %+v", u, s.Held)
		}
		h.release(t, nil)
	}
	// Distinct code unit sequences are distinct names, even where UTF-8
	// would merge them.
	a, b := NameFromUTF16([]uint16{0xD800}), NameFromUTF16([]uint16{0xDBFF})
	if a == b || a == NameFromString("\uFFFD") {
		t.Fatal("lone surrogates collapsed")
	}
	request(t, env, a, Options{}).await()
	request(t, env, b, Options{}).await() // not blocked by a
	if !NameFromUTF16([]uint16{0xD800}).IsWellFormed() == false || !Name("abc").IsWellFormed() {
		t.Fatal("IsWellFormed")
	}
	if got := a.String(); got != "\uFFFD" {
		t.Fatalf("String of a lone surrogate: %q", got)
	}
	if got := NameFromString("a\xffb"); got != "a\uFFFDb" {
		t.Fatalf("NameFromString of invalid UTF-8: %q", got)
	}
	if got := NameFromString("héllo😀"); got.String() != "héllo😀" || !slices.Equal(got.UTF16(), []uint16{'h', 0xE9, 'l', 'l', 'o', 0xD83D, 0xDE00}) {
		t.Fatalf("NameFromString: %q %x", got, got.UTF16())
	}
}

func FuzzNameUTF16(f *testing.F) {
	f.Add([]byte{0x00, 0xD8, 0x41, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		u := make([]uint16, len(b)/2)
		for i := range u {
			u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		}
		n := NameFromUTF16(u)
		if got := n.UTF16(); !slices.Equal(got, u) && !(len(got) == 0 && len(u) == 0) {
			t.Fatalf("round trip %x -> %x", u, got)
		}
		if n.IsWellFormed() && NameFromString(n.String()) != n {
			t.Fatalf("well-formed name does not round-trip through String: %x", u)
		}
	})
}

func TestStealRejectsTheHolders(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	worker := startWorker(t, env, "https://a.test/w.js")
	h1 := request(t, worker, "r", Options{Mode: Shared})
	h1.await()
	h2 := request(t, env, "r", Options{Mode: Shared})
	h2.await()
	queued := request(t, env, "r", Options{})
	thief := request(t, env, "r", Options{Steal: true})
	thief.await()
	for _, r := range []*tracked{h1, h2} {
		_, err := result(t, r.released)
		if domErrorName(err) != dom.AbortError {
			t.Fatalf("stolen lock's released promise: %v", err)
		}
	}
	s := query(t, env)
	if infos(s.Held) != "r/exclusive" || infos(s.Pending) != "r/exclusive" || s.Held.At(0).ClientID != env.ID() {
		t.Fatalf("after steal: held [%s] pending [%s]", infos(s.Held), infos(s.Pending))
	}
	queued.notGranted()
}

func TestAbortSignal(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	h := request(t, env, "r", Options{}).await()
	ctrl := dom.NewAbortController()
	var ctrl2 *dom.AbortController
	onLoop(t, env, func() { ctrl2 = dom.NewAbortController() })
	pending := request(t, env, "r", Options{Signal: ctrl.Signal()})
	onLoop(t, env, func() { ctrl.Abort("stop") })
	_, err := result(t, pending.released)
	var re *dom.AbortReasonError
	if !errors.As(err, &re) || re.Reason != "stop" {
		t.Fatalf("aborted request: %v", err)
	}
	if s := query(t, env); s.Pending.Len() != 0 {
		t.Fatalf("aborted request still pending: %+v", s)
	}
	// Once granted, the signal is ignored.
	h.release(t, nil)
	g := request(t, env, "r", Options{Signal: ctrl2.Signal()})
	gh := g.await()
	onLoop(t, env, func() { ctrl2.Abort(nil) })
	gh.release(t, "kept")
	if v, err := result(t, g.released); err != nil || v != "kept" {
		t.Fatalf("released after a late abort: %v %v", v, err)
	}
}

// Promise settlement and callbacks happen on the requester's event loop.
func TestSettlementOnTheRequestersEventLoop(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	loop := env.ResponsibleEventLoop()
	results := make(chan bool, 3)
	onLoop(t, env, func() {
		f, _ := Request(env, "r", Options{}, func(*Lock) Waiting {
			results <- loop.IsRunning()
			return nil
		})
		f.OnSettled(func() { results <- loop.IsRunning() })
		q, _ := Query(env)
		q.OnSettled(func() { results <- loop.IsRunning() })
	})
	for i := 0; i < 3; i++ {
		if !<-results {
			t.Fatal("ran off the requester's event loop")
		}
	}
}

func TestFuture(t *testing.T) {
	f := NewFuture()
	g := NewFuture()
	f.Resolve(g)
	f.Reject("ignored: already resolved")
	if f.Settled() {
		t.Fatal("adopting future settled early")
	}
	g.Reject("r")
	if _, err := f.Result(); err == nil {
		t.Fatal("adoption of a rejection")
	}
	h := NewFuture()
	h.Resolve(h)
	if _, err := h.Result(); err == nil {
		t.Fatal("self resolution must reject")
	}
	select {
	case <-Resolved(1).Done():
	default:
		t.Fatal("Done of a settled future")
	}
}

// countingPromise records every call weblocks makes on a host promise.
type countingPromise struct{ calls chan string }

func (p *countingPromise) Resolve(v any)     { p.calls <- "resolve" }
func (p *countingPromise) Reject(reason any) { p.calls <- "reject " + describeReason(reason) }

// A host promise is settled exactly once, even for a stolen lock whose
// waiting promise settles later (the spec's resolve is then a no-op).
func TestHostPromiseSettledOnce(t *testing.T) {
	ua := newUA(t)
	env := openWindow(t, ua, "https://a.test/")
	p := &countingPromise{calls: make(chan string, 10)}
	waiting := NewFuture()
	granted := make(chan struct{})
	onLoop(t, env, func() {
		RequestPromise(env, "r", Options{}, func(*Lock) Waiting { close(granted); return waiting }, p)
	})
	<-granted
	request(t, env, "r", Options{Steal: true}).await()
	if got := <-p.calls; got != "reject DOMException:AbortError" {
		t.Fatalf("first settlement: %s", got)
	}
	onLoop(t, env, func() { waiting.Resolve("late") })
	query(t, env) // the release steps ran
	query(t, env)
	select {
	case got := <-p.calls:
		t.Fatalf("second settlement: %s", got)
	default:
	}
}
