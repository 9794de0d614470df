package html

import (
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// CanHaveItsURLRewritten is
// https://html.spec.whatwg.org/#can-have-its-url-rewritten for a document
// whose URL is documentURL and a target URL, both serialized (pushState
// and replaceState throw SecurityError when it is false).
func CanHaveItsURLRewritten(documentURL, targetURL string) bool {
	d, err1 := whatwg.Parse(documentURL)
	t, err2 := whatwg.Parse(targetURL)
	if err1 != nil || err2 != nil {
		return false
	}
	// 1. Let documentURL be document's URL.
	// 2. If targetURL and documentURL differ in their scheme, username,
	//    password, host, or port components, then return false.
	if d.Scheme() != t.Scheme() || d.Username() != t.Username() || d.Password() != t.Password() ||
		d.Host() != t.Host() || d.Port() != t.Port() {
		return false
	}
	// 3. If targetURL's scheme is an HTTP(S) scheme, then return true.
	if s := t.Scheme(); s == "http" || s == "https" {
		return true
	}
	// 4. If targetURL's scheme is "file", then: if targetURL and
	//    documentURL differ in their path component, then return false;
	//    return true.
	if t.Scheme() == "file" {
		return d.Pathname() == t.Pathname()
	}
	// 5. If targetURL and documentURL differ in any component besides
	//    fragment, then return false.
	// 6. Return true.
	return d.Href(true) == t.Href(true)
}
