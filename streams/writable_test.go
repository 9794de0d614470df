package streams

import (
	"errors"
	"reflect"
	"testing"
)

// recordingSink is an underlying sink whose writes stay pending until
// the test settles them.
type recordingSink struct {
	h       *testHost
	written []any
	pending []Promise
	closed  bool
	aborted []any
}

func (k *recordingSink) sink() UnderlyingSink {
	return UnderlyingSink{
		Write: func(chunk any, _ *WritableController) Promise {
			k.written = append(k.written, chunk)
			p := k.h.NewPromise()
			k.pending = append(k.pending, p)
			return p
		},
		Close: func() Promise { k.closed = true; return k.h.PromiseResolvedWith(nil) },
		Abort: func(r any) Promise { k.aborted = append(k.aborted, r); return k.h.PromiseResolvedWith(nil) },
	}
}

// finishWrites fulfills the pending writes and runs microtasks until
// none is left.
func (k *recordingSink) finishWrites() {
	for len(k.pending) > 0 {
		p := k.pending[0]
		k.pending = k.pending[1:]
		p.Resolve(nil)
		k.h.run()
	}
}

func TestWritableBackpressureAndClose(t *testing.T) {
	h := &testHost{}
	k := &recordingSink{h: h}
	s, err := NewWritableStream(h, k.sink(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := s.GetWriter()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetWriter(); !errors.As(err, new(*TypeError)) {
		t.Errorf("second writer: %v, want TypeError", err)
	}
	h.run()
	w1, w2 := w.Write("a"), w.Write("b")
	if d, ok, _ := w.DesiredSize(); d != 0 || !ok {
		t.Errorf("desiredSize after 2 writes = %v %v, want 0", d, ok)
	}
	if st, _ := state(w.Ready()); st != 0 {
		t.Errorf("ready settled under backpressure: %d", st)
	}
	h.run()
	if !reflect.DeepEqual(k.written, []any{"a"}) {
		t.Fatalf("one write at a time: the sink got %v", k.written)
	}
	k.finishWrites()
	if !reflect.DeepEqual(k.written, []any{"a", "b"}) {
		t.Fatalf("the sink got %v", k.written)
	}
	if st1, _ := state(w1); st1 != 1 {
		t.Errorf("first write not fulfilled")
	}
	if st2, _ := state(w2); st2 != 1 {
		t.Errorf("second write not fulfilled")
	}
	if st, _ := state(w.Ready()); st != 1 {
		t.Errorf("ready not fulfilled once the queue drained")
	}
	closeP := w.Close()
	if st, v := state(w.Write("c")); st != 2 || !isTypeError(v) {
		t.Errorf("write after close: %d %v", st, v)
	}
	if st, v := state(w.Close()); st != 2 || !isTypeError(v) {
		t.Errorf("close twice: %d %v", st, v)
	}
	h.run()
	if st, _ := state(closeP); st != 1 || !k.closed || s.State() != WritableClosed {
		t.Errorf("close: promise %d, sink closed %v, state %d", st, k.closed, s.State())
	}
	if st, _ := state(w.Closed()); st != 1 {
		t.Errorf("closed not fulfilled")
	}
	// Release: closed and ready are rejected with a TypeError.
	w.ReleaseLock()
	if st, v := state(w.Closed()); st != 2 || !isTypeError(v) {
		t.Errorf("closed after release: %d %v", st, v)
	}
	if _, _, err := w.DesiredSize(); !errors.As(err, new(*TypeError)) {
		t.Errorf("desiredSize after release: %v", err)
	}
	if st, v := state(w.Write("d")); st != 2 || !isTypeError(v) {
		t.Errorf("write after release: %d %v", st, v)
	}
}

func TestWritableAbortAndErrors(t *testing.T) {
	h := &testHost{}
	k := &recordingSink{h: h}
	s, _ := NewWritableStream(h, k.sink(), 1, nil)
	w, _ := s.GetWriter()
	h.run()
	first := w.Write("a")
	second := w.Write("b")
	h.run()
	abortP := w.Abort("why")
	ac := s.controller.Signal().(*testAbortController)
	if !ac.aborted || ac.reason != "why" || s.State() != Erroring {
		t.Fatalf("abort: signal %+v, state %d", ac, s.State())
	}
	if len(k.aborted) != 0 {
		t.Fatal("the sink's abort ran while a write was in flight")
	}
	// The in-flight write finishes, then the sink is aborted; the
	// queued write is rejected with the reason.
	k.finishWrites()
	if st, _ := state(first); st != 1 {
		t.Errorf("in-flight write: %d", st)
	}
	if st, v := state(second); st != 2 || v != "why" {
		t.Errorf("queued write: %d %v", st, v)
	}
	if !reflect.DeepEqual(k.aborted, []any{"why"}) || s.State() != WritableErrored {
		t.Errorf("sink aborted with %v, state %d", k.aborted, s.State())
	}
	if st, _ := state(abortP); st != 1 {
		t.Errorf("abort promise: %d", st)
	}
	if st, v := state(w.Closed()); st != 2 || v != "why" {
		t.Errorf("closed: %d %v", st, v)
	}

	// A sink write that rejects errors the stream.
	h2 := &testHost{}
	s2, _ := NewWritableStream(h2, UnderlyingSink{Write: func(any, *WritableController) Promise {
		return h2.PromiseRejectedWith("sink failed")
	}}, 1, nil)
	w2, _ := s2.GetWriter()
	p := w2.Write(1)
	h2.run()
	if st, v := state(p); st != 2 || v != "sink failed" || s2.State() != WritableErrored {
		t.Errorf("rejected write: %d %v, state %d", st, v, s2.State())
	}
	// Bad sizes error the stream: a size that throws, a negative size.
	for _, size := range []SizeAlgorithm{
		func(any) (float64, error) { return 0, errors.New("size threw") },
		func(any) (float64, error) { return -1, nil },
	} {
		h3 := &testHost{}
		s3, _ := NewWritableStream(h3, UnderlyingSink{}, 1, size)
		w3, _ := s3.GetWriter()
		p := w3.Write("x")
		h3.run()
		if st, _ := state(p); st != 2 || s3.State() != WritableErrored {
			t.Errorf("bad size: write %d, state %d", st, s3.State())
		}
	}
	if _, err := NewWritableStream(h, UnderlyingSink{Start: func(*WritableController) (any, error) {
		return nil, errors.New("start threw")
	}}, 1, nil); err == nil {
		t.Error("a start that throws: no error")
	}
}

// chunkSource is a readable stream with chunks and then close or an
// error.
func chunkSource(t *testing.T, h *testHost, chunks []any, end any) *ReadableStream {
	t.Helper()
	s, err := New(h, UnderlyingSource{Start: func(c *DefaultController) (any, error) {
		for _, ch := range chunks {
			_ = c.Enqueue(ch)
		}
		if end == nil {
			_ = c.Close()
		} else {
			c.Error(end)
		}
		return nil, nil
	}}, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// testSignal is a test AbortSignal.
type testSignal struct {
	aborted bool
	reason  any
	algs    map[int]func()
	next    int
}

func (s *testSignal) Aborted() bool { return s.aborted }
func (s *testSignal) Reason() any   { return s.reason }
func (s *testSignal) AddAlgorithm(f func()) func() {
	if s.algs == nil {
		s.algs = map[int]func(){}
	}
	id := s.next
	s.next++
	s.algs[id] = f
	return func() { delete(s.algs, id) }
}
func (s *testSignal) abort(reason any) {
	s.aborted, s.reason = true, reason
	for _, f := range s.algs {
		f()
	}
}

func TestPipeTo(t *testing.T) {
	for _, tc := range []struct {
		name        string
		end         any // nil: the source closes
		destErr     bool
		opts        PipeOptions
		abortSignal bool
		// want: the chunks written, the sink closed/aborted, the pipe's
		// result (1 fulfilled, 2 rejected), the source canceled.
		written  []any
		closed   bool
		aborted  []any
		result   int
		canceled bool
	}{
		{name: "close propagates", written: []any{"a", "b"}, closed: true, result: 1},
		{name: "preventClose", opts: PipeOptions{PreventClose: true}, written: []any{"a", "b"}, result: 1},
		// (An errored source drops its queued chunks.)
		{name: "error propagates forward", end: "boom", aborted: []any{"boom"}, result: 2},
		{name: "preventAbort", end: "boom", opts: PipeOptions{PreventAbort: true}, result: 2},
		{name: "error propagates backward", destErr: true, result: 2, canceled: true},
		{name: "signal", abortSignal: true, aborted: []any{"stop"}, result: 2, canceled: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &testHost{}
			canceled := false
			src, _ := New(h, UnderlyingSource{
				Start: func(c *DefaultController) (any, error) {
					if tc.destErr || tc.abortSignal {
						return nil, nil // a source that never ends
					}
					_ = c.Enqueue("a")
					_ = c.Enqueue("b")
					if tc.end == nil {
						_ = c.Close()
					} else {
						c.Error(tc.end)
					}
					return nil, nil
				},
				Cancel: func(any) Promise { canceled = true; return h.PromiseResolvedWith(nil) },
			}, 1, nil)
			var written []any
			closed := false
			var aborted []any
			sink := UnderlyingSink{
				Write: func(c any, _ *WritableController) Promise {
					written = append(written, c)
					return h.PromiseResolvedWith(nil)
				},
				Close: func() Promise { closed = true; return h.PromiseResolvedWith(nil) },
				Abort: func(r any) Promise { aborted = append(aborted, r); return h.PromiseResolvedWith(nil) },
			}
			dest, _ := NewWritableStream(h, sink, 1, nil)
			sig := &testSignal{}
			opts := tc.opts
			if tc.abortSignal {
				opts.Signal = sig
			}
			p := src.PipeTo(dest, opts)
			if !src.Disturbed() || !src.Locked() || !dest.Locked() {
				t.Fatal("pipeTo did not lock and disturb synchronously")
			}
			h.run()
			if tc.destErr {
				dest.controller.Error("dest failed")
				h.run()
			}
			if tc.abortSignal {
				sig.abort("stop")
				h.run()
				if len(sig.algs) != 0 {
					t.Error("the abort algorithm was not removed")
				}
			}
			st, _ := state(p)
			if !reflect.DeepEqual(written, tc.written) || closed != tc.closed || !reflect.DeepEqual(aborted, tc.aborted) ||
				st != tc.result || canceled != tc.canceled {
				t.Errorf("written %v closed %v aborted %v result %d canceled %v", written, closed, aborted, st, canceled)
			}
			if src.Locked() || dest.Locked() {
				t.Error("the pipe did not release its reader and writer")
			}
		})
	}
	// Locked ends are a TypeError.
	h := &testHost{}
	src := chunkSource(t, h, nil, nil)
	dest, _ := NewWritableStream(h, UnderlyingSink{}, 1, nil)
	_, _ = dest.GetWriter()
	if st, v := state(src.PipeTo(dest, PipeOptions{})); st != 2 || !isTypeError(v) {
		t.Errorf("pipe to a locked stream: %d %v", st, v)
	}
	if _, err := src.PipeThrough(dest, PipeOptions{}); !errors.As(err, new(*TypeError)) {
		t.Errorf("pipeThrough to a locked stream: %v", err)
	}
}

func TestTransformStream(t *testing.T) {
	h := &testHost{}
	flushed := false
	ts, err := NewTransformStream(h, Transformer{
		Transform: func(chunk any, c *TransformController) Promise {
			if chunk == "bad" {
				return h.PromiseRejectedWith("bad chunk")
			}
			_ = c.Enqueue(chunk)
			_ = c.Enqueue(chunk)
			return h.PromiseResolvedWith(nil)
		},
		Flush: func(c *TransformController) Promise {
			flushed = true
			_ = c.Enqueue("end")
			return h.PromiseResolvedWith(nil)
		},
	}, 1, nil, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	w, _ := ts.Writable().GetWriter()
	r, _ := ts.Readable().GetReader()
	w.Write("x")
	w.Close()
	var got []any
	for i := 0; i < 4; i++ {
		res := read(t, r)
		h.run()
		if res.done {
			break
		}
		got = append(got, res.value)
	}
	h.run()
	if !reflect.DeepEqual(got, []any{"x", "x", "end"}) || !flushed || ts.Readable().State() != Closed {
		t.Errorf("read %v, flushed %v, readable state %d", got, flushed, ts.Readable().State())
	}
	// A transform that rejects errors both sides.
	h2 := &testHost{}
	ts2, _ := NewTransformStream(h2, Transformer{Transform: func(any, *TransformController) Promise {
		return h2.PromiseRejectedWith("bad chunk")
	}}, 1, nil, 0, nil)
	w2, _ := ts2.Writable().GetWriter()
	p := w2.Write("bad")
	h2.run()
	if st, _ := state(p); st != 0 {
		t.Fatalf("a write went through while nothing read: %d", st)
	}
	r2, _ := ts2.Readable().GetReader()
	read(t, r2)
	h2.run()
	if st, v := state(p); st != 2 || v != "bad chunk" || ts2.Readable().State() != Errored || ts2.Writable().State() != WritableErrored {
		t.Errorf("rejected transform: write %d %v, states %d %d", st, v, ts2.Readable().State(), ts2.Writable().State())
	}
	// terminate closes the readable side and errors the writable side.
	h3 := &testHost{}
	ts3, _ := NewTransformStream(h3, Transformer{}, 1, nil, 0, nil)
	ts3.Controller().Terminate()
	h3.run()
	if ts3.Readable().State() != Closed || ts3.Writable().State() != WritableErrored || !isTypeError(ts3.Writable().StoredError()) {
		t.Errorf("terminate: states %d %d", ts3.Readable().State(), ts3.Writable().State())
	}
	if err := ts3.Controller().Enqueue("late"); !errors.As(err, new(*TypeError)) {
		t.Errorf("enqueue after terminate: %v", err)
	}
	// Piping through the identity transform.
	h4 := &testHost{}
	ts4, _ := NewTransformStream(h4, Transformer{}, 1, nil, 0, nil)
	src := chunkSource(t, h4, []any{1, 2, 3}, nil)
	if _, err := src.PipeThrough(ts4.Writable(), PipeOptions{}); err != nil {
		t.Fatal(err)
	}
	r4, _ := ts4.Readable().GetReader()
	got = nil
	for {
		res := read(t, r4)
		h4.run()
		if res.done || !res.settled {
			break
		}
		got = append(got, res.value)
	}
	if !reflect.DeepEqual(got, []any{1, 2, 3}) {
		t.Errorf("through the identity transform: %v", got)
	}
}
