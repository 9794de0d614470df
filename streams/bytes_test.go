package streams

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// u8 is a Uint8Array record over a new test buffer holding data.
func u8(data ...byte) ArrayBufferView {
	return ArrayBufferView{Buffer: &testBuffer{data: data}, ByteLength: len(data), Constructor: "Uint8Array", ElementSize: 1}
}

// viewBytes are the bytes a view (a test host view) covers.
func viewBytes(t *testing.T, v any) []byte {
	t.Helper()
	av, ok := v.(ArrayBufferView)
	if !ok {
		t.Fatalf("chunk %#v is not a view", v)
	}
	return av.Buffer.(*testBuffer).data[av.ByteOffset : av.ByteOffset+av.ByteLength]
}

type readIntoResult struct {
	settled bool
	value   any
	done    bool
	err     any
}

func readInto(t *testing.T, r *BYOBReader, view ArrayBufferView, min uint64) (*readIntoResult, error) {
	t.Helper()
	res := &readIntoResult{}
	err := r.Read(view, min, ReadIntoRequest{
		Chunk: func(c any) { res.settled, res.value = true, c },
		Close: func(c any) { res.settled, res.value, res.done = true, c, true },
		Error: func(e any) { res.settled, res.err = true, e },
	})
	return res, err
}

// newTestByteStream is a byte stream whose controller the test drives.
func newTestByteStream(t *testing.T, h *testHost, src ByteSource) (*ReadableStream, *ByteController) {
	t.Helper()
	var ctl *ByteController
	start := src.Start
	src.Start = func(c *ByteController) (any, error) {
		ctl = c
		if start != nil {
			return start(c)
		}
		return nil, nil
	}
	s, err := NewByteStream(h, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	h.run()
	return s, ctl
}

func TestBYOBReadFillsFromQueue(t *testing.T) {
	h := &testHost{}
	s, c := newTestByteStream(t, h, ByteSource{})
	if err := c.Enqueue(u8(1, 2, 3, 4, 5)); err != nil {
		t.Fatal(err)
	}
	r, err := AcquireReadableStreamBYOBReader(s)
	if err != nil {
		t.Fatal(err)
	}
	// A view at offset 1 of 4 bytes takes 3 bytes; the rest stays queued.
	dst := &testBuffer{data: make([]byte, 4)}
	res, err := readInto(t, r, ArrayBufferView{Buffer: dst, ByteOffset: 1, ByteLength: 3, Constructor: "Uint8Array", ElementSize: 1}, 1)
	if err != nil || !res.settled || res.done {
		t.Fatalf("read: %v %+v", err, res)
	}
	if !dst.detached {
		t.Error("the view's buffer was not transferred")
	}
	got := res.value.(ArrayBufferView)
	if !bytes.Equal(got.Buffer.(*testBuffer).data, []byte{0, 1, 2, 3}) || got.ByteOffset != 1 || got.ByteLength != 3 {
		t.Errorf("filled view %+v over %v", got, got.Buffer.(*testBuffer).data)
	}
	if c.queueTotalSize != 2 {
		t.Errorf("queue holds %d bytes, want 2", c.queueTotalSize)
	}
	// A Uint16Array of 2 elements with min 2 waits for 4 bytes: the 2
	// queued ones are copied, then an enqueue completes it.
	res, _ = readInto(t, r, ArrayBufferView{Buffer: &testBuffer{data: make([]byte, 4)}, ByteLength: 4, Constructor: "Uint16Array", ElementSize: 2}, 2)
	if res.settled {
		t.Fatalf("read with min 2 settled early: %+v", res)
	}
	if err := c.Enqueue(u8(6, 7, 8)); err != nil {
		t.Fatal(err)
	}
	if !res.settled || !bytes.Equal(viewBytes(t, res.value), []byte{4, 5, 6, 7}) {
		t.Fatalf("read with min 2: %+v", res)
	}
	// Close with 1 byte queued: a read of a Uint16Array can't be filled.
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	res, _ = readInto(t, r, ArrayBufferView{Buffer: &testBuffer{data: make([]byte, 2)}, ByteLength: 2, Constructor: "Uint16Array", ElementSize: 2}, 1)
	if !isTypeError(res.err) || s.State() != Errored {
		t.Fatalf("partial element at close: %+v, state %d", res, s.State())
	}
}

func TestBYOBRequestRespond(t *testing.T) {
	h := &testHost{}
	pulls := 0
	var s *ReadableStream
	s, c := newTestByteStream(t, h, ByteSource{Pull: func(*ByteController) Promise { pulls++; return h.PromiseResolvedWith(nil) }})
	r, _ := AcquireReadableStreamBYOBReader(s)
	res, _ := readInto(t, r, ArrayBufferView{Buffer: &testBuffer{data: make([]byte, 8)}, ByteLength: 8, Constructor: "Uint8Array", ElementSize: 1}, 1)
	h.run()
	if pulls != 1 {
		t.Fatalf("pulls = %d, want 1", pulls)
	}
	req := c.BYOBRequest()
	if req == nil || c.BYOBRequest() != req {
		t.Fatal("no stable BYOB request")
	}
	view := req.View().(ArrayBufferView)
	copy(view.Buffer.(*testBuffer).data, "abc")
	if err := req.Respond(0); !errors.As(err, new(*TypeError)) {
		t.Errorf("respond(0) on a readable stream = %v, want TypeError", err)
	}
	if err := req.Respond(9); !errors.As(err, new(*RangeError)) {
		t.Errorf("respond(9) past the view = %v, want RangeError", err)
	}
	if err := req.Respond(3); err != nil {
		t.Fatal(err)
	}
	if !res.settled || string(viewBytes(t, res.value)) != "abc" {
		t.Fatalf("read after respond(3): %+v", res)
	}
	// The request is invalidated.
	if err := req.Respond(1); !errors.As(err, new(*TypeError)) || c.BYOBRequest() != nil {
		t.Errorf("respond on an invalidated request = %v", err)
	}
	// respondWithNewView checks the region.
	readInto(t, r, ArrayBufferView{Buffer: &testBuffer{data: make([]byte, 4)}, ByteLength: 4, Constructor: "Uint8Array", ElementSize: 1}, 1)
	req = c.BYOBRequest()
	v := req.View().(ArrayBufferView)
	if err := req.RespondWithNewView(ArrayBufferView{Buffer: &testBuffer{data: make([]byte, 5)}, ByteLength: 1, Constructor: "Uint8Array", ElementSize: 1}); !errors.As(err, new(*RangeError)) {
		t.Errorf("respondWithNewView with another buffer size = %v, want RangeError", err)
	}
	if err := req.RespondWithNewView(ArrayBufferView{Buffer: v.Buffer, ByteOffset: 1, ByteLength: 1, Constructor: "Uint8Array", ElementSize: 1}); !errors.As(err, new(*RangeError)) {
		t.Errorf("respondWithNewView at another offset = %v, want RangeError", err)
	}
	// Closing with a pending read: respond(0) closes it with an empty view.
	res, _ = readInto(t, r, ArrayBufferView{Buffer: &testBuffer{data: make([]byte, 4)}, ByteLength: 4, Constructor: "Uint8Array", ElementSize: 1}, 1)
	if res.settled {
		t.Fatalf("second read settled early: %+v", res)
	}
	if err := Close(s); err != nil {
		t.Fatal(err)
	}
	if s.State() != Closed {
		t.Fatalf("state %d after close", s.State())
	}
	if !res.settled || !res.done || len(viewBytes(t, res.value)) != 0 {
		t.Fatalf("pending read at close: %+v", res)
	}
}

func TestBYOBReaderBadInput(t *testing.T) {
	h := &testHost{}
	def, err := New(h, UnderlyingSource{}, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AcquireReadableStreamBYOBReader(def); !errors.As(err, new(*TypeError)) {
		t.Errorf("BYOB reader of a default stream: %v, want TypeError", err)
	}
	s, _ := newTestByteStream(t, h, ByteSource{})
	r, err := AcquireReadableStreamBYOBReader(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := AcquireReadableStreamDefaultReader(s); !errors.As(err, new(*TypeError)) {
		t.Errorf("second reader: %v, want TypeError", err)
	}
	detached := &testBuffer{detached: true}
	for _, tc := range []struct {
		name   string
		view   ArrayBufferView
		min    uint64
		range_ bool
	}{
		{"empty view", ArrayBufferView{Buffer: &testBuffer{data: make([]byte, 4)}, Constructor: "Uint8Array", ElementSize: 1}, 1, false},
		{"detached", ArrayBufferView{Buffer: detached, ByteLength: 0, Constructor: "Uint8Array", ElementSize: 1}, 1, false},
		{"min 0", u8(1, 2), 0, false},
		{"min past the length", ArrayBufferView{Buffer: &testBuffer{data: make([]byte, 4)}, ByteLength: 4, Constructor: "Uint16Array", ElementSize: 2}, 3, true},
	} {
		_, err := readInto(t, r, tc.view, tc.min)
		if tc.range_ != errors.As(err, new(*RangeError)) || (!tc.range_ && !errors.As(err, new(*TypeError))) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	// Release errors pending read-into requests; cancel closes them.
	res, _ := readInto(t, r, u8(0, 0), 1)
	r.ReleaseLock()
	if !isTypeError(res.err) {
		t.Errorf("release: pending read %+v", res)
	}
	if _, err := readInto(t, r, u8(0), 1); !errors.As(err, new(*TypeError)) {
		t.Errorf("read on a released reader: %v", err)
	}
	r2, _ := AcquireReadableStreamBYOBReader(s)
	res, _ = readInto(t, r2, u8(0, 0), 1)
	r2.Cancel("why")
	if !res.settled || !res.done || res.value != nil {
		t.Errorf("cancel: pending read %+v", res)
	}
}

func TestByteStreamDefaultReaderAndAutoAllocate(t *testing.T) {
	h := &testHost{}
	var got *BYOBRequest
	s, c := newTestByteStream(t, h, ByteSource{AutoAllocateChunkSize: 4, Pull: func(c *ByteController) Promise {
		got = c.BYOBRequest()
		return h.PromiseResolvedWith(nil)
	}})
	r, _ := AcquireReadableStreamDefaultReader(s)
	res := read(t, r)
	h.run()
	if got == nil || got.View().(ArrayBufferView).ByteLength != 4 {
		t.Fatalf("autoAllocateChunkSize gave no 4-byte BYOB request: %+v", got)
	}
	copy(got.View().(ArrayBufferView).Buffer.(*testBuffer).data, "xy")
	if err := got.Respond(2); err != nil {
		t.Fatal(err)
	}
	if !res.settled || string(viewBytes(t, res.value)) != "xy" {
		t.Fatalf("default read through auto-allocation: %+v", res)
	}
	// Enqueue straight to a pending default read, then queue.
	res = read(t, r)
	_ = c.Enqueue(u8('z'))
	if !res.settled || string(viewBytes(t, res.value)) != "z" {
		t.Fatalf("enqueue to a pending read: %+v", res)
	}
	// Bad enqueue input.
	if err := c.Enqueue(ArrayBufferView{Buffer: &testBuffer{data: make([]byte, 1)}, Constructor: "Uint8Array", ElementSize: 1}); !errors.As(err, new(*TypeError)) {
		t.Errorf("empty chunk: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); !errors.As(err, new(*TypeError)) {
		t.Errorf("close twice: %v", err)
	}
	if err := c.Enqueue(u8(1)); !errors.As(err, new(*TypeError)) {
		t.Errorf("enqueue after close: %v", err)
	}
	if res := read(t, r); !res.done {
		t.Errorf("read after close: %+v", res)
	}
}

func TestByteStreamCloseAfterQueueDrains(t *testing.T) {
	for _, byob := range []bool{false, true} {
		h := &testHost{}
		s, c := newTestByteStream(t, h, ByteSource{})
		_ = c.Enqueue(u8(1, 2))
		if err := c.Close(); err != nil || s.State() != Readable {
			t.Fatalf("close with bytes queued: %v, state %d", err, s.State())
		}
		var value any
		if byob {
			r, _ := AcquireReadableStreamBYOBReader(s)
			res, _ := readInto(t, r, u8(0, 0, 0), 1)
			value = res.value
		} else {
			r, _ := AcquireReadableStreamDefaultReader(s)
			value = read(t, r).value
		}
		if !bytes.Equal(viewBytes(t, value), []byte{1, 2}) || s.State() != Closed {
			t.Errorf("byob %v: read %v, state %d; want [1 2] and closed", byob, value, s.State())
		}
	}
}

func TestByteStreamTee(t *testing.T) {
	h := &testHost{}
	var canceled any
	s, c := newTestByteStream(t, h, ByteSource{Cancel: func(r any) Promise { canceled = r; return h.PromiseResolvedWith(nil) }})
	b1, b2, err := ReadableStreamTee(s, true)
	if err != nil {
		t.Fatal(err)
	}
	if b1.ByteController() == nil || b2.ByteController() == nil {
		t.Fatal("the branches of a byte stream are not byte streams")
	}
	h.run()
	// Branch 1 reads with a default reader, branch 2 with a BYOB reader.
	r1, _ := AcquireReadableStreamDefaultReader(b1)
	r2, _ := AcquireReadableStreamBYOBReader(b2)
	res1 := read(t, r1)
	h.run()
	_ = c.Enqueue(u8(1, 2, 3))
	h.run()
	dst := &testBuffer{data: make([]byte, 2)}
	res2, _ := readInto(t, r2, ArrayBufferView{Buffer: dst, ByteLength: 2, Constructor: "Uint8Array", ElementSize: 1}, 1)
	h.run()
	if !res1.settled || !bytes.Equal(viewBytes(t, res1.value), []byte{1, 2, 3}) {
		t.Fatalf("branch 1 read %+v", res1)
	}
	if !res2.settled || !bytes.Equal(viewBytes(t, res2.value), []byte{1, 2}) {
		t.Fatalf("branch 2 BYOB read %+v", res2)
	}
	if res1.value.(ArrayBufferView).Buffer == res2.value.(ArrayBufferView).Buffer {
		t.Error("the branches share a buffer (no clone)")
	}
	// Canceling both branches cancels the source with both reasons.
	r1.Cancel("one")
	r2.Cancel("two")
	h.run()
	if !reflect.DeepEqual(canceled, []any{"one", "two"}) {
		t.Errorf("source canceled with %v", canceled)
	}

	// An error of the source errors both branches.
	h2 := &testHost{}
	s2, c2 := newTestByteStream(t, h2, ByteSource{})
	b3, b4, _ := ReadableStreamTee(s2, false)
	h2.run()
	c2.Error("boom")
	h2.run()
	if b3.State() != Errored || b4.State() != Errored || b3.StoredError() != "boom" {
		t.Errorf("branches after the source errored: %d %d", b3.State(), b4.State())
	}
}
