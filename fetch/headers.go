package fetch

import (
	"sort"
	"strings"
)

// Header is one entry of a header list: a name (its original case) and a
// value, both byte sequences.
type Header struct{ Name, Value string }

// HeaderList is https://fetch.spec.whatwg.org/#concept-header-list.
type HeaderList []Header

// Contains is https://fetch.spec.whatwg.org/#header-list-contains.
func (l HeaderList) Contains(name string) bool {
	for _, h := range l {
		if strings.EqualFold(h.Name, name) {
			return true
		}
	}
	return false
}

// Get is https://fetch.spec.whatwg.org/#concept-header-list-get: the
// values of name combined with ", ", and false when there is none.
func (l HeaderList) Get(name string) (string, bool) {
	var vals []string
	for _, h := range l {
		if strings.EqualFold(h.Name, name) {
			vals = append(vals, h.Value)
		}
	}
	if vals == nil {
		return "", false
	}
	return strings.Join(vals, ", "), true
}

// Append is https://fetch.spec.whatwg.org/#concept-header-list-append:
// a later entry with a name already present takes the first entry's case.
func (l *HeaderList) Append(name, value string) {
	for _, h := range *l {
		if strings.EqualFold(h.Name, name) {
			name = h.Name
			break
		}
	}
	*l = append(*l, Header{name, value})
}

// Delete is https://fetch.spec.whatwg.org/#concept-header-list-delete.
func (l *HeaderList) Delete(name string) {
	out := (*l)[:0]
	for _, h := range *l {
		if !strings.EqualFold(h.Name, name) {
			out = append(out, h)
		}
	}
	*l = out
}

// Set is https://fetch.spec.whatwg.org/#concept-header-list-set: the first
// entry named name gets value and the others are removed.
func (l *HeaderList) Set(name, value string) {
	out := (*l)[:0]
	found := false
	for _, h := range *l {
		if !strings.EqualFold(h.Name, name) {
			out = append(out, h)
			continue
		}
		if !found {
			found = true
			out = append(out, Header{h.Name, value})
		}
	}
	if !found {
		out = append(out, Header{name, value})
	}
	*l = out
}

// SortAndCombine is
// https://fetch.spec.whatwg.org/#concept-header-list-sort-and-combine.
func (l HeaderList) SortAndCombine() []Header {
	// 1. Let headers be an empty list of headers with the key being the
	// name and value the value.
	var out []Header
	// 2. Let names be the result of convert header names to a sorted-
	// lowercase set with all the names of the headers in list.
	seen := map[string]bool{}
	var names []string
	for _, h := range l {
		n := strings.ToLower(h.Name)
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	sort.Strings(names)
	// 3. For each name of names:
	for _, n := range names {
		if n == "set-cookie" {
			// 3.1. If name is `set-cookie`, then each value of the
			// set-cookie headers is appended as its own pair.
			for _, h := range l {
				if strings.EqualFold(h.Name, n) {
					out = append(out, Header{n, h.Value})
				}
			}
			continue
		}
		// 3.2. Otherwise, the combined value.
		v, _ := l.Get(n)
		out = append(out, Header{n, v})
	}
	// 4. Return headers.
	return out
}

// Clone returns a copy of l.
func (l HeaderList) Clone() HeaderList { return append(HeaderList(nil), l...) }

// IsHeaderName reports whether name matches the field-name token
// production (https://fetch.spec.whatwg.org/#header-name).
func IsHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isTokenByte(name[i]) {
			return false
		}
	}
	return true
}

func isTokenByte(c byte) bool {
	if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// NormalizeHeaderValue is
// https://fetch.spec.whatwg.org/#concept-header-value-normalize: strip
// leading and trailing HTTP whitespace bytes.
func NormalizeHeaderValue(v string) string { return strings.Trim(v, "\t\n\r ") }

// IsHeaderValue is https://fetch.spec.whatwg.org/#header-value: no
// leading or trailing HTTP tab or space, no 0x00, 0x0A or 0x0D.
func IsHeaderValue(v string) bool {
	if strings.ContainsAny(v, "\x00\n\r") {
		return false
	}
	return v == strings.Trim(v, "\t ")
}

// IsForbiddenRequestHeader is
// https://fetch.spec.whatwg.org/#forbidden-request-header for the header
// (name, value).
func IsForbiddenRequestHeader(name, value string) bool {
	n := strings.ToLower(name)
	// 1. If name is a byte-case-insensitive match for one of the listed
	//    names, then return true.
	switch n {
	case "accept-charset", "accept-encoding", "access-control-request-headers",
		"access-control-request-method", "connection", "content-length", "cookie",
		"cookie2", "date", "dnt", "expect", "host", "keep-alive", "origin", "referer",
		"set-cookie", "te", "trailer", "transfer-encoding", "upgrade", "via":
		return true
	}
	// 2. If name when byte-lowercased starts with `proxy-` or `sec-`, then
	//    return true.
	if strings.HasPrefix(n, "proxy-") || strings.HasPrefix(n, "sec-") {
		return true
	}
	// 3. If name is a byte-case-insensitive match for one of
	//    `X-HTTP-Method`, `X-HTTP-Method-Override` or `X-Method-Override`:
	if n == "x-http-method" || n == "x-http-method-override" || n == "x-method-override" {
		// 3.1. Let parsedValues be the result of getting, decoding, and
		//      splitting value.
		// 3.2. For each method of parsedValues: if the isomorphic encoding
		//      of method is a forbidden method, then return true.
		for _, m := range getDecodeAndSplit(value) {
			if IsForbiddenMethod(m) {
				return true
			}
		}
	}
	// 4. Return false.
	return false
}

// getDecodeAndSplit is
// https://fetch.spec.whatwg.org/#header-value-get-decode-and-split for a
// header value (its bytes taken as code points, the isomorphic decoding).
func getDecodeAndSplit(input string) []string {
	// 2-4. position at the start; values « »; temporaryValue "".
	pos := 0
	var values []string
	var tmp strings.Builder
	// 5. While true:
	for {
		// 5.1. Append the code points that are not `"` or `,`.
		start := pos
		for pos < len(input) && input[pos] != '"' && input[pos] != ',' {
			pos++
		}
		tmp.WriteString(input[start:pos])
		// 5.2. If the code point at position is `"`: append the result
		//      of collecting an HTTP quoted string; if position is not
		//      past the end, continue.
		if pos < len(input) && input[pos] == '"' {
			tmp.WriteString(collectHTTPQuotedString(input, &pos))
			if pos < len(input) {
				continue
			}
		}
		// 5.3-5.5. Strip HTTP tab or space from both ends, append it to
		//      values, and reset temporaryValue.
		values = append(values, strings.Trim(tmp.String(), "\t "))
		tmp.Reset()
		// 5.6. If position is past the end of input, return values.
		if pos >= len(input) {
			return values
		}
		// 5.7-5.8. The code point at position is `,`: advance past it.
		pos++
	}
}

// collectHTTPQuotedString is
// https://fetch.spec.whatwg.org/#collect-an-http-quoted-string without
// the extract-value flag: the quoted string as it is written, from
// input[*pos] (a `"`) to its closing `"` or the end of input.
func collectHTTPQuotedString(input string, pos *int) string {
	// 1-3. positionStart; values ""; the code point at position is `"`.
	start := *pos
	// 4. Advance position by 1.
	*pos++
	// 5. While true:
	for *pos < len(input) {
		// 5.1. Append the code points that are not `"` or `\`.
		for *pos < len(input) && input[*pos] != '"' && input[*pos] != '\\' {
			*pos++
		}
		// 5.2. If position is past the end of input, then break.
		if *pos >= len(input) {
			break
		}
		// 5.3-5.4. Let quoteOrBackslash be the code point at position;
		//      advance position by 1.
		c := input[*pos]
		*pos++
		// 5.5. If quoteOrBackslash is `\`: if position is past the end,
		//      append `\` and break; otherwise append the code point at
		//      position and advance.
		if c == '\\' {
			if *pos >= len(input) {
				break
			}
			*pos++
			continue
		}
		// 5.6. Otherwise (`"`): break.
		break
	}
	// 6-7. Without the extract-value flag: return the code points from
	//      positionStart to position.
	return input[start:*pos]
}

// IsForbiddenResponseHeaderName is
// https://fetch.spec.whatwg.org/#forbidden-response-header-name.
func IsForbiddenResponseHeaderName(name string) bool {
	n := strings.ToLower(name)
	return n == "set-cookie" || n == "set-cookie2"
}

// IsNoCORSSafelistedRequestHeaderName is
// https://fetch.spec.whatwg.org/#no-cors-safelisted-request-header-name.
func IsNoCORSSafelistedRequestHeaderName(name string) bool {
	switch strings.ToLower(name) {
	case "accept", "accept-language", "content-language", "content-type":
		return true
	}
	return false
}

// IsCORSSafelistedRequestHeader is
// https://fetch.spec.whatwg.org/#cors-safelisted-request-header (the
// range header is not safelisted here).
func IsCORSSafelistedRequestHeader(name, value string) bool {
	// 1. If value's length is greater than 128, then return false.
	if len(value) > 128 {
		return false
	}
	// 2. Byte-lowercase name and switch on the result.
	switch strings.ToLower(name) {
	case "accept":
		return !strings.ContainsFunc(value, isCORSUnsafeRequestHeaderByte)
	case "accept-language", "content-language":
		for _, c := range []byte(value) {
			if !(c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || strings.IndexByte(" *,-.;=", c) >= 0) {
				return false
			}
		}
		return true
	case "content-type":
		if strings.ContainsFunc(value, isCORSUnsafeRequestHeaderByte) {
			return false
		}
		switch MIMEEssence(value) {
		case "application/x-www-form-urlencoded", "multipart/form-data", "text/plain":
			return true
		}
	}
	return false
}

// isCORSUnsafeRequestHeaderByte is
// https://fetch.spec.whatwg.org/#cors-unsafe-request-header-byte.
func isCORSUnsafeRequestHeaderByte(c rune) bool {
	if c < 0x20 && c != '\t' || c == 0x7F {
		return true
	}
	return strings.ContainsRune("\"():<>?@[\\]{}", c)
}

// MIMEEssence returns the lower-case type/subtype of a MIME type string
// ("" when it has none).
func MIMEEssence(v string) string {
	if i := strings.IndexByte(v, ';'); i >= 0 {
		v = v[:i]
	}
	v = strings.ToLower(strings.Trim(v, "\t\n\r "))
	if !strings.Contains(v, "/") {
		return ""
	}
	return v
}

// IsForbiddenMethod is https://fetch.spec.whatwg.org/#forbidden-method.
func IsForbiddenMethod(m string) bool {
	switch strings.ToUpper(m) {
	case "CONNECT", "TRACE", "TRACK":
		return true
	}
	return false
}

// NormalizeMethod is https://fetch.spec.whatwg.org/#concept-method-normalize.
func NormalizeMethod(m string) string {
	switch u := strings.ToUpper(m); u {
	case "DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT":
		return u
	}
	return m
}

// IsCORSSafelistedMethod is https://fetch.spec.whatwg.org/#cors-safelisted-method.
func IsCORSSafelistedMethod(m string) bool { return m == "GET" || m == "HEAD" || m == "POST" }

// CORSUnsafeRequestHeaderNames is
// https://fetch.spec.whatwg.org/#cors-unsafe-request-header-names (sorted,
// lower case, without duplicates).
func CORSUnsafeRequestHeaderNames(l HeaderList) []string {
	var out []string
	for _, e := range l.SortAndCombine() {
		if !IsCORSSafelistedRequestHeader(e.Name, e.Value) {
			out = append(out, e.Name)
		}
	}
	return out
}

// IsNullBodyStatus is https://fetch.spec.whatwg.org/#null-body-status.
func IsNullBodyStatus(s int) bool { return s == 101 || s == 103 || s == 204 || s == 205 || s == 304 }

// IsRedirectStatus is https://fetch.spec.whatwg.org/#redirect-status.
func IsRedirectStatus(s int) bool {
	return s == 301 || s == 302 || s == 303 || s == 307 || s == 308
}

// corsSafelistedResponseHeaderNames are
// https://fetch.spec.whatwg.org/#cors-safelisted-response-header-name
// (without the exposed names).
var corsSafelistedResponseHeaderNames = map[string]bool{
	"cache-control": true, "content-language": true, "content-length": true, "content-type": true,
	"expires": true, "last-modified": true, "pragma": true,
}

// requestBodyHeaderNames are
// https://fetch.spec.whatwg.org/#request-body-header-name.
var requestBodyHeaderNames = []string{"Content-Encoding", "Content-Language", "Content-Location", "Content-Type"}

// headerTokens splits the comma-separated values of name in l into
// trimmed, non-empty tokens (the "extracting header list values" of the
// CORS headers).
func headerTokens(l HeaderList, name string) []string {
	var out []string
	for _, h := range l {
		if !strings.EqualFold(h.Name, name) {
			continue
		}
		for _, t := range strings.Split(h.Value, ",") {
			if t = strings.Trim(t, "\t "); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

func containsToken(list []string, t string, fold bool) bool {
	for _, x := range list {
		if x == t || fold && strings.EqualFold(x, t) {
			return true
		}
	}
	return false
}

// IsScriptLike is https://fetch.spec.whatwg.org/#request-destination-script-like.
func IsScriptLike(destination string) bool {
	switch destination {
	case "audioworklet", "paintworklet", "script", "serviceworker", "sharedworker", "worker":
		return true
	}
	return false
}

// extractMIMEType is
// https://fetch.spec.whatwg.org/#concept-header-extract-mime-type, the
// essence of the result only: false for failure.
func extractMIMEType(l HeaderList) (essence string, ok bool) {
	// 1-4. Let values be the result of getting, decoding, and splitting
	//    `Content-Type` from headers; if it is null, return failure.
	v, found := l.Get("Content-Type")
	if !found {
		return "", false
	}
	// 5. For each value of values: let temporaryMimeType be the result of
	//    parsing value; if it is failure or its essence is "*/*",
	//    continue; otherwise set mimeType to it (the charset bookkeeping
	//    does not change the essence).
	for _, value := range getDecodeAndSplit(v) {
		t, parsed := parseMIMEType(value)
		if !parsed {
			continue
		}
		e, _, _ := strings.Cut(t, ";")
		if e == "*/*" {
			continue
		}
		essence, ok = e, true
	}
	// 6-7. Return mimeType, failure when none was set.
	return essence, ok
}

// IsJavaScriptMIMEType is
// https://mimesniff.spec.whatwg.org/#javascript-mime-type, for a MIME
// type's essence.
func IsJavaScriptMIMEType(essence string) bool {
	switch essence {
	case "application/ecmascript", "application/javascript", "application/x-ecmascript",
		"application/x-javascript", "text/ecmascript", "text/javascript", "text/javascript1.0",
		"text/javascript1.1", "text/javascript1.2", "text/javascript1.3", "text/javascript1.4",
		"text/javascript1.5", "text/jscript", "text/livescript", "text/x-ecmascript",
		"text/x-javascript":
		return true
	}
	return false
}

// shouldBlockDueToMIMEType is
// https://fetch.spec.whatwg.org/#should-response-to-request-be-blocked-due-to-mime-type?.
func shouldBlockDueToMIMEType(resp *Response, req *Request) bool {
	// (Only a script-like destination can be blocked: the MIME type is
	// not extracted for the others.)
	if !IsScriptLike(req.Destination) {
		return false
	}
	// 1-2. Let mimeType be the result of extracting a MIME type from
	//    response's header list; if it is failure, return allowed.
	essence, ok := extractMIMEType(resp.Header)
	if !ok {
		return false
	}
	// 3-4. If request's destination is script-like and mimeType's essence
	//    starts with "audio/", "image/" or "video/", or is "text/csv",
	//    return blocked.
	// 5. Return allowed.
	return strings.HasPrefix(essence, "audio/") || strings.HasPrefix(essence, "image/") ||
		strings.HasPrefix(essence, "video/") || essence == "text/csv"
}

// determineNosniff is https://fetch.spec.whatwg.org/#determine-nosniff.
func determineNosniff(l HeaderList) bool {
	// 1-2. Let values be the result of getting, decoding, and splitting
	//    `X-Content-Type-Options`; if it is null, return false.
	v, ok := l.Get("X-Content-Type-Options")
	if !ok {
		return false
	}
	// 3. If values[0] is an ASCII case-insensitive match for "nosniff",
	//    return true. 4. Return false.
	return strings.EqualFold(getDecodeAndSplit(v)[0], "nosniff")
}

// shouldBlockDueToNosniff is
// https://fetch.spec.whatwg.org/#should-response-to-request-be-blocked-due-to-nosniff?.
func shouldBlockDueToNosniff(resp *Response, req *Request) bool {
	// 1. If determine nosniff with response's header list is false, then
	//    return allowed.
	if !determineNosniff(resp.Header) {
		return false
	}
	// 2-3. Let mimeType be the result of extracting a MIME type; let
	//    destination be request's destination.
	essence, ok := extractMIMEType(resp.Header)
	// 4. If destination is script-like and mimeType is failure or is not
	//    a JavaScript MIME type, return blocked.
	if IsScriptLike(req.Destination) && (!ok || !IsJavaScriptMIMEType(essence)) {
		return true
	}
	// 5. If destination is "style" and mimeType is failure or its essence
	//    is not "text/css", return blocked. 6. Return allowed.
	return req.Destination == "style" && (!ok || essence != "text/css")
}
