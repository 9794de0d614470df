package weblocks

import (
	"context"
	"errors"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/storage"
)

// This file holds the embedder hooks: what a browser (not a page) needs to
// inspect and clear the lock state of an origin, a storage key or a bucket,
// like Chromium's DevTools and Clear-Site-Data do, and an observer for
// tracing. None of it is in the Web Locks specification.

// EventKind says what happened to a lock or request (see Observer).
type EventKind uint8

const (
	// EventGranted: a request was granted; its lock is now held.
	EventGranted EventKind = iota + 1
	// EventReleased: a held lock was released (its waiting promise settled,
	// or its environment went away).
	EventReleased
	// EventAborted: a pending request was removed from its queue (its
	// signal aborted, or its environment went away).
	EventAborted
	// EventStolen: a held lock was stolen by a request with steal.
	EventStolen
	// EventTerminated: the environment ClientID went away; the aborts and
	// releases of its requests and locks follow.
	EventTerminated
	// EventForceReleased: the embedder force-released a held lock or a
	// pending request (ForceRelease).
	EventForceReleased
)

func (k EventKind) String() string {
	switch k {
	case EventGranted:
		return "granted"
	case EventReleased:
		return "released"
	case EventAborted:
		return "aborted"
	case EventStolen:
		return "stolen"
	case EventTerminated:
		return "terminated"
	case EventForceReleased:
		return "force-released"
	}
	return "unknown"
}

// Event is one observed change of a lock manager's state. Name and Mode
// are empty for EventTerminated.
type Event struct {
	Kind     EventKind
	Manager  *LockManager
	Name     Name
	Mode     Mode
	ClientID string // the environment that made the request
}

// Observer receives the events of every lock manager of a service, on
// the lock task queue, as they happen, in order. It must return quickly and
// must not block; it may hand the event to another goroutine or queue. It
// must not call back into this package synchronously.
type Observer func(Event)

// SetObserver makes obs the observer of the service's lock managers (nil:
// none). An unobserved service pays one nil check per event (see
// BenchmarkRequestReleaseObserved).
func (s *Service) SetObserver(obs Observer) {
	if obs == nil {
		s.observer.Store(nil)
		return
	}
	s.observer.Store(&obs)
}

// notify tells the observer, if any, about e (lock task queue).
func (m *LockManager) notify(kind EventKind, e *entry) {
	if f := m.svc.observer.Load(); f != nil {
		(*f)(Event{Kind: kind, Manager: m, Name: e.lock.name, Mode: e.lock.mode, ClientID: e.client.id})
	}
}

// ManagersOf returns the service's lock managers of the storage key key
// (one per bucket of key that used Web Locks), in creation order.
func (s *Service) ManagersOf(key storage.StorageKey) []*LockManager {
	var out []*LockManager
	for _, m := range s.Managers() {
		if m.StorageKey() == key {
			out = append(out, m)
		}
	}
	return out
}

// StorageKey returns the storage key of the manager's bucket.
func (m *LockManager) StorageKey() storage.StorageKey {
	if m == nil {
		return storage.StorageKey{}
	}
	return m.bucket.Key
}

// BucketName returns the name of the manager's bucket ("default" for the
// default bucket; "" for a manager of no bucket, in tests, or a nil one).
func (m *LockManager) BucketName() string {
	if m == nil {
		return ""
	}
	return m.bucket.Name
}

var errNoQueue = errors.New("weblocks: the lock task queue no longer runs (user agent closed)")

// onQueue runs f on the lock task queue and waits for it, or for ctx.
func (m *LockManager) onQueue(ctx context.Context, f func()) error {
	if m == nil {
		return errNilManager
	}
	done := make(chan struct{})
	if !m.ltq.Enqueue(func() { f(); close(done) }) {
		return errNoQueue
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Snapshot returns the manager's state as query() would report it, from
// the browser side (no environment needed). It waits for the lock task
// queue, or until ctx is done.
func (m *LockManager) Snapshot(ctx context.Context) (Snapshot, error) {
	// (Into a snapshot of its own: when ctx ends first, the steps may
	// still run later.)
	s := new(Snapshot)
	if err := m.onQueue(ctx, func() { m.snapshotTheLockState(s) }); err != nil {
		return Snapshot{}, err
	}
	return *s, nil
}

// ForceReleased is what ForceRelease did.
type ForceReleased struct {
	Locks    int // held locks released
	Requests int // pending requests removed
}

func forceReleasedError() *dom.DOMException {
	return dom.NewDOMException("The lock was released by the user agent.", dom.AbortError)
}

// ForceRelease releases every held lock and removes every pending request
// of the manager, from the browser side (Clear-Site-Data, DevTools). Like a
// steal, each holder's and requester's released promise rejects with an
// "AbortError" DOMException (on its event loop; a holder's callback is not
// told otherwise, and its later release changes nothing). Requests made
// after ForceRelease ran are not affected. It waits for the lock task
// queue, or until ctx is done (the release then still happens).
func (m *LockManager) ForceRelease(ctx context.Context) (ForceReleased, error) {
	var r ForceReleased
	err := m.onQueue(ctx, func() { r = m.forceRelease() })
	return r, err
}

// ForceReleaseStorageKey is ForceRelease for every bucket of key.
func (s *Service) ForceReleaseStorageKey(ctx context.Context, key storage.StorageKey) (ForceReleased, error) {
	var total ForceReleased
	for _, m := range s.ManagersOf(key) {
		r, err := m.ForceRelease(ctx)
		total.Locks += r.Locks
		total.Requests += r.Requests
		if err != nil {
			return total, err
		}
	}
	return total, nil
}

// forceRelease runs on the lock task queue: the requests first (so that no
// release grants them), each name's in queue order, then the held locks in
// grant order.
func (m *LockManager) forceRelease() ForceReleased {
	var r ForceReleased
	for ns := m.firstName; ns != nil; ns = ns.next {
		for e := ns.queueHead; e != nil; {
			next := e.next
			m.unlinkQueued(e)
			unlinkClient(e)
			e.state = entryAborted
			m.forced(e)
			r.Requests++
			e = next
		}
	}
	for _, l := range m.heldEntries() {
		m.removeHeld(l)
		l.state = entryReleased
		m.forced(l)
		r.Locks++
	}
	var names []*nameState
	for ns := m.firstName; ns != nil; ns = ns.next {
		names = append(names, ns)
	}
	for _, ns := range names {
		m.dropIfEmpty(ns)
	}
	return r
}

func (m *LockManager) forced(e *entry) {
	if m.svc != nil {
		m.notify(EventForceReleased, e)
	}
	kind := OutcomeAborted
	if e.state == entryReleased {
		kind = OutcomeRevoked
	}
	e.deliverLoss(kind, forceReleasedError())
}
