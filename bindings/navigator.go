package bindings

import (
	"runtime"

	"github.com/gowebengine/weblocks/bindings/webidl"
)

// UserAgentString is navigator.userAgent.
const UserAgentString = "Mozilla/5.0 (X11; Linux x86_64) gowebengine/0.1"

// navigatorImpl is the Go implementation behind Navigator (Window) and
// WorkerNavigator objects.
type navigatorImpl struct {
	webidl.Reflector
	realm   *Realm
	locks   *lockManagerImpl
	buckets *storageBucketManagerImpl
}

// navigator returns the realm's Navigator/WorkerNavigator implementation
// (one per global: navigator is the same object every time).
func (r *Realm) navigator() *navigatorImpl {
	if r.nav == nil {
		r.nav = &navigatorImpl{realm: r}
	}
	return r.nav
}

// lockManager is the NavigatorLocks locks getter steps: this's relevant
// settings object's LockManager object (one per environment, so the same
// object every time).
func (n *navigatorImpl) lockManager() *lockManagerImpl {
	if n.locks == nil {
		n.locks = &lockManagerImpl{realm: n.realm}
	}
	return n.locks
}

// storageBucketManager is navigator.storageBuckets ([SameObject]).
func (n *navigatorImpl) storageBucketManager() *storageBucketManagerImpl {
	if n.buckets == nil {
		n.buckets = &storageBucketManagerImpl{realm: n.realm}
	}
	return n.buckets
}

// NavigatorID, NavigatorLanguage, NavigatorOnLine, NavigatorCookies and
// NavigatorConcurrentHardware values.
func (n *navigatorImpl) appCodeName() string { return "Mozilla" }
func (n *navigatorImpl) appName() string     { return "Netscape" }
func (n *navigatorImpl) appVersion() string  { return UserAgentString[len("Mozilla/"):] }
func (n *navigatorImpl) platform() string    { return "Linux x86_64" }
func (n *navigatorImpl) product() string     { return "Gecko" }
func (n *navigatorImpl) productSub() string  { return "20030107" }
func (n *navigatorImpl) userAgent() string   { return UserAgentString }
func (n *navigatorImpl) vendor() string      { return "" }
func (n *navigatorImpl) vendorSub() string   { return "" }
func (n *navigatorImpl) language() string    { return "en-US" }
func (n *navigatorImpl) onLine() bool        { return true }
func (n *navigatorImpl) cookieEnabled() bool { return false }
func (n *navigatorImpl) hardwareConcurrency() uint64 {
	return uint64(runtime.NumCPU())
}

func ds(s string) (webidl.DOMString, error) { return webidl.DOMString(s), nil }

func (n *navigatorImpl) AppCodeName() (webidl.DOMString, error) { return ds(n.appCodeName()) }

func (n *navigatorImpl) AppName() (webidl.DOMString, error) { return ds(n.appName()) }

func (n *navigatorImpl) AppVersion() (webidl.DOMString, error) { return ds(n.appVersion()) }

func (n *navigatorImpl) Platform() (webidl.DOMString, error) { return ds(n.platform()) }

func (n *navigatorImpl) Product() (webidl.DOMString, error) { return ds(n.product()) }

func (n *navigatorImpl) ProductSub() (webidl.DOMString, error) { return ds(n.productSub()) }

func (n *navigatorImpl) UserAgent() (webidl.DOMString, error) { return ds(n.userAgent()) }

func (n *navigatorImpl) Vendor() (webidl.DOMString, error) { return ds(n.vendor()) }

func (n *navigatorImpl) VendorSub() (webidl.DOMString, error) { return ds(n.vendorSub()) }

func (n *navigatorImpl) Language() (webidl.DOMString, error) { return ds(n.language()) }

func (n *navigatorImpl) Languages() ([]webidl.DOMString, error) {
	return []webidl.DOMString{webidl.DOMString(n.language())}, nil
}

func (n *navigatorImpl) OnLine() (bool, error) { return n.onLine(), nil }

func (n *navigatorImpl) CookieEnabled() (bool, error) { return n.cookieEnabled(), nil }

func (n *navigatorImpl) HardwareConcurrency() (uint64, error) { return n.hardwareConcurrency(), nil }

func (n *navigatorImpl) Locks() (LockManagerMethods, error) { return n.lockManager(), nil }

func (n *navigatorImpl) StorageBuckets() (StorageBucketManagerMethods, error) {
	return n.storageBucketManager(), nil
}

// navigator.serviceWorker
func (n *navigatorImpl) ServiceWorker() (ServiceWorkerContainerMethods, error) {
	return n.realm.container(), nil
}

// Compile-time checks of the implementations.
var (
	_ NavigatorMethods       = (*navigatorImpl)(nil)
	_ WorkerNavigatorMethods = (*navigatorImpl)(nil)
)
