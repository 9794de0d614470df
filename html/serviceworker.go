package html

import (
	"errors"
	"net/url"
	"strings"
	"sync"

	"github.com/google/uuid"
	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/storage"
)

// This file is the engine-neutral part of Service Workers
// (https://w3c.github.io/ServiceWorker/): service workers and their
// registrations, the user agent's registration map, a simplified job
// queue (register jobs run one at a time, each to its end: update,
// install, activate), clients and their controllers. Running a worker's
// script and firing its lifecycle events is the embedder's part
// (ServiceWorkerHost).

// ServiceWorkerState is a service worker's state.
type ServiceWorkerState uint8

// https://w3c.github.io/ServiceWorker/#dfn-state
const (
	SWParsed ServiceWorkerState = iota
	SWInstalling
	SWInstalled
	SWActivating
	SWActivated
	SWRedundant
)

func (s ServiceWorkerState) String() string {
	return [...]string{"parsed", "installing", "installed", "activating", "activated", "redundant"}[s]
}

// ServiceWorker is https://w3c.github.io/ServiceWorker/#dfn-service-worker.
type ServiceWorker struct {
	id        string
	scriptURL *url.URL
	reg       *ServiceWorkerRegistration

	mu          sync.Mutex
	state       ServiceWorkerState
	skipWaiting bool
	env         *EnvironmentSettingsObject // its global's environment, once running
}

// ID is the service worker's id (an opaque string).
func (w *ServiceWorker) ID() string {
	if w == nil {
		return ""
	}
	return w.id
}

// ScriptURL is the worker's script URL.
func (w *ServiceWorker) ScriptURL() *url.URL {
	if w == nil {
		return nil
	}
	return cloneURL(w.scriptURL)
}

// Registration is the worker's containing service worker registration.
func (w *ServiceWorker) Registration() *ServiceWorkerRegistration {
	if w == nil {
		return nil
	}
	return w.reg
}

// State is the worker's current state.
func (w *ServiceWorker) State() ServiceWorkerState {
	if w == nil {
		return 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.state
}

// Env is the environment of the worker's global (nil before it runs).
func (w *ServiceWorker) Env() *EnvironmentSettingsObject {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.env
}

func (w *ServiceWorker) setState(s ServiceWorkerState) {
	w.mu.Lock()
	w.state = s
	w.mu.Unlock()
	w.reg.reg.changed()
}

// SetSkipWaiting sets the worker's skip waiting flag (skipWaiting()) and
// tries to activate its registration.
func (w *ServiceWorker) SetSkipWaiting() {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.skipWaiting = true
	w.mu.Unlock()
	w.reg.reg.queue.Enqueue(func() { w.reg.reg.tryActivate(w.reg) })
}

// ServiceWorkerRegistration is
// https://w3c.github.io/ServiceWorker/#dfn-service-worker-registration.
type ServiceWorkerRegistration struct {
	reg        *serviceWorkerRegistry
	storageKey storage.StorageKey
	scope      *url.URL

	// guarded by reg.mu
	installing, waiting, active *ServiceWorker
	unregistered                bool
}

// Scope is the registration's scope URL.
func (r *ServiceWorkerRegistration) Scope() *url.URL {
	if r == nil {
		return nil
	}
	return cloneURL(r.scope)
}

// Unregistered reports whether the registration was unregistered (or
// never got a worker).
func (r *ServiceWorkerRegistration) Unregistered() bool {
	if r == nil {
		return false
	}
	r.reg.mu.Lock()
	defer r.reg.mu.Unlock()
	return r.unregistered
}

// Workers returns the registration's installing, waiting and active
// workers (nil when absent).
func (r *ServiceWorkerRegistration) Workers() (installing, waiting, active *ServiceWorker) {
	if r == nil {
		return
	}
	r.reg.mu.Lock()
	defer r.reg.mu.Unlock()
	return r.installing, r.waiting, r.active
}

// newestWorker is https://w3c.github.io/ServiceWorker/#get-newest-worker
// (reg.mu held).
func (r *ServiceWorkerRegistration) newestWorker() *ServiceWorker {
	switch {
	case r.installing != nil:
		return r.installing
	case r.waiting != nil:
		return r.waiting
	}
	return r.active
}

// ServiceWorkerHost is what the embedder does for service workers.
type ServiceWorkerHost interface {
	// Run fetches w's script, creates its agent, environment
	// (NewServiceWorkerEnvironment) and realm and runs the script
	// ("run service worker"). An error means the fetch or the script's
	// evaluation failed.
	Run(w *ServiceWorker) error
	// FireLifecycleEvent fires an ExtendableEvent named name ("install",
	// "activate") at w's global and calls done once the promises passed to
	// waitUntil have settled; failed is whether one rejected (or the
	// event could not be fired).
	FireLifecycleEvent(w *ServiceWorker, name string, done func(failed bool))
	// Terminate terminates w's agent (it became redundant).
	Terminate(w *ServiceWorker)
}

// serviceWorkerRegistry is the user agent's registration map and job
// queue.
type serviceWorkerRegistry struct {
	ua    *UserAgent
	host  ServiceWorkerHost
	queue *ParallelQueue

	mu          sync.Mutex
	regs        map[string]*ServiceWorkerRegistration // by storage key + scope
	controllers map[*EnvironmentSettingsObject]*ServiceWorker
	subscribers map[int]func(*ServiceWorkerSnapshot)
	nextSub     int
	// every registration and worker made (for snapshots; the user agent's
	// lifetime bounds them)
	allRegs    []*ServiceWorkerRegistration
	allWorkers []*ServiceWorker
}

// ServiceWorkerSnapshot is the state of a user agent's registrations,
// workers and controllers at one change: the bindings apply snapshots in
// order in each realm's tasks, as the spec's "update the registration
// state" and "update the worker state" tasks do.
type ServiceWorkerSnapshot struct {
	Registrations map[*ServiceWorkerRegistration][3]*ServiceWorker // installing, waiting, active
	States        map[*ServiceWorker]ServiceWorkerState
	Controllers   map[*EnvironmentSettingsObject]*ServiceWorker
}

// snapshotLocked takes a snapshot (r.mu held).
func (r *serviceWorkerRegistry) snapshotLocked() *ServiceWorkerSnapshot {
	s := &ServiceWorkerSnapshot{Registrations: map[*ServiceWorkerRegistration][3]*ServiceWorker{},
		States: map[*ServiceWorker]ServiceWorkerState{}, Controllers: map[*EnvironmentSettingsObject]*ServiceWorker{}}
	for _, reg := range r.allRegs {
		s.Registrations[reg] = [3]*ServiceWorker{reg.installing, reg.waiting, reg.active}
	}
	for _, w := range r.allWorkers {
		s.States[w] = w.State()
	}
	for env, w := range r.controllers {
		s.Controllers[env] = w
	}
	return s
}

var registrySlot = NewSlot[*serviceWorkerRegistry]()

func registryOf(ua *UserAgent) *serviceWorkerRegistry {
	return registrySlot.GetOrInit(ua, func() *serviceWorkerRegistry {
		return &serviceWorkerRegistry{ua: ua, regs: map[string]*ServiceWorkerRegistration{},
			controllers: map[*EnvironmentSettingsObject]*ServiceWorker{}, subscribers: map[int]func(*ServiceWorkerSnapshot){}}
	})
}

// SetServiceWorkerHost installs the embedder's service worker host; without
// one, register jobs fail.
func SetServiceWorkerHost(ua *UserAgent, h ServiceWorkerHost) {
	r := registryOf(ua)
	r.mu.Lock()
	r.host = h
	r.mu.Unlock()
}

// SubscribeServiceWorkerChanges calls f (on the job queue's goroutine)
// with a snapshot after any change of a registration, a worker's state or
// a client's controller of ua; the returned function unsubscribes.
func SubscribeServiceWorkerChanges(ua *UserAgent, f func(*ServiceWorkerSnapshot)) (unsubscribe func()) {
	r := registryOf(ua)
	r.mu.Lock()
	id := r.nextSub
	r.nextSub++
	r.subscribers[id] = f
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		delete(r.subscribers, id)
		r.mu.Unlock()
	}
}

func (r *serviceWorkerRegistry) changed() {
	r.mu.Lock()
	snap := r.snapshotLocked()
	subs := make([]func(*ServiceWorkerSnapshot), 0, len(r.subscribers))
	for _, f := range r.subscribers {
		subs = append(subs, f)
	}
	r.mu.Unlock()
	for _, f := range subs {
		f(snap)
	}
}

// Snapshot is the current state of ua's registrations, workers and
// controllers.
func Snapshot(ua *UserAgent) *ServiceWorkerSnapshot {
	if !ua.created() {
		return nil
	}
	r := registryOf(ua)
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.snapshotLocked()
}

func regKey(key storage.StorageKey, scope *url.URL) string {
	return key.Origin.Serialize() + " " + scope.String()
}

// ErrServiceWorkerScript is a register job's failure to fetch or run the
// script (a TypeError in JavaScript).
var ErrServiceWorkerScript = errors.New("html: the service worker script failed to load or run")

// ErrServiceWorkerInstall is a register job whose install event failed.
var ErrServiceWorkerInstall = errors.New("html: the service worker's install failed")

// ScheduleRegister is https://w3c.github.io/ServiceWorker/#start-register-algorithm
// after its argument checks (done by the caller): it schedules a register
// job for client. done is called on the job queue with the registration
// (once its installing worker is set) and a snapshot of that moment, or
// an error.
func ScheduleRegister(client *EnvironmentSettingsObject, scriptURL, scope *url.URL, done func(*ServiceWorkerRegistration, *ServiceWorkerSnapshot, error)) {
	if client == nil || scriptURL == nil || scope == nil {
		if done != nil {
			done(nil, nil, errors.New("html: ScheduleRegister needs a client, a script URL and a scope"))
		}
		return
	}
	r := registryOf(client.ua)
	r.mu.Lock()
	if r.queue == nil {
		r.queue = client.ua.StartANewNamedParallelQueue("service worker job queue")
	}
	q := r.queue
	r.mu.Unlock()
	key := client.ObtainAStorageKeyForNonStoragePurposes()
	finish := func(reg *ServiceWorkerRegistration, err error) {
		r.mu.Lock()
		snap := r.snapshotLocked()
		r.mu.Unlock()
		done(reg, snap, err)
	}
	if !q.Enqueue(func() { r.register(key, scriptURL, scope, finish) }) {
		finish(nil, ErrTerminated)
	}
}

// register is https://w3c.github.io/ServiceWorker/#register-algorithm,
// followed by Update, Install and Activate for the same job.
func (r *serviceWorkerRegistry) register(key storage.StorageKey, scriptURL, scope *url.URL, done func(*ServiceWorkerRegistration, error)) {
	// 4. Let registration be the result of running Get Registration given
	//    job's storage key and job's scope url.
	r.mu.Lock()
	reg := r.regs[regKey(key, scope)]
	// 5. If registration is not null, then: let newestWorker be the result
	//    of running the Get Newest Worker algorithm passing registration;
	//    if newestWorker is not null, job's script url equals
	//    newestWorker's script url, ... resolve and finish.
	if reg != nil {
		if nw := reg.newestWorker(); nw != nil && nw.scriptURL.String() == scriptURL.String() {
			r.mu.Unlock()
			done(reg, nil)
			return
		}
	} else {
		// 6. Else: invoke Set Registration.
		reg = &ServiceWorkerRegistration{reg: r, storageKey: key, scope: cloneURL(scope)}
		r.regs[regKey(key, scope)] = reg
		r.allRegs = append(r.allRegs, reg)
	}
	host := r.host
	r.mu.Unlock()
	r.changed()
	// 7. Invoke Update algorithm passing job.
	r.update(host, reg, scriptURL, done)
}

// update is https://w3c.github.io/ServiceWorker/#update-algorithm,
// simplified: no byte-for-byte comparison, no update check of imports.
func (r *serviceWorkerRegistry) update(host ServiceWorkerHost, reg *ServiceWorkerRegistration, scriptURL *url.URL, done func(*ServiceWorkerRegistration, error)) {
	fail := func(err error) {
		r.mu.Lock()
		if reg.newestWorker() == nil {
			reg.unregistered = true
			delete(r.regs, regKey(reg.storageKey, reg.scope))
		}
		r.mu.Unlock()
		r.changed()
		done(nil, err)
	}
	if host == nil {
		fail(errors.New("html: no service worker host"))
		return
	}
	// Let worker be a new service worker (state parsed), then run it
	// (Run Service Worker); failure rejects the job with a TypeError.
	w := &ServiceWorker{id: uuid.NewString(), scriptURL: cloneURL(scriptURL), reg: reg}
	r.mu.Lock()
	r.allWorkers = append(r.allWorkers, w)
	r.mu.Unlock()
	if err := host.Run(w); err != nil {
		host.Terminate(w)
		fail(ErrServiceWorkerScript)
		return
	}
	r.install(host, reg, w, done)
}

// install is https://w3c.github.io/ServiceWorker/#installation-algorithm.
func (r *serviceWorkerRegistry) install(host ServiceWorkerHost, reg *ServiceWorkerRegistration, w *ServiceWorker, done func(*ServiceWorkerRegistration, error)) {
	// 2. Run the Update Registration State algorithm passing registration,
	//    "installing" and worker.
	r.mu.Lock()
	reg.installing = w
	r.mu.Unlock()
	// 3. Run the Update Worker State algorithm passing registration's
	//    installing worker and "installing".
	w.setState(SWInstalling)
	// 4. Assert: job's job promise is not null.
	// 5. Invoke Resolve Job Promise with job and registration.
	done(reg, nil)
	// 10-11. Fire install at the installing worker's global and wait for
	//    its extend lifetime promises.
	failed := r.fireAndWait(host, w, "install")
	// 13. If installFailed is true, then: update the worker state to
	//     "redundant", clear installing, and clear the registration if it
	//     has no newest worker.
	if failed {
		w.setState(SWRedundant)
		r.mu.Lock()
		if reg.installing == w {
			reg.installing = nil
		}
		if reg.newestWorker() == nil {
			reg.unregistered = true
			delete(r.regs, regKey(reg.storageKey, reg.scope))
		}
		r.mu.Unlock()
		host.Terminate(w)
		r.changed()
		return
	}
	// 15-16. If registration's waiting worker is not null, it becomes
	//     redundant; then the installing worker becomes the waiting one.
	r.mu.Lock()
	old := reg.waiting
	reg.waiting = w
	if reg.installing == w {
		reg.installing = nil
	}
	r.mu.Unlock()
	if old != nil {
		old.setState(SWRedundant)
		host.Terminate(old)
	}
	// 17. Run the Update Worker State algorithm passing registration's
	//     waiting worker and "installed".
	w.setState(SWInstalled)
	// 19. Invoke Try Activate with registration.
	r.tryActivate(reg)
}

// fireAndWait fires a lifecycle event at w and waits for it to settle.
func (r *serviceWorkerRegistry) fireAndWait(host ServiceWorkerHost, w *ServiceWorker, name string) bool {
	ch := make(chan bool, 1)
	host.FireLifecycleEvent(w, name, func(failed bool) { ch <- failed })
	return <-ch
}

// tryActivate is https://w3c.github.io/ServiceWorker/#try-activate-algorithm:
// activate when there is a waiting worker and either no active one, the
// active worker has no controllees... simplified to: no active worker or
// the waiting worker's skip waiting flag is set.
func (r *serviceWorkerRegistry) tryActivate(reg *ServiceWorkerRegistration) {
	r.mu.Lock()
	w, active, host := reg.waiting, reg.active, r.host
	idle := active != nil && len(r.controlleesLocked(active)) == 0
	r.mu.Unlock()
	// 1. If registration's waiting worker is null, return.
	if w == nil || host == nil {
		return
	}
	w.mu.Lock()
	skip := w.skipWaiting
	w.mu.Unlock()
	if active == nil || skip || idle {
		r.activate(host, reg)
	}
}

func (r *serviceWorkerRegistry) controlleesLocked(w *ServiceWorker) []*EnvironmentSettingsObject {
	var out []*EnvironmentSettingsObject
	for env, c := range r.controllers {
		if c == w && !env.agent.IsTerminated() {
			out = append(out, env)
		}
	}
	return out
}

// activate is https://w3c.github.io/ServiceWorker/#activation-algorithm.
func (r *serviceWorkerRegistry) activate(host ServiceWorkerHost, reg *ServiceWorkerRegistration) {
	r.mu.Lock()
	// 1. If registration's waiting worker is null, abort these steps.
	w := reg.waiting
	if w == nil {
		r.mu.Unlock()
		return
	}
	// 2. If registration's active worker is not null, then terminate it
	//    and set its state to "redundant".
	old := reg.active
	// 3. Run the Update Registration State algorithm passing registration,
	//    "active" and registration's waiting worker; then "waiting", null.
	reg.active = w
	reg.waiting = nil
	// The clients the old worker controlled are now controlled by the
	// new one.
	if old != nil {
		for _, env := range r.controlleesLocked(old) {
			r.controllers[env] = w
		}
	}
	r.mu.Unlock()
	if old != nil {
		old.setState(SWRedundant)
		host.Terminate(old)
	}
	// 5. Run the Update Worker State algorithm passing registration's
	//    active worker and "activating".
	w.setState(SWActivating)
	// 11-12. Fire activate and wait for its extend lifetime promises.
	r.fireAndWait(host, w, "activate")
	// 13. Run the Update Worker State algorithm passing registration's
	//     active worker and "activated".
	w.setState(SWActivated)
}

// NewServiceWorkerEnvironment is the agent and environment part of "run
// service worker": a new service worker agent (in an agent cluster of its
// own) and an environment whose origin, creation URL and storage key come
// from the script URL.
func NewServiceWorkerEnvironment(ua *UserAgent, w *ServiceWorker) (*EnvironmentSettingsObject, error) {
	if !ua.created() {
		return nil, ErrNoUserAgent
	}
	if w == nil {
		return nil, errors.New("html: NewServiceWorkerEnvironment needs a service worker")
	}
	agent := ua.newAgent(ServiceWorkerAgent, &AgentCluster{ua: ua})
	if agent.IsTerminated() {
		return nil, ErrTerminated
	}
	o := origin.FromURL(w.scriptURL)
	env := &EnvironmentSettingsObject{
		kind:                ServiceWorkerEnvironment,
		id:                  uuid.NewString(),
		creationURL:         cloneURL(w.scriptURL),
		topLevelCreationURL: cloneURL(w.scriptURL),
		topLevelOrigin:      o,
		origin:              o,
		agent:               agent,
		ua:                  ua,
	}
	env.secure = isASecureContext(env, nil)
	env.init()
	agent.mu.Lock()
	agent.envs = append(agent.envs, env)
	agent.mu.Unlock()
	w.mu.Lock()
	w.env = env
	w.mu.Unlock()
	return env, nil
}

// matchScope is https://w3c.github.io/ServiceWorker/#scope-match-algorithm
// (reg.mu held): the registration of key whose scope is the longest prefix
// of u.
func (r *serviceWorkerRegistry) matchLocked(key storage.StorageKey, u *url.URL) *ServiceWorkerRegistration {
	var best *ServiceWorkerRegistration
	s := serializeNoFragment(u)
	for _, reg := range r.regs {
		if reg.storageKey.Origin != key.Origin || reg.unregistered {
			continue
		}
		sc := reg.scope.String()
		if strings.HasPrefix(s, sc) && (best == nil || len(sc) > len(best.scope.String())) {
			best = reg
		}
	}
	return best
}

func serializeNoFragment(u *url.URL) string {
	c := *u
	c.Fragment, c.RawFragment = "", ""
	return c.String()
}

// MatchServiceWorkerRegistration is https://w3c.github.io/ServiceWorker/#scope-match-algorithm
// for client's storage key and clientURL (nil when none matches).
func MatchServiceWorkerRegistration(client *EnvironmentSettingsObject, clientURL *url.URL) *ServiceWorkerRegistration {
	if client == nil || clientURL == nil {
		return nil
	}
	r := registryOf(client.ua)
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.matchLocked(client.ObtainAStorageKeyForNonStoragePurposes(), clientURL)
}

// ServiceWorkerRegistrations returns client's storage key's registrations.
func ServiceWorkerRegistrations(client *EnvironmentSettingsObject) []*ServiceWorkerRegistration {
	if client == nil {
		return nil
	}
	r := registryOf(client.ua)
	key := client.ObtainAStorageKeyForNonStoragePurposes()
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*ServiceWorkerRegistration
	for _, reg := range r.regs {
		if reg.storageKey.Origin == key.Origin && !reg.unregistered {
			out = append(out, reg)
		}
	}
	return out
}

// Unregister is the unregister job, simplified: the registration leaves
// the map at once (its workers keep running until the user agent closes,
// as when it still has controllees).
func (reg *ServiceWorkerRegistration) Unregister() bool {
	if reg == nil {
		return false
	}
	r := reg.reg
	r.mu.Lock()
	k := regKey(reg.storageKey, reg.scope)
	ok := r.regs[k] == reg
	if ok {
		delete(r.regs, k)
		reg.unregistered = true
	}
	r.mu.Unlock()
	r.changed()
	return ok
}

// SetUpServiceWorkerClient gives a new window client its active service
// worker: the active worker of the registration matching its creation
// URL, if any (what a navigation does with its reserved client).
func SetUpServiceWorkerClient(env *EnvironmentSettingsObject) {
	r := registryOf(env.ua)
	r.mu.Lock()
	// Forget the clients that are gone.
	for e := range r.controllers {
		if e.agent.IsTerminated() || (e.document != nil && e.document.IsUnloaded()) {
			delete(r.controllers, e)
		}
	}
	reg := r.matchLocked(env.ObtainAStorageKeyForNonStoragePurposes(), env.creationURL)
	if reg != nil && reg.active != nil {
		r.controllers[env] = reg.active
	}
	r.mu.Unlock()
}

// ControllerOf is the client's active service worker (nil when none).
func ControllerOf(env *EnvironmentSettingsObject) *ServiceWorker {
	if env == nil {
		return nil
	}
	r := registryOf(env.ua)
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.controllers[env]
}

// Claim is https://w3c.github.io/ServiceWorker/#dom-clients-claim's
// parallel steps: every window or worker client of w's storage key whose
// URL w's registration matches gets w as its active service worker.
// It fails (false) when w is not its registration's active worker.
func Claim(w *ServiceWorker) bool {
	r := w.reg.reg
	r.mu.Lock()
	if w.reg.active != w {
		r.mu.Unlock()
		return false
	}
	for _, env := range r.clientsLocked(w.reg.storageKey) {
		if r.matchLocked(w.reg.storageKey, env.creationURL) == w.reg {
			r.controllers[env] = w
		}
	}
	r.mu.Unlock()
	r.changed()
	return true
}

// clientsLocked lists the live window and dedicated worker environments of
// storage key key's origin.
func (r *serviceWorkerRegistry) clientsLocked(key storage.StorageKey) []*EnvironmentSettingsObject {
	var out []*EnvironmentSettingsObject
	for _, a := range r.ua.Agents() {
		if a.IsTerminated() {
			continue
		}
		a.mu.Lock()
		envs := append([]*EnvironmentSettingsObject(nil), a.envs...)
		a.mu.Unlock()
		for _, env := range envs {
			if env.kind == ServiceWorkerEnvironment || env.origin != key.Origin {
				continue
			}
			if doc := env.document; doc != nil && !doc.IsFullyActive() {
				continue
			}
			out = append(out, env)
		}
	}
	return out
}

// ServiceWorkerClients lists the clients w may see (Clients.matchAll and
// get): the live window and worker environments of its origin, all of
// them when includeUncontrolled, else only those w controls.
func ServiceWorkerClients(w *ServiceWorker, includeUncontrolled bool) []*EnvironmentSettingsObject {
	r := w.reg.reg
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*EnvironmentSettingsObject
	for _, env := range r.clientsLocked(w.reg.storageKey) {
		if includeUncontrolled || r.controllers[env] == w {
			out = append(out, env)
		}
	}
	return out
}
