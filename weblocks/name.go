package weblocks

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Name is a resource name: a DOMString, that is any sequence of UTF-16 code
// units, including lone surrogates and NUL.
//
// A Name holds its code units in generalized UTF-8 ("WTF-8"). Every Go
// string is a Name, and stands for exactly one DOMString, by this rule,
// applied from the start of the string:
//
//   - a valid UTF-8 sequence is its scalar value (one code unit, or a
//     surrogate pair for a supplementary character);
//   - the 3-byte generalized form of a surrogate (ED A0..BF 80..BF) is that
//     surrogate code unit;
//   - any other byte b (an invalid or truncated sequence) is the lone
//     surrogate U+DC00+b (U+DC80..U+DCFF), the convention of Python's
//     "surrogateescape" (PEP 383), so that the name is not well-formed and
//     stays distinct from names of valid text.
//
// One DOMString has several such spellings: a surrogate pair written as two
// 3-byte surrogates or as the 4-byte supplementary character, a byte 0xFF
// or the 3-byte form of U+DCFF. Canonical returns the one canonical
// spelling (every pair as its supplementary character, lone surrogates in
// their 3-byte form, everything else UTF-8), and the lock manager uses the
// canonical spelling, so every spelling of a DOMString names the same lock;
// Lock.Name and query() report it. Names made by NameFromUTF16 are
// canonical; compare other names with Equal (or their Canonical forms).
// For valid UTF-8 without surrogate forms (almost every name) the Go string
// is already canonical and no conversion happens.
type Name string

// NameFromUTF16 returns the name made of exactly the code units u.
func NameFromUTF16(u []uint16) Name {
	ascii := true
	for _, c := range u {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		b := make([]byte, len(u))
		for i, c := range u {
			b[i] = byte(c)
		}
		return Name(b)
	}
	b := make([]byte, 0, len(u)*3)
	for i := 0; i < len(u); i++ {
		c := rune(u[i])
		if utf16.IsSurrogate(c) {
			if c < 0xDC00 && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] <= 0xDFFF {
				b = utf8.AppendRune(b, utf16.DecodeRune(c, rune(u[i+1])))
				i++
				continue
			}
			// A lone surrogate: its generalized 3-byte form.
			b = append(b, 0xE0|byte(c>>12), 0x80|byte(c>>6)&0x3F, 0x80|byte(c)&0x3F)
			continue
		}
		b = utf8.AppendRune(b, c)
	}
	return Name(b)
}

// UTF16 returns the code units of the name's DOMString (see Name).
func (n Name) UTF16() []uint16 {
	s := string(n)
	u := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		c, size := unitAt(s, i)
		if c >= 0x10000 {
			u = utf16.AppendRune(u, c)
		} else {
			u = append(u, uint16(c))
		}
		i += size
	}
	return u
}

// unitAt decodes s[i:] per Name's rule: a scalar value (valid UTF-8), a
// surrogate code unit (3-byte generalized form), or U+DC00+b for a byte b
// that starts no valid sequence; and the number of bytes used.
func unitAt(s string, i int) (rune, int) {
	c := s[i]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	if r, ok := lonesurrogateAt(s, i); ok {
		return r, 3
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size == 1 {
		return 0xDC00 + rune(c), 1
	}
	return r, size
}

// isCanonical reports whether the name is in canonical form: valid UTF-8
// except for 3-byte lone surrogates, with no high surrogate form directly
// followed by a low one.
func (n Name) isCanonical() bool {
	s := string(n)
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return true // ASCII
	}
	if strings.IndexByte(s[i:], 0xED) < 0 {
		return utf8.ValidString(s[i:])
	}
	for i < len(s) {
		r, size := unitAt(s, i)
		if size == 1 && r >= 0xDC00 {
			return false // an invalid byte
		}
		if size == 3 && r >= 0xD800 && r < 0xDC00 && i+3 < len(s) {
			if r2, ok := lonesurrogateAt(s, i+3); ok && r2 >= 0xDC00 {
				return false // a pair spelled as two surrogates
			}
		}
		i += size
	}
	return true
}

// Canonical returns the canonical spelling of the name's DOMString (see
// Name): the name itself when it already is canonical.
func (n Name) Canonical() Name {
	if n.isCanonical() {
		return n
	}
	return NameFromUTF16(n.UTF16())
}

// Equal reports whether n and m are the same DOMString (the same lock
// name), whatever their spellings.
func (n Name) Equal(m Name) bool {
	return n == m || n.Canonical() == m.Canonical()
}

// lonesurrogateAt reports whether s[i:] starts with the generalized UTF-8
// form of a surrogate code unit, and returns it.
func lonesurrogateAt(s string, i int) (rune, bool) {
	if i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80 {
		return 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), true
	}
	return 0, false
}

// NameFromString decodes a Go string as UTF-8 text the way TextDecoder
// does: valid UTF-8 is taken as is (no copy), and each byte that is not
// part of a valid UTF-8 sequence (3-byte surrogate forms included) becomes
// U+FFFD, so the result is well-formed. (Converting with Name(s) instead
// keeps such bytes distinct, as lone surrogates: see Name.) Use
// NameFromUTF16 for names that contain lone surrogates.
func NameFromString(s string) Name {
	if utf8.ValidString(s) {
		return Name(s)
	}
	b := make([]byte, 0, len(s)+8)
	for _, r := range s { // ranging yields U+FFFD for each invalid byte
		b = utf8.AppendRune(b, r)
	}
	return Name(b)
}

// String returns the name's DOMString as a Go (UTF-8) string. Lone
// surrogates, which UTF-8 cannot express, become U+FFFD; all other code
// units are kept. Use UTF16 for an exact copy.
func (n Name) String() string {
	s := string(n)
	if !n.isCanonical() {
		s = string(n.Canonical())
	}
	if strings.IndexByte(s, 0xED) < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if _, ok := lonesurrogateAt(s, i); ok {
			b.WriteRune(utf8.RuneError)
			i += 3
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// IsWellFormed reports whether the name's DOMString contains no lone
// surrogate (see Name: bytes of invalid UTF-8 stand for lone surrogates),
// that is whether String returns it without loss.
func (n Name) IsWellFormed() bool {
	s := string(n)
	if utf8.ValidString(s) {
		return true // valid UTF-8 has no surrogate forms
	}
	u := n.UTF16()
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c >= 0xD800 && c < 0xDC00 && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] < 0xE000 {
			i++
			continue
		}
		if c >= 0xD800 && c < 0xE000 {
			return false
		}
	}
	return true
}

// reserved reports whether the name starts with U+002D HYPHEN-MINUS (-).
func (n Name) reserved() bool { return len(n) > 0 && n[0] == '-' }
