package storage

import (
	"testing"
	"unicode/utf8"
)

// FuzzValidateBucketName compares the validator with a direct reading of
// the rules.
func FuzzValidateBucketName(f *testing.F) {
	for _, s := range []string{"", "a", "-a", "_a", "a-b_c", "A", "é", "x\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		want := utf8.RuneCountInString(name) >= 1 && utf8.RuneCountInString(name) <= 64
		for i, r := range name {
			ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_'
			if !ok || (i == 0 && (r == '-' || r == '_')) {
				want = false
			}
		}
		if got := ValidateBucketName(name) == nil; got != want {
			t.Fatalf("%q: valid=%v, want %v", name, got, want)
		}
	})
}
