package html

import (
	"errors"
	"strings"

	"github.com/gowebengine/weblocks/dom"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// This file holds the URL side of the Location interface
// (https://html.spec.whatwg.org/#the-location-interface): what each
// navigating setter turns the document's URL into, and whether a
// navigation is a fragment navigation. The navigation itself is the
// host's (browser), which calls these with the document's URL as the
// URL standard serializes it.

// LocationMember names a setter of Location that navigates.
type LocationMember string

// The Location setters that navigate.
const (
	LocationProtocol LocationMember = "protocol"
	LocationHost     LocationMember = "host"
	LocationHostname LocationMember = "hostname"
	LocationPort     LocationMember = "port"
	LocationPathname LocationMember = "pathname"
	LocationSearch   LocationMember = "search"
	LocationHash     LocationMember = "hash"
)

// ErrNoNavigation is returned by LocationSetterURL when the setter's steps
// end without navigating (for example the protocol setter given a scheme
// that is not http or https, or the hash setter given the current
// fragment).
var ErrNoNavigation = errors.New("html: the setter does not navigate")

// LocationSetterURL is https://html.spec.whatwg.org/#dom-location-protocol
// and the setters after it (host, hostname, port, pathname, search, hash)
// up to "Location-object navigate": given the member, the serialized URL
// of the Location (current) and the value, it returns the URL to navigate
// to, ErrNoNavigation when the steps return early, or a SyntaxError
// DOMException (the protocol setter's failure, or a current URL that does
// not parse). Steps 1 and 2 of each (a null relevant Document, the same
// origin-domain check) are the host's; each setter's own steps follow from
// its step 3, "Let copyURL be a copy of this's url".
func LocationSetterURL(member LocationMember, current, value string) (string, error) {
	copyURL, err := whatwg.Parse(current)
	if err != nil {
		return "", dom.NewDOMException("'"+current+"' is not a valid URL.", dom.SyntaxError)
	}
	switch member {
	case LocationProtocol:
		// https://html.spec.whatwg.org/#dom-location-protocol
		// 4. Let possibleFailure be the result of basic URL parsing
		// the given value, followed by ":", with copyURL as url and
		// scheme start state as state override.
		// 5. If possibleFailure is failure, then throw a "SyntaxError"
		// DOMException.
		if !validSchemeOverride(value) {
			return "", dom.NewDOMException("'"+value+"' is an invalid protocol.", dom.SyntaxError)
		}
		copyURL.SetProtocol(value)
		// 6. If copyURL's scheme is not an HTTP(S) scheme, then
		// terminate these steps.
		if s := copyURL.Scheme(); s != "http" && s != "https" {
			return "", ErrNoNavigation
		}
	case LocationHost:
		// https://html.spec.whatwg.org/#dom-location-host
		// 4. If copyURL has an opaque path, then return.
		if copyURL.OpaquePath() {
			return "", ErrNoNavigation
		}
		// 5. Basic URL parse the given value, with copyURL as url and
		// host state as state override.
		copyURL.SetHost(value)
	case LocationHostname:
		// https://html.spec.whatwg.org/#dom-location-hostname
		// 4. If copyURL has an opaque path, then return.
		if copyURL.OpaquePath() {
			return "", ErrNoNavigation
		}
		// 5. Basic URL parse the given value, with copyURL as url and
		// hostname state as state override.
		copyURL.SetHostname(value)
	case LocationPort:
		// https://html.spec.whatwg.org/#dom-location-port
		// 4. If copyURL cannot have a username/password/port, then
		// return.
		if cannotHaveUsernamePasswordPort(copyURL) {
			return "", ErrNoNavigation
		}
		// 5. If the given value is the empty string, then set copyURL's
		// port to null. 6. Otherwise, basic URL parse the given value,
		// with copyURL as url and port state as state override.
		copyURL.SetPort(value)
	case LocationPathname:
		// https://html.spec.whatwg.org/#dom-location-pathname
		// 4. If copyURL has an opaque path, then return.
		if copyURL.OpaquePath() {
			return "", ErrNoNavigation
		}
		// 5. Set copyURL's path to the empty list. 6. Basic URL parse
		// the given value, with copyURL as url and path start state as
		// state override.
		copyURL.SetPathname(value)
	case LocationSearch:
		// https://html.spec.whatwg.org/#dom-location-search
		// 4. If the given value is the empty string, set copyURL's
		// query to null. 5. Otherwise: remove a single leading "?",
		// set copyURL's query to the empty string, and basic URL parse
		// input with copyURL as url and query state as state override.
		copyURL.SetSearch(value)
	case LocationHash:
		// https://html.spec.whatwg.org/#dom-location-hash
		// 3. Let thisURLFragment be copyURL's fragment if it is
		// non-null; otherwise the empty string.
		thisURLFragment := fragmentOf(current)
		// 4. Let input be the given value with a single leading "#"
		// removed, if any.
		input := strings.TrimPrefix(value, "#")
		// 5. Set copyURL's fragment to the empty string. 6. Basic URL
		// parse input, with copyURL as url and fragment state as state
		// override. (The URL API's hash setter makes the fragment null
		// for an empty value; Location keeps it empty and non-null, so
		// the fragment is parsed here as part of a whole URL, which
		// encodes it as the fragment state does.)
		u, err := whatwg.Parse(copyURL.Href(true) + "#" + input)
		if err != nil {
			return "", dom.NewDOMException("'"+value+"' is not a valid fragment.", dom.SyntaxError)
		}
		// 7. If copyURL's fragment is thisURLFragment, then return.
		if fragmentOf(u.Href(false)) == thisURLFragment {
			return "", ErrNoNavigation
		}
		return u.Href(false), nil
	default:
		return "", errors.New("html: unknown Location member " + string(member))
	}
	// Location-object navigate this to copyURL.
	return copyURL.Href(false), nil
}

// validSchemeOverride reports whether basic URL parsing value followed by
// ":" with scheme start state as state override succeeds: after tabs and
// newlines are removed, the part before the first ":" is an ASCII alpha
// followed by ASCII alphanumerics, "+", "-" or ".".
func validSchemeOverride(value string) bool {
	s := strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, value+":")
	scheme := s[:strings.IndexByte(s, ':')]
	if scheme == "" {
		return false
	}
	for i := 0; i < len(scheme); i++ {
		c := scheme[i]
		alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if i == 0 && !alpha {
			return false
		}
		if !alpha && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

// cannotHaveUsernamePasswordPort is the URL standard's "cannot have a
// username/password/port": its host is null or the empty host, or its
// scheme is "file".
func cannotHaveUsernamePasswordPort(u *whatwg.Url) bool {
	return u.Host() == "" || u.Scheme() == "file"
}

// fragmentOf returns the fragment of a serialized URL ("" when it has
// none or an empty one).
func fragmentOf(s string) string {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		return s[i+1:]
	}
	return ""
}

// IsFragmentNavigation is https://html.spec.whatwg.org/#navigate, the step
// that sends a navigation to "navigate to a fragment": the navigation is a
// GET without a body (the caller's part), target equals the document's URL
// current with exclude fragments set to true, and target's fragment is
// non-null. Both URLs are serialized.
func IsFragmentNavigation(current, target string) bool {
	i := strings.IndexByte(target, '#')
	if i < 0 {
		return false
	}
	base := current
	if j := strings.IndexByte(current, '#'); j >= 0 {
		base = current[:j]
	}
	return target[:i] == base
}
