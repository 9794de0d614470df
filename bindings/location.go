package bindings

import (
	"net/url"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
)

type locationImpl struct {
	webidl.Reflector
	realm *Realm
	url   *url.URL
}

func (l *locationImpl) part(k string) (string, error) {
	if l.url == nil {
		return "", nil
	}
	return urlParts(l.url)[k], nil
}

func (l *locationImpl) Href() (string, error) { return l.part("href") }

func (l *locationImpl) Origin() (string, error) { return l.part("origin") }

func (l *locationImpl) Protocol() (string, error) { return l.part("protocol") }

func (l *locationImpl) Host() (string, error) { return l.part("host") }

func (l *locationImpl) Hostname() (string, error) { return l.part("hostname") }

func (l *locationImpl) Port() (string, error) { return l.part("port") }

func (l *locationImpl) Pathname() (string, error) { return l.part("pathname") }

func (l *locationImpl) Search() (string, error) { return l.part("search") }

func (l *locationImpl) Hash() (string, error) { return l.part("hash") }

// errNoNavigation is what the navigating members of Location return: this
// engine's documents do not navigate from script.
func errNoNavigation() error {
	return dom.NewDOMException("Navigation is not supported.", dom.NotSupportedError)
}

// navigate is the Location-object navigate of the URL parsed from s
// (against the document's URL; failure is a SyntaxError), through the
// embedder's Navigate hook.
func (l *locationImpl) navigate(s string, replace bool) error {
	h := l.realm.hooks.Navigate
	if h == nil || l.url == nil {
		return errNoNavigation()
	}
	u, err := l.url.Parse(s)
	if err != nil {
		return dom.NewDOMException("'"+s+"' is not a valid URL.", dom.SyntaxError)
	}
	return h(u.String(), replace)
}

func (l *locationImpl) SetHref(s string) error { return l.navigate(s, false) }

func (l *locationImpl) SetProtocol(string) error { return errNoNavigation() }

func (l *locationImpl) SetHost(string) error { return errNoNavigation() }

func (l *locationImpl) SetHostname(string) error { return errNoNavigation() }

func (l *locationImpl) SetPort(string) error { return errNoNavigation() }

func (l *locationImpl) SetPathname(string) error { return errNoNavigation() }

func (l *locationImpl) SetSearch(string) error { return errNoNavigation() }

func (l *locationImpl) Assign(s string) error { return l.navigate(s, false) }

func (l *locationImpl) Replace(s string) error { return l.navigate(s, true) }

func (l *locationImpl) Reload() error {
	if l.url == nil {
		return errNoNavigation()
	}
	return l.navigate(l.url.String(), true)
}

// SetHash is a fragment navigation: it only changes the URL's fragment.
func (l *locationImpl) SetHash(v string) error {
	if l.url == nil {
		return nil
	}
	u := *l.url
	if len(v) > 0 && v[0] == '#' {
		v = v[1:]
	}
	u.Fragment, u.RawFragment = v, ""
	l.url = &u
	return nil
}

// locationImpl implements Location.
var _ LocationMethods = (*locationImpl)(nil)
