package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/storage"
)

// StorageArea is a localStorage area as Go sees it: the Storage
// interface's operations on one storage key's "localStorage" bottle,
// wherever that bottle is kept (LocalStorageArea: in this process; a
// browser's renderer processes reach the browser process's). SetItem's
// quota error is a "QuotaExceededError" *dom.DOMException.
type StorageArea interface {
	Length() (uint32, error)
	Key(index uint32) (key string, ok bool, err error)
	GetItem(key string) (value string, ok bool, err error)
	SetItem(key, value string) error
	RemoveItem(key string) error
	Clear() error
}

// storageAreasSlot holds a user agent's provider of localStorage areas.
var storageAreasSlot = html.NewSlot[func(*html.EnvironmentSettingsObject) (StorageArea, error)]()

// SetLocalStorageAreas makes the windows of ua get their localStorage
// areas from areas (instead of ua's own storage shed): a renderer process
// keeps none of its own, the browser process holds them. It must be
// called before a window of ua uses localStorage.
func SetLocalStorageAreas(ua *html.UserAgent, areas func(env *html.EnvironmentSettingsObject) (StorageArea, error)) {
	storageAreasSlot.GetOrInit(ua, func() func(*html.EnvironmentSettingsObject) (StorageArea, error) { return areas })
}

// keyEnvironment is a storage key as a storage.Environment.
type keyEnvironment struct {
	key  storage.StorageKey
	shed *storage.Shed
}

func (e keyEnvironment) StorageKey() (storage.StorageKey, bool) {
	return e.key, !e.key.Origin.IsOpaque()
}
func (e keyEnvironment) StorageShed() *storage.Shed { return e.shed }

// LocalStorageArea returns the localStorage area of key in shed (a user
// agent's storage shed), with the Storage interface's rules (insertion
// order, quota).
func LocalStorageArea(shed *storage.Shed, key storage.StorageKey) (StorageArea, error) {
	m, err := storage.ObtainALocalStorageBottleMap(keyEnvironment{key: key, shed: shed}, "localStorage")
	if err != nil {
		return nil, errStorageDenied(err)
	}
	return localArea{newStorageImpl(m)}, nil
}

// localArea is a Storage object's map as a StorageArea.
type localArea struct{ s *storageImpl }

func (a localArea) Length() (uint32, error) { return a.s.Length() }

func (a localArea) Key(index uint32) (string, bool, error) {
	k, err := a.s.Key(index)
	if err != nil || k.Null {
		return "", false, err
	}
	return string(k.Value), true, nil
}

func (a localArea) GetItem(key string) (string, bool, error) {
	v, err := a.s.GetItem(webidl.DOMString(key))
	if err != nil || v.Null {
		return "", false, err
	}
	return string(v.Value), true, nil
}

func (a localArea) SetItem(key, value string) error {
	return a.s.SetItem(webidl.DOMString(key), webidl.DOMString(value))
}
func (a localArea) RemoveItem(key string) error { return a.s.RemoveItem(webidl.DOMString(key)) }
func (a localArea) Clear() error                { return a.s.Clear() }

// The Storage operations of a Storage object over a StorageArea of
// another process (storageImpl.area).

func (s *storageImpl) areaKey(index uint32) (webidl.Nullable[webidl.DOMString], error) {
	k, ok, err := s.area.Key(index)
	if err != nil || !ok {
		return webidl.Nullable[webidl.DOMString]{Null: true}, err
	}
	return webidl.Nullable[webidl.DOMString]{Value: webidl.DOMString(k)}, nil
}

func (s *storageImpl) areaGetItem(key webidl.DOMString) (webidl.Nullable[webidl.DOMString], error) {
	v, ok, err := s.area.GetItem(string(key))
	if err != nil || !ok {
		return webidl.Nullable[webidl.DOMString]{Null: true}, err
	}
	return webidl.Nullable[webidl.DOMString]{Value: webidl.DOMString(v)}, nil
}

// localStorageOf is the Storage object of env's localStorage: over the
// area SetLocalStorageAreas provides, or over env's bottle map.
func localStorageOf(env *html.EnvironmentSettingsObject) (*storageImpl, error) {
	if areas := storageAreasSlot.Get(env.UserAgent()); areas != nil {
		a, err := areas(env)
		if err != nil {
			return nil, err
		}
		return &storageImpl{area: a}, nil
	}
	m, err := storage.ObtainALocalStorageBottleMap(env, "localStorage")
	if err != nil {
		return nil, errStorageDenied(err)
	}
	return newStorageImpl(m), nil
}
