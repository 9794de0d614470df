package bindings

import (
	"context"
	"runtime"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/fetch"
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

// beaconQuota is the most bytes a beacon's body may have (Chromium's
// keepalive quota, 64 KiB).
const beaconQuota = 64 << 10

// SendBeacon is https://w3c.github.io/beacon/#sendbeacon-method: a
// keepalive POST that outlives the page, whose response is ignored.
func (n *navigatorImpl) SendBeacon(rawURL string, data webidl.Nullable[BodyInit]) (bool, error) {
	r := n.realm
	// 1-2. Let base be this's relevant settings object's API base URL;
	//    origin its origin.
	// 3-4. Let parsedUrl be the result of the URL parser with url and
	//    base; if it is failure, throw a TypeError.
	u, err := ParseURL(rawURL, r.fetchBaseURL())
	if err != nil {
		return false, webidl.NewTypeError("Failed to execute 'sendBeacon' on 'Navigator': Invalid URL %q", rawURL)
	}
	// 5. If parsedUrl's scheme is not "http" or "https", throw a
	//    TypeError.
	if u.Scheme != "http" && u.Scheme != "https" {
		return false, webidl.NewTypeError("Failed to execute 'sendBeacon' on 'Navigator': Beacons are only supported over HTTP(S).")
	}
	// 6. Let headerList be an empty list. 7. Let corsMode be "no-cors".
	var headers fetch.HeaderList
	corsMode := "no-cors"
	var body *fetch.Body
	// 8. If data is not null:
	if !data.Null {
		// 8.1. Set transmittedData and contentType to the result of
		//      extracting data's byte stream with the keepalive flag set
		//      (a ReadableStream is a TypeError).
		b, contentType, err := extractBody(data.Value)
		if err != nil {
			return false, err
		}
		if b.streamOnly {
			return false, webidl.NewTypeError("Failed to execute 'sendBeacon' on 'Navigator': A ReadableStream cannot be a keepalive request's body")
		}
		// 8.2. If the amount of data that can be queued to be sent by
		//      keepalive enabled requests is exceeded by the size of
		//      transmittedData, return false.
		if len(b.source) > beaconQuota {
			return false, nil
		}
		// 8.3. If contentType is not null: set corsMode to "cors"; if
		//      contentType's value is a CORS-safelisted request-header
		//      value for the Content-Type header, set corsMode to
		//      "no-cors"; append a Content-Type header to headerList.
		if contentType != "" {
			corsMode = "cors"
			if fetch.IsCORSSafelistedRequestHeader("Content-Type", contentType) {
				corsMode = "no-cors"
			}
			headers.Append("Content-Type", contentType)
		}
		body = &fetch.Body{Source: b.source}
	}
	// 9. Set req to a new request: method POST, client this's relevant
	//    settings object, url parsedUrl, header list headerList, origin,
	//    keepalive true, body transmittedData, mode corsMode, credentials
	//    mode "include", initiator type "beacon" (destination "").
	c := r.xhrClient()
	req := fetch.NewRequest(u, c.Fetch)
	req.Method = "POST"
	req.Header = headers
	req.Origin = c.Origin
	req.Body = body
	req.Mode = corsMode
	req.Credentials = "include"
	req.Keepalive = true
	// 10. Fetch req (keepalive: the fetch does not end with the realm).
	r.startParamsFetch(context.Background(), &fetch.Params{Request: req}, false, func(*fetch.Response) {})
	// 11. Return true.
	return true, nil
}
