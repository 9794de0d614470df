package storage

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"weak"

	"github.com/gowebengine/weblocks/origin"
)

// StorageKey is the Storage Standard's storage key, partitioned by the
// top-level site (Client-Side Storage Partitioning): the same origin
// embedded under two different top-level sites gets two different keys.
// HasCrossSiteAncestor is the partitioning's "ancestor chain bit": a frame
// with a cross-site ancestor (a.test inside b.test inside a.test) is kept
// apart from the first-party a.test even though its origin and top-level
// site match. StorageKey is comparable and used as a map key.
type StorageKey struct {
	Origin               origin.Origin
	TopLevelSite         origin.Site
	HasCrossSiteAncestor bool
}

// String is a debugging representation "origin ^ top-level site" (with
// " ^ cross-site ancestor" when the bit is set).
func (k StorageKey) String() string {
	s := k.Origin.String() + " ^ " + k.TopLevelSite.String()
	if k.HasCrossSiteAncestor {
		s += " ^ cross-site ancestor"
	}
	return s
}

// Environment is what the Storage Standard needs from an environment
// (html.EnvironmentSettingsObject implements it).
type Environment interface {
	// StorageKey is "obtain a storage key": it returns false (failure) when
	// the environment's origin is opaque or storage is disabled for it.
	StorageKey() (StorageKey, bool)
	// StorageShed is the user agent's storage shed.
	StorageShed() *Shed
}

// StorageType is a storage type: "local" or "session".
type StorageType string

const (
	Local   StorageType = "local"
	Session StorageType = "session"
)

// Endpoint is a registered storage endpoint.
type Endpoint struct {
	Identifier string
	Types      []StorageType
	Quota      int64 // 0 = no quota (null)
}

// registry is the list of registered storage endpoints: the Storage
// Standard's own table, then those other specifications register with
// RegisterEndpoint (Web Locks: package weblocks registers "web-locks").
var registry = struct {
	mu   sync.RWMutex
	list []Endpoint
}{list: []Endpoint{
	{Identifier: "caches", Types: []StorageType{Local}},
	{Identifier: "indexedDB", Types: []StorageType{Local}},
	{Identifier: "localStorage", Types: []StorageType{Local}, Quota: 5 << 20},
	{Identifier: "serviceWorkerRegistrations", Types: []StorageType{Local}},
	{Identifier: "sessionStorage", Types: []StorageType{Session}, Quota: 5 << 20},
}}

// RegisterEndpoint adds a storage endpoint to the registered storage
// endpoints. The package of the specification that defines the endpoint
// calls it once, from an init function: buckets created before it only
// have the endpoints registered then. It fails for an empty or already
// registered identifier, or an endpoint without types.
func RegisterEndpoint(ep Endpoint) error {
	if ep.Identifier == "" || len(ep.Types) == 0 {
		return fmt.Errorf("storage: RegisterEndpoint: endpoint %q needs an identifier and types", ep.Identifier)
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	for _, x := range registry.list {
		if x.Identifier == ep.Identifier {
			return fmt.Errorf("storage: endpoint %q is already registered", ep.Identifier)
		}
	}
	ep.Types = append([]StorageType(nil), ep.Types...)
	registry.list = append(registry.list, ep)
	return nil
}

// RegisteredEndpoints returns (a copy of) the registered storage endpoints.
func RegisteredEndpoints() []Endpoint {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	out := append([]Endpoint(nil), registry.list...)
	for i := range out {
		out[i].Types = append([]StorageType(nil), out[i].Types...)
	}
	return out
}

// ErrOpaqueOrigin is returned when obtaining a storage key fails.
var ErrNoStorageKey = errors.New("storage: no storage key for this environment (opaque origin or storage disabled)")

// ErrUnknownEndpoint is returned for an unregistered endpoint identifier.
var ErrUnknownEndpoint = errors.New("storage: unknown storage endpoint")

// Shed is a storage shed: a map of storage keys to storage shelves. A user
// agent has one (its "storage shed"). Safe for concurrent use.
//
// Unused, empty shelves are not kept: the shed holds a shelf strongly only
// while it is pinned (some bottle has entries, a named bucket exists, an
// endpoint value created with Associated exists, or an endpoint called
// Bottle.Pin); otherwise it holds it weakly, so a shelf lives exactly as
// long as something uses it, and its entry disappears after that.
type Shed struct {
	mu      sync.Mutex
	shelves map[StorageKey]*shelfRef
}

// shelfRef is the shed's entry for a key: weak always, strong while pinned.
type shelfRef struct {
	weak   weak.Pointer[Shelf]
	strong *Shelf
	pins   int
}

// NewShed returns an empty storage shed.
func NewShed() *Shed { return &Shed{shelves: make(map[StorageKey]*shelfRef)} }

// Len returns the number of shelves the shed holds (pinned ones, and
// unpinned ones that are still in use).
func (s *Shed) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, r := range s.shelves {
		if r.weak.Value() != nil {
			n++
		}
	}
	return n
}

// entries is the size of the shed's map (tests).
func (s *Shed) entries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.shelves)
}

// Shelf is a storage shelf: a bucket map.
type Shelf struct {
	key  StorageKey
	typ  StorageType
	mu   sync.Mutex
	bmap map[string]*Bucket
	shed *Shed
	ref  *shelfRef
}

// pin and unpin count reasons to keep the shelf even when unreferenced.
func (s *Shelf) pin() {
	s.shed.mu.Lock()
	s.ref.pins++
	s.ref.strong = s
	s.shed.mu.Unlock()
}

func (s *Shelf) unpin() {
	s.shed.mu.Lock()
	s.ref.pins--
	if s.ref.pins <= 0 {
		s.ref.pins = 0
		s.ref.strong = nil
	}
	s.shed.mu.Unlock()
}

// Key returns the shelf's storage key.
func (s *Shelf) Key() StorageKey { return s.key }

// Bucket is a storage bucket: a mode and a bottle map keyed by endpoint id.
type Bucket struct {
	name    string
	shelf   *Shelf
	mode    string
	bottles map[string]*Bottle // immutable after creation
}

// Name returns the bucket's name ("default" for the default bucket).
func (b *Bucket) Name() string { return b.name }

// Shelf returns the shelf holding the bucket.
func (b *Bucket) Shelf() *Shelf { return b.shelf }

// Mode returns the bucket mode: "best-effort" or "persistent".
func (b *Bucket) Mode() string { return b.mode }

// Bottle returns the bucket's bottle for a storage endpoint identifier, or
// nil when the endpoint is not registered for the bucket's type.
func (b *Bucket) Bottle(identifier string) *Bottle { return b.bottles[identifier] }

// Bottle is a storage bottle. Besides the standard's map it holds one
// endpoint-defined value (for "web-locks": the bottle's lock manager).
type Bottle struct {
	bucket     *Bucket
	identifier string
	quota      int64
	proxy      BottleMap

	mu    sync.Mutex
	items map[string]any
	assoc any
	once  sync.Once
}

// shelf returns the shelf holding the bottle.
func (b *Bottle) shelf() *Shelf { return b.bucket.shelf }

// Pin keeps the bottle's shelf in the shed even when nothing references
// it (e.g. while a lock manager holds locks); Unpin undoes one Pin.
func (b *Bottle) Pin() { b.shelf().pin() }

// Unpin undoes one Pin.
func (b *Bottle) Unpin() { b.shelf().unpin() }

// Identifier returns the bottle's storage endpoint identifier.
func (b *Bottle) Identifier() string { return b.identifier }

// Bucket returns the bucket holding the bottle.
func (b *Bottle) Bucket() *Bucket { return b.bucket }

// Quota returns the bottle's quota (0: none).
func (b *Bottle) Quota() int64 { return b.quota }

// Associated returns the bottle's endpoint-defined value, creating it with
// create exactly once (later calls, also concurrent ones, return the same
// value and ignore their create). As the value may be used without a
// reference to the bottle, creating it pins the shelf for good: use
// AssociatedWithBottle to let an idle shelf go.
func (b *Bottle) Associated(create func() any) any {
	b.once.Do(func() {
		b.assoc = create()
		b.shelf().pin()
	})
	return b.assoc
}

// AssociatedWithBottle is Associated for values that keep a reference to
// the bottle they are given (and so keep the shelf alive while they are
// reachable): it does not pin the shelf. The value should Pin the bottle
// while it has state that must outlive every reference to it, and Unpin
// when that state is gone.
func (b *Bottle) AssociatedWithBottle(create func(*Bottle) any) any {
	b.once.Do(func() { b.assoc = create(b) })
	return b.assoc
}

// BottleMap is a storage proxy map for a bottle (what "obtain a storage
// bottle map" returns). Its Bottle is its associated storage bottle.
type BottleMap struct {
	bottle *Bottle
}

// Bottle returns the proxy map's associated bottle.
func (m *BottleMap) Bottle() *Bottle { return m.bottle }

// Get, Set, Delete and Len access the backing map (goroutine-safe).
func (m *BottleMap) Get(k string) (any, bool) {
	b := m.bottle
	b.mu.Lock()
	defer b.mu.Unlock()
	v, ok := b.items[k]
	return v, ok
}

// Set sets a key in the backing map.
func (m *BottleMap) Set(k string, v any) {
	b := m.bottle
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.items == nil {
		b.items = make(map[string]any)
	}
	if _, ok := b.items[k]; !ok && len(b.items) == 0 {
		b.shelf().pin()
	}
	b.items[k] = v
}

// Delete removes a key from the backing map.
func (m *BottleMap) Delete(k string) {
	b := m.bottle
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.items[k]; !ok {
		return
	}
	delete(b.items, k)
	if len(b.items) == 0 {
		b.items = nil
		b.shelf().unpin()
	}
}

// Len returns the number of entries in the backing map.
func (m *BottleMap) Len() int {
	b := m.bottle
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.items)
}

// CreateAStorageBucket is the Storage Standard's "create a storage bucket".
func createAStorageBucket(shelf *Shelf, name string, typ StorageType) *Bucket {
	// 1. Let bucket be null.
	// 2. If type is "local", then set bucket to a new local storage bucket.
	// 3. Otherwise: Assert: type is "session"; set bucket to a new session storage bucket.
	b := &Bucket{name: name, shelf: shelf, mode: "best-effort", bottles: make(map[string]*Bottle)}
	// 4. For each endpoint of registered storage endpoints whose types contain type,
	//    set bucket's bottle map[endpoint's identifier] to a new storage bottle
	//    whose quota is endpoint's quota.
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	for _, ep := range registry.list {
		for _, t := range ep.Types {
			if t == typ {
				bt := &Bottle{bucket: b, identifier: ep.Identifier, quota: ep.Quota}
				bt.proxy.bottle = bt
				b.bottles[ep.Identifier] = bt
			}
		}
	}
	// 5. Return bucket.
	return b
}

// createAStorageShelf is the Storage Standard's "create a storage shelf".
func createAStorageShelf(shed *Shed, key StorageKey, typ StorageType) *Shelf {
	// 1. Let shelf be a new storage shelf.
	shelf := &Shelf{key: key, typ: typ, shed: shed, bmap: make(map[string]*Bucket)}
	// 2. Set shelf's bucket map["default"] to the result of running create a
	//    storage bucket with type.
	shelf.bmap[DefaultBucket] = createAStorageBucket(shelf, DefaultBucket, typ)
	// 3. Return shelf.
	return shelf
}

// DefaultBucket is the name of the default bucket.
const DefaultBucket = "default"

// ObtainAStorageKey is the Storage Standard's "obtain a storage key".
func ObtainAStorageKey(env Environment) (StorageKey, error) {
	// 1-3 happen in env.StorageKey(): the key for non-storage purposes,
	// failure when its origin is opaque or storage is disabled.
	k, ok := env.StorageKey()
	if !ok {
		return StorageKey{}, ErrNoStorageKey
	}
	// 4. Return key.
	return k, nil
}

// ObtainAStorageShelf is the Storage Standard's "obtain a storage shelf".
func ObtainAStorageShelf(shed *Shed, env Environment, typ StorageType) (*Shelf, error) {
	// 1. Let key be the result of running obtain a storage key with environment.
	key, err := ObtainAStorageKey(env)
	// 2. If key is failure, then return failure.
	if err != nil {
		return nil, err
	}
	return shed.shelfFor(key, typ), nil
}

func (s *Shed) shelfFor(key StorageKey, typ StorageType) *Shelf {
	s.mu.Lock()
	defer s.mu.Unlock()
	// 3. If shed[key] does not exist, then set shed[key] to the result of
	//    running create a storage shelf with type.
	if r := s.shelves[key]; r != nil {
		if sh := r.weak.Value(); sh != nil {
			// 4. Return shed[key].
			return sh
		}
	}
	sh := createAStorageShelf(s, key, typ)
	r := &shelfRef{weak: weak.Make(sh)}
	sh.ref = r
	s.shelves[key] = r
	// When the shelf is collected, drop its entry (unless replaced). The
	// cleanup is a root until it runs: it must reach neither the shelf
	// (which would never be collected then) nor the shed (whose pinned
	// shelves hold endpoint values such as lock managers, which hold their
	// user agent: a closed user agent would never be collected).
	runtime.AddCleanup(sh, forgetShelf, shedEntry{weak.Make(s), key, weak.Make(r)})
	// 4. Return shed[key].
	return sh
}

type shedEntry struct {
	shed weak.Pointer[Shed]
	key  StorageKey
	ref  weak.Pointer[shelfRef]
}

// forgetShelf drops a collected shelf's entry from its shed, if the shed
// still exists and the entry was not replaced.
func forgetShelf(e shedEntry) {
	s := e.shed.Value()
	if s == nil {
		return
	}
	s.mu.Lock()
	if r := s.shelves[e.key]; r != nil && r == e.ref.Value() {
		delete(s.shelves, e.key)
	}
	s.mu.Unlock()
}

// ObtainALocalStorageShelf is "obtain a local storage shelf".
func ObtainALocalStorageShelf(env Environment) (*Shelf, error) {
	return ObtainAStorageShelf(env.StorageShed(), env, Local)
}

// ObtainAStorageBottleMap is "obtain a storage bottle map" for type
// "local" (session storage sheds belong to traversables and are not
// modelled; type "session" returns an error).
func ObtainAStorageBottleMap(typ StorageType, env Environment, identifier string) (*BottleMap, error) {
	// 1. Let shed be null.
	// 2. If type is "local", then set shed to the user agent's storage shed.
	// 3. Otherwise: (session) not modelled.
	if typ != Local {
		return nil, fmt.Errorf("storage: %q storage sheds are not modelled", typ)
	}
	shed := env.StorageShed()
	// 4. Let shelf be the result of running obtain a storage shelf, with shed,
	//    environment, and type.
	shelf, err := ObtainAStorageShelf(shed, env, typ)
	// 5. If shelf is failure, then return failure.
	if err != nil {
		return nil, err
	}
	// 6. Let bucket be shelf's bucket map["default"].
	bucket := shelf.Bucket(DefaultBucket)
	// 7. Let bottle be bucket's bottle map[identifier].
	bottle := bucket.Bottle(identifier)
	if bottle == nil {
		return nil, fmt.Errorf("%w %q", ErrUnknownEndpoint, identifier)
	}
	// 8. Let proxyMap be a new storage proxy map whose backing map is
	//    bottle's map.
	// 9. Append proxyMap to bottle's proxy map reference set.
	//    (One proxy per bottle is kept and reused, so repeated calls do not
	//    grow the reference set.)
	// 10. Return proxyMap.
	return &bottle.proxy, nil
}

// ObtainALocalStorageBottleMap is "obtain a local storage bottle map":
// obtain a storage bottle map with "local", environment and identifier.
// It fails (error) for environments without a storage key (opaque origins).
func ObtainALocalStorageBottleMap(env Environment, identifier string) (*BottleMap, error) {
	return ObtainAStorageBottleMap(Local, env, identifier)
}

// Bucket returns the bucket named name, or nil.
func (s *Shelf) Bucket(name string) *Bucket {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bmap[name]
}
