package fileapi

import (
	"strings"
	"sync"

	"github.com/google/uuid"
	"github.com/gowebengine/weblocks/html"
)

// Blob is a blob's data as the store keeps it: its bytes and its type.
type Blob struct {
	Type string
	Data []byte
}

// Entry is a blob URL entry (https://w3c.github.io/FileAPI/#blob-url-entry):
// its object and the environment that minted it. The object is a Blob,
// or, when Other is not nil, that other object (a MediaSource): fetching
// its URL is then a network error.
type Entry struct {
	Object      Blob
	Other       any
	Environment *html.EnvironmentSettingsObject
}

// Store is the user agent's blob URL store
// (https://w3c.github.io/FileAPI/#BlobURLStore): a map from blob URLs
// (serialized, without fragment) to entries. It is safe for concurrent
// use.
type Store struct {
	mu      sync.Mutex
	entries map[string]*Entry
}

var storeSlot = html.NewSlot[*Store]()

// StoreOf is ua's blob URL store.
func StoreOf(ua *html.UserAgent) *Store {
	if ua == nil {
		return nil
	}
	return storeSlot.GetOrInit(ua, func() *Store { return &Store{entries: map[string]*Entry{}} })
}

// GenerateANewBlobURL is
// https://w3c.github.io/FileAPI/#generate-a-new-blob-url for an
// environment whose origin serializes as origin.
func GenerateANewBlobURL(origin string) string {
	// 1. Let result be the empty string.
	// 2. Append the string "blob:" to result.
	// 3-5. Let settings be the current settings object; let origin be
	//    settings's origin; let serialized be the ASCII serialization of
	//    origin.
	// 6. If serialized is "null", set it to an implementation-defined
	//    value. (It stays "null".)
	// 7. Append serialized to result.
	// 8. Append U+0024 SOLIDUS (/) to result.
	// 9-10. Let uuid be the generated UUID, serialized; append it.
	// 11. Return result.
	return "blob:" + origin + "/" + uuid.NewString()
}

// AddAnEntry is https://w3c.github.io/FileAPI/#add-an-entry: it mints a
// blob URL for object, records it with env (whose teardown removes it)
// and returns the URL.
func (s *Store) AddAnEntry(object Blob, env *html.EnvironmentSettingsObject) string {
	return s.addAnEntry(&Entry{Object: object, Environment: env})
}

// AddAnEntryForObject is AddAnEntry for an object that is not a Blob (a
// MediaSource, https://w3c.github.io/media-source/): its URL resolves to
// the entry, but fetching it is a network error.
func (s *Store) AddAnEntryForObject(object any, env *html.EnvironmentSettingsObject) string {
	return s.addAnEntry(&Entry{Other: object, Environment: env})
}

func (s *Store) addAnEntry(entry *Entry) string {
	env := entry.Environment
	origin := "null"
	if env != nil {
		origin = env.Origin().Serialize()
	}
	// 1. Let store be the user agent's blob URL store.
	// 2. Let url be the result of generating a new blob URL.
	url := GenerateANewBlobURL(origin)
	// 3. Let entry be a new blob URL entry consisting of object and the
	//    current settings object.
	// 4. Set store[url] to entry.
	s.mu.Lock()
	s.entries[url] = entry
	s.mu.Unlock()
	// (Lifetime: https://w3c.github.io/FileAPI/#lifeTime, the entries of
	// an environment go with it: a document's when it is unloaded, a
	// worker's when its agent terminates.)
	if env != nil {
		if doc := env.AssociatedDocument(); doc != nil {
			doc.AddUnloadingDocumentCleanupSteps(func() { s.RemoveAnEntry(url) })
		} else if a := env.Agent(); a != nil {
			a.AddTerminationSteps(func() { s.RemoveAnEntry(url) })
		}
	}
	// 5. Return url.
	return url
}

// RemoveAnEntry is https://w3c.github.io/FileAPI/#removeTheEntry: remove
// store[url] (a URL with a fragment, or one not in the store, changes
// nothing).
func (s *Store) RemoveAnEntry(url string) {
	s.mu.Lock()
	delete(s.entries, url)
	s.mu.Unlock()
}

// Resolve is https://w3c.github.io/FileAPI/#blob-url-resolve: the entry
// of a blob URL (its fragment ignored), or nil.
func (s *Store) Resolve(url string) *Entry {
	if s == nil || !strings.HasPrefix(url, "blob:") {
		return nil
	}
	// 1. Assert: url's scheme is "blob".
	// 2. Let store be the user agent's blob URL store.
	// 3. Let url string be the result of serializing url with exclude
	//    fragment set to true.
	if i := strings.IndexByte(url, '#'); i >= 0 {
		url = url[:i]
	}
	// 4. If store[url string] exists, return store[url string];
	//    otherwise return failure.
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.entries[url]
}

// ResolveBlobURL is Resolve for fetch's scheme fetch (fetch.BlobURLResolver):
// an entry whose object is not a Blob is no blob (scheme fetch's "if
// blobURLEntry is null or its object is not a Blob, return a network
// error").
func (s *Store) ResolveBlobURL(url string) (typ string, data []byte, ok bool) {
	e := s.Resolve(url)
	if e == nil || e.Other != nil {
		return "", nil, false
	}
	return e.Object.Type, e.Object.Data, true
}

// Len is the number of entries (tests, leak checks).
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.entries)
}
