package encoding

import "testing"

func TestUTF8Decode(t *testing.T) {
	for in, want := range map[string]string{
		"abc":                       "abc",
		"\xEF\xBB\xBFabc":           "abc",
		"\xEF\xBB\xBF\xEF\xBB\xBFx": "\uFEFFx",
		"\xFE\xFFa":                 "\uFFFD\uFFFDa", // a UTF-16 BOM: two errors
		"\xE2\x82":                  "\uFFFD",        // one truncated sequence
		"\xE2\x82A":                 "\uFFFDA",
		"\xF0\x80\x80":              "\uFFFD\uFFFD\uFFFD", // 0x80 is not a valid second byte after F0
		"\xED\xA0\x80":              "\uFFFD\uFFFD\uFFFD", // a surrogate
		"\xC0\xAF":                  "\uFFFD\uFFFD",
		"\xF4\x90\x80\x80":          "\uFFFD\uFFFD\uFFFD\uFFFD",
		"\xF0\x9F\x98":              "\uFFFD",
		"a\xFFb\xE2\x98\x83":        "a\uFFFDb☃",
	} {
		if got := UTF8Decode([]byte(in)); got != want {
			t.Errorf("UTF8Decode(%q) = %q, want %q", in, got, want)
		}
	}
	if got := UTF8DecodeWithoutBOM([]byte("\xEF\xBB\xBFx")); got != "\uFEFFx" {
		t.Errorf("without BOM: %q", got)
	}
}
