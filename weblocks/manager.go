package weblocks

import (
	"slices"
	"sort"

	"github.com/gowebengine/weblocks/dom"
)

// LockManager is a lock manager: the state of the locks and lock requests of
// one storage bucket (the "web-locks" bottle of the bucket), in one user
// agent. Obtain one with ObtainALockManager or LockManagerForBucket.
//
// All of its state lives on the user agent's lock task queue: it is only
// read and changed by steps enqueued there, so it needs no lock of its own.
//
// Layout (every operation below is O(1) unless noted):
//   - names: resource name -> *nameState, which holds the name's lock request
//     queue (a doubly linked list of entries) and the name's part of the held
//     lock set (another list, plus counts for grantable). A name's state is
//     dropped once it has neither requests nor held locks (after a short
//     stay on an idle list, see dropIfEmpty), which the spec cannot observe
//     ("get the lock request queue" recreates it empty); a few dropped
//     states are kept for the next new names (freeName).
//   - held and pend: the held lock set in grant order and every queued
//     request in request order, as dense arrays of 8-byte records (name
//     slot, mode, client index; the entries in an array alongside) that
//     query() copies from contiguous memory instead of chasing one pointer
//     per entry. A removed entry leaves a tombstone; the arrays are
//     compacted (order kept) when more than half of them is tombstones, so
//     the cost stays O(1) amortized.
//     Pending requests are listed grouped by name (in the order of the
//     names' slots, see slots) with a counting sort over the records: a
//     name's queue only ever grows at its tail, except for a stealing
//     request, which is granted in the same step that prepends it.
//   - slots: one small record per name state in name-list order, holding
//     its name and the length of its queue, so query() names and sizes each
//     name's group without touching the name states.
//   - every entry is also linked into its client's list (clientState), so
//     terminating a client costs O(its own locks and requests).
//
// A request and the lock it becomes are one entry: the handle that releases
// the lock or aborts the request is the entry pointer itself.
type LockManager struct {
	ltq    lockTaskQueue
	svc    *Service // nil in tests that make a bare manager
	bucket Bucket   // its bucket
	names  map[Name]*nameState
	// order of name states, for a query's pending list grouped by name
	firstName, lastName *nameState
	// the held lock set in grant order and the queued requests in request
	// order, with tombstones (see the type's doc)
	held, pend records
	// name slots in name-list order, with tombstones; scratch is query()'s
	slots     []nameSlot
	slotsDead int
	scratch   []int32
	// client ids and client states by clientState.idx (nil: free), and
	// the free indices
	clientIDs    []string
	clientStates []*clientState
	freeClients  []int32
	// the number of held locks and of queued requests, for query()
	heldTotal, queuedTotal int
	// empty name states kept for reuse, oldest first (see dropIfEmpty)
	firstIdle, lastIdle *nameState
	idleCount           int
	// deleted name states kept for the next new name (linked by inext),
	// so that churn over many names does not allocate a state per name
	freeNames *nameState
	freeCount int
	// batching: a termination is running; dropIfEmpty leaves the idle list
	// long and trimIdle trims it once at the end
	batching bool
	// per-client bookkeeping of this manager
	clients map[*client]*clientState
}

// lockTaskQueue is the user agent's lock task queue.
type lockTaskQueue interface {
	Enqueue(steps func()) bool
	EnqueueValue(t Task) bool
}

func newLockManager(ltq lockTaskQueue) *LockManager {
	return &LockManager{ltq: ltq, names: make(map[Name]*nameState), clients: make(map[*client]*clientState)}
}

// nameState is the per-name state: the lock request queue of the name and
// the held locks with that name.
type nameState struct {
	name                     Name
	queueHead, queueTail     *entry
	queueLen                 int
	heldHead, heldTail       *entry
	heldCount, heldExclusive int
	prev, next               *nameState // in the manager's name list
	idle, dropped            bool
	iprev, inext             *nameState // in the manager's idle list
	slot                     int32      // index in the manager's slots
}

// nameSlot is a name state's entry in LockManager.slots.
type nameSlot struct {
	ns     *nameState // nil: tombstone
	name   Name       // ns.name, for query() (which so reads no name state)
	queued int32      // ns.queueLen
}

// infoRec is a held lock's or queued request's record in LockManager.held
// or LockManager.pend: what query() reports about it, without a pointer
// to chase for it (its name is its slot's).
type infoRec struct {
	slot int32 // the name's slot (-1: tombstone)
	cm   int32 // clientState.idx<<1 | mode
}

// records is a dense array of records in order, with tombstones, and their
// entries alongside (so that query() reads 8 bytes per entry).
type records struct {
	recs []infoRec
	es   []*entry // nil: tombstone
	dead int
}

// add appends e's record (compacting the array first if more than half of
// it is tombstones).
func (a *records) add(e *entry, slot int32) {
	if a.dead >= minCompact && a.dead > len(a.recs)/2 {
		a.compact()
	}
	e.idx = int32(len(a.recs))
	a.recs = append(a.recs, infoRec{slot: slot, cm: e.cs.idx<<1 | int32(e.lock.mode)})
	a.es = append(a.es, e)
}

// remove turns e's record into a tombstone; live is the number of records
// left, and with none left the array is emptied.
func (a *records) remove(e *entry, live int) {
	a.recs[e.idx] = infoRec{slot: -1}
	a.es[e.idx] = nil
	a.dead++
	if live == 0 {
		// (A large array is dropped, a small one kept for reuse.)
		if cap(a.recs) > 4096 {
			a.recs, a.es = nil, nil
		} else {
			a.recs, a.es = a.recs[:0], a.es[:0]
		}
		a.dead = 0
	}
}

// compact drops the tombstones, keeping the order, and updates the moved
// entries' indices.
func (a *records) compact() {
	j := 0
	for i, e := range a.es {
		if e != nil {
			a.recs[j], a.es[j] = a.recs[i], e
			e.idx = int32(j)
			j++
		}
	}
	clear(a.es[j:])
	a.recs, a.es = a.recs[:j], a.es[:j]
	a.dead = 0
}

// entry states
const (
	entryNew      uint8 = iota
	entryQueued         // in its name's lock request queue
	entryHeld           // in the held lock set
	entryReleased       // released (or stolen: removed from the held set)
	entryAborted        // removed from the queue
)

// entry is a lock request and, once granted, its lock.
type entry struct {
	lock    Lock // name and mode
	manager *LockManager
	client  *client
	recv    Receiver // the request's receiver (the page side's request)

	// The small fields share one word.
	ifAvailable, steal bool
	// The entry is its own hot-path task (RunTask runs step, which does
	// what phase says): first on the lock task queue (the request steps),
	// then as the task that delivers its first outcome (granted or not
	// available) to its client's event loop, so no closure or record is
	// allocated for them.
	phase uint8
	state uint8 // lock task queue side

	// lock task queue side
	idx          int32  // index in the manager's held (held) or pend (queued)
	seq          uint32 // order of the request among its client's requests (wrapping)
	ns           *nameState
	prev, next   *entry // in ns's queue or ns's held list
	cs           *clientState
	cprev, cnext *entry // in cs's list
}

// entry phases
const (
	queueRequest            uint8 = iota // lock task queue: "request a lock" step 3
	loopDeliverGranted                   // event loop: OutcomeGranted
	loopDeliverNotAvailable              // event loop: OutcomeNotAvailable
)

// RunTask and DropTask make an entry a Task: the request steps on the lock
// task queue, then the delivery of its first outcome.
func (e *entry) RunTask() {
	switch e.phase {
	case queueRequest:
		e.manager.requestALockSteps(e)
	case loopDeliverGranted:
		e.recv.Receive(Outcome{Kind: OutcomeGranted, Lock: (*lockHandle)(e), Dropped: e.client.gone.Load()})
	case loopDeliverNotAvailable:
		e.recv.Receive(Outcome{Kind: OutcomeNotAvailable, Dropped: e.client.gone.Load()})
	}
}

// DropTask runs when the host dropped the delivery (or the lock task queue
// stopped before the request steps ran).
func (e *entry) DropTask() {
	switch e.phase {
	case queueRequest:
		e.deliverLoss(OutcomeAborted, ErrServiceClosed)
	case loopDeliverGranted:
		e.recv.Receive(Outcome{Kind: OutcomeGranted, Lock: (*lockHandle)(e), Dropped: true})
	case loopDeliverNotAvailable:
		e.recv.Receive(Outcome{Kind: OutcomeNotAvailable, Dropped: true})
	}
}

// deliverLoss delivers OutcomeAborted or OutcomeRevoked (with the lock
// handle) with reason.
func (e *entry) deliverLoss(kind OutcomeKind, reason any) {
	o := Outcome{Kind: kind, Reason: reason}
	if kind == OutcomeRevoked {
		o.Lock = (*lockHandle)(e)
	}
	e.client.deliverTask(&delivery{c: e.client, recv: e.recv, o: o})
}

// abandon tells the receiver of a terminated client's request or lock that
// it was lost (OutcomeAborted or OutcomeRevoked with ErrClientTerminated).
func abandon(e *entry) {
	kind := OutcomeAborted
	if e.state == entryReleased { // it was held
		kind = OutcomeRevoked
	}
	e.deliverLoss(kind, ErrClientTerminated)
}

// environmentGone is the rejection reason of the Go API's futures whose
// environment went away (see the package documentation).
func environmentGone() *dom.DOMException {
	return dom.NewDOMException("The lock request or lock was aborted: its environment went away (document unloaded or agent terminated).", dom.AbortError)
}

func stolenError() *dom.DOMException {
	return dom.NewDOMException("The lock was stolen by another request.", dom.AbortError)
}

// getTheLockRequestQueue implements "get the lock request queue" from the
// manager's lock request queue map for name. A nameState stands for both
// queueMap[name] and the part of the held lock set with that name.
func (m *LockManager) getTheLockRequestQueue(name Name) *nameState {
	// 1. If queueMap[name] does not exist, set queueMap[name] to a new empty
	//    lock request queue.
	ns := m.names[name]
	if ns == nil {
		ns = m.newNameState()
		ns.name, ns.prev = name, m.lastName
		m.addSlot(ns)
		if m.lastName != nil {
			m.lastName.next = ns
		} else {
			m.firstName = ns
		}
		m.lastName = ns
		m.names[name] = ns
	} else if ns.idle {
		m.unlinkIdle(ns)
	}
	// 2. Return queueMap[name].
	return ns
}

// maxIdleNames bounds how many empty name states a manager keeps so that a
// name used again soon (the common uncontended request/release cycle) does
// not go through the map's insert and delete every time.
const maxIdleNames = 64

// dropIfEmpty forgets a name that has neither requests nor held locks: it
// joins the idle list, and the oldest idle name beyond maxIdleNames is
// deleted. The spec cannot observe either ("get the lock request queue"
// recreates an empty queue on demand).
func (m *LockManager) dropIfEmpty(ns *nameState) {
	if ns.queueLen != 0 || ns.heldCount != 0 || ns.idle || ns.dropped {
		return
	}
	ns.idle = true
	ns.iprev, ns.inext = m.lastIdle, nil
	if m.lastIdle != nil {
		m.lastIdle.inext = ns
	} else {
		m.firstIdle = ns
	}
	m.lastIdle = ns
	m.idleCount++
	if m.idleCount > maxIdleNames && !m.batching {
		m.deleteName(m.firstIdle)
	}
}

// trimIdle deletes the oldest idle names beyond maxIdleNames, once, after a
// batch of releases (a termination) left more of them. When they are at
// least half of the map, the map is rebuilt from the surviving names
// instead: deleting most of a large map one name at a time costs a cache
// miss per name, growing with the map, while the rebuild costs O(survivors).
func (m *LockManager) trimIdle() {
	excess := m.idleCount - maxIdleNames
	if excess <= 0 {
		return
	}
	if excess < len(m.names)/2 {
		for m.idleCount > maxIdleNames {
			m.deleteName(m.firstIdle)
		}
		return
	}
	for m.idleCount > maxIdleNames {
		m.unlinkName(m.firstIdle)
	}
	names := make(map[Name]*nameState, len(m.names)-excess)
	for ns := m.firstName; ns != nil; ns = ns.next {
		names[ns.name] = ns
	}
	m.names = names
}

func (m *LockManager) unlinkIdle(ns *nameState) {
	if ns.iprev != nil {
		ns.iprev.inext = ns.inext
	} else {
		m.firstIdle = ns.inext
	}
	if ns.inext != nil {
		ns.inext.iprev = ns.iprev
	} else {
		m.lastIdle = ns.iprev
	}
	ns.iprev, ns.inext = nil, nil
	ns.idle = false
	m.idleCount--
}

// deleteName removes an idle name state for good.
func (m *LockManager) deleteName(ns *nameState) {
	delete(m.names, ns.name)
	m.unlinkName(ns)
	m.freeName(ns)
}

// maxFreeNames bounds the deleted name states kept for reuse.
const maxFreeNames = 64

// freeName keeps a deleted name state for reuse by newNameState. Nothing
// refers to it any more: it has no requests or locks (entries that were in
// it are released or aborted and only look at their own state first), and
// it is in no list or map of the manager. It stays marked dropped until
// reused, so that a caller still holding it (forceRelease's loop over the
// names it collected) leaves it alone.
func (m *LockManager) freeName(ns *nameState) {
	if m.freeCount >= maxFreeNames {
		return
	}
	*ns = nameState{inext: m.freeNames, dropped: true}
	m.freeNames = ns
	m.freeCount++
}

// newNameState returns a zero name state, a deleted one when there is one.
func (m *LockManager) newNameState() *nameState {
	ns := m.freeNames
	if ns == nil {
		return &nameState{}
	}
	m.freeNames = ns.inext
	m.freeCount--
	ns.inext, ns.dropped = nil, false
	return ns
}

// unlinkName removes an idle name state from every list but the names map.
func (m *LockManager) unlinkName(ns *nameState) {
	m.unlinkIdle(ns)
	ns.dropped = true
	m.slots[ns.slot] = nameSlot{}
	m.slotsDead++
	if ns.prev != nil {
		ns.prev.next = ns.next
	} else {
		m.firstName = ns.next
	}
	if ns.next != nil {
		ns.next.prev = ns.prev
	} else {
		m.lastName = ns.prev
	}
	ns.prev, ns.next = nil, nil
}

// grantable reports whether request is grantable, given the nameState of
// its name.
func (m *LockManager) grantable(ns *nameState, request *entry) bool {
	// 1.-6. manager, queueMap, name, queue (ns), held, mode.
	// 7. If queue is not empty and request is not the first item in queue,
	//    then return false.
	if ns.queueLen != 0 && ns.queueHead != request {
		return false
	}
	// 8. If mode is "exclusive", then return true if no lock in held has
	//    name equal to name, and false otherwise.
	if request.lock.mode == Exclusive {
		return ns.heldCount == 0
	}
	// 9. Otherwise, mode is "shared"; return true if no lock in held has
	//    mode "exclusive" and has name equal to name, and false otherwise.
	return ns.heldExclusive == 0
}

// requestALockSteps are the steps "request a lock" enqueues on the lock
// task queue (its step 3).
func (m *LockManager) requestALockSteps(e *entry) {
	if e.client.terminated {
		// The client's termination steps already ran (its agent was
		// terminated from another goroutine while it was requesting): the
		// request would never be released. Drop it.
		abandon(e)
		return
	}
	// 1. Let queueMap be manager's lock request queue map.
	// 2. Let queue be the result of getting the lock request queue from
	//    queueMap for name.
	ns := m.getTheLockRequestQueue(e.lock.name)
	// 3. Let held be manager's held lock set.
	// 4. If steal is true, then run these steps:
	if e.steal {
		// 1. For each lock of held:
		//    1. If lock's name is name, then run these steps:
		for lock := ns.heldHead; lock != nil; {
			next := lock.next
			// 1. Remove lock from held.
			m.removeHeld(lock)
			lock.state = entryReleased
			if m.svc != nil {
				m.notify(EventStolen, lock)
			}
			// 2. Reject lock's released promise with an "AbortError"
			//    DOMException. (Queued as a task on the lock's event loop:
			//    promises belong to their event loop.)
			lock.deliverLoss(OutcomeRevoked, stolenError())
			lock = next
		}
		// 2. Prepend request in queue.
		m.prepend(ns, e)
	} else {
		// 5. Otherwise, run these steps:
		// 1. If ifAvailable is true and request is not grantable, then
		//    enqueue the following steps on callback's relevant settings
		//    object's responsible event loop:
		if e.ifAvailable && !m.grantable(ns, e) {
			e.deliverNotAvailable()
			// ... and abort these steps.
			m.dropIfEmpty(ns)
			return
		}
		// 2. Enqueue request in queue.
		m.enqueue(ns, e)
		// (A lock held by a back/forward-cached document is contended:
		// the document is evicted, bfcache.go.)
		if !m.grantable(ns, e) {
			m.evictCachedHolders(ns, e.client)
		}
	}
	// 6. Process the lock request queue queue.
	m.processTheLockRequestQueue(ns)
	m.dropIfEmpty(ns)
}

// releaseTheLock implements "release the lock" lock.
func (m *LockManager) releaseTheLock(lock *entry) {
	// 1. Assert: these steps are running on the lock task queue.
	// 2. Let manager be lock's manager. 3. Let queueMap be manager's lock
	//    request queue map. 4. Let name be lock's resource name.
	// 5. Let queue be the result of getting the lock request queue from
	//    queueMap for name.
	// 6. Remove lock from the manager's held lock set.
	if lock.state == entryHeld {
		ns := lock.ns
		m.removeHeld(lock)
		lock.state = entryReleased
		if m.svc != nil {
			m.notify(EventReleased, lock)
		}
		// 7. Process the lock request queue queue.
		m.processTheLockRequestQueue(ns)
		m.dropIfEmpty(ns)
		return
	}
	// The lock is no longer held (it was stolen or already released):
	// removing it changes nothing, and processing its queue grants nothing,
	// since every queue is left with a non-grantable head by every step.
}

// abortTheRequest implements "abort the request" request.
func (m *LockManager) abortTheRequest(request *entry) {
	// 1. Assert: these steps are running on the lock task queue.
	// 2.-5. manager, name, queueMap, queue.
	// 6. Remove request from queue.
	if request.state == entryQueued {
		ns := request.ns
		m.unlinkQueued(request)
		unlinkClient(request)
		request.state = entryAborted
		if m.svc != nil {
			m.notify(EventAborted, request)
		}
		// 7. Process the lock request queue queue.
		m.processTheLockRequestQueue(ns)
		m.dropIfEmpty(ns)
	}
	// A request that is no longer queued was granted (or aborted) already:
	// removing it changes nothing, and processing grants nothing.
}

// processTheLockRequestQueue implements "process the lock request queue"
// queue (the queue of ns).
func (m *LockManager) processTheLockRequestQueue(ns *nameState) {
	// 1. Assert: these steps are running on the lock task queue.
	// 2. For each request of queue:
	for ns.queueHead != nil {
		request := ns.queueHead
		// 1. If request is not grantable, then return.
		if !m.grantable(ns, request) {
			return
		}
		// 2. Remove request from queue.
		m.unlinkQueued(request)
		// 3.-10. agent, manager, clientId, name, mode, callback, p, signal.
		// 11. Let waiting be a new promise. (The callback makes it.)
		// 12. Let lock be a new lock with agent, clientId, manager, mode,
		//     name, released promise p and waiting promise waiting.
		lock := request
		// 13. Append lock to manager's held lock set.
		m.appendHeld(ns, lock)
		if m.svc != nil {
			m.notify(EventGranted, lock)
		}
		// 14. Enqueue the following steps on callback's relevant settings
		//     object's responsible event loop:
		lock.deliverGranted()
		// (Granted to a context of a back/forward-cached document: the
		// document is evicted, bfcache.go.)
		evictCachedGrantee(lock)
	}
}

// snapshotTheLockState implements "snapshot the lock state" for manager,
// into s, whose storage is reused (see QueryInto); the result is handed to
// resolve, which queues the promise's resolution.
func (m *LockManager) snapshotTheLockState(s *Snapshot) {
	// 1. Assert: these steps are running on the lock task queue.
	// 2. Let pending be a new list.
	// 3. For each queue of manager's lock request queue map's values:
	//    1. For each request of queue: append «[ "name", "mode",
	//       "clientId" ]» to pending.
	// 4. Let held be a new list.
	// 5. For each lock of manager's held lock set: append «[ "name",
	//    "mode", "clientId" ]» to held.
	// (Both lists are flat, see LockList: one record per entry, and a
	// names table and the manager's client ids that both lists share, with
	// each name once, as its name state's own string. A reused snapshot's
	// storage is kept: the larger of its lists' tables.)
	names, clients := s.Held.names, s.Held.clients
	if cap(s.Pending.names) > cap(names) {
		names = s.Pending.names
	}
	if cap(s.Pending.clients) > cap(clients) {
		clients = s.Pending.clients
	}
	oldNames, oldClients := len(names), len(clients)
	names, clients = names[:0], clients[:0]
	nq, nh := m.queuedTotal, m.heldTotal
	// A list's records are overwritten in place only when its tables are
	// too, in place: a copy of an earlier result then reads overwritten
	// entries (see QueryInto), never records naming entries beyond its
	// tables.
	var heldRecs, pendRecs []lockRec
	if nq == 0 && nh == 0 || cap(names) >= len(m.slots)-m.slotsDead && cap(clients) >= len(m.clientIDs) {
		if sameArray(s.Held.names, names) && sameArray(s.Held.clients, clients) {
			heldRecs = s.Held.recs[:0]
		}
		if sameArray(s.Pending.names, names) && sameArray(s.Pending.clients, clients) {
			pendRecs = s.Pending.recs[:0]
		}
	}
	if nq > 0 || nh > 0 {
		clients = append(clients, m.clientIDs...)
		// nidx[slot] is the index of the slot's name in names (-1: not
		// yet there), and base[slot] where the name's next pending
		// request goes (pending requests are grouped by name with a
		// counting sort).
		if cap(m.scratch) < 2*len(m.slots) {
			m.scratch = make([]int32, 2*len(m.slots))
		}
		nidx := m.scratch[:len(m.slots)]
		base := m.scratch[len(m.slots) : 2*len(m.slots)]
		off := int32(0)
		for i := range m.slots {
			nidx[i] = -1
			base[i] = off
			off += m.slots[i].queued
		}
		names = slices.Grow(names, len(m.slots)-m.slotsDead)
		heldRecs = slices.Grow(heldRecs, nh)
		for i := range m.held.recs {
			r := &m.held.recs[i]
			if r.slot < 0 {
				continue
			}
			k := nidx[r.slot]
			if k < 0 {
				k = int32(len(names))
				nidx[r.slot] = k
				names = append(names, m.slots[r.slot].name)
			}
			heldRecs = append(heldRecs, lockRec{name: uint32(k), cm: uint32(r.cm)})
		}
		pendRecs = slices.Grow(pendRecs, nq)[:nq]
		for i := range m.pend.recs {
			r := &m.pend.recs[i]
			if r.slot < 0 {
				continue
			}
			k := nidx[r.slot]
			if k < 0 {
				k = int32(len(names))
				nidx[r.slot] = k
				names = append(names, m.slots[r.slot].name)
			}
			p := base[r.slot]
			base[r.slot] = p + 1
			pendRecs[p] = lockRec{name: uint32(k), cm: uint32(r.cm)}
		}
	}
	// (What an earlier result held beyond this one is cleared, not to keep
	// it alive.)
	if oldNames > len(names) {
		clear(names[len(names):oldNames])
	}
	if oldClients > len(clients) {
		clear(clients[len(clients):oldClients])
	}
	s.Held = LockList{names: names, recs: heldRecs, clients: clients}
	s.Pending = LockList{names: names, recs: pendRecs, clients: clients}
	// 6. Resolve promise with «[ "held" → held, "pending" → pending ]».
}

// sameArray reports whether a and b are slices of the same array with the
// same capacity.
func sameArray[T any](a, b []T) bool {
	return cap(a) == cap(b) && (cap(a) == 0 || &a[:cap(a)][cap(a)-1] == &b[:cap(b)][cap(b)-1])
}

// terminateRemainingLocksAndRequests runs, on the lock task queue, the
// steps "terminate remaining locks and requests" enqueues, for the locks
// and requests of one client (environment) in every lock manager it used.
// See client for why the scope is a client rather than an agent.
func terminateRemainingLocksAndRequests(c *client) {
	for _, cs := range c.states {
		if m := cs.manager; m.svc != nil {
			if f := m.svc.observer.Load(); f != nil {
				(*f)(Event{Kind: EventTerminated, Manager: m, ClientID: c.id})
			}
		}
	}
	// (The names emptied by this termination are deleted at once at the
	// end, see trimIdle.)
	for _, cs := range c.states {
		cs.manager.batching = true
	}
	// 1. For each lock request request with agent equal to agent:
	//    1. Abort the request request.
	for _, r := range c.entriesIn(entryQueued) {
		r.manager.abortTheRequest(r)
		abandon(r)
	}
	// 2. For each lock lock with agent equal to agent:
	//    1. Release the lock lock.
	for _, l := range c.entriesIn(entryHeld) {
		l.manager.releaseTheLock(l)
		abandon(l)
	}
	for _, cs := range c.states {
		m := cs.manager
		m.batching = false
		m.trimIdle()
		delete(m.clients, c)
		m.clientIDs[cs.idx] = ""
		m.clientStates[cs.idx] = nil
		m.freeClients = append(m.freeClients, cs.idx)
	}
	c.states, c.last = nil, nil
	c.terminated = true
}

// entriesIn lists the client's requests (entryQueued) or locks (entryHeld)
// in every lock manager it used, in the order they were made. (The spec
// leaves the order open; a client's list keeps it within one manager, and
// the sequence numbers across managers.)
func (c *client) entriesIn(state uint8) []*entry {
	var out []*entry
	for _, cs := range c.states {
		for e := cs.head; e != nil; e = e.cnext {
			if e.state == state {
				out = append(out, e)
			}
		}
	}
	if len(c.states) > 1 {
		// (Wrap-around safe: a client's live entries span far fewer than
		// 2^31 requests.)
		sort.Slice(out, func(i, j int) bool { return int32(out[i].seq-out[j].seq) < 0 })
	}
	return out
}

// ---- list plumbing (all on the lock task queue) ----

func (m *LockManager) clientStateFor(c *client) *clientState {
	if cs := c.last; cs != nil && cs.manager == m {
		return cs
	}
	cs := m.clients[c]
	if cs == nil {
		cs = &clientState{manager: m, client: c}
		if n := len(m.freeClients); n > 0 {
			cs.idx = m.freeClients[n-1]
			m.freeClients = m.freeClients[:n-1]
			m.clientIDs[cs.idx] = c.id
			m.clientStates[cs.idx] = cs
		} else {
			cs.idx = int32(len(m.clientIDs))
			m.clientIDs = append(m.clientIDs, c.id)
			m.clientStates = append(m.clientStates, cs)
		}
		m.clients[c] = cs
		c.states = append(c.states, cs)
	}
	c.last = cs
	return cs
}

func (m *LockManager) linkClient(e *entry) {
	cs := m.clientStateFor(e.client)
	e.cs = cs
	e.cprev = cs.tail
	if cs.tail != nil {
		cs.tail.cnext = e
	} else {
		cs.head = e
	}
	cs.tail = e
}

func unlinkClient(e *entry) {
	cs := e.cs
	if e.cprev != nil {
		e.cprev.cnext = e.cnext
	} else {
		cs.head = e.cnext
	}
	if e.cnext != nil {
		e.cnext.cprev = e.cprev
	} else {
		cs.tail = e.cprev
	}
	e.cprev, e.cnext, e.cs = nil, nil, nil
}

func (m *LockManager) enqueue(ns *nameState, e *entry) {
	e.state, e.ns = entryQueued, ns
	e.client.seq++
	e.seq = e.client.seq
	e.prev, e.next = ns.queueTail, nil
	if ns.queueTail != nil {
		ns.queueTail.next = e
	} else {
		ns.queueHead = e
	}
	ns.queueTail = e
	ns.queueLen++
	m.queuedTotal++
	m.linkClient(e)
	m.addPending(ns, e)
}

func (m *LockManager) prepend(ns *nameState, e *entry) {
	e.state, e.ns = entryQueued, ns
	e.client.seq++
	e.seq = e.client.seq
	e.prev, e.next = nil, ns.queueHead
	if ns.queueHead != nil {
		ns.queueHead.prev = e
	} else {
		ns.queueTail = e
	}
	ns.queueHead = e
	ns.queueLen++
	m.queuedTotal++
	m.linkClient(e)
	// (Appended to pend out of its queue order: the caller grants it in
	// the same step, see LockManager.)
	m.addPending(ns, e)
}

// unlinkNameList removes e from one of its name's lists (the queue or the
// held list, which share the prev/next links) given that list's ends.
func unlinkNameList(e *entry, head, tail **entry) {
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		*head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		*tail = e.prev
	}
	e.prev, e.next = nil, nil
}

// unlinkQueued removes e from its queue. The client link stays: the caller
// either grants e (a lock stays in its client's list) or unlinks it.
func (m *LockManager) unlinkQueued(e *entry) {
	ns := e.ns
	unlinkNameList(e, &ns.queueHead, &ns.queueTail)
	ns.queueLen--
	m.queuedTotal--
	m.slots[ns.slot].queued--
	m.pend.remove(e, m.queuedTotal)
}

func (m *LockManager) appendHeld(ns *nameState, e *entry) {
	e.state = entryHeld
	e.prev, e.next = ns.heldTail, nil
	if ns.heldTail != nil {
		ns.heldTail.next = e
	} else {
		ns.heldHead = e
	}
	ns.heldTail = e
	ns.heldCount++
	m.heldTotal++
	if e.lock.mode == Exclusive {
		ns.heldExclusive++
	}
	m.held.add(e, ns.slot)
}

// removeHeld removes e from the held lock set and from its client's list.
func (m *LockManager) removeHeld(e *entry) {
	ns := e.ns
	unlinkNameList(e, &ns.heldHead, &ns.heldTail)
	ns.heldCount--
	m.heldTotal--
	if e.lock.mode == Exclusive {
		ns.heldExclusive--
	}
	m.held.remove(e, m.heldTotal)
	unlinkClient(e)
}

// minCompact is the least number of tombstones worth a compaction.
const minCompact = 32

// addPending appends e's record to pend (compacting it first if more than
// half of it is tombstones) and counts it in its name's slot.
func (m *LockManager) addPending(ns *nameState, e *entry) {
	m.pend.add(e, ns.slot)
	m.slots[ns.slot].queued++
}

// addSlot gives a new name state its slot at the end of slots (the name
// list's order), compacting slots first if its tombstones outnumber the
// live slots, queued requests and held locks (the compaction renumbers the
// slots and the records, so it stays O(1) amortized).
func (m *LockManager) addSlot(ns *nameState) {
	if m.slotsDead >= minCompact && m.slotsDead > len(m.slots)-m.slotsDead+m.queuedTotal+m.heldTotal {
		remap := make([]int32, len(m.slots))
		j := int32(0)
		for i, sl := range m.slots {
			if sl.ns != nil {
				m.slots[j] = sl
				sl.ns.slot = j
				remap[i] = j
				j++
			}
		}
		clear(m.slots[j:])
		m.slots = m.slots[:j]
		m.slotsDead = 0
		for _, recs := range [][]infoRec{m.held.recs, m.pend.recs} {
			for i := range recs {
				if r := &recs[i]; r.slot >= 0 {
					r.slot = remap[r.slot]
				}
			}
		}
	}
	ns.slot = int32(len(m.slots))
	m.slots = append(m.slots, nameSlot{ns: ns, name: ns.name})
}

// heldEntries lists the held lock set in grant order.
func (m *LockManager) heldEntries() []*entry {
	out := make([]*entry, 0, m.heldTotal)
	for _, e := range m.held.es {
		if e != nil {
			out = append(out, e)
		}
	}
	return out
}
