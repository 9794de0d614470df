package html

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gowebengine/weblocks/origin"
	"github.com/gowebengine/weblocks/storage"
)

func TestFullyActive(t *testing.T) {
	_, ua := manualUA()
	defer ua.Close()
	top := mustOpen(t, ua, "https://a.test/")
	child := mustChild(t, top, "https://a.test/child", ChildNavigableOptions{})
	grand := mustChild(t, child, "https://c.test/grand", ChildNavigableOptions{})
	sibling := mustChild(t, top, "https://b.test/sib", ChildNavigableOptions{})
	for _, d := range []*Document{top, child, grand, sibling} {
		if !d.IsFullyActive() || !d.IsActive() {
			t.Fatalf("%v not fully active", d.URL())
		}
	}
	if top.Navigable().IsTopLevel() == false || child.Navigable().Parent() != top.Navigable() ||
		child.Navigable().ParentDocument() != top || grand.Navigable().Top() != top.Navigable() {
		t.Fatal("tree shape")
	}
	// Navigating the child away: the old child and its descendants are no
	// longer fully active; the new child document is.
	child2, err := child.Navigable().Navigate(mustURL(t, "https://a.test/child2"), NavigateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if child.IsFullyActive() || child.IsActive() || grand.IsFullyActive() || !child2.IsFullyActive() {
		t.Fatal("after navigating the child")
	}
	if !child.IsUnloaded() || !grand.IsUnloaded() || !grand.Navigable().IsDestroyed() {
		t.Fatal("old child tree not unloaded")
	}
	// Removing an iframe: its document is no longer fully active.
	sibling.Navigable().Destroy()
	if sibling.IsFullyActive() || !sibling.Navigable().IsDestroyed() || len(top.Children()) != 1 {
		t.Fatal("after destroying the sibling navigable")
	}
	if _, err := sibling.Navigable().Navigate(mustURL(t, "https://b.test/"), NavigateOptions{}); err == nil {
		t.Fatal("navigated a destroyed navigable")
	}
	if _, err := sibling.CreateChildNavigableURL("https://b.test/", ChildNavigableOptions{}); err == nil {
		t.Fatal("iframe in a destroyed document")
	}
	// bfcache: the top document goes into the cache; it and its descendants
	// stop being fully active without being unloaded.
	top2, err := top.Navigable().Navigate(mustURL(t, "https://z.test/"), NavigateOptions{KeepInBFCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if top.IsFullyActive() || child2.IsFullyActive() || top.IsUnloaded() || child2.IsUnloaded() || !top2.IsFullyActive() {
		t.Fatal("bfcache")
	}
	// child2 is still its navigable's active document, but its parent is not fully active.
	if !child2.IsActive() {
		t.Fatal("child2 should stay the active document of its navigable")
	}
	if err := top.Navigable().Restore(top, false); err != nil {
		t.Fatal(err)
	}
	if !top.IsFullyActive() || !child2.IsFullyActive() || top2.IsFullyActive() || !top2.IsUnloaded() {
		t.Fatal("after restore")
	}
	if err := top.Navigable().Restore(top2, false); err == nil {
		t.Fatal("restored a document that is not cached")
	}
	// Closing the window.
	top.Navigable().Destroy()
	if top.IsFullyActive() || child2.IsFullyActive() || !child2.IsUnloaded() {
		t.Fatal("after closing")
	}
	top.Navigable().Destroy()
}

func TestUnloadingDocumentCleanupSteps(t *testing.T) {
	_, ua := manualUA()
	defer ua.Close()
	top := mustOpen(t, ua, "https://a.test/")
	child := mustChild(t, top, "https://b.test/", ChildNavigableOptions{})
	grand := mustChild(t, child, "https://c.test/", ChildNavigableOptions{})
	var log []string
	rec := func(s string, d *Document) func() {
		return func() {
			log = append(log, fmt.Sprintf("%s fullyActive=%v", s, d.IsFullyActive()))
		}
	}
	top.AddUnloadingDocumentCleanupSteps(rec("top1", top))
	id := top.AddUnloadingDocumentCleanupSteps(rec("removed", top))
	top.AddUnloadingDocumentCleanupSteps(rec("top2", top))
	top.RemoveUnloadingDocumentCleanupSteps(id)
	child.AddUnloadingDocumentCleanupSteps(rec("child", child))
	grand.AddUnloadingDocumentCleanupSteps(rec("grand", grand))
	// Navigation replaces the active document and unloads the old one,
	// descendants first; each cleanup runs once.
	if _, err := top.Navigable().Navigate(mustURL(t, "https://a.test/next"), NavigateOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "[grand fullyActive=false child fullyActive=false top1 fullyActive=false top2 fullyActive=false]"
	if got := fmt.Sprint(log); got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
	top.Unload()
	top.Navigable().Destroy()
	if got := fmt.Sprint(log); got != want {
		t.Fatal("cleanup steps ran twice")
	}
	if top.AddUnloadingDocumentCleanupSteps(func() { t.Error("ran") }) != 0 {
		t.Fatal("steps added to an unloaded document")
	}
	// Direct Unload of an active document.
	d := mustOpen(t, ua, "https://d.test/")
	n := 0
	d.AddUnloadingDocumentCleanupSteps(func() { n++ })
	d.Unload()
	d.Unload()
	if n != 1 || d.IsFullyActive() {
		t.Fatal("Unload")
	}
	// bfcache does not run cleanup steps; destroying the cache entry does.
	e := mustOpen(t, ua, "https://e.test/")
	m := 0
	e.AddUnloadingDocumentCleanupSteps(func() { m++ })
	e.Navigable().Navigate(mustURL(t, "https://e.test/2"), NavigateOptions{KeepInBFCache: true})
	if m != 0 || len(e.Navigable().BFCachedDocuments()) != 1 {
		t.Fatal("bfcache ran cleanup")
	}
	e.Navigable().Destroy()
	if m != 1 {
		t.Fatal("destroying a navigable must unload its cached documents")
	}
}

func TestDocumentTasksWaitWhileNotFullyActive(t *testing.T) {
	ms, ua := manualUA()
	defer ua.Close()
	top := mustOpen(t, ua, "https://a.test/")
	loop := top.EnvironmentSettingsObject().ResponsibleEventLoop()
	var log []string
	top.Navigable().Navigate(mustURL(t, "https://b.test/"), NavigateOptions{KeepInBFCache: true})
	loop.QueueDocumentTask(DOMManipulationTaskSource, top, func() { log = append(log, "doc task 1") })
	QueueAGlobalTask(DOMManipulationTaskSource, top.EnvironmentSettingsObject(), func() { log = append(log, "global task 2") })
	loop.QueueTask(DOMManipulationTaskSource, func() { log = append(log, "plain task") })
	ms.RunUntilIdle()
	if got := fmt.Sprint(log); got != "[plain task]" || loop.DeferredTasks() != 2 {
		t.Fatal(got, loop.DeferredTasks())
	}
	top.Navigable().Restore(top, false)
	ms.RunUntilIdle()
	if got := fmt.Sprint(log); got != "[plain task doc task 1 global task 2]" || loop.DeferredTasks() != 0 {
		t.Fatal(got)
	}
	// Tasks of a destroyed document are dropped.
	top.Navigable().Navigate(mustURL(t, "https://c.test/"), NavigateOptions{KeepInBFCache: true})
	loop2 := top.EnvironmentSettingsObject().ResponsibleEventLoop()
	loop2.QueueDocumentTask(DOMManipulationTaskSource, top, func() { log = append(log, "dropped") })
	ms.RunUntilIdle()
	top.Navigable().Destroy()
	ms.RunUntilIdle()
	if loop2.DeferredTasks() != 0 || len(log) != 3 {
		t.Fatal("tasks of a destroyed document", log)
	}
}

var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestEnvironmentSettingsObjects(t *testing.T) {
	_, ua := manualUA()
	defer ua.Close()
	top := mustOpen(t, ua, "https://a.test/page?x#y")
	env := top.EnvironmentSettingsObject()
	if !uuidRE.MatchString(env.ID()) {
		t.Fatalf("id %q is not a UUID", env.ID())
	}
	if env.CreationURL().String() != "https://a.test/page?x#y" || env.TopLevelCreationURL().String() != "https://a.test/page?x#y" {
		t.Fatal("creation URLs")
	}
	env.CreationURL().Path = "/mutated"
	if env.CreationURL().Path != "/page" {
		t.Fatal("CreationURL must return a copy")
	}
	if env.Origin() != origin.Parse("https://a.test") || env.TopLevelOrigin() != env.Origin() ||
		env.TopLevelSite() != origin.ObtainSite(env.Origin()) || env.Kind() != WindowEnvironment {
		t.Fatal("origins")
	}
	if env.AssociatedDocument() != top || env.UserAgent() != ua || env.StorageShed() != ua.StorageShed() ||
		env.ResponsibleEventLoop() != env.Agent().EventLoop() || env.Agent().Kind() != SimilarOriginWindowAgent ||
		env.Owner() != nil || env.ResponsibleEventLoop().Agent() != env.Agent() {
		t.Fatal("links")
	}
	if env.Global() != nil {
		t.Fatal("global before SetGlobal")
	}
	g := new(int)
	env.SetGlobal(g)
	if env.Global() != g {
		t.Fatal("SetGlobal")
	}
	child := mustChild(t, top, "https://b.test/frame", ChildNavigableOptions{})
	cenv := child.EnvironmentSettingsObject()
	if cenv.ID() == env.ID() || cenv.TopLevelOrigin() != env.Origin() || cenv.TopLevelCreationURL().String() != "https://a.test/page?x#y" {
		t.Fatal("child environment")
	}
	// ids are unique
	seen := map[string]bool{}
	for i := 0; i < 100; i++ {
		d := mustChild(t, top, "https://a.test/", ChildNavigableOptions{})
		if seen[d.EnvironmentSettingsObject().ID()] {
			t.Fatal("duplicate id")
		}
		seen[d.EnvironmentSettingsObject().ID()] = true
	}
}

func TestSecureContexts(t *testing.T) {
	_, ua := manualUA()
	defer ua.Close()
	cases := []struct {
		top, child string
		topWant    bool
		childWant  bool
	}{
		{"https://a.test/", "https://b.test/", true, true},
		{"https://a.test/", "http://b.test/", true, false},
		{"http://web-platform.test:8000/", "https://web-platform.test:8443/", false, false},
		{"http://localhost:8000/", "http://127.0.0.1:8000/", true, true},
		{"http://localhost:8000/", "http://web-platform.test:8000/", true, false},
		{"http://[::1]/", "about:blank", true, true},
		{"http://a.test/", "about:blank", false, false},
		{"file:///tmp/x.html", "data:text/html,x", true, true},
		{"data:text/html,x", "https://a.test/", true, true},
	}
	for _, c := range cases {
		top := mustOpen(t, ua, c.top)
		child := mustChild(t, top, c.child, ChildNavigableOptions{})
		if got := top.EnvironmentSettingsObject().IsSecureContext(); got != c.topWant {
			t.Errorf("%s: secure=%v", c.top, got)
		}
		if got := child.EnvironmentSettingsObject().IsSecureContext(); got != c.childWant {
			t.Errorf("%s in %s: secure=%v", c.child, c.top, got)
		}
		// A grandchild is secure only if every ancestor is.
		g := mustChild(t, child, "https://x.test/", ChildNavigableOptions{})
		if g.EnvironmentSettingsObject().IsSecureContext() != c.childWant {
			t.Errorf("grandchild of %s in %s", c.child, c.top)
		}
		w, err := NewDedicatedWorker(child.EnvironmentSettingsObject(), mustURL(t, "data:text/javascript,"))
		if err != nil {
			t.Fatal(err)
		}
		if w.IsSecureContext() != c.childWant {
			t.Errorf("worker of %s in %s", c.child, c.top)
		}
	}
}

func TestAgentsAndClusters(t *testing.T) {
	_, ua := manualUA()
	defer ua.Close()
	top := mustOpen(t, ua, "https://a.test/")
	same := mustChild(t, top, "https://a.test/x", ChildNavigableOptions{})
	sameSite := mustChild(t, top, "https://www.a.test/", ChildNavigableOptions{})
	cross := mustChild(t, top, "https://b.test/", ChildNavigableOptions{})
	blank := mustChild(t, top, "about:blank", ChildNavigableOptions{})
	sandboxed := mustChild(t, top, "https://a.test/s", ChildNavigableOptions{Sandboxed: true})
	agentOf := func(d *Document) *Agent { return d.EnvironmentSettingsObject().Agent() }
	if agentOf(same) != agentOf(top) || agentOf(sameSite) != agentOf(top) || agentOf(blank) != agentOf(top) {
		t.Fatal("same-site documents must share the similar-origin window agent")
	}
	if agentOf(cross) == agentOf(top) || agentOf(cross).Cluster() == agentOf(top).Cluster() {
		t.Fatal("cross-site documents must get another agent cluster")
	}
	if agentOf(sandboxed) == agentOf(top) || !sandboxed.Origin().IsOpaque() || !sandboxed.IsSandboxed() {
		t.Fatal("sandboxed iframe: opaque origin, own agent")
	}
	if blank.Origin() != top.Origin() {
		t.Fatal("about:blank inherits its container's origin")
	}
	// A nested frame in a sandboxed frame is sandboxed too.
	if !mustChild(t, sandboxed, "https://a.test/n", ChildNavigableOptions{}).Origin().IsOpaque() {
		t.Fatal("sandboxing is inherited")
	}
	// Another window is another browsing context group: another agent.
	other := mustOpen(t, ua, "https://a.test/")
	if agentOf(other) == agentOf(top) || other.Navigable().Group() == top.Navigable().Group() {
		t.Fatal("separate windows share an agent")
	}
	w, _ := NewDedicatedWorker(top.EnvironmentSettingsObject(), mustURL(t, "https://a.test/w.js"))
	if w.Agent().Kind() != DedicatedWorkerAgent || w.Agent().Cluster() != agentOf(top).Cluster() ||
		w.ResponsibleEventLoop() == top.EnvironmentSettingsObject().ResponsibleEventLoop() || w.AssociatedDocument() != nil ||
		w.Kind() != DedicatedWorkerEnvironment || w.Owner() != top.EnvironmentSettingsObject() || w.Origin() != top.Origin() {
		t.Fatal("dedicated worker agent")
	}
	if len(agentOf(top).Cluster().Agents()) != 2 || agentOf(top).Cluster().CrossOriginIsolated() {
		t.Fatal("cluster agents")
	}
	if _, err := NewDedicatedWorker(top.EnvironmentSettingsObject(), mustURL(t, "https://b.test/w.js")); err == nil {
		t.Fatal("cross-origin worker created")
	}
	dw, _ := NewDedicatedWorker(top.EnvironmentSettingsObject(), mustURL(t, "data:text/javascript,1"))
	if !dw.Origin().IsOpaque() {
		t.Fatal("data: worker must have an opaque origin")
	}
	// The cross-site agent terminates when its last document goes away.
	crossAgent := agentOf(cross)
	var log []string
	crossAgent.AddTerminationSteps(func() { log = append(log, "terminated") })
	cross.Navigable().Navigate(mustURL(t, "https://a.test/back"), NavigateOptions{})
	if !crossAgent.IsTerminated() || fmt.Sprint(log) != "[terminated]" {
		t.Fatal("agent without documents still alive")
	}
	// Navigating back to that site gets a fresh agent.
	again, _ := cross.Navigable().Navigate(mustURL(t, "https://b.test/"), NavigateOptions{})
	if agentOf(again) == crossAgent || agentOf(again).IsTerminated() {
		t.Fatal("fresh agent expected")
	}
	for _, k := range []AgentKind{SimilarOriginWindowAgent, DedicatedWorkerAgent, SharedWorkerAgent, ServiceWorkerAgent, WorkletAgent, 99} {
		if k.String() == "" {
			t.Fatal("kind names")
		}
	}
}

func TestStorageKeysAndPartitioning(t *testing.T) {
	_, ua := manualUA()
	defer ua.Close()
	a := mustOpen(t, ua, "https://a.test/")
	b := mustOpen(t, ua, "https://b.test/")
	aInB := mustChild(t, b, "https://a.test/", ChildNavigableOptions{})
	aInA := mustChild(t, a, "https://a.test/frame", ChildNavigableOptions{})
	key := func(d *Document) storage.StorageKey {
		k, ok := d.EnvironmentSettingsObject().StorageKey()
		if !ok {
			t.Fatalf("no storage key for %v", d.URL())
		}
		return k
	}
	if key(a) != key(aInA) {
		t.Fatal("same origin, same top-level site: same key")
	}
	if key(a) == key(aInB) {
		t.Fatal("same origin under two top-level sites must get different storage keys")
	}
	if key(aInB).TopLevelSite != origin.ObtainSite(origin.Parse("https://b.test")) {
		t.Fatal("top-level site")
	}
	m1, err := storage.ObtainALocalStorageBottleMap(a.EnvironmentSettingsObject(), "caches")
	if err != nil {
		t.Fatal(err)
	}
	m2, _ := storage.ObtainALocalStorageBottleMap(aInA.EnvironmentSettingsObject(), "caches")
	m3, _ := storage.ObtainALocalStorageBottleMap(aInB.EnvironmentSettingsObject(), "caches")
	if m1.Bottle() != m2.Bottle() || m1.Bottle() == m3.Bottle() {
		t.Fatal("bottles")
	}
	// Opaque origins: sandboxed frames and data: documents have no key.
	sb := mustChild(t, a, "https://a.test/", ChildNavigableOptions{Sandboxed: true})
	data := mustOpen(t, ua, "data:text/html,x")
	for _, d := range []*Document{sb, data} {
		if _, ok := d.EnvironmentSettingsObject().StorageKey(); ok {
			t.Fatal("storage key for an opaque origin")
		}
		if _, err := storage.ObtainALocalStorageBottleMap(d.EnvironmentSettingsObject(), "caches"); err == nil {
			t.Fatal("bottle map for an opaque origin")
		}
	}
	// Workers share their owner's key.
	w, _ := NewDedicatedWorker(aInB.EnvironmentSettingsObject(), mustURL(t, "https://a.test/w.js"))
	if k, _ := w.StorageKey(); k != key(aInB) {
		t.Fatal("worker key")
	}
	// A private browsing session is another user agent: own shed, own lock task queue.
	p := ua.NewPrivateBrowsingSession()
	defer p.Close()
	pa := mustOpen(t, p, "https://a.test/")
	pm, _ := storage.ObtainALocalStorageBottleMap(pa.EnvironmentSettingsObject(), "caches")
	if !p.IsPrivate() || ua.IsPrivate() || p.StorageShed() == ua.StorageShed() || pm.Bottle() == m1.Bottle() ||
		testQueue(p) == testQueue(ua) || p.Scheduler() != ua.Scheduler() {
		t.Fatal("private browsing session shares state")
	}
}

func TestConcurrentNavigationRace(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	top := mustOpen(t, ua, "https://a.test/")
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				c, err := top.CreateChildNavigableURL(fmt.Sprintf("https://s%d.test/", (g+i)%3), ChildNavigableOptions{})
				if err != nil {
					t.Error(err)
					return
				}
				n := 0
				c.AddUnloadingDocumentCleanupSteps(func() { n++ })
				done := make(chan bool)
				c.EnvironmentSettingsObject().ResponsibleEventLoop().QueueTask(DOMManipulationTaskSource, func() { done <- c.IsFullyActive() })
				if !<-done {
					t.Error("new child not fully active")
				}
				if i%2 == 0 {
					c.Navigable().Navigate(mustURL(t, "https://a.test/"), NavigateOptions{})
				} else {
					c.Navigable().Destroy()
				}
				if n != 1 || c.IsFullyActive() {
					t.Error("cleanup")
				}
			}
		}(g)
	}
	wg.Wait()
}

func TestNavigateErrors(t *testing.T) {
	_, ua := manualUA()
	defer ua.Close()
	n := ua.NewTopLevelTraversable()
	if _, err := n.Navigate(nil, NavigateOptions{}); err == nil {
		t.Fatal("nil URL")
	}
	if n.ActiveDocument() != nil {
		t.Fatal("document without navigation")
	}
	if _, err := ua.OpenWindowURL("http://[bad"); err == nil {
		t.Fatal("bad URL")
	}
	d := mustOpen(t, ua, "https://a.test/")
	if _, err := d.CreateChildNavigableURL("http://[bad", ChildNavigableOptions{}); err == nil {
		t.Fatal("bad iframe URL")
	}
	if _, err := NewDedicatedWorker(nil, nil); err == nil {
		t.Fatal("worker without owner")
	}
	c, _ := d.CreateChildNavigable(nil, ChildNavigableOptions{})
	if c.URL().String() != "about:blank" || c.Origin() != d.Origin() {
		t.Fatal("nil iframe URL is about:blank")
	}
}

func TestBoundedState(t *testing.T) {
	ms, ua := manualUA()
	defer ua.Close()
	top := mustOpen(t, ua, "https://a.test/")
	nav := top.Navigable()
	unloaded := 0
	for i := 0; i < 50; i++ {
		d := nav.ActiveDocument()
		d.AddUnloadingDocumentCleanupSteps(func() { unloaded++ })
		if _, err := nav.Navigate(mustURL(t, fmt.Sprintf("https://s%d.test/", i%4)), NavigateOptions{KeepInBFCache: true}); err != nil {
			t.Fatal(err)
		}
	}
	if len(nav.BFCachedDocuments()) != BFCacheSize || unloaded != 50-BFCacheSize {
		t.Fatalf("bfcache %d entries, %d unloaded", len(nav.BFCachedDocuments()), unloaded)
	}
	env := nav.ActiveDocument().EnvironmentSettingsObject()
	for i := 0; i < 100; i++ {
		w, _ := NewDedicatedWorker(env, env.CreationURL())
		w.Agent().Terminate()
	}
	env.wmu.Lock()
	nw := len(env.workers)
	env.wmu.Unlock()
	if nw > 1 {
		t.Fatalf("owner keeps %d terminated workers", nw)
	}
	for i := 0; i < 100; i++ {
		q := ua.StartANewParallelQueue()
		q.Enqueue(func() { t.Error("closed queue ran steps") })
		q.Close()
		q.Enqueue(func() { t.Error("closed queue ran steps") })
	}
	ms.RunUntilIdle()
	ua.mu.Lock()
	nq := len(ua.queues)
	ua.mu.Unlock()
	ms.c.mu.Lock()
	nr := len(ms.c.runners)
	ms.c.mu.Unlock()
	if nq > 0 || nr > 10 {
		t.Fatalf("%d queues, %d runners kept", nq, nr)
	}
	// Live agents: the active document's, plus the cached documents' ones.
	if n := len(ua.Agents()); n > 5 {
		t.Fatalf("%d agents alive", n)
	}
}

func TestOpenAuxiliary(t *testing.T) {
	_, ua := manualUA()
	defer ua.Close()
	opener := mustOpen(t, ua, "http://a.test/")
	popup, err := opener.Navigable().OpenAuxiliary(mustURL(t, "https://www.a.test/"))
	if err != nil {
		t.Fatal(err)
	}
	if !popup.Navigable().IsTopLevel() || popup.Navigable().Group() != opener.Navigable().Group() {
		t.Fatal("auxiliary traversable must be top-level in the opener's group")
	}
	// http and https are different sites: different agents even in one group.
	if popup.EnvironmentSettingsObject().Agent() == opener.EnvironmentSettingsObject().Agent() {
		t.Fatal("cross-site popup shares the agent")
	}
	same, _ := opener.Navigable().OpenAuxiliary(mustURL(t, "http://b.a.test/"))
	if same.EnvironmentSettingsObject().Agent() != opener.EnvironmentSettingsObject().Agent() {
		t.Fatal("same-site popup must share the similar-origin window agent")
	}
	// Security is per top-level: an insecure opener does not make the popup insecure.
	if !popup.EnvironmentSettingsObject().IsSecureContext() || opener.EnvironmentSettingsObject().IsSecureContext() {
		t.Fatal("secure context of popup")
	}
	if k, _ := popup.EnvironmentSettingsObject().StorageKey(); k.TopLevelSite != origin.ObtainSite(popup.Origin()) {
		t.Fatal("a popup is its own top level for storage")
	}
}

func TestManyNavigationsBoundedGoroutines(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	top := mustOpen(t, ua, "https://a.test/")
	base := runtimeGoroutines()
	nav := top.Navigable()
	for i := 0; i < 2000; i++ {
		d, err := nav.Navigate(mustURL(t, fmt.Sprintf("https://s%d.test/", i%50)), NavigateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		d.EnvironmentSettingsObject().ResponsibleEventLoop().QueueTask(DOMManipulationTaskSource, func() { close(done) })
		<-done
	}
	waitFor(t, "retired agents' goroutines to exit", func() bool { return runtimeGoroutines() <= base+2 })
	if n := len(ua.Agents()); n != 1 {
		t.Fatalf("%d agents alive after navigating one window 2000 times", n)
	}
	top.Navigable().Group().mu.Lock()
	nc := len(top.Navigable().Group().clusters)
	top.Navigable().Group().mu.Unlock()
	if nc != 1 {
		t.Fatalf("%d agent clusters kept", nc)
	}
}

func TestAncestorChainBit(t *testing.T) {
	_, ua := manualUA()
	defer ua.Close()
	a := mustOpen(t, ua, "https://a.test/")
	b := mustChild(t, a, "https://b.test/", ChildNavigableOptions{})
	aba := mustChild(t, b, "https://a.test/inner", ChildNavigableOptions{})
	aa := mustChild(t, a, "https://www.a.test/", ChildNavigableOptions{})
	key := func(d *Document) storage.StorageKey {
		k, ok := d.EnvironmentSettingsObject().StorageKey()
		if !ok {
			t.Fatal("no key")
		}
		return k
	}
	if key(a).HasCrossSiteAncestor || key(aa).HasCrossSiteAncestor || !key(b).HasCrossSiteAncestor || !key(aba).HasCrossSiteAncestor {
		t.Fatal("ancestor chain bits")
	}
	if key(aba) == key(a) || key(aba).Origin != key(a).Origin || key(aba).TopLevelSite != key(a).TopLevelSite {
		t.Fatal("a.test inside b.test inside a.test must be partitioned from first-party a.test")
	}
	w, _ := NewDedicatedWorker(aba.EnvironmentSettingsObject(), mustURL(t, "https://a.test/w.js"))
	if k, _ := w.StorageKey(); k != key(aba) {
		t.Fatal("worker inherits the bit")
	}
	if !strings.HasSuffix(key(aba).String(), "cross-site ancestor") {
		t.Fatal(key(aba).String())
	}
}

func TestCleanupStepsRaceWithUnload(t *testing.T) {
	for i := 0; i < 50; i++ {
		_, ua := manualUA()
		d := mustOpen(t, ua, "https://a.test/")
		var accepted, ran atomic.Int64
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := 0; j < 200; j++ {
					if d.AddUnloadingDocumentCleanupSteps(func() { ran.Add(1) }) != 0 {
						accepted.Add(1)
					}
				}
			}()
		}
		d.Navigable().Destroy()
		wg.Wait()
		if accepted.Load() != ran.Load() {
			t.Fatalf("%d steps accepted, %d ran", accepted.Load(), ran.Load())
		}
		ua.Close()
	}
}
