package html

import (
	"errors"
	"net/url"
	"strings"
)

// The engine-neutral parts of HTML's module scripts: specifier resolution
// and the module map's keys. The module map itself holds the engine's
// module records and lives with the engine glue (browser/modules.go).

// ErrBareSpecifier is the failure of ResolveModuleSpecifier for a specifier
// that is neither a URL nor starts with "/", "./" or "../" (a "bare"
// specifier, which only an import map could resolve).
var ErrBareSpecifier = errors.New("html: bare module specifier")

// ResolveModuleSpecifier is "resolve a module specifier" for a settings
// object without an import map: the result, or ErrBareSpecifier (the
// caller throws a TypeError).
// https://html.spec.whatwg.org/multipage/webappapis.html#resolve-a-module-specifier
func ResolveModuleSpecifier(specifier string, baseURL *url.URL) (*url.URL, error) {
	// 1-7. (No import map: the settings object's import map is empty, so
	//    only the URL-like resolution below applies.)
	// 8-9. Let asURL be the result of resolving a URL-like module
	//    specifier given specifier and baseURL.
	asURL := ResolveURLLikeModuleSpecifier(specifier, baseURL)
	// 10-12. (Import map resolution: an empty map has no entries.)
	// 13. If result is null, throw a TypeError indicating that specifier
	//     was a bare specifier, but was not remapped to anything.
	if asURL == nil {
		return nil, ErrBareSpecifier
	}
	return asURL, nil
}

// ResolveURLLikeModuleSpecifier is "resolve a URL-like module specifier":
// the URL, or nil.
// https://html.spec.whatwg.org/multipage/webappapis.html#resolving-a-url-like-module-specifier
func ResolveURLLikeModuleSpecifier(specifier string, baseURL *url.URL) *url.URL {
	// 1. If specifier starts with "/", "./", or "../", then:
	if strings.HasPrefix(specifier, "/") || strings.HasPrefix(specifier, "./") || strings.HasPrefix(specifier, "../") {
		// 1.1. Let url be the result of URL parsing specifier with
		//      baseURL.
		if baseURL == nil {
			return nil
		}
		u, err := baseURL.Parse(trimC0ControlOrSpace(specifier))
		// 1.2. If url is failure, then return null.
		if err != nil {
			return nil
		}
		// 1.3. Return url.
		return u
	}
	// 2. Let url be the result of URL parsing specifier (with no base
	//    URL).
	u, err := url.Parse(trimC0ControlOrSpace(specifier))
	// 3. If url is failure, then return null.
	if err != nil || u.Scheme == "" {
		return nil
	}
	// 4. Return url.
	return u
}

// trimC0ControlOrSpace removes leading and trailing C0 control or space
// code points, as the URL parser does first.
func trimC0ControlOrSpace(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return r <= 0x20 })
}

// ModuleMapKey is a key of a module map: a URL (serialized) and a module
// type ("javascript", "json", ...).
// https://html.spec.whatwg.org/multipage/webappapis.html#module-map
type ModuleMapKey struct {
	URL  string
	Type string
}
