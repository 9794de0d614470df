package weblocks

import (
	"slices"
	"testing"
	"unicode/utf8"
)

func TestNameRule(t *testing.T) {
	for _, c := range []struct {
		name       Name
		units      []uint16
		wellFormed bool
		canonical  Name
	}{
		{"abc", []uint16{'a', 'b', 'c'}, true, "abc"},
		{"\xff\xfe", []uint16{0xDCFF, 0xDCFE}, false, "\xed\xb3\xbf\xed\xb3\xbe"},
		{"\xed\xa0\xbd\xed\xb8\x80", []uint16{0xD83D, 0xDE00}, true, "😀"},
		{"\xed\xa0\x80", []uint16{0xD800}, false, "\xed\xa0\x80"},
		{"a\xc3", []uint16{'a', 0xDCC3}, false, "a\xed\xb3\x83"},
		{"\xed\xa0\x80\xff", []uint16{0xD800, 0xDCFF}, true, "\U000100FF"}, // a high surrogate, then an escaped byte: a pair
		{"\xf4\x90\x80\x80", []uint16{0xDCF4, 0xDC90, 0xDC80, 0xDC80}, false, "\xed\xb3\xb4\xed\xb2\x90\xed\xb2\x80\xed\xb2\x80"},
	} {
		if got := c.name.UTF16(); !slices.Equal(got, c.units) {
			t.Errorf("%q.UTF16() = %x, want %x", c.name, got, c.units)
		}
		if got := c.name.IsWellFormed(); got != c.wellFormed {
			t.Errorf("%q.IsWellFormed() = %v", c.name, got)
		}
		if got := c.name.Canonical(); got != c.canonical {
			t.Errorf("%q.Canonical() = %q, want %q", c.name, got, c.canonical)
		}
		if !c.name.Equal(c.canonical) {
			t.Errorf("%q.Equal(%q) = false", c.name, c.canonical)
		}
	}
	if Name("\xff").Equal("\uFFFD") {
		t.Error("a stray byte and U+FFFD are different DOMStrings")
	}
}

// Every Go string is exactly one DOMString: its canonical spelling has the
// same code units, is canonical, and is what NameFromUTF16 makes of them.
func FuzzNameCanonical(f *testing.F) {
	for _, s := range []string{"", "a", "\xff\xfe", "\xed\xa0\xbd\xed\xb8\x80", "\xed\xa0\x80\xff", "😀\xed\xb0\x80", "\xf0\x9f\x98"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Name(s)
		c := n.Canonical()
		if !slices.Equal(c.UTF16(), n.UTF16()) {
			t.Fatalf("%q: canonical %q has other code units", s, c)
		}
		if c.Canonical() != c || NameFromUTF16(n.UTF16()) != c {
			t.Fatalf("%q: canonical form %q is not a fixed point", s, c)
		}
		if n.IsWellFormed() != c.IsWellFormed() || (utf8.ValidString(s) && !n.IsWellFormed()) {
			t.Fatalf("%q: IsWellFormed disagrees", s)
		}
		if n.IsWellFormed() && NameFromString(c.String()) != c {
			t.Fatalf("%q: String of a well-formed name is lossy", s)
		}
	})
}
