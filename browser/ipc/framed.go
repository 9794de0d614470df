package ipc

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gowebengine/weblocks/browser/ipc/lockspb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// This file is the framed lock session: the lockspb session's calls and
// events, each a length-prefixed protobuf message, on a socket pair of
// their own (FramedConn: Peer.Locks, NewFramedRemoteService), instead of a gRPC
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
type frameError struct {
	msg string
	cut bool // the connection ended within the frame
}

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
				return nil, false, &frameError{fmt.Sprintf("a frame of %d bytes, over the limit of %d", size, fr.max), false}
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
				return nil, false, &frameError{fmt.Sprintf("the connection ended within a frame (%d bytes of it)", fr.end-fr.start), true}
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

// FramedConn is one process's ends of a framed lock session: two socket
// pairs, each carrying the frames of one direction. The end this process
// reads is in Go's network poller (a read waits for data without a
// thread); the end it writes is not, and is written without waiting: a
// socket in the poller is watched for writability too, and every time
// the peer takes data from it the poller wakes this process for nothing
// (measured: about every other cycle, in each process). A write the
// socket does not take at once is retried after a short sleep, from 20
// us doubling up to 5 ms, which happens only while the peer does not
// read.
type FramedConn struct {
	in  net.Conn
	out *rawOut
}

// NewFramedPair returns the two socket pairs of a framed lock session:
// the browser process's ends (for Peer.Locks) and the renderer's, as files
// for exec.Cmd.ExtraFiles (FramedConnFromFiles opens them): the calls it
// writes, then the events it reads.
func NewFramedPair() (browser *FramedConn, calls, events *os.File, err error) {
	callsIn, calls, err := SocketPair()
	if err != nil {
		return nil, nil, nil, err
	}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		callsIn.Close()
		calls.Close()
		return nil, nil, nil, fmt.Errorf("ipc: socketpair: %w", err)
	}
	eventsOut, err := newRawOut(os.NewFile(uintptr(fds[0]), "ipc-lock-events"))
	if err != nil {
		callsIn.Close()
		calls.Close()
		syscall.Close(fds[1])
		return nil, nil, nil, err
	}
	return &FramedConn{in: callsIn, out: eventsOut}, calls, os.NewFile(uintptr(fds[1]), "ipc-lock-events"), nil
}

// FramedConnFromFiles returns a renderer's ends of its framed lock
// session from the files NewFramedPair gave it (inherited: e.g.
// os.NewFile(4, "calls"), os.NewFile(5, "events")).
func FramedConnFromFiles(calls, events *os.File) (*FramedConn, error) {
	in, err := FileConn(events)
	if err != nil {
		calls.Close()
		return nil, err
	}
	out, err := newRawOut(calls)
	if err != nil {
		in.Close()
		return nil, err
	}
	return &FramedConn{in: in, out: out}, nil
}

// Close closes both ends.
func (c *FramedConn) Close() error {
	c.out.Close()
	return c.in.Close()
}

// rawOut is the writing end of a socket outside Go's network poller, in
// non-blocking mode.
type rawOut struct {
	mu     sync.Mutex
	f      *os.File
	fd     int
	closed bool
	stop   atomic.Bool // writeAll gives up
}

// newRawOut makes f (a socket in blocking mode, so that os.NewFile did
// not put it in the poller) a rawOut.
func newRawOut(f *os.File) (*rawOut, error) {
	fd := int(f.Fd())
	if err := syscall.SetNonblock(fd, true); err != nil {
		f.Close()
		return nil, fmt.Errorf("ipc: %w", err)
	}
	return &rawOut{f: f, fd: fd}, nil
}

// tryWrite writes what the socket takes of b now, without waiting.
func (o *rawOut) tryWrite(b []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return 0, net.ErrClosed
	}
	n := 0
	for n < len(b) {
		m, err := syscall.Write(o.fd, b[n:])
		if m > 0 {
			n += m
		}
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return n, nil
		case err != nil:
			return n, err
		case m <= 0:
			return n, io.ErrShortWrite
		}
	}
	return n, nil
}

// writeAll writes b, sleeping while the socket is full, until it is
// written, the socket closed or stop set.
func (o *rawOut) writeAll(b []byte) error {
	wait := 20 * time.Microsecond
	for {
		n, err := o.tryWrite(b)
		if err != nil {
			return err
		}
		if b = b[n:]; len(b) == 0 {
			return nil
		}
		if o.stop.Load() {
			return errStopped
		}
		if n > 0 {
			wait = 20 * time.Microsecond
		}
		time.Sleep(wait)
		wait = min(2*wait, 5*time.Millisecond)
	}
}

var errStopped = errors.New("ipc: the session ended")

// Close closes the socket (a write under way ends first).
func (o *rawOut) Close() error {
	o.stop.Store(true)
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil
	}
	o.closed = true
	return o.f.Close()
}

// framedServerStream is the browser process's end of a framed session.
type framedServerStream struct {
	c  *FramedConn
	fr *frameReader

	mu  sync.Mutex
	buf []byte
}

func newFramedServerStream(c *FramedConn) *framedServerStream {
	return &framedServerStream{c: c, fr: newFrameReader(c.in, MaxRecvBytes)}
}

// Recv returns the renderer's next call; a bad frame or message is a
// violation.
func (s *framedServerStream) Recv() (*lockspb.Call, error) {
	p, isStatus, err := s.fr.next()
	var fe *frameError
	switch {
	case errors.As(err, &fe) && !fe.cut:
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
	err := s.c.out.writeAll(b)
	if cap(b) <= frameBufferBytes {
		s.buf = b[:0]
	}
	return err
}

// interruptSend makes a Send that waits for the renderer fail.
func (s *framedServerStream) interruptSend() { s.c.out.stop.Store(true) }

// end sends st, why the browser process ends the session, as the last
// frame (if the renderer's socket takes it at once), then closes the
// connection.
func (s *framedServerStream) end(st *status.Status) {
	if st != nil {
		if b, err := appendFrame(nil, st.Proto(), statusFrameFlag, MaxMessageBytes); err == nil {
			s.mu.Lock()
			_, _ = s.c.out.tryWrite(b)
			s.mu.Unlock()
		}
	}
	s.c.Close()
}

// frameWriter writes a renderer's frames from its event loop without ever
// waiting: a frame goes to the socket at once (one write system call)
// when nothing is queued and the socket takes it; otherwise (what the
// socket did not take) it is queued, and a goroutine of its own writes
// the queue out as the browser process reads. Past max bytes queued the
// session is given up (fail).
type frameWriter struct {
	out  *rawOut
	max  int
	fail func() // ends the session

	mu       sync.Mutex
	queued   []byte // waiting for the flushing goroutine
	flushing bool   // the flushing goroutine owns the socket's writes
	err      error
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
			w.failLocked(errQueueFull)
			return w.err
		}
		w.queued = append(w.queued, b...)
		return nil
	}
	n, err := w.out.tryWrite(b)
	if err != nil {
		w.failLocked(err)
		return w.err
	}
	if n < len(b) {
		w.queued = append(w.queued, b[n:]...)
		w.flushing = true
		go w.flush()
	}
	return nil
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
		if err := w.out.writeAll(b); err != nil {
			w.mu.Lock()
			w.failLocked(err)
			w.flushing = false
			w.mu.Unlock()
			return
		}
	}
}

// failLocked gives the session up (w.mu held).
func (w *frameWriter) failLocked(err error) {
	if w.err == nil {
		w.err = err
		w.queued = nil
		go w.fail() // not under w.mu: it closes the socket
	}
}

// framedClientStream is a renderer's end of a framed session.
type framedClientStream struct {
	c   *FramedConn
	fr  *frameReader
	w   *frameWriter
	buf []byte // the frame being built (under RemoteService.sendMu)
}

func newFramedClientStream(c *FramedConn) *framedClientStream {
	return &framedClientStream{c: c, fr: newFrameReader(c.in, MaxMessageBytes),
		w: &frameWriter{out: c.out, max: MaxQueuedCallBytes, fail: func() { c.Close() }}}
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
