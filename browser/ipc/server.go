package ipc

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"

	"github.com/gowebengine/weblocks/browser/ipc/lockspb"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/storage"
	"github.com/gowebengine/weblocks/weblocks"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Limits of what a renderer may send (see LockServer).
const (
	// MaxNameBytes is the longest lock name a renderer may send (its
	// generalized UTF-8 bytes). RemoteService refuses longer names before
	// sending them.
	MaxNameBytes = 1 << 20
	// MaxClientIDBytes is the longest client (environment) id.
	MaxClientIDBytes = 256
	// DefaultMaxOutstanding bounds a renderer's outstanding work in the
	// browser process: its requests not yet finished (waiting or held)
	// plus its queries not yet answered plus its registered clients.
	DefaultMaxOutstanding = 1 << 16
	// MaxOutstandingNameBytes bounds the bytes of the lock names of a
	// renderer's outstanding requests (a flood of long names is refused
	// long before DefaultMaxOutstanding requests).
	MaxOutstandingNameBytes = 64 << 20
	// MaxStorageKeys bounds the storage buckets (storage key and bucket
	// name) one renderer's clients may use: each has a lock manager in
	// the browser process.
	MaxStorageKeys = 256
	// DefaultMaxPendingBytes bounds the events waiting to be sent to a
	// renderer that does not read them (outcomes, snapshots, eviction
	// requests; see Peer.MaxPendingBytes).
	DefaultMaxPendingBytes = 64 << 20
	// MaxRecvBytes bounds a message from a renderer (a lock name of
	// MaxNameBytes, a localStorage item of its quota).
	MaxRecvBytes = 8 << 20
	// MaxMessageBytes bounds a message from the browser process to a
	// renderer (a fetched resource is at most fetch.MaxResponseBytes).
	MaxMessageBytes = 65 << 20
	// MaxStreams bounds a renderer's concurrent gRPC streams (its
	// session, its control channel, its network requests and storage
	// calls under way): a renderer that opens more waits (gRPC queues
	// them), a raw client's excess streams are refused.
	MaxStreams = 100
	// StreamWindow and ConnWindow are the fixed HTTP/2 flow-control
	// windows of a renderer connection (bytes a side may send that the
	// other has not yet taken), for a stream and for the connection.
	StreamWindow = 1 << 20
	ConnWindow   = 4 << 20
	// maxRequestID bounds renderers' request ids (lock ids carry the
	// session in their high bits).
	maxRequestID = 1<<40 - 1
)

// LockServer serves a lock service (weblocks.Service: one lock manager per
// storage bucket) to renderer processes, one session per renderer
// connection (ServeConn). It trusts no renderer: a renderer acts only for
// the clients it registered, with the storage keys of its site, and every
// call is validated again (lock names starting with '-', modes, wait
// modes, ids). A call that breaks a rule ends the renderer's session with
// a gRPC status (PermissionDenied for a foreign client, request, lock or
// storage key; InvalidArgument for a malformed call; ResourceExhausted for
// a flood), is logged, and the renderer is killed (Peer.Kill), as Chromium
// kills a renderer that sends a bad message. When a session ends, for
// whatever reason, every client of the renderer is terminated: its
// requests are aborted, its locks released, the waiters granted.
type LockServer struct {
	svc  weblocks.LockService
	logf func(format string, args ...any)

	sessions atomic.Uint64

	mu  sync.Mutex
	ids map[string]*session // environment id → the session that registered it
}

// NewLockServer returns a server of svc's lock managers (usually the
// browser process's *weblocks.Service). logf (nil:
// nothing is logged) receives the refused calls.
func NewLockServer(svc weblocks.LockService, logf func(format string, args ...any)) *LockServer {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	return &LockServer{svc: svc, logf: logf, ids: map[string]*session{}}
}

// Peer describes the renderer at the other end of a connection.
type Peer struct {
	// Name names the renderer in logs (e.g. "renderer 1234 https://a.test").
	Name string
	// Site is the renderer's site: it may use the storage keys whose
	// origin's site or top-level site is Site.
	Site origin.Site
	// Kill kills the renderer (nil: nothing); it is called, once, when
	// the renderer breaks a rule, with the reason.
	Kill func(reason string)
	// MaxOutstanding bounds the renderer's outstanding work (0:
	// DefaultMaxOutstanding); past it the renderer is killed.
	MaxOutstanding int
	// MaxPendingBytes bounds the events (bytes, about) that wait to be
	// sent to the renderer because it does not read them (0:
	// DefaultMaxPendingBytes); past it the renderer is killed.
	MaxPendingBytes int
	// Services (optional) registers the other services the browser
	// process serves the renderer on its connection.
	Services func(grpc.ServiceRegistrar)
	// Locks (optional) is the browser process's ends of the renderer's
	// lock socket pairs (NewFramedPair): its session is framed on them
	// (the renderer uses NewFramedRemoteService) rather than a gRPC
	// stream on the connection, which then refuses a gRPC session.
	Locks *FramedConn
}

// Served is one renderer's connection being served.
type Served struct {
	srv       *grpc.Server
	done      chan struct{}
	locks     *FramedConn   // Peer.Locks
	locksDone chan struct{} // closed when the framed session has ended
}

// Close ends the connection (and Peer.Locks): the session ends (its
// clients are terminated). Close waits until it has.
func (s *Served) Close() {
	s.srv.Stop()
	if s.locks != nil {
		s.locks.Close()
		<-s.locksDone
	}
	<-s.done
}

// Done is closed when the connection is no longer served (the renderer
// closed it, or Close).
func (s *Served) Done() <-chan struct{} { return s.done }

// ServeConn serves the lock service to one renderer on conn (the browser
// process's end of the renderer's socket pair) until conn closes.
func (ls *LockServer) ServeConn(conn net.Conn, p Peer) *Served {
	if p.MaxOutstanding <= 0 {
		p.MaxOutstanding = DefaultMaxOutstanding
	}
	if p.MaxPendingBytes <= 0 {
		p.MaxPendingBytes = DefaultMaxPendingBytes
	}
	srv := grpc.NewServer(grpc.MaxRecvMsgSize(MaxRecvBytes), grpc.MaxSendMsgSize(MaxMessageBytes), grpc.WaitForHandlers(true),
		grpc.MaxConcurrentStreams(MaxStreams),
		// Fixed flow-control windows: no bandwidth-estimation pings
		// and window updates riding along every message of a session.
		grpc.InitialWindowSize(StreamWindow), grpc.InitialConnWindowSize(ConnWindow))
	h := &handler{ls: ls, peer: p, sid: ls.sessions.Add(1)}
	lockspb.RegisterLockServiceServer(srv, h)
	if p.Services != nil {
		p.Services(srv)
	}
	s := &Served{srv: srv, done: make(chan struct{})}
	if p.Locks != nil {
		h.active.Store(true) // no gRPC session
		s.locks, s.locksDone = p.Locks, make(chan struct{})
		go func() {
			defer close(s.locksDone)
			fs := newFramedServerStream(p.Locks)
			// A refused call's status (or the lock service's) is
			// the last frame, as gRPC's trailer.
			st, ok := status.FromError(h.fail(h.session(fs)))
			if !ok {
				st = nil
			}
			fs.end(st)
		}()
	}
	go func() {
		defer close(s.done)
		_ = srv.Serve(newOneConnListener(conn))
		// The renderer is gone: end its session (Stop waits for the
		// handler, which terminates its clients).
		srv.Stop()
	}()
	return s
}

// handler serves the sessions of one connection (one renderer).
type handler struct {
	lockspb.UnimplementedLockServiceServer
	ls   *LockServer
	peer Peer
	sid  uint64

	once   sync.Once // the renderer is killed once
	active atomic.Bool
}

// violation is a call that breaks a rule.
type violation struct{ st *status.Status }

func (v *violation) Error() string { return v.st.Message() }

func refuse(code codes.Code, format string, args ...any) error {
	return &violation{status.New(code, fmt.Sprintf(format, args...))}
}

// sessionStream is a session's stream of calls and events: a gRPC
// stream (lockspb.LockService_SessionServer) or a framed one.
type sessionStream interface {
	Recv() (*lockspb.Call, error)
	Send(*lockspb.Event) error
}

// batchSender is a sessionStream that sends several events at once.
type batchSender interface {
	sendBatch([]*lockspb.Event) error
}

// Session serves a renderer's session.
func (h *handler) Session(stream lockspb.LockService_SessionServer) error {
	if h.active.Swap(true) {
		return h.fail(refuse(codes.FailedPrecondition, "a second session on one renderer connection"))
	}
	return h.fail(h.session(stream))
}

// session serves a renderer's session until it ends, and returns why.
func (h *handler) session(stream sessionStream) error {
	ss := &session{h: h, svc: h.ls.svc, clients: map[uint64]weblocks.Client{}, requests: map[uint64]*serverRequest{}, queries: map[uint64]bool{}, buckets: map[weblocks.Bucket]bool{}}
	ss.out.init(h.peer.MaxPendingBytes, func(n int) {
		h.kill(fmt.Sprintf("it does not read its lock events: %d bytes of them wait, over the limit of %d", n, h.peer.MaxPendingBytes))
	})
	sendDone := make(chan error, 1)
	go func() { sendDone <- ss.sendLoop(stream) }()
	// recvLoop ends with the session's error: the renderer closed it,
	// the connection broke, or a call broke a rule (a violation).
	err := ss.recvLoop(stream)
	ss.end()
	ss.out.close()
	if i, ok := stream.(interface{ interruptSend() }); ok {
		i.interruptSend() // sendLoop may wait on a renderer that does not read
	}
	<-sendDone
	return err
}

// fail logs a violation and kills the renderer, and returns it as a
// gRPC status error; other errors (the connection closed) pass through.
func (h *handler) fail(err error) error {
	var v *violation
	if !errors.As(err, &v) {
		return err
	}
	h.ls.logf("lock service: refused %s: %s (%s); killing it", h.peer.Name, v.st.Message(), v.st.Code())
	h.killOnce(v.st.Message())
	return v.st.Err()
}

// kill logs why the renderer is killed, and kills it.
func (h *handler) kill(reason string) {
	h.ls.logf("lock service: %s: %s; killing it", h.peer.Name, reason)
	h.killOnce(reason)
}

func (h *handler) killOnce(reason string) {
	h.once.Do(func() {
		if h.peer.Kill != nil {
			h.peer.Kill(reason)
		}
	})
}

// session is one renderer's session: its clients, requests and queries.
type session struct {
	h   *handler
	svc weblocks.LockService

	mu         sync.Mutex
	clients    map[uint64]weblocks.Client
	maxClient  uint64
	requests   map[uint64]*serverRequest
	maxRequest uint64
	queries    map[uint64]bool
	maxQuery   uint64
	ended      bool
	buckets    map[weblocks.Bucket]bool // the buckets of its clients so far
	nameBytes  int                      // of its outstanding requests

	out outbox
}

// serverRequest is a renderer's request in the lock service.
type serverRequest struct {
	id     uint64
	size   int // its name's bytes
	handle weblocks.RequestHandle
	lock   weblocks.LockHandle // once granted
}

// forget drops a finished request (ss.mu held).
func (ss *session) forget(sr *serverRequest) {
	if ss.requests[sr.id] == sr {
		delete(ss.requests, sr.id)
		ss.nameBytes -= sr.size
	}
}

// outstanding is the session's outstanding work (ss.mu held).
func (ss *session) outstanding() int {
	return len(ss.clients) + len(ss.requests) + len(ss.queries)
}

func (ss *session) recvLoop(stream sessionStream) error {
	for {
		call, err := stream.Recv()
		if err != nil {
			return err
		}
		// The events the call causes at once (usually its outcome: the
		// lock service runs a request's steps on this goroutine when its
		// queue is idle) are sent from here, after the call, rather than
		// handed to sendLoop: one goroutine hand-off less per call.
		ss.out.hold()
		err = ss.handle(call)
		if err != nil {
			ss.out.release()
			return err
		}
		if err := ss.out.flush(stream); err != nil {
			return err
		}
	}
}

func (ss *session) handle(call *lockspb.Call) error {
	switch c := call.Call.(type) {
	case *lockspb.Call_Register:
		return ss.register(c.Register)
	case *lockspb.Call_Request:
		return ss.request(c.Request)
	case *lockspb.Call_Release:
		return ss.release(c.Release)
	case *lockspb.Call_Abort:
		return ss.abort(c.Abort)
	case *lockspb.Call_Query:
		return ss.query(c.Query)
	case *lockspb.Call_Terminate:
		return ss.terminate(c.Terminate)
	case *lockspb.Call_SetCached:
		cl, err := ss.client(c.SetCached.GetClient())
		if err != nil {
			return err
		}
		if err := ss.svc.SetCached(cl, c.SetCached.GetCached()); err != nil && !errors.Is(err, weblocks.ErrClientTerminated) {
			return status.Error(codes.Unavailable, err.Error())
		}
		return nil
	}
	return refuse(codes.InvalidArgument, "empty call")
}

// client returns the live client id of this session.
func (ss *session) client(id uint64) (weblocks.Client, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	cl := ss.clients[id]
	if cl == nil {
		if id == 0 || id > ss.maxClient {
			return nil, refuse(codes.PermissionDenied, "client %d was not registered by this renderer", id)
		}
		return nil, refuse(codes.FailedPrecondition, "client %d was terminated", id)
	}
	return cl, nil
}

// checkKey checks that the renderer may use storage key k, and returns it.
func (ss *session) checkKey(k *lockspb.StorageKey) (storage.StorageKey, error) {
	if k == nil {
		return storage.StorageKey{}, refuse(codes.InvalidArgument, "no storage key")
	}
	o := origin.Parse(k.GetOrigin())
	if o.IsOpaque() || o.Serialize() != k.GetOrigin() {
		return storage.StorageKey{}, refuse(codes.InvalidArgument, "bad origin %.100q", k.GetOrigin())
	}
	tls := origin.Parse(k.GetTopLevelSite())
	if tls.IsOpaque() {
		return storage.StorageKey{}, refuse(codes.InvalidArgument, "bad top-level site %.100q", k.GetTopLevelSite())
	}
	site := ss.h.peer.Site
	if origin.ObtainSite(o) != site && origin.ObtainSite(tls) != site {
		return storage.StorageKey{}, refuse(codes.PermissionDenied, "storage key of %s (top-level site %s) for a renderer of %s", k.GetOrigin(), k.GetTopLevelSite(), site.Serialize())
	}
	return storage.StorageKey{Origin: o, TopLevelSite: origin.ObtainSite(tls), HasCrossSiteAncestor: k.GetHasCrossSiteAncestor()}, nil
}

func (ss *session) register(r *lockspb.Register) error {
	id := r.GetClient()
	if id == 0 || id <= ss.maxClient {
		return refuse(codes.InvalidArgument, "client id %d is not a new one (ids increase from 1)", id)
	}
	if len(r.GetId()) == 0 || len(r.GetId()) > MaxClientIDBytes {
		return refuse(codes.InvalidArgument, "bad environment id (%d bytes)", len(r.GetId()))
	}
	key, err := ss.checkKey(r.GetKey())
	if err != nil {
		return err
	}
	if b := r.GetBucket(); b != "" {
		if err := storage.ValidateBucketName(b); err != nil {
			return refuse(codes.InvalidArgument, "%v", err)
		}
	}
	bucket := weblocks.Bucket{Key: key, Name: r.GetBucket()}
	ss.mu.Lock()
	if !ss.buckets[bucket] {
		if len(ss.buckets) >= MaxStorageKeys {
			ss.mu.Unlock()
			return refuse(codes.ResourceExhausted, "a client of a storage bucket past the limit of %d buckets", MaxStorageKeys)
		}
		ss.buckets[bucket] = true
	}
	ss.mu.Unlock()
	ls := ss.h.ls
	ls.mu.Lock()
	if o := ls.ids[r.GetId()]; o != nil && o != ss {
		ls.mu.Unlock()
		return refuse(codes.PermissionDenied, "environment id %q belongs to a client of another renderer", r.GetId())
	}
	ls.ids[r.GetId()] = ss
	ls.mu.Unlock()
	var cl weblocks.Client
	cl, err = ss.svc.Register(weblocks.ClientConfig{
		ID:      r.GetId(),
		Bucket:  bucket,
		Deliver: ss.deliver,
		Evict:   func() { ss.out.pushEvict(id) },
	})
	if err != nil {
		return status.Error(codes.Unavailable, err.Error())
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	ss.maxClient = id
	ss.clients[id] = cl
	return ss.checkFlood()
}

// checkFlood refuses a renderer past its bound (ss.mu held).
func (ss *session) checkFlood() error {
	if n := ss.outstanding(); n > ss.h.peer.MaxOutstanding {
		return refuse(codes.ResourceExhausted, "%d outstanding clients, requests and queries, over the limit of %d", n, ss.h.peer.MaxOutstanding)
	}
	return nil
}

// deliver is the session's clients' deliver function: the tasks the
// service delivers only queue events for the renderer, so they run at
// once, on the lock task queue.
func (ss *session) deliver(t weblocks.Task) { t.RunTask() }

func wireMode(m weblocks.Mode) lockspb.Mode {
	if m == weblocks.Shared {
		return lockspb.Mode_MODE_SHARED
	}
	return lockspb.Mode_MODE_EXCLUSIVE
}

func (ss *session) request(r *lockspb.Request) error {
	cl, err := ss.client(r.GetClient())
	if err != nil {
		return err
	}
	id := r.GetRequest()
	if id <= ss.maxRequest || id > maxRequestID {
		return refuse(codes.InvalidArgument, "request id %d is not a new one (ids increase from 1)", id)
	}
	if len(r.GetName()) > MaxNameBytes {
		return refuse(codes.InvalidArgument, "lock name of %d bytes, over the limit of %d", len(r.GetName()), MaxNameBytes)
	}
	name := weblocks.Name(r.GetName())
	if len(name) > 0 && name[0] == '-' {
		return refuse(codes.InvalidArgument, "lock name starting with '-'")
	}
	var mode weblocks.Mode
	switch r.GetMode() {
	case lockspb.Mode_MODE_EXCLUSIVE:
		mode = weblocks.Exclusive
	case lockspb.Mode_MODE_SHARED:
		mode = weblocks.Shared
	default:
		return refuse(codes.InvalidArgument, "bad lock mode %d", r.GetMode())
	}
	var wait weblocks.WaitMode
	switch r.GetWait() {
	case lockspb.WaitMode_WAIT_MODE_WAIT:
		wait = weblocks.Wait
	case lockspb.WaitMode_WAIT_MODE_IF_AVAILABLE:
		wait = weblocks.IfAvailable
	case lockspb.WaitMode_WAIT_MODE_STEAL:
		wait = weblocks.Steal
		if mode != weblocks.Exclusive {
			return refuse(codes.InvalidArgument, "steal with a shared lock")
		}
	default:
		return refuse(codes.InvalidArgument, "bad wait mode %d", r.GetWait())
	}
	sr := &serverRequest{id: id, size: len(name)}
	ss.mu.Lock()
	ss.maxRequest = id
	ss.requests[id] = sr
	ss.nameBytes += sr.size
	if err := ss.checkFlood(); err != nil {
		ss.mu.Unlock()
		return err
	}
	if ss.nameBytes > MaxOutstandingNameBytes {
		ss.mu.Unlock()
		return refuse(codes.ResourceExhausted, "%d bytes of lock names in outstanding requests, over the limit of %d", ss.nameBytes, MaxOutstandingNameBytes)
	}
	ss.mu.Unlock()
	h, err := ss.svc.Request(cl, name, mode, wait, weblocks.ReceiverFunc(func(o weblocks.Outcome) { ss.outcome(sr, o) }))
	if err != nil {
		ss.mu.Lock()
		ss.forget(sr)
		ss.mu.Unlock()
		return status.Error(codes.Unavailable, err.Error())
	}
	ss.mu.Lock()
	sr.handle = h
	ss.mu.Unlock()
	return nil
}

// lockID is the wire id of request id's lock: the session in the high
// bits, so that another renderer's lock id is told from this one's.
func (ss *session) lockID(id uint64) uint64 { return ss.h.sid<<40 | id }

// outcome records a request's outcome and sends it to the renderer (on
// the lock task queue).
func (ss *session) outcome(sr *serverRequest, o weblocks.Outcome) {
	ev := &lockspb.Outcome{Request: sr.id}
	ss.mu.Lock()
	switch o.Kind {
	case weblocks.OutcomeGranted:
		ev.Kind = lockspb.OutcomeKind_OUTCOME_KIND_GRANTED
		ev.Lock = ss.lockID(sr.id)
		sr.lock = o.Lock
	case weblocks.OutcomeNotAvailable:
		ev.Kind = lockspb.OutcomeKind_OUTCOME_KIND_NOT_AVAILABLE
		ss.forget(sr)
	case weblocks.OutcomeAborted:
		ev.Kind = lockspb.OutcomeKind_OUTCOME_KIND_ABORTED
		ev.Reason = wireReason(o.Reason)
		ss.forget(sr)
	case weblocks.OutcomeRevoked:
		ev.Kind = lockspb.OutcomeKind_OUTCOME_KIND_REVOKED
		ev.Lock = ss.lockID(sr.id)
		ev.Reason = wireReason(o.Reason)
		ss.forget(sr)
	}
	ss.mu.Unlock()
	size := outcomeBytes
	if ev.Reason != nil {
		size += len(ev.Reason.Name) + len(ev.Reason.Message)
	}
	ss.out.push(&lockspb.Event{Event: &lockspb.Event_Outcome{Outcome: ev}}, size)
}

// abortCall is the reason of an abort the renderer asked for: it knows
// its own reason.
type abortCall struct{}

func wireReason(r any) *lockspb.Reason {
	switch r := r.(type) {
	case abortCall:
		return &lockspb.Reason{Kind: lockspb.Reason_KIND_ABORT_CALL}
	case *dom.DOMException:
		return &lockspb.Reason{Kind: lockspb.Reason_KIND_DOM_EXCEPTION, Name: r.Name, Message: r.Message}
	case error:
		if errors.Is(r, weblocks.ErrClientTerminated) {
			return &lockspb.Reason{Kind: lockspb.Reason_KIND_TERMINATED}
		}
		return &lockspb.Reason{Kind: lockspb.Reason_KIND_OTHER, Message: r.Error()}
	}
	return &lockspb.Reason{Kind: lockspb.Reason_KIND_OTHER, Message: fmt.Sprint(r)}
}

func (ss *session) release(r *lockspb.Release) error {
	lock := r.GetLock()
	id := lock & maxRequestID
	if lock>>40 != ss.h.sid || id == 0 || id > ss.maxRequest {
		return refuse(codes.PermissionDenied, "lock %#x was not granted to this renderer", lock)
	}
	ss.mu.Lock()
	sr := ss.requests[id]
	var h weblocks.LockHandle
	if sr != nil {
		h = sr.lock
		if h != nil {
			ss.forget(sr)
		}
	}
	ss.mu.Unlock()
	if sr != nil && h == nil {
		return refuse(codes.FailedPrecondition, "lock %#x was not granted yet", lock)
	}
	if h == nil {
		// Revoked or terminated already: nothing to do.
		return nil
	}
	if err := ss.svc.Release(h); err != nil && !errors.Is(err, weblocks.ErrClientTerminated) {
		return status.Error(codes.Unavailable, err.Error())
	}
	return nil
}

func (ss *session) abort(a *lockspb.Abort) error {
	id := a.GetRequest()
	if id == 0 || id > ss.maxRequest {
		return refuse(codes.PermissionDenied, "request %d was not made by this renderer", id)
	}
	ss.mu.Lock()
	sr := ss.requests[id]
	ss.mu.Unlock()
	if sr == nil || sr.handle == nil {
		// Finished already: its outcome stands.
		return nil
	}
	if err := ss.svc.Abort(sr.handle, abortCall{}); err != nil && !errors.Is(err, weblocks.ErrClientTerminated) {
		return status.Error(codes.Unavailable, err.Error())
	}
	return nil
}

func (ss *session) query(q *lockspb.Query) error {
	cl, err := ss.client(q.GetClient())
	if err != nil {
		return err
	}
	id := q.GetQuery()
	if id <= ss.maxQuery {
		return refuse(codes.InvalidArgument, "query id %d is not a new one (ids increase from 1)", id)
	}
	ss.mu.Lock()
	ss.maxQuery = id
	ss.queries[id] = true
	if err := ss.checkFlood(); err != nil {
		ss.mu.Unlock()
		return err
	}
	ss.mu.Unlock()
	err = ss.svc.Query(cl, nil, weblocks.ReceiverFunc(func(o weblocks.Outcome) {
		snap := o.Snapshot
		if snap == nil {
			snap = &weblocks.Snapshot{}
		}
		ev := &lockspb.Snapshot{Query: id}
		size := outcomeBytes
		ev.Held, size = wireInfos(snap.Held, size)
		ev.Pending, size = wireInfos(snap.Pending, size)
		ss.mu.Lock()
		delete(ss.queries, id)
		ss.mu.Unlock()
		ss.out.push(&lockspb.Event{Event: &lockspb.Event_Snapshot{Snapshot: ev}}, size)
	}))
	if err != nil {
		return status.Error(codes.Unavailable, err.Error())
	}
	return nil
}

// wireInfos is l on the wire, and size plus its (approximate) bytes.
func wireInfos(l weblocks.LockList, size int) ([]*lockspb.LockInfo, int) {
	out := make([]*lockspb.LockInfo, l.Len())
	for i, x := range l.All() {
		out[i] = &lockspb.LockInfo{Name: []byte(x.Name), Mode: wireMode(x.Mode), ClientId: x.ClientID}
		size += len(x.Name) + len(x.ClientID) + infoBytes
	}
	return out, size
}

// Approximate sizes of events (for Peer.MaxPendingBytes): an outcome or
// an empty snapshot, and a snapshot's entry besides its strings.
const (
	outcomeBytes = 64
	infoBytes    = 48
)

func (ss *session) terminate(t *lockspb.Terminate) error {
	cl, err := ss.client(t.GetClient())
	if err != nil {
		return err
	}
	ss.mu.Lock()
	delete(ss.clients, t.GetClient())
	ss.mu.Unlock()
	ss.forgetID(cl.ID())
	_ = ss.svc.TerminateClient(cl)
	return nil
}

// forgetID releases an environment id when no live client of the session
// has it.
func (ss *session) forgetID(id string) {
	ss.mu.Lock()
	for _, c := range ss.clients {
		if c.ID() == id {
			ss.mu.Unlock()
			return
		}
	}
	ss.mu.Unlock()
	ls := ss.h.ls
	ls.mu.Lock()
	if ls.ids[id] == ss {
		delete(ls.ids, id)
	}
	ls.mu.Unlock()
}

// end terminates every client of the session (the renderer is gone).
func (ss *session) end() {
	ss.mu.Lock()
	ss.ended = true
	clients := ss.clients
	ss.clients = map[uint64]weblocks.Client{}
	ss.mu.Unlock()
	ls := ss.h.ls
	ls.mu.Lock()
	for id, o := range ls.ids {
		if o == ss {
			delete(ls.ids, id)
		}
	}
	ls.mu.Unlock()
	for _, cl := range clients {
		_ = ss.svc.TerminateClient(cl)
	}
}

// sendLoop sends the events that the lock service queues for the renderer
// while no call of it is being handled (a grant after another renderer's
// release, an eviction request).
func (ss *session) sendLoop(stream sessionStream) error {
	for {
		batch, ok := ss.out.take()
		if !ok {
			return nil
		}
		err := sendAll(stream, batch)
		ss.out.sent()
		if err != nil {
			ss.out.close()
			return err
		}
	}
}

func sendAll(stream sessionStream, batch []*lockspb.Event) error {
	if bs, ok := stream.(batchSender); ok {
		return bs.sendBatch(batch)
	}
	for _, ev := range batch {
		if err := stream.Send(ev); err != nil {
			return err
		}
	}
	return nil
}

// outbox queues events for the renderer: the lock task queue pushes
// without ever waiting for the renderer. Its length is bounded by the
// session's outstanding work (each request has at most two events, each
// query one, each client one eviction request at a time), bounded by
// Peer.MaxOutstanding, and its bytes by Peer.MaxPendingBytes: past it the
// renderer, which does not read its events, is killed (overflow) and the
// events dropped.
//
// One goroutine at a time sends (sending), in queue order: sendLoop, or
// the session's receiving goroutine, which sends what the call it handled
// queued (hold, then flush) without waking sendLoop.
type outbox struct {
	mu       sync.Mutex
	cond     *sync.Cond
	events   []*lockspb.Event
	bytes    int             // of events, about
	max      int             // bytes
	evicts   map[uint64]bool // clients with an eviction request queued
	overflow func(bytes int)
	held     bool // a call is being handled: its goroutine flushes after it
	sending  bool // a goroutine is sending a batch
	closed   bool
}

func (o *outbox) init(max int, overflow func(bytes int)) {
	o.cond = sync.NewCond(&o.mu)
	o.max = max
	o.evicts = map[uint64]bool{}
	o.overflow = overflow
}

// push queues ev, of about size bytes.
func (o *outbox) push(ev *lockspb.Event, size int) {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		return
	}
	o.events = append(o.events, ev)
	o.bytes += size
	if n := o.bytes; n > o.max {
		o.closeLocked()
		o.mu.Unlock()
		o.overflow(n)
		return
	}
	if !o.held && !o.sending {
		o.cond.Signal()
	}
	o.mu.Unlock()
}

// pushEvict queues an eviction request for client, unless one waits
// already (the page is evicted once).
func (o *outbox) pushEvict(client uint64) {
	o.mu.Lock()
	if o.evicts[client] {
		o.mu.Unlock()
		return
	}
	o.evicts[client] = true
	o.mu.Unlock()
	o.push(&lockspb.Event{Event: &lockspb.Event_Evict{Evict: &lockspb.Evict{Client: client}}}, outcomeBytes)
}

// takeLocked takes the queued events (o.mu held) and becomes the sender.
func (o *outbox) takeLocked() []*lockspb.Event {
	b := o.events
	for _, ev := range b {
		if e, ok := ev.Event.(*lockspb.Event_Evict); ok {
			delete(o.evicts, e.Evict.GetClient())
		}
	}
	o.events, o.bytes = nil, 0
	o.sending = true
	return b
}

// hold says that a call is being handled: what it queues waits for flush.
func (o *outbox) hold() {
	o.mu.Lock()
	o.held = true
	o.mu.Unlock()
}

// release ends hold without flushing (the session ends).
func (o *outbox) release() {
	o.mu.Lock()
	o.held = false
	o.mu.Unlock()
}

// flush ends hold: it sends what is queued on the calling goroutine,
// unless sendLoop is sending (it then sends that too). What is queued
// while flush sends is left to sendLoop.
func (o *outbox) flush(stream sessionStream) error {
	o.mu.Lock()
	o.held = false
	if o.sending || o.closed || len(o.events) == 0 {
		o.mu.Unlock()
		return nil
	}
	b := o.takeLocked()
	o.mu.Unlock()
	err := sendAll(stream, b)
	o.sent()
	if err != nil {
		o.close()
	}
	return err
}

// sent ends a batch's sending: sendLoop sends what was queued meanwhile.
func (o *outbox) sent() {
	o.mu.Lock()
	o.sending = false
	if len(o.events) > 0 {
		o.cond.Signal()
	}
	o.mu.Unlock()
}

// take waits for events to send (and no other sender), and takes them.
func (o *outbox) take() ([]*lockspb.Event, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for (len(o.events) == 0 || o.sending || o.held) && !o.closed {
		o.cond.Wait()
	}
	if len(o.events) == 0 || o.sending {
		return nil, false // closed
	}
	return o.takeLocked(), true
}

func (o *outbox) close() {
	o.mu.Lock()
	o.closed = true
	o.cond.Broadcast()
	o.mu.Unlock()
}

// closeLocked closes the outbox and drops its events (o.mu held).
func (o *outbox) closeLocked() {
	o.closed = true
	o.events, o.bytes = nil, 0
	o.cond.Broadcast()
}
