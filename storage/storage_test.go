package storage

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gowebengine/weblocks/origin"
)

// env is a minimal storage.Environment: an origin embedded under a top-level origin.
type env struct {
	origin, top origin.Origin
	shed        *Shed
}

func (e env) StorageKey() (StorageKey, bool) {
	if e.origin.IsOpaque() {
		return StorageKey{}, false
	}
	return StorageKey{Origin: e.origin, TopLevelSite: origin.ObtainSite(e.top)}, true
}
func (e env) StorageShed() *Shed { return e.shed }

// fixedEnv computes its key once (as html's environments do).
type fixedEnv struct{ env }

var fixedKey = map[env]StorageKey{}

func (e fixedEnv) StorageKey() (StorageKey, bool) {
	k, ok := fixedKey[e.env]
	if !ok {
		k, _ = e.env.StorageKey()
		fixedKey[e.env] = k
	}
	return k, true
}

func newEnv(shed *Shed, o, top string) env {
	return env{origin: origin.Parse(o), top: origin.Parse(top), shed: shed}
}

func TestObtainBottleMapSameKeySameBottle(t *testing.T) {
	shed := NewShed()
	a := newEnv(shed, "https://a.test", "https://a.test")
	a2 := newEnv(shed, "https://a.test:443", "https://www.a.test")
	m1, err := ObtainALocalStorageBottleMap(a, WebLocks)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := ObtainALocalStorageBottleMap(a2, WebLocks)
	if err != nil {
		t.Fatal(err)
	}
	if m1.Bottle() != m2.Bottle() || m1 != m2 {
		t.Fatal("same storage key must give the same bottle (and proxy)")
	}
	if m1.Bottle().Identifier() != WebLocks || m1.Bottle().Bucket().Name() != DefaultBucket ||
		m1.Bottle().Bucket().Mode() != "best-effort" || m1.Bottle().Bucket().Shelf().Key().Origin != origin.Parse("https://a.test") {
		t.Fatal("bottle metadata")
	}
	calls := 0
	v1 := m1.Bottle().Associated(func() any { calls++; return &struct{ n int }{1} })
	v2 := m2.Bottle().Associated(func() any { calls++; return &struct{ n int }{2} })
	if v1 != v2 || calls != 1 {
		t.Fatal("Associated must create once")
	}
	if shed.Len() != 1 {
		t.Fatalf("shed has %d shelves, want 1", shed.Len())
	}
}

func TestPartitioning(t *testing.T) {
	shed := NewShed()
	first := newEnv(shed, "https://a.test", "https://a.test")
	third := newEnv(shed, "https://a.test", "https://b.test") // a.test embedded in b.test
	k1, _ := ObtainAStorageKey(first)
	k2, _ := ObtainAStorageKey(third)
	if k1 == k2 {
		t.Fatal("same origin under two top-level sites must give different storage keys")
	}
	m1, _ := ObtainALocalStorageBottleMap(first, WebLocks)
	m2, _ := ObtainALocalStorageBottleMap(third, WebLocks)
	if m1.Bottle() == m2.Bottle() {
		t.Fatal("third-party context shares first-party bottle")
	}
	other := newEnv(shed, "https://b.test", "https://b.test")
	m3, _ := ObtainALocalStorageBottleMap(other, WebLocks)
	if m3.Bottle() == m2.Bottle() {
		t.Fatal("different origins under the same top-level site share a bottle")
	}
	// Another user agent (another shed) never shares.
	m4, _ := ObtainALocalStorageBottleMap(newEnv(NewShed(), "https://a.test", "https://a.test"), WebLocks)
	if m4.Bottle() == m1.Bottle() {
		t.Fatal("sheds share bottles")
	}
	if !strings.Contains(k2.String(), "https://a.test ^ https://b.test") {
		t.Fatalf("String() = %q", k2.String())
	}
}

func TestOpaqueOriginFails(t *testing.T) {
	shed := NewShed()
	e := env{origin: origin.NewOpaque(), top: origin.Parse("https://a.test"), shed: shed}
	if _, err := ObtainALocalStorageBottleMap(e, WebLocks); !errors.Is(err, ErrNoStorageKey) {
		t.Fatalf("err = %v, want ErrNoStorageKey", err)
	}
	if _, err := ObtainAStorageKey(e); err == nil {
		t.Fatal("storage key for an opaque origin")
	}
	if _, err := ObtainALocalStorageShelf(e); err == nil {
		t.Fatal("shelf for an opaque origin")
	}
	if shed.Len() != 0 {
		t.Fatal("failure must not create a shelf")
	}
	// An opaque top-level site is fine (its origin is a tuple).
	e2 := env{origin: origin.Parse("https://a.test"), top: origin.NewOpaque(), shed: shed}
	if _, err := ObtainALocalStorageBottleMap(e2, WebLocks); err != nil {
		t.Fatal(err)
	}
}

func TestUnknownEndpointAndSession(t *testing.T) {
	e := newEnv(NewShed(), "https://a.test", "https://a.test")
	if _, err := ObtainALocalStorageBottleMap(e, "nope"); !errors.Is(err, ErrUnknownEndpoint) {
		t.Fatal(err)
	}
	// sessionStorage is a session endpoint: not in local buckets.
	if _, err := ObtainALocalStorageBottleMap(e, "sessionStorage"); !errors.Is(err, ErrUnknownEndpoint) {
		t.Fatal(err)
	}
	if _, err := ObtainAStorageBottleMap(Session, e, "sessionStorage"); err == nil {
		t.Fatal("session sheds are not modelled and must say so")
	}
	for _, id := range []string{"caches", "indexedDB", "localStorage", "serviceWorkerRegistrations", WebLocks} {
		m, err := ObtainALocalStorageBottleMap(e, id)
		if err != nil || m.Bottle().Identifier() != id {
			t.Fatalf("%s: %v", id, err)
		}
	}
	m, _ := ObtainALocalStorageBottleMap(e, "localStorage")
	if m.Bottle().Quota() != 5<<20 {
		t.Fatal("localStorage quota")
	}
}

func TestBottleMapAccess(t *testing.T) {
	m, _ := ObtainALocalStorageBottleMap(newEnv(NewShed(), "https://a.test", "https://a.test"), "localStorage")
	m.Set("k", "v")
	if v, ok := m.Get("k"); !ok || v != "v" || m.Len() != 1 {
		t.Fatal("get/set")
	}
	m.Delete("k")
	if _, ok := m.Get("k"); ok || m.Len() != 0 || m.Bottle().items != nil {
		t.Fatal("delete must leave no state behind")
	}
}

func TestValidateBucketName(t *testing.T) {
	good := []string{"a", "inbox", "drafts-2", "x_y", "0abc", strings.Repeat("a", 64), "default"}
	bad := []string{"", "-a", "_a", "A", "abc!", "ab c", "é", strings.Repeat("a", 65), "a.b"}
	for _, n := range good {
		if err := ValidateBucketName(n); err != nil {
			t.Errorf("%q rejected: %v", n, err)
		}
	}
	for _, n := range bad {
		if err := ValidateBucketName(n); !errors.Is(err, ErrInvalidBucketName) {
			t.Errorf("%q accepted", n)
		}
	}
}

func TestNamedBuckets(t *testing.T) {
	e := newEnv(NewShed(), "https://a.test", "https://a.test")
	shelf, err := ObtainALocalStorageShelf(e)
	if err != nil {
		t.Fatal(err)
	}
	inbox, err := shelf.OpenBucket("inbox")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := shelf.OpenBucket("inbox")
	if inbox != again {
		t.Fatal("open twice gives two buckets")
	}
	def := shelf.Bucket(DefaultBucket)
	if inbox.Bottle(WebLocks) == nil || inbox.Bottle(WebLocks) == def.Bottle(WebLocks) {
		t.Fatal("named bucket must have its own web-locks bottle")
	}
	if _, err := shelf.OpenBucket("Bad"); err == nil {
		t.Fatal("invalid name accepted")
	}
	if got := fmt.Sprint(shelf.BucketNames()); got != "[default inbox]" {
		t.Fatal(got)
	}
	if ok, err := shelf.DeleteBucket("inbox"); !ok || err != nil {
		t.Fatal("delete", ok, err)
	}
	if ok, _ := shelf.DeleteBucket("inbox"); ok {
		t.Fatal("deleted twice")
	}
	if _, err := shelf.DeleteBucket(DefaultBucket); err == nil {
		t.Fatal("deleted the default bucket")
	}
	if shelf.Bucket("inbox") != nil {
		t.Fatal("bucket still there")
	}
	fresh, _ := shelf.OpenBucket("inbox")
	if fresh == inbox {
		t.Fatal("re-opened bucket must be new")
	}
}

func TestConcurrentObtain(t *testing.T) {
	shed := NewShed()
	const G = 8
	results := make([][]*Bottle, G)
	var wg sync.WaitGroup
	for g := 0; g < G; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				e := newEnv(shed, fmt.Sprintf("https://o%d.test", i%10), fmt.Sprintf("https://t%d.test", i%3))
				m, err := ObtainALocalStorageBottleMap(e, WebLocks)
				if err != nil {
					t.Error(err)
					return
				}
				m.Bottle().Associated(func() any { return new(int) })
				results[g] = append(results[g], m.Bottle())
				sh, _ := ObtainALocalStorageShelf(e)
				sh.OpenBucket(fmt.Sprintf("b%d", i%4))
			}
		}(g)
	}
	wg.Wait()
	for g := 1; g < G; g++ {
		for i := range results[0] {
			if results[g][i] != results[0][i] {
				t.Fatal("goroutines got different bottles for the same key")
			}
			if results[g][i].Associated(nil) != results[0][i].Associated(nil) {
				t.Fatal("different associated values")
			}
		}
	}
	if shed.Len() != 30 {
		t.Fatalf("shelves = %d, want 30", shed.Len())
	}
}

func TestRepeatedObtainDoesNotGrow(t *testing.T) {
	shed := NewShed()
	var e Environment = fixedEnv{newEnv(shed, "https://a.test", "https://a.test")}
	first, _ := ObtainALocalStorageBottleMap(e, WebLocks)
	allocs := testing.AllocsPerRun(1000, func() {
		m, _ := ObtainALocalStorageBottleMap(e, WebLocks)
		if m != first {
			t.Fatal("different proxy")
		}
	})
	if allocs != 0 {
		t.Fatalf("obtaining an existing bottle map allocates %v times", allocs)
	}
	if shed.Len() != 1 {
		t.Fatal("shed grew")
	}
}

func ExampleObtainALocalStorageBottleMap() {
	shed := NewShed()
	// https://a.test as a first-party page and as an iframe in https://b.test.
	first := newEnv(shed, "https://a.test", "https://a.test")
	third := newEnv(shed, "https://a.test", "https://b.test")
	m1, _ := ObtainALocalStorageBottleMap(first, WebLocks)
	m2, _ := ObtainALocalStorageBottleMap(third, WebLocks)
	_, err := ObtainALocalStorageBottleMap(env{origin: origin.NewOpaque(), shed: shed}, WebLocks)
	// Each web-locks bottle holds one lock manager (any value, created once).
	type lockManager struct{}
	lm := m1.Bottle().Associated(func() any { return new(lockManager) })
	fmt.Println(m1.Bottle() == m2.Bottle(), lm == m1.Bottle().Associated(nil), err != nil)
	// Output: false true true
}

// collect runs the garbage collector until cond holds (cleanups run on
// their own goroutine after a cycle).
func collect(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for i := 0; i < 200; i++ {
		runtime.GC()
		if cond() {
			return
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("after GC: %s", what)
}

func TestUnusedShelvesAreNotKept(t *testing.T) {
	shed := NewShed()
	for i := 0; i < 5000; i++ {
		e := newEnv(shed, fmt.Sprintf("https://o%d.test", i), "https://top.test")
		m, err := ObtainALocalStorageBottleMap(e, "indexedDB")
		if err != nil || m.Bottle() == nil {
			t.Fatal(err)
		}
	}
	collect(t, "unused empty shelves must go", func() bool { return shed.entries() == 0 && shed.Len() == 0 })
}

func TestPinnedShelvesStay(t *testing.T) {
	shed := NewShed()
	e := func(o string) env { return newEnv(shed, o, o) }
	// A value created with Associated pins the shelf for good.
	m, _ := ObtainALocalStorageBottleMap(e("https://legacy.test"), WebLocks)
	v := m.Bottle().Associated(func() any { return new(int) })
	// Items pin; deleting the last one unpins.
	ls, _ := ObtainALocalStorageBottleMap(e("https://items.test"), "localStorage")
	ls.Set("k", 1)
	// Pin / Unpin.
	pinned, _ := ObtainALocalStorageBottleMap(e("https://pinned.test"), WebLocks)
	pinned.Bottle().Pin()
	// Named buckets pin.
	shelf, _ := ObtainALocalStorageShelf(e("https://buckets.test"))
	shelf.OpenBucket("inbox")
	m, ls, pinned, shelf = nil, nil, nil, nil
	for i := 0; i < 5; i++ {
		runtime.GC()
	}
	if shed.Len() != 4 {
		t.Fatalf("%d shelves kept, want 4", shed.Len())
	}
	m2, _ := ObtainALocalStorageBottleMap(e("https://legacy.test"), WebLocks)
	if m2.Bottle().Associated(func() any { return "new" }) != v {
		t.Fatal("pinned shelf was recreated")
	}
	ls2, _ := ObtainALocalStorageBottleMap(e("https://items.test"), "localStorage")
	if x, ok := ls2.Get("k"); !ok || x != 1 {
		t.Fatal("items lost")
	}
	ls2.Delete("k")
	ls2 = nil
	p2, _ := ObtainALocalStorageBottleMap(e("https://pinned.test"), WebLocks)
	p2.Bottle().Unpin()
	p2 = nil
	sh2, _ := ObtainALocalStorageShelf(e("https://buckets.test"))
	if sh2.Bucket("inbox") == nil {
		t.Fatal("named bucket lost")
	}
	sh2.DeleteBucket("inbox")
	sh2 = nil
	m2 = nil
	collect(t, "unpinned shelves must go", func() bool { return shed.Len() == 1 })
}

func TestAssociatedWithBottleLivesWithItsValue(t *testing.T) {
	shed := NewShed()
	en := newEnv(shed, "https://a.test", "https://a.test")
	type manager struct {
		bottle *Bottle
		n      int
	}
	obtain := func() *manager {
		m, err := ObtainALocalStorageBottleMap(en, WebLocks)
		if err != nil {
			t.Fatal(err)
		}
		return m.Bottle().AssociatedWithBottle(func(b *Bottle) any { return &manager{bottle: b} }).(*manager)
	}
	kept := obtain()
	kept.n = 42
	for i := 0; i < 5; i++ {
		runtime.GC()
	}
	if again := obtain(); again != kept {
		t.Fatal("a reachable value's shelf was dropped: two values for one key")
	}
	kept = nil
	collect(t, "shelf of an unreachable value must go", func() bool { return shed.Len() == 0 })
	if fresh := obtain(); fresh.n != 0 {
		t.Fatal("stale value")
	}
}
