package origin

import (
	"fmt"
	"net/url"
	"testing"
)

func TestFromURLSerialize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"https://example.com/a?b#c", "https://example.com"},
		{"https://EXAMPLE.com:443/", "https://example.com"},
		{"http://example.com:80/", "http://example.com"},
		{"http://example.com:8080/", "http://example.com:8080"},
		{"https://example.com:80/", "https://example.com:80"},
		{"ws://x.test:80", "ws://x.test"},
		{"wss://x.test:443", "wss://x.test"},
		{"ftp://x.test:21", "ftp://x.test"},
		{"http://127.0.0.1:8000/", "http://127.0.0.1:8000"},
		{"http://[::1]:8000/", "http://[::1]:8000"},
		{"http://[0:0::1]/", "http://[::1]"},
		{"http://[::ffff:127.0.0.1]/", "http://[::ffff:7f00:1]"},
		{"blob:https://example.com:444/uuid", "https://example.com:444"},
		{"blob:ftp://example.com/uuid", "null"},
		{"blob:bogus", "null"},
		{"data:text/html,hi", "null"},
		{"file:///tmp/x", "null"},
		{"about:blank", "null"},
		{"javascript:1", "null"},
		{"http://example.com:99999/", "null"},
		{"https://BÜCHER.test/", "https://xn--bcher-kva.test"},
		{"https://xn--bcher-kva.test/", "https://xn--bcher-kva.test"},
		{"https://EXAMPLE.COM/", "https://example.com"},
		{"https://A_B.test/", "https://a_b.test"},
		{"https://-x-.test/", "https://-x-.test"},
		{"https://ÉCOLE.test/", "https://xn--cole-9oa.test"},
	}
	for _, c := range cases {
		if got := Parse(c.in).Serialize(); got != c.want {
			t.Errorf("Parse(%q).Serialize() = %q, want %q", c.in, got, c.want)
		}
	}
	if got := FromURL(nil); !got.IsOpaque() {
		t.Error("FromURL(nil) not opaque")
	}
}

func TestSameOrigin(t *testing.T) {
	a := Parse("https://a.test/x")
	if !SameOrigin(a, Parse("https://a.test:443/y")) {
		t.Error("same tuple origins differ")
	}
	if SameOrigin(a, Parse("http://a.test/")) || SameOrigin(a, Parse("https://b.a.test/")) || SameOrigin(a, Parse("https://a.test:8443/")) {
		t.Error("different tuples compare same")
	}
	o1, o2 := NewOpaque(), NewOpaque()
	if SameOrigin(o1, o2) {
		t.Error("two opaque origins are same origin")
	}
	if !SameOrigin(o1, o1) {
		t.Error("opaque origin not same origin with itself")
	}
	if d1, d2 := Parse("data:,x"), Parse("data:,x"); d1 == d2 {
		t.Error("each data: URL must get a new opaque origin")
	}
	m := map[Origin]int{a: 1, o1: 2}
	if m[Parse("https://a.test")] != 1 || m[o1] != 2 || m[o2] != 0 {
		t.Error("origins as map keys")
	}
	if o1.Port() != -1 || a.Port() != -1 || Parse("https://a.test:1/").Port() != 1 {
		t.Error("Port")
	}
	if a.Scheme() != "https" || a.Host() != "a.test" || o1.Scheme() != "" {
		t.Error("accessors")
	}
	if NewTuple("HTTPS", "A.test", -5) != a {
		t.Error("NewTuple")
	}
	if NewTuple("http", "::1", 8000).Serialize() != "http://[::1]:8000" {
		t.Error("NewTuple IPv6")
	}
}

func TestObtainSite(t *testing.T) {
	cases := []struct{ in, want string }{
		{"https://www.example.com/", "https://example.com"},
		{"https://a.b.example.co.uk/", "https://example.co.uk"},
		{"http://www.web-platform.test:8000/", "http://web-platform.test"},
		{"http://web-platform.test:8000/", "http://web-platform.test"},
		{"https://localhost:8443/", "https://localhost"},
		{"http://127.0.0.1:8000/", "http://127.0.0.1"},
		{"http://[::1]/", "http://[::1]"},
		{"https://co.uk/", "https://co.uk"},
		{"https://foo.github.io/", "https://foo.github.io"}, // private-section suffix
	}
	for _, c := range cases {
		if got := ObtainSite(Parse(c.in)).Serialize(); got != c.want {
			t.Errorf("ObtainSite(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if !SameSiteOrigins(Parse("https://www1.web-platform.test"), Parse("https://www2.web-platform.test:8443")) {
		t.Error("subdomains are same site")
	}
	if SameSiteOrigins(Parse("https://web-platform.test"), Parse("http://web-platform.test")) {
		t.Error("schemes differ: not same site")
	}
	if SameSiteOrigins(Parse("https://web-platform.test"), Parse("https://not-web-platform.test")) {
		t.Error("different registrable domains are same site")
	}
	o := NewOpaque()
	s := ObtainSite(o)
	if !s.IsOpaque() || s.Serialize() != "null" || !SameSite(s, ObtainSite(o)) || SameSite(s, ObtainSite(NewOpaque())) {
		t.Error("opaque sites")
	}
}

func TestPotentiallyTrustworthy(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{"https://a.test/", true},
		{"wss://a.test/", true},
		{"http://a.test/", false},
		{"ws://a.test/", false},
		{"http://web-platform.test:8000/", false}, // even if it resolves to 127.0.0.1
		{"http://localhost:8000/", true},
		{"http://LOCALHOST./", true},
		{"http://a.localhost/", true},
		{"http://a.localhost./", true},
		{"http://localhost.example/", false},
		{"http://127.0.0.1/", true},
		{"http://127.255.0.1/", true},
		{"http://128.0.0.1/", false},
		{"http://[::1]/", true},
		{"http://[::2]/", false},
		{"http://[::ffff:127.0.0.1]/", false},
		{"file:///etc/hosts", true},
		{"about:blank", true},
		{"about:srcdoc", true},
		{"about:other", false},
		{"data:text/html,x", true},
		{"blob:https://a.test/1", true},
		{"blob:http://a.test/1", false},
		{"javascript:0", false},
	}
	for _, c := range cases {
		u, err := url.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		if got := IsURLPotentiallyTrustworthy(u); got != c.want {
			t.Errorf("IsURLPotentiallyTrustworthy(%q) = %v, want %v", c.in, got, c.want)
		}
	}
	if IsOriginPotentiallyTrustworthy(NewOpaque()) {
		t.Error("opaque origin trustworthy")
	}
	if !IsOriginPotentiallyTrustworthy(NewTuple("file", "", -1)) {
		t.Error("file tuple origin (step 6)")
	}
	if IsURLPotentiallyTrustworthy(nil) {
		t.Error("nil URL")
	}
}

func ExampleObtainSite() {
	a := Parse("https://www.example.com:8443/page")
	b := Parse("https://api.example.com/")
	fmt.Println(a.Serialize(), ObtainSite(a).Serialize(), SameSiteOrigins(a, b), SameOrigin(a, b))
	// Output: https://www.example.com:8443 https://example.com true false
}

func ExampleIsURLPotentiallyTrustworthy() {
	for _, s := range []string{"http://web-platform.test:8000/", "http://127.0.0.1:8000/", "https://web-platform.test:8443/"} {
		u, _ := url.Parse(s)
		fmt.Println(s, IsURLPotentiallyTrustworthy(u))
	}
	// Output:
	// http://web-platform.test:8000/ false
	// http://127.0.0.1:8000/ true
	// https://web-platform.test:8443/ true
}
