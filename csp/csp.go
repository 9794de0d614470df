// Package csp is Content Security Policy Level 3 (https://w3c.github.io/webappsec-csp/)
// as far as fetching needs it: parsing policies from Content-Security-Policy
// headers and <meta http-equiv> elements (the CSP list of an environment,
// its policy container's, is package csp/container's), and "should
// request be blocked by Content
// Security Policy?" for the fetch directives (connect-src, script-src,
// img-src, style-src, font-src, media-src, worker-src, frame-src,
// manifest-src, object-src, child-src, default-src and their fallbacks),
// which package fetch runs in main fetch. It is plain Go (the core layer)
// and never imports a JavaScript engine.
//
// Deviations: no violation reports (report-uri, report-to,
// securitypolicyviolation events) and no report-only enforcement; nonces,
// hashes, 'strict-dynamic' and the inline checks (script and style
// elements and attributes, eval) are parsed but not enforced: only
// request URLs are checked.
package csp

import (
	"net/url"
	"strings"

	"github.com/gowebengine/weblocks/origin"
)

// Disposition is a policy's disposition.
type Disposition string

const (
	Enforce Disposition = "enforce"
	Report  Disposition = "report"
)

// Directive is https://w3c.github.io/webappsec-csp/#directives: a name
// (ASCII lower case) and a value, its source expressions.
type Directive struct {
	Name  string
	Value []string
}

// Policy is https://w3c.github.io/webappsec-csp/#content-security-policy-object.
type Policy struct {
	Directives  []Directive
	Disposition Disposition
	// Source is "header" or "meta".
	Source string
	// SelfOrigin is the policy's self-origin ('self' matches it).
	SelfOrigin origin.Origin
}

// List is a CSP list: the policies of a policy container.
type List []*Policy

// ParseSerializedPolicy is https://w3c.github.io/webappsec-csp/#parse-serialized-policy
// for serialized (a policy's text), from source ("header" or "meta")
// with disposition, whose self-origin is self.
func ParseSerializedPolicy(serialized, source string, disposition Disposition, self origin.Origin) *Policy {
	// 1. Let policy be a new policy with an empty directive set, a
	//    source of source, and a disposition of disposition.
	p := &Policy{Source: source, Disposition: disposition, SelfOrigin: self}
	// 2. For each token returned by strictly splitting serialized on
	//    the U+003B SEMICOLON character (;):
	for _, token := range strings.Split(serialized, ";") {
		// 2.1. Strip leading and trailing ASCII whitespace from token.
		token = strings.Trim(token, asciiWhitespace)
		// 2.2. If token is an empty string, or if token is not an ASCII
		//      string, continue.
		if token == "" || !isASCII(token) {
			continue
		}
		// 2.3. Let directive name be the result of collecting a sequence
		//      of code points that are not ASCII whitespace from token.
		name, rest := token, ""
		if i := strings.IndexAny(token, asciiWhitespace); i >= 0 {
			name, rest = token[:i], token[i:]
		}
		// 2.4. Set directive name to be the result of running ASCII
		//      lowercase on directive name.
		name = strings.ToLower(name)
		// 2.5. If policy's directive set contains a directive whose name
		//      is directive name, continue (the first one wins).
		if p.directive(name) != nil {
			continue
		}
		// 2.6. Let directive value be the result of splitting token on
		//      ASCII whitespace.
		value := strings.FieldsFunc(rest, func(r rune) bool { return strings.ContainsRune(asciiWhitespace, r) })
		// 2.7-2.8. Append a new directive.
		p.Directives = append(p.Directives, Directive{Name: name, Value: value})
	}
	// 3. Return policy.
	return p
}

// ParseResponsePolicies is https://w3c.github.io/webappsec-csp/#parse-response-csp
// for the values of a response's Content-Security-Policy (enforced) and
// Content-Security-Policy-Report-Only (reported) headers: each value is
// a comma-separated list of policies; empty policies are dropped.
func ParseResponsePolicies(enforced, reportOnly []string, self origin.Origin) List {
	var list List
	for _, d := range []struct {
		values      []string
		disposition Disposition
	}{{enforced, Enforce}, {reportOnly, Report}} {
		for _, v := range d.values {
			for _, token := range strings.Split(v, ",") {
				if p := ParseSerializedPolicy(token, "header", d.disposition, self); len(p.Directives) > 0 {
					list = append(list, p)
				}
			}
		}
	}
	return list
}

// directive is the directive of p named name, or nil.
func (p *Policy) directive(name string) *Directive {
	for i := range p.Directives {
		if p.Directives[i].Name == name {
			return &p.Directives[i]
		}
	}
	return nil
}

// Request is what "should request be blocked by Content Security
// Policy?" needs of a request of package fetch.
type Request struct {
	URL           *url.URL
	Destination   string
	Initiator     string
	RedirectCount int
	// NestedDocument: a "document" request for a nested navigable.
	NestedDocument bool
}

// ShouldRequestBeBlocked is https://w3c.github.io/webappsec-csp/#should-block-request
// for a request whose policy container's CSP list is list: true
// ("Blocked") when an enforced policy's directive blocks it.
func (list List) ShouldRequestBeBlocked(req Request) bool {
	// 1. Let CSP list be request's policy container's CSP list.
	// 2. Let result be "Allowed".
	// 3. For each policy of CSP list:
	for _, p := range list {
		// 3.1. If policy's disposition is "report", then skip to the
		//      next policy.
		if p.Disposition == Report {
			continue
		}
		// 3.2. Let violates be the result of executing "Does request
		//      violate policy?" on request and policy.
		// 3.3. If violates is not "Does Not Violate", then: execute
		//      "Report a violation" (not done), and set result to
		//      "Blocked".
		if p.requestViolates(req) != nil {
			return true
		}
	}
	// 4. Return result.
	return false
}

// requestViolates is https://w3c.github.io/webappsec-csp/#does-request-violate-policy
// for the fetch directives: the directive violated, or nil.
func (p *Policy) requestViolates(req Request) *Directive {
	// 1. If request's initiator is "prefetch", then return the result of
	//    executing "Does resource hint request violate policy?".
	// 2. Let violates be "Does Not Violate".
	// 3. For each directive of policy: run its pre-request check; if it
	//    returns "Blocked", then set violates to directive.
	effective := getTheEffectiveDirectiveForRequest(req)
	if effective == "" {
		return nil
	}
	// (The pre-request check of a fetch directive: only the directive
	// that is the effective directive, or the one the fallback list
	// chooses, applies: "should fetch directive execute".)
	for _, name := range directiveFallbackList(effective) {
		d := p.directive(name)
		if d == nil {
			continue
		}
		if !doesRequestMatchSourceList(req, d.Value, p.SelfOrigin) {
			return d
		}
		return nil
	}
	return nil
}

// getTheEffectiveDirectiveForRequest is https://w3c.github.io/webappsec-csp/#effective-directive-for-a-request
// ("" for null).
func getTheEffectiveDirectiveForRequest(req Request) string {
	// 1. If request's initiator is "prefetch" or "prerender", return
	//    default-src.
	if req.Initiator == "prefetch" || req.Initiator == "prerender" {
		return "default-src"
	}
	// 2. Switch on request's destination, and execute the associated
	//    steps:
	switch req.Destination {
	case "":
		// the empty string: return connect-src.
		return "connect-src"
	case "manifest":
		return "manifest-src"
	case "object", "embed":
		return "object-src"
	case "frame", "iframe":
		return "frame-src"
	case "document":
		// If the request's target browsing context is a nested
		// browsing context, return frame-src.
		if req.NestedDocument {
			return "frame-src"
		}
	case "audio", "track", "video":
		return "media-src"
	case "font":
		return "font-src"
	case "image":
		return "img-src"
	case "style":
		return "style-src-elem"
	case "script", "xslt", "audioworklet", "paintworklet":
		return "script-src-elem"
	case "serviceworker", "sharedworker", "worker":
		return "worker-src"
	case "json", "webidentity":
		return "connect-src"
	case "report":
		return ""
	}
	// 3. Return connect-src.
	return "connect-src"
}

// directiveFallbackList is https://w3c.github.io/webappsec-csp/#directive-fallback-list.
func directiveFallbackList(name string) []string {
	switch name {
	case "script-src-elem":
		return []string{"script-src-elem", "script-src", "default-src"}
	case "script-src-attr":
		return []string{"script-src-attr", "script-src", "default-src"}
	case "style-src-elem":
		return []string{"style-src-elem", "style-src", "default-src"}
	case "style-src-attr":
		return []string{"style-src-attr", "style-src", "default-src"}
	case "worker-src":
		return []string{"worker-src", "child-src", "script-src", "default-src"}
	case "connect-src", "manifest-src", "img-src", "font-src", "media-src", "object-src":
		return []string{name, "default-src"}
	case "frame-src":
		return []string{"frame-src", "child-src", "default-src"}
	case "child-src":
		return []string{"child-src", "default-src"}
	}
	return []string{name}
}

// doesRequestMatchSourceList is https://w3c.github.io/webappsec-csp/#match-request-to-source-list.
func doesRequestMatchSourceList(req Request, list []string, self origin.Origin) bool {
	// 1. Return the result of executing "Does url match source list in
	//    origin with redirect count?" on request's current url, source
	//    list, policy's self-origin, and request's redirect count.
	return doesURLMatchSourceList(req.URL, list, self, req.RedirectCount)
}

// doesURLMatchSourceList is https://w3c.github.io/webappsec-csp/#match-url-to-source-list.
func doesURLMatchSourceList(u *url.URL, list []string, self origin.Origin, redirectCount int) bool {
	// 1. Assert: source list is not null.
	// 2. If source list is empty, return "Does Not Match" (an empty
	//    directive value matches nothing, as 'none' does).
	// 3. If source list's size is 1, and source list[0] is an ASCII
	//    case-insensitive match for the string "'none'", return "Does Not
	//    Match".
	if len(list) == 0 || len(list) == 1 && strings.EqualFold(list[0], "'none'") {
		return false
	}
	// 4. For each expression of source list: if "Does url match
	//    expression in origin with redirect count?" returns "Matches",
	//    return "Matches".
	for _, expr := range list {
		if doesURLMatchExpression(u, expr, self, redirectCount) {
			return true
		}
	}
	// 5. Return "Does Not Match".
	return false
}

// doesURLMatchExpression is https://w3c.github.io/webappsec-csp/#match-url-to-source-expression.
func doesURLMatchExpression(u *url.URL, expr string, self origin.Origin, redirectCount int) bool {
	scheme := strings.ToLower(u.Scheme)
	// 1. If expression is the string "*", return "Matches" if one or
	//    more of the following conditions is met: url's scheme is an
	//    HTTP(S) scheme; url's scheme is the same as origin's scheme.
	if expr == "*" {
		return scheme == "http" || scheme == "https" || scheme == "ws" || scheme == "wss" ||
			!self.IsOpaque() && scheme == self.Scheme()
	}
	// 2. If expression matches the scheme-source or host-source grammar:
	if s, ok := parseSchemeSource(expr); ok {
		// 2.1. If expression has a scheme-part, and it does not
		//      scheme-part match url's scheme, return "Does Not Match".
		return schemePartMatch(s, scheme)
	}
	if h, ok := parseHostSource(expr); ok {
		// 2.1. (As above for a host-source's scheme-part.)
		if h.scheme != "" && !schemePartMatch(h.scheme, scheme) {
			return false
		}
		// 2.2. If expression matches the host-source grammar:
		// 2.2.1. If url's host is null, return "Does Not Match".
		if u.Host == "" {
			return false
		}
		// 2.2.2. If expression does not have a scheme-part, and origin's
		//        scheme does not scheme-part match url's scheme, return
		//        "Does Not Match".
		if h.scheme == "" && (self.IsOpaque() || !schemePartMatch(self.Scheme(), scheme)) {
			return false
		}
		// 2.2.3. If expression's host-part does not host-part match
		//        url's host, return "Does Not Match".
		if !hostPartMatch(h.host, strings.ToLower(u.Hostname())) {
			return false
		}
		// 2.2.4-2.2.5. Let port-part be expression's port-part if
		//        present, and null otherwise; if it does not port-part
		//        match url, return "Does Not Match".
		if !portPartMatch(h.port, u) {
			return false
		}
		// 2.2.6. If expression contains a non-empty path-part, and
		//        redirect count is 0, then: if path-part does not
		//        path-part match url's path, return "Does Not Match".
		if h.path != "" && h.path != "/" && redirectCount == 0 && !pathPartMatch(h.path, u.EscapedPath()) {
			return false
		}
		// 2.2.7. Return "Matches".
		return true
	}
	// 3. If expression is an ASCII case-insensitive match for "'self'",
	//    return "Matches" if one or more of the following conditions is
	//    met: origin is the same as url's origin; origin's host is the
	//    same as url's host, origin's port and url's port are either the
	//    same or the default ports for their respective schemes, and
	//    either url's scheme is "https" or "wss", or origin's scheme is
	//    "http" and url's scheme is "http" or "ws".
	if strings.EqualFold(expr, "'self'") {
		if self.IsOpaque() {
			return false
		}
		uo := origin.FromURL(u)
		if origin.SameOrigin(self, uo) {
			return true
		}
		if uo.IsOpaque() || self.Host() != uo.Host() {
			return false
		}
		samePort := self.Port() == uo.Port() || isDefaultPort(self.Scheme(), self.Port()) && isDefaultPort(scheme, uo.Port())
		return samePort && (scheme == "https" || scheme == "wss" || self.Scheme() == "http" && (scheme == "http" || scheme == "ws"))
	}
	// 4. Return "Does Not Match".
	return false
}

func isDefaultPort(scheme string, port int) bool {
	switch scheme {
	case "http", "ws":
		return port == 80
	case "https", "wss":
		return port == 443
	}
	return false
}

// parseSchemeSource parses a scheme-source ("https:"): the scheme in
// lower case.
func parseSchemeSource(expr string) (string, bool) {
	s, ok := strings.CutSuffix(expr, ":")
	if !ok || !isScheme(s) {
		return "", false
	}
	return strings.ToLower(s), true
}

func isScheme(s string) bool {
	if s == "" || !isAlpha(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isAlpha(c) && !(c >= '0' && c <= '9') && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// hostSource is a parsed host-source: [scheme-part "://"] host-part
// [":" port-part] [path-part].
type hostSource struct {
	scheme, host, port, path string
}

// parseHostSource parses expr as a host-source (host in lower case).
func parseHostSource(expr string) (hostSource, bool) {
	var h hostSource
	rest := expr
	if i := strings.Index(rest, "://"); i >= 0 {
		if !isScheme(rest[:i]) {
			return h, false
		}
		h.scheme, rest = strings.ToLower(rest[:i]), rest[i+3:]
	}
	end := strings.IndexAny(rest, ":/")
	if end < 0 {
		end = len(rest)
	}
	h.host, rest = strings.ToLower(rest[:end]), rest[end:]
	if !validHostPart(h.host) {
		return h, false
	}
	if strings.HasPrefix(rest, ":") {
		end := strings.IndexByte(rest, '/')
		if end < 0 {
			end = len(rest)
		}
		h.port, rest = rest[1:end], rest[end:]
		if h.port != "*" && (h.port == "" || !isDigits(h.port)) {
			return h, false
		}
	}
	if rest != "" && (rest[0] != '/' || strings.ContainsAny(rest, ",;")) {
		return h, false
	}
	h.path = rest
	return h, true
}

// validHostPart is the host-part grammar: "*", or an optional "*."
// followed by host-chars separated by dots.
func validHostPart(host string) bool {
	if host == "*" {
		return true
	}
	host = strings.TrimPrefix(host, "*.")
	if host == "" {
		return false
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" {
			return false
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !isAlpha(c) && !(c >= '0' && c <= '9') && c != '-' {
				return false
			}
		}
	}
	return true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// schemePartMatch is https://w3c.github.io/webappsec-csp/#scheme-part-match
// (both in lower case).
func schemePartMatch(a, b string) bool {
	switch {
	case a == b:
		return true
	case a == "http":
		return b == "https"
	case a == "ws":
		return b == "wss" || b == "http" || b == "https"
	case a == "wss":
		return b == "https"
	}
	return false
}

// hostPartMatch is https://w3c.github.io/webappsec-csp/#host-part-match.
func hostPartMatch(pattern, host string) bool {
	// 1. If host is not a domain, return "Does Not Match" for a
	//    wildcard pattern; an IP address matches only itself.
	// 2. If pattern is "*", return "Matches".
	if pattern == "*" {
		return true
	}
	// 3. If pattern starts with "*.": the remaining part, with its
	//    leading dot, must be a suffix of host.
	if suffix, ok := strings.CutPrefix(pattern, "*"); ok {
		return strings.HasSuffix(host, suffix)
	}
	// 4. If pattern is not an ASCII case-insensitive match for host,
	//    return "Does Not Match".
	return pattern == host
}

// portPartMatch is https://w3c.github.io/webappsec-csp/#port-part-matches.
func portPartMatch(pattern string, u *url.URL) bool {
	port := u.Port()
	scheme := strings.ToLower(u.Scheme)
	// 2. If input is the empty string: return "Matches" if url's port is
	//    null (the scheme's default).
	if pattern == "" {
		return port == "" || isDefaultPort(scheme, atoi(port))
	}
	// 3. If input is "*", return "Matches".
	if pattern == "*" {
		return true
	}
	// 4-5. Let normalizedInput be null if input is url's scheme's
	//    default port, and input otherwise; if it is url's port, return
	//    "Matches".
	if port == "" {
		return isDefaultPort(scheme, atoi(pattern))
	}
	return atoi(pattern) == atoi(port)
}

func atoi(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' || n > 1<<20 {
			return -1
		}
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// pathPartMatch is https://w3c.github.io/webappsec-csp/#path-part-match.
func pathPartMatch(pathA, pathB string) bool {
	// 1. If path A is the empty string, return "Matches".
	// 2. If path A consists of one character that is equal to "/" and
	//    path B is the empty string, return "Matches".
	if pathA == "" || pathA == "/" && pathB == "" {
		return true
	}
	// 3. Let exact match be false if the final character of path A is
	//    "/", and true otherwise.
	exact := !strings.HasSuffix(pathA, "/")
	// 4-5. Let path list A and path list B be the result of strictly
	//    splitting path A and path B on "/".
	a := strings.Split(pathA, "/")
	b := strings.Split(pathB, "/")
	// 6. If path list A has more items than path list B, return "Does
	//    Not Match".
	if len(a) > len(b) {
		return false
	}
	// 7. If exact match is true, and path list A does not have the same
	//    number of items as path list B, return "Does Not Match".
	if exact && len(a) != len(b) {
		return false
	}
	// 8. If exact match is false: remove the final item of path list A.
	if !exact {
		a = a[:len(a)-1]
	}
	// 9. For each piece A of path list A: percent-decode both and
	//    compare.
	for i, pa := range a {
		da, errA := url.PathUnescape(pa)
		db, errB := url.PathUnescape(b[i])
		if errA != nil || errB != nil || da != db {
			return false
		}
	}
	// 10. Return "Matches".
	return true
}

const asciiWhitespace = "\t\n\f\r "

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
