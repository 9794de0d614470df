package bindings

import (
	"net/url"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fileapi"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// URL is implemented over github.com/nlnwa/whatwg-url (the URL parser and
// its setters); URLSearchParams is in urlsearchparams.go.

var urlParser = whatwg.NewParser()

type urlImpl struct {
	webidl.Reflector
	u      *whatwg.Url
	params *urlSearchParamsImpl
}

func invalidURL(what, s string) error {
	return webidl.NewTypeError("Failed to construct 'URL': Invalid %s '%s'.", what, s)
}

// parseURL is the API URL parser with an optional base.
func parseURL(s string, base webidl.Optional[string]) (*whatwg.Url, error) {
	if base.Present {
		b, err := urlParser.Parse(base.Value)
		if err != nil {
			return nil, invalidURL("base URL", base.Value)
		}
		u, err := b.Parse(s)
		if err != nil {
			return nil, invalidURL("URL", s)
		}
		return u, nil
	}
	u, err := urlParser.Parse(s)
	if err != nil {
		return nil, invalidURL("URL", s)
	}
	return u, nil
}

func newURLImpl(u *whatwg.Url) *urlImpl {
	impl := &urlImpl{u: u}
	impl.params = &urlSearchParamsImpl{url: impl}
	return impl
}

type urlStatics struct{}

// new URL(url, base): https://url.spec.whatwg.org/#dom-url-url
func (urlStatics) Constructor(r *webidl.Realm, s string, base webidl.Optional[string]) (URLMethods, error) {
	u, err := parseURL(s, base)
	if err != nil {
		return nil, err
	}
	return newURLImpl(u), nil
}

// URL.parse(url, base): null on failure.
func (urlStatics) Parse(r *webidl.Realm, s string, base webidl.Optional[string]) (URLMethods, error) {
	u, err := parseURL(s, base)
	if err != nil {
		return nil, nil
	}
	return newURLImpl(u), nil
}

// URL.canParse(url, base)
func (urlStatics) CanParse(r *webidl.Realm, s string, base webidl.Optional[string]) (bool, error) {
	_, err := parseURL(s, base)
	return err == nil, nil
}

func (u *urlImpl) Href() (string, error) { return u.u.Href(false), nil }

// SetHref parses the new value (TypeError on failure) and replaces the URL.
func (u *urlImpl) SetHref(v string) error {
	nu, err := urlParser.Parse(v)
	if err != nil {
		return webidl.NewTypeError("Failed to set the 'href' property on 'URL': Invalid URL '%s'.", v)
	}
	u.u = nu
	return nil
}

func (u *urlImpl) ToJSON() (string, error) { return u.u.Href(false), nil }

// Origin is https://url.spec.whatwg.org/#concept-url-origin serialized.
func (u *urlImpl) Origin() (string, error) { return urlOrigin(u.u), nil }

func urlOrigin(u *whatwg.Url) string {
	switch u.Scheme() {
	case "http", "https", "ws", "wss", "ftp":
		return u.Scheme() + "://" + u.Host()
	case "blob":
		inner, err := urlParser.Parse(u.Pathname())
		if err == nil && (inner.Scheme() == "http" || inner.Scheme() == "https") {
			return urlOrigin(inner)
		}
	}
	return "null"
}

func (u *urlImpl) Protocol() (string, error) { return u.u.Protocol(), nil }
func (u *urlImpl) SetProtocol(v string) error {
	u.u.SetProtocol(v)
	return nil
}
func (u *urlImpl) Username() (string, error) { return u.u.Username(), nil }
func (u *urlImpl) SetUsername(v string) error {
	u.u.SetUsername(v)
	return nil
}
func (u *urlImpl) Password() (string, error) { return u.u.Password(), nil }
func (u *urlImpl) SetPassword(v string) error {
	u.u.SetPassword(v)
	return nil
}
func (u *urlImpl) Host() (string, error) { return u.u.Host(), nil }
func (u *urlImpl) SetHost(v string) error {
	u.u.SetHost(v)
	return nil
}
func (u *urlImpl) Hostname() (string, error) { return u.u.Hostname(), nil }
func (u *urlImpl) SetHostname(v string) error {
	u.u.SetHostname(v)
	return nil
}
func (u *urlImpl) Port() (string, error) { return u.u.Port(), nil }
func (u *urlImpl) SetPort(v string) error {
	u.u.SetPort(v)
	return nil
}
func (u *urlImpl) Pathname() (string, error) { return u.u.Pathname(), nil }
func (u *urlImpl) SetPathname(v string) error {
	u.u.SetPathname(v)
	return nil
}
func (u *urlImpl) Search() (string, error) { return u.u.Search(), nil }
func (u *urlImpl) SetSearch(v string) error {
	u.u.SetSearch(v)
	return nil
}
func (u *urlImpl) Hash() (string, error) { return u.u.Hash(), nil }
func (u *urlImpl) SetHash(v string) error {
	u.u.SetHash(v)
	return nil
}

func (u *urlImpl) SearchParams() (URLSearchParamsMethods, error) { return u.params, nil }

// ParseURL is https://url.spec.whatwg.org/#concept-url-parser with base
// (nil for none): the URL Standard's parser, so that the result is what a
// browser requests (spaces in a query are percent-encoded, where net/url
// keeps them and a request line holding a space is answered 400; leading
// and trailing C0 controls and spaces are stripped). The result is
// returned as a net/url URL. fetch() and the browser's navigations and
// script fetches share it.
func ParseURL(input string, base *url.URL) (*url.URL, error) {
	var u *whatwg.Url
	var err error
	if base != nil {
		u, err = whatwg.ParseRef(base.String(), input)
	} else {
		u, err = whatwg.Parse(input)
	}
	if err != nil {
		return nil, err
	}
	return url.Parse(u.Href(false))
}

// blobSnapshot is implemented by this package's Blob objects: the store
// keeps their bytes and type.
type blobSnapshot interface{ snapshot() fileapi.Blob }

func (b *blobImpl) snapshot() fileapi.Blob { return fileapi.Blob{Type: b.typ, Data: b.data} }

// CreateObjectURL is https://w3c.github.io/FileAPI/#dfn-createObjectURL:
// "Return the result of adding an entry to the blob URL store for obj"
// (a Blob, or a MediaSource, whose URL cannot be fetched).
func (urlStatics) CreateObjectURL(r *webidl.Realm, obj BlobOrMediaSource) (webidl.DOMString, error) {
	rr := realmOf(r)
	if rr.env == nil {
		return "", dom.NewDOMException("Blob URLs are not supported in this realm.", dom.NotSupportedError)
	}
	store := fileapi.StoreOf(rr.env.UserAgent())
	if obj.Type == BlobOrMediaSourceIsMediaSource {
		return webidl.DOMString(store.AddAnEntryForObject(obj.MediaSource.idlImpl().ms, rr.env)), nil
	}
	b, ok := obj.Blob.(blobSnapshot)
	if !ok {
		return "", dom.NewDOMException("Blob URLs are not supported in this realm.", dom.NotSupportedError)
	}
	return webidl.DOMString(store.AddAnEntry(b.snapshot(), rr.env)), nil
}

// RevokeObjectURL is https://w3c.github.io/FileAPI/#dfn-revokeObjectURL.
func (urlStatics) RevokeObjectURL(r *webidl.Realm, u webidl.DOMString) error {
	rr := realmOf(r)
	if rr.env == nil {
		return nil
	}
	// 1. Let urlRecord be the result of parsing url.
	rec, err := whatwg.Parse(string(u))
	// 2. If urlRecord's scheme is not "blob", return.
	if err != nil || rec.Scheme() != "blob" {
		return nil
	}
	store := fileapi.StoreOf(rr.env.UserAgent())
	// 3. Let entry be urlRecord's blob URL entry. 4. If entry is null,
	//    return.
	entry := store.Resolve(rec.Href(false))
	if entry == nil {
		return nil
	}
	// 5. Let isAuthorized be the result of checking for same-partition
	//    blob URL usage with entry and the current settings object. 6. If
	//    isAuthorized is false, then return. (Here: same origin.)
	if entry.Environment == nil || entry.Environment.Origin() != rr.env.Origin() {
		return nil
	}
	// 7. Remove an entry from the Blob URL Store for url.
	store.RemoveAnEntry(rec.Href(true))
	return nil
}
