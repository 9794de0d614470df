// Package ipc connects renderer processes to the browser process: the
// browser process serves its lock service (weblocks.Service, one lock
// manager per storage bucket) over gRPC (package lockspb, generated from
// lockspb/locks.proto), one session per renderer, on a socket pair the
// renderer inherits (SocketPair, FileConn): nothing listens on a port or
// a path.
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
