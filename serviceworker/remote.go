package serviceworker

import (
	"context"
	"errors"
	"net/url"
	"sort"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/storage"
)

// Registrations across processes. An embedder that runs its pages in
// several processes keeps the registration map and the job queues in one
// of them (a browser process: its user agent's state, as in one process)
// and has the others mirror it (UseRegistry): a mirroring user agent's
// jobs, skipWaiting() and clients.claim() go to the Registry, its
// clients are made known there (the Registry's ClientAdded and
// ClientRemoved, external clients of the registry's user agent), and
// ApplyState gives it the registrations, workers and controllers the
// registry has (its Registration and ServiceWorker objects are mirrors,
// the same objects from one state to the next, with the registry's ids).
// The registry runs a worker in a process of its choice through its Host,
// which there calls RunMirrored, FireMirrored and TerminateMirrored; a
// fetch event for a worker that runs in another process goes to the
// Registry's Fetch.

// RemoteClient is a service worker client of another process: what the
// registry's user agent knows of it.
type RemoteClient struct {
	// ID is its environment's id.
	ID string
	// URL is its creation URL.
	URL        *url.URL
	Origin     origin.Origin
	StorageKey storage.StorageKey
	// Window: a window client (else a worker).
	Window bool
	// Secure: a secure context.
	Secure bool
	// Nested: a window client of a child navigable (frame type
	// "nested").
	Nested bool
}

// RemoteJob is a job of a mirroring user agent's client.
type RemoteJob struct {
	// Type is "register", "update" or "unregister".
	Type       string
	StorageKey storage.StorageKey
	// Scope and Script are the job's scope url and script url (Script
	// nil for unregister).
	Scope, Script              *url.URL
	WorkerType, UpdateViaCache string
	// Registration is the registration's id (update and unregister).
	Registration string
	Client       RemoteClient
}

// RemoteJobResult is what a remote job's promise settles with.
type RemoteJobResult struct {
	// Registration is a register or update job's registration id.
	Registration string
	Removed      bool
	// Err is the rejection: a *TypeError or a *dom.DOMException.
	Err error
}

// Registry is the registration map and job queues of another process, as
// a mirroring user agent uses them. Its methods must not block on the
// caller's event loop: Job's done is called later (after ApplyState
// showed the state of the job's settling).
type Registry interface {
	Job(j RemoteJob, done func(RemoteJobResult))
	// SkipWaiting and Claim are the parallel steps of skipWaiting() and
	// clients.claim() of a worker that runs here.
	SkipWaiting(worker string)
	Claim(worker string)
	// ClientAdded makes a client known, with its active service worker's
	// id ("" for none); ClientRemoved is Handle Service Worker Client
	// Unload.
	ClientAdded(c RemoteClient, controller string)
	ClientRemoved(id string)
	// Fetch is Create Fetch Event and Dispatch for worker, which runs in
	// another process; it blocks.
	Fetch(ctx context.Context, worker string, request *fetch.Request, clientID, resultingClientID string) (FetchEventResult, error)
	// PostToWorker is ServiceWorker.postMessage from client to worker,
	// which runs in another process; PostToClient is Client.postMessage
	// from worker, which runs here, to a client of another process.
	PostToWorker(worker string, client RemoteClient, msg html.SerializedWithTransfer)
	PostToClient(worker, client string, msg html.SerializedWithTransfer)
	// Clients lists the clients of the other processes that worker, which
	// runs here, may see (as Clients lists them); it blocks.
	Clients(worker string, includeUncontrolled bool) []RemoteClient
}

// RegistryState is a registry's state as a mirroring process sees it.
type RegistryState struct {
	Registrations []RegistrationState
	Workers       []WorkerState
	// Controllers: client id → its active service worker's id ("" for
	// none), for every client of the process the registry knows (a client
	// it does not know yet keeps the active service worker the process
	// gave it).
	Controllers map[string]string
}

// RegistrationState is a registration in a RegistryState.
type RegistrationState struct {
	ID                          string
	StorageKey                  storage.StorageKey
	Scope                       *url.URL
	UpdateViaCache              string
	Installing, Waiting, Active string
	// Registered: in the registration map.
	Registered bool
}

// WorkerState is a service worker in a RegistryState.
type WorkerState struct {
	ID, Registration string
	ScriptURL        *url.URL
	Type             string
	State            State
}

// externalClient is a client of another process (guarded by st.mu).
type externalClient struct {
	RemoteClient
	owner  uint64
	active *ServiceWorker
}

// mirrorState is a mirroring user agent's objects (guarded by st.mu).
type mirrorState struct {
	regs    map[string]*Registration
	workers map[string]*ServiceWorker
	// here: the workers this process runs (RunMirrored).
	here map[*ServiceWorker]bool
}

// UseRegistry makes ua mirror the registry of another process.
func UseRegistry(ua *html.UserAgent, r Registry) {
	st := stateOf(ua)
	st.mu.Lock()
	st.remote = r
	st.mirror = &mirrorState{regs: map[string]*Registration{}, workers: map[string]*ServiceWorker{}, here: map[*ServiceWorker]bool{}}
	st.mu.Unlock()
}

// remoteRegistry is the registry ua mirrors (nil: none).
func (st *uaState) remoteRegistry() Registry {
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.remote
}

// ApplyState gives a mirroring user agent the registry's state: its
// mirrors follow it, the controllers of its clients among them, and
// the subscribers learn it.
func ApplyState(ua *html.UserAgent, s *RegistryState) {
	st := stateOf(ua)
	st.mu.Lock()
	m := st.mirror
	if m == nil {
		st.mu.Unlock()
		return
	}
	registered := map[regKey]*Registration{}
	for _, rs := range s.Registrations {
		if rs.Scope == nil {
			continue
		}
		reg := m.regs[rs.ID]
		if reg == nil {
			reg = &Registration{id: rs.ID, st: st, storageKey: rs.StorageKey, scope: cloneURL(rs.Scope)}
			m.regs[rs.ID] = reg
			st.allRegs = append(st.allRegs, reg)
		}
		reg.updateViaCache = rs.UpdateViaCache
		if rs.Registered {
			registered[keyOf(reg.storageKey, reg.scope)] = reg
		}
	}
	for _, ws := range s.Workers {
		w := st.mirrorWorkerLocked(ws.ID, ws.Registration, ws.ScriptURL, ws.Type)
		if w == nil {
			continue
		}
		w.mu.Lock()
		w.state = ws.State
		w.mu.Unlock()
	}
	inState := map[*Registration]bool{}
	for _, rs := range s.Registrations {
		if reg := m.regs[rs.ID]; reg != nil {
			inState[reg] = true
			reg.installing, reg.waiting, reg.active = m.workers[rs.Installing], m.workers[rs.Waiting], m.workers[rs.Active]
		}
	}
	// (A registration the state no longer has was cleared.)
	for _, reg := range m.regs {
		if !inState[reg] {
			reg.installing, reg.waiting, reg.active = nil, nil, nil
		}
	}
	st.registrations = registered
	var watch []*html.EnvironmentSettingsObject
	for _, env := range st.liveEnvironments() {
		id, known := s.Controllers[env.ID()]
		if !known {
			continue
		}
		w := m.workers[id]
		c := clientSlot.Get(env)
		if c == nil && w == nil {
			continue
		}
		if setActiveServiceWorkerLocked(env, w) {
			watch = append(watch, env)
		}
	}
	st.mu.Unlock()
	for _, env := range watch {
		st.watch(env)
	}
	st.changed()
}

// mirrorWorkerLocked is the mirror of worker id, made when new (nil
// when its registration is unknown).
func (st *uaState) mirrorWorkerLocked(id, regID string, scriptURL *url.URL, typ string) *ServiceWorker {
	m := st.mirror
	if w := m.workers[id]; w != nil {
		return w
	}
	reg := m.regs[regID]
	if reg == nil || scriptURL == nil {
		return nil
	}
	w := &ServiceWorker{id: id, scriptURL: cloneURL(scriptURL), typ: typ, reg: reg}
	m.workers[id] = w
	st.allWorkers = append(st.allWorkers, w)
	return w
}

// errElsewhere: a mirrored worker that runs in another process.
var errElsewhere = errors.New("serviceworker: the worker runs in another process")

// RunMirrored runs worker id here, a mirror of the registry's (Run
// Service Worker, with the script the registry fetched).
func RunMirrored(ua *html.UserAgent, id, regID string, scriptURL *url.URL, typ string, script []byte, referrerPolicy string) error {
	st := stateOf(ua)
	st.mu.Lock()
	if st.mirror == nil {
		st.mu.Unlock()
		return errors.New("serviceworker: the user agent mirrors no registry")
	}
	w := st.mirrorWorkerLocked(id, regID, scriptURL, typ)
	if w == nil {
		st.mu.Unlock()
		return errors.New("serviceworker: a worker of an unknown registration")
	}
	if !st.mirror.here[w] {
		w.script, w.referrerPolicy = script, referrerPolicy
		st.mirror.here[w] = true
	}
	st.mu.Unlock()
	return st.runServiceWorker(w)
}

// mirrored is worker id of a mirroring user agent that runs here (nil
// when not).
func (st *uaState) mirrored(id string) *ServiceWorker {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.mirror == nil {
		return nil
	}
	if w := st.mirror.workers[id]; w != nil && st.mirror.here[w] {
		return w
	}
	return nil
}

// FireMirrored fires a lifecycle event at worker id, which runs here
// (failed true at once when it does not).
func FireMirrored(ua *html.UserAgent, id, name string, done func(failed bool)) {
	st := stateOf(ua)
	w := st.mirrored(id)
	st.mu.Lock()
	host := st.host
	st.mu.Unlock()
	if w == nil || host == nil {
		done(true)
		return
	}
	host.FireLifecycleEvent(w, name, done)
}

// TerminateMirrored terminates worker id, which runs here.
func TerminateMirrored(ua *html.UserAgent, id string) {
	st := stateOf(ua)
	if w := st.mirrored(id); w != nil {
		st.terminateServiceWorker(w)
	}
}

// DispatchMirrored dispatches a fetch event at worker id, which runs
// here, for a client of another process (Dispatched false at once when
// it does not run here).
func DispatchMirrored(ua *html.UserAgent, id string, request *fetch.Request, clientID, resultingClientID string, done func(FetchEventResult)) {
	st := stateOf(ua)
	w := st.mirrored(id)
	st.mu.Lock()
	host := st.host
	st.mu.Unlock()
	if w == nil || host == nil || st.runServiceWorker(w) != nil {
		done(FetchEventResult{})
		return
	}
	host.DispatchFetchEvent(w, request, clientID, resultingClientID, done)
}

// remoteClientOf is what the registry learns of client.
func remoteClientOf(client *html.EnvironmentSettingsObject) RemoteClient {
	c := RemoteClient{ID: client.ID(), URL: client.CreationURL(), Origin: client.Origin(),
		StorageKey: client.ObtainAStorageKeyForNonStoragePurposes(), Secure: client.IsSecureContext()}
	if doc := client.AssociatedDocument(); doc != nil {
		c.Window = true
		c.Nested = doc.Navigable() != nil && doc.Navigable().Parent() != nil
	}
	return c
}

// PostToRemoteWorker sends ServiceWorker.postMessage's message of client
// to w when w runs in another process (reporting true); false when it
// runs here, or nowhere.
func PostToRemoteWorker(w *ServiceWorker, client *html.EnvironmentSettingsObject, msg html.SerializedWithTransfer) bool {
	st := w.reg.st
	st.mu.Lock()
	r := st.remote
	elsewhere := st.mirror != nil && !st.mirror.here[w]
	st.mu.Unlock()
	if r == nil || !elsewhere {
		return false
	}
	r.PostToWorker(w.id, remoteClientOf(client), msg)
	return true
}

// PostToRemoteClient sends Client.postMessage's message of w to client
// id of another process (nothing without a registry).
func PostToRemoteClient(w *ServiceWorker, id string, msg html.SerializedWithTransfer) {
	if r := w.reg.st.remoteRegistry(); r != nil {
		r.PostToClient(w.id, id, msg)
	}
}

// RemoteClients lists the clients of other processes w may see, as
// Clients lists those of this process (nil without a registry); it
// blocks: call it in parallel.
func RemoteClients(w *ServiceWorker, includeUncontrolled bool) []RemoteClient {
	if r := w.reg.st.remoteRegistry(); r != nil {
		return r.Clients(w.id, includeUncontrolled)
	}
	return nil
}

// ExternalClients lists the external clients of ua that worker w may see
// (Clients' rule: of its storage key, all of them when
// includeUncontrolled, else those it controls), except those of process
// except.
func ExternalClients(w *ServiceWorker, includeUncontrolled bool, except uint64) []RemoteClient {
	st := w.reg.st
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []RemoteClient
	for _, c := range st.external {
		if c.owner == except || c.StorageKey.Origin != w.reg.storageKey.Origin {
			continue
		}
		if includeUncontrolled || c.active == w {
			out = append(out, c.RemoteClient)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// ExternalClientOwner is the process of external client id (ok false:
// none).
func ExternalClientOwner(ua *html.UserAgent, id string) (owner uint64, ok bool) {
	st := stateOf(ua)
	st.mu.Lock()
	defer st.mu.Unlock()
	if c := st.external[id]; c != nil {
		return c.owner, true
	}
	return 0, false
}

// MirroredEnv is the environment of worker id, which runs here (nil:
// it does not).
func MirroredEnv(ua *html.UserAgent, id string) (*ServiceWorker, *html.EnvironmentSettingsObject) {
	w := stateOf(ua).mirrored(id)
	if w == nil {
		return nil, nil
	}
	return w, w.Env()
}

// Mirror is the mirror of worker id (nil: unknown here).
func Mirror(ua *html.UserAgent, id string) *ServiceWorker {
	st := stateOf(ua)
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.mirror == nil {
		return nil
	}
	return st.mirror.workers[id]
}

// remoteJob sends a job to the registry; promise gets its result with
// the mirror's objects.
func (st *uaState) remoteJob(r Registry, j RemoteJob, promise func(JobResult)) {
	r.Job(j, func(res RemoteJobResult) {
		st.mu.Lock()
		out := JobResult{Removed: res.Removed, Err: res.Err}
		if res.Registration != "" {
			out.Registration = st.mirror.regs[res.Registration]
			if out.Registration == nil && out.Err == nil {
				out.Err = typeError("Failed to register a ServiceWorker: the registration is gone.")
			}
		}
		out.Snapshot = st.snapshotLocked()
		st.mu.Unlock()
		promise(out)
	})
}

// The registry's side.

// ExportState is the state of ua's registrations whose storage keys
// include accepts, their workers, and the active service workers of the
// external clients of owner, for a mirroring process.
func ExportState(ua *html.UserAgent, owner uint64, include func(storage.StorageKey) bool) *RegistryState {
	st := stateOf(ua)
	st.mu.Lock()
	defer st.mu.Unlock()
	s := &RegistryState{Controllers: map[string]string{}}
	id := func(w *ServiceWorker) string {
		if w == nil {
			return ""
		}
		return w.id
	}
	regs := map[*Registration]bool{}
	for _, reg := range st.allRegs {
		registered := st.registrations[keyOf(reg.storageKey, reg.scope)] == reg
		live := registered || reg.installing != nil || reg.waiting != nil || reg.active != nil
		if !live || !include(reg.storageKey) {
			continue
		}
		regs[reg] = true
		s.Registrations = append(s.Registrations, RegistrationState{ID: reg.id, StorageKey: reg.storageKey, Scope: cloneURL(reg.scope),
			UpdateViaCache: reg.updateViaCache, Installing: id(reg.installing), Waiting: id(reg.waiting), Active: id(reg.active),
			Registered: registered})
	}
	for _, w := range st.allWorkers {
		if !regs[w.reg] {
			continue
		}
		s.Workers = append(s.Workers, WorkerState{ID: w.id, Registration: w.reg.id, ScriptURL: cloneURL(w.scriptURL), Type: w.typ, State: w.State()})
	}
	for _, c := range st.external {
		if c.owner == owner {
			s.Controllers[c.ID] = id(c.active)
		}
	}
	sort.Slice(s.Registrations, func(i, j int) bool { return s.Registrations[i].ID < s.Registrations[j].ID })
	return s
}

// ScheduleRemoteJob schedules the job of a client of another process
// in ua's job queues; done gets its result. It returns an error,
// scheduling nothing, for a job whose client is not of its storage key,
// or whose registration is not the storage key's.
func ScheduleRemoteJob(ua *html.UserAgent, j RemoteJob, done func(RemoteJobResult)) error {
	st := stateOf(ua)
	if j.Client.URL == nil || j.Client.Origin != j.StorageKey.Origin {
		return errors.New("the job's client is not of its storage key")
	}
	client := j.Client
	promise := func(res JobResult) {
		out := RemoteJobResult{Removed: res.Removed, Err: res.Err}
		if res.Registration != nil {
			out.Registration = res.Registration.id
		}
		done(out)
	}
	var job *job
	switch j.Type {
	case "register":
		// (Register rejects URLs of another origin than the client's.)
		if j.Scope == nil || j.Script == nil {
			return errors.New("a register job without URLs")
		}
		job = createJob(registerJob, j.StorageKey, cloneURL(j.Scope), cloneURL(j.Script), promise, nil)
		if j.WorkerType != "" {
			job.workerType = j.WorkerType
		}
		if j.UpdateViaCache != "" {
			job.updateViaCache = j.UpdateViaCache
		}
	case "update", "unregister":
		reg := st.registrationByID(j.Registration)
		if reg == nil || reg.storageKey.Origin != j.StorageKey.Origin {
			return errors.New("a job for a registration of another storage key")
		}
		if j.Type == "unregister" {
			job = createJob(unregisterJob, reg.storageKey, reg.scope, nil, promise, nil)
			break
		}
		newest := reg.GetNewestWorker()
		if newest == nil || reg.Unregistered() {
			done(RemoteJobResult{Err: dom.NewDOMException("Failed to update a ServiceWorker: The registration has no worker.", dom.InvalidStateError)})
			return nil
		}
		job = createJob(updateJob, reg.storageKey, reg.scope, newest.scriptURL, promise, nil)
		job.workerType = newest.typ
		job.updateViaCache = reg.UpdateViaCache()
	default:
		return errors.New("an unknown job type")
	}
	job.remoteClient = &client
	job.referrer = cloneURL(client.URL)
	st.scheduleJob(job)
	return nil
}

// registrationByID is the registration whose id is id (nil: none).
func (st *uaState) registrationByID(id string) *Registration {
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, reg := range st.allRegs {
		if reg.id == id {
			return reg
		}
	}
	return nil
}

// WorkerByID is ua's service worker whose id is id (nil: none).
func WorkerByID(ua *html.UserAgent, id string) *ServiceWorker {
	st := stateOf(ua)
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, w := range st.allWorkers {
		if w.id == id {
			return w
		}
	}
	return nil
}

// EnsureRunning is Run Service Worker for w (its host runs it when it
// does not run).
func EnsureRunning(w *ServiceWorker) error { return w.reg.st.runServiceWorker(w) }

// Stopped says that w's process ended: w no longer runs (its next event
// runs it again, in a process its host picks).
func Stopped(w *ServiceWorker) {
	env := w.Env()
	if env == nil {
		return
	}
	env.Agent().Terminate()
	w.mu.Lock()
	if w.env == env {
		w.env = nil
	}
	w.mu.Unlock()
}

// AddExternalClient makes a client of process owner known to ua, with
// its active service worker (the worker whose id is controller, when it
// is the active worker of the registration matching the client's
// creation URL; none otherwise). It refuses a client id that another
// process uses, and a new client of an owner that has max already.
func AddExternalClient(ua *html.UserAgent, owner uint64, c RemoteClient, controller string, max int) error {
	st := stateOf(ua)
	st.mu.Lock()
	if st.external == nil {
		st.external = map[string]*externalClient{}
		st.externalCount = map[uint64]int{}
	}
	old := st.external[c.ID]
	if old != nil && old.owner != owner {
		st.mu.Unlock()
		return errors.New("another process's client")
	}
	if old == nil {
		if st.externalCount[owner] >= max {
			st.mu.Unlock()
			return errors.New("too many clients")
		}
		st.externalCount[owner]++
	}
	e := &externalClient{RemoteClient: c, owner: owner}
	if controller != "" && c.Secure && c.URL != nil {
		if reg := st.matchLocked(c.StorageKey, c.URL); reg != nil && reg.active != nil && reg.active.id == controller {
			e.active = reg.active
		}
	}
	st.external[c.ID] = e
	st.mu.Unlock()
	return nil
}

// RemoveExternalClient is Handle Service Worker Client Unload of client
// id of process owner (nothing for another process's client).
func RemoveExternalClient(ua *html.UserAgent, owner uint64, id string) {
	st := stateOf(ua)
	st.mu.Lock()
	e := st.external[id]
	if e == nil || e.owner != owner {
		st.mu.Unlock()
		return
	}
	delete(st.external, id)
	st.externalCount[owner]--
	st.mu.Unlock()
	st.externalGone([]*externalClient{e})
}

// RemoveExternalClients is Handle Service Worker Client Unload of every
// client of process owner (it ended).
func RemoveExternalClients(ua *html.UserAgent, owner uint64) {
	st := stateOf(ua)
	var gone []*externalClient
	st.mu.Lock()
	for id, e := range st.external {
		if e.owner == owner {
			gone = append(gone, e)
			delete(st.external, id)
		}
	}
	delete(st.externalCount, owner)
	st.mu.Unlock()
	st.externalGone(gone)
}

// externalGone runs the steps of Handle Service Worker Client Unload
// for clients that left.
func (st *uaState) externalGone(gone []*externalClient) {
	regs := map[*Registration]bool{}
	for _, e := range gone {
		if e.active != nil {
			regs[e.active.reg] = true
		}
	}
	if len(regs) == 0 {
		return
	}
	st.changed()
	for reg := range regs {
		st.clientUnloadSteps(reg)
	}
}

// SkipWaitingByID is skipWaiting() of worker id (nothing for an unknown
// one).
func SkipWaitingByID(ua *html.UserAgent, id string) {
	if w := WorkerByID(ua, id); w != nil {
		SkipWaiting(w)
	}
}

// ClaimByID is clients.claim() of worker id.
func ClaimByID(ua *html.UserAgent, id string) bool {
	if w := WorkerByID(ua, id); w != nil {
		return Claim(w)
	}
	return false
}

// claimExternalLocked is Claim's step 3.1 for the external clients
// (st.mu held): it returns the registrations they stopped using.
func (st *uaState) claimExternalLocked(w *ServiceWorker) (left []*Registration) {
	for _, c := range st.external {
		if c.StorageKey.Origin != w.reg.storageKey.Origin || !c.Secure || c.URL == nil {
			continue
		}
		if st.matchLocked(c.StorageKey, c.URL) != w.reg || c.active == w {
			continue
		}
		if c.active != nil && c.active.reg != w.reg {
			left = append(left, c.active.reg)
		}
		c.active = w
	}
	return left
}

// usedExternallyLocked reports whether an external client uses reg
// (st.mu held).
func (st *uaState) usedExternallyLocked(reg *Registration) bool {
	for _, c := range st.external {
		if c.active != nil && c.active.reg == reg {
			return true
		}
	}
	return false
}

// activateExternalLocked is Activate's step 8 for the external clients
// (st.mu held).
func (st *uaState) activateExternalLocked(reg *Registration, w *ServiceWorker) {
	for _, c := range st.external {
		if c.active != nil && c.active.reg == reg {
			c.active = w
		}
	}
}
