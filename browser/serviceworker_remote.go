package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/browser/ipc/rendererpb"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/serviceworker"
	"github.com/gowebengine/weblocks/storage"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Service workers across renderer processes. The browser process keeps
// the registration map and the job queues (package serviceworker's state
// of its user agent: jobs run there, the scripts are fetched with its
// Fetcher); its serviceworker.Host (swRegistry) runs each worker in a
// renderer of the worker's site (the renderer whose client scheduled the
// last job of the site, else another of the site) and forwards the
// lifecycle and fetch events to it. Every renderer mirrors the
// registrations of its site (serviceworker.UseRegistry, swMirror): the
// browser process sends it the state after every change (SWState, in
// order with the other commands, so a job's result comes after the state
// of its settling), its jobs, skipWaiting() and clients.claim() go to
// the browser process, and its clients are external clients there (a
// window's environment when it is created, a worker's when a
// registration controls it), with the active service worker the
// renderer gave them. A fetch of a client whose active worker runs in
// another renderer goes to that renderer through the browser process
// (ServiceWorkerFetch, DispatchFetchEvent). A renderer that ends takes
// its clients (Handle Service Worker Client Unload) and the workers it
// ran (which run again, in another renderer of the site, at their next
// event) with it. The browser process refuses, logs and kills a renderer
// that sends a job, a client or a fetch for a storage key not of its
// site, a client id of another renderer, or a call for a worker it does
// not run.

// Bounds of what a renderer has in the service worker registry: past
// them it is killed.
const (
	// maxSWClients bounds a renderer's live service worker clients.
	maxSWClients = 1 << 16
	// maxSWJobs bounds a renderer's jobs not yet settled.
	maxSWJobs = 1024
)

// swRegistry is the browser process's service worker registry server
// and the Host of its user agent's service workers.
type swRegistry struct {
	b *Browser

	// pushMu orders the states sent (seq).
	pushMu sync.Mutex
	seq    uint64

	mu sync.Mutex
	// hosts: worker id → the renderer that runs it.
	hosts map[string]*rendererProc
	// lastJob: site → the renderer of its last job.
	lastJob map[origin.Site]*rendererProc
	next    uint64
	calls   map[uint64]swCall
	// jobs counts each renderer's jobs not yet settled.
	jobs map[*rendererProc]int
	// waiting: worker id → the messages for it, in order, while it is
	// being run again (its renderer ended).
	waiting map[string][]swPending
}

// swPending is a message waiting for its worker to run.
type swPending struct {
	p *rendererProc
	m *rendererpb.SWMessage
}

// swCall is a call to a renderer waiting for its answer.
type swCall struct {
	p     *rendererProc
	done  chan *rendererpb.ServiceWorkerDone
	fetch chan *rendererpb.SWFetchReply
}

func newSWRegistry(b *Browser) *swRegistry {
	r := &swRegistry{b: b, hosts: map[string]*rendererProc{}, lastJob: map[origin.Site]*rendererProc{}, calls: map[uint64]swCall{},
		jobs: map[*rendererProc]int{}, waiting: map[string][]swPending{}}
	serviceworker.SetHost(b.eng.ua, r)
	serviceworker.Subscribe(b.eng.ua, func(*serviceworker.Snapshot) { r.push() })
	return r
}

// Context implements serviceworker.Host.
func (r *swRegistry) Context() context.Context { return r.b.ctx }

// Network implements serviceworker.Host: the browser's Fetcher.
func (r *swRegistry) Network() fetch.Network { return r.b.network() }

// live reports whether p runs.
func live(p *rendererProc) bool {
	if p == nil {
		return false
	}
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// call sends c (made with the call's number) to p and waits for its
// answer.
func (r *swRegistry) call(p *rendererProc, c func(call uint64) *rendererpb.Command, fetch bool) (*rendererpb.ServiceWorkerDone, *rendererpb.SWFetchReply, error) {
	r.mu.Lock()
	r.next++
	id := r.next
	sc := swCall{p: p, done: make(chan *rendererpb.ServiceWorkerDone, 1), fetch: make(chan *rendererpb.SWFetchReply, 1)}
	r.calls[id] = sc
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.calls, id)
		r.mu.Unlock()
	}()
	p.forward(c(id), 256)
	select {
	case d := <-sc.done:
		return d, nil, nil
	case f := <-sc.fetch:
		return nil, f, nil
	case <-p.exited:
		return nil, nil, errors.New("the service worker's renderer ended")
	case <-r.b.ctx.Done():
		return nil, nil, r.b.ctx.Err()
	}
}

// answered passes a renderer's answer to the call waiting for it; false
// for a call that is not the renderer's.
func (r *swRegistry) answered(p *rendererProc, call uint64, done *rendererpb.ServiceWorkerDone, f *rendererpb.SWFetchReply) bool {
	r.mu.Lock()
	sc, ok := r.calls[call]
	r.mu.Unlock()
	if !ok {
		return true // (its caller stopped waiting)
	}
	if sc.p != p {
		p.refuse("an answer to call %d, which is another renderer's", call)
		return false
	}
	// (A second answer to a call is dropped.)
	if done != nil {
		select {
		case sc.done <- done:
		default:
		}
	} else {
		select {
		case sc.fetch <- f:
		default:
		}
	}
	return true
}

// Run implements serviceworker.Host: w runs in a renderer of its site.
func (r *swRegistry) Run(w *serviceworker.ServiceWorker) error {
	reg := w.Registration()
	site := origin.ObtainSite(reg.StorageKey().Origin)
	r.mu.Lock()
	p := r.lastJob[site]
	r.mu.Unlock()
	if !live(p) {
		p = nil
		for _, q := range r.b.tabs.allProcs() {
			if q.site == site && live(q) {
				p = q
				break
			}
		}
	}
	if p == nil {
		return errors.New("browser: no renderer of the service worker's site")
	}
	r.mu.Lock()
	r.hosts[w.ID()] = p
	r.mu.Unlock()
	done, _, err := r.call(p, func(call uint64) *rendererpb.Command {
		return &rendererpb.Command{Command: &rendererpb.Command_RunServiceWorker{RunServiceWorker: &rendererpb.RunServiceWorker{
			Call: call, Worker: w.ID(), Registration: reg.ID(), ScriptUrl: w.ScriptURL().String(), Type: "classic",
			Script: w.Script(), ReferrerPolicy: w.ReferrerPolicy()}}}
	}, false)
	if err == nil && done.GetFailed() {
		err = errors.New(done.GetError())
	}
	return err
}

// host is the renderer that runs w (nil: none).
func (r *swRegistry) host(w *serviceworker.ServiceWorker) *rendererProc {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hosts[w.ID()]
}

// FireLifecycleEvent implements serviceworker.Host: in w's renderer.
func (r *swRegistry) FireLifecycleEvent(w *serviceworker.ServiceWorker, name string, done func(failed bool)) {
	p := r.host(w)
	if p == nil {
		done(true)
		return
	}
	go func() {
		d, _, err := r.call(p, func(call uint64) *rendererpb.Command {
			return &rendererpb.Command{Command: &rendererpb.Command_ServiceWorkerEvent{ServiceWorkerEvent: &rendererpb.ServiceWorkerEvent{Call: call, Worker: w.ID(), Name: name}}}
		}, false)
		done(err != nil || d.GetFailed())
	}()
}

// DispatchFetchEvent implements serviceworker.Host: in w's renderer.
func (r *swRegistry) DispatchFetchEvent(w *serviceworker.ServiceWorker, req *fetch.Request, clientID, resultingClientID string, done func(serviceworker.FetchEventResult)) {
	go func() {
		rep, err := r.dispatch(w, &rendererpb.SWFetchRequest{Worker: w.ID(), ClientId: clientID, ResultingClientId: resultingClientID, Request: wireRequest(req)})
		if err != nil {
			done(serviceworker.FetchEventResult{})
			return
		}
		done(fetchEventResult(rep))
	}()
}

// dispatch has w's renderer (running it first when it does not run)
// dispatch the fetch event of f. When that renderer ended meanwhile, w
// runs again in another.
func (r *swRegistry) dispatch(w *serviceworker.ServiceWorker, f *rendererpb.SWFetchRequest) (*rendererpb.SWFetchReply, error) {
	for try := 0; ; try++ {
		if err := serviceworker.EnsureRunning(w); err != nil {
			return nil, err
		}
		p := r.host(w)
		if p == nil {
			return nil, errors.New("the service worker runs nowhere")
		}
		_, rep, err := r.call(p, func(call uint64) *rendererpb.Command {
			return &rendererpb.Command{Command: &rendererpb.Command_DispatchFetchEvent{DispatchFetchEvent: &rendererpb.DispatchFetchEvent{Call: call, Fetch: f}}}
		}, true)
		if err == nil || live(p) || try > 0 {
			return rep, err
		}
		r.stopped(w, p)
	}
}

// stopped says that w, which ran in p, stopped with p's end.
func (r *swRegistry) stopped(w *serviceworker.ServiceWorker, p *rendererProc) {
	r.mu.Lock()
	mine := r.hosts[w.ID()] == p
	if mine {
		delete(r.hosts, w.ID())
	}
	r.mu.Unlock()
	if mine {
		serviceworker.Stopped(w)
	}
}

// Terminate implements serviceworker.Host: in w's renderer.
func (r *swRegistry) Terminate(w *serviceworker.ServiceWorker) {
	r.mu.Lock()
	p := r.hosts[w.ID()]
	delete(r.hosts, w.ID())
	r.mu.Unlock()
	if p != nil {
		p.forward(&rendererpb.Command{Command: &rendererpb.Command_TerminateServiceWorker{TerminateServiceWorker: &rendererpb.TerminateServiceWorker{Worker: w.ID()}}}, 64)
	}
}

// push sends every renderer the state of its site's registrations.
func (r *swRegistry) push() {
	r.pushMu.Lock()
	defer r.pushMu.Unlock()
	r.seq++
	for _, p := range r.b.tabs.allProcs() {
		if live(p) {
			c := r.stateOf(p)
			p.forward(c, proto.Size(c))
		}
	}
}

// initial sends a renderer that just started the state (before any other
// command).
func (r *swRegistry) initial(p *rendererProc) {
	r.pushMu.Lock()
	defer r.pushMu.Unlock()
	_ = p.send(r.stateOf(p))
}

// stateOf is the SWState command for p (r.pushMu held).
func (r *swRegistry) stateOf(p *rendererProc) *rendererpb.Command {
	s := serviceworker.ExportState(r.b.eng.ua, p.id, func(k storage.StorageKey) bool { return origin.ObtainSite(k.Origin) == p.site })
	out := &rendererpb.SWState{Seq: r.seq, Controllers: s.Controllers}
	for _, reg := range s.Registrations {
		out.Registrations = append(out.Registrations, &rendererpb.SWRegistration{Id: reg.ID, Key: wireKey(reg.StorageKey), Scope: reg.Scope.String(),
			UpdateViaCache: reg.UpdateViaCache, Installing: reg.Installing, Waiting: reg.Waiting, Active: reg.Active, Registered: reg.Registered})
	}
	for _, w := range s.Workers {
		out.Workers = append(out.Workers, &rendererpb.SWWorker{Id: w.ID, Registration: w.Registration, ScriptUrl: w.ScriptURL.String(), Type: w.Type, State: int32(w.State)})
	}
	return &rendererpb.Command{Command: &rendererpb.Command_SwState{SwState: out}}
}

// gone forgets an ended renderer: its clients unload, its workers stop.
func (r *swRegistry) gone(p *rendererProc) {
	r.mu.Lock()
	var stopped []string
	for id, q := range r.hosts {
		if q == p {
			stopped = append(stopped, id)
		}
	}
	for site, q := range r.lastJob {
		if q == p {
			delete(r.lastJob, site)
		}
	}
	delete(r.jobs, p)
	r.mu.Unlock()
	ua := r.b.eng.ua
	for _, id := range stopped {
		if w := serviceworker.WorkerByID(ua, id); w != nil {
			r.stopped(w, p)
		}
	}
	serviceworker.RemoveExternalClients(ua, p.id)
}

// remoteClient checks a renderer's client: of a storage key of its site,
// of the key's origin.
func (p *rendererProc) remoteClient(c *rendererpb.SWClientInfo) (serviceworker.RemoteClient, bool) {
	key, ok := wireKeyOf(c.GetKey())
	u, err := url.Parse(c.GetUrl())
	o := origin.Parse(c.GetOrigin())
	switch {
	case !ok || origin.ObtainSite(key.Origin) != p.site:
		p.refuse("a service worker client of the storage key of %.100s", c.GetKey().GetOrigin())
		return serviceworker.RemoteClient{}, false
	case err != nil || o != key.Origin || c.GetId() == "":
		p.refuse("a service worker client of origin %.100s for the storage key of %.100s", c.GetOrigin(), key.Origin.Serialize())
		return serviceworker.RemoteClient{}, false
	}
	return serviceworker.RemoteClient{ID: c.GetId(), URL: u, Origin: o, StorageKey: key, Window: c.GetWindow(), Secure: c.GetSecure(), Nested: c.GetNested()}, true
}

// job schedules a renderer's job; its result follows the state of its
// settling.
func (r *swRegistry) job(p *rendererProc, j *rendererpb.SWJob) bool {
	client, ok := p.remoteClient(j.GetClient())
	if !ok {
		return false
	}
	key, _ := wireKeyOf(j.GetKey())
	if key != client.StorageKey {
		p.refuse("a service worker job for the storage key of %.100s from a client of %.100s", key.Origin.Serialize(), client.Origin.Serialize())
		return false
	}
	parse := func(s string) *url.URL {
		if s == "" {
			return nil
		}
		u, _ := url.Parse(s)
		return u
	}
	rj := serviceworker.RemoteJob{Type: j.GetType(), StorageKey: key, Scope: parse(j.GetScope()), Script: parse(j.GetScript()),
		WorkerType: j.GetWorkerType(), UpdateViaCache: j.GetUpdateViaCache(), Registration: j.GetRegistration(), Client: client}
	r.mu.Lock()
	if r.jobs[p] >= maxSWJobs {
		r.mu.Unlock()
		p.refuse("more than %d service worker jobs under way", maxSWJobs)
		return false
	}
	r.jobs[p]++
	r.lastJob[p.site] = p
	r.mu.Unlock()
	call := j.GetCall()
	settled := func() {
		r.mu.Lock()
		if r.jobs[p]--; r.jobs[p] <= 0 {
			delete(r.jobs, p)
		}
		r.mu.Unlock()
	}
	err := serviceworker.ScheduleRemoteJob(r.b.eng.ua, rj, func(res serviceworker.RemoteJobResult) {
		settled()
		r.push()
		out := &rendererpb.SWJobResult{Call: call, Registration: res.Registration, Removed: res.Removed}
		var te *serviceworker.TypeError
		var de *dom.DOMException
		switch {
		case errors.As(res.Err, &te):
			out.ErrorType, out.ErrorMessage = "TypeError", te.Message
		case errors.As(res.Err, &de):
			out.ErrorType, out.ErrorName, out.ErrorMessage = "DOMException", de.Name, de.Message
		case res.Err != nil:
			out.ErrorType, out.ErrorMessage = "TypeError", res.Err.Error()
		}
		p.forward(&rendererpb.Command{Command: &rendererpb.Command_SwJobResult{SwJobResult: out}}, 256)
	})
	if err != nil {
		settled()
		p.refuse("a service worker job (%v)", err)
		return false
	}
	return true
}

// client makes a renderer's client known, or unloads it.
func (r *swRegistry) client(p *rendererProc, c *rendererpb.SWClient) bool {
	ua := r.b.eng.ua
	if c.GetRemoved() {
		serviceworker.RemoveExternalClient(ua, p.id, c.GetClient().GetId())
		return true
	}
	client, ok := p.remoteClient(c.GetClient())
	if !ok {
		return false
	}
	if err := serviceworker.AddExternalClient(ua, p.id, client, c.GetController(), maxSWClients); err != nil {
		p.refuse("service worker client %.100s (%v)", client.ID, err)
		return false
	}
	return true
}

// workerCall is skipWaiting() or clients.claim() of a worker the
// renderer runs.
func (r *swRegistry) workerCall(p *rendererProc, c *rendererpb.SWWorkerCall) bool {
	r.mu.Lock()
	host := r.hosts[c.GetWorker()]
	r.mu.Unlock()
	if host != p {
		p.refuse("a call of service worker %.100s, which it does not run", c.GetWorker())
		return false
	}
	ua := r.b.eng.ua
	switch c.GetOp() {
	case "skipWaiting":
		serviceworker.SkipWaitingByID(ua, c.GetWorker())
	case "claim":
		serviceworker.ClaimByID(ua, c.GetWorker())
	}
	return true
}

// ServiceWorkerFetch is the fetch event of a renderer's client for a
// worker of its site, which runs in another renderer.
func (h *hostServer) ServiceWorkerFetch(ctx context.Context, req *rendererpb.SWFetchRequest) (*rendererpb.SWFetchReply, error) {
	p := h.p
	r := p.b.swreg
	if r == nil {
		return nil, status.Error(codes.FailedPrecondition, "no service worker registry")
	}
	w := serviceworker.WorkerByID(p.b.eng.ua, req.GetWorker())
	switch {
	case w == nil:
		p.refuse("a fetch event for service worker %.100s, which does not exist", req.GetWorker())
		return nil, status.Error(codes.PermissionDenied, "no such worker")
	case origin.ObtainSite(w.Registration().StorageKey().Origin) != p.site:
		p.refuse("a fetch event for service worker %.100s of another site", req.GetWorker())
		return nil, status.Error(codes.PermissionDenied, "not the renderer's site")
	case req.GetClientId() == "" && req.GetResultingClientId() == "":
		p.refuse("a fetch event for service worker %.100s without a client", req.GetWorker())
		return nil, status.Error(codes.PermissionDenied, "no client")
	case req.GetClientId() != "" && !isClientOf(p, req.GetClientId()):
		p.refuse("a fetch event for client %.100s, which is not its", req.GetClientId())
		return nil, status.Error(codes.PermissionDenied, "not the renderer's client")
	case req.GetResultingClientId() != "" && isClientOfAnother(p, req.GetResultingClientId()):
		// A navigation's reserved client is not known yet (its
		// environment gets its origin when the response arrives), but
		// it must not name another renderer's client.
		p.refuse("a fetch event for resulting client %.100s, which is another renderer's", req.GetResultingClientId())
		return nil, status.Error(codes.PermissionDenied, "not the renderer's client")
	}
	rep, err := r.dispatch(w, req)
	if err != nil {
		return &rendererpb.SWFetchReply{}, nil
	}
	return rep, nil
}

// The renderer's side.

// swMirror is a renderer's serviceworker.Registry: the browser process's.
type swMirror struct {
	r    *renderer
	x    *rendererMsg // messages' links
	host rendererpb.HostClient
	// site is the renderer's: the registrations of the storage keys of
	// another site (a cross-site frame's) are not its to use.
	site origin.Site

	mu   sync.Mutex
	seq  uint64
	next uint64
	jobs map[uint64]func(serviceworker.RemoteJobResult)
}

func wireClient(c serviceworker.RemoteClient) *rendererpb.SWClientInfo {
	return &rendererpb.SWClientInfo{Id: c.ID, Url: c.URL.String(), Origin: c.Origin.Serialize(), Key: wireKey(c.StorageKey), Window: c.Window,
		Secure: c.Secure, Nested: c.Nested}
}

// ours reports whether c's storage key is of the renderer's site.
func (m *swMirror) ours(c serviceworker.RemoteClient) bool {
	return !c.Origin.IsOpaque() && c.Origin == c.StorageKey.Origin && origin.ObtainSite(c.StorageKey.Origin) == m.site
}

// Job implements serviceworker.Registry. The job of a client of another
// site's storage key is refused here (a SecurityError), as the browser
// process would refuse it and kill the renderer.
func (m *swMirror) Job(j serviceworker.RemoteJob, done func(serviceworker.RemoteJobResult)) {
	if !m.ours(j.Client) {
		go done(serviceworker.RemoteJobResult{Err: dom.NewDOMException("Failed to register a ServiceWorker: this renderer process does not serve the storage key of "+j.Client.Origin.Serialize()+".", dom.SecurityError)})
		return
	}
	m.mu.Lock()
	m.next++
	call := m.next
	m.jobs[call] = done
	m.mu.Unlock()
	s := func(u *url.URL) string {
		if u == nil {
			return ""
		}
		return u.String()
	}
	m.r.send(&rendererpb.Report{Report: &rendererpb.Report_SwJob{SwJob: &rendererpb.SWJob{Call: call, Type: j.Type, Key: wireKey(j.StorageKey),
		Scope: s(j.Scope), Script: s(j.Script), WorkerType: j.WorkerType, UpdateViaCache: j.UpdateViaCache, Registration: j.Registration,
		Client: wireClient(j.Client)}}})
}

// jobResult settles a job.
func (m *swMirror) jobResult(res *rendererpb.SWJobResult) {
	m.mu.Lock()
	done := m.jobs[res.GetCall()]
	delete(m.jobs, res.GetCall())
	m.mu.Unlock()
	if done == nil {
		return
	}
	out := serviceworker.RemoteJobResult{Registration: res.GetRegistration(), Removed: res.GetRemoved()}
	switch res.GetErrorType() {
	case "TypeError":
		out.Err = &serviceworker.TypeError{Message: res.GetErrorMessage()}
	case "DOMException":
		out.Err = dom.NewDOMException(res.GetErrorMessage(), res.GetErrorName())
	}
	done(out)
}

func (m *swMirror) workerCall(worker, op string) {
	m.r.send(&rendererpb.Report{Report: &rendererpb.Report_SwWorkerCall{SwWorkerCall: &rendererpb.SWWorkerCall{Worker: worker, Op: op}}})
}

// SkipWaiting implements serviceworker.Registry.
func (m *swMirror) SkipWaiting(worker string) { m.workerCall(worker, "skipWaiting") }

// Claim implements serviceworker.Registry.
func (m *swMirror) Claim(worker string) { m.workerCall(worker, "claim") }

// ClientAdded implements serviceworker.Registry.
func (m *swMirror) ClientAdded(c serviceworker.RemoteClient, controller string) {
	if !m.ours(c) {
		return
	}
	m.r.send(&rendererpb.Report{Report: &rendererpb.Report_SwClient{SwClient: &rendererpb.SWClient{Client: wireClient(c), Controller: controller}}})
}

// ClientRemoved implements serviceworker.Registry.
func (m *swMirror) ClientRemoved(id string) {
	m.r.send(&rendererpb.Report{Report: &rendererpb.Report_SwClient{SwClient: &rendererpb.SWClient{Client: &rendererpb.SWClientInfo{Id: id}, Removed: true}}})
}

// Fetch implements serviceworker.Registry.
func (m *swMirror) Fetch(ctx context.Context, worker string, req *fetch.Request, clientID, resultingClientID string) (serviceworker.FetchEventResult, error) {
	rep, err := m.host.ServiceWorkerFetch(ctx, &rendererpb.SWFetchRequest{Worker: worker, ClientId: clientID, ResultingClientId: resultingClientID, Request: wireRequest(req)})
	if err != nil {
		return serviceworker.FetchEventResult{}, err
	}
	return fetchEventResult(rep), nil
}

// applyState applies the browser process's state (a newer one only).
func (m *swMirror) applyState(s *rendererpb.SWState) {
	m.mu.Lock()
	if s.GetSeq() <= m.seq && m.seq != 0 {
		m.mu.Unlock()
		return
	}
	m.seq = s.GetSeq()
	m.mu.Unlock()
	out := &serviceworker.RegistryState{Controllers: s.GetControllers()}
	for _, reg := range s.GetRegistrations() {
		key, ok := wireKeyOf(reg.GetKey())
		scope, err := url.Parse(reg.GetScope())
		if !ok || err != nil {
			continue
		}
		out.Registrations = append(out.Registrations, serviceworker.RegistrationState{ID: reg.GetId(), StorageKey: key, Scope: scope,
			UpdateViaCache: reg.GetUpdateViaCache(), Installing: reg.GetInstalling(), Waiting: reg.GetWaiting(), Active: reg.GetActive(),
			Registered: reg.GetRegistered()})
	}
	for _, w := range s.GetWorkers() {
		u, err := url.Parse(w.GetScriptUrl())
		if err != nil {
			continue
		}
		out.Workers = append(out.Workers, serviceworker.WorkerState{ID: w.GetId(), Registration: w.GetRegistration(), ScriptURL: u,
			Type: w.GetType(), State: serviceworker.State(w.GetState())})
	}
	serviceworker.ApplyState(m.r.b.UserAgent(), out)
}

// run runs a worker the browser process gives the renderer.
func (m *swMirror) run(c *rendererpb.RunServiceWorker) {
	done := &rendererpb.ServiceWorkerDone{Call: c.GetCall()}
	u, err := url.Parse(c.GetScriptUrl())
	if err == nil {
		err = serviceworker.RunMirrored(m.r.b.UserAgent(), c.GetWorker(), c.GetRegistration(), u, c.GetType(), c.GetScript(), c.GetReferrerPolicy())
	}
	if err != nil {
		done.Failed, done.Error = true, err.Error()
	}
	m.r.send(&rendererpb.Report{Report: &rendererpb.Report_ServiceWorkerDone{ServiceWorkerDone: done}})
}

// event fires a lifecycle event at a worker of the renderer.
func (m *swMirror) event(c *rendererpb.ServiceWorkerEvent) {
	serviceworker.FireMirrored(m.r.b.UserAgent(), c.GetWorker(), c.GetName(), func(failed bool) {
		m.r.send(&rendererpb.Report{Report: &rendererpb.Report_ServiceWorkerDone{ServiceWorkerDone: &rendererpb.ServiceWorkerDone{Call: c.GetCall(), Failed: failed}}})
	})
}

// dispatch dispatches the fetch event of another renderer's client at a
// worker of the renderer, and answers with its result (the event's
// handled promise settled here, as Create Fetch Event and Dispatch
// does).
func (m *swMirror) dispatch(c *rendererpb.DispatchFetchEvent) {
	f := c.GetFetch()
	reply := func(rep *rendererpb.SWFetchReply) {
		m.r.send(&rendererpb.Report{Report: &rendererpb.Report_FetchEventDone{FetchEventDone: &rendererpb.FetchEventDone{Call: c.GetCall(), Reply: rep}}})
	}
	req, err := requestOf(f.GetRequest())
	if err != nil {
		reply(&rendererpb.SWFetchReply{})
		return
	}
	serviceworker.DispatchMirrored(m.r.b.UserAgent(), f.GetWorker(), req, f.GetClientId(), f.GetResultingClientId(), func(res serviceworker.FetchEventResult) {
		go func() {
			settle := res.SettleHandled
			if settle == nil {
				settle = func(error) {}
			}
			rep := &rendererpb.SWFetchReply{Dispatched: res.Dispatched, RespondWithEntered: res.RespondWithEntered,
				RespondWithError: res.RespondWithError, Canceled: res.Canceled}
			switch {
			case !res.Dispatched:
			case !res.RespondWithEntered && res.Canceled:
				settle(dom.NewDOMException("The fetch event was canceled.", dom.NetworkError))
			case !res.RespondWithEntered:
				settle(nil)
			case res.RespondWithError || res.Response == nil:
				settle(dom.NewDOMException("The fetch event's respondWith failed.", dom.NetworkError))
			default:
				res.Response.Load()
				rep.HasResponse, rep.Response = true, wireResponse(res.Response)
				settle(nil)
			}
			reply(rep)
		}()
	})
}

// wireHeaders and headersOf convert header lists.
func wireHeaders(l fetch.HeaderList) []*rendererpb.Header {
	out := make([]*rendererpb.Header, 0, len(l))
	for _, h := range l {
		out = append(out, &rendererpb.Header{Name: h.Name, Values: [][]byte{[]byte(h.Value)}})
	}
	return out
}

func headersOf(hs []*rendererpb.Header) fetch.HeaderList {
	var l fetch.HeaderList
	for _, h := range hs {
		for _, v := range h.GetValues() {
			l = append(l, fetch.Header{Name: h.GetName(), Value: string(v)})
		}
	}
	return l
}

// wireRequest is a fetch event's request on the wire (its body's bytes).
func wireRequest(req *fetch.Request) *rendererpb.SWRequest {
	out := &rendererpb.SWRequest{Method: req.Method, Url: req.CurrentURL().String(), Header: wireHeaders(req.Header), Mode: req.Mode,
		Credentials: req.Credentials, Destination: req.Destination, Redirect: req.Redirect, Referrer: req.Referrer,
		ReferrerPolicy: req.ReferrerPolicy, Cache: req.Cache, Integrity: req.Integrity, Keepalive: req.Keepalive}
	if req.Body != nil {
		out.Body = req.Body.Source
	}
	if c := req.Client; c != nil {
		out.ClientOrigin = c.Origin.Serialize()
		if c.URL != nil {
			out.ClientUrl = c.URL.String()
		}
	}
	return out
}

// requestOf is the request of a fetch event of another renderer.
func requestOf(w *rendererpb.SWRequest) (*fetch.Request, error) {
	u, err := url.Parse(w.GetUrl())
	if err != nil {
		return nil, err
	}
	var client *fetch.Client
	if w.GetClientOrigin() != "" {
		client = &fetch.Client{Origin: origin.Parse(w.GetClientOrigin())}
		if cu, err := url.Parse(w.GetClientUrl()); err == nil && w.GetClientUrl() != "" {
			client.URL = cu
		}
	}
	req := fetch.NewRequest(u, client)
	req.Method, req.Header = w.GetMethod(), headersOf(w.GetHeader())
	req.Mode, req.Credentials, req.Destination, req.Redirect = w.GetMode(), w.GetCredentials(), w.GetDestination(), w.GetRedirect()
	req.Referrer, req.ReferrerPolicy, req.Cache, req.Integrity, req.Keepalive = w.GetReferrer(), w.GetReferrerPolicy(), w.GetCache(), w.GetIntegrity(), w.GetKeepalive()
	if w.GetBody() != nil {
		req.Body = &fetch.Body{Source: w.GetBody()}
	}
	return req, nil
}

// wireResponse is a fetch event's response on the wire (its body
// loaded).
func wireResponse(resp *fetch.Response) *rendererpb.SWResponse {
	out := &rendererpb.SWResponse{Type: resp.Type, Status: int32(resp.Status), StatusText: resp.StatusText, Header: wireHeaders(resp.Header)}
	if resp.Body != nil {
		out.Body = resp.Body.Source
	}
	for _, u := range resp.URLList {
		out.UrlList = append(out.UrlList, u.String())
	}
	if resp.Internal != nil && resp.Internal != resp {
		out.Internal = wireResponse(resp.Internal)
	}
	if resp.IsNetworkError() {
		out.Error = "network error"
		if resp.Err != nil {
			out.Error = resp.Err.Error()
		}
	}
	return out
}

// fetchEventResult is the result of a fetch event of another renderer.
func fetchEventResult(rep *rendererpb.SWFetchReply) serviceworker.FetchEventResult {
	res := serviceworker.FetchEventResult{Dispatched: rep.GetDispatched(), RespondWithEntered: rep.GetRespondWithEntered(),
		RespondWithError: rep.GetRespondWithError(), Canceled: rep.GetCanceled()}
	if !rep.GetHasResponse() {
		return res
	}
	res.Response = responseOf(rep.GetResponse())
	return res
}

// responseOf is a response of the wire.
func responseOf(w *rendererpb.SWResponse) *fetch.Response {
	if w.GetError() != "" {
		return fetch.NetworkError(fmt.Errorf("the service worker's response: %s", w.GetError()))
	}
	resp := &fetch.Response{Type: w.GetType(), Status: int(w.GetStatus()), StatusText: w.GetStatusText(), Header: headersOf(w.GetHeader()),
		Body: &fetch.Body{Source: w.GetBody()}}
	for _, s := range w.GetUrlList() {
		if u, err := url.Parse(s); err == nil {
			resp.URLList = append(resp.URLList, u)
		}
	}
	if w.GetBody() == nil && w.GetInternal() != nil {
		resp.Body = nil
	}
	if w.GetInternal() != nil {
		resp.Internal = responseOf(w.GetInternal())
	}
	return resp
}

// report handles a renderer's service worker report; false when it was
// refused (the renderer is being killed).
func (r *swRegistry) report(p *rendererProc, rep *rendererpb.Report) bool {
	if r == nil {
		p.refuse("a service worker report without a registry")
		return false
	}
	switch x := rep.Report.(type) {
	case *rendererpb.Report_SwJob:
		return r.job(p, x.SwJob)
	case *rendererpb.Report_SwClient:
		return r.client(p, x.SwClient)
	case *rendererpb.Report_SwWorkerCall:
		return r.workerCall(p, x.SwWorkerCall)
	case *rendererpb.Report_ServiceWorkerDone:
		return r.answered(p, x.ServiceWorkerDone.GetCall(), x.ServiceWorkerDone, nil)
	case *rendererpb.Report_SwMessage:
		return r.message(p, x.SwMessage)
	case *rendererpb.Report_FetchEventDone:
		rep := x.FetchEventDone.GetReply()
		if rep == nil {
			rep = &rendererpb.SWFetchReply{}
		}
		return r.answered(p, x.FetchEventDone.GetCall(), nil, rep)
	}
	return true
}

// isClientOf reports whether id is a client of renderer p.
func isClientOf(p *rendererProc, id string) bool {
	owner, ok := serviceworker.ExternalClientOwner(p.b.eng.ua, id)
	return ok && owner == p.id
}

// isClientOfAnother reports whether id names a client of another renderer
// than p.
func isClientOfAnother(p *rendererProc, id string) bool {
	owner, ok := serviceworker.ExternalClientOwner(p.b.eng.ua, id)
	return ok && owner != p.id
}

// message passes a message between a client and a service worker of
// two renderers on (dropping it, its ports closed, when its target is
// gone); false: refused.
func (r *swRegistry) message(p *rendererProc, m *rendererpb.SWMessage) bool {
	ua := r.b.eng.ua
	w := serviceworker.WorkerByID(ua, m.GetWorker())
	if w == nil {
		p.refuse("a message of service worker %.100s, which does not exist", m.GetWorker())
		return false
	}
	workerOrigin := w.Registration().StorageKey().Origin
	var to *rendererProc
	if m.GetToWorker() {
		client, ok := p.remoteClient(m.GetSource())
		if !ok {
			return false
		}
		if owner, known := serviceworker.ExternalClientOwner(ua, client.ID); known && owner != p.id {
			p.refuse("a message as service worker client %.100s, which is another renderer's", client.ID)
			return false
		}
		if client.StorageKey.Origin != workerOrigin || m.GetOrigin() != client.Origin.Serialize() {
			p.refuse("a message of a client of %.100s to a service worker of %.100s", m.GetOrigin(), workerOrigin.Serialize())
			return false
		}
		// A worker that does not run (its renderer ended) runs again
		// first; the messages for it wait meanwhile, in order.
		r.mu.Lock()
		q, starting := r.waiting[w.ID()]
		if starting || r.hosts[w.ID()] == nil {
			ok := p.b.router.checkLinks(p, m.GetPorts())
			if ok {
				r.waiting[w.ID()] = append(q, swPending{p, m})
			}
			r.mu.Unlock()
			if ok && !starting {
				go r.restart(w)
			}
			return ok
		}
		to = r.hosts[w.ID()]
		r.mu.Unlock()
	} else {
		if r.host(w) != p {
			p.refuse("a message of service worker %.100s, which it does not run", m.GetWorker())
			return false
		}
		if m.GetOrigin() != workerOrigin.Serialize() {
			p.refuse("a message of service worker %.100s with the origin %.100q", m.GetWorker(), m.GetOrigin())
			return false
		}
		if owner, ok := serviceworker.ExternalClientOwner(ua, m.GetClient()); ok {
			p.b.router.mu.Lock()
			to = p.b.router.procs[owner]
			p.b.router.mu.Unlock()
		}
	}
	if to == nil {
		if !p.b.router.checkLinks(p, m.GetPorts()) {
			return false
		}
		closeLinks(p, m.GetPorts())
		return true
	}
	return r.route(p, to, true, m)
}

// ServiceWorkerClients lists the clients of the other renderers that a
// worker of the renderer may see.
func (h *hostServer) ServiceWorkerClients(ctx context.Context, req *rendererpb.SWClientsRequest) (*rendererpb.SWClientsReply, error) {
	p := h.p
	r := p.b.swreg
	w := serviceworker.WorkerByID(p.b.eng.ua, req.GetWorker())
	if r == nil || w == nil || r.host(w) != p {
		p.refuse("the clients of service worker %.100s, which it does not run", req.GetWorker())
		return nil, status.Error(codes.PermissionDenied, "not the renderer's worker")
	}
	out := &rendererpb.SWClientsReply{}
	for _, c := range serviceworker.ExternalClients(w, req.GetIncludeUncontrolled(), p.id) {
		out.Clients = append(out.Clients, wireClient(c))
	}
	return out, nil
}

// PostToWorker implements serviceworker.Registry.
func (m *swMirror) PostToWorker(worker string, client serviceworker.RemoteClient, msg html.SerializedWithTransfer) {
	if !m.ours(client) {
		closePorts(msg)
		return
	}
	data, links := m.x.encode(msg)
	m.r.send(&rendererpb.Report{Report: &rendererpb.Report_SwMessage{SwMessage: &rendererpb.SWMessage{ToWorker: true, Worker: worker,
		Source: wireClient(client), Origin: client.Origin.Serialize(), Message: data, Ports: links}}})
}

// PostToClient implements serviceworker.Registry.
func (m *swMirror) PostToClient(worker, client string, msg html.SerializedWithTransfer) {
	w := serviceworker.Mirror(m.r.b.UserAgent(), worker)
	if w == nil {
		closePorts(msg)
		return
	}
	data, links := m.x.encode(msg)
	m.r.send(&rendererpb.Report{Report: &rendererpb.Report_SwMessage{SwMessage: &rendererpb.SWMessage{Worker: worker, Client: client,
		Origin: w.Registration().StorageKey().Origin.Serialize(), Message: data, Ports: links}}})
}

// Clients implements serviceworker.Registry.
func (m *swMirror) Clients(worker string, includeUncontrolled bool) []serviceworker.RemoteClient {
	rep, err := m.host.ServiceWorkerClients(context.Background(), &rendererpb.SWClientsRequest{Worker: worker, IncludeUncontrolled: includeUncontrolled})
	if err != nil {
		return nil
	}
	var out []serviceworker.RemoteClient
	for _, c := range rep.GetClients() {
		key, ok := wireKeyOf(c.GetKey())
		u, err := url.Parse(c.GetUrl())
		if !ok || err != nil {
			continue
		}
		out = append(out, serviceworker.RemoteClient{ID: c.GetId(), URL: u, Origin: origin.Parse(c.GetOrigin()), StorageKey: key,
			Window: c.GetWindow(), Secure: c.GetSecure(), Nested: c.GetNested()})
	}
	return out
}

// closePorts closes the ports a message that goes nowhere carries.
func closePorts(msg html.SerializedWithTransfer) {
	for _, th := range msg.TransferDataHolders {
		if port, ok := th.(*html.MessagePort); ok {
			port.Close()
		}
	}
}

// deliver delivers a message of another renderer's client to a worker
// here, or of another renderer's worker to a client here.
func (m *swMirror) deliver(c *rendererpb.SWMessage) {
	msg, ok := m.x.decode(c.GetMessage(), c.GetPorts())
	if !ok {
		return
	}
	ua := m.r.b.UserAgent()
	if c.GetToWorker() {
		w, env := serviceworker.MirroredEnv(ua, c.GetWorker())
		s := c.GetSource()
		key, _ := wireKeyOf(s.GetKey())
		u, err := url.Parse(s.GetUrl())
		client := serviceworker.RemoteClient{ID: s.GetId(), URL: u, Origin: origin.Parse(s.GetOrigin()), StorageKey: key,
			Window: s.GetWindow(), Secure: s.GetSecure(), Nested: s.GetNested()}
		if env == nil || err != nil || !bindings.DeliverRemoteClientMessage(env, w, msg, c.GetOrigin(), client) {
			closePorts(msg)
		}
		return
	}
	w := serviceworker.Mirror(ua, c.GetWorker())
	var env *html.EnvironmentSettingsObject
	for _, a := range ua.Agents() {
		for _, e := range a.Environments() {
			if e.ID() == c.GetClient() {
				env = e
			}
		}
	}
	if w == nil || env == nil || !bindings.DeliverServiceWorkerMessage(env, w, msg, c.GetOrigin()) {
		closePorts(msg)
	}
}

// restart runs w again and passes the messages that wait for it on (in
// a renderer that ended meanwhile, their links close).
func (r *swRegistry) restart(w *serviceworker.ServiceWorker) {
	err := serviceworker.EnsureRunning(w)
	for {
		r.mu.Lock()
		q := r.waiting[w.ID()]
		if len(q) == 0 {
			delete(r.waiting, w.ID())
			r.mu.Unlock()
			return
		}
		r.waiting[w.ID()] = []swPending{}
		to := r.hosts[w.ID()]
		r.mu.Unlock()
		for _, e := range q {
			r.route(e.p, to, err == nil, e.m)
		}
	}
}

// route passes m of p on to the renderer to (its links closed when it
// goes nowhere: ok false, no renderer); false: refused (bad links). A
// worker that started running in the sender's own renderer after the
// message left gets it back there, without its ports (a link has two
// renderers: they are closed).
func (r *swRegistry) route(p, to *rendererProc, ok bool, m *rendererpb.SWMessage) bool {
	if !ok || to == nil || !live(to) || (to == p && len(m.GetPorts()) > 0) {
		if to == p && ok {
			p.b.log(fmt.Sprintf("browser: the ports of a message to service worker %.100s were closed (it runs in the sender's renderer now)", m.GetWorker()))
		}
		closeLinks(p, m.GetPorts())
		return true
	}
	if to == p {
		to.forward(&rendererpb.Command{Command: &rendererpb.Command_SwMessage{SwMessage: m}}, len(m.GetMessage())+256)
		return true
	}
	rt := &r.b.router
	rt.mu.Lock()
	if !rt.addLinks(p, to, m.GetPorts()) {
		rt.mu.Unlock()
		return false
	}
	rt.mu.Unlock()
	to.forward(&rendererpb.Command{Command: &rendererpb.Command_SwMessage{SwMessage: m}}, len(m.GetMessage())+8*len(m.GetPorts())+256)
	return true
}
