package css

import (
	"reflect"
	"strings"
	"testing"
)

func TestScanStyleSheet(t *testing.T) {
	for _, c := range []struct {
		text string
		want Sheet
	}{
		{`@import url("a.css"); @import 'b.css' screen; @import url(c.css) layer(x);`,
			Sheet{Imports: []string{"a.css", "b.css", "c.css"}}},
		// @import after another rule is ignored.
		{`p {} @import "late.css";`, Sheet{}},
		{`@charset "utf-8"; @import "x.css";`, Sheet{Imports: []string{"x.css"}}},
		{`@font-face { font-family: foo; src: url(a.woff2) format("woff2"), local(Foo), url('b.ttf'); }`,
			Sheet{Fonts: []string{"a.woff2", "b.ttf"}}},
		{`div { background-image: url(bg.png); color: url(no.png) } p{background:red url( "b2.png" ) no-repeat}`,
			Sheet{Images: []string{"bg.png", "b2.png"}}},
		{`@media print { div { background: url(m.png) } } /* url(comment.png) */`,
			Sheet{Images: []string{"m.png"}}},
		{`div { background-image: image-set(url(i1.png) 1x, "i2.png" 2x) }`, Sheet{Images: []string{"i1.png"}}},
		{`div { background-image: url(a\29 b.png) }`, Sheet{Images: []string{"a)b.png"}}},
		// Bad urls are dropped.
		{`div { background-image: url(a b.png); background: url(c"d) }`, Sheet{}},
		{`div { --x: url(var.png); background-image: myurl(no.png) }`, Sheet{}},
		{`a { background: url(unterminated.png`, Sheet{Images: []string{"unterminated.png"}}},
	} {
		if got := ScanStyleSheet(c.text); !reflect.DeepEqual(got, c.want) {
			t.Errorf("ScanStyleSheet(%q) =\n  %+v\nwant\n  %+v", c.text, got, c.want)
		}
	}
}

func TestScanDeclarations(t *testing.T) {
	got := ScanDeclarations(`background-image: url(dummy.png?t=bg2&dest=image); color: red`)
	if want := []string{"dummy.png?t=bg2&dest=image"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ScanDeclarations = %q, want %q", got, want)
	}
	if got := FontFaceSources(`url(dummy.ttf?t=api&dest=font) format("truetype"), url(x.woff)`); !reflect.DeepEqual(got, []string{"dummy.ttf?t=api&dest=font", "x.woff"}) {
		t.Errorf("FontFaceSources = %q", got)
	}
}

// The scanner ends on any input and reports URLs taken from it.
func FuzzScanStyleSheet(f *testing.F) {
	for _, s := range []string{`@import url(a.css);`, `p{background:url("x")}`, `@font-face{src:url(\`, `url(`, `/*`, `"\`, `{{{((([[`, `@media{a{b:url(c)}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		sh := ScanStyleSheet(text)
		for _, u := range append(append(sh.Imports, sh.Fonts...), sh.Images...) {
			if len(u) > 3*len(text)+3 {
				t.Fatalf("URL %q longer than its text", u)
			}
		}
		for _, u := range ScanDeclarations(text) {
			if len(u) > 3*len(text)+3 {
				t.Fatalf("URL %q longer than its text", u)
			}
		}
		_ = FontFaceSources(text)
		if strings.Count(text, "url(") == 0 && strings.Count(strings.ToLower(text), "url(") == 0 && len(ScanStyleSheet(text).Images) > 0 {
			t.Fatalf("an image URL without url(: %q", text)
		}
	})
}
