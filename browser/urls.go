package browser

import (
	"net/url"

	"github.com/gowebengine/weblocks/bindings"
)

// parseURL is https://url.spec.whatwg.org/#concept-url-parser with base
// (nil for none), through bindings.ParseURL, which fetch() uses too.
func parseURL(input string, base *url.URL) (*url.URL, error) {
	return bindings.ParseURL(input, base)
}
