package ipc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"syscall"
	"time"

	"github.com/gowebengine/weblocks/browser/ipc/lockspb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// This file is the framed lock session: the lockspb session's calls and
// events, each a length-prefixed protobuf message, on a socket pair of
// their own (Peer.Locks, NewFramedRemoteService), instead of a gRPC
// stream (see doc.go for why).
//
// A frame is a 4-byte big-endian header and a payload. The header's low
// 31 bits are the payload's length; its high bit marks the browser
// process's last frame, a google.rpc.Status saying why it ended the
// session (a refused call), as a gRPC stream's trailer does. Other frames
// are a lockspb.Call (renderer to browser process) or a lockspb.Event.

const (
	frameHeaderBytes = 4
	statusFrameFlag  = 1 << 31
	// frameBufferBytes is a frame reader's buffer, and what a frame
	// writer keeps of its own between writes.
	frameBufferBytes = 64 << 10
	// MaxQueuedCallBytes bounds the calls a renderer queues while the
	// browser process does not read them (its socket is full); past it
	// the renderer gives up the session (its clients are terminated).
	MaxQueuedCallBytes = 64 << 20
)

// frameError is a frame that breaks the framing rules (a renderer that
// sends it is refused).
type frameError struct{ msg string }

func (e *frameError) Error() string { return "ipc: " + e.msg }

// frameReader reads frames of at most max bytes from r into a buffer of
// its own: memory bounded by max, whatever r sends.
type frameReader struct {
	r          io.Reader
	max        int
	buf        []byte
	start, end int // buf[start:end] is read and not yet returned
}

func newFrameReader(r io.Reader, max int) *frameReader {
	return &frameReader{r: r, max: max, buf: make([]byte, frameBufferBytes)}
}

// next returns the next frame's payload, valid until the next call, and
// whether it is a status frame. It returns io.EOF at a clean end (between
// frames), a *frameError for a frame longer than max or cut short by the
// end, and r's other errors as they are.
func (fr *frameReader) next() (payload []byte, isStatus bool, err error) {
	for {
		avail := fr.end - fr.start
		need := frameHeaderBytes
		if avail >= frameHeaderBytes {
			h := binary.BigEndian.Uint32(fr.buf[fr.start:])
			size := int(h &^ statusFrameFlag)
			if size > fr.max {
				return nil, false, &frameError{fmt.Sprintf("a frame of %d bytes, over the limit of %d", size, fr.max)}
			}
			need += size
			if avail >= need {
				p := fr.buf[fr.start+frameHeaderBytes : fr.start+need]
				fr.start += need
				return p, h&statusFrameFlag != 0, nil
			}
		}
		fr.makeRoom(need)
		n, err := fr.r.Read(fr.buf[fr.end:])
		fr.end += n
		if err != nil && n == 0 {
			if errors.Is(err, io.EOF) && fr.end > fr.start {
				return nil, false, &frameError{fmt.Sprintf("the connection ended within a frame (%d bytes of it)", fr.end-fr.start)}
			}
			return nil, false, err
		}
	}
}

// makeRoom makes buf hold need bytes from start on, with room to read.
func (fr *frameReader) makeRoom(need int) {
	if fr.start == fr.end {
		fr.start, fr.end = 0, 0
		if len(fr.buf) > frameBufferBytes && need <= frameBufferBytes {
			fr.buf = make([]byte, frameBufferBytes) // a big frame's buffer goes
		}
	}
	if need <= len(fr.buf)-fr.start && fr.end < len(fr.buf) {
		return
	}
	if need > len(fr.buf) {
		nb := make([]byte, max(need, min(2*len(fr.buf), frameHeaderBytes+fr.max)))
		fr.end = copy(nb, fr.buf[fr.start:fr.end])
		fr.buf, fr.start = nb, 0
		return
	}
	fr.end = copy(fr.buf, fr.buf[fr.start:fr.end])
	fr.start = 0
}

// appendFrame appends m as a frame to b; a message longer than max is
// refused.
func appendFrame(b []byte, m proto.Message, flag uint32, max int) ([]byte, error) {
	at := len(b)
	b = append(b, 0, 0, 0, 0)
	b, err := proto.MarshalOptions{}.MarshalAppend(b, m)
	if err != nil {
		return b[:at], err
	}
	n := len(b) - at - frameHeaderBytes
	if n > max {
		return b[:at], fmt.Errorf("ipc: a message of %d bytes, over the limit of %d", n, max)
	}
	binary.BigEndian.PutUint32(b[at:], uint32(n)|flag)
	return b, nil
}

// framedServerStream is the browser process's end of a framed session.
type framedServerStream struct {
	conn net.Conn
	fr   *frameReader

	mu  sync.Mutex
	buf []byte
}

func newFramedServerStream(conn net.Conn) *framedServerStream {
	return &framedServerStream{conn: conn, fr: newFrameReader(conn, MaxRecvBytes)}
}

// Recv returns the renderer's next call; a bad frame or message is a
// violation.
func (s *framedServerStream) Recv() (*lockspb.Call, error) {
	p, isStatus, err := s.fr.next()
	var fe *frameError
	switch {
	case errors.As(err, &fe):
		return nil, refuse(codes.InvalidArgument, "%s", fe.msg)
	case err != nil:
		return nil, err
	case isStatus:
		return nil, refuse(codes.InvalidArgument, "a status frame from a renderer")
	}
	c := &lockspb.Call{}
	if err := proto.Unmarshal(p, c); err != nil {
		return nil, refuse(codes.InvalidArgument, "a malformed call (%d bytes): %v", len(p), err)
	}
	return c, nil
}

// Send sends an event (sendBatch).
func (s *framedServerStream) Send(ev *lockspb.Event) error {
	return s.sendBatch([]*lockspb.Event{ev})
}

// sendBatch sends events in one write; it waits while the renderer's
// socket is full (as a gRPC stream's Send waits for flow control).
func (s *framedServerStream) sendBatch(evs []*lockspb.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	b := s.buf[:0]
	for _, ev := range evs {
		var err error
		if b, err = appendFrame(b, ev, 0, MaxMessageBytes); err != nil {
			return status.Error(codes.ResourceExhausted, err.Error())
		}
	}
	_, err := s.conn.Write(b)
	if cap(b) <= frameBufferBytes {
		s.buf = b[:0]
	}
	return err
}

// interruptSend makes a Send that waits for the renderer fail.
func (s *framedServerStream) interruptSend() { _ = s.conn.SetWriteDeadline(time.Now()) }

// end sends st, why the browser process ends the session, as the last
// frame (waiting a second at most for a renderer that does not read),
// then closes the connection.
func (s *framedServerStream) end(st *status.Status) {
	if st != nil {
		if b, err := appendFrame(nil, st.Proto(), statusFrameFlag, MaxMessageBytes); err == nil {
			s.mu.Lock()
			_ = s.conn.SetWriteDeadline(time.Now().Add(time.Second))
			_, _ = s.conn.Write(b)
			s.mu.Unlock()
		}
	}
	s.conn.Close()
}

// frameWriter writes a renderer's frames from its event loop without ever
// waiting: a frame goes to the socket at once (one write syscall) when
// nothing is queued and the socket takes it; otherwise (what the socket
// did not take) it is queued, and a goroutine of its own writes the queue
// out as the browser process reads. Past MaxQueuedCallBytes queued the
// connection is given up.
type frameWriter struct {
	conn net.Conn
	raw  syscall.RawConn
	max  int

	mu       sync.Mutex
	queued   []byte // waiting for the flushing goroutine
	flushing bool   // the flushing goroutine owns the socket's writes
	err      error
}

func newFrameWriter(conn net.Conn, max int) (*frameWriter, error) {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil, fmt.Errorf("ipc: a framed session needs a socket, not a %T", conn)
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return nil, err
	}
	return &frameWriter{conn: conn, raw: raw, max: max}, nil
}

var errQueueFull = errors.New("ipc: the browser process does not read the lock session's calls")

// write writes (or queues) b, one or more whole frames.
func (w *frameWriter) write(b []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if w.flushing {
		if len(w.queued)+len(b) > w.max {
			w.fail(errQueueFull)
			return w.err
		}
		w.queued = append(w.queued, b...)
		return nil
	}
	n, err := w.tryWrite(b)
	if err != nil {
		w.fail(err)
		return w.err
	}
	if n < len(b) {
		w.queued = append(w.queued, b[n:]...)
		w.flushing = true
		go w.flush()
	}
	return nil
}

// tryWrite writes what the socket takes of b now, without waiting.
func (w *frameWriter) tryWrite(b []byte) (int, error) {
	var n int
	var werr error
	err := w.raw.Write(func(fd uintptr) bool {
		for n < len(b) {
			m, err := syscall.Write(int(fd), b[n:])
			if m > 0 {
				n += m
			}
			switch {
			case err == syscall.EINTR:
				continue
			case err == syscall.EAGAIN:
				return true
			case err != nil:
				werr = err
				return true
			case m <= 0:
				return true
			}
		}
		return true
	})
	if err == nil {
		err = werr
	}
	return n, err
}

// flush writes the queue out, waiting for the socket.
func (w *frameWriter) flush() {
	for {
		w.mu.Lock()
		b := w.queued
		w.queued = nil
		if len(b) == 0 || w.err != nil {
			w.flushing = false
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		if _, err := w.conn.Write(b); err != nil {
			w.mu.Lock()
			w.fail(err)
			w.flushing = false
			w.mu.Unlock()
			return
		}
	}
}

// fail gives the connection up (w.mu held).
func (w *frameWriter) fail(err error) {
	if w.err == nil {
		w.err = err
		w.queued = nil
		w.conn.Close()
	}
}

// framedClientStream is a renderer's end of a framed session.
type framedClientStream struct {
	conn net.Conn
	fr   *frameReader
	w    *frameWriter
	buf  []byte // the frame being built (under RemoteService.sendMu)
}

func newFramedClientStream(conn net.Conn) (*framedClientStream, error) {
	w, err := newFrameWriter(conn, MaxQueuedCallBytes)
	if err != nil {
		return nil, err
	}
	return &framedClientStream{conn: conn, fr: newFrameReader(conn, MaxMessageBytes), w: w}, nil
}

// Send sends a call without waiting (frameWriter); calls are serialized
// by the caller.
func (s *framedClientStream) Send(c *lockspb.Call) error {
	b, err := appendFrame(s.buf[:0], c, 0, MaxRecvBytes)
	if err != nil {
		return err
	}
	if cap(b) <= frameBufferBytes {
		s.buf = b[:0]
	}
	return s.w.write(b)
}

// Recv returns the next event; the browser process's status frame ends
// the session with its status.
func (s *framedClientStream) Recv() (*lockspb.Event, error) {
	p, isStatus, err := s.fr.next()
	if err != nil {
		return nil, err
	}
	if isStatus {
		sp := status.New(codes.Unknown, "").Proto() // a google.rpc.Status to decode into
		if err := proto.Unmarshal(p, sp); err != nil {
			return nil, fmt.Errorf("ipc: a malformed status frame: %w", err)
		}
		if err := status.FromProto(sp).Err(); err != nil {
			return nil, err
		}
		return nil, errors.New("ipc: the browser process ended the lock session")
	}
	ev := &lockspb.Event{}
	if err := proto.Unmarshal(p, ev); err != nil {
		return nil, fmt.Errorf("ipc: a malformed event (%d bytes): %w", len(p), err)
	}
	return ev, nil
}
