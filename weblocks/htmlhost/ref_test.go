package htmlhost

// This file is the reference model: a second, literal transcription of the
// Web Locks algorithms, written with plain lists and loops exactly as the
// spec states them (held lock set as a list, the lock request queue map as
// an ordered map of lists, "for each" as a loop over a copy, "grantable" by
// scanning the held lock set). It shares no code with the implementation.
//
// It makes the same deliberate choices as the implementation (the html
// host over the lock service contract, the page side and the Go API's
// Future adapter) where the spec is vague or would misbehave:
//   - "terminate remaining locks and requests" is scoped to one client
//     (environment): document unload terminates that document's client;
//     agent termination terminates each of the agent's clients, in the order
//     they were registered (their first request or query). A client has
//     one lock client per bucket it used, each terminated in its own step,
//     in registration order: requests aborted, then locks released, each
//     in the order they were made.
//   - promise settlement that the spec performs on the lock task queue
//     (steal rejection, query result) is queued as a task on the
//     requester's event loop; the released promise is resolved with the
//     waiting promise on the event loop, as the release is enqueued.
//   - a request aborted by its signal while still queued gets its
//     "aborted" outcome delivered: a task that does nothing more.
//   - tasks for a gone client (its document was unloaded, its agent
//     terminated) are dropped when they would be queued or run; its
//     releases and aborts are refused.
//   - a terminated (gone) client cannot request or query: InvalidStateError.
//   - a name is first brought to its canonical spelling (refDOMString).
//   - every released promise and query promise (Go futures) settles: the
//     termination steps reject those of the aborted requests and released
//     locks with "AbortError"; a task that would settle one, dropped
//     because its client is gone or its agent terminated, settles it
//     instead (AbortError, or the known outcome for a released promise
//     whose waiting promise settled).

import (
	"fmt"
	"sort"
	"strings"

	. "github.com/gowebengine/weblocks/weblocks"
)

type refWorld struct {
	uas     []*refUA
	agents  []*refAgent
	clients []*refClient
	log     *[]string // settlement / invocation events, in order
	seq     int
}

type refUA struct {
	lockTaskQueue []func()
	managers      map[refKey]*refManager
	managerOrder  []*refManager
}

type refKey struct {
	origin, topSite, bucket string
}

type refAgent struct {
	ua         *refUA
	eventLoop  []func()
	drops      []func() // drops[i] runs instead of eventLoop[i] if the agent terminates first
	terminated bool
	clients    []*refClient // registration order
}

type refClient struct {
	id          string
	agent       *refAgent
	opaque      bool
	origin      string
	topSite     string
	hasDocument bool
	fullyActive bool
	gone        bool
	registered  bool
	buckets     []string // the buckets it registered a lock client for, in order
}

// register registers c's lock client of bucket (the html host registers an
// environment's client of a bucket the first time it requests or queries
// there, before the method steps' option checks).
func (c *refClient) register(bucket string) {
	if !c.registered {
		c.registered = true
		c.agent.clients = append(c.agent.clients, c)
	}
	for _, b := range c.buckets {
		if b == bucket {
			return
		}
	}
	c.buckets = append(c.buckets, bucket)
}

// queueTaskFor is queueTaskOr for a task the lock service delivers to
// client: the html host drops it at once when the client is gone.
func (c *refClient) queueTaskFor(steps, dropped func()) {
	if c.gone {
		dropped()
		return
	}
	c.agent.queueTaskOr(steps, dropped)
}

type refManager struct {
	key           refKey
	heldLockSet   []*refLock
	queueMapKeys  []Name
	queueMapItems map[Name][]*refRequest
}

type refRequest struct {
	id       int
	seq      int
	agent    *refAgent
	client   *refClient
	clientID string
	manager  *refManager
	name     Name
	mode     Mode
	callback func(lock *refLock) *refPromise
	promise  *refPromise
	signal   *refSignal
	algo     *func()
}

type refLock struct {
	agent    *refAgent
	client   *refClient
	clientID string
	manager  *refManager
	name     Name
	mode     Mode
	waiting  *refPromise
	released *refPromise
	request  *refRequest
}

// refPromise mirrors the Go Future semantics the implementation is driven
// with: reactions run synchronously at settlement; resolving with another
// promise adopts its outcome when it settles.
type refPromise struct {
	state     int // 0 pending, 1 fulfilled, 2 rejected
	value     string
	adopting  bool
	reactions []func()
	onSettle  func(state int, value string) // log hook for released / query promises
}

func (p *refPromise) settle(state int, value string) {
	if p.state != 0 {
		return
	}
	p.state, p.value = state, value
	if p.onSettle != nil {
		p.onSettle(state, value)
	}
	rs := p.reactions
	p.reactions = nil
	for _, r := range rs {
		r()
	}
}

func (p *refPromise) whenSettled(f func()) {
	if p.state != 0 {
		f()
		return
	}
	p.reactions = append(p.reactions, f)
}

// resolveWith is "resolve p with w" for a promise w.
func (p *refPromise) resolveWith(w *refPromise) {
	if p.state != 0 || p.adopting {
		return
	}
	p.adopting = true
	w.whenSettled(func() { p.settle(w.state, w.value) })
}

func (p *refPromise) reject(reason string) {
	if p.adopting {
		return
	}
	p.settle(2, reason)
}

type refSignal struct {
	agent      *refAgent
	aborted    bool
	reason     string
	algorithms []*func()
}

// signalAbort is DOM's "signal abort" (no dependents, no event listeners).
func (s *refSignal) signalAbort(reason string) {
	if s.aborted {
		return
	}
	s.aborted = true
	s.reason = reason
	algos := append([]*func(){}, s.algorithms...)
	s.algorithms = nil
	for _, a := range algos {
		(*a)()
	}
}

func (s *refSignal) add(a *func()) {
	if s.aborted {
		return
	}
	s.algorithms = append(s.algorithms, a)
}

func (s *refSignal) remove(a *func()) {
	for i, x := range s.algorithms {
		if x == a {
			s.algorithms = append(s.algorithms[:i], s.algorithms[i+1:]...)
			return
		}
	}
}

// enqueueLockTask is "enqueue steps on the lock task queue".
func (ua *refUA) enqueueLockTask(steps func()) { ua.lockTaskQueue = append(ua.lockTaskQueue, steps) }

// queueTaskOr queues steps as a task on the agent's event loop; dropped
// runs instead if the task is dropped (at once when the agent already
// terminated).
func (a *refAgent) queueTaskOr(steps, dropped func()) {
	if a.terminated {
		dropped()
		return
	}
	a.eventLoop = append(a.eventLoop, steps)
	a.drops = append(a.drops, dropped)
}

// obtainALockManager: one lock manager per (storage key, bucket) per user
// agent; failure for opaque origins.
func (w *refWorld) obtainALockManager(c *refClient, bucket string) *refManager {
	if c.opaque {
		return nil
	}
	ua := c.agent.ua
	k := refKey{c.origin, c.topSite, bucket}
	m := ua.managers[k]
	if m == nil {
		m = &refManager{key: k, queueMapItems: map[Name][]*refRequest{}}
		ua.managers[k] = m
		ua.managerOrder = append(ua.managerOrder, m)
	}
	return m
}

// getTheLockRequestQueue, literally.
func (m *refManager) getTheLockRequestQueue(name Name) []*refRequest {
	// 1. If queueMap[name] does not exist, set queueMap[name] to a new empty
	//    lock request queue.
	if _, ok := m.queueMapItems[name]; !ok {
		m.queueMapItems[name] = []*refRequest{}
		m.queueMapKeys = append(m.queueMapKeys, name)
	}
	// 2. Return queueMap[name].
	return m.queueMapItems[name]
}

// grantable, literally.
func (w *refWorld) grantable(request *refRequest) bool {
	manager := request.manager
	name := request.name
	queue := manager.getTheLockRequestQueue(name)
	held := manager.heldLockSet
	mode := request.mode
	if len(queue) != 0 && queue[0] != request {
		return false
	}
	if mode == Exclusive {
		for _, lock := range held {
			if lock.name == name {
				return false
			}
		}
		return true
	}
	for _, lock := range held {
		if lock.mode == Exclusive && lock.name == name {
			return false
		}
	}
	return true
}

// request method steps, literally (options as separate arguments; bucket
// selects the manager like the Storage Buckets API's bucket.locks would).
func (w *refWorld) requestMethod(c *refClient, bucket string, name Name, mode Mode, ifAvailable, steal bool,
	signal *refSignal, callback func(*refLock) *refPromise, promise *refPromise, id int) {
	name = refDOMString(name)
	// 3. fully active
	if c.hasDocument && !c.fullyActive {
		promise.settle(2, "DOMException:InvalidStateError")
		return
	}
	if c.gone || c.agent.terminated {
		promise.settle(2, "DOMException:InvalidStateError")
		return
	}
	// 4. obtain a lock manager
	manager := w.obtainALockManager(c, bucket)
	if manager == nil {
		promise.settle(2, "DOMException:SecurityError")
		return
	}
	c.register(bucket)
	// 5.
	if strings.HasPrefix(string(name), "-") {
		promise.settle(2, "DOMException:NotSupportedError")
		return
	}
	// 6.
	if steal && ifAvailable {
		promise.settle(2, "DOMException:NotSupportedError")
		return
	}
	// 7.
	if steal && mode != Exclusive {
		promise.settle(2, "DOMException:NotSupportedError")
		return
	}
	// 8.
	if signal != nil && (steal || ifAvailable) {
		promise.settle(2, "DOMException:NotSupportedError")
		return
	}
	// 9.
	if signal != nil && signal.aborted {
		promise.settle(2, signal.reason)
		return
	}
	// 11.
	w.requestALock(promise, c.agent, c, c.id, manager, callback, name, mode, ifAvailable, steal, signal, id)
}

// requestALock, literally.
func (w *refWorld) requestALock(promise *refPromise, agent *refAgent, client *refClient, clientID string, manager *refManager,
	callback func(*refLock) *refPromise, name Name, mode Mode, ifAvailable, steal bool, signal *refSignal, id int) *refRequest {
	// 1.
	request := &refRequest{id: id, agent: agent, client: client, clientID: clientID, manager: manager, name: name, mode: mode,
		callback: callback, promise: promise, signal: signal}
	// 2.
	if signal != nil {
		algo := func() { w.signalToAbortTheRequest(request, signal) }
		request.algo = &algo
		signal.add(request.algo)
	}
	ua := agent.ua
	// 3.
	ua.enqueueLockTask(func() {
		// 1. 2.
		queue := manager.getTheLockRequestQueue(name)
		// 3.
		held := manager.heldLockSet
		// 4.
		if steal {
			for _, lock := range append([]*refLock{}, held...) {
				if lock.name == name {
					manager.heldLockSet = removeLock(manager.heldLockSet, lock)
					l := lock
					reject := func() { l.released.reject("DOMException:AbortError") }
					dropped := func() { l.released.reject(refGone) }
					l.client.queueTaskFor(reject, dropped)
				}
			}
			w.seq++
			request.seq = w.seq
			manager.queueMapItems[name] = append([]*refRequest{request}, queue...)
		} else {
			// 5.1
			if ifAvailable && !w.grantable(request) {
				client.queueTaskFor(func() {
					if client.gone {
						promise.reject(refGone)
						return
					}
					r := callback(nil)
					promise.resolveWith(r)
				}, func() { promise.reject(refGone) })
				return
			}
			// 5.2
			w.seq++
			request.seq = w.seq
			manager.queueMapItems[name] = append(queue, request)
		}
		// 6.
		w.processTheLockRequestQueue(manager, name)
	})
	return request
}

func removeLock(list []*refLock, lock *refLock) []*refLock {
	for i, x := range list {
		if x == lock {
			return append(list[:i:i], list[i+1:]...)
		}
	}
	return list
}

func removeRequest(list []*refRequest, r *refRequest) []*refRequest {
	for i, x := range list {
		if x == r {
			return append(list[:i:i], list[i+1:]...)
		}
	}
	return list
}

// releaseTheLock, literally.
func (w *refWorld) releaseTheLock(lock *refLock) {
	manager := lock.manager
	name := lock.name
	manager.getTheLockRequestQueue(name)
	manager.heldLockSet = removeLock(manager.heldLockSet, lock)
	w.processTheLockRequestQueue(manager, name)
}

// abortTheRequest, literally.
func (w *refWorld) abortTheRequest(request *refRequest) {
	manager := request.manager
	name := request.name
	queue := manager.getTheLockRequestQueue(name)
	manager.queueMapItems[name] = removeRequest(queue, request)
	w.processTheLockRequestQueue(manager, name)
}

// signalToAbortTheRequest, literally.
// (The lock service delivers the aborted outcome of a request it removed
// from its queue: a task that does nothing more. The abort of a gone
// client is refused.)
func (w *refWorld) signalToAbortTheRequest(request *refRequest, signal *refSignal) {
	if !request.client.gone {
		request.agent.ua.enqueueLockTask(func() {
			queued := false
			for _, r := range request.manager.queueMapItems[request.name] {
				queued = queued || r == request
			}
			if queued {
				w.abortTheRequest(request)
				request.client.queueTaskFor(func() {}, func() {})
			}
		})
	}
	request.promise.reject(signal.reason)
}

// processTheLockRequestQueue, literally (the queue is named by manager and
// name, since Go slices are values).
func (w *refWorld) processTheLockRequestQueue(manager *refManager, name Name) {
	for _, request := range append([]*refRequest{}, manager.queueMapItems[name]...) {
		if !w.grantable(request) {
			return
		}
		manager.queueMapItems[name] = removeRequest(manager.queueMapItems[name], request)
		agent := request.agent
		client := request.client
		clientID := request.clientID
		name := request.name
		mode := request.mode
		callback := request.callback
		p := request.promise
		signal := request.signal
		waiting := &refPromise{}
		lock := &refLock{agent: agent, client: client, clientID: clientID, manager: manager, mode: mode, name: name,
			released: p, waiting: waiting, request: request}
		manager.heldLockSet = append(manager.heldLockSet, lock)
		client.queueTaskFor(func() {
			if client.gone {
				p.reject(refGone)
				return
			}
			if signal != nil {
				if signal.aborted {
					agent.ua.enqueueLockTask(func() { w.releaseTheLock(lock) })
					return
				}
				signal.remove(request.algo)
			}
			r := callback(lock)
			waiting.resolveWith(r)
		}, func() { p.reject(refGone) })
		// When lock's waiting promise settles, enqueue the following steps on
		// the lock task queue:
		// (The page side enqueues the release, unless its client is
		// gone, and resolves the released promise at once, on the event
		// loop.)
		waiting.whenSettled(func() {
			if !client.gone {
				agent.ua.enqueueLockTask(func() { w.releaseTheLock(lock) })
			}
			lock.released.resolveWith(lock.waiting)
		})
	}
}

// snapshotTheLockState, literally.
func (w *refWorld) snapshotTheLockState(manager *refManager) Snapshot {
	var pending, held []LockInfo
	for _, name := range manager.queueMapKeys {
		for _, request := range manager.queueMapItems[name] {
			pending = append(pending, LockInfo{Name: request.name, Mode: request.mode, ClientID: request.clientID})
		}
	}
	for _, lock := range manager.heldLockSet {
		held = append(held, LockInfo{Name: lock.name, Mode: lock.mode, ClientID: lock.clientID})
	}
	return Snapshot{Held: NewLockList(held...), Pending: NewLockList(pending...)}
}

// queryMethod, literally.
func (w *refWorld) queryMethod(c *refClient, bucket string, promise *refPromise) {
	if c.hasDocument && !c.fullyActive {
		promise.settle(2, "DOMException:InvalidStateError")
		return
	}
	if c.gone || c.agent.terminated {
		promise.settle(2, "DOMException:InvalidStateError")
		return
	}
	manager := w.obtainALockManager(c, bucket)
	if manager == nil {
		promise.settle(2, "DOMException:SecurityError")
		return
	}
	c.register(bucket)
	c.agent.ua.enqueueLockTask(func() {
		s := w.snapshotTheLockState(manager)
		c.queueTaskFor(func() {
			if c.gone {
				promise.reject(refGone)
				return
			}
			promise.settle(1, describeSnapshot(s))
		}, func() { promise.reject(refGone) })
	})
}

// terminateRemainingLocksAndRequests, scoped to a client (see above): one
// step per lock client of c (per bucket, in registration order), each
// aborting its requests and then releasing its locks, in the order they
// were made.
func (w *refWorld) terminateRemainingLocksAndRequests(c *refClient) {
	ua := c.agent.ua
	for _, bucket := range c.buckets {
		m := ua.managers[refKey{c.origin, c.topSite, bucket}]
		ua.enqueueLockTask(func() {
			var requests []*refRequest
			for _, name := range m.queueMapKeys {
				for _, r := range m.queueMapItems[name] {
					if r.client == c {
						requests = append(requests, r)
					}
				}
			}
			sort.Slice(requests, func(i, j int) bool { return requests[i].seq < requests[j].seq })
			for _, r := range requests {
				w.abortTheRequest(r)
				r.promise.reject(refGone)
			}
			var locks []*refLock
			for _, l := range m.heldLockSet {
				if l.client == c {
					locks = append(locks, l)
				}
			}
			sort.Slice(locks, func(i, j int) bool { return locks[i].request.seq < locks[j].request.seq })
			for _, l := range locks {
				w.releaseTheLock(l)
				l.released.reject(refGone)
			}
		})
	}
}

// unloadDocument: the document is no longer fully active and its unloading
// document cleanup steps run.
func (w *refWorld) unloadDocument(c *refClient) {
	c.fullyActive = false
	if c.registered && !c.gone {
		c.gone = true
		w.terminateRemainingLocksAndRequests(c)
	}
}

// terminateAgent: the agent's event loop stops; each of its clients is
// terminated.
func (w *refWorld) terminateAgent(a *refAgent) {
	if a.terminated {
		return
	}
	a.terminated = true
	for _, c := range a.clients {
		if !c.gone {
			c.gone = true
			w.terminateRemainingLocksAndRequests(c)
		}
	}
	// The event loop stops: its tasks are dropped, in order.
	drops := a.drops
	a.eventLoop, a.drops = nil, nil
	for _, d := range drops {
		d()
	}
	for _, c := range w.clients {
		if c.agent == a {
			c.gone = true
		}
	}
}

// refDOMString is Name's rule, transcribed separately: decode the bytes to
// UTF-16 code units (valid UTF-8: the scalar; ED A0..BF xx: that surrogate;
// any other byte b: U+DC00+b), then spell the code units canonically (pairs
// as 4-byte UTF-8, lone surrogates as 3 bytes).
func refDOMString(n Name) Name {
	s := []byte(n)
	var units []uint16
	for i := 0; i < len(s); {
		b := s[i]
		switch {
		case b < 0x80:
			units = append(units, uint16(b))
			i++
		case b == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2] >= 0x80 && s[i+2] <= 0xBF:
			units = append(units, 0xD000|uint16(s[i+1]&0x3F)<<6|uint16(s[i+2]&0x3F))
			i += 3
		default:
			r, size := rune(0), 0
			switch {
			case b >= 0xC2 && b <= 0xDF:
				r, size = rune(b&0x1F), 2
			case b >= 0xE0 && b <= 0xEF:
				r, size = rune(b&0x0F), 3
			case b >= 0xF0 && b <= 0xF4:
				r, size = rune(b&0x07), 4
			}
			ok := size > 0 && i+size <= len(s)
			for k := 1; ok && k < size; k++ {
				if s[i+k]&0xC0 != 0x80 {
					ok = false
				}
				r = r<<6 | rune(s[i+k]&0x3F)
			}
			min := map[int]rune{2: 0x80, 3: 0x800, 4: 0x10000}[size]
			if !ok || r < min || r > 0x10FFFF || (r >= 0xD800 && r < 0xE000) {
				units = append(units, 0xDC00+uint16(b))
				i++
				continue
			}
			if r >= 0x10000 {
				r -= 0x10000
				units = append(units, 0xD800+uint16(r>>10), 0xDC00+uint16(r&0x3FF))
			} else {
				units = append(units, uint16(r))
			}
			i += size
		}
	}
	var out []byte
	for i := 0; i < len(units); i++ {
		c := rune(units[i])
		if c >= 0xD800 && c < 0xDC00 && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] < 0xE000 {
			c = 0x10000 + (c-0xD800)<<10 + rune(units[i+1]-0xDC00)
			i++
		}
		switch {
		case c < 0x80:
			out = append(out, byte(c))
		case c < 0x800:
			out = append(out, 0xC0|byte(c>>6), 0x80|byte(c&0x3F))
		case c < 0x10000:
			out = append(out, 0xE0|byte(c>>12), 0x80|byte(c>>6&0x3F), 0x80|byte(c&0x3F))
		default:
			out = append(out, 0xF0|byte(c>>18), 0x80|byte(c>>12&0x3F), 0x80|byte(c>>6&0x3F), 0x80|byte(c&0x3F))
		}
	}
	return Name(out)
}

// refGone is the rejection of a gone client's promises.
const refGone = "DOMException:AbortError"

// describeSnapshot renders a snapshot for comparison: held in order, pending
// grouped by name (the spec leaves the order across names open) keeping the
// per-name request order.
func describeSnapshot(s Snapshot) string {
	var b strings.Builder
	b.WriteString("held[")
	for _, l := range s.Held.All() {
		fmt.Fprintf(&b, "%q/%s/%s ", string(l.Name), l.Mode, l.ClientID)
	}
	b.WriteString("] pending[")
	p := s.Pending.Infos()
	sort.SliceStable(p, func(i, j int) bool { return p[i].Name < p[j].Name })
	for _, l := range p {
		fmt.Fprintf(&b, "%q/%s/%s ", string(l.Name), l.Mode, l.ClientID)
	}
	b.WriteString("]")
	return b.String()
}
