// Package origin implements the HTML Standard's origins and sites and the
// Secure Contexts "potentially trustworthy" checks. It is a leaf package.
package origin

import (
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// Origin is an HTML origin: either a tuple origin (scheme, host, port) or an
// opaque origin. The zero value is an opaque origin that is only same origin
// with other zero values; use NewOpaque for fresh opaque origins.
//
// Origin values are comparable: a == b exactly when SameOrigin(a, b). They can
// be used as map keys. The origin's domain (document.domain) is not modelled,
// so "same origin-domain" equals "same origin".
type Origin struct {
	scheme string // "" for opaque origins
	host   string // serialized host: lowercase domain, IPv4, or "[v6]"
	port   int    // -1 when null (default port)
	opaque uint64 // non-zero identity of an opaque origin
}

var opaqueCounter atomic.Uint64

// NewOpaque returns a new opaque origin, same origin only with itself.
func NewOpaque() Origin {
	return Origin{opaque: opaqueCounter.Add(1), port: -1}
}

// NewTuple returns the tuple origin (scheme, host, port). port < 0 means null.
// scheme and host are lowercased; host is given without brackets for IPv6.
func NewTuple(scheme, host string, port int) Origin {
	if port < 0 {
		port = -1
	}
	return Origin{scheme: strings.ToLower(scheme), host: serializeHost(host), port: port}
}

func serializeHost(h string) string {
	h = strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(h, "["), "]"))
	if strings.Contains(h, ":") {
		// An IPv6 address: the URL Standard's compressed serialization in
		// brackets. (Go prints IPv4-mapped addresses as dotted quads; the
		// URL Standard keeps them hexadecimal.)
		if ip := net.ParseIP(h); ip != nil {
			if v4 := ip.To4(); v4 != nil {
				return "[::ffff:" + strconv.FormatUint(uint64(v4[0])<<8|uint64(v4[1]), 16) + ":" +
					strconv.FormatUint(uint64(v4[2])<<8|uint64(v4[3]), 16) + "]"
			}
			return "[" + ip.String() + "]"
		}
		return "[" + h + "]"
	}
	return h
}

// urlIDNA is UTS #46 as the URL Standard's "domain to ASCII" uses it with
// beStrict false: non-transitional, CheckHyphens false, UseSTD3ASCIIRules
// false, CheckBidi and CheckJoiners true.
var urlIDNA = idna.New(idna.MapForLookup(), idna.Transitional(false),
	idna.StrictDomainName(false), idna.CheckHyphens(false), idna.CheckJoiners(true), idna.BidiRule())

// domainToASCII is the URL Standard's "domain to ASCII" (ASCII hosts only
// need lowercasing).
func domainToASCII(host string) (string, error) {
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			return urlIDNA.ToASCII(host)
		}
	}
	return strings.ToLower(host), nil
}

// isForbiddenDomainCodePoint is the URL Standard's "forbidden domain code
// point" (url.Parse is laxer than the host parser).
func isForbiddenDomainCodePoint(r rune) bool {
	if r <= 0x1F || r == 0x7F {
		return true
	}
	return strings.ContainsRune(" #/:<>?@[\\]^|%", r)
}

// defaultPort is the URL Standard's default port table.
func defaultPort(scheme string) int {
	switch scheme {
	case "http", "ws":
		return 80
	case "https", "wss":
		return 443
	case "ftp":
		return 21
	}
	return -1
}

// FromURL returns the origin of a URL, following the URL Standard's "origin"
// getter:
//
//  1. "blob": the origin of the blob URL's path parsed as a URL if its scheme
//     is http or https, otherwise a new opaque origin.
//  2. "ftp", "http", "https", "ws", "wss": the tuple (scheme, host, port).
//  3. "file": implementation-defined; we return a new opaque origin, as the
//     standard advises "when in doubt".
//  4. Otherwise: a new opaque origin.
//
// A nil URL gives a new opaque origin.
func FromURL(u *url.URL) Origin {
	if u == nil {
		return NewOpaque()
	}
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "blob":
		// 1. blob: parse the path; use its origin when http(s).
		inner := u.Opaque
		if inner == "" {
			inner = u.Path
		}
		p, err := url.Parse(inner)
		if err == nil && (strings.EqualFold(p.Scheme, "http") || strings.EqualFold(p.Scheme, "https")) {
			return FromURL(p)
		}
		return NewOpaque()
	case "ftp", "http", "https", "ws", "wss":
		// 2. Return the tuple origin.
		host := u.Hostname()
		if host == "" {
			return NewOpaque()
		}
		port := -1
		if ps := u.Port(); ps != "" {
			n, err := strconv.Atoi(ps)
			if err != nil || n < 0 || n > 65535 {
				return NewOpaque()
			}
			if n != defaultPort(scheme) {
				port = n
			}
		}
		// The URL Standard's host parser applies domain to ASCII (IDNA):
		// "BÜCHER.test" and "xn--bcher-kva.test" are the same host.
		if !strings.Contains(host, ":") && net.ParseIP(host) == nil {
			ascii, err := domainToASCII(host)
			if err != nil || ascii == "" || strings.ContainsFunc(ascii, isForbiddenDomainCodePoint) {
				return NewOpaque() // host parsing failure: no tuple origin
			}
			host = ascii
		}
		h := serializeHost(host)
		if h == "" || h == "[]" {
			return NewOpaque()
		}
		return Origin{scheme: scheme, host: h, port: port}
	}
	// 3, 4. file and everything else: a new opaque origin.
	return NewOpaque()
}

// Parse parses rawURL and returns its origin (a new opaque origin on error).
func Parse(rawURL string) Origin {
	u, err := url.Parse(rawURL)
	if err != nil {
		return NewOpaque()
	}
	return FromURL(u)
}

// IsOpaque reports whether o is an opaque origin.
func (o Origin) IsOpaque() bool { return o.scheme == "" }

// Scheme returns the scheme of a tuple origin ("" for opaque origins).
func (o Origin) Scheme() string { return o.scheme }

// Host returns the serialized host of a tuple origin ("" for opaque ones).
func (o Origin) Host() string { return o.host }

// Port returns the port of a tuple origin, or -1 when it is null.
func (o Origin) Port() int {
	if o.IsOpaque() {
		return -1
	}
	return o.port
}

// Serialize is the HTML "ASCII serialization of an origin": "null" for
// opaque origins, otherwise scheme "://" host [":" port].
func (o Origin) Serialize() string {
	// 1. If origin is an opaque origin, then return "null".
	if o.IsOpaque() {
		return "null"
	}
	// 2-5. scheme, "://", host, then ":" port when non-null.
	s := o.scheme + "://" + o.host
	if o.port >= 0 {
		s += ":" + strconv.Itoa(o.port)
	}
	return s
}

// String returns Serialize(), with an identity suffix for opaque origins so
// that debugging output can tell them apart.
func (o Origin) String() string {
	if o.IsOpaque() {
		return "null#" + strconv.FormatUint(o.opaque, 10)
	}
	return o.Serialize()
}

// SameOrigin is the HTML "same origin" check: two opaque origins are same
// origin only if they are identical; tuple origins compare scheme, host, port.
func SameOrigin(a, b Origin) bool { return a == b }

// Site is the HTML "site": an opaque origin or a scheme-and-host. Site values
// are comparable and usable in map keys.
type Site struct {
	scheme string
	host   string
	opaque uint64 // non-zero when the site is an opaque origin
}

// ObtainSite is the HTML "obtain a site" algorithm.
func ObtainSite(o Origin) Site {
	// 1. If origin is an opaque origin, then return origin.
	if o.IsOpaque() {
		return Site{opaque: o.opaque}
	}
	// 2. If origin's host's registrable domain is null, then return
	//    (origin's scheme, origin's host).
	rd := RegistrableDomain(o.host)
	if rd == "" {
		return Site{scheme: o.scheme, host: o.host}
	}
	// 3. Return (origin's scheme, origin's host's registrable domain).
	return Site{scheme: o.scheme, host: rd}
}

// RegistrableDomain returns the host's registrable domain per the URL
// Standard (the public suffix plus one label), or "" when it is null (IP
// addresses, public suffixes themselves, single labels like "localhost").
func RegistrableDomain(host string) string {
	if host == "" || strings.HasPrefix(host, "[") || net.ParseIP(host) != nil {
		return ""
	}
	h := strings.TrimSuffix(host, ".")
	rd, err := publicsuffix.EffectiveTLDPlusOne(h)
	if err != nil {
		return ""
	}
	if strings.HasSuffix(host, ".") {
		rd += "."
	}
	return rd
}

// IsOpaque reports whether the site is an opaque origin.
func (s Site) IsOpaque() bool { return s.scheme == "" }

// Serialize is the HTML "serialize a site": "null" for an opaque origin,
// otherwise scheme "://" host.
func (s Site) Serialize() string {
	if s.IsOpaque() {
		return "null"
	}
	return s.scheme + "://" + s.host
}

// String is Serialize with an identity suffix for opaque sites.
func (s Site) String() string {
	if s.IsOpaque() {
		return "null#" + strconv.FormatUint(s.opaque, 10)
	}
	return s.Serialize()
}

// SameSite is the HTML "same site" check on two sites.
func SameSite(a, b Site) bool { return a == b }

// SameSiteOrigins reports whether two origins are same site: "obtain a
// site" of each, then compare.
func SameSiteOrigins(a, b Origin) bool { return ObtainSite(a) == ObtainSite(b) }
