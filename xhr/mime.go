package xhr

import (
	"strings"

	"github.com/gowebengine/weblocks/fetch"
)

// mimeType is a parsed MIME type record
// (https://mimesniff.spec.whatwg.org/#mime-type): its essence and its
// parameters in order (names lowercased).
type mimeType struct {
	essence string
	params  [][2]string
}

// parseMIMEType is https://mimesniff.spec.whatwg.org/#parse-a-mime-type;
// false for failure.
func parseMIMEType(s string) (mimeType, bool) {
	ser, ok := fetch.ParseMIMEType(s)
	if !ok {
		return mimeType{}, false
	}
	// The serialization is canonical: essence, then ";name=value" with
	// value a token or a quoted string whose " and \ are escaped.
	semi := strings.IndexByte(ser, ';')
	if semi < 0 {
		return mimeType{essence: ser}, true
	}
	m := mimeType{essence: ser[:semi]}
	rest := ser[semi:]
	for len(rest) > 0 && rest[0] == ';' {
		rest = rest[1:]
		eq := strings.IndexByte(rest, '=')
		if eq < 0 {
			break
		}
		name := rest[:eq]
		rest = rest[eq+1:]
		var val strings.Builder
		if strings.HasPrefix(rest, `"`) {
			i := 1
			for ; i < len(rest) && rest[i] != '"'; i++ {
				if rest[i] == '\\' && i+1 < len(rest) {
					i++
				}
				val.WriteByte(rest[i])
			}
			rest = rest[min(i+1, len(rest)):]
		} else {
			end := strings.IndexByte(rest, ';')
			if end < 0 {
				end = len(rest)
			}
			val.WriteString(rest[:end])
			rest = rest[end:]
		}
		m.params = append(m.params, [2]string{name, val.String()})
	}
	return m, true
}

// param is the value of the parameter name; false when there is none.
func (m mimeType) param(name string) (string, bool) {
	for _, p := range m.params {
		if p[0] == name {
			return p[1], true
		}
	}
	return "", false
}

// String is https://mimesniff.spec.whatwg.org/#serialize-a-mime-type.
func (m mimeType) String() string {
	var b strings.Builder
	b.WriteString(m.essence)
	for _, p := range m.params {
		b.WriteString(";" + p[0] + "=")
		if p[1] != "" && isToken(p[1]) {
			b.WriteString(p[1])
			continue
		}
		b.WriteByte('"')
		for i := 0; i < len(p[1]); i++ {
			if c := p[1][i]; c == '"' || c == '\\' {
				b.WriteByte('\\')
			}
			b.WriteByte(p[1][i])
		}
		b.WriteByte('"')
	}
	return b.String()
}

func isToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// extractMIMEType is
// https://fetch.spec.whatwg.org/#concept-header-extract-mime-type.
func extractMIMEType(headers fetch.HeaderList) (mimeType, bool) {
	// 1. Let charset be null. 2. Let essence be null. 3. Let mimeType be
	//    null.
	var charset, essence string
	var hasCharset, ok bool
	var mt mimeType
	// 4. Let values be the result of getting, decoding, and splitting
	//    `Content-Type` from headers. 5. If values is null, then return
	//    failure.
	v, found := headers.Get("Content-Type")
	if !found {
		return mimeType{}, false
	}
	// 6. For each value of values:
	for _, value := range fetch.GetDecodeAndSplit(v) {
		// 6.1. Let temporaryMimeType be the result of parsing value.
		tmp, parsed := parseMIMEType(value)
		// 6.2. If temporaryMimeType is failure or its essence is "*/*",
		//      then continue.
		if !parsed || tmp.essence == "*/*" {
			continue
		}
		// 6.3. Set mimeType to temporaryMimeType.
		mt, ok = tmp, true
		// 6.4. If mimeType's essence is not essence, then: set charset to
		//      null; if mimeType's parameters["charset"] exists, set
		//      charset to it; set essence to mimeType's essence.
		if mt.essence != essence {
			charset, hasCharset = mt.param("charset")
			essence = mt.essence
			continue
		}
		// 6.5. Otherwise, if mimeType's parameters["charset"] does not
		//      exist, and charset is non-null, set mimeType's
		//      parameters["charset"] to charset.
		if _, has := mt.param("charset"); !has && hasCharset {
			mt.params = append(append([][2]string(nil), mt.params...), [2]string{"charset", charset})
		}
	}
	// 7. If mimeType is null, then return failure. 8. Return mimeType.
	return mt, ok
}

// extractLength is https://fetch.spec.whatwg.org/#header-list-extract-a-length:
// false for null or failure.
func extractLength(headers fetch.HeaderList) (uint64, bool) {
	// 1. Let values be the result of getting, decoding, and splitting
	//    `Content-Length` from headers. 2. If values is null, then return
	//    null.
	v, found := headers.Get("Content-Length")
	if !found {
		return 0, false
	}
	// 3. Let candidateValue be null.
	candidate := ""
	// 4. For each value of values: if candidateValue is null, set it to
	//    value; otherwise, if value is not candidateValue, return failure.
	for i, value := range fetch.GetDecodeAndSplit(v) {
		if i == 0 {
			candidate = value
		} else if value != candidate {
			return 0, false
		}
	}
	// 5. If candidateValue is the empty string or has a code point that is
	//    not an ASCII digit, then return null.
	if candidate == "" || len(candidate) > 19 {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(candidate); i++ {
		c := candidate[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	// 6. Return candidateValue, interpreted as decimal number.
	return n, true
}
