// Package ipc connects renderer processes to the browser process: the
// browser process serves its lock service (weblocks.Service, one lock
// manager per storage bucket) over gRPC (package lockspb, generated from
// lockspb/locks.proto), one session per renderer, on a socket pair the
// renderer inherits (SocketPair, FileConn): nothing listens on a port or
// a path.
//
// The session can also be framed instead (Peer.Locks,
// NewFramedRemoteService): the same lockspb.Call and lockspb.Event
// messages, each after a 4-byte big-endian length (whose high bit marks
// the browser process's last frame, a google.rpc.Status saying why it
// ended the session, as gRPC's trailer does), on two more socket pairs
// of the renderer's, one per direction (FramedConn: the end a process
// writes stays out of Go's network poller, which would wake the process
// each time the peer reads). This is a deliberate deviation from gRPC for this one
// stream, which carries every lock request, grant and release, because
// gRPC's per-message work costs more than a whole cross-process cycle may
// (10x faster than Chromium's, which is 376-504 us on the 2-core test
// machine): gRPC-go hands every message to its writer goroutine and from
// its reader goroutine, frames it in HTTP/2 and needs 3-4 system calls
// for it on each side; a bare gRPC-go request/outcome/release cycle
// between two processes took 51-100 us, a raw socket pair round trip
// 25-31 us. Framed, a renderer's event loop writes its calls itself, one
// write system call each (what the socket does not take at once is
// queued, at most MaxQueuedCallBytes, and written by a goroutine of its
// own: the loop never waits); the browser process's session goroutine
// reads a burst of calls with one read, handles each with the same code
// as a gRPC session (every check and bound below), and writes the events
// the calls caused with one write; the renderer's reader goroutine
// delivers them to the clients. A frame longer than MaxRecvBytes, a
// malformed message or a connection that ends within a frame ends the
// session (the renderer is killed for the first two), with memory bounded
// by the frame limit. Measured: a request/grant/release cycle of the
// contract with both ends in the test process (BenchmarkContractCycle)
// takes 26 us framed against 45-58 us over gRPC; a JS cycle from a
// renderer process (browser's BenchmarkRendererLockCycleSideBySide) 60-64
// us framed against 105-161 us over gRPC, where each process's CPU per
// cycle is now mostly the kernel's (system calls and context switches:
// 4-6 system calls and one wake-up a cycle on each side). The other
// services (the control channel, the network, storage) stay on gRPC.
//
// LockServer is the browser process's side. It trusts no renderer (see
// LockServer): every call is checked against what the renderer owns and
// its site, a bad one ends the session with a gRPC status and kills the
// renderer, and a renderer's outstanding work is bounded: its requests,
// queries and clients (DefaultMaxOutstanding), the bytes of its requests'
// lock names (MaxOutstandingNameBytes), its storage buckets
// (MaxStorageKeys), the events that wait for it when it does not read
// them (Peer.MaxPendingBytes), its concurrent streams (MaxStreams) and the
// bytes in flight on its connection (fixed flow-control windows,
// StreamWindow and ConnWindow); past a bound it is killed (or, for
// streams, made to wait). No renderer holds up another: the lock
// service's steps never wait for a renderer, and a session's events are
// sent by its own goroutines. A session's end (the renderer exited,
// crashed or was killed) terminates its clients, which releases their
// locks and grants the waiters, as a Mojo pipe closing does in Chromium.
package ipc
