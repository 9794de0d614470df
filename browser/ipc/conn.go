package ipc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"syscall"
)

// SocketPair returns a connected pair of Unix stream sockets: the browser
// process's end as a net.Conn and the renderer's end as a file, for
// exec.Cmd.ExtraFiles (the renderer opens it with FileConn). Nothing
// listens anywhere: only the two processes hold the ends.
func SocketPair() (net.Conn, *os.File, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("ipc: socketpair: %w", err)
	}
	mine := os.NewFile(uintptr(fds[0]), "ipc-browser")
	theirs := os.NewFile(uintptr(fds[1]), "ipc-renderer")
	c, err := net.FileConn(mine)
	mine.Close() // FileConn dups it
	if err != nil {
		theirs.Close()
		return nil, nil, fmt.Errorf("ipc: socketpair: %w", err)
	}
	return c, theirs, nil
}

// FileConn returns the connection of an inherited socket (a renderer's end
// of SocketPair, e.g. os.NewFile(3, "ipc")). f is closed.
func FileConn(f *os.File) (net.Conn, error) {
	defer f.Close()
	c, err := net.FileConn(f)
	if err != nil {
		return nil, fmt.Errorf("ipc: the inherited socket: %w", err)
	}
	return c, nil
}

// oneConnListener is a net.Listener that accepts one connection, then
// reports itself closed once that connection has been closed (so a grpc
// server serving it returns when its renderer goes away).
type oneConnListener struct {
	mu     sync.Mutex
	conn   net.Conn
	closed chan struct{}
	once   sync.Once
}

func newOneConnListener(c net.Conn) *oneConnListener {
	l := &oneConnListener{closed: make(chan struct{})}
	l.conn = &notifyConn{Conn: c, onClose: l.close}
	return l
}

var errListenerClosed = errors.New("ipc: connection closed")

func (l *oneConnListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	c := l.conn
	l.conn = nil
	l.mu.Unlock()
	if c != nil {
		return c, nil
	}
	<-l.closed
	return nil, errListenerClosed
}

func (l *oneConnListener) close() { l.once.Do(func() { close(l.closed) }) }

func (l *oneConnListener) Close() error {
	l.mu.Lock()
	c := l.conn
	l.conn = nil
	l.mu.Unlock()
	if c != nil {
		c.Close()
	}
	l.close()
	return nil
}

func (l *oneConnListener) Addr() net.Addr { return pipeAddr{} }

// notifyConn calls onClose when closed.
type notifyConn struct {
	net.Conn
	onClose func()
}

func (c *notifyConn) Close() error {
	err := c.Conn.Close()
	c.onClose()
	return err
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "socketpair" }
func (pipeAddr) String() string  { return "socketpair" }

// connDialer dials conn once: the renderer's gRPC client connection has
// exactly one transport, its inherited socket; a second dial (after the
// browser process closed it) fails.
func connDialer(conn net.Conn) func(context.Context, string) (net.Conn, error) {
	var mu sync.Mutex
	return func(context.Context, string) (net.Conn, error) {
		mu.Lock()
		defer mu.Unlock()
		c := conn
		conn = nil
		if c == nil {
			return nil, errors.New("ipc: the connection to the browser process is gone")
		}
		return c, nil
	}
}
