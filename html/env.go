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

// EnvironmentKind tells window environments from the kinds of worker ones.
type EnvironmentKind uint8

// The kinds of environment.
const (
	WindowEnvironment EnvironmentKind = iota
	DedicatedWorkerEnvironment
	// SharedWorkerEnvironment is a shared worker's (sharedworker.go).
	SharedWorkerEnvironment
	// StandaloneWorkerEnvironment is the environment of a worker that has
	// no outside settings: an agent of its own, in an agent cluster of its
	// own, made by NewStandaloneWorkerEnvironment for another
	// specification's workers (its agent's kind tells which).
	StandaloneWorkerEnvironment
)

// EnvironmentSettingsObject is an HTML environment settings object.
// Identity fields are fixed at creation; Global/SetGlobal are meant for the
// responsible event loop's goroutine.
type EnvironmentSettingsObject struct {
	id                  string
	kind                EnvironmentKind
	creationURL         *url.URL
	topLevelCreationURL *url.URL
	topLevelOrigin      origin.Origin
	origin              origin.Origin
	secure              bool
	agent               *Agent
	ua                  *UserAgent
	document            *Document
	owner               *EnvironmentSettingsObject
	sharedWorker        *SharedWorker      // the shared worker of a SharedWorkerEnvironment
	storageKey          storage.StorageKey // for non-storage purposes, computed once
	crossSiteAncestor   bool               // some ancestor document is cross-site with this one

	// reservedFor is the navigable whose navigation reserved this
	// environment until a document's environment settings object takes
	// it over (reserved.go); nil for any other environment.
	rmu         sync.Mutex
	reservedFor *Navigable

	slots slotTable

	gmu    sync.Mutex
	global any

	wmu     sync.Mutex
	workers []*EnvironmentSettingsObject // dedicated workers this environment owns
}

// ID is the environment's id: a UUID string (the clientId of Web Locks).
func (e *EnvironmentSettingsObject) ID() string {
	if e == nil {
		return ""
	}
	return e.id
}

// Kind tells window from worker environments.
func (e *EnvironmentSettingsObject) Kind() EnvironmentKind {
	if e == nil {
		return 0
	}
	return e.kind
}

// CreationURL returns the environment's creation URL (a copy).
func (e *EnvironmentSettingsObject) CreationURL() *url.URL {
	if e == nil {
		return nil
	}
	return cloneURL(e.creationURL)
}

// TopLevelCreationURL returns the top-level creation URL (a copy).
func (e *EnvironmentSettingsObject) TopLevelCreationURL() *url.URL {
	if e == nil {
		return nil
	}
	return cloneURL(e.topLevelCreationURL)
}

// Origin returns the environment's origin.
func (e *EnvironmentSettingsObject) Origin() origin.Origin {
	if e == nil {
		return origin.Origin{}
	}
	return e.origin
}

// TopLevelOrigin returns the environment's top-level origin.
func (e *EnvironmentSettingsObject) TopLevelOrigin() origin.Origin {
	if e == nil {
		return origin.Origin{}
	}
	return e.topLevelOrigin
}

// TopLevelSite returns the site of the top-level origin.
func (e *EnvironmentSettingsObject) TopLevelSite() origin.Site {
	if e == nil {
		return origin.Site{}
	}
	return origin.ObtainSite(e.topLevelOrigin)
}

// IsSecureContext reports whether the environment is a secure context.
func (e *EnvironmentSettingsObject) IsSecureContext() bool {
	if e == nil {
		return false
	}
	return e.secure
}

// ResponsibleEventLoop returns the event loop of the environment's agent.
func (e *EnvironmentSettingsObject) ResponsibleEventLoop() *EventLoop {
	if e == nil {
		return nil
	}
	return e.agent.loop
}

// Agent returns the environment's agent.
func (e *EnvironmentSettingsObject) Agent() *Agent {
	if e == nil {
		return nil
	}
	return e.agent
}

// UserAgent returns the user agent.
func (e *EnvironmentSettingsObject) UserAgent() *UserAgent {
	if e == nil {
		return nil
	}
	return e.ua
}

// Global returns the relevant global object set by the JS layer (or nil).
func (e *EnvironmentSettingsObject) Global() any {
	if e == nil {
		return nil
	}
	e.gmu.Lock()
	defer e.gmu.Unlock()
	return e.global
}

// SetGlobal sets the relevant global object.
func (e *EnvironmentSettingsObject) SetGlobal(g any) {
	if e == nil {
		return
	}
	e.gmu.Lock()
	e.global = g
	e.gmu.Unlock()
}

// AssociatedDocument is the global's associated Document (nil for workers).
func (e *EnvironmentSettingsObject) AssociatedDocument() *Document {
	if e == nil {
		return nil
	}
	return e.document
}

// Owner is the environment that created a dedicated worker (nil for windows).
func (e *EnvironmentSettingsObject) Owner() *EnvironmentSettingsObject {
	if e == nil {
		return nil
	}
	return e.owner
}

// StorageShed implements storage.Environment: the user agent's shed.
func (e *EnvironmentSettingsObject) StorageShed() *storage.Shed {
	if e == nil {
		return nil
	}
	return e.ua.shed
}

// ObtainAStorageKeyForNonStoragePurposes is the Storage Standard's "obtain a
// storage key for non-storage purposes", partitioned by top-level site.
func (e *EnvironmentSettingsObject) ObtainAStorageKeyForNonStoragePurposes() storage.StorageKey {
	if e == nil {
		return storage.StorageKey{}
	}
	// 1. Let origin be environment's origin.
	// 2. Return a tuple consisting of origin (and, with partitioning, the
	//    site of environment's top-level origin and the ancestor chain bit).
	return e.storageKey
}

// init computes the derived fields once the identity fields are set.
func (e *EnvironmentSettingsObject) init() {
	e.storageKey = storage.StorageKey{Origin: e.origin, TopLevelSite: origin.ObtainSite(e.topLevelOrigin),
		HasCrossSiteAncestor: e.crossSiteAncestor}
}

// StorageKey implements storage.Environment: "obtain a storage key".
func (e *EnvironmentSettingsObject) StorageKey() (storage.StorageKey, bool) {
	if e == nil {
		return storage.StorageKey{}, false
	}
	// 1. Let key be the result of running obtain a storage key for
	//    non-storage purposes with environment.
	key := e.ObtainAStorageKeyForNonStoragePurposes()
	// 2. If key's origin is an opaque origin, then return failure.
	if key.Origin.IsOpaque() {
		return storage.StorageKey{}, false
	}
	// 3. If the user agent's storage is disabled for key, return failure. (Never.)
	// 4. Return key.
	return key, true
}

func cloneURL(u *url.URL) *url.URL {
	if u == nil {
		return nil
	}
	c := *u
	if u.User != nil {
		uu := *u.User
		c.User = &uu
	}
	return &c
}

// isASecureContext is HTML's "is a secure context" for an environment
// being created; parent is the container document's environment of a
// child navigable's document (nil for top-level documents and workers).
// It is computed once, at creation, as none of its inputs change later.
func isASecureContext(e, parent *EnvironmentSettingsObject) bool {
	// 1. If environment is an environment settings object, then:
	//    1.1 Let global be environment's global object.
	//    1.2 If global is a WorkerGlobalScope, then: if global's owner
	//        set[0]'s relevant settings object is a secure context, return
	//        true; otherwise return false.
	if e.kind == DedicatedWorkerEnvironment {
		return e.owner != nil && e.owner.secure
	}
	//    1.3 If global is a WorkletGlobalScope, then return true. (None here.)
	// 2. If the result of "Is url potentially trustworthy?" given
	//    environment's top-level creation URL is "Potentially Trustworthy",
	//    then return true. 3. Return false.
	// Secure Contexts adds that a document is only as secure as each of its
	// ancestors and its own URL (no secure frame under an insecure one, no
	// insecure frame under a secure one): with the parent's flag already
	// covering the ancestors up to the top-level creation URL, that is the
	// parent's flag and this environment's creation URL.
	if parent != nil && !parent.secure {
		return false
	}
	return origin.IsURLPotentiallyTrustworthy(e.creationURL)
}

// ErrWorkerOrigin is returned when a dedicated worker's script URL is not
// same origin with its owner (and not a data: URL).
var ErrWorkerOrigin = errors.New("html: worker script URL is not same origin with its owner (SecurityError)")

// ErrTerminated is returned when creating something in a terminated agent or
// closed user agent.
var ErrTerminated = errors.New("html: agent terminated or user agent closed")

// NewDedicatedWorker creates a dedicated worker owned by owner running
// scriptURL: "obtain a dedicated/shared worker agent" (a new dedicated
// worker agent with its own event loop, in owner's agent cluster) and "set
// up a worker environment settings object". A data: URL gets an opaque
// origin; other URLs must be same origin with the owner.
func NewDedicatedWorker(owner *EnvironmentSettingsObject, scriptURL *url.URL) (*EnvironmentSettingsObject, error) {
	if owner == nil || scriptURL == nil {
		return nil, errors.New("html: NewDedicatedWorker needs an owner and a URL")
	}
	if owner.agent.IsTerminated() {
		return nil, ErrTerminated
	}
	isData := strings.EqualFold(scriptURL.Scheme, "data")
	if !isData && origin.FromURL(scriptURL) != owner.origin {
		return nil, ErrWorkerOrigin
	}
	agent := ObtainADedicatedOrSharedWorkerAgent(owner, false)
	env := setUpAWorkerEnvironmentSettingsObject(DedicatedWorkerEnvironment, owner, scriptURL, agent)
	env.owner = owner
	owner.wmu.Lock()
	// Forget terminated workers first so the list stays bounded.
	live := owner.workers[:0]
	for _, x := range owner.workers {
		if !x.agent.IsTerminated() {
			live = append(live, x)
		}
	}
	clear(owner.workers[len(live):])
	owner.workers = append(live, env)
	owner.wmu.Unlock()
	return env, nil
}

// setUpAWorkerEnvironmentSettingsObject is
// https://html.spec.whatwg.org/multipage/workers.html#set-up-a-worker-environment-settings-object
// for a new worker of kind running scriptURL in agent, with outside
// settings outside (the JavaScript realm and global of steps 2-3 are the
// embedder's). The environment is added to the agent's environments.
func setUpAWorkerEnvironmentSettingsObject(kind EnvironmentKind, outside *EnvironmentSettingsObject, scriptURL *url.URL, agent *Agent) *EnvironmentSettingsObject {
	// 1. Let inherited origin be outside settings's origin.
	// 4. Let settings object be a new environment settings object whose
	//    origin is a unique opaque origin if worker global scope's url's
	//    scheme is "data", and inherited origin otherwise.
	o := outside.origin
	if strings.EqualFold(scriptURL.Scheme, "data") {
		o = origin.NewOpaque()
	}
	env := &EnvironmentSettingsObject{
		kind: kind,
		// 5. Set settings object's id to a new unique opaque string,
		id: uuid.NewString(),
		// creation URL to worker global scope's url,
		creationURL: cloneURL(scriptURL),
		// top-level creation URL and top-level origin to outside settings's.
		topLevelCreationURL: outside.topLevelCreationURL,
		topLevelOrigin:      outside.topLevelOrigin,
		origin:              o,
		agent:               agent,
		ua:                  outside.ua,
		crossSiteAncestor:   outside.crossSiteAncestor,
		// "Is a secure context", step 1.2: a WorkerGlobalScope is one when
		// its owner set[0]'s relevant settings object is, and a new
		// worker's first owner is outside settings's.
		secure: outside.secure,
	}
	env.init()
	agent.mu.Lock()
	agent.envs = append(agent.envs, env)
	agent.mu.Unlock()
	return env
}

// NewStandaloneWorkerEnvironment creates an agent of kind (a worker
// agent kind) in a new agent cluster and the environment of a worker
// running scriptURL in it, for the workers other specifications run
// without outside settings (the service worker agent of HTML's agent
// kinds): the environment's origin, creation URL, top-level creation URL
// and top-level origin come from scriptURL.
func NewStandaloneWorkerEnvironment(ua *UserAgent, kind AgentKind, scriptURL *url.URL) (*EnvironmentSettingsObject, error) {
	if !ua.created() {
		return nil, ErrNoUserAgent
	}
	if scriptURL == nil || kind == SimilarOriginWindowAgent || kind > WorkletAgent {
		return nil, errors.New("html: NewStandaloneWorkerEnvironment needs a worker agent kind and a script URL")
	}
	agent := ua.newAgent(kind, &AgentCluster{ua: ua})
	if agent.IsTerminated() {
		return nil, ErrTerminated
	}
	o := origin.FromURL(scriptURL)
	env := &EnvironmentSettingsObject{
		kind:                StandaloneWorkerEnvironment,
		id:                  uuid.NewString(),
		creationURL:         cloneURL(scriptURL),
		topLevelCreationURL: cloneURL(scriptURL),
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
	return env, nil
}

// ObtainADedicatedOrSharedWorkerAgent is HTML's "obtain a dedicated/shared
// worker agent" given outside settings and isShared.
func ObtainADedicatedOrSharedWorkerAgent(outside *EnvironmentSettingsObject, isShared bool) *Agent {
	ua := outside.ua
	// 1. Let agentCluster be null.
	var cluster *AgentCluster
	kind := DedicatedWorkerAgent
	if isShared {
		// 2. If isShared is true, then set agentCluster to a new agent cluster.
		cluster = &AgentCluster{ua: ua}
		kind = SharedWorkerAgent
	} else {
		// 3. Otherwise, set agentCluster to outside settings's agent's agent cluster.
		cluster = outside.agent.cluster
	}
	// 4. Let agent be the result of creating an agent given false (it gets
	//    its own event loop).
	// 5. Add agent to agentCluster.
	// 6. Return agent.
	return ua.newAgent(kind, cluster)
}

// terminateOwnedWorkers terminates the dedicated workers this environment
// owns (their owner set becomes empty).
func (e *EnvironmentSettingsObject) terminateOwnedWorkers() {
	e.wmu.Lock()
	ws := e.workers
	e.workers = nil
	e.wmu.Unlock()
	for _, w := range ws {
		w.agent.Terminate()
	}
}

// Workers returns the dedicated workers this environment owns that have not
// terminated.
func (e *EnvironmentSettingsObject) Workers() []*EnvironmentSettingsObject {
	if e == nil {
		return nil
	}
	e.wmu.Lock()
	defer e.wmu.Unlock()
	var out []*EnvironmentSettingsObject
	for _, w := range e.workers {
		if !w.agent.IsTerminated() {
			out = append(out, w)
		}
	}
	return out
}
