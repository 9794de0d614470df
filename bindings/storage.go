package bindings

import (
	"errors"
	"sync"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/storage"
)

// This file implements the Storage interface of Web Storage
// (https://html.spec.whatwg.org/multipage/webstorage.html#the-storage-interface)
// for localStorage. Its map is the storage proxy map of the environment's
// "localStorage" bottle (storage.ObtainALocalStorageBottleMap); the
// bottle's associated storageOrder keeps the keys in insertion order,
// which key(n) needs. sessionStorage and the storage event are not
// implemented (bindings/doc.go).

type storageImpl struct {
	webidl.Reflector
	m     *storage.BottleMap
	order *storageOrder
	// area, when set, is where the map is (another process's: see
	// SetLocalStorageAreas); m and order are then nil.
	area StorageArea
}

func (s *storageImpl) WebIDLInterface() string { return "Storage" }

// storageOrder is the order of a bottle's keys (the map is ordered in
// the spec), shared by every Storage object over that bottle.
type storageOrder struct {
	mu   sync.Mutex
	keys []string
}

func newStorageImpl(m *storage.BottleMap) *storageImpl {
	o := m.Bottle().Associated(func() any { return &storageOrder{} }).(*storageOrder)
	return &storageImpl{m: m, order: o}
}

// Length is https://html.spec.whatwg.org/multipage/webstorage.html#dom-storage-length:
// this's map's size.
func (s *storageImpl) Length() (uint32, error) {
	if s.area != nil {
		return s.area.Length()
	}
	s.order.mu.Lock()
	defer s.order.mu.Unlock()
	return uint32(len(s.order.keys)), nil
}

// Key is https://html.spec.whatwg.org/multipage/webstorage.html#dom-storage-key
func (s *storageImpl) Key(index uint32) (webidl.Nullable[webidl.DOMString], error) {
	if s.area != nil {
		return s.areaKey(index)
	}
	s.order.mu.Lock()
	defer s.order.mu.Unlock()
	// 1. If index is greater than or equal to this's map's size, then
	//    return null.
	if int(index) >= len(s.order.keys) {
		return webidl.Null[webidl.DOMString](), nil
	}
	// 2. Let keys be the result of running get the keys on this's map.
	// 3. Return keys[index].
	return webidl.NonNull(webidl.DOMString(s.order.keys[index])), nil
}

// GetItem is https://html.spec.whatwg.org/multipage/webstorage.html#dom-storage-getitem
func (s *storageImpl) GetItem(key webidl.DOMString) (webidl.Nullable[webidl.DOMString], error) {
	if s.area != nil {
		return s.areaGetItem(key)
	}
	// 1. If this's map[key] does not exist, then return null.
	v, ok := s.m.Get(string(key))
	if !ok {
		return webidl.Null[webidl.DOMString](), nil
	}
	// 2. Return this's map[key].
	return webidl.NonNull(webidl.DOMString(v.(string))), nil
}

// SetItem is https://html.spec.whatwg.org/multipage/webstorage.html#dom-storage-setitem
func (s *storageImpl) SetItem(key, value webidl.DOMString) error {
	if s.area != nil {
		return s.area.SetItem(string(key), string(value))
	}
	s.order.mu.Lock()
	defer s.order.mu.Unlock()
	k, v := string(key), string(value)
	// 1. Let oldValue be null.
	// 2. Let reorder be true.
	// 3. If this's map[key] exists: set oldValue to it; if oldValue is
	//    value, then return; set reorder to false.
	old, exists := s.m.Get(k)
	if exists && old.(string) == v {
		return nil
	}
	// 4. If value cannot be stored, then throw a "QuotaExceededError"
	//    DOMException exception.
	if used := s.usedLocked(); used-storedSize(k, old, exists)+len(k)+len(v) > int(s.m.Bottle().Quota()) {
		return dom.NewDOMException("Setting the value of '"+k+"' exceeded the quota.", dom.QuotaExceededError)
	}
	// 5. Set this's map[key] to value.
	s.m.Set(k, v)
	// 6. If reorder is true, then reorder this.
	if !exists {
		s.order.keys = append(s.order.keys, k)
	}
	// 7. Broadcast this with key, oldValue, and value: no storage event
	//    (bindings/doc.go).
	return nil
}

// storedSize is the size that an existing entry counts against the quota.
func storedSize(k string, v any, exists bool) int {
	if !exists {
		return 0
	}
	return len(k) + len(v.(string))
}

// usedLocked is the size of the keys and values in the map, which the
// quota limits (the caller holds s.order.mu).
func (s *storageImpl) usedLocked() int {
	n := 0
	for _, k := range s.order.keys {
		if v, ok := s.m.Get(k); ok {
			n += len(k) + len(v.(string))
		}
	}
	return n
}

// RemoveItem is https://html.spec.whatwg.org/multipage/webstorage.html#dom-storage-removeitem
func (s *storageImpl) RemoveItem(key webidl.DOMString) error {
	if s.area != nil {
		return s.area.RemoveItem(string(key))
	}
	s.order.mu.Lock()
	defer s.order.mu.Unlock()
	k := string(key)
	// 1. If this's map[key] does not exist, then return.
	if _, ok := s.m.Get(k); !ok {
		return nil
	}
	// 2. Set oldValue to this's map[key].
	// 3. Remove this's map[key].
	s.m.Delete(k)
	// 4. Reorder this.
	for i, x := range s.order.keys {
		if x == k {
			s.order.keys = append(s.order.keys[:i:i], s.order.keys[i+1:]...)
			break
		}
	}
	// 5. Broadcast this with key, oldValue, and null: no storage event.
	return nil
}

// Clear is https://html.spec.whatwg.org/multipage/webstorage.html#dom-storage-clear
func (s *storageImpl) Clear() error {
	if s.area != nil {
		return s.area.Clear()
	}
	s.order.mu.Lock()
	defer s.order.mu.Unlock()
	// 1. If this's map is empty, then return.
	// 2. Clear this's map.
	for _, k := range s.order.keys {
		s.m.Delete(k)
	}
	s.order.keys = nil
	// 3. Broadcast this with null, null, and null: no storage event.
	return nil
}

// errStorageDenied is the SecurityError of
// https://html.spec.whatwg.org/multipage/webstorage.html#dom-localstorage
// step 4: the environment has no storage key (an opaque origin).
func errStorageDenied(err error) error {
	if errors.Is(err, storage.ErrUnknownEndpoint) {
		return err
	}
	return dom.NewDOMException("Access is denied for this document.", dom.SecurityError)
}
