package htmlhost

import (
	"errors"
	"sync"
	"sync/atomic"

	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/storage"
	"github.com/gowebengine/weblocks/weblocks"
)

// This file is the html host's side of the lock service contract: one
// weblocks.Client per environment and storage bucket, registered the first
// time the environment requests or queries, delivering to the
// environment's event loop, evicting its back/forward-cached documents on
// request, marked cached while they are, and terminated when the
// environment goes away.

// TaskSource is the Web Locks "web locks tasks source": every task the
// lock service delivers to an environment's event loop is on it.
var TaskSource = html.NewTaskSource("web locks tasks source")

// EvictionReasonContention is the html eviction reason for a cached
// document whose lock another context requested or queried.
const EvictionReasonContention = "web-locks-contention"

// StorageEndpoint is the "web-locks" storage endpoint identifier: a lock
// manager is the associated value of a bucket's "web-locks" bottle.
const StorageEndpoint = "web-locks"

func init() {
	// The Web Locks API registers its storage endpoint: identifier
	// "web-locks", types « "local" », quota null.
	if err := storage.RegisterEndpoint(storage.Endpoint{Identifier: StorageEndpoint, Types: []storage.StorageType{storage.Local}}); err != nil {
		panic(err)
	}
}

// uaState is a user agent's lock service and its registered environments.
type uaState struct {
	ua    *html.UserAgent
	queue *html.ParallelQueue
	local *weblocks.Service // the user agent's own lock service
	// svc is the lock service its environments use: local, or one set by
	// UseService (such as a client of a lock service in another process)
	svc weblocks.LockService

	cacheMu sync.Mutex // serializes cached-state updates (taken first)
	mu      sync.Mutex // guards envs, used and svc's change
	envs    map[*envState]struct{}
	used    bool // an environment registered with svc
}

// uaSlot holds a user agent's lock service state; envSlot an
// environment's clients.
var (
	uaSlot  = html.NewSlot[*uaState]()
	envSlot = html.NewSlot[*envState]()
)

// stateOf returns ua's lock service state, creating it (its lock task
// queue is started the first time it is needed).
func stateOf(ua *html.UserAgent) *uaState {
	if s := uaSlot.Get(ua); s != nil {
		return s
	}
	return uaSlot.GetOrInit(ua, func() *uaState {
		s := &uaState{ua: ua, queue: ua.StartANewNamedParallelQueue("lock task queue"), envs: make(map[*envState]struct{})}
		s.local = weblocks.NewServiceOn(parallelQueue{s.queue})
		s.svc = s.local
		ua.AddBackForwardCacheObserver(s.updateCached)
		return s
	})
}

// parallelQueue is an html parallel queue as the service's lock task
// queue (weblocks.Task is an html.Task as it is).
type parallelQueue struct{ q *html.ParallelQueue }

func (p parallelQueue) EnqueueTask(t weblocks.Task) bool { return p.q.EnqueueValue(t) }

// ServiceOf returns the lock service of the user agent ua (nil for a nil
// ua): the one its environments' navigator.locks use unless UseService
// gave them another. Contract clients of a host of one's own may share
// it; its browser-side functions (LockManagers, SetObserver,
// ForceReleaseStorageKey) see its lock managers.
func ServiceOf(ua *html.UserAgent) *weblocks.Service {
	if ua == nil {
		return nil
	}
	return stateOf(ua).local
}

// ErrServiceInUse is UseService's error once an environment of the user
// agent registered with its lock service.
var ErrServiceInUse = errors.New("htmlhost: the user agent's environments already use a lock service")

// UseService makes the environments of ua use the lock service svc (an
// implementation of the contract, such as a client of a lock service in
// another process) instead of ua's own. It must be called before any of
// them requests or queries.
func UseService(ua *html.UserAgent, svc weblocks.LockService) error {
	if ua == nil || svc == nil {
		return errors.New("htmlhost: UseService needs a user agent and a lock service")
	}
	s := stateOf(ua)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.envs) > 0 || s.used {
		return ErrServiceInUse
	}
	s.svc = svc
	return nil
}

// LockTaskQueue returns the user agent's "lock task queue": the result of
// starting a new parallel queue, the first time it is needed.
func LockTaskQueue(ua *html.UserAgent) *html.ParallelQueue {
	return stateOf(ua).queue
}

// updateCached marks each registered environment's clients cached or not,
// after a back/forward cache change of the user agent: an environment is
// cached when a document keeps it from running (html's CachedDocuments: a
// window's or dedicated worker's cached document; a shared worker's owners
// when all of them are cached).
func (s *uaState) updateCached() {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	s.mu.Lock()
	envs := make([]*envState, 0, len(s.envs))
	for es := range s.envs {
		envs = append(envs, es)
	}
	s.mu.Unlock()
	for _, es := range envs {
		cached := len(es.env.CachedDocuments()) > 0
		if cached == es.cached.Load() {
			continue
		}
		es.cached.Store(cached)
		es.mu.Lock()
		clients := es.clients
		es.mu.Unlock()
		for _, bc := range clients {
			_ = s.svc.SetCached(bc.c, cached)
		}
	}
}

// envState is an environment's part of the html host: its clients (one
// per storage bucket it used) and what delivering to it needs.
type envState struct {
	ua   *uaState
	env  *html.EnvironmentSettingsObject
	loop *html.EventLoop
	// doc is the environment's suspending document (html's
	// SuspendingDocument): the tasks delivered to it belong to that
	// document, so they wait while it is in the back/forward cache and
	// are dropped once it is destroyed.
	doc     *html.Document
	deliver func(weblocks.Task) // es.deliverTask, bound once
	evict   func()              // es.evictCached, bound once
	gone    atomic.Bool
	cached  atomic.Bool
	def     atomic.Pointer[bucketClient] // the default bucket's client

	mu        sync.Mutex // guards the rest
	hooked    bool
	docHook   html.CleanupStepsID
	agentHook html.TerminationStepsID
	clients   []*bucketClient // registration order
}

// bucketClient is an environment's client of one bucket.
type bucketClient struct {
	bucket weblocks.Bucket
	c      weblocks.Client
}

// envOf returns env's state, creating it.
func envOf(env *html.EnvironmentSettingsObject) *envState {
	if es := envSlot.Get(env); es != nil {
		return es
	}
	s := stateOf(env.UserAgent())
	return envSlot.GetOrInit(env, func() *envState {
		es := &envState{ua: s, env: env, loop: env.ResponsibleEventLoop(), doc: env.SuspendingDocument()}
		es.deliver, es.evict = es.deliverTask, es.evictCached
		return es
	})
}

// deliverTask is the environment's Deliver: the task is queued on its
// responsible event loop, on the web locks task source, for its suspending
// document; it is dropped when the environment is gone or its event loop
// no longer runs.
func (es *envState) deliverTask(t weblocks.Task) {
	if es.gone.Load() || !es.loop.QueueDocumentTaskValue(TaskSource, es.doc, t) {
		t.DropTask()
	}
}

// evictCached is the environment's Evict: its cached documents are evicted
// (on a goroutine of their own: an eviction unloads documents, whose
// cleanup steps terminate clients, which enqueues steps on the lock task
// queue this is called from).
func (es *envState) evictCached() {
	docs := es.env.CachedDocuments()
	if len(docs) == 0 {
		return
	}
	go func() {
		for _, d := range docs {
			d.EvictFromBackForwardCache(EvictionReasonContention)
		}
	}()
}

var errOpaque = errors.New("htmlhost: no storage key (opaque origin)")

// client returns the environment's client of bucket b (its default bucket
// when b is nil), registering it. It fails with errOpaque when the
// environment has no storage key, and with weblocks.ErrClientTerminated
// once it is gone.
func (es *envState) client(b *storage.Bucket) (weblocks.Client, error) {
	if b == nil {
		if bc := es.def.Load(); bc != nil {
			return bc.c, nil
		}
		// "Obtain a lock manager": the lock manager of the default
		// bucket's "web-locks" bottle.
		bottleMap, err := storage.ObtainALocalStorageBottleMap(es.env, StorageEndpoint)
		if err != nil {
			return nil, errOpaque
		}
		b = bottleMap.Bottle().Bucket()
		c, err := es.register(weblocks.Bucket{Key: b.Shelf().Key(), Name: b.Name()})
		if err == nil {
			es.def.CompareAndSwap(nil, &bucketClient{c: c})
		}
		return c, err
	}
	return es.register(weblocks.Bucket{Key: b.Shelf().Key(), Name: b.Name()})
}

// register returns the environment's client of bucket, registering it
// with the service (and, the first time, hooking the environment's
// termination).
func (es *envState) register(bucket weblocks.Bucket) (weblocks.Client, error) {
	if bucket.Name == "" {
		bucket.Name = storage.DefaultBucket
	}
	es.mu.Lock()
	defer es.mu.Unlock()
	if es.gone.Load() {
		return nil, weblocks.ErrClientTerminated
	}
	for _, bc := range es.clients {
		if bc.bucket == bucket {
			return bc.c, nil
		}
	}
	if !es.hooked && !es.hook() {
		return nil, weblocks.ErrClientTerminated
	}
	svc := es.ua.svc
	c, err := svc.Register(weblocks.ClientConfig{ID: es.env.ID(), Bucket: bucket, Deliver: es.deliver, Evict: es.evict})
	if err != nil {
		return nil, err
	}
	if es.cached.Load() {
		_ = svc.SetCached(c, true)
	}
	es.clients = append(es.clients, &bucketClient{bucket: bucket, c: c})
	return c, nil
}

// hook makes sure the environment's clients are terminated when its
// document unloads or its agent terminates (es.mu held).
func (es *envState) hook() bool {
	agent := es.env.Agent()
	es.agentHook = agent.AddTerminationSteps(func() { es.end(false) })
	if es.agentHook == 0 { // the agent already terminated
		es.gone.Store(true)
		return false
	}
	if doc := es.env.AssociatedDocument(); doc != nil {
		es.docHook = doc.AddUnloadingDocumentCleanupSteps(func() { es.end(true) })
		if es.docHook == 0 { // the document was unloaded meanwhile
			agent.RemoveTerminationSteps(es.agentHook)
			es.gone.Store(true)
			return false
		}
	}
	es.hooked = true
	s := es.ua
	s.mu.Lock()
	s.used = true
	s.envs[es] = struct{}{}
	es.cached.Store(len(es.env.CachedDocuments()) > 0)
	s.mu.Unlock()
	return true
}

// end runs when the environment's document unloads (unload is true) or its
// agent terminates: its clients are terminated ("terminate remaining locks
// and requests" for the environment), in the order they were registered.
func (es *envState) end(unload bool) {
	es.mu.Lock() // wait for a concurrent register to finish
	if es.gone.Swap(true) {
		es.mu.Unlock()
		return
	}
	if unload {
		es.env.Agent().RemoveTerminationSteps(es.agentHook)
	} else if doc := es.env.AssociatedDocument(); doc != nil && es.docHook != 0 {
		doc.RemoveUnloadingDocumentCleanupSteps(es.docHook)
	}
	clients := es.clients
	es.mu.Unlock()
	envSlot.Delete(es.env)
	s := es.ua
	s.mu.Lock()
	delete(s.envs, es)
	s.mu.Unlock()
	for _, bc := range clients {
		_ = s.svc.TerminateClient(bc.c)
	}
}

// facts returns what the page side needs to know about the environment,
// and its client of bucket b (nil when the facts already fail).
func (es *envState) facts(b *storage.Bucket) (weblocks.Facts, weblocks.Client) {
	f := weblocks.Facts{SecureContext: es.env.IsSecureContext()}
	if doc := es.env.AssociatedDocument(); doc != nil && !doc.IsFullyActive() {
		f.NotFullyActive = true
	}
	if es.gone.Load() || es.loop.IsTerminated() {
		f.Terminated = true
	}
	if !f.SecureContext || f.NotFullyActive || f.Terminated {
		return f, nil
	}
	c, err := es.client(b)
	switch {
	case err == errOpaque:
		f.OpaqueOrigin = true
	case err != nil:
		f.Terminated = true
	}
	return f, c
}
