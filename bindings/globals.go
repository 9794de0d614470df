package bindings

import (
	"net/url"
	"strings"
)

// envInfo is what the realm's globals report about its environment
// settings object.
type envInfo struct {
	url    *url.URL // the creation URL
	origin string   // the serialized origin ("null" when opaque)
	secure bool     // is a secure context
}

// urlParts returns the URL Standard's getters of u (href, origin,
// protocol, host, hostname, port, pathname, search, hash).
func urlParts(u *url.URL) map[string]string {
	p := map[string]string{}
	p["href"] = u.String()
	p["protocol"] = u.Scheme + ":"
	p["host"] = u.Host
	p["hostname"] = u.Hostname()
	p["port"] = u.Port()
	path := u.EscapedPath()
	if u.Opaque != "" {
		path = u.Opaque
	}
	p["pathname"] = path
	if u.RawQuery != "" || u.ForceQuery {
		p["search"] = "?" + u.RawQuery
	} else {
		p["search"] = ""
	}
	if frag := u.EscapedFragment(); frag != "" {
		p["hash"] = "#" + frag
	} else {
		p["hash"] = ""
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ws", "wss", "ftp":
		p["origin"] = u.Scheme + "://" + u.Host
	default:
		p["origin"] = "null"
	}
	return p
}

// hasGlobal reports whether the global object has an own property name.
func (r *Realm) hasGlobal(name string) bool {
	return r.idl.Pending(name) || r.idl.HasOwnProperty(r.global, name)
}
