package ipc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/browser/ipc/lockspb"
	"github.com/gowebengine/weblocks/weblocks"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

// chunkReader returns data in reads of the sizes of chunks (cycled).
type chunkReader struct {
	data   []byte
	chunks []byte
	i      int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := 1 + int(r.chunks[r.i%len(r.chunks)])
	r.i++
	n = min(n, len(p), len(r.data))
	copy(p, r.data[:n])
	r.data = r.data[n:]
	return n, nil
}

// FuzzFrameReader: whatever bytes arrive, in whatever pieces, the frame
// reader returns whole frames of at most its limit, then io.EOF at a
// frame's boundary or a *frameError (a frame over the limit, or cut short),
// never panics, and never holds more than the limit's worth of buffer.
func FuzzFrameReader(f *testing.F) {
	frame := func(m proto.Message) []byte {
		b, err := appendFrame(nil, m, 0, 1<<20)
		if err != nil {
			f.Fatal(err)
		}
		return b
	}
	req := frame(&lockspb.Call{Call: &lockspb.Call_Request{Request: &lockspb.Request{Client: 1, Request: 1, Name: []byte("L"), Mode: excl, Wait: wait}}})
	f.Add(req, []byte{255})
	f.Add(append(append([]byte{}, req...), req...), []byte{0, 3})
	f.Add(req[:len(req)-1], []byte{1})                     // cut short
	f.Add([]byte{0x7f, 0xff, 0xff, 0xff, 1, 2}, []byte{0}) // huge
	f.Add([]byte{0x80, 0, 0, 2, 8, 1}, []byte{9})          // a status frame
	f.Add([]byte{0, 0, 0, 3, 0xff, 0xff, 0xff}, []byte{2}) // garbage
	f.Add(bytes.Repeat([]byte{0, 0, 0x10, 0}, 2000), []byte{200, 7})
	const limit = 16 << 10
	f.Fuzz(func(t *testing.T, data, chunks []byte) {
		if len(chunks) == 0 {
			chunks = []byte{255}
		}
		fr := newFrameReader(&chunkReader{data: data, chunks: chunks}, limit)
		consumed := 0
		for {
			p, isStatus, err := fr.next()
			if cap(fr.buf) > max(frameBufferBytes, 2*(frameHeaderBytes+limit)) {
				t.Fatalf("a buffer of %d bytes for frames of at most %d", cap(fr.buf), limit)
			}
			if err != nil {
				var fe *frameError
				switch {
				case errors.Is(err, io.EOF):
					if consumed != len(data) {
						t.Fatalf("EOF after %d of %d bytes", consumed, len(data))
					}
				case errors.As(err, &fe):
					if fe.Error() == "" {
						t.Fatal("an empty error")
					}
				default:
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if len(p) > limit {
				t.Fatalf("a frame of %d bytes, over the limit of %d", len(p), limit)
			}
			h := binary.BigEndian.Uint32(data[consumed:])
			if int(h&^statusFrameFlag) != len(p) || (h&statusFrameFlag != 0) != isStatus || !bytes.Equal(p, data[consumed+4:consumed+4+len(p)]) {
				t.Fatalf("frame at %d: got %d bytes (status %v), header %#x", consumed, len(p), isStatus, h)
			}
			consumed += 4 + len(p)
			// What a session does with it: never a panic.
			_ = proto.Unmarshal(p, &lockspb.Call{})
		}
	})
}

// TestFramedBadFrames: a renderer sending a frame longer than
// MaxRecvBytes (up to 2 GiB announced), a status frame or a malformed
// message is refused and killed, without the browser process allocating
// for the announced length; one whose connection ends within a frame is
// gone: its lock is released to another renderer.
func TestFramedBadFrames(t *testing.T) {
	for _, tc := range []struct {
		name  string
		bytes []byte
		code  codes.Code
		want  string
	}{
		{"2 GiB", []byte{0x7f, 0xff, 0xff, 0xff, 1, 2, 3}, codes.InvalidArgument, fmt.Sprintf("a frame of %d bytes, over the limit of %d", 1<<31-1, MaxRecvBytes)},
		{"limit+1", binary.BigEndian.AppendUint32(nil, MaxRecvBytes+1), codes.InvalidArgument, "over the limit of"},
		{"status frame", []byte{0x80, 0, 0, 0}, codes.InvalidArgument, "a status frame from a renderer"},
		{"malformed", []byte{0, 0, 0, 3, 0xff, 0xff, 0xff}, codes.InvalidArgument, "a malformed call (3 bytes)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ls := NewLockServer(weblocks.NewService(), t.Logf)
			bad := framedSession.newRaw(t, ls, "https://a.test", 0)
			bad.register(1, "env-bad", "https://a.test")
			bad.request(1, 1, "L", excl, wait)
			bad.outcome()
			heap := heapBytes()
			if err := bad.locks.out.writeAll(tc.bytes); err != nil {
				t.Fatal(err)
			}
			bad.refused(tc.code, tc.want)
			if h := heapBytes(); h > heap+16<<20 {
				t.Errorf("the heap grew by %d MiB", (h-heap)>>20)
			}
			// Its lock went with it.
			other := framedSession.newRaw(t, ls, "https://a.test", 0)
			other.register(1, "env-other", "https://a.test")
			other.request(1, 1, "L", excl, wait)
			if o := other.outcome(); o.Kind != lockspb.OutcomeKind_OUTCOME_KIND_GRANTED {
				t.Fatalf("other: %v", o)
			}
		})
	}
	t.Run("cut short", func(t *testing.T) {
		ls := NewLockServer(weblocks.NewService(), t.Logf)
		bad := framedSession.newRaw(t, ls, "https://a.test", 0)
		bad.register(1, "env-bad", "https://a.test")
		bad.request(1, 1, "L", excl, wait)
		bad.outcome()
		other := framedSession.newRaw(t, ls, "https://a.test", 0)
		other.register(1, "env-other", "https://a.test")
		other.request(1, 1, "L", excl, wait)
		other.query(1, 1) // queued
		bad.locks.out.writeAll([]byte{0, 0, 0, 100, 1, 2, 3})
		bad.locks.out.Close()
		if o := other.outcome(); o.Kind != lockspb.OutcomeKind_OUTCOME_KIND_GRANTED {
			t.Fatalf("other: %v", o)
		}
		select {
		case <-bad.end:
		case <-time.After(time.Minute):
			t.Fatal("the session did not end")
		}
		// A renderer that died while writing is not refused.
		select {
		case reason := <-bad.killed:
			t.Fatalf("killed: %s", reason)
		default:
		}
	})
}

// TestFramedQueuedCalls: calls that the socket does not take at once
// (the browser process is slow to read) are queued and all arrive, in
// order, without the caller waiting; past MaxQueuedCallBytes the session
// is given up.
func TestFramedQueuedCalls(t *testing.T) {
	browserEnd, rendererEnd := framedSession.lockPair(t)
	defer browserEnd.Close()
	closed := make(chan struct{})
	w := &frameWriter{out: rendererEnd.out, max: 4 << 20, fail: func() { rendererEnd.Close(); close(closed) }}
	// 2 MiB of frames with nobody reading: more than the socket takes.
	frame := func(i uint64) []byte {
		b, _ := appendFrame(nil, &lockspb.Call{Call: &lockspb.Call_Abort{Abort: &lockspb.Abort{Request: i}}}, 0, MaxRecvBytes)
		return b
	}
	big, _ := appendFrame(nil, &lockspb.Call{Call: &lockspb.Call_Request{Request: &lockspb.Request{Name: make([]byte, 64<<10)}}}, 0, MaxRecvBytes)
	var n uint64
	for range 32 {
		n++
		if err := w.write(frame(n)); err != nil {
			t.Fatal(err)
		}
		if err := w.write(big); err != nil {
			t.Fatal(err)
		}
	}
	w.mu.Lock()
	queued := len(w.queued) > 0 || w.flushing
	w.mu.Unlock()
	if !queued {
		t.Fatal("2 MiB went to the socket at once: the test proves nothing")
	}
	fr := newFrameReader(browserEnd.in, MaxRecvBytes)
	for i := uint64(1); i <= n; i++ {
		for {
			p, _, err := fr.next()
			if err != nil {
				t.Fatal(err)
			}
			var c lockspb.Call
			if err := proto.Unmarshal(p, &c); err != nil {
				t.Fatal(err)
			}
			if a := c.GetAbort(); a != nil {
				if a.Request != i {
					t.Fatalf("call %d arrived as %d", i, a.Request)
				}
				break
			}
		}
	}
	// Nobody reads any more: past the bound, the session is given up.
	for {
		if err := w.write(big); err != nil {
			if !errors.Is(err, errQueueFull) {
				t.Fatalf("got %v", err)
			}
			break
		}
	}
	<-closed
	if _, err := rendererEnd.out.tryWrite([]byte{0}); err == nil {
		t.Fatal("the connection was not closed")
	}
}
