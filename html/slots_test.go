package html

import (
	"runtime"
	"sync"
	"testing"
	"weak"
)

func TestSlots(t *testing.T) {
	ua := NewUserAgent()
	defer ua.Close()
	env := mustOpen(t, ua, "https://a.test/").EnvironmentSettingsObject()
	a, b := NewSlot[int](), NewSlot[*int]()
	if v, ok := a.Lookup(env); ok || v != 0 || b.Get(env) != nil {
		t.Fatal("a fresh slot is empty")
	}
	a.Set(env, 7)
	x := 3
	b.Set(ua, &x)
	if a.Get(env) != 7 || b.Get(ua) != &x || b.Get(env) != nil || a.Get(ua) != 0 {
		t.Fatal("slots are per object and per slot")
	}
	a.Delete(env)
	if _, ok := a.Lookup(env); ok {
		t.Fatal("Delete")
	}
	// GetOrInit runs init once under contention.
	c := NewSlot[*int]()
	loop := env.ResponsibleEventLoop()
	var wg sync.WaitGroup
	var mu sync.Mutex
	inits, seen := 0, map[*int]bool{}
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := c.GetOrInit(loop, func() *int { mu.Lock(); inits++; mu.Unlock(); return new(int) })
			mu.Lock()
			seen[p] = true
			mu.Unlock()
		}()
	}
	wg.Wait()
	if inits != 1 || len(seen) != 1 {
		t.Fatalf("GetOrInit: %d inits, %d values", inits, len(seen))
	}
}

// A slot value does not keep its object alive (no package-level map).
func TestSlotValueDiesWithItsObject(t *testing.T) {
	s := NewSlot[*[64]byte]()
	w := func() weak.Pointer[UserAgent] {
		ua := NewUserAgent()
		s.Set(ua, new([64]byte))
		ua.Close()
		return weak.Make(ua)
	}()
	for i := 0; i < 10 && w.Value() != nil; i++ {
		runtime.GC()
	}
	if w.Value() != nil {
		t.Fatal("a user agent with a slot value was not collected")
	}
}
