package html

import (
	"fmt"
	"sync"

	"github.com/gowebengine/weblocks/origin"
)

// ParallelQueue is an HTML parallel queue: steps enqueued on it run one
// after another, in order, "in parallel" with everything else.
type ParallelQueue struct {
	r  *runner
	ua *UserAgent
}

// Enqueue is "enqueue steps" on the parallel queue. Steps enqueued after the
// user agent closed are dropped: Enqueue reports whether steps were
// enqueued. Steps must not block.
func (q *ParallelQueue) Enqueue(steps func()) bool {
	// 1. Append steps to parallelQueue's algorithm queue.
	if steps == nil {
		return false
	}
	return q.r.push(task{steps: steps})
}

// EnqueueValue is Enqueue for a Task value (no closure needed): t.RunTask
// runs as the steps, or t.DropTask if the queue stops first (its user agent
// closed). It reports whether t was enqueued; when it was not, neither
// method is called.
func (q *ParallelQueue) EnqueueValue(t Task) bool {
	if t == nil {
		return false
	}
	return q.r.push(task{obj: t})
}

// IsRunning reports whether steps of this queue are executing now (for
// "Assert: these steps are running on the lock task queue").
func (q *ParallelQueue) IsRunning() bool {
	if q == nil {
		return false
	}
	return q.r.executing.Load()
}

// RunOne (manual scheduler) runs the next enqueued steps.
func (q *ParallelQueue) RunOne() bool {
	if q == nil {
		return false
	}
	return q.r.RunOne()
}

// Close stops the queue (the standards never stop one; this is for queues
// an embedder no longer needs): pending steps are dropped, later ones
// ignored, and the user agent forgets it.
func (q *ParallelQueue) Close() {
	if q == nil {
		return
	}
	q.r.close()
	if ua := q.ua; ua != nil {
		ua.mu.Lock()
		for i, x := range ua.queues {
			if x == q {
				ua.queues = append(ua.queues[:i], ua.queues[i+1:]...)
				break
			}
		}
		ua.mu.Unlock()
	}
}

// Pending is the number of enqueued steps not yet run.
func (q *ParallelQueue) Pending() int {
	if q == nil {
		return 0
	}
	return q.r.Pending()
}

// Name describes the queue.
func (q *ParallelQueue) Name() string {
	if q == nil {
		return ""
	}
	return q.r.name
}

// AgentKind is the kind of an agent.
type AgentKind uint8

// Agent kinds of the HTML Standard.
const (
	SimilarOriginWindowAgent AgentKind = iota
	DedicatedWorkerAgent
	SharedWorkerAgent
	ServiceWorkerAgent
	WorkletAgent
)

func (k AgentKind) String() string {
	switch k {
	case SimilarOriginWindowAgent:
		return "similar-origin window agent"
	case DedicatedWorkerAgent:
		return "dedicated worker agent"
	case SharedWorkerAgent:
		return "shared worker agent"
	case ServiceWorkerAgent:
		return "service worker agent"
	case WorkletAgent:
		return "worklet agent"
	}
	return fmt.Sprintf("AgentKind(%d)", uint8(k))
}

// TerminationStepsID identifies registered termination steps.
type TerminationStepsID uint64

type idSteps struct {
	id    uint64
	steps func()
}

// Agent is an HTML agent with its event loop.
type Agent struct {
	kind    AgentKind
	cluster *AgentCluster
	loop    *EventLoop
	ua      *UserAgent
	id      uint64

	mu         sync.Mutex
	steps      []idSteps
	nextID     uint64
	terminated bool
	retiring   bool // terminated, or about to be (last document gone)
	docs       int  // live documents (window agents)
	// envs are the live environments of this agent; the dedicated workers
	// they own terminate with it.
	envs []*EnvironmentSettingsObject
}

// Kind returns the agent's kind.
func (a *Agent) Kind() AgentKind {
	if a == nil {
		return 0
	}
	return a.kind
}

// Environments returns the agent's live environments (none once it
// terminated).
func (a *Agent) Environments() []*EnvironmentSettingsObject {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*EnvironmentSettingsObject(nil), a.envs...)
}

// Cluster returns the agent's agent cluster.
func (a *Agent) Cluster() *AgentCluster {
	if a == nil {
		return nil
	}
	return a.cluster
}

// EventLoop returns the agent's event loop.
func (a *Agent) EventLoop() *EventLoop {
	if a == nil {
		return nil
	}
	return a.loop
}

// UserAgent returns the user agent the agent belongs to.
func (a *Agent) UserAgent() *UserAgent {
	if a == nil {
		return nil
	}
	return a.ua
}

// AddTerminationSteps registers steps run once when the agent terminates.
// If it already terminated, the steps do not run and 0 is returned.
func (a *Agent) AddTerminationSteps(steps func()) TerminationStepsID {
	if a == nil {
		return 0
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.terminated || steps == nil {
		return 0
	}
	a.nextID++
	a.steps = append(a.steps, idSteps{a.nextID, steps})
	return TerminationStepsID(a.nextID)
}

// RemoveTerminationSteps unregisters steps.
func (a *Agent) RemoveTerminationSteps(id TerminationStepsID) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.steps = removeID(a.steps, uint64(id))
}

func removeID(s []idSteps, id uint64) []idSteps {
	for i, x := range s {
		if x.id == id {
			copy(s[i:], s[i+1:])
			s[len(s)-1] = idSteps{}
			return s[:len(s)-1]
		}
	}
	return s
}

// IsTerminated reports whether the agent terminated.
func (a *Agent) IsTerminated() bool {
	if a == nil {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.terminated
}

// Terminate terminates the agent: first the dedicated workers its
// environments own terminate, then its termination steps run once, in
// registration order, on the calling goroutine; then its event loop stops
// (queued tasks and timers dropped, new tasks ignored). Later calls do
// nothing. It does not wait for a task running on the loop to finish.
func (a *Agent) Terminate() {
	if a == nil {
		return
	}
	a.mu.Lock()
	if a.terminated {
		a.mu.Unlock()
		return
	}
	a.terminated = true
	a.retiring = true
	steps := a.steps
	a.steps = nil
	envs := a.envs
	a.envs = nil
	a.mu.Unlock()
	for _, e := range envs {
		e.terminateOwnedWorkers()
	}
	for _, s := range steps {
		s.steps()
	}
	a.loop.terminate()
	a.cluster.remove(a)
	a.ua.forgetAgent(a)
}

func (a *Agent) String() string {
	if a == nil {
		return "agent <nil>"
	}
	return fmt.Sprintf("agent %d (%s)", a.id, a.kind)
}

// AgentCluster is an HTML agent cluster.
type AgentCluster struct {
	ua                  *UserAgent
	group               *BrowsingContextGroup
	key                 any // site (or origin) key in the group's map
	crossOriginIsolated bool

	mu          sync.Mutex
	agents      []*Agent
	windowAgent *Agent
}

// Agents returns the cluster's live agents.
func (c *AgentCluster) Agents() []*Agent {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*Agent(nil), c.agents...)
}

// CrossOriginIsolated is the cluster's cross-origin isolation flag (always false here).
func (c *AgentCluster) CrossOriginIsolated() bool {
	if c == nil {
		return false
	}
	return c.crossOriginIsolated
}

func (c *AgentCluster) add(a *Agent) {
	c.mu.Lock()
	c.agents = append(c.agents, a)
	c.mu.Unlock()
}

func (c *AgentCluster) remove(a *Agent) {
	c.mu.Lock()
	for i, x := range c.agents {
		if x == a {
			c.agents = append(c.agents[:i], c.agents[i+1:]...)
			break
		}
	}
	wasWindow := c.windowAgent == a
	if wasWindow {
		c.windowAgent = nil
	}
	c.mu.Unlock()
	if wasWindow && c.group != nil {
		c.group.dropCluster(c)
	}
}

// newAgent creates an agent of kind with its own event loop in cluster.
func (ua *UserAgent) newAgent(kind AgentKind, cluster *AgentCluster) *Agent {
	ua.mu.Lock()
	ua.nextAgent++
	id := ua.nextAgent
	ua.mu.Unlock()
	a := &Agent{kind: kind, cluster: cluster, ua: ua, id: id}
	a.loop = newEventLoop(ua.sched.core(), fmt.Sprintf("event loop of agent %d (%s)", id, kind))
	a.loop.agent = a
	if !ua.sched.core().manual {
		a.loop.r.onPanic = ua.onPanic
	}
	cluster.add(a)
	ua.mu.Lock()
	if ua.closed {
		ua.mu.Unlock()
		a.loop.terminate()
		a.terminated = true
		a.retiring = true
		return a
	}
	ua.agents[a] = struct{}{}
	ua.mu.Unlock()
	return a
}

// BrowsingContextGroup holds the agent cluster map of a set of top-level
// traversables (one per top-level window here; window.open would share).
type BrowsingContextGroup struct {
	ua       *UserAgent
	mu       sync.Mutex
	clusters map[any]*AgentCluster
}

// NewBrowsingContextGroup creates an empty browsing context group.
func (ua *UserAgent) NewBrowsingContextGroup() *BrowsingContextGroup {
	return &BrowsingContextGroup{ua: ua, clusters: make(map[any]*AgentCluster)}
}

func (g *BrowsingContextGroup) dropCluster(c *AgentCluster) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.clusters[c.key] == c {
		delete(g.clusters, c.key)
	}
}

// ObtainASimilarOriginWindowAgent is HTML's "obtain a similar-origin window
// agent" given an origin and this group (no origin-keyed clusters).
func (g *BrowsingContextGroup) ObtainASimilarOriginWindowAgent(o origin.Origin) *Agent {
	if g == nil {
		return nil
	}
	// 1. Let site be the result of obtaining a site with origin.
	// 2. Let key be site.
	// 3-4. (cross-origin isolation / origin-keyed clusters: not modelled)
	key := origin.ObtainSite(o)
	g.mu.Lock()
	defer g.mu.Unlock()
	c := g.clusters[key]
	// 5. If group's agent cluster map[key] does not exist (or its agent is
	//    going away with its last document), then:
	if c == nil || c.windowAgentOrNil() == nil || c.windowAgentOrNil().isRetiring() {
		// 5.1. Let agentCluster be a new agent cluster.
		c = &AgentCluster{ua: g.ua, group: g, key: key}
		// 5.2. Set agentCluster's cross-origin isolation mode to group's.
		// 5.3. Set agentCluster's is origin-keyed (false).
		// 5.4. Add the result of creating an agent, given false, to agentCluster.
		a := g.ua.newAgent(SimilarOriginWindowAgent, c)
		c.mu.Lock()
		c.windowAgent = a
		c.mu.Unlock()
		// 5.5. Set group's agent cluster map[key] to agentCluster.
		g.clusters[key] = c
	}
	// 6. Return the single similar-origin window agent in agentCluster.
	return c.windowAgentOrNil()
}

func (a *Agent) isRetiring() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.retiring
}

func (c *AgentCluster) windowAgentOrNil() *Agent {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.windowAgent
}
