package csp

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/origin"
)

func TestParseSerializedPolicy(t *testing.T) {
	p := ParseSerializedPolicy(" Default-Src 'self'  https://a.test ;; img-src *; default-src 'none'; \u00e9-src x; connect-src", "header", Enforce, origin.NewOpaque())
	want := []Directive{{Name: "default-src", Value: []string{"'self'", "https://a.test"}}, {Name: "img-src", Value: []string{"*"}},
		{Name: "connect-src", Value: []string{}}}
	if !reflect.DeepEqual(p.Directives, want) {
		t.Errorf("directives = %+v, want %+v", p.Directives, want)
	}
	list := ParseResponsePolicies([]string{"img-src 'none', script-src 'self'", ""}, []string{"connect-src 'none'"}, origin.NewOpaque())
	if len(list) != 3 || list[2].Disposition != Report || list[1].Directives[0].Name != "script-src" {
		t.Errorf("response policies = %+v", list)
	}
}

func TestShouldRequestBeBlocked(t *testing.T) {
	self := origin.Parse("https://a.test")
	list := func(s string) List { return ParseResponsePolicies([]string{s}, nil, self) }
	req := func(u, dest string) Request {
		pu, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		return Request{URL: pu, Destination: dest}
	}
	for _, c := range []struct {
		policy, url, dest string
		blocked           bool
	}{
		{"connect-src 'none'", "https://a.test/x", "", true},
		{"connect-src 'none'", "https://a.test/x.png", "image", false},
		{"default-src 'none'", "https://a.test/x.png", "image", true},
		{"default-src 'none'; img-src 'self'", "https://a.test/x.png", "image", false},
		{"img-src 'self'", "https://b.test/x.png", "image", true},
		{"img-src 'self'", "http://a.test/x.png", "image", true},
		{"connect-src 'self'", "wss://a.test/x", "", false},
		{"img-src *", "https://b.test/x.png", "image", false},
		{"img-src *", "data:image/png,x", "image", true},
		{"img-src data: https:", "data:image/png,x", "image", false},
		{"img-src http:", "https://b.test/", "image", false},
		{"img-src *.b.test", "https://c.b.test/", "image", false},
		{"img-src *.b.test", "https://b.test/", "image", true},
		{"img-src https://b.test:8443", "https://b.test:8443/", "image", false},
		{"img-src https://b.test", "https://b.test:8443/", "image", true},
		{"img-src https://b.test:*", "https://b.test:8443/", "image", false},
		{"img-src b.test/dir/", "https://b.test/dir/a.png", "image", false},
		{"img-src b.test/dir/", "https://b.test/other/a.png", "image", true},
		{"img-src b.test/exact.png", "https://b.test/exact.png", "image", false},
		{"img-src b.test/exact.png", "https://b.test/exact.png/x", "image", true},
		{"script-src 'self'", "https://b.test/s.js", "script", true},
		{"script-src 'self'; script-src-elem *", "https://b.test/s.js", "script", false},
		{"style-src 'none'", "https://a.test/s.css", "style", true},
		{"font-src 'none'", "https://a.test/f.woff", "font", true},
		{"worker-src 'none'", "https://a.test/w.js", "worker", true},
		{"script-src 'none'", "https://a.test/w.js", "sharedworker", true},
		{"media-src 'none'", "https://a.test/v.webm", "video", true},
		{"frame-src 'none'", "https://a.test/f.html", "iframe", true},
		{"child-src 'none'", "https://a.test/f.html", "iframe", true},
		{"connect-src 'none'", "https://a.test/j.json", "json", true},
		{"img-src 'none' 'self'", "https://a.test/x.png", "image", false},
		{"img-src", "https://a.test/x.png", "image", true},
	} {
		if got := list(c.policy).ShouldRequestBeBlocked(req(c.url, c.dest)); got != c.blocked {
			t.Errorf("%q, %s (%q): blocked %v, want %v", c.policy, c.url, c.dest, got, c.blocked)
		}
	}
	// A report-only policy blocks nothing; prefetches use default-src.
	ro := ParseResponsePolicies(nil, []string{"default-src 'none'"}, self)
	if ro.ShouldRequestBeBlocked(req("https://a.test/", "")) {
		t.Error("a report-only policy blocked a request")
	}
	r := req("https://a.test/p", "")
	r.Initiator = "prefetch"
	if !list("default-src 'none'; connect-src *").ShouldRequestBeBlocked(r) {
		t.Error("a prefetch was not checked against default-src")
	}
	// A path is not checked after a redirect.
	r = req("https://b.test/elsewhere", "image")
	r.RedirectCount = 1
	if list("img-src https://b.test/only.png").ShouldRequestBeBlocked(r) {
		t.Error("a redirected request's path was checked")
	}
}

// The parser and the checks end on any input without panicking.
func FuzzParseSerializedPolicy(f *testing.F) {
	for _, s := range []string{"default-src 'self'", "img-src *.a.test:* https://b.test/p/ data:; script-src 'none'", ";;;", "a b c d e", "img-src http://[::1]:80/x"} {
		f.Add(s, "https://a.test/x?y")
	}
	f.Fuzz(func(t *testing.T, policy, rawURL string) {
		p := ParseSerializedPolicy(policy, "header", Enforce, origin.Parse("https://a.test"))
		seen := map[string]bool{}
		for _, d := range p.Directives {
			if d.Name == "" || d.Name != strings.ToLower(d.Name) || seen[d.Name] {
				t.Fatalf("bad directive %+v", d)
			}
			seen[d.Name] = true
		}
		u, err := url.Parse(rawURL)
		if err != nil {
			return
		}
		for _, dest := range []string{"", "image", "script", "worker", "style", "font", "document"} {
			List{p}.ShouldRequestBeBlocked(Request{URL: u, Destination: dest})
		}
	})
}
