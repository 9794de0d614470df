package html

import (
	"sync"
	"sync/atomic"
)

// Slot is a typed data slot: a place for another package's per-object
// state on the user agents, environment settings objects and event loops of
// this package (the analogue of a spec saying "each environment has an
// associated X"). A package makes one Slot per kind of state, usually in a
// package-level variable, and reads and writes it with Get, Set,
// GetOrInit and Delete. Slot values live and die with their object, so
// nothing needs a package-level map keyed by objects (which would keep
// them alive).
//
// Get is lock-free (an atomic load and an index); Set, GetOrInit (when it
// creates the value) and Delete take the object's slot lock. All are
// goroutine-safe.
type Slot[T any] struct {
	index int
}

var slotCount atomic.Int32

// NewSlot returns a new slot for values of type T.
func NewSlot[T any]() *Slot[T] {
	return &Slot[T]{index: int(slotCount.Add(1)) - 1}
}

// SlotHolder is an object with data slots: *UserAgent,
// *EnvironmentSettingsObject and *EventLoop.
type SlotHolder interface {
	slotTable() *slotTable
}

// slotTable holds an object's slot values, copied on write.
type slotTable struct {
	mu   sync.Mutex
	vals atomic.Pointer[[]any]
}

func (t *slotTable) load(i int) any {
	if p := t.vals.Load(); p != nil && i < len(*p) {
		return (*p)[i]
	}
	return nil
}

// storeLocked sets value i (nil deletes); the caller holds t.mu.
func (t *slotTable) storeLocked(i int, v any) {
	var old []any
	if p := t.vals.Load(); p != nil {
		old = *p
	}
	n := max(len(old), i+1)
	vals := make([]any, n)
	copy(vals, old)
	vals[i] = v
	t.vals.Store(&vals)
}

// Get returns the value in o's slot, or the zero T when there is none.
func (s *Slot[T]) Get(o SlotHolder) T {
	v, _ := s.Lookup(o)
	return v
}

// Lookup returns the value in o's slot and whether there is one.
func (s *Slot[T]) Lookup(o SlotHolder) (T, bool) {
	v, ok := o.slotTable().load(s.index).(T)
	return v, ok
}

// Set puts v in o's slot.
func (s *Slot[T]) Set(o SlotHolder, v T) {
	t := o.slotTable()
	t.mu.Lock()
	t.storeLocked(s.index, v)
	t.mu.Unlock()
}

// GetOrInit returns the value in o's slot, first setting it to init() if
// there is none. init runs at most once per object and slot (with o's slot
// lock held: it must not use o's slots).
func (s *Slot[T]) GetOrInit(o SlotHolder, init func() T) T {
	if v, ok := s.Lookup(o); ok {
		return v
	}
	t := o.slotTable()
	t.mu.Lock()
	defer t.mu.Unlock()
	if v, ok := t.load(s.index).(T); ok {
		return v
	}
	v := init()
	t.storeLocked(s.index, v)
	return v
}

// Delete empties o's slot.
func (s *Slot[T]) Delete(o SlotHolder) {
	t := o.slotTable()
	t.mu.Lock()
	if t.load(s.index) != nil {
		t.storeLocked(s.index, nil)
	}
	t.mu.Unlock()
}

func (ua *UserAgent) slotTable() *slotTable                { return &ua.slots }
func (e *EnvironmentSettingsObject) slotTable() *slotTable { return &e.slots }
func (l *EventLoop) slotTable() *slotTable                 { return &l.slots }
