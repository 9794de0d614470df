package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/storage"
	"github.com/grafana/sobek"
)

// storageBucketManagerImpl is the Go implementation behind
// navigator.storageBuckets.
type storageBucketManagerImpl struct {
	webidl.Reflector
	realm *Realm
	// buckets keeps one StorageBucket object per bucket, so that
	// bucket.locks of two open() results of the same bucket is one manager.
	buckets map[*storage.Bucket]*storageBucketImpl
}

// shelf obtains the environment's local storage shelf; failure (an opaque
// origin) is a SecurityError.
func (m *storageBucketManagerImpl) shelf() (*storage.Shelf, error) {
	shelf, err := storage.ObtainALocalStorageShelf(m.realm.env)
	if err != nil {
		return nil, dom.NewDOMException("Storage is not available in this context: "+err.Error(), dom.SecurityError)
	}
	return shelf, nil
}

// open is StorageBucketManager.open(name, options): the bucket, created if
// needed. An invalid name is a TypeError.
func (m *storageBucketManagerImpl) open(name string) (*storageBucketImpl, error) {
	if err := storage.ValidateBucketName(name); err != nil {
		return nil, webidl.NewTypeError("%s", err.Error())
	}
	shelf, err := m.shelf()
	if err != nil {
		return nil, err
	}
	b, err := shelf.OpenBucket(name)
	if err != nil {
		return nil, webidl.NewTypeError("%s", err.Error())
	}
	if m.buckets == nil {
		m.buckets = map[*storage.Bucket]*storageBucketImpl{}
	}
	impl := m.buckets[b]
	if impl == nil {
		impl = &storageBucketImpl{realm: m.realm, bucket: b}
		m.buckets[b] = impl
	}
	return impl, nil
}

// keys is StorageBucketManager.keys(): the names of the named buckets.
func (m *storageBucketManagerImpl) keys() ([]string, error) {
	shelf, err := m.shelf()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range shelf.BucketNames() {
		if n != storage.DefaultBucket {
			out = append(out, n)
		}
	}
	return out, nil
}

// delete is StorageBucketManager.delete(name).
func (m *storageBucketManagerImpl) delete(name string) error {
	if err := storage.ValidateBucketName(name); err != nil {
		return webidl.NewTypeError("%s", err.Error())
	}
	shelf, err := m.shelf()
	if err != nil {
		return err
	}
	b := shelf.Bucket(name)
	if _, err := shelf.DeleteBucket(name); err != nil {
		return webidl.NewTypeError("%s", err.Error())
	}
	if b != nil {
		delete(m.buckets, b)
	}
	return nil
}

func (m *storageBucketManagerImpl) Open(name webidl.DOMString, _ StorageBucketOptions) (*webidl.Promise, error) {
	b, err := m.open(string(name))
	if err != nil {
		return nil, err
	}
	return m.realm.idl.PromiseResolvedWith(idlWrapStorageBucket(m.realm.idl, b)), nil
}

func (m *storageBucketManagerImpl) Keys() (*webidl.Promise, error) {
	keys, err := m.keys()
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(keys))
	for i, k := range keys {
		vals[i] = k
	}
	return m.realm.idl.PromiseResolvedWith(m.realm.vm.NewArray(vals...)), nil
}

func (m *storageBucketManagerImpl) Delete(name webidl.DOMString) (*webidl.Promise, error) {
	if err := m.delete(string(name)); err != nil {
		return nil, err
	}
	return m.realm.idl.PromiseResolvedWith(sobek.Undefined()), nil
}

// storageBucketManagerImpl implements StorageBucketManager.
var _ StorageBucketManagerMethods = (*storageBucketManagerImpl)(nil)
