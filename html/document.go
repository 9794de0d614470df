package html

import (
	"errors"
	"net/url"
	"strings"
	"sync"

	"github.com/google/uuid"

	"github.com/gowebengine/weblocks/origin"
)

// CleanupStepsID identifies registered unloading document cleanup steps.
type CleanupStepsID uint64

// Document is an HTML Document, modelled as far as activity, unloading and
// its environment go.
type Document struct {
	ua        *UserAgent
	url       *url.URL
	origin    origin.Origin
	env       *EnvironmentSettingsObject
	navigable *Navigable
	sandboxed bool

	// Guarded by ua.navMu:
	children  []*Navigable
	unloaded  bool   // the unloading document cleanup steps ran (or are running)
	destroyed bool   // gone for good: its tasks are dropped
	evicted   string // why it was evicted from the back/forward cache (navigation.go)

	cmu        sync.Mutex
	cleanupRan bool // the cleanup steps were taken to run
	cleanup    []idSteps
	nextID     uint64
	deferLoops []*EventLoop // loops holding deferred tasks of this document
}

// URL returns the document's URL (a copy).
func (d *Document) URL() *url.URL {
	if d == nil {
		return nil
	}
	return cloneURL(d.url)
}

// Origin returns the document's origin.
func (d *Document) Origin() origin.Origin {
	if d == nil {
		return origin.Origin{}
	}
	return d.origin
}

// EnvironmentSettingsObject is the document's relevant settings object.
func (d *Document) EnvironmentSettingsObject() *EnvironmentSettingsObject {
	if d == nil {
		return nil
	}
	return d.env
}

// Navigable returns the document's node navigable.
func (d *Document) Navigable() *Navigable {
	if d == nil {
		return nil
	}
	return d.navigable
}

// IsSandboxed reports whether the document has the sandboxed origin flag.
func (d *Document) IsSandboxed() bool {
	if d == nil {
		return false
	}
	return d.sandboxed
}

// IsFullyActive is HTML's "fully active": d is the active document of a
// navigable that is not destroyed, and that navigable is a top-level
// traversable or its container document is fully active.
func (d *Document) IsFullyActive() bool {
	if d == nil {
		return false
	}
	d.ua.navMu.RLock()
	defer d.ua.navMu.RUnlock()
	return d.fullyActiveLocked()
}

func (d *Document) fullyActiveLocked() bool {
	for {
		n := d.navigable
		// A Document d is fully active when d is the active document of a
		// navigable navigable, and
		if d.destroyed || n == nil || n.destroyed || n.active != d {
			return false
		}
		// either navigable is a top-level traversable
		if n.container == nil {
			return true
		}
		// or navigable's container document is fully active.
		d = n.container
	}
}

// IsActive reports whether d is its navigable's active document.
func (d *Document) IsActive() bool {
	if d == nil {
		return false
	}
	d.ua.navMu.RLock()
	defer d.ua.navMu.RUnlock()
	return !d.destroyed && d.navigable != nil && !d.navigable.destroyed && d.navigable.active == d
}

// IsUnloaded reports whether the document was unloaded.
func (d *Document) IsUnloaded() bool {
	if d == nil {
		return false
	}
	d.ua.navMu.RLock()
	defer d.ua.navMu.RUnlock()
	return d.unloaded
}

type docRunnability uint8

const (
	docRunTasks docRunnability = iota
	docDeferTasks
	docDropTasks
)

func (d *Document) runnability() docRunnability {
	d.ua.navMu.RLock()
	defer d.ua.navMu.RUnlock()
	switch {
	case d.destroyed:
		return docDropTasks
	case d.fullyActiveLocked():
		return docRunTasks
	}
	return docDeferTasks
}

func (d *Document) noteDeferred(l *EventLoop) {
	d.cmu.Lock()
	defer d.cmu.Unlock()
	for _, x := range d.deferLoops {
		if x == l {
			return
		}
	}
	d.deferLoops = append(d.deferLoops, l)
}

// releaseDeferred hands deferred tasks back to their loops (drop=false) or
// discards them (drop=true).
func (d *Document) releaseDeferred(drop bool) {
	d.cmu.Lock()
	loops := d.deferLoops
	d.deferLoops = nil
	d.cmu.Unlock()
	for _, l := range loops {
		l.requeueDeferred(d, drop)
	}
}

// AddUnloadingDocumentCleanupSteps adds steps to the document's "unloading
// document cleanup steps". They run once, when the document is unloaded or
// its navigable destroyed. Returns 0 (and never runs them) if the document
// was already unloaded.
func (d *Document) AddUnloadingDocumentCleanupSteps(steps func()) CleanupStepsID {
	if d == nil {
		return 0
	}
	d.cmu.Lock()
	defer d.cmu.Unlock()
	// Steps added after the document started unloading but before its
	// cleanup steps were taken still run; after that, 0 tells the caller
	// that the document is gone.
	if d.cleanupRan || steps == nil {
		return 0
	}
	d.nextID++
	d.cleanup = append(d.cleanup, idSteps{d.nextID, steps})
	return CleanupStepsID(d.nextID)
}

// RemoveUnloadingDocumentCleanupSteps unregisters steps.
func (d *Document) RemoveUnloadingDocumentCleanupSteps(id CleanupStepsID) {
	if d == nil {
		return
	}
	d.cmu.Lock()
	defer d.cmu.Unlock()
	d.cleanup = removeID(d.cleanup, uint64(id))
}

// Unload unloads the document and its descendants and discards them: child
// documents first, then this one; each runs its unloading document cleanup
// steps once (in registration order, on the calling goroutine) and is no
// longer fully active afterwards. Later calls do nothing.
func (d *Document) Unload() {
	if d == nil {
		return
	}
	d.ua.navMu.Lock()
	docs := d.unloadADocumentAndItsDescendantsLocked(nil, true)
	d.ua.navMu.Unlock()
	d.ua.runUnload(docs)
}

// unloadADocumentAndItsDescendantsLocked is the state part of HTML's
// "unload a document and its descendants" (and, when destroy, of "destroy a
// document and its descendants"): it marks d and its descendants unloaded
// (and destroyed) and returns them descendants-first; the caller runs their
// cleanup steps once the navigation lock is released. Child navigables of
// destroyed documents are destroyed.
func (d *Document) unloadADocumentAndItsDescendantsLocked(out []*Document, destroy bool) []*Document {
	// Unload a document and its descendants:
	// 1-3. For each child navigable of document's descendant navigables,
	//      unload its active document (and its descendants) first.
	for _, c := range d.children {
		if destroy {
			c.destroyed = true
		}
		for _, h := range c.history {
			out = h.unloadADocumentAndItsDescendantsLocked(out, true)
		}
		c.history = nil
		if c.active != nil {
			out = c.active.unloadADocumentAndItsDescendantsLocked(out, destroy)
		}
	}
	if destroy {
		d.children = nil
		d.destroyed = true
	}
	// 4. Unload document.
	if !d.unloaded {
		d.unloaded = true
		out = append(out, d)
	}
	return out
}

// runUnload runs the cleanup part of "unload" for documents collected
// descendants-first, outside the navigation lock.
func (ua *UserAgent) runUnload(docs []*Document) {
	for _, d := range docs {
		d.runUnloadingDocumentCleanupSteps()
	}
	for _, d := range docs {
		d.ua.navMu.RLock()
		destroyed := d.destroyed
		d.ua.navMu.RUnlock()
		if destroyed {
			d.releaseDeferred(true)
			d.afterDestroy()
		}
	}
	ua.bfcacheChanged()
}

// runUnloadingDocumentCleanupSteps is the last part of HTML's "unload":
// "Run any unloading document cleanup steps for oldDocument that are
// defined by this specification and other applicable specifications."
func (d *Document) runUnloadingDocumentCleanupSteps() {
	for {
		d.cmu.Lock()
		steps := d.cleanup
		d.cleanup = nil
		if len(steps) == 0 {
			d.cleanupRan = true
			d.cmu.Unlock()
			return
		}
		d.cmu.Unlock()
		// Steps may add steps (they run too, in order).
		for _, s := range steps {
			s.steps()
		}
	}
}

// afterDestroy terminates the document's dedicated workers and, when the
// document was its window agent's last one, the agent.
func (d *Document) afterDestroy() {
	env := d.env
	if env == nil {
		return
	}
	env.terminateOwnedWorkers()
	a := env.agent
	a.mu.Lock()
	a.docs--
	for i, e := range a.envs {
		if e == env {
			a.envs = append(a.envs[:i], a.envs[i+1:]...)
			break
		}
	}
	last := a.docs == 0 && a.kind == SimilarOriginWindowAgent
	if last {
		a.retiring = true
	}
	a.mu.Unlock()
	if last {
		a.Terminate()
	}
}

// Children returns the document's child navigables (iframes).
func (d *Document) Children() []*Navigable {
	if d == nil {
		return nil
	}
	d.ua.navMu.RLock()
	defer d.ua.navMu.RUnlock()
	return append([]*Navigable(nil), d.children...)
}

// Navigable is an HTML navigable (with its browsing context folded in): a
// top-level traversable or a child navigable with a container document.
type Navigable struct {
	ua        *UserAgent
	group     *BrowsingContextGroup
	parent    *Navigable
	container *Document
	sandboxed bool // iframe sandbox without allow-same-origin

	// Guarded by ua.navMu:
	active    *Document
	destroyed bool
	history   []*Document // documents kept in the back/forward cache
}

// Parent returns the parent navigable (nil for a top-level traversable).
func (n *Navigable) Parent() *Navigable {
	if n == nil {
		return nil
	}
	return n.parent
}

// ParentDocument is the container document (nil for top-level).
func (n *Navigable) ParentDocument() *Document {
	if n == nil {
		return nil
	}
	return n.container
}

// IsTopLevel reports whether n is a top-level traversable.
func (n *Navigable) IsTopLevel() bool {
	if n == nil {
		return false
	}
	return n.parent == nil
}

// Group returns the browsing context group.
func (n *Navigable) Group() *BrowsingContextGroup {
	if n == nil {
		return nil
	}
	return n.group
}

// Top returns the top-level traversable.
func (n *Navigable) Top() *Navigable {
	if n == nil {
		return nil
	}
	for n.parent != nil {
		n = n.parent
	}
	return n
}

// ActiveDocument returns the navigable's active document.
func (n *Navigable) ActiveDocument() *Document {
	if n == nil {
		return nil
	}
	n.ua.navMu.RLock()
	defer n.ua.navMu.RUnlock()
	return n.active
}

// IsDestroyed reports whether the navigable was destroyed (iframe removed,
// window closed).
func (n *Navigable) IsDestroyed() bool {
	if n == nil {
		return false
	}
	n.ua.navMu.RLock()
	defer n.ua.navMu.RUnlock()
	return n.destroyed
}

// NavigateOptions tune Navigate.
type NavigateOptions struct {
	// KeepInBFCache keeps the old document in the back/forward cache: it
	// stops being fully active but is not unloaded, and Restore can make it
	// active again.
	KeepInBFCache bool
	// ReservedEnvironment is the navigation params' reserved environment
	// (n.ReserveEnvironment): the new document's environment settings
	// object is this environment, with its id and the state in its data
	// slots (a service worker client's active service worker), when it
	// is n's, not taken yet, and of the origin of the URL navigated to;
	// else a new one.
	ReservedEnvironment *EnvironmentSettingsObject
}

// ErrDestroyed is returned when navigating a destroyed navigable.
var ErrDestroyed = errors.New("html: navigable is destroyed")

// NewTopLevelTraversable creates a top-level traversable in a new browsing
// context group, without a document (Navigate gives it one; the initial
// about:blank document is not modelled).
func (ua *UserAgent) NewTopLevelTraversable() *Navigable {
	return &Navigable{ua: ua, group: ua.NewBrowsingContextGroup()}
}

// OpenAuxiliary is the window.open case: a new top-level traversable in
// the same browsing context group as n (so same-site documents share their
// similar-origin window agent and event loop), navigated to u. (noopener
// would use ua.OpenWindow instead: a new group.)
func (n *Navigable) OpenAuxiliary(u *url.URL) (*Document, error) {
	if n == nil || !n.ua.created() {
		return nil, ErrNoUserAgent
	}
	aux := &Navigable{ua: n.ua, group: n.group}
	return aux.Navigate(u, NavigateOptions{})
}

// OpenWindow creates a top-level traversable and navigates it to u.
func (ua *UserAgent) OpenWindow(u *url.URL) (*Document, error) {
	if !ua.created() {
		return nil, ErrNoUserAgent
	}
	return ua.NewTopLevelTraversable().Navigate(u, NavigateOptions{})
}

// OpenWindowURL is OpenWindow with a URL string.
func (ua *UserAgent) OpenWindowURL(rawURL string) (*Document, error) {
	if !ua.created() {
		return nil, ErrNoUserAgent
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	return ua.OpenWindow(u)
}

// ChildNavigableOptions describe an iframe.
type ChildNavigableOptions struct {
	// Sandboxed: the iframe has a sandbox attribute without
	// allow-same-origin, so its documents get opaque origins.
	Sandboxed bool
}

// CreateChildNavigable inserts an iframe-like child navigable into d and
// navigates it to u (nil means about:blank, which inherits d's origin).
func (d *Document) CreateChildNavigable(u *url.URL, opts ChildNavigableOptions) (*Document, error) {
	if d == nil || !d.ua.created() {
		return nil, ErrNoUserAgent
	}
	d.ua.navMu.Lock()
	if d.destroyed || d.navigable == nil {
		d.ua.navMu.Unlock()
		return nil, ErrDestroyed
	}
	n := &Navigable{ua: d.ua, group: d.navigable.group, parent: d.navigable, container: d,
		sandboxed: opts.Sandboxed || d.sandboxed}
	d.children = append(d.children, n)
	d.ua.navMu.Unlock()
	if u == nil {
		u = &url.URL{Scheme: "about", Opaque: "blank"}
	}
	return n.Navigate(u, NavigateOptions{})
}

// CreateChildNavigableURL is CreateChildNavigable with a URL string.
func (d *Document) CreateChildNavigableURL(rawURL string, opts ChildNavigableOptions) (*Document, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	return d.CreateChildNavigable(u, opts)
}

func isAboutBlankOrSrcdoc(u *url.URL) bool {
	if !strings.EqualFold(u.Scheme, "about") {
		return false
	}
	r := u.Opaque
	if r == "" {
		r = u.Path
	}
	return r == "blank" || r == "srcdoc"
}

// Navigate navigates n to u: a new Document with a new environment settings
// object (in the similar-origin window agent of its origin's site in n's
// group) becomes n's active document, then the old document is unloaded
// (its descendants first) and discarded, or kept in the back/forward cache
// with KeepInBFCache.
func (n *Navigable) Navigate(u *url.URL, opts NavigateOptions) (*Document, error) {
	if n == nil || !n.ua.created() {
		return nil, ErrNoUserAgent
	}
	if u == nil {
		return nil, errors.New("html: Navigate needs a URL")
	}
	u = cloneURL(u)
	ua := n.ua
	ua.navMu.RLock()
	destroyed := n.destroyed || (n.container != nil && n.container.destroyed)
	ua.navMu.RUnlock()
	if destroyed {
		return nil, ErrDestroyed
	}
	// The document's origin: sandboxed → a new opaque origin; about:blank
	// and about:srcdoc inherit the container's origin (a top-level one gets
	// an opaque origin); otherwise the URL's origin (data: is opaque).
	var o origin.Origin
	switch {
	case n.sandboxed:
		o = origin.NewOpaque()
	case isAboutBlankOrSrcdoc(u) && n.container != nil:
		o = n.container.origin
	default:
		o = origin.FromURL(u)
	}
	// Obtain the similar-origin window agent and count the document in it
	// (retrying if that agent is retiring concurrently).
	var agent *Agent
	for {
		agent = n.group.ObtainASimilarOriginWindowAgent(o)
		agent.mu.Lock()
		if !agent.retiring {
			agent.docs++
			agent.mu.Unlock()
			break
		}
		agent.mu.Unlock()
		ua.mu.Lock()
		closed := ua.closed
		ua.mu.Unlock()
		if closed {
			return nil, ErrTerminated
		}
	}
	doc := &Document{ua: ua, url: u, origin: o, navigable: n, sandboxed: n.sandboxed}
	// Set up a window environment settings object: 4. If
	// reservedEnvironment is non-null, the settings object takes over its
	// id (and active service worker); 5. otherwise its id is a new unique
	// opaque string. 6. Its creation URL is creationURL (the response's
	// URL).
	env := n.takeReserved(opts.ReservedEnvironment, u)
	if env == nil {
		env = &EnvironmentSettingsObject{id: uuid.NewString()}
	}
	env.kind, env.creationURL, env.origin, env.agent, env.ua, env.document = WindowEnvironment, u, o, agent, ua, doc
	// Top-level creation URL / origin, and "is a secure context": the URL
	// must be potentially trustworthy and so must every ancestor's.
	var penv *EnvironmentSettingsObject
	env.crossSiteAncestor = false
	if n.container == nil {
		env.topLevelCreationURL = u
		env.topLevelOrigin = o
	} else {
		penv = n.container.env
		env.topLevelCreationURL = penv.topLevelCreationURL
		env.topLevelOrigin = penv.topLevelOrigin
		env.crossSiteAncestor = penv.crossSiteAncestor || !origin.SameSiteOrigins(penv.origin, o)
	}
	env.secure = isASecureContext(env, penv)
	env.init()
	doc.env = env
	agent.mu.Lock()
	agent.envs = append(agent.envs, env)
	agent.mu.Unlock()

	ua.navMu.Lock()
	if n.destroyed {
		ua.navMu.Unlock()
		doc.destroyed = true
		doc.afterDestroy()
		return nil, ErrDestroyed
	}
	old := n.active
	n.active = doc
	var docs []*Document
	if old != nil {
		if opts.KeepInBFCache {
			n.history = append(n.history, old)
			docs = n.evictLocked(docs)
		} else {
			docs = old.unloadADocumentAndItsDescendantsLocked(nil, true)
		}
	}
	ua.navMu.Unlock()
	ua.runUnload(docs)
	return doc, nil
}

// BFCacheSize is how many documents a navigable keeps in the back/forward
// cache; older ones are evicted (unloaded and discarded).
const BFCacheSize = 6

func (n *Navigable) evictLocked(docs []*Document) []*Document {
	for len(n.history) > BFCacheSize {
		n.history[0].evicted = "cache-limit"
		docs = n.history[0].unloadADocumentAndItsDescendantsLocked(docs, true)
		copy(n.history, n.history[1:])
		n.history[len(n.history)-1] = nil
		n.history = n.history[:len(n.history)-1]
	}
	return docs
}

// BFCachedDocuments returns the documents n keeps in the back/forward cache.
func (n *Navigable) BFCachedDocuments() []*Document {
	if n == nil {
		return nil
	}
	n.ua.navMu.RLock()
	defer n.ua.navMu.RUnlock()
	return append([]*Document(nil), n.history...)
}

// Restore makes a back/forward-cached document of n active again (a
// history traversal). The current active document is kept in the cache
// when keepCurrent, otherwise unloaded. Tasks the restored document (and
// its descendants) queued while not fully active run again.
func (n *Navigable) Restore(doc *Document, keepCurrent bool) error {
	if n == nil || !n.ua.created() {
		return ErrNoUserAgent
	}
	ua := n.ua
	ua.navMu.Lock()
	idx := -1
	for i, h := range n.history {
		if h == doc {
			idx = i
		}
	}
	if n.destroyed || idx < 0 {
		ua.navMu.Unlock()
		return errors.New("html: document is not in this navigable's back/forward cache")
	}
	n.history = append(n.history[:idx], n.history[idx+1:]...)
	old := n.active
	n.active = doc
	var docs []*Document
	if old != nil {
		if keepCurrent {
			n.history = append(n.history, old)
			docs = n.evictLocked(docs)
		} else {
			docs = old.unloadADocumentAndItsDescendantsLocked(nil, true)
		}
	}
	var revived []*Document
	doc.collectTreeLocked(&revived)
	ua.navMu.Unlock()
	ua.runUnload(docs)
	for _, d := range revived {
		d.releaseDeferred(false)
	}
	return nil
}

func (d *Document) collectTreeLocked(out *[]*Document) {
	*out = append(*out, d)
	for _, c := range d.children {
		if c.active != nil {
			c.active.collectTreeLocked(out)
		}
	}
}

// Destroy destroys the navigable (removing an iframe, closing a window):
// its active and cached documents and their descendants are unloaded and
// discarded and are no longer fully active.
func (n *Navigable) Destroy() {
	if n == nil || n.ua == nil {
		return // not made by a user agent: nothing to destroy
	}
	ua := n.ua
	ua.navMu.Lock()
	if n.destroyed {
		ua.navMu.Unlock()
		return
	}
	// Destroy a child navigable:
	// 1-2. Set navigable's is closing to true; let contentDocument be its
	//      active document.
	n.destroyed = true
	var docs []*Document
	// 3-6. Destroy a document and its descendants (unloading them first).
	for _, h := range n.history {
		docs = h.unloadADocumentAndItsDescendantsLocked(docs, true)
	}
	n.history = nil
	if n.active != nil {
		docs = n.active.unloadADocumentAndItsDescendantsLocked(docs, true)
	}
	// 7. Remove navigable from its container's child navigables.
	if c := n.container; c != nil {
		for i, x := range c.children {
			if x == n {
				c.children = append(c.children[:i], c.children[i+1:]...)
				break
			}
		}
	}
	ua.navMu.Unlock()
	ua.runUnload(docs)
}
