package html

import (
	"errors"
	"testing"

	"github.com/gowebengine/weblocks/dom"
)

func TestLocationSetterURL(t *testing.T) {
	const cur = "https://a.test:8443/dir/page.html?q=1#frag"
	for _, tc := range []struct {
		member LocationMember
		value  string
		want   string // "" with wantErr nil: no navigation
		syntax bool
	}{
		{LocationProtocol, "http", "http://a.test:8443/dir/page.html?q=1#frag", false},
		{LocationProtocol, "HTTP:", "http://a.test:8443/dir/page.html?q=1#frag", false},
		{LocationProtocol, "https:rest", "https://a.test:8443/dir/page.html?q=1#frag", false},
		{LocationProtocol, "ftp", "", false},  // not an HTTP(S) scheme: no navigation
		{LocationProtocol, "1x", "", true},    // failure: SyntaxError
		{LocationProtocol, "", "", true},      // failure: SyntaxError
		{LocationProtocol, "ht tp", "", true}, // failure: SyntaxError
		{LocationProtocol, "h\tttp", "http://a.test:8443/dir/page.html?q=1#frag", false},
		{LocationHost, "b.test:81", "https://b.test:81/dir/page.html?q=1#frag", false},
		{LocationHost, "b.test", "https://b.test:8443/dir/page.html?q=1#frag", false},
		{LocationHostname, "c.test", "https://c.test:8443/dir/page.html?q=1#frag", false},
		{LocationPort, "443", "https://a.test/dir/page.html?q=1#frag", false},
		{LocationPort, "", "https://a.test/dir/page.html?q=1#frag", false},
		{LocationPort, "99x", "https://a.test:99/dir/page.html?q=1#frag", false},
		{LocationPathname, "x/y z", "https://a.test:8443/x/y%20z?q=1#frag", false},
		{LocationSearch, "?a=b c", "https://a.test:8443/dir/page.html?a=b%20c#frag", false},
		{LocationSearch, "", "https://a.test:8443/dir/page.html#frag", false},
		{LocationHash, "#top", "https://a.test:8443/dir/page.html?q=1#top", false},
		{LocationHash, "a b", "https://a.test:8443/dir/page.html?q=1#a%20b", false},
		{LocationHash, "", "https://a.test:8443/dir/page.html?q=1#", false},
		{LocationHash, "#frag", "", false}, // the same fragment: no navigation
		{LocationHash, "frag", "", false},
	} {
		got, err := LocationSetterURL(tc.member, cur, tc.value)
		var de *dom.DOMException
		switch {
		case tc.syntax:
			if !errors.As(err, &de) || de.Name != dom.SyntaxError {
				t.Errorf("%s = %q: got %q, %v; want SyntaxError", tc.member, tc.value, got, err)
			}
		case tc.want == "":
			if !errors.Is(err, ErrNoNavigation) {
				t.Errorf("%s = %q: got %q, %v; want no navigation", tc.member, tc.value, got, err)
			}
		case err != nil || got != tc.want:
			t.Errorf("%s = %q: got %q, %v; want %q", tc.member, tc.value, got, err, tc.want)
		}
	}
	// A URL with an opaque path has no host or path to set; one without a
	// fragment compares as the empty fragment.
	for _, m := range []LocationMember{LocationHost, LocationHostname, LocationPathname} {
		if _, err := LocationSetterURL(m, "data:text/html,x", "b.test"); !errors.Is(err, ErrNoNavigation) {
			t.Errorf("%s of data: URL: %v", m, err)
		}
	}
	if _, err := LocationSetterURL(LocationPort, "file:///x", "8"); !errors.Is(err, ErrNoNavigation) {
		t.Errorf("port of file: URL: %v", err)
	}
	if got, err := LocationSetterURL(LocationHash, "https://a.test/", "#"); !errors.Is(err, ErrNoNavigation) {
		t.Errorf("hash '#' of a URL without fragment: %q, %v", got, err)
	}
}

func TestIsFragmentNavigation(t *testing.T) {
	for _, tc := range []struct {
		cur, target string
		want        bool
	}{
		{"https://a.test/p", "https://a.test/p#x", true},
		{"https://a.test/p#y", "https://a.test/p#x", true},
		{"https://a.test/p#x", "https://a.test/p#x", true},
		{"https://a.test/p#x", "https://a.test/p#", true},
		{"https://a.test/p#x", "https://a.test/p", false}, // no fragment: a new document
		{"https://a.test/p", "https://a.test/q#x", false},
		{"https://a.test/p?a", "https://a.test/p#x", false},
	} {
		if got := IsFragmentNavigation(tc.cur, tc.target); got != tc.want {
			t.Errorf("IsFragmentNavigation(%q, %q) = %v", tc.cur, tc.target, got)
		}
	}
}

func TestCanHaveItsURLRewritten(t *testing.T) {
	for _, tc := range []struct {
		doc, target string
		want        bool
	}{
		{"https://a.test/p?q#f", "https://a.test/other?x#y", true},
		{"https://a.test/p", "http://a.test/p", false},
		{"https://a.test/p", "https://b.test/p", false},
		{"https://a.test/p", "https://a.test:444/p", false},
		{"https://a.test/p", "https://u@a.test/p", false},
		{"file:///a/b", "file:///a/b?x#y", true},
		{"file:///a/b", "file:///a/c", false},
		{"data:text/html,x", "data:text/html,x#f", true},
		{"data:text/html,x", "data:text/html,y", false},
		{"about:blank", "about:blank#x", true},
		{"about:blank", "about:srcdoc", false},
	} {
		if got := CanHaveItsURLRewritten(tc.doc, tc.target); got != tc.want {
			t.Errorf("CanHaveItsURLRewritten(%q, %q) = %v", tc.doc, tc.target, got)
		}
	}
}
