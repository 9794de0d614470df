package browser

import (
	"net/url"

	whatwg "github.com/nlnwa/whatwg-url/url"
)

// parseURL is https://url.spec.whatwg.org/#concept-url-parser with base
// (nil for none): the URL Standard's parser, so that the result is what a
// browser requests, e.g. spaces in a query are percent-encoded (net/url
// keeps them, and a request line holding a space is answered 400), and
// leading and trailing C0 controls and spaces are stripped. The result is
// returned as a net/url URL.
func parseURL(input string, base *url.URL) (*url.URL, error) {
	var u *whatwg.Url
	var err error
	if base != nil {
		u, err = whatwg.ParseRef(base.String(), input)
	} else {
		u, err = whatwg.Parse(input)
	}
	if err != nil {
		return nil, err
	}
	return url.Parse(u.Href(false))
}
