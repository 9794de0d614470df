package ipc

import (
	"context"
	"errors"
	"maps"
	"net"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/gowebengine/weblocks/browser/ipc/lockspb"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/weblocks"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// RemoteService is the lock service of the browser process as a renderer
// uses it: a weblocks.LockService whose calls are messages of the
// renderer's session (in order, without waiting for an answer) and whose
// outcomes come back as events, delivered to each client through its
// Deliver in the order they arrive. When the session ends (the browser
// process is gone), every waiting request is aborted and every lock
// revoked with weblocks.ErrClientTerminated, and later calls fail with
// weblocks.ErrServiceClosed.
type RemoteService struct {
	site   origin.Site
	stream clientStream
	cancel func() // ends the session
	done   chan struct{}

	sendMu sync.Mutex

	mu          sync.Mutex
	closed      bool
	err         error
	nextClient  uint64
	nextRequest uint64
	nextQuery   uint64
	clients     map[uint64]*remoteClient
	requests    map[uint64]*remoteRequest
	queries     map[uint64]*remoteQuery
}

var _ weblocks.LockService = (*RemoteService)(nil)

// clientStream is a renderer's session stream: a gRPC stream
// (lockspb.LockService_SessionClient) or a framed one.
type clientStream interface {
	Send(*lockspb.Call) error
	Recv() (*lockspb.Event, error)
}

// errInvalidMode is the error of a request with a mode that is neither
// Exclusive nor Shared.
var errInvalidMode = errors.New("ipc: invalid lock mode")

// errNameTooLong is the error of a request whose name is longer than
// MaxNameBytes.
var errNameTooLong = dom.NewDOMException("The lock name is too long.", dom.NotSupportedError)

// Connect returns the renderer's gRPC client connection to the browser
// process over conn (the renderer's end of its socket pair): the lock
// service (NewRemoteService) and the services Peer.Services registers.
func Connect(conn net.Conn) (*grpc.ClientConn, error) {
	opts := []grpc.DialOption{grpc.WithContextDialer(connDialer(conn)),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(MaxMessageBytes))}
	// Fixed windows, as the browser process's (see LockServer.ServeConn).
	opts = append(opts, grpc.WithInitialWindowSize(StreamWindow), grpc.WithInitialConnWindowSize(ConnWindow))
	cc, err := grpc.NewClient("passthrough:///socketpair", opts...)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return cc, nil
}

// NewRemoteService opens the renderer's session with the browser
// process's lock service over cc (Connect's), for a renderer of site:
// Register refuses (with a "SecurityError") the storage keys the browser
// process would refuse, whose origin's site and top-level site both
// differ from site, rather than send them and have the renderer killed.
func NewRemoteService(cc grpc.ClientConnInterface, site origin.Site) (*RemoteService, error) {
	ctx, cancel := context.WithCancel(context.Background())
	stream, err := lockspb.NewLockServiceClient(cc).Session(ctx)
	if err != nil {
		cancel()
		return nil, err
	}
	return newRemoteService(stream, cancel, site), nil
}

// NewFramedRemoteService opens the renderer's session with the browser
// process's lock service framed on c, the renderer's ends of its lock
// socket pairs (the browser process's are Peer.Locks), rather than over
// gRPC: the same calls and events, with less work per message (see the
// package doc). A call is written from the caller's goroutine (the
// renderer's event loop) without ever waiting: what the socket does not
// take at once is queued (at most MaxQueuedCallBytes, past which the
// session is given up) and written by a goroutine of its own; events are
// read and delivered to the clients by another one.
func NewFramedRemoteService(c *FramedConn, site origin.Site) *RemoteService {
	return newRemoteService(newFramedClientStream(c), func() { c.Close() }, site)
}

func newRemoteService(stream clientStream, cancel func(), site origin.Site) *RemoteService {
	s := &RemoteService{site: site, stream: stream, cancel: cancel, done: make(chan struct{}),
		clients: map[uint64]*remoteClient{}, requests: map[uint64]*remoteRequest{}, queries: map[uint64]*remoteQuery{}}
	go func() {
		s.recv()
		cancel()
	}()
	return s
}

// Close ends the session: the browser process terminates this renderer's
// clients.
func (s *RemoteService) Close() {
	s.cancel()
	<-s.done
}

// Done is closed when the session has ended.
func (s *RemoteService) Done() <-chan struct{} { return s.done }

// Err is why the session ended (nil while it runs).
func (s *RemoteService) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

func (s *RemoteService) send(c *lockspb.Call) error {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	if err := s.stream.Send(c); err != nil {
		return weblocks.ErrServiceClosed
	}
	return nil
}

// remoteClient is a client of a RemoteService.
type remoteClient struct {
	s       *RemoteService
	id      uint64
	envID   string
	deliver func(weblocks.Task)
	evict   func()
	gone    atomic.Bool
}

func (c *remoteClient) ID() string { return c.envID }

func (c *remoteClient) deliverTask(t weblocks.Task) {
	defer func() { _ = recover() }()
	c.deliver(t)
}

// remoteRequest is a request of a RemoteService (its RequestHandle).
type remoteRequest struct {
	c      *remoteClient
	id     uint64
	name   weblocks.Name
	mode   weblocks.Mode
	recv   weblocks.Receiver
	lock   uint64 // the browser process's lock id, once granted
	reason any    // the reason given to Abort
}

func (r *remoteRequest) Name() weblocks.Name { return r.name }
func (r *remoteRequest) Mode() weblocks.Mode { return r.mode }

// remoteLock is a granted request as a LockHandle.
type remoteLock remoteRequest

func (l *remoteLock) Name() weblocks.Name { return l.name }
func (l *remoteLock) Mode() weblocks.Mode { return l.mode }

type remoteQuery struct {
	c    *remoteClient
	dst  *weblocks.Snapshot
	recv weblocks.Receiver
}

// delivery is an outcome as the task that delivers it. A task of a
// client terminated since runs as dropped (as *weblocks.Service's do).
type delivery struct {
	c    *remoteClient
	recv weblocks.Receiver
	o    weblocks.Outcome
}

func (d *delivery) RunTask() {
	if d.c.gone.Load() {
		d.o.Dropped = true
	}
	d.recv.Receive(d.o)
}
func (d *delivery) DropTask() {
	d.o.Dropped = true
	d.recv.Receive(d.o)
}

// callEvict runs the client's eviction request (an Evict that panics
// costs nothing else).
func (c *remoteClient) callEvict() {
	defer func() { _ = recover() }()
	c.evict()
}

// Register implements weblocks.LockService.
func (s *RemoteService) Register(cfg weblocks.ClientConfig) (weblocks.Client, error) {
	if s == nil {
		return nil, weblocks.ErrNilService
	}
	if cfg.Deliver == nil {
		return nil, weblocks.ErrNilDeliver
	}
	if len(cfg.ID) == 0 || len(cfg.ID) > MaxClientIDBytes {
		return nil, errors.New("ipc: a client id must have 1 to 256 bytes")
	}
	k := cfg.Bucket.Key
	if k.Origin.IsOpaque() {
		return nil, errors.New("ipc: a client of an opaque origin has no storage bucket")
	}
	if origin.ObtainSite(k.Origin) != s.site && k.TopLevelSite != s.site {
		return nil, dom.NewDOMException("Web Locks are not available in this context: its storage key ("+k.Origin.Serialize()+") is not of this renderer's site ("+s.site.Serialize()+").", dom.SecurityError)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, weblocks.ErrServiceClosed
	}
	s.nextClient++
	c := &remoteClient{s: s, id: s.nextClient, envID: cfg.ID, deliver: cfg.Deliver, evict: cfg.Evict}
	s.clients[c.id] = c
	err := s.send(&lockspb.Call{Call: &lockspb.Call_Register{Register: &lockspb.Register{
		Client: c.id, Id: cfg.ID, Bucket: cfg.Bucket.Name,
		Key: &lockspb.StorageKey{Origin: k.Origin.Serialize(), TopLevelSite: k.TopLevelSite.Serialize(), HasCrossSiteAncestor: k.HasCrossSiteAncestor},
	}}})
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return c, nil
}

// check validates a client of this service.
func (s *RemoteService) check(c weblocks.Client) (*remoteClient, error) {
	if s == nil {
		return nil, weblocks.ErrNilService
	}
	rc, ok := c.(*remoteClient)
	switch {
	case c == nil || (ok && rc == nil):
		return nil, weblocks.ErrNilClient
	case !ok || rc.s != s:
		return nil, weblocks.ErrForeignClient
	case rc.gone.Load():
		return nil, weblocks.ErrClientTerminated
	}
	return rc, nil
}

// Request implements weblocks.LockService.
func (s *RemoteService) Request(c weblocks.Client, name weblocks.Name, mode weblocks.Mode, wait weblocks.WaitMode, r weblocks.Receiver) (weblocks.RequestHandle, error) {
	rc, err := s.check(c)
	if err != nil {
		return nil, err
	}
	if r == nil {
		return nil, weblocks.ErrNilOutcome
	}
	var wm lockspb.Mode
	switch mode {
	case weblocks.Exclusive:
		wm = lockspb.Mode_MODE_EXCLUSIVE
	case weblocks.Shared:
		wm = lockspb.Mode_MODE_SHARED
	default:
		return nil, errInvalidMode
	}
	var ww lockspb.WaitMode
	switch wait {
	case weblocks.Wait:
		ww = lockspb.WaitMode_WAIT_MODE_WAIT
	case weblocks.IfAvailable:
		ww = lockspb.WaitMode_WAIT_MODE_IF_AVAILABLE
	case weblocks.Steal:
		if mode != weblocks.Exclusive {
			return nil, dom.NewDOMException("The 'steal' option may only be used with 'exclusive' locks.", dom.NotSupportedError)
		}
		ww = lockspb.WaitMode_WAIT_MODE_STEAL
	default:
		return nil, weblocks.ErrInvalidWaitMode
	}
	name = name.Canonical()
	if len(name) > MaxNameBytes {
		return nil, errNameTooLong
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, weblocks.ErrServiceClosed
	}
	s.nextRequest++
	req := &remoteRequest{c: rc, id: s.nextRequest, name: name, mode: mode, recv: r}
	s.requests[req.id] = req
	err = s.send(&lockspb.Call{Call: &lockspb.Call_Request{Request: &lockspb.Request{
		Client: rc.id, Request: req.id, Name: []byte(name), Mode: wm, Wait: ww}}})
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return req, nil
}

// Abort implements weblocks.LockService.
func (s *RemoteService) Abort(h weblocks.RequestHandle, reason any) error {
	if s == nil {
		return weblocks.ErrNilService
	}
	req, ok := h.(*remoteRequest)
	switch {
	case h == nil || (ok && req == nil):
		return weblocks.ErrNilHandle
	case !ok || req.c.s != s:
		return weblocks.ErrForeignHandle
	case req.c.gone.Load():
		return weblocks.ErrClientTerminated
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.requests[req.id] != req || req.lock != 0 || req.reason != nil {
		return nil // finished, granted or aborted already
	}
	req.reason = reason
	if req.reason == nil {
		req.reason = dom.NewAbortReason()
	}
	return s.send(&lockspb.Call{Call: &lockspb.Call_Abort{Abort: &lockspb.Abort{Request: req.id}}})
}

// Release implements weblocks.LockService.
func (s *RemoteService) Release(l weblocks.LockHandle) error {
	if s == nil {
		return weblocks.ErrNilService
	}
	lk, ok := l.(*remoteLock)
	switch {
	case l == nil || (ok && lk == nil):
		return weblocks.ErrNilHandle
	case !ok || lk.c.s != s:
		return weblocks.ErrForeignHandle
	case lk.c.gone.Load():
		return weblocks.ErrClientTerminated
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	req := (*remoteRequest)(lk)
	if s.requests[req.id] != req {
		return nil // released or revoked already
	}
	delete(s.requests, req.id)
	return s.send(&lockspb.Call{Call: &lockspb.Call_Release{Release: &lockspb.Release{Lock: req.lock}}})
}

// Query implements weblocks.LockService.
func (s *RemoteService) Query(c weblocks.Client, dst *weblocks.Snapshot, r weblocks.Receiver) error {
	rc, err := s.check(c)
	if err != nil {
		return err
	}
	if r == nil {
		return weblocks.ErrNilOutcome
	}
	if dst == nil {
		dst = &weblocks.Snapshot{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return weblocks.ErrServiceClosed
	}
	s.nextQuery++
	s.queries[s.nextQuery] = &remoteQuery{c: rc, dst: dst, recv: r}
	return s.send(&lockspb.Call{Call: &lockspb.Call_Query{Query: &lockspb.Query{Client: rc.id, Query: s.nextQuery}}})
}

// SetCached implements weblocks.LockService.
func (s *RemoteService) SetCached(c weblocks.Client, cached bool) error {
	rc, err := s.check(c)
	if err != nil {
		return err
	}
	return s.send(&lockspb.Call{Call: &lockspb.Call_SetCached{SetCached: &lockspb.SetCached{Client: rc.id, Cached: cached}}})
}

// TerminateClient implements weblocks.LockService: the browser process
// aborts the client's requests and releases its locks; their outcomes
// (with weblocks.ErrClientTerminated) come back as for any client.
func (s *RemoteService) TerminateClient(c weblocks.Client) error {
	if s == nil {
		return weblocks.ErrNilService
	}
	rc, ok := c.(*remoteClient)
	switch {
	case c == nil || (ok && rc == nil):
		return weblocks.ErrNilClient
	case !ok || rc.s != s:
		return weblocks.ErrForeignClient
	}
	if rc.gone.Swap(true) {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	return s.send(&lockspb.Call{Call: &lockspb.Call_Terminate{Terminate: &lockspb.Terminate{Client: rc.id}}})
}

// recv dispatches the session's events until it ends.
func (s *RemoteService) recv() {
	defer close(s.done)
	for {
		ev, err := s.stream.Recv()
		if err != nil {
			s.end(err)
			return
		}
		switch e := ev.Event.(type) {
		case *lockspb.Event_Outcome:
			s.outcome(e.Outcome)
		case *lockspb.Event_Snapshot:
			s.snapshot(e.Snapshot)
		case *lockspb.Event_Evict:
			s.mu.Lock()
			c := s.clients[e.Evict.GetClient()]
			s.mu.Unlock()
			if c != nil && c.evict != nil {
				c.callEvict()
			}
		}
	}
}

func (s *RemoteService) outcome(o *lockspb.Outcome) {
	s.mu.Lock()
	req := s.requests[o.GetRequest()]
	if req == nil {
		// Released (or its outcome delivered) already.
		s.mu.Unlock()
		return
	}
	out := weblocks.Outcome{}
	switch o.GetKind() {
	case lockspb.OutcomeKind_OUTCOME_KIND_GRANTED:
		out.Kind = weblocks.OutcomeGranted
		req.lock = o.GetLock()
		out.Lock = (*remoteLock)(req)
	case lockspb.OutcomeKind_OUTCOME_KIND_NOT_AVAILABLE:
		out.Kind = weblocks.OutcomeNotAvailable
		delete(s.requests, req.id)
	case lockspb.OutcomeKind_OUTCOME_KIND_ABORTED:
		out.Kind = weblocks.OutcomeAborted
		out.Reason = req.localReason(o.GetReason())
		delete(s.requests, req.id)
	case lockspb.OutcomeKind_OUTCOME_KIND_REVOKED:
		out.Kind = weblocks.OutcomeRevoked
		out.Lock = (*remoteLock)(req)
		out.Reason = req.localReason(o.GetReason())
		delete(s.requests, req.id)
	default:
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	req.c.deliverTask(&delivery{c: req.c, recv: req.recv, o: out})
}

// localReason turns a wire reason back into the contract's.
func (r *remoteRequest) localReason(w *lockspb.Reason) any {
	switch w.GetKind() {
	case lockspb.Reason_KIND_ABORT_CALL:
		return r.reason
	case lockspb.Reason_KIND_TERMINATED:
		return weblocks.ErrClientTerminated
	case lockspb.Reason_KIND_DOM_EXCEPTION:
		return dom.NewDOMException(w.GetMessage(), w.GetName())
	}
	return errors.New(w.GetMessage())
}

func (s *RemoteService) snapshot(w *lockspb.Snapshot) {
	s.mu.Lock()
	q := s.queries[w.GetQuery()]
	delete(s.queries, w.GetQuery())
	s.mu.Unlock()
	if q == nil {
		return
	}
	*q.dst = weblocks.Snapshot{Held: localList(w.GetHeld()), Pending: localList(w.GetPending())}
	q.c.deliverTask(&delivery{c: q.c, recv: q.recv, o: weblocks.Outcome{Kind: weblocks.OutcomeSnapshot, Snapshot: q.dst}})
}

func localList(l []*lockspb.LockInfo) weblocks.LockList {
	infos := make([]weblocks.LockInfo, len(l))
	for i, x := range l {
		m := weblocks.Exclusive
		if x.GetMode() == lockspb.Mode_MODE_SHARED {
			m = weblocks.Shared
		}
		infos[i] = weblocks.LockInfo{Name: weblocks.Name(x.GetName()), Mode: m, ClientID: x.GetClientId()}
	}
	return weblocks.NewLockList(infos...)
}

// end ends the session: what was waiting or held is lost with the browser
// process (ErrClientTerminated), queries get an empty snapshot.
func (s *RemoteService) end(err error) {
	s.mu.Lock()
	s.closed = true
	s.err = err
	reqs, queries := s.requests, s.queries
	s.requests, s.queries = map[uint64]*remoteRequest{}, map[uint64]*remoteQuery{}
	s.mu.Unlock()
	// In the order they were made (each client's outcomes in order).
	ids := slices.Sorted(maps.Keys(reqs))
	for _, id := range ids {
		req := reqs[id]
		o := weblocks.Outcome{Kind: weblocks.OutcomeAborted, Reason: weblocks.ErrClientTerminated}
		if req.lock != 0 {
			o = weblocks.Outcome{Kind: weblocks.OutcomeRevoked, Lock: (*remoteLock)(req), Reason: weblocks.ErrClientTerminated}
		}
		req.c.deliverTask(&delivery{c: req.c, recv: req.recv, o: o})
	}
	for _, id := range slices.Sorted(maps.Keys(queries)) {
		q := queries[id]
		*q.dst = weblocks.Snapshot{}
		q.c.deliverTask(&delivery{c: q.c, recv: q.recv, o: weblocks.Outcome{Kind: weblocks.OutcomeSnapshot, Snapshot: q.dst}})
	}
}
