package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/storage"
	"github.com/gowebengine/weblocks/weblocks/htmlhost"
	"github.com/grafana/sobek"
)

func (b *storageBucketImpl) Name() (webidl.DOMString, error) {
	return webidl.DOMString(b.bucket.Name()), nil
}

func (b *storageBucketImpl) Locks() (LockManagerMethods, error) { return b.lockManager(), nil }

// persist() and persisted(): buckets of this engine are never persistent.
func (b *storageBucketImpl) Persist() (*webidl.Promise, error) {
	return b.realm.idl.PromiseResolvedWith(b.realm.vm.ToValue(false)), nil
}

func (b *storageBucketImpl) Persisted() (*webidl.Promise, error) {
	return b.realm.idl.PromiseResolvedWith(b.realm.vm.ToValue(false)), nil
}

// setExpires(expires) records the expiration time; expires() returns it.
func (b *storageBucketImpl) SetExpires(expires float64) (*webidl.Promise, error) {
	b.expires = &expires
	return b.realm.idl.PromiseResolvedWith(sobek.Undefined()), nil
}

func (b *storageBucketImpl) Expires() (*webidl.Promise, error) {
	if b.expires == nil {
		return b.realm.idl.PromiseResolvedWith(sobek.Null()), nil
	}
	return b.realm.idl.PromiseResolvedWith(b.realm.vm.ToValue(*b.expires)), nil
}

// storageBucketImpl is the Go implementation behind a StorageBucket.
type storageBucketImpl struct {
	webidl.Reflector
	realm   *Realm
	bucket  *storage.Bucket
	locks   *lockManagerImpl
	expires *float64
}

// lockManager is StorageBucket.locks ([SameObject]): the bucket's lock
// manager.
func (b *storageBucketImpl) lockManager() *lockManagerImpl {
	if b.locks == nil {
		b.locks = &lockManagerImpl{realm: b.realm, manager: htmlhost.LockManagerForBucket(b.realm.env.UserAgent(), b.bucket)}
	}
	return b.locks
}

// storageBucketImpl implements StorageBucket.
var _ StorageBucketMethods = (*storageBucketImpl)(nil)
