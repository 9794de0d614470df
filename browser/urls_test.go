package browser

import (
	"net/url"
	"testing"
)

// parseURL percent-encodes what the URL Standard's parser does (a space in
// a query, which net/url keeps and a server answers 400), resolves
// against the base and strips leading and trailing spaces.
func TestParseURL(t *testing.T) {
	base, _ := url.Parse("https://web-platform.test:8443/html/x/executor.html?uuid=1")
	for _, c := range []struct{ in, want string }{
		{"executor.html?uuid=2&prefix=/a b-c d", "https://web-platform.test:8443/html/x/executor.html?uuid=2&prefix=/a%20b-c%20d"},
		{"  /p q.html  ", "https://web-platform.test:8443/p%20q.html"},
		{"https://www.web-platform.test:8443/e.html?x=\"y\"", "https://www.web-platform.test:8443/e.html?x=%22y%22"},
		{"about:blank", "about:blank"},
	} {
		u, err := parseURL(c.in, base)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if u.String() != c.want {
			t.Errorf("%q: got %q, want %q", c.in, u.String(), c.want)
		}
		if u.RequestURI() != "" && c.want != "about:blank" {
			if r := u.RequestURI(); len(r) > 0 && containsSpace(r) {
				t.Errorf("%q: request URI %q holds a space", c.in, r)
			}
		}
	}
	if _, err := parseURL("https://exa mple.test/", nil); err == nil {
		t.Error("a space in a host parsed")
	}
}

func containsSpace(s string) bool {
	for _, r := range s {
		if r == ' ' {
			return true
		}
	}
	return false
}
