package weblocks

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Name is a resource name: a DOMString, that is any sequence of UTF-16 code
// units, including lone surrogates and NUL.
//
// A Name holds its code units in generalized UTF-8 ("WTF-8"): every scalar
// value is stored as UTF-8, a surrogate pair as the 4-byte UTF-8 form of its
// supplementary code point, and a lone surrogate as its own 3-byte form
// (ED A0..BF xx). This encoding is lossless and canonical: two names are
// the same DOMString exactly when they are equal as Go strings, so a Name can
// be compared with == and used as a map key. For names that are valid
// Unicode (the overwhelming majority), the bytes are ordinary UTF-8 and
// NameFromString and String cost no conversion.
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

// UTF16 returns the code units of the name, exactly as they were given.
func (n Name) UTF16() []uint16 {
	s := string(n)
	u := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			u = append(u, uint16(c))
			i++
			continue
		}
		if r, ok := lonesurrogateAt(s, i); ok {
			u = append(u, uint16(r))
			i += 3
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		u = utf16.AppendRune(u, r)
		i += size
	}
	return u
}

// lonesurrogateAt reports whether s[i:] starts with the generalized UTF-8
// form of a surrogate code unit, and returns it.
func lonesurrogateAt(s string, i int) (rune, bool) {
	if i+2 < len(s) && s[i] == 0xED && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80 {
		return 0xD000 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F), true
	}
	return 0, false
}

// NameFromString converts a Go string to a name the way a UTF-8 byte string
// becomes a DOMString: valid UTF-8 is taken as is (no copy), and each byte
// that is not part of a valid UTF-8 sequence becomes U+FFFD. Use
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

// String returns the name as a Go (UTF-8) string. Lone surrogates, which
// UTF-8 cannot express, become U+FFFD; all other code units are kept. Use
// UTF16 for an exact copy.
func (n Name) String() string {
	s := string(n)
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

// IsWellFormed reports whether the name contains no lone surrogate, that is
// whether String returns it without loss.
func (n Name) IsWellFormed() bool {
	s := string(n)
	for i := strings.IndexByte(s, 0xED); i >= 0; {
		if _, ok := lonesurrogateAt(s, i); ok {
			return false
		}
		j := strings.IndexByte(s[i+1:], 0xED)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return true
}

// reserved reports whether the name starts with U+002D HYPHEN-MINUS (-).
func (n Name) reserved() bool { return len(n) > 0 && n[0] == '-' }
