package html

import (
	"reflect"
	"testing"
)

func TestParseSrcset(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []ImageSource
	}{
		{"", nil},
		{"a.png", []ImageSource{{URL: "a.png"}}},
		{" a.png 1x , b.png 2x", []ImageSource{{URL: "a.png", Density: 1}, {URL: "b.png", Density: 2}}},
		{"a.png 100w, b.png 200w 50h", []ImageSource{{URL: "a.png", Width: 100}, {URL: "b.png", Width: 200}}},
		// A comma inside a URL belongs to it; trailing ones end it.
		{"a.png,b.png", []ImageSource{{URL: "a.png,b.png"}}},
		{"a.png,, b.png", []ImageSource{{URL: "a.png"}, {URL: "b.png"}}},
		{"data:a,b 1x", []ImageSource{{URL: "data:a,b", Density: 1}}},
		// Invalid descriptors drop their candidate.
		{"a.png 1x 2x, b.png -1x, c.png 0w, d.png 10h, e.png 1.5x", []ImageSource{{URL: "e.png", Density: 1.5}}},
		{"a.png foo(bar, baz) 1x", nil},
	} {
		if got := ParseSrcset(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseSrcset(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

func TestSelectImageSource(t *testing.T) {
	set := ParseSrcset("a.png 400w, b.png 800w, c.png 1600w")
	NormalizeSourceDensities(set, ParseSizes("(max-width: 10px) 10px, 50vw"))
	got, ok := SelectImageSource(set, 1)
	if !ok || got.URL != "a.png" {
		t.Errorf("selected %+v (%v), want a.png (the source size is 50vw, 400px: 400w is 1x)", got, ok)
	}
	if _, ok := SelectImageSource(nil, 1); ok {
		t.Error("an empty set selected a source")
	}
	set = ParseSrcset("x.png 0.5x, y.png 3x")
	NormalizeSourceDensities(set, 100)
	if got, _ := SelectImageSource(set, 1); got.URL != "y.png" {
		t.Errorf("selected %s, want the smallest density above 1 (y.png)", got.URL)
	}
	if got := ParseSizes("bogus"); got != DefaultViewportWidth {
		t.Errorf("ParseSizes(bogus) = %v", got)
	}
}
