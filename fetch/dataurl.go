package fetch

import (
	"encoding/base64"
	"errors"
	"strings"
)

// dataURL is the result of the data: URL processor: a MIME type
// (serialized) and a body.
type dataURL struct {
	mimeType string
	body     []byte
}

// processDataURL is https://fetch.spec.whatwg.org/#data-url-processor.
func processDataURL(raw string) (*dataURL, error) {
	// 1-2. Let input be the result of running the URL serializer on
	//    dataURL with exclude fragment set to true.
	if i := strings.IndexByte(raw, '#'); i >= 0 {
		raw = raw[:i]
	}
	// 3. Remove the leading "data:" from input.
	if len(raw) < 5 || !strings.EqualFold(raw[:5], "data:") {
		return nil, errors.New("fetch: not a data: URL")
	}
	input := raw[5:]
	// 4-5. Let mimeType be the result of collecting a sequence of code
	//    points that are not U+002C (,) from input.
	comma := strings.IndexByte(input, ',')
	// 7. If position is past the end of input, then return failure.
	if comma < 0 {
		return nil, errors.New("fetch: a data: URL without a comma")
	}
	// 6. Strip leading and trailing ASCII whitespace from mimeType.
	mimeType := strings.Trim(input[:comma], "\t\n\f\r ")
	// 8-10. Let encodedBody be the remainder of input; let body be its
	//    percent-decoding.
	body := PercentDecode(input[comma+1:])
	// 11. If mimeType ends with U+003B (;), followed by zero or more
	//     U+0020 SPACE, followed by an ASCII case-insensitive match for
	//     "base64", then:
	if m := strings.TrimRight(mimeType[:max(0, len(mimeType)-6)], " "); len(mimeType) >= 6 &&
		strings.EqualFold(mimeType[len(mimeType)-6:], "base64") && strings.HasSuffix(m, ";") {
		// 11.1-11.3. Let body be the forgiving-base64 decode of the
		//     isomorphic decode of body; failure is failure.
		var err error
		if body, err = ForgivingBase64Decode(string(body)); err != nil {
			return nil, err
		}
		// 11.4-11.6. Remove "base64", the trailing spaces and the ";".
		mimeType = m[:len(m)-1]
	}
	// 12. If mimeType starts with ";", then prepend "text/plain".
	if strings.HasPrefix(mimeType, ";") {
		mimeType = "text/plain" + mimeType
	}
	// 13-14. Let mimeTypeRecord be the result of parsing mimeType; on
	//     failure, text/plain;charset=US-ASCII.
	rec, ok := parseMIMEType(mimeType)
	if !ok {
		rec = "text/plain;charset=US-ASCII"
	}
	// 15. Return a new data: URL struct.
	return &dataURL{mimeType: rec, body: body}, nil
}

// PercentDecode is https://url.spec.whatwg.org/#percent-decode (of a
// string's bytes: its UTF-8 encoding).
func PercentDecode(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			out = append(out, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		out = append(out, s[i])
	}
	return out
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// ForgivingBase64Decode is
// https://infra.spec.whatwg.org/#forgiving-base64-decode (data: URLs,
// and atob() in package bindings).
func ForgivingBase64Decode(s string) ([]byte, error) {
	// 1. Remove all ASCII whitespace from data.
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune("\t\n\f\r ", r) {
			return -1
		}
		return r
	}, s)
	// 2. If data's code point length divides by 4 leaving no remainder,
	//    then: if data ends with one or two U+003D (=), remove them.
	if len(s)%4 == 0 {
		if strings.HasSuffix(s, "==") {
			s = s[:len(s)-2]
		} else if strings.HasSuffix(s, "=") {
			s = s[:len(s)-1]
		}
	}
	// 3. If data's code point length divides by 4 leaving a remainder of
	//    1, return failure.
	if len(s)%4 == 1 {
		return nil, errors.New("fetch: bad base64")
	}
	// 4. If data contains a code point that is not ASCII alphanumeric,
	//    U+002B (+) or U+002F (/), return failure.
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/') {
			return nil, errors.New("fetch: bad base64")
		}
	}
	// 5-9. Decode (leftover bits are discarded).
	return base64.RawStdEncoding.DecodeString(s)
}

// parseMIMEType is https://mimesniff.spec.whatwg.org/#parse-a-mime-type
// followed by serializing the result; false for failure.
func parseMIMEType(input string) (string, bool) {
	// 1. Remove any leading and trailing HTTP whitespace from input.
	input = strings.Trim(input, "\t\n\r ")
	// 2-5. Let type be the code points up to "/", a non-empty run of HTTP
	//    token code points.
	slash := strings.IndexByte(input, '/')
	if slash <= 0 || !isToken(input[:slash]) {
		return "", false
	}
	typ := input[:slash]
	rest := input[slash+1:]
	// 7-9. Let subtype be the code points up to ";", with trailing HTTP
	//    whitespace removed, a non-empty run of HTTP token code points.
	semi := strings.IndexByte(rest, ';')
	if semi < 0 {
		semi = len(rest)
	}
	sub := strings.TrimRight(rest[:semi], "\t\n\r ")
	if sub == "" || !isToken(sub) {
		return "", false
	}
	// 10. Let mimeType be a new MIME type record whose type is type, in
	//     ASCII lowercase, and subtype is subtype, in ASCII lowercase.
	out := strings.ToLower(typ) + "/" + strings.ToLower(sub)
	seen := map[string]bool{}
	rest = rest[semi:]
	// 11. While position is not past the end of input:
	for len(rest) > 0 {
		// 11.1. Advance position by 1 (skip ";"). 11.2. Skip leading
		//       HTTP whitespace.
		rest = strings.TrimLeft(rest[1:], "\t\n\r ")
		// 11.3. Let parameterName be the code points up to ";" or "=",
		//       in ASCII lowercase.
		end := strings.IndexAny(rest, ";=")
		if end < 0 {
			end = len(rest)
		}
		name := strings.ToLower(rest[:end])
		rest = rest[end:]
		// 11.5. If position is not past the end of input: if the code
		//       point is ";", continue; advance position by 1.
		if len(rest) > 0 && rest[0] == ';' {
			continue
		}
		// 11.6. If position is past the end of input, then break.
		if len(rest) == 0 {
			break
		}
		rest = rest[1:]
		var value string
		if strings.HasPrefix(rest, `"`) {
			// 11.8. If the code point is U+0022 ("): collect an HTTP
			//       quoted string (with the extract-value flag), then
			//       the code points up to ";".
			value, rest = collectQuotedString(rest)
			if i := strings.IndexByte(rest, ';'); i >= 0 {
				rest = rest[i:]
			} else {
				rest = ""
			}
		} else {
			// 11.9. Otherwise: the code points up to ";", trailing HTTP
			//       whitespace removed; an empty value is skipped.
			i := strings.IndexByte(rest, ';')
			if i < 0 {
				i = len(rest)
			}
			value = strings.TrimRight(rest[:i], "\t\n\r ")
			rest = rest[i:]
			if value == "" {
				continue
			}
		}
		// 11.10. If parameterName is non-empty, solely HTTP token code
		//        points, parameterValue solely HTTP quoted-string token
		//        code points, and mimeType's parameters do not contain
		//        parameterName, then set it.
		if name != "" && isToken(name) && isQuotedStringTokens(value) && !seen[name] {
			seen[name] = true
			out += ";" + name + "=" + serializeParamValue(value)
		}
	}
	return out, true
}

func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isTokenByte(s[i]) {
			return false
		}
	}
	return s != ""
}

func isQuotedStringTokens(s string) bool {
	for _, r := range s {
		if !(r == '\t' || r >= 0x20 && r <= 0x7E || r >= 0x80 && r <= 0xFF) {
			return false
		}
	}
	return true
}

// collectQuotedString is
// https://fetch.spec.whatwg.org/#collect-an-http-quoted-string with the
// extract-value flag: the value and what follows it.
func collectQuotedString(s string) (string, string) {
	var b strings.Builder
	i := 1
	for i < len(s) {
		c := s[i]
		i++
		switch c {
		case '\\':
			if i >= len(s) {
				b.WriteByte('\\')
				return b.String(), ""
			}
			b.WriteByte(s[i])
			i++
		case '"':
			return b.String(), s[i:]
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

// serializeParamValue quotes a parameter value unless it is a token
// (https://mimesniff.spec.whatwg.org/#serialize-a-mime-type).
func serializeParamValue(v string) string {
	if isToken(v) {
		return v
	}
	v = strings.ReplaceAll(v, `\`, `\\`)
	return `"` + strings.ReplaceAll(v, `"`, `\"`) + `"`
}
