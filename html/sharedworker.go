package html

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/storage"
)

// ErrSharedWorkerMismatch is returned when a SharedWorker constructor
// matches an existing shared worker whose secure-context state differs from
// the caller's (the constructor then fires error at the SharedWorker).
var ErrSharedWorkerMismatch = errors.New("html: shared worker exists with a different secure-context state")

// SharedWorker is a shared worker: the agent and environment settings
// object of one SharedWorkerGlobalScope, identified by its constructor URL,
// name and constructor storage key, with its owner set (the Documents of
// the windows that connected to it). It terminates when its owner set
// becomes empty (the last owner document was unloaded).
type SharedWorker struct {
	env            *EnvironmentSettingsObject
	constructorURL string
	name           string
	storageKey     storage.StorageKey
	set            *sharedWorkers

	mu      sync.Mutex
	owners  map[*Document]CleanupStepsID
	closing bool
	// external are owners that are not documents of this user agent:
	// the documents of another process that connected (AddExternalOwner).
	external map[any]struct{}
}

// Env is the shared worker's environment settings object.
func (w *SharedWorker) Env() *EnvironmentSettingsObject {
	if w == nil {
		return nil
	}
	return w.env
}

// Name is the worker's name (options' name).
func (w *SharedWorker) Name() string {
	if w == nil {
		return ""
	}
	return w.name
}

// ConstructorURL is the URL the worker was constructed with (serialized).
func (w *SharedWorker) ConstructorURL() string {
	if w == nil {
		return ""
	}
	return w.constructorURL
}

// StorageKey is the worker's constructor storage key.
func (w *SharedWorker) StorageKey() storage.StorageKey {
	if w == nil {
		return storage.StorageKey{}
	}
	return w.storageKey
}

// IsClosing reports the worker's closing flag (set when it is terminated or
// closed itself).
func (w *SharedWorker) IsClosing() bool {
	if w == nil {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.closing
}

// Owners is the number of owners in the owner set (documents, and the
// external owners of AddExternalOwner).
func (w *SharedWorker) Owners() int {
	if w == nil {
		return 0
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.owners) + len(w.external)
}

// AddExternalOwner adds key to the owner set: it stands for documents
// outside this user agent (the windows of another renderer process, in
// package browser) that connected to the worker. It reports false when
// the worker is closing.
func (w *SharedWorker) AddExternalOwner(key any) bool {
	if w == nil {
		return false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closing {
		return false
	}
	if w.external == nil {
		w.external = map[any]struct{}{}
	}
	w.external[key] = struct{}{}
	return true
}

// RemoveExternalOwner removes an owner AddExternalOwner added (its
// documents are gone); an empty owner set terminates the worker, as
// RemoveOwner does.
func (w *SharedWorker) RemoveExternalOwner(key any) {
	if w == nil {
		return
	}
	w.mu.Lock()
	_, ok := w.external[key]
	delete(w.external, key)
	empty := ok && len(w.owners) == 0 && len(w.external) == 0
	w.mu.Unlock()
	if empty {
		w.Terminate()
	}
}

// sharedWorkers is the user agent's list of all SharedWorkerGlobalScope
// objects (their shared workers), kept in a data slot of the user agent.
type sharedWorkers struct {
	mu      sync.Mutex
	workers []*SharedWorker
}

var sharedWorkersSlot = NewSlot[*sharedWorkers]()

func (ua *UserAgent) sharedWorkers() *sharedWorkers {
	return sharedWorkersSlot.GetOrInit(ua, func() *sharedWorkers { return &sharedWorkers{} })
}

// SharedWorkers returns the user agent's shared workers that are not
// closing.
func (ua *UserAgent) SharedWorkers() []*SharedWorker {
	if ua == nil {
		return nil
	}
	set := ua.sharedWorkers()
	set.mu.Lock()
	defer set.mu.Unlock()
	var out []*SharedWorker
	for _, w := range set.workers {
		if !w.IsClosing() {
			out = append(out, w)
		}
	}
	return out
}

// ObtainSharedWorker is the part of https://html.spec.whatwg.org/#dom-sharedworker
// (step 11, "run these steps in parallel") that finds or creates the
// shared worker for outside settings, constructor URL and name: an
// existing SharedWorkerGlobalScope with the same constructor storage key,
// constructor URL and name (not closing) is reused (created is false);
// otherwise a new shared worker agent and environment are made ("obtain a
// dedicated/shared worker agent" with isShared true, "set up a worker
// environment settings object"), and the caller runs the worker. Either
// way the owner document (outside's associated Document) is appended to
// the worker's owner set. A script URL that is not same origin with
// outside (and not data:) is ErrWorkerOrigin.
func ObtainSharedWorker(outside *EnvironmentSettingsObject, u *url.URL, name string) (w *SharedWorker, created bool, err error) {
	if outside == nil || u == nil {
		return nil, false, errors.New("html: ObtainSharedWorker needs an owner and a URL")
	}
	doc := outside.document
	if doc == nil {
		return nil, false, errors.New("html: shared workers are created by windows")
	}
	if outside.agent.IsTerminated() {
		return nil, false, ErrTerminated
	}
	isData := strings.EqualFold(u.Scheme, "data")
	if !isData && origin.FromURL(u) != outside.origin {
		return nil, false, ErrWorkerOrigin
	}
	ua := outside.ua
	// 11.1. Let callerIsSecureContext be true if outside settings is a
	//       secure context; otherwise, false.
	callerIsSecure := outside.secure
	// 11.2. Let outside storage key be the result of running obtain a
	//       storage key for non-storage purposes given outside settings.
	key := outside.ObtainAStorageKeyForNonStoragePurposes()
	urlString := u.String()
	if doc.IsUnloaded() {
		return nil, false, ErrTerminated
	}
	set := ua.sharedWorkers()
	set.mu.Lock()
	// 11.4. Let worker global scope be null.
	// 11.5. For each scope in the list of all SharedWorkerGlobalScope
	//       objects: if scope's constructor storage key equals outside
	//       storage key, scope's constructor URL equals urlRecord and
	//       scope's name equals options["name"], set worker global scope
	//       to scope and break. (A closing scope is on its way out.)
	for _, sw := range set.workers {
		if sw.storageKey == key && sw.constructorURL == urlString && sw.name == name && !sw.IsClosing() {
			w = sw
			break
		}
	}
	// 11.8. If worker global scope is not null, then:
	if w != nil {
		// 11.8.1-3. If the worker's settings object's secure-context
		//           state is not callerIsSecureContext, fire error at
		//           worker and abort.
		set.mu.Unlock()
		if w.env.secure != callerIsSecure {
			return nil, false, ErrSharedWorkerMismatch
		}
		// 11.8.8. Append the relevant owner to add given outside settings
		//         to worker global scope's owner set. (The caller does
		//         steps 4-7: associate worker, entangle the ports, queue
		//         the connect event.)
		w.addOwner(doc)
		return w, false, nil
	}
	// 11.9. Otherwise, in parallel, run a worker given worker, urlRecord,
	//       outside settings, outside port, and options: what the user
	//       agent part of it needs is made here.
	agent := ObtainADedicatedOrSharedWorkerAgent(outside, true)
	env := setUpAWorkerEnvironmentSettingsObject(SharedWorkerEnvironment, outside, u, agent)
	// Run a worker, step 9 (is shared): set worker global scope's
	// constructor URL to url, its constructor storage key to outside
	// storage key, and its name to options["name"].
	w = &SharedWorker{env: env, constructorURL: urlString, name: name, storageKey: key, set: set, owners: map[*Document]CleanupStepsID{}}
	env.sharedWorker = w
	set.workers = append(set.workers, w)
	set.mu.Unlock()
	// When the agent terminates (its script closed it, or the user agent
	// closed), the worker leaves the list.
	agent.AddTerminationSteps(func() { w.markClosing() })
	// Run a worker, step 7: append owner to worker global scope's owner set.
	w.addOwner(doc)
	return w, true, nil
}

// addOwner appends doc to the owner set; when doc is unloaded it is
// removed again.
func (w *SharedWorker) addOwner(doc *Document) {
	w.mu.Lock()
	if w.closing {
		w.mu.Unlock()
		return
	}
	if _, ok := w.owners[doc]; ok {
		w.mu.Unlock()
		return
	}
	w.owners[doc] = 0
	w.mu.Unlock()
	id := doc.AddUnloadingDocumentCleanupSteps(func() { w.RemoveOwner(doc) })
	if id == 0 {
		// doc was unloaded meanwhile: it is no owner.
		w.RemoveOwner(doc)
		return
	}
	w.mu.Lock()
	if _, ok := w.owners[doc]; ok {
		w.owners[doc] = id
	}
	w.mu.Unlock()
	doc.ua.bfcacheChanged()
}

// cachedOwners is the cached ancestors of the worker's owner documents
// when every owner is in the back/forward cache, else nil.
func (w *SharedWorker) cachedOwners() []*Document {
	w.mu.Lock()
	if len(w.external) > 0 {
		// Documents of another process use it: it is not cached.
		w.mu.Unlock()
		return nil
	}
	owners := make([]*Document, 0, len(w.owners))
	for d := range w.owners {
		owners = append(owners, d)
	}
	w.mu.Unlock()
	var out []*Document
	for _, d := range owners {
		c := d.InBackForwardCache()
		if c == nil {
			return nil
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}

// RemoveOwner removes doc from the owner set (as when doc is unloaded for
// good). When the owner set becomes empty the worker is no longer a
// permissible worker: it is closed and its agent terminated (running its
// termination steps, which release its Web Locks).
// https://html.spec.whatwg.org/#the-worker's-lifetime
func (w *SharedWorker) RemoveOwner(doc *Document) {
	if w == nil {
		return
	}
	w.mu.Lock()
	id, ok := w.owners[doc]
	if !ok {
		w.mu.Unlock()
		return
	}
	delete(w.owners, doc)
	empty := len(w.owners) == 0 && len(w.external) == 0
	w.mu.Unlock()
	if id != 0 {
		doc.RemoveUnloadingDocumentCleanupSteps(id)
	}
	if empty {
		w.Terminate()
	}
}

// Terminate is "terminate a worker" for the shared worker: set its closing
// flag, forget it (a later constructor makes a new one), and terminate its
// agent.
func (w *SharedWorker) Terminate() {
	if w == nil {
		return
	}
	w.markClosing()
	w.env.agent.Terminate()
}

// markClosing sets the closing flag and removes the worker from the user
// agent's list; it empties the owner set.
func (w *SharedWorker) markClosing() {
	w.mu.Lock()
	already := w.closing
	w.closing = true
	owners := w.owners
	w.owners = map[*Document]CleanupStepsID{}
	w.external = nil
	w.mu.Unlock()
	if already {
		return
	}
	for doc, id := range owners {
		if id != 0 {
			doc.RemoveUnloadingDocumentCleanupSteps(id)
		}
	}
	set := w.set
	set.mu.Lock()
	for i, x := range set.workers {
		if x == w {
			set.workers = append(set.workers[:i], set.workers[i+1:]...)
			break
		}
	}
	set.mu.Unlock()
}
