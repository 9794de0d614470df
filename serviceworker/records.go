package serviceworker

import (
	"context"
	"net/url"
	"sync"

	"github.com/gowebengine/weblocks/fetch"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/storage"
)

// State is a service worker's state
// (https://w3c.github.io/ServiceWorker/#dfn-state).
type State uint8

// The states of a service worker.
const (
	Parsed State = iota
	Installing
	Installed
	Activating
	Activated
	Redundant
)

func (s State) String() string {
	if int(s) >= len(stateNames) {
		return "invalid"
	}
	return stateNames[s]
}

var stateNames = [...]string{"parsed", "installing", "installed", "activating", "activated", "redundant"}

// ServiceWorker is https://w3c.github.io/ServiceWorker/#dfn-service-worker:
// its script URL, type, containing registration and script resource are
// fixed; its state, skip waiting flag and global's environment change.
type ServiceWorker struct {
	id        string
	scriptURL *url.URL
	typ       string // "classic"
	reg       *Registration
	script    []byte // the script resource's source (the response body)
	// referrerPolicy is the referrer policy of the script resource's
	// policy container (its response's Referrer-Policy; "" for none).
	referrerPolicy string

	mu          sync.Mutex
	state       State
	skipWaiting bool
	env         *html.EnvironmentSettingsObject // its global's environment, once running
}

// ID is the service worker's id (an opaque string).
func (w *ServiceWorker) ID() string { return w.id }

// ScriptURL is the worker's script URL (a copy).
func (w *ServiceWorker) ScriptURL() *url.URL { return cloneURL(w.scriptURL) }

// Script is the source of the worker's script resource: the body of its
// script's response.
func (w *ServiceWorker) Script() []byte { return w.script }

// ReferrerPolicy is the referrer policy of the worker's global's policy
// container: its script response's Referrer-Policy header's ("" for
// none: the default policy).
func (w *ServiceWorker) ReferrerPolicy() string { return w.referrerPolicy }

// Registration is the worker's containing service worker registration.
func (w *ServiceWorker) Registration() *Registration { return w.reg }

// State is the worker's current state.
func (w *ServiceWorker) State() State {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.state
}

// Env is the environment of the worker's global (nil before it runs).
func (w *ServiceWorker) Env() *html.EnvironmentSettingsObject {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.env
}

// Registration is
// https://w3c.github.io/ServiceWorker/#dfn-service-worker-registration.
type Registration struct {
	id             string
	st             *uaState
	storageKey     storage.StorageKey
	scope          *url.URL
	updateViaCache string

	// guarded by st.mu
	installing, waiting, active *ServiceWorker
}

// ID is the registration's id (an opaque string, the same in every
// process of a user agent: see remote.go).
func (r *Registration) ID() string { return r.id }

// StorageKey is the registration's storage key.
func (r *Registration) StorageKey() storage.StorageKey { return r.storageKey }

// Scope is the registration's scope URL (a copy).
func (r *Registration) Scope() *url.URL { return cloneURL(r.scope) }

// UpdateViaCache is the registration's update via cache mode.
func (r *Registration) UpdateViaCache() string {
	r.st.mu.Lock()
	defer r.st.mu.Unlock()
	return r.updateViaCache
}

// Unregistered reports whether the registration left the registration
// map (https://w3c.github.io/ServiceWorker/#dfn-service-worker-registration-unregistered).
func (r *Registration) Unregistered() bool {
	r.st.mu.Lock()
	defer r.st.mu.Unlock()
	return r.st.registrations[keyOf(r.storageKey, r.scope)] != r
}

// Workers returns the registration's installing, waiting and active
// workers (nil when absent).
func (r *Registration) Workers() (installing, waiting, active *ServiceWorker) {
	r.st.mu.Lock()
	defer r.st.mu.Unlock()
	return r.installing, r.waiting, r.active
}

// GetNewestWorker is https://w3c.github.io/ServiceWorker/#get-newest-worker-algorithm.
func (r *Registration) GetNewestWorker() *ServiceWorker {
	r.st.mu.Lock()
	defer r.st.mu.Unlock()
	return r.newestWorkerLocked()
}

// newestWorkerLocked is Get Newest Worker with st.mu held.
func (r *Registration) newestWorkerLocked() *ServiceWorker {
	// 1. Run the following steps atomically. (st.mu)
	// 2-5. The installing worker, else the waiting worker, else the
	//    active worker, else null.
	switch {
	case r.installing != nil:
		return r.installing
	case r.waiting != nil:
		return r.waiting
	}
	return r.active
}

// FetchEventResult is what dispatching a fetch event gave Create Fetch
// Event and Dispatch (the event's flags once its wait to respond flag is
// unset).
type FetchEventResult struct {
	// Dispatched is false when the task was discarded (the worker's event
	// loop is gone).
	Dispatched bool
	// RespondWithEntered, RespondWithError and Canceled are the event's
	// respond-with entered flag, respond-with error flag and canceled
	// flag.
	RespondWithEntered, RespondWithError, Canceled bool
	// Response is the event's potential response (nil when none).
	Response *fetch.Response
	// SettleHandled resolves (nil) or rejects (a "NetworkError"
	// DOMException) the event's handled promise, in the worker's realm.
	SettleHandled func(err error)
}

// Host is what the embedder does for service workers: everything that
// needs a JavaScript realm.
type Host interface {
	// Context ends when the embedder stops: script fetches end with it.
	Context() context.Context
	// Network is the network service worker scripts are fetched over
	// (fetch.Params.Network).
	Network() fetch.Network
	// Run is the realm part of
	// https://w3c.github.io/ServiceWorker/#run-service-worker-algorithm:
	// w.Env() is its new environment (Setup ServiceWorkerGlobalScope's);
	// Run creates the ServiceWorkerGlobalScope realm there and runs the
	// classic script w.Script(), and returns once it was evaluated. An
	// error means the realm could not be made or the script threw.
	Run(w *ServiceWorker) error
	// FireLifecycleEvent queues a task on w's event loop that fires an
	// ExtendableEvent named name ("install", "activate") at w's global,
	// and calls done once the event is no longer active (its extend
	// lifetime promises settled); failed is whether one rejected or the
	// task was discarded.
	FireLifecycleEvent(w *ServiceWorker, name string, done func(failed bool))
	// DispatchFetchEvent queues the task of Create Fetch Event and
	// Dispatch (step 16.4) on w's event loop: a FetchEvent for request
	// (its clientId clientID, its resultingClientId resultingClientID)
	// dispatched at w's global; done gets the event's flags once its
	// wait to respond flag is unset (with Dispatched false, at once, when
	// the task could not be queued).
	DispatchFetchEvent(w *ServiceWorker, request *fetch.Request, clientID, resultingClientID string, done func(FetchEventResult))
	// Terminate closes w's realm (Terminate Service Worker; the package
	// then terminates w's agent).
	Terminate(w *ServiceWorker)
}

// Snapshot is the state of a user agent's registrations, workers and
// clients' active service workers at one change: the bindings apply
// snapshots in order in each realm's tasks, as the tasks of Update
// Registration State, Update Worker State and Notify Controller Change
// do.
type Snapshot struct {
	Registrations map[*Registration][3]*ServiceWorker // installing, waiting, active
	States        map[*ServiceWorker]State
	Controllers   map[*html.EnvironmentSettingsObject]*ServiceWorker
}

// uaState is a user agent's service worker state: the registration map,
// the scope to job queue map and what the bindings follow.
type uaState struct {
	ua *html.UserAgent

	mu            sync.Mutex
	host          Host
	registrations map[regKey]*Registration
	jobQueues     map[string]*jobQueue
	serial        serialSteps // where jobs run "in parallel"
	subscribers   map[int]func(*Snapshot)
	nextSub       int
	// every registration and worker made (for snapshots; the user agent's
	// lifetime bounds them)
	allRegs    []*Registration
	allWorkers []*ServiceWorker
	// remote is the registry of another process when this user agent
	// mirrors it (remote.go); mirror is its state here.
	remote Registry
	mirror *mirrorState
	// external are the clients of other processes (remote.go).
	external      map[string]*externalClient
	externalCount map[uint64]int // per owner
}

// regKey is a key of the registration map: (storage key, serialized
// scope url). Registrations are keyed and matched by the storage key's
// origin (see doc.go).
type regKey struct {
	origin string
	scope  string
}

func keyOf(key storage.StorageKey, scope *url.URL) regKey {
	return regKey{key.Origin.Serialize(), serializeExcludingFragment(scope)}
}

// uaSlot holds a user agent's service worker state.
var uaSlot = html.NewSlot[*uaState]()

// clientSlot holds a service worker client's record: its active service
// worker (https://w3c.github.io/ServiceWorker/#environment-settings-object-service-worker).
var clientSlot = html.NewSlot[*clientRecord]()

// clientRecord is an environment's service worker state, guarded by the
// user agent's uaState.mu.
type clientRecord struct {
	activeServiceWorker *ServiceWorker
	watched             bool // Handle Service Worker Client Unload is hooked
}

func stateOf(ua *html.UserAgent) *uaState {
	return uaSlot.GetOrInit(ua, func() *uaState {
		return &uaState{ua: ua, registrations: map[regKey]*Registration{}, jobQueues: map[string]*jobQueue{},
			subscribers: map[int]func(*Snapshot){}}
	})
}

// SetHost installs the embedder's service worker host for ua; without
// one, jobs that need to run a worker fail.
func SetHost(ua *html.UserAgent, h Host) {
	st := stateOf(ua)
	st.mu.Lock()
	st.host = h
	st.mu.Unlock()
}

// Subscribe calls f (on the job queue's goroutine, or the one that made
// the change) with a snapshot after any change of a registration, a
// worker's state or a client's active service worker of ua; the returned
// function unsubscribes.
func Subscribe(ua *html.UserAgent, f func(*Snapshot)) (unsubscribe func()) {
	st := stateOf(ua)
	st.mu.Lock()
	id := st.nextSub
	st.nextSub++
	st.subscribers[id] = f
	st.mu.Unlock()
	return func() {
		st.mu.Lock()
		delete(st.subscribers, id)
		st.mu.Unlock()
	}
}

// TakeSnapshot is the current state of ua's registrations, workers and
// clients' active service workers (nil for a nil user agent).
func TakeSnapshot(ua *html.UserAgent) *Snapshot {
	if ua == nil {
		return nil
	}
	st := stateOf(ua)
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.snapshotLocked()
}

// snapshotLocked takes a snapshot (st.mu held).
func (st *uaState) snapshotLocked() *Snapshot {
	s := &Snapshot{Registrations: map[*Registration][3]*ServiceWorker{},
		States: map[*ServiceWorker]State{}, Controllers: map[*html.EnvironmentSettingsObject]*ServiceWorker{}}
	for _, reg := range st.allRegs {
		s.Registrations[reg] = [3]*ServiceWorker{reg.installing, reg.waiting, reg.active}
	}
	for _, w := range st.allWorkers {
		s.States[w] = w.State()
	}
	for _, env := range st.liveEnvironments() {
		if c := clientSlot.Get(env); c != nil && c.activeServiceWorker != nil {
			s.Controllers[env] = c.activeServiceWorker
		}
	}
	return s
}

// changed tells the subscribers (st.mu not held).
func (st *uaState) changed() {
	st.mu.Lock()
	snap := st.snapshotLocked()
	subs := make([]func(*Snapshot), 0, len(st.subscribers))
	for _, f := range st.subscribers {
		subs = append(subs, f)
	}
	st.mu.Unlock()
	for _, f := range subs {
		f(snap)
	}
}

// serialSteps runs steps one after another on a goroutine of their own
// (started when steps arrive, gone when there are none): the "in
// parallel" of jobs and of the steps that may activate a worker. Unlike
// an html.ParallelQueue's steps, they may block (a job waits for its
// script's fetch and evaluation and for lifecycle events).
type serialSteps struct {
	mu      sync.Mutex
	steps   []func()
	running bool
}

// enqueue appends steps.
func (q *serialSteps) enqueue(steps func()) {
	q.mu.Lock()
	q.steps = append(q.steps, steps)
	if q.running {
		q.mu.Unlock()
		return
	}
	q.running = true
	q.mu.Unlock()
	go q.drain()
}

func (q *serialSteps) drain() {
	for {
		q.mu.Lock()
		if len(q.steps) == 0 {
			q.running = false
			q.mu.Unlock()
			return
		}
		steps := q.steps[0]
		q.steps = q.steps[1:]
		q.mu.Unlock()
		steps()
	}
}

// liveEnvironments lists the environments of the user agent's live
// agents.
func (st *uaState) liveEnvironments() []*html.EnvironmentSettingsObject {
	var out []*html.EnvironmentSettingsObject
	for _, a := range st.ua.Agents() {
		if a.IsTerminated() {
			continue
		}
		out = append(out, a.Environments()...)
	}
	return out
}

func cloneURL(u *url.URL) *url.URL {
	if u == nil {
		return nil
	}
	c := *u
	if u.User != nil {
		ui := *u.User
		c.User = &ui
	}
	return &c
}

// serializeExcludingFragment is the URL serializer with the exclude
// fragment flag set.
func serializeExcludingFragment(u *url.URL) string {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	return c.String()
}
