package bindings

import (
	"errors"
	"net/url"
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// locationImpl is a window's Location. Its URL is the document's URL,
// serialized as the URL standard does (a fragment navigation changes it:
// Realm.SetDocumentURL); the URL arithmetic of its setters is html's
// (html.LocationSetterURL), the navigation the embedder's Navigate hook.
type locationImpl struct {
	webidl.Reflector
	realm *Realm
	href  string      // "" for a window without a URL
	url   *whatwg.Url // href parsed; nil when href is ""
}

func (l *locationImpl) setHref(href string) {
	l.href, l.url = href, nil
	if href == "" {
		return
	}
	if u, err := whatwg.Parse(href); err == nil {
		l.url = u
	}
}

// part is one of Location's getters (https://html.spec.whatwg.org/#dom-location-href
// and after): the URL standard's parts of this's url.
func (l *locationImpl) part(get func(*whatwg.Url) string) (string, error) {
	if l.url == nil {
		return "", nil
	}
	return get(l.url), nil
}

func (l *locationImpl) Href() (string, error) {
	return l.part(func(u *whatwg.Url) string { return u.Href(false) })
}

// Origin is the ASCII serialization of this's url's origin: a tuple origin
// for http(s), ws(s) and ftp; the origin of the inner URL for blob:;
// "null" for every other scheme.
func (l *locationImpl) Origin() (string, error) {
	return l.part(serializedOrigin)
}

func serializedOrigin(u *whatwg.Url) string {
	switch u.Scheme() {
	case "http", "https", "ws", "wss", "ftp":
		s := u.Scheme() + "://" + u.Hostname()
		if p := u.Port(); p != "" {
			s += ":" + p
		}
		return s
	case "blob":
		if inner, err := whatwg.Parse(u.Pathname()); err == nil && (inner.Scheme() == "http" || inner.Scheme() == "https") {
			return serializedOrigin(inner)
		}
	}
	return "null"
}

func (l *locationImpl) Protocol() (string, error) { return l.part((*whatwg.Url).Protocol) }

func (l *locationImpl) Host() (string, error) { return l.part((*whatwg.Url).Host) }

func (l *locationImpl) Hostname() (string, error) { return l.part((*whatwg.Url).Hostname) }

func (l *locationImpl) Port() (string, error) { return l.part((*whatwg.Url).Port) }

func (l *locationImpl) Pathname() (string, error) { return l.part((*whatwg.Url).Pathname) }

func (l *locationImpl) Search() (string, error) { return l.part((*whatwg.Url).Search) }

func (l *locationImpl) Hash() (string, error) { return l.part((*whatwg.Url).Hash) }

// errNoNavigation is what the navigating members of Location return in a
// realm whose embedder gave no Navigate hook.
func errNoNavigation() error {
	return dom.NewDOMException("Navigation is not supported.", dom.NotSupportedError)
}

// navigateTo is "Location-object navigate" to an absolute URL, through
// the embedder's Navigate hook (which decides whether it is a fragment
// navigation, and replaces the entry while the document is loading).
func (l *locationImpl) navigateTo(target string, replace bool) error {
	if l.url == nil {
		return errNoNavigation()
	}
	h := l.realm.hooks.Navigate
	if h == nil {
		// Without an embedder, a fragment navigation still keeps to
		// its document: the URL changes, popstate and hashchange fire.
		if html.IsFragmentNavigation(l.href, target) {
			l.realm.UpdateDocumentForSameDocumentHistoryStep(target, nil)
			return nil
		}
		return errNoNavigation()
	}
	return h(target, replace)
}

// UpdateDocumentForSameDocumentHistoryStep is the part of
// https://html.spec.whatwg.org/#update-document-for-history-step-application
// that a window realm does for a document that is not new and whose latest
// session history entry changed to one at href (a fragment navigation, a
// same-document traversal). Call it in a task of this window realm. The
// embedder keeps the entries themselves; a realm without one (no Navigate
// hook) runs this for its fragment navigations. state is the entry's
// classic history API state (nil: null, as for a fragment navigation).
func (r *Realm) UpdateDocumentForSameDocumentHistoryStep(href string, state *html.SerializedRecord) {
	w, ok := r.globalImpl.(*windowImpl)
	if !ok {
		return
	}
	// 6.1. Let oldURL be document's latest entry's URL.
	oldURL := r.DocumentURL()
	// 6.2. Set document's latest entry to entry.
	r.SetDocumentURL(href)
	// 6.3. Restore the history object state given document and entry.
	h, _ := w.History()
	h.idlImpl().restoreHistoryObjectState(state)
	// 6.4.3. Fire an event named popstate at document's relevant global
	// object, using PopStateEvent, with the state attribute initialized
	// to document's history object's state.
	r.firePopStateEvent(w.history.state)
	// 6.4.5. If oldURL's fragment is not equal to entry's URL's
	// fragment, then queue a global task on the DOM manipulation task
	// source given document's relevant global object to fire an event
	// named hashchange at document's relevant global object, using
	// HashChangeEvent, with the oldURL attribute initialized to the
	// serialization of oldURL and the newURL attribute initialized to
	// the serialization of entry's URL.
	if fragmentWithHash(oldURL) != fragmentWithHash(href) {
		r.queueTask(html.DOMManipulationTaskSource, func() { r.FireHashChangeEvent(oldURL, href) })
	}
}

// fragmentWithHash is a serialized URL's fragment with its "#" ("" when
// it has none, "#" when it is empty).
func fragmentWithHash(href string) string {
	if i := strings.IndexByte(href, '#'); i >= 0 {
		return href[i:]
	}
	return ""
}

// navigate parses s relative to the document's base URL (failure is a
// SyntaxError, https://html.spec.whatwg.org/#dom-location-href) and
// navigates to the result.
func (l *locationImpl) navigate(s string, replace bool) error {
	if l.realm.hooks.Navigate == nil || l.url == nil {
		return errNoNavigation()
	}
	u, err := whatwg.ParseRef(l.realm.baseURL(), s)
	if err != nil {
		return dom.NewDOMException("'"+s+"' is not a valid URL.", dom.SyntaxError)
	}
	return l.navigateTo(u.Href(false), replace)
}

// set runs a URL-part setter of Location (html.LocationSetterURL) and
// navigates to the URL it gives.
func (l *locationImpl) set(member html.LocationMember, value string) error {
	// 1. If this's relevant Document is null, then return.
	if l.url == nil {
		return nil
	}
	target, err := html.LocationSetterURL(member, l.href, value)
	if errors.Is(err, html.ErrNoNavigation) {
		return nil
	}
	if err != nil {
		return err
	}
	return l.navigateTo(target, false)
}

func (l *locationImpl) SetHref(s string) error { return l.navigate(s, false) }

func (l *locationImpl) SetProtocol(v string) error { return l.set(html.LocationProtocol, v) }

func (l *locationImpl) SetHost(v string) error { return l.set(html.LocationHost, v) }

func (l *locationImpl) SetHostname(v string) error { return l.set(html.LocationHostname, v) }

func (l *locationImpl) SetPort(v string) error { return l.set(html.LocationPort, v) }

func (l *locationImpl) SetPathname(v string) error { return l.set(html.LocationPathname, v) }

func (l *locationImpl) SetSearch(v string) error { return l.set(html.LocationSearch, v) }

func (l *locationImpl) SetHash(v string) error { return l.set(html.LocationHash, v) }

func (l *locationImpl) Assign(s string) error { return l.navigate(s, false) }

func (l *locationImpl) Replace(s string) error { return l.navigate(s, true) }

// Reload is https://html.spec.whatwg.org/#dom-location-reload.
func (l *locationImpl) Reload() error {
	// 1-2. Let document be this's relevant Document; if it is null,
	//    return.
	if l.url == nil {
		return errNoNavigation()
	}
	// 3. (A caller of another origin gets its SecurityError before
	//    this: reload is not one of Location's cross-origin properties.)
	// 4. Reload document's node navigable: the embedder's reload, which
	//    history.go(0) runs too; without one, a navigation to the
	//    document's URL that replaces its entry.
	if f := l.realm.hooks.History.Traverse; f != nil {
		f(0)
		return nil
	}
	return l.navigateTo(l.href, true)
}

// SetDocumentURL is the part of a same-document navigation ("navigate to
// a fragment", a same-document traversal) that this realm keeps: the
// document's URL, which document.URL and location read, becomes href (an
// absolute URL). Call it in a task of this window realm.
func (r *Realm) SetDocumentURL(href string) {
	w, ok := r.globalImpl.(*windowImpl)
	if !ok {
		return
	}
	w.location.setHref(href)
	if d := w.document; d != nil {
		d.doc().URL = href
	}
}

// newLocation is the window's Location for the document at href.
func newLocation(r *Realm, href string) *locationImpl {
	l := &locationImpl{realm: r}
	l.setHref(strings.TrimSpace(href))
	return l
}

// locationImpl implements Location.
var _ LocationMethods = (*locationImpl)(nil)

// hrefOf is u serialized, "" for nil.
func hrefOf(u *url.URL) string {
	if u == nil {
		return ""
	}
	return u.String()
}

// DocumentURL is the URL of the window's document as location.href reads
// it ("" for a worker realm or a window without a URL). Call it in a task
// of this realm.
func (r *Realm) DocumentURL() string {
	if w, ok := r.globalImpl.(*windowImpl); ok {
		return w.location.href
	}
	return ""
}
