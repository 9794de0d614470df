package html

import (
	"net/url"
	"testing"
)

func TestResolveModuleSpecifier(t *testing.T) {
	base, _ := url.Parse("https://example.test/dir/page.html")
	for spec, want := range map[string]string{
		"./a.js":                  "https://example.test/dir/a.js",
		"../a.js":                 "https://example.test/a.js",
		"/a.js":                   "https://example.test/a.js",
		"https://other.test/x.js": "https://other.test/x.js",
		"data:text/javascript,1":  "data:text/javascript,1",
		"a.js":                    "",
		"lodash":                  "",
		".a.js":                   "",
		"":                        "",
	} {
		u, err := ResolveModuleSpecifier(spec, base)
		got := ""
		if err == nil {
			got = u.String()
		} else if err != ErrBareSpecifier {
			t.Errorf("%q: error %v", spec, err)
		}
		if got != want {
			t.Errorf("ResolveModuleSpecifier(%q) = %q, want %q", spec, got, want)
		}
	}
}
