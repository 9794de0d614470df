package htmlhost

import (
	"context"
	"errors"
	"fmt"

	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/gowebengine/weblocks/storage"
	"github.com/gowebengine/weblocks/weblocks"
)

// The entry points of html environments: each computes the page side's
// Facts and the environment's client, and calls the page side of package
// weblocks (weblocks.RequestLock, weblocks.RequestHost,
// weblocks.QueryLocks, or the Go API's weblocks.RequestFuture and
// weblocks.QueryFuture) with the user agent's lock service.

var (
	errNilEnv      = errors.New("htmlhost: nil environment settings object")
	errNilManager  = errors.New("htmlhost: nil *Manager")
	errNilSnapshot = errors.New("htmlhost: nil *weblocks.Snapshot")
)

// checkCaller checks what the event loop would guarantee script: env
// exists and the caller runs on env's event loop. (A terminated loop runs
// nothing any more, so nobody can be on it: the method steps then reject
// with "InvalidStateError".)
func checkCaller(env *html.EnvironmentSettingsObject) error {
	if env == nil {
		return errNilEnv
	}
	if loop := env.ResponsibleEventLoop(); !loop.IsCurrent() && !loop.IsTerminated() {
		return fmt.Errorf("htmlhost: %w", loop.CheckCurrent())
	}
	return nil
}

// checkPromiseCaller is checkCaller for the host-promise entry points,
// which cannot report a wrong-goroutine call through p (settling a host
// promise from another goroutine is the very race to avoid): they panic
// with the message instead. A nil env rejects p.
func checkPromiseCaller(env *html.EnvironmentSettingsObject, p weblocks.Promise) error {
	if p == nil {
		panic("htmlhost: nil Promise")
	}
	if env == nil {
		return errNilEnv
	}
	if err := checkCaller(env); err != nil {
		panic(err.Error())
	}
	return nil
}

// prepare returns the service, facts and client of env for bucket b (its
// default bucket when b is nil), and binds the options' signal to env's
// event loop.
func prepare(env *html.EnvironmentSettingsObject, b *storage.Bucket, opts *weblocks.Options) (weblocks.LockService, weblocks.Facts, weblocks.Client) {
	es := envOf(env)
	if opts != nil {
		if s, ok := opts.Signal.(*dom.AbortSignal); ok && s != nil {
			// The signal belongs to env's event loop from now on:
			// aborting it from another goroutine panics instead of
			// racing with the grant.
			s.BindToLoop(es.loop)
		}
	}
	f, c := es.facts(b)
	return es.ua.svc, f, c
}

// Request runs the request(name, options, callback) method steps of env's
// LockManager object (navigator.locks in env): it requests a lock on name
// in the lock manager of env's default storage bucket and returns the
// released promise as a Future. It must be called on env's event loop;
// callback runs there too.
//
// The promise the method steps would return rejected is returned as err
// instead: a *dom.DOMException ("InvalidStateError", "SecurityError" or
// "NotSupportedError"), or the options' signal's abort reason (via
// dom.ReasonError) when it is already aborted.
func Request(env *html.EnvironmentSettingsObject, name weblocks.Name, opts weblocks.Options, callback weblocks.Callback) (*weblocks.Future, error) {
	return requestFuture(env, nil, name, opts, callback)
}

func requestFuture(env *html.EnvironmentSettingsObject, b *storage.Bucket, name weblocks.Name, opts weblocks.Options, callback weblocks.Callback) (*weblocks.Future, error) {
	if err := checkCaller(env); err != nil {
		return nil, err
	}
	s, f, c := prepare(env, b, &opts)
	return weblocks.RequestFuture(s, c, f, name, opts, callback)
}

// RequestPromise is Request for a host-provided released promise p: every
// outcome, including the method steps' early rejections, goes to p, which
// is settled on env's event loop (early rejections before RequestPromise
// returns). p is left alone when env goes away (its realm goes with it).
func RequestPromise(env *html.EnvironmentSettingsObject, name weblocks.Name, opts weblocks.Options, callback weblocks.Callback, p weblocks.Promise) {
	requestPromise(env, nil, name, opts, callback, p)
}

func requestPromise(env *html.EnvironmentSettingsObject, b *storage.Bucket, name weblocks.Name, opts weblocks.Options, callback weblocks.Callback, p weblocks.Promise) {
	if err := checkPromiseCaller(env, p); err != nil {
		p.Reject(err)
		return
	}
	s, f, c := prepare(env, b, &opts)
	weblocks.RequestLock(s, c, f, name, opts, callback, p)
}

// RequestIn is RequestPromise in the lock manager m (env's default one
// when m is nil) for the host request h (the JS bindings' callback,
// released and waiting promises), with r as the page side's storage for
// the request.
func RequestIn(env *html.EnvironmentSettingsObject, m *Manager, name weblocks.Name, opts weblocks.Options, h weblocks.HostRequest, r *weblocks.PageRequest) {
	if err := checkPromiseCaller(env, h); err != nil {
		h.Reject(err)
		return
	}
	var b *storage.Bucket
	if m != nil {
		b = m.bucket
	}
	s, f, c := prepare(env, b, &opts)
	weblocks.RequestHost(s, c, f, name, opts, h, r)
}

// Query runs the query() method steps of env's LockManager object: the
// result is a Future fulfilled with a weblocks.Snapshot of the lock
// manager of env's default bucket. It must be called on env's event loop.
// Early rejections are returned as err (a *dom.DOMException:
// "InvalidStateError" or "SecurityError").
func Query(env *html.EnvironmentSettingsObject) (*weblocks.Future, error) {
	return queryFuture(env, nil, nil, false)
}

// QueryInto is Query that stores the snapshot in dst, reusing dst's
// storage, and fulfills the future with dst (a *weblocks.Snapshot) (see
// weblocks.QueryFuture).
func QueryInto(env *html.EnvironmentSettingsObject, dst *weblocks.Snapshot) (*weblocks.Future, error) {
	return queryFuture(env, nil, dst, true)
}

func queryFuture(env *html.EnvironmentSettingsObject, b *storage.Bucket, dst *weblocks.Snapshot, into bool) (*weblocks.Future, error) {
	if err := checkCaller(env); err != nil {
		return nil, err
	}
	if into && dst == nil {
		return nil, errNilSnapshot
	}
	s, f, c := prepare(env, b, nil)
	return weblocks.QueryFuture(s, c, f, dst)
}

// QueryPromise is Query for a host promise p, resolved with a
// weblocks.Snapshot.
func QueryPromise(env *html.EnvironmentSettingsObject, p weblocks.Promise) {
	queryPromise(env, nil, p)
}

func queryPromise(env *html.EnvironmentSettingsObject, b *storage.Bucket, p weblocks.Promise) {
	if err := checkPromiseCaller(env, p); err != nil {
		p.Reject(err)
		return
	}
	s, f, c := prepare(env, b, nil)
	weblocks.QueryLocks(s, c, f, p)
}

// Manager is the lock manager of one storage bucket of a user agent, as
// its environments use it (the Storage Buckets API's bucket.locks).
type Manager struct {
	bucket *storage.Bucket
}

// LockManagerForBucket returns the lock manager of a storage bucket of the
// user agent ua; nil (whose methods report a nil manager) when ua or bucket
// is nil.
func LockManagerForBucket(ua *html.UserAgent, bucket *storage.Bucket) *Manager {
	if ua == nil || bucket == nil {
		return nil
	}
	return &Manager{bucket: bucket}
}

// Request is Request in lock manager m.
func (m *Manager) Request(env *html.EnvironmentSettingsObject, name weblocks.Name, opts weblocks.Options, callback weblocks.Callback) (*weblocks.Future, error) {
	if m == nil {
		return nil, errNilManager
	}
	return requestFuture(env, m.bucket, name, opts, callback)
}

// RequestPromise is RequestPromise in lock manager m.
func (m *Manager) RequestPromise(env *html.EnvironmentSettingsObject, name weblocks.Name, opts weblocks.Options, callback weblocks.Callback, p weblocks.Promise) {
	if m == nil {
		if p == nil {
			panic("htmlhost: nil Promise")
		}
		p.Reject(errNilManager)
		return
	}
	requestPromise(env, m.bucket, name, opts, callback, p)
}

// Query is Query in lock manager m.
func (m *Manager) Query(env *html.EnvironmentSettingsObject) (*weblocks.Future, error) {
	if m == nil {
		return nil, errNilManager
	}
	return queryFuture(env, m.bucket, nil, false)
}

// QueryInto is QueryInto in lock manager m.
func (m *Manager) QueryInto(env *html.EnvironmentSettingsObject, dst *weblocks.Snapshot) (*weblocks.Future, error) {
	if m == nil {
		return nil, errNilManager
	}
	return queryFuture(env, m.bucket, dst, true)
}

// QueryPromise is QueryPromise in lock manager m.
func (m *Manager) QueryPromise(env *html.EnvironmentSettingsObject, p weblocks.Promise) {
	if m == nil {
		if p == nil {
			panic("htmlhost: nil Promise")
		}
		p.Reject(errNilManager)
		return
	}
	queryPromise(env, m.bucket, p)
}

// SetObserver makes obs the observer of ua's lock managers (nil: none).
func SetObserver(ua *html.UserAgent, obs weblocks.Observer) {
	if ua == nil {
		panic("htmlhost: SetObserver(nil user agent)")
	}
	ServiceOf(ua).SetObserver(obs)
}

// LockManagers returns the lock managers ua created so far, in creation
// order (one per storage bucket that used Web Locks). It needs no
// environment: it is for the browser side.
func LockManagers(ua *html.UserAgent) []*weblocks.LockManager {
	if ua == nil {
		return nil
	}
	return ServiceOf(ua).Managers()
}

// LockManagersOf returns ua's lock managers of the storage key key.
func LockManagersOf(ua *html.UserAgent, key storage.StorageKey) []*weblocks.LockManager {
	if ua == nil {
		return nil
	}
	return ServiceOf(ua).ManagersOf(key)
}

// ForceReleaseStorageKey is weblocks.LockManager.ForceRelease for every
// bucket of key in ua (Clear-Site-Data, DevTools).
func ForceReleaseStorageKey(ctx context.Context, ua *html.UserAgent, key storage.StorageKey) (weblocks.ForceReleased, error) {
	if ua == nil {
		return weblocks.ForceReleased{}, nil
	}
	return ServiceOf(ua).ForceReleaseStorageKey(ctx, key)
}
