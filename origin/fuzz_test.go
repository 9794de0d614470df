package origin

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzFromURL: any URL gives an origin without panicking; serialization is
// stable; tuple origins round-trip through their serialization.
func FuzzFromURL(f *testing.F) {
	for _, s := range []string{"https://a.test:8443/x", "blob:https://a.test/u", "http://[::1]/", "data:,x",
		"file:///x", "http://127.0.0.1:0/", "ws://x", "https://xn--nxasmq6b.test/", "blob:blob:https://a/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := url.Parse(s)
		if err != nil {
			return
		}
		o := FromURL(u)
		ser := o.Serialize()
		_ = IsURLPotentiallyTrustworthy(u)
		_ = ObtainSite(o).Serialize()
		if o.IsOpaque() {
			if ser != "null" {
				t.Fatalf("opaque origin serialized as %q", ser)
			}
			return
		}
		if strings.ContainsAny(o.Host(), "/?#") {
			return // not a valid host per the URL Standard; url.Parse is lax
		}
		back := Parse(ser)
		if back != o {
			t.Fatalf("%q: origin %v does not round-trip through %q (got %v)", s, o, ser, back)
		}
	})
}
