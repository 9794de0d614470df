package weblocks

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gowebengine/weblocks/weblocks/internal/lockdebug"
)

// This file holds the lock managers' internal consistency checks, for
// tests: this package's own, and, through package lockdebug, those of the
// hosts (htmlhost's differential test).

func init() {
	lockdebug.CheckInvariants = func(m any) error { return checkInvariants(m.(*LockManager)) }
	lockdebug.Describe = func(m any, tag func(any) int) string { return describeManager(m.(*LockManager), tag) }
	lockdebug.Sizes = func(m any) (int, int, int) {
		lm := m.(*LockManager)
		return len(lm.names), len(lm.clients), lm.heldTotal
	}
}

// checkInvariants checks the manager's internal bookkeeping: no empty name
// state is kept, counts match the lists, every queue head is not grantable.
func checkInvariants(m *LockManager) error {
	if m == nil {
		return nil
	}
	n := 0
	for ns := m.firstName; ns != nil; ns = ns.next {
		n++
		if m.names[ns.name] != ns {
			return fmt.Errorf("name %q: listed but not in the map", ns.name)
		}
		if (ns.queueLen == 0 && ns.heldCount == 0) != ns.idle {
			return fmt.Errorf("name %q: empty state not on the idle list (or vice versa)", ns.name)
		}
		q, hc, he := 0, 0, 0
		for e := ns.queueHead; e != nil; e = e.next {
			q++
			if e.state != entryQueued || e.ns != ns {
				return fmt.Errorf("name %q: queued entry in state %d", ns.name, e.state)
			}
		}
		for e := ns.heldHead; e != nil; e = e.next {
			hc++
			if e.lock.mode == Exclusive {
				he++
			}
			if e.state != entryHeld {
				return fmt.Errorf("name %q: held entry in state %d", ns.name, e.state)
			}
		}
		if q != ns.queueLen || hc != ns.heldCount || he != ns.heldExclusive {
			return fmt.Errorf("name %q: counts %d/%d/%d, lists %d/%d/%d", ns.name, ns.queueLen, ns.heldCount, ns.heldExclusive, q, hc, he)
		}
		if ns.queueHead != nil && m.grantable(ns, ns.queueHead) {
			return fmt.Errorf("name %q: grantable head left in the queue", ns.name)
		}
	}
	if n != len(m.names) {
		return fmt.Errorf("%d names listed, %d in the map", n, len(m.names))
	}
	tq, th := 0, 0
	for ns := m.firstName; ns != nil; ns = ns.next {
		tq += ns.queueLen
		th += ns.heldCount
	}
	if tq != m.queuedTotal || th != m.heldTotal {
		return fmt.Errorf("totals %d queued %d held, counted %d %d", m.queuedTotal, m.heldTotal, tq, th)
	}
	if err := checkRecords(m); err != nil {
		return err
	}
	idle := 0
	for ns := m.firstIdle; ns != nil; ns = ns.inext {
		idle++
		if !ns.idle || m.names[ns.name] != ns {
			return fmt.Errorf("idle list holds %q wrongly", ns.name)
		}
	}
	if idle != m.idleCount || idle > maxIdleNames {
		return fmt.Errorf("%d idle names, counted %d, max %d", idle, m.idleCount, maxIdleNames)
	}
	for cl, cs := range m.clients {
		for e := cs.head; e != nil; e = e.cnext {
			if e.client != cl || e.cs != cs || (e.state != entryQueued && e.state != entryHeld) {
				return fmt.Errorf("client list holds an entry in state %d", e.state)
			}
		}
	}
	return nil
}

// checkRecords checks the dense records query() reads against the lists:
// every live record points at an entry in the right state that knows its
// index, the counts and slots match, and each name's records are in its
// queue's order.
func checkRecords(m *LockManager) error {
	for _, c := range []struct {
		recs  records
		total int
		state uint8
	}{{m.held, m.heldTotal, entryHeld}, {m.pend, m.queuedTotal, entryQueued}} {
		live := 0
		if len(c.recs.recs) != len(c.recs.es) {
			return fmt.Errorf("%d records, %d entries", len(c.recs.recs), len(c.recs.es))
		}
		for i, r := range c.recs.recs {
			e := c.recs.es[i]
			if e == nil {
				if r.slot != -1 {
					return fmt.Errorf("tombstone %d (state %d) has slot %d", i, c.state, r.slot)
				}
				continue
			}
			live++
			if e.state != c.state || int(e.idx) != i || m.slots[r.slot].name != e.lock.name || m.slots[r.slot].ns != e.ns || Mode(r.cm&1) != e.lock.mode || m.clientIDs[r.cm>>1] != e.client.id {
				return fmt.Errorf("record %d (state %d) does not match its entry", i, c.state)
			}
		}
		if live != c.total || live+c.recs.dead != len(c.recs.recs) {
			return fmt.Errorf("records: %d live + %d dead of %d, total %d", live, c.recs.dead, len(c.recs.recs), c.total)
		}
	}
	dead := 0
	for i, sl := range m.slots {
		if sl.ns == nil {
			dead++
			if sl.queued != 0 || sl.name != "" {
				return fmt.Errorf("dead slot %d counts %d requests", i, sl.queued)
			}
			continue
		}
		if int(sl.ns.slot) != i || int(sl.queued) != sl.ns.queueLen || sl.name != sl.ns.name {
			return fmt.Errorf("slot %d does not match name %q", i, sl.ns.name)
		}
	}
	if dead != m.slotsDead || len(m.slots)-dead != len(m.names) {
		return fmt.Errorf("slots: %d dead (counted %d), %d live, %d names", dead, m.slotsDead, len(m.slots)-dead, len(m.names))
	}
	next := map[*nameState]*entry{}
	for ns := m.firstName; ns != nil; ns = ns.next {
		next[ns] = ns.queueHead
	}
	for i, r := range m.pend.recs {
		e := m.pend.es[i]
		if e == nil {
			continue
		}
		if m.slots[r.slot].ns != e.ns || next[e.ns] != e {
			return fmt.Errorf("pending record %d out of its queue's order", i)
		}
		next[e.ns] = e.next
	}
	return nil
}

// describeManager renders a manager's held lock set (in order) and its
// non-empty queues (by name).
func describeManager(m *LockManager, tag func(promise any) int) string {
	if m == nil {
		return "held[] queues[]"
	}
	var b strings.Builder
	b.WriteString("held[")
	for _, l := range m.heldEntries() {
		fmt.Fprintf(&b, "%d ", tagOf(l, tag))
	}
	b.WriteString("] queues[")
	var names []string
	for n, ns := range m.names {
		if ns.queueLen > 0 {
			names = append(names, string(n))
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(&b, "%q:", n)
		for r := m.names[Name(n)].queueHead; r != nil; r = r.next {
			fmt.Fprintf(&b, "%d,", tagOf(r, tag))
		}
		b.WriteString(" ")
	}
	b.WriteString("]")
	return b.String()
}

// tagOf applies tag to the promise of the page side's request of e.
func tagOf(e *entry, tag func(any) int) int {
	if r, ok := e.recv.(*PageRequest); ok {
		return tag(r.p)
	}
	return tag(nil)
}
