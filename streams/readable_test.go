package streams

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"
)

// testHost is a Host with promises settled through a microtask queue, as
// in JavaScript.
type testHost struct {
	microtasks []func()
}

type testPromise struct {
	h         *testHost
	state     int // 0 pending, 1 fulfilled, 2 rejected
	value     any
	reactions []func()
	handled   bool
}

func (p *testPromise) settle(state int, v any) {
	if p.state != 0 {
		return
	}
	p.state, p.value = state, v
	for _, r := range p.reactions {
		p.h.QueueMicrotask(r)
	}
	p.reactions = nil
}

func (p *testPromise) Resolve(v any) {
	if q, ok := v.(*testPromise); ok {
		// Adopt q (a thenable job, then its reaction).
		p.h.QueueMicrotask(func() {
			p.h.React(q, func(v any) { p.settle(1, v) }, func(r any) { p.settle(2, r) })
		})
		return
	}
	p.settle(1, v)
}

func (p *testPromise) Reject(reason any) { p.settle(2, reason) }

func (h *testHost) NewPromise() Promise { return &testPromise{h: h} }
func (h *testHost) PromiseResolvedWith(v any) Promise {
	if q, ok := v.(*testPromise); ok {
		return q
	}
	p := &testPromise{h: h}
	p.Resolve(v)
	return p
}
func (h *testHost) PromiseRejectedWith(r any) Promise {
	p := &testPromise{h: h}
	p.Reject(r)
	return p
}
func (h *testHost) React(p Promise, onF func(any), onR func(any)) {
	tp := p.(*testPromise)
	tp.handled = true
	run := func() {
		if tp.state == 1 && onF != nil {
			onF(tp.value)
		} else if tp.state == 2 && onR != nil {
			onR(tp.value)
		}
	}
	if tp.state == 0 {
		tp.reactions = append(tp.reactions, run)
	} else {
		h.QueueMicrotask(run)
	}
}
func (h *testHost) MarkHandled(p Promise)        { p.(*testPromise).handled = true }
func (h *testHost) QueueMicrotask(f func())      { h.microtasks = append(h.microtasks, f) }
func (h *testHost) ErrorValue(err error) any     { return err }
func (h *testHost) CreateArray(values []any) any { return values }
func (h *testHost) StructuredClone(v any) (any, error) {
	if v == "uncloneable" {
		return nil, errors.New("DataCloneError")
	}
	return fmt.Sprint("clone of ", v), nil
}

// testBuffer is the test host's ArrayBuffer.
type testBuffer struct {
	data     []byte
	detached bool
}

func (h *testHost) NewArrayBuffer(n int) (any, error) {
	if n > 1<<20 {
		return nil, &RangeError{Msg: "Array buffer allocation failed"}
	}
	return &testBuffer{data: make([]byte, n)}, nil
}
func (h *testHost) ArrayBufferBytes(buf any) []byte   { return buf.(*testBuffer).data }
func (h *testHost) ArrayBufferByteLength(buf any) int { return len(buf.(*testBuffer).data) }
func (h *testHost) IsDetachedBuffer(buf any) bool     { return buf.(*testBuffer).detached }
func (h *testHost) TransferArrayBuffer(buf any) (any, error) {
	b := buf.(*testBuffer)
	if b.detached {
		return nil, &TypeError{Msg: "detached"}
	}
	nb := &testBuffer{data: b.data}
	b.data, b.detached = nil, true
	return nb, nil
}

func (h *testHost) ViewOf(v any) (ArrayBufferView, error) {
	av, ok := v.(ArrayBufferView)
	if !ok {
		return ArrayBufferView{}, &TypeError{Msg: "not a view"}
	}
	return av, nil
}

// NewView returns the view record itself (with the length in elements
// checked).
func (h *testHost) NewView(v ArrayBufferView) any {
	if v.ByteOffset+v.ByteLength > len(v.Buffer.(*testBuffer).data) {
		panic("view out of range")
	}
	return v
}

// testAbortController is the test host's AbortController.
type testAbortController struct {
	aborted bool
	reason  any
}

func (c *testAbortController) Abort(reason any) {
	if !c.aborted {
		c.aborted, c.reason = true, reason
	}
}

func (h *testHost) NewAbortController() AbortController { return &testAbortController{} }

// run performs microtasks until none is left.
func (h *testHost) run() {
	for len(h.microtasks) > 0 {
		f := h.microtasks[0]
		h.microtasks = h.microtasks[1:]
		f()
	}
}

// readResult is what a read gave.
type readResult struct {
	settled bool
	value   any
	done    bool
	err     any
}

func read(t *testing.T, r *DefaultReader) *readResult {
	t.Helper()
	res := &readResult{}
	err := r.Read(ReadRequest{
		Chunk: func(c any) { res.settled, res.value = true, c },
		Close: func() { res.settled, res.done = true, true },
		Error: func(e any) { res.settled, res.err = true, e },
	})
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return res
}

func state(p Promise) (int, any) {
	tp := p.(*testPromise)
	return tp.state, tp.value
}

func isTypeError(v any) bool {
	var te *TypeError
	err, ok := v.(error)
	return ok && errors.As(err, &te)
}

func TestEnqueueReadClose(t *testing.T) {
	h := &testHost{}
	var ctl *DefaultController
	s, err := New(h, UnderlyingSource{Start: func(c *DefaultController) (any, error) { ctl = c; return nil, nil }}, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.GetReader()
	if err != nil {
		t.Fatal(err)
	}
	if !s.Locked() {
		t.Fatal("stream not locked by its reader")
	}
	// A read before any chunk waits for one.
	first := read(t, r)
	h.run()
	if first.settled {
		t.Fatal("read settled before a chunk was enqueued")
	}
	if err := ctl.Enqueue("a"); err != nil {
		t.Fatal(err)
	}
	if !first.settled || first.value != "a" || first.done {
		t.Fatalf("first read = %+v, want chunk a", first)
	}
	// Queued chunks come out in order.
	_ = ctl.Enqueue("b")
	_ = ctl.Enqueue("c")
	if d, _ := ctl.DesiredSize(); d != -1 {
		t.Fatalf("desiredSize = %v with two chunks queued and highWaterMark 1, want -1", d)
	}
	if err := ctl.Close(); err != nil {
		t.Fatal(err)
	}
	if s.State() != Readable {
		t.Fatal("stream closed while chunks are queued")
	}
	for _, want := range []string{"b", "c"} {
		if got := read(t, r); got.value != want {
			t.Fatalf("read = %+v, want %s", got, want)
		}
	}
	if s.State() != Closed {
		t.Fatal("stream not closed once its queue is drained after close()")
	}
	if got := read(t, r); !got.done {
		t.Fatalf("read after close = %+v, want done", got)
	}
	h.run()
	if st, _ := state(r.Closed()); st != 1 {
		t.Fatal("closed promise not fulfilled")
	}
	// Enqueue and close after close are TypeErrors.
	if err := ctl.Enqueue("d"); !isTypeError(err) {
		t.Fatalf("enqueue after close: %v, want TypeError", err)
	}
	if err := ctl.Close(); !isTypeError(err) {
		t.Fatalf("close after close: %v, want TypeError", err)
	}
	if !s.Disturbed() {
		t.Fatal("read did not disturb the stream")
	}
}

func TestPullBackpressure(t *testing.T) {
	h := &testHost{}
	pulls := 0
	s, err := New(h, UnderlyingSource{Pull: func(c *DefaultController) Promise {
		pulls++
		_ = c.Enqueue(pulls)
		return h.PromiseResolvedWith(nil)
	}}, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	if pulls != 0 {
		t.Fatal("pull called before start finished")
	}
	h.run()
	// Pull fills the queue up to the high water mark, and no further.
	if pulls != 3 {
		t.Fatalf("pulls = %d, want 3 (the high water mark)", pulls)
	}
	if d, _ := s.DefaultController().DesiredSize(); d != 0 {
		t.Fatalf("desiredSize = %v, want 0", d)
	}
	r, _ := s.GetReader()
	if got := read(t, r); got.value != 1 {
		t.Fatalf("read = %+v, want 1", got)
	}
	h.run()
	if pulls != 4 {
		t.Fatalf("pulls = %d after one read, want 4", pulls)
	}

	// With a high water mark of 0, only a pending read makes it pull.
	pulls = 0
	s, _ = New(h, UnderlyingSource{Pull: func(c *DefaultController) Promise {
		pulls++
		_ = c.Enqueue(pulls)
		return h.PromiseResolvedWith(nil)
	}}, 0, nil)
	h.run()
	if pulls != 0 {
		t.Fatalf("pulls = %d with highWaterMark 0 and no read, want 0", pulls)
	}
	r, _ = s.GetReader()
	got := read(t, r)
	h.run()
	if pulls != 1 || got.value != 1 {
		t.Fatalf("pulls = %d, read %+v with highWaterMark 0 and one read, want 1", pulls, got)
	}
}

func TestSizeAndHighWaterMark(t *testing.T) {
	h := &testHost{}
	if _, err := ExtractHighWaterMark(-1, true, 1); err == nil {
		t.Fatal("negative highWaterMark accepted")
	}
	if _, err := ExtractHighWaterMark(math.NaN(), true, 1); err == nil {
		t.Fatal("NaN highWaterMark accepted")
	}
	if v, _ := ExtractHighWaterMark(0, false, 7); v != 7 {
		t.Fatalf("default highWaterMark = %v, want 7", v)
	}
	thrown := errors.New("size threw")
	var ctl *DefaultController
	size := func(chunk any) (float64, error) {
		switch chunk {
		case "throw":
			return 0, thrown
		case "negative":
			return -1, nil
		case "inf":
			return math.Inf(1), nil
		}
		return float64(len(chunk.(string))), nil
	}
	mk := func() *ReadableStream {
		s, err := New(h, UnderlyingSource{Start: func(c *DefaultController) (any, error) { ctl = c; return nil, nil }}, 10, size)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	mk()
	_ = ctl.Enqueue("abcd")
	if d, _ := ctl.DesiredSize(); d != 6 {
		t.Fatalf("desiredSize = %v, want 6", d)
	}
	for _, bad := range []string{"throw", "negative", "inf"} {
		s := mk()
		err := ctl.Enqueue(bad)
		if err == nil {
			t.Fatalf("enqueue(%s) succeeded", bad)
		}
		if s.State() != Errored {
			t.Fatalf("enqueue(%s) did not error the stream", bad)
		}
		if bad == "throw" && s.StoredError() != thrown {
			t.Fatalf("stored error = %v, want the size function's", s.StoredError())
		}
		var re *RangeError
		if bad != "throw" && !errors.As(err, &re) {
			t.Fatalf("enqueue(%s) = %v, want RangeError", bad, err)
		}
		if _, ok := ctl.DesiredSize(); ok {
			t.Fatal("desiredSize of an errored stream is not null")
		}
	}
}

func TestReaderLocking(t *testing.T) {
	h := &testHost{}
	s, _ := New(h, UnderlyingSource{}, 1, nil)
	r1, err := s.GetReader()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetReader(); !isTypeError(err) {
		t.Fatalf("second reader: %v, want TypeError", err)
	}
	if _, err := NewDefaultReader(s); !isTypeError(err) {
		t.Fatalf("reader constructor on a locked stream: %v, want TypeError", err)
	}
	if st, v := state(s.Cancel("x")); st != 2 || !isTypeError(v) {
		t.Fatal("cancel of a locked stream did not reject with a TypeError")
	}
	pending := read(t, r1)
	r1.ReleaseLock()
	if !pending.settled || !isTypeError(pending.err) {
		t.Fatalf("pending read on release = %+v, want TypeError", pending)
	}
	if st, v := state(r1.Closed()); st != 2 || !isTypeError(v) {
		t.Fatal("closed of a released reader not rejected with TypeError")
	}
	if err := r1.Read(ReadRequest{}); !isTypeError(err) {
		t.Fatalf("read on a released reader: %v, want TypeError", err)
	}
	if st, v := state(r1.Cancel("x")); st != 2 || !isTypeError(v) {
		t.Fatal("cancel on a released reader not rejected with TypeError")
	}
	r1.ReleaseLock() // twice: nothing
	if s.Locked() {
		t.Fatal("stream still locked after releaseLock")
	}
	if _, err := s.GetReader(); err != nil {
		t.Fatalf("reader after release: %v", err)
	}
}

func TestCancelAndError(t *testing.T) {
	h := &testHost{}
	var got any
	var ctl *DefaultController
	s, _ := New(h, UnderlyingSource{
		Start:  func(c *DefaultController) (any, error) { ctl = c; return nil, nil },
		Cancel: func(reason any) Promise { got = reason; return h.PromiseResolvedWith("ignored") },
	}, 1, nil)
	_ = ctl.Enqueue("queued")
	r, _ := s.GetReader()
	p := r.Cancel("why")
	h.run()
	if got != "why" {
		t.Fatalf("cancel algorithm got %v, want why", got)
	}
	if st, v := state(p); st != 1 || v != nil {
		t.Fatalf("cancel promise = %d %v, want fulfilled with undefined", st, v)
	}
	if res := read(t, r); !res.done {
		t.Fatalf("read after cancel = %+v, want done (queue dropped)", res)
	}

	// error(e): pending reads and closed reject with e; later reads too.
	s2, _ := New(h, UnderlyingSource{Start: func(c *DefaultController) (any, error) { ctl = c; return nil, nil }}, 1, nil)
	r2, _ := s2.GetReader()
	pending := read(t, r2)
	ctl.Error("boom")
	if pending.err != "boom" {
		t.Fatalf("pending read = %+v, want error boom", pending)
	}
	if st, v := state(r2.Closed()); st != 2 || v != "boom" || !r2.Closed().(*testPromise).handled {
		t.Fatal("closed not rejected (handled) with boom")
	}
	if res := read(t, r2); res.err != "boom" {
		t.Fatalf("read after error = %+v", res)
	}
	if st, v := state(s2.Cancel("x")); st != 1 || v != nil {
		// locked: TypeError
		if !isTypeError(v) {
			t.Fatalf("cancel of locked errored stream = %v", v)
		}
	}
	r2.ReleaseLock()
	if st, v := state(s2.Cancel("x")); st != 2 || v != "boom" {
		t.Fatalf("cancel of an errored stream = %d %v, want rejected with boom", st, v)
	}
	if err := ctl.Enqueue(1); !isTypeError(err) {
		t.Fatalf("enqueue after error: %v", err)
	}
}

func TestStartAndPullFailures(t *testing.T) {
	h := &testHost{}
	thrown := errors.New("start threw")
	if _, err := New(h, UnderlyingSource{Start: func(*DefaultController) (any, error) { return nil, thrown }}, 1, nil); err != thrown {
		t.Fatalf("New with a throwing start = %v, want its exception", err)
	}
	s, _ := New(h, UnderlyingSource{Start: func(*DefaultController) (any, error) { return h.PromiseRejectedWith("no start"), nil }}, 1, nil)
	h.run()
	if s.State() != Errored || s.StoredError() != "no start" {
		t.Fatal("a rejected start promise did not error the stream")
	}
	s, _ = New(h, UnderlyingSource{Pull: func(*DefaultController) Promise { return h.PromiseRejectedWith("no pull") }}, 1, nil)
	h.run()
	if s.State() != Errored || s.StoredError() != "no pull" {
		t.Fatal("a rejected pull promise did not error the stream")
	}
	// A pull still pending is not called again: pullAgain instead.
	pulls := 0
	var pend Promise
	s, _ = New(h, UnderlyingSource{Pull: func(*DefaultController) Promise { pulls++; pend = h.NewPromise(); return pend }}, 1, nil)
	h.run()
	r, _ := s.GetReader()
	read(t, r)
	read(t, r)
	h.run()
	if pulls != 1 {
		t.Fatalf("pulls = %d while the first is pending, want 1", pulls)
	}
	pend.Resolve(nil)
	h.run()
	if pulls != 2 {
		t.Fatalf("pulls = %d after the pending pull, want 2 (pullAgain)", pulls)
	}
}

func TestTee(t *testing.T) {
	h := &testHost{}
	var ctl *DefaultController
	var cancelReason any
	s, _ := New(h, UnderlyingSource{
		Start:  func(c *DefaultController) (any, error) { ctl = c; return nil, nil },
		Cancel: func(r any) Promise { cancelReason = r; return h.PromiseResolvedWith(nil) },
	}, 1, nil)
	b1, b2, err := s.Tee()
	if err != nil {
		t.Fatal(err)
	}
	if !s.Locked() {
		t.Fatal("tee did not lock the stream")
	}
	if _, _, err := s.Tee(); !isTypeError(err) {
		t.Fatalf("tee of a locked stream: %v, want TypeError", err)
	}
	_ = ctl.Enqueue("x")
	_ = ctl.Enqueue("y")
	ctl.Close()
	h.run()
	r1, _ := b1.GetReader()
	r2, _ := b2.GetReader()
	var got1, got2 []any
	for range 3 {
		a, b := read(t, r1), read(t, r2)
		h.run()
		got1 = append(got1, a.value)
		got2 = append(got2, b.value)
	}
	want := []any{"x", "y", nil}
	if !reflect.DeepEqual(got1, want) || !reflect.DeepEqual(got2, want) {
		t.Fatalf("branches read %v and %v, want %v", got1, got2, want)
	}

	// Canceling both branches cancels the source with both reasons.
	s, _ = New(h, UnderlyingSource{Cancel: func(r any) Promise { cancelReason = r; return h.PromiseResolvedWith(nil) }}, 1, nil)
	b1, b2, _ = s.Tee()
	p1 := b1.Cancel("r1")
	h.run()
	if cancelReason != nil {
		t.Fatal("canceling one branch canceled the source")
	}
	p2 := b2.Cancel("r2")
	h.run()
	if !reflect.DeepEqual(cancelReason, []any{"r1", "r2"}) {
		t.Fatalf("source cancel reason = %v, want [r1 r2]", cancelReason)
	}
	for _, p := range []Promise{p1, p2} {
		if st, _ := state(p); st != 1 {
			t.Fatal("branch cancel promise not fulfilled")
		}
	}

	// An error of the source errors both branches.
	s, _ = New(h, UnderlyingSource{Start: func(c *DefaultController) (any, error) { ctl = c; return nil, nil }}, 1, nil)
	b1, b2, _ = s.Tee()
	ctl.Error("bad")
	h.run()
	if b1.State() != Errored || b2.State() != Errored || b1.StoredError() != "bad" {
		t.Fatal("source error did not error both branches")
	}

	// cloneForBranch2: the second branch gets clones; a chunk that
	// cannot be cloned errors both branches and cancels the source.
	s, _ = New(h, UnderlyingSource{
		Start:  func(c *DefaultController) (any, error) { ctl = c; return nil, nil },
		Cancel: func(r any) Promise { cancelReason = r; return h.PromiseResolvedWith(nil) },
	}, 1, nil)
	b1, b2, _ = ReadableStreamTee(s, true)
	r1, _ = b1.GetReader()
	r2, _ = b2.GetReader()
	a, b := read(t, r1), read(t, r2)
	_ = ctl.Enqueue("c")
	h.run()
	if a.value != "c" || b.value != "clone of c" {
		t.Fatalf("branches read %v and %v, want c and its clone", a.value, b.value)
	}
	_ = ctl.Enqueue("uncloneable")
	h.run()
	if b1.State() != Errored || b2.State() != Errored || s.State() != Closed {
		t.Fatalf("an uncloneable chunk: branches %v %v, source %v; want both errored and the source canceled", b1.State(), b2.State(), s.State())
	}
	if err, ok := cancelReason.(error); !ok || err.Error() != "DataCloneError" {
		t.Fatalf("source canceled with %v, want the clone's error", cancelReason)
	}
}
