// Package encoding is the part of the Encoding Standard
// (https://encoding.spec.whatwg.org/) the engine's core needs, in plain
// Go: UTF-8 decode and UTF-8 decode without BOM, whose decoder emits one
// U+FFFD per maximal subpart of an ill-formed sequence (as the standard's
// UTF-8 decoder does; Go's strings.ToValidUTF8 would replace a whole run
// of invalid bytes by one). TextDecoder (package bindings) streams
// through MaximalSubpart.
package encoding

import (
	"strings"
	"unicode/utf8"
)

// UTF8Decode is https://encoding.spec.whatwg.org/#utf-8-decode: a leading
// BOM is removed, then the bytes are decoded with the UTF-8 decoder
// (errors as U+FFFD).
func UTF8Decode(b []byte) string {
	// 1-2. Peek three bytes; if they are 0xEF 0xBB 0xBF, read them.
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		b = b[3:]
	}
	// 3. Process the rest with UTF-8's decoder and "replacement".
	return UTF8DecodeWithoutBOM(b)
}

// UTF8DecodeWithoutBOM is
// https://encoding.spec.whatwg.org/#utf-8-decode-without-bom.
func UTF8DecodeWithoutBOM(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var s strings.Builder
	s.Grow(len(b) + 8)
	for i := 0; i < len(b); {
		c, n := utf8.DecodeRune(b[i:])
		if c != utf8.RuneError || n > 1 {
			s.Write(b[i : i+n])
			i += n
			continue
		}
		s.WriteRune(utf8.RuneError)
		i += MaximalSubpart(b[i:])
	}
	return s.String()
}

// MaximalSubpart is the length of the maximal subpart of an ill-formed
// sequence at the start of b (at least 1): the longest prefix that starts
// a well-formed sequence, which the UTF-8 decoder
// (https://encoding.spec.whatwg.org/#utf-8-decoder) turns into one error.
func MaximalSubpart(b []byte) int {
	lead := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case lead >= 0xC2 && lead <= 0xDF:
		need = 1
	case lead == 0xE0:
		need, lo = 2, 0xA0
	case lead >= 0xE1 && lead <= 0xEC, lead == 0xEE, lead == 0xEF:
		need = 2
	case lead == 0xED:
		need, hi = 2, 0x9F
	case lead == 0xF0:
		need, lo = 3, 0x90
	case lead >= 0xF1 && lead <= 0xF3:
		need = 3
	case lead == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	n := 1
	for k := 0; k < need && n < len(b); k++ {
		c := b[n]
		if c < lo || c > hi {
			break
		}
		lo, hi = 0x80, 0xBF
		n++
	}
	return n
}
