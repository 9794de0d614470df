package webidl

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/grafana/sobek"
)

// DOMString is a WebIDL DOMString: any sequence of UTF-16 code units. It is
// held as WTF-8 (UTF-8 that also encodes lone surrogates as three-byte
// sequences), so it is lossless, comparable, and equal to the plain UTF-8
// Go string whenever the text is well-formed.
type DOMString string

// USVString is a WebIDL USVString: a sequence of Unicode scalar values,
// held as well-formed UTF-8.
type USVString = string

// ByteString is a WebIDL ByteString: one Go byte per code unit (0–255).
type ByteString string

// DOMStringFromUTF16 encodes UTF-16 code units losslessly.
func DOMStringFromUTF16(units []uint16) DOMString {
	var b strings.Builder
	b.Grow(len(units))
	for i := 0; i < len(units); i++ {
		c := units[i]
		switch {
		case c < 0x80:
			b.WriteByte(byte(c))
		case c >= 0xD800 && c <= 0xDBFF && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] <= 0xDFFF:
			b.WriteRune(utf16.DecodeRune(rune(c), rune(units[i+1])))
			i++
		case c >= 0xD800 && c <= 0xDFFF:
			// Lone surrogate: the generalized UTF-8 three-byte form.
			b.WriteByte(0xE0 | byte(c>>12))
			b.WriteByte(0x80 | byte(c>>6)&0x3F)
			b.WriteByte(0x80 | byte(c)&0x3F)
		default:
			b.WriteRune(rune(c))
		}
	}
	return DOMString(b.String())
}

// UTF16 returns the code units of s.
func (s DOMString) UTF16() []uint16 {
	out := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < 0x80 {
			out = append(out, uint16(c))
			i++
			continue
		}
		if c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF {
			// Encoded surrogate.
			out = append(out, 0xD000|uint16(s[i+1]&0x3F)<<6|uint16(s[i+2]&0x3F))
			i += 3
			continue
		}
		r, n := utf8.DecodeRuneInString(string(s[i:]))
		if r >= 0x10000 {
			a, b := utf16.EncodeRune(r)
			out = append(out, uint16(a), uint16(b))
		} else {
			out = append(out, uint16(r))
		}
		i += n
	}
	return out
}

// IsWellFormed reports whether s holds no lone surrogate.
func (s DOMString) IsWellFormed() bool { return utf8.ValidString(string(s)) }

// ToUSVString converts s to a USVString, replacing lone surrogates with
// U+FFFD (WebIDL "convert to a scalar value string").
func (s DOMString) ToUSVString() string {
	if utf8.ValidString(string(s)) {
		return string(s)
	}
	return string(utf16.Decode(s.UTF16()))
}

// Value converts s to a JavaScript string.
func (s DOMString) Value() sobek.Value {
	if isASCII(string(s)) {
		return asciiValue(string(s))
	}
	return sobek.StringFromUTF16(s.UTF16())
}

func asciiValue(s string) sobek.Value { return sobek.StringFromUTF16(asciiUnits(s)) }

func asciiUnits(s string) []uint16 {
	u := make([]uint16, len(s))
	for i := 0; i < len(s); i++ {
		u[i] = uint16(s[i])
	}
	return u
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// Value converts a ByteString to JavaScript (each byte one code unit).
func (s ByteString) Value() sobek.Value {
	u := make([]uint16, len(s))
	for i := 0; i < len(s); i++ {
		u[i] = uint16(s[i])
	}
	return sobek.StringFromUTF16(u)
}

// jsString runs ECMAScript ToString, throwing a TypeError for symbols.
func (r *Realm) jsString(v sobek.Value) sobek.String {
	switch x := v.(type) {
	case sobek.String:
		return x
	case *sobek.Symbol:
		r.ThrowTypeError("Cannot convert a Symbol value to a string")
	case *sobek.Object:
		// ToPrimitive with hint string, then ToString: a template literal
		// does exactly that (and throws for a symbol result).
		if r.toStringFn == nil {
			f, err := r.VM.RunString("(function (v) { 'use strict'; return `${v}`; })")
			if err != nil {
				panic(err)
			}
			r.toStringFn, _ = sobek.AssertFunction(f)
		}
		res, err := r.toStringFn(sobek.Undefined(), x)
		if err != nil {
			r.Throw(err)
		}
		if s, ok := res.(sobek.String); ok {
			return s
		}
		return asciiValue(res.String()).(sobek.String)
	}
	if v == nil {
		return asciiValue("undefined").(sobek.String)
	}
	// Numbers, booleans, BigInts, null and undefined stringify to ASCII.
	return asciiValue(v.String()).(sobek.String)
}

// ToDOMString converts a JavaScript value to a DOMString (ToString, code
// units preserved).
func (r *Realm) ToDOMString(v sobek.Value) DOMString {
	s := r.jsString(v)
	n := s.Length()
	ascii := true
	for i := 0; i < n; i++ {
		if s.CharAt(i) >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		b := make([]byte, n)
		for i := 0; i < n; i++ {
			b[i] = byte(s.CharAt(i))
		}
		return DOMString(b)
	}
	u := make([]uint16, n)
	for i := range u {
		u[i] = s.CharAt(i)
	}
	return DOMStringFromUTF16(u)
}

// ToDOMStringLegacyNullToEmpty implements [LegacyNullToEmptyString].
func (r *Realm) ToDOMStringLegacyNullToEmpty(v sobek.Value) DOMString {
	if sobek.IsNull(v) {
		return ""
	}
	return r.ToDOMString(v)
}

// ToUSVString converts a JavaScript value to a USVString.
func (r *Realm) ToUSVString(v sobek.Value) string {
	return r.ToDOMString(v).ToUSVString()
}

// ToByteString converts a JavaScript value to a ByteString, throwing a
// TypeError for any code unit above 0xFF.
func (r *Realm) ToByteString(v sobek.Value) ByteString {
	s := r.jsString(v)
	n := s.Length()
	b := make([]byte, n)
	for i := 0; i < n; i++ {
		c := s.CharAt(i)
		if c > 0xFF {
			r.ThrowTypeError("Cannot convert to ByteString: character at index %d has a value of %d, greater than 255", i, c)
		}
		b[i] = byte(c)
	}
	return ByteString(b)
}

// StringValue converts a Go string holding UTF-8 (a USVString) to
// JavaScript.
func StringValue(s string) sobek.Value {
	if isASCII(s) {
		return asciiValue(s)
	}
	return sobek.StringFromUTF16(utf16.Encode([]rune(s)))
}
