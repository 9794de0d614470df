package origin

import (
	"net"
	"net/url"
	"strings"
)

// IsOriginPotentiallyTrustworthy is the Secure Contexts algorithm "Is origin
// potentially trustworthy?".
func IsOriginPotentiallyTrustworthy(o Origin) bool {
	// 1. If origin is an opaque origin, return "Not Trustworthy".
	if o.IsOpaque() {
		return false
	}
	// 2. Assert: origin is a tuple origin.
	// 3. If origin's scheme is either "https" or "wss", return "Potentially Trustworthy".
	if o.scheme == "https" || o.scheme == "wss" {
		return true
	}
	// 4. If origin's host matches one of the CIDR notations 127.0.0.0/8 or
	//    ::1/128, return "Potentially Trustworthy".
	h := o.host
	if strings.HasPrefix(h, "[") {
		// An IPv6 host: only ::1 (an IPv4-mapped ::ffff:127.0.0.1 is not in
		// ::1/128, and it is not an IPv4 address either).
		ip := net.ParseIP(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
		return ip != nil && ip.Equal(net.IPv6loopback)
	}
	if ip := net.ParseIP(h); ip != nil {
		return ip.To4() != nil && ip.To4()[0] == 127
	}
	// 5. If the user agent conforms to the name resolution rules in
	//    [let-localhost-be-localhost] and one of the following is true:
	//    origin's host is "localhost" or "localhost.", or origin's host ends
	//    with ".localhost" or ".localhost.", return "Potentially Trustworthy".
	//    (Names are never resolved: web-platform.test is not trustworthy even
	//    when it resolves to 127.0.0.1.)
	if h == "localhost" || h == "localhost." || strings.HasSuffix(h, ".localhost") || strings.HasSuffix(h, ".localhost.") {
		return true
	}
	// 6. If origin's scheme is "file", return "Potentially Trustworthy".
	if o.scheme == "file" {
		return true
	}
	// 7. If origin's scheme component is one which the user agent considers
	//    to be authenticated, return "Potentially Trustworthy". (None.)
	// 8. If origin has been configured as a trustworthy origin, return
	//    "Potentially Trustworthy". (No configuration.)
	// 9. Return "Not Trustworthy".
	return false
}

// IsURLPotentiallyTrustworthy is the Secure Contexts algorithm "Is url
// potentially trustworthy?".
//
// FromURL gives file: URLs opaque origins (implementation-defined), which
// would make step 6 of the origin algorithm unreachable; so, as the note on
// file URLs in Secure Contexts intends, a "file" URL is treated as
// potentially trustworthy here directly.
func IsURLPotentiallyTrustworthy(u *url.URL) bool {
	if u == nil {
		return false
	}
	scheme := strings.ToLower(u.Scheme)
	// 1. If url is "about:blank" or "about:srcdoc", return "Potentially Trustworthy".
	if scheme == "about" {
		rest := u.Opaque
		if rest == "" {
			rest = u.Path
		}
		if rest == "blank" || rest == "srcdoc" {
			return true
		}
	}
	// 2. If url's scheme is "data", return "Potentially Trustworthy".
	if scheme == "data" {
		return true
	}
	// (file: see the doc comment.)
	if scheme == "file" {
		return true
	}
	// 3. Return the result of executing "Is origin potentially trustworthy?"
	//    on url's origin.
	return IsOriginPotentiallyTrustworthy(FromURL(u))
}
