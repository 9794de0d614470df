package bindings

import (
	"sort"
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
)

// This file is the Fetch Standard's headers: header lists and the Headers
// interface (https://fetch.spec.whatwg.org/#headers-class).

// header is one entry of a header list: a name (its original case) and a
// value, both byte sequences.
type header struct{ name, value string }

// headerList is https://fetch.spec.whatwg.org/#concept-header-list.
type headerList []header

// contains is https://fetch.spec.whatwg.org/#header-list-contains.
func (l headerList) contains(name string) bool {
	for _, h := range l {
		if strings.EqualFold(h.name, name) {
			return true
		}
	}
	return false
}

// get is https://fetch.spec.whatwg.org/#concept-header-list-get: the
// values of name combined with ", ", and false when there is none.
func (l headerList) get(name string) (string, bool) {
	var vals []string
	for _, h := range l {
		if strings.EqualFold(h.name, name) {
			vals = append(vals, h.value)
		}
	}
	if vals == nil {
		return "", false
	}
	return strings.Join(vals, ", "), true
}

// appendHeader is https://fetch.spec.whatwg.org/#concept-header-list-append:
// a later entry with a name already present takes the first entry's case.
func (l *headerList) appendHeader(name, value string) {
	for _, h := range *l {
		if strings.EqualFold(h.name, name) {
			name = h.name
			break
		}
	}
	*l = append(*l, header{name, value})
}

// deleteHeader is https://fetch.spec.whatwg.org/#concept-header-list-delete.
func (l *headerList) deleteHeader(name string) {
	out := (*l)[:0]
	for _, h := range *l {
		if !strings.EqualFold(h.name, name) {
			out = append(out, h)
		}
	}
	*l = out
}

// set is https://fetch.spec.whatwg.org/#concept-header-list-set: the first
// entry named name gets value and the others are removed.
func (l *headerList) set(name, value string) {
	out := (*l)[:0]
	found := false
	for _, h := range *l {
		if !strings.EqualFold(h.name, name) {
			out = append(out, h)
			continue
		}
		if !found {
			found = true
			out = append(out, header{h.name, value})
		}
	}
	if !found {
		out = append(out, header{name, value})
	}
	*l = out
}

// sortAndCombine is
// https://fetch.spec.whatwg.org/#concept-header-list-sort-and-combine.
func (l headerList) sortAndCombine() []header {
	// 1. Let headers be an empty list of headers with the key being the
	// name and value the value.
	var out []header
	// 2. Let names be the result of convert header names to a sorted-
	// lowercase set with all the names of the headers in list.
	seen := map[string]bool{}
	var names []string
	for _, h := range l {
		n := strings.ToLower(h.name)
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
				if strings.EqualFold(h.name, n) {
					out = append(out, header{n, h.value})
				}
			}
			continue
		}
		// 3.2. Otherwise, the combined value.
		v, _ := l.get(n)
		out = append(out, header{n, v})
	}
	// 4. Return headers.
	return out
}

func (l headerList) clone() headerList { return append(headerList(nil), l...) }

// isHeaderName reports whether name matches the field-name token
// production (https://fetch.spec.whatwg.org/#header-name).
func isHeaderName(name string) bool {
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

// normalizeHeaderValue is
// https://fetch.spec.whatwg.org/#concept-header-value-normalize: strip
// leading and trailing HTTP whitespace bytes.
func normalizeHeaderValue(v string) string { return strings.Trim(v, "\t\n\r ") }

// isHeaderValue is https://fetch.spec.whatwg.org/#header-value: no
// leading or trailing HTTP tab or space, no 0x00, 0x0A or 0x0D.
func isHeaderValue(v string) bool {
	if strings.ContainsAny(v, "\x00\n\r") {
		return false
	}
	return v == strings.Trim(v, "\t ")
}

// isForbiddenRequestHeader is
// https://fetch.spec.whatwg.org/#forbidden-request-header (the
// X-HTTP-Method override names are not treated specially).
func isForbiddenRequestHeader(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "accept-charset", "accept-encoding", "access-control-request-headers",
		"access-control-request-method", "connection", "content-length", "cookie",
		"cookie2", "date", "dnt", "expect", "host", "keep-alive", "origin", "referer",
		"set-cookie", "te", "trailer", "transfer-encoding", "upgrade", "via":
		return true
	}
	return strings.HasPrefix(n, "proxy-") || strings.HasPrefix(n, "sec-")
}

// isForbiddenResponseHeaderName is
// https://fetch.spec.whatwg.org/#forbidden-response-header-name.
func isForbiddenResponseHeaderName(name string) bool {
	n := strings.ToLower(name)
	return n == "set-cookie" || n == "set-cookie2"
}

// isNoCORSSafelistedRequestHeaderName is
// https://fetch.spec.whatwg.org/#no-cors-safelisted-request-header-name.
func isNoCORSSafelistedRequestHeaderName(name string) bool {
	switch strings.ToLower(name) {
	case "accept", "accept-language", "content-language", "content-type":
		return true
	}
	return false
}

// isCORSSafelistedRequestHeader is
// https://fetch.spec.whatwg.org/#cors-safelisted-request-header (the
// range header is not safelisted here).
func isCORSSafelistedRequestHeader(name, value string) bool {
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
		switch mimeEssence(value) {
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

// mimeEssence returns the lower-case type/subtype of a MIME type string
// ("" when it has none).
func mimeEssence(v string) string {
	if i := strings.IndexByte(v, ';'); i >= 0 {
		v = v[:i]
	}
	v = strings.ToLower(strings.Trim(v, "\t\n\r "))
	if !strings.Contains(v, "/") {
		return ""
	}
	return v
}

// headersGuard is https://fetch.spec.whatwg.org/#concept-headers-guard.
type headersGuard uint8

const (
	guardNone headersGuard = iota
	guardImmutable
	guardRequest
	guardRequestNoCORS
	guardResponse
)

// headersImpl is a Headers object: a header list (shared with its request
// or response) and a guard.
type headersImpl struct {
	webidl.Reflector
	list  *headerList
	guard headersGuard
}

func newHeaders(list *headerList, guard headersGuard) *headersImpl {
	return &headersImpl{list: list, guard: guard}
}

// validate is https://fetch.spec.whatwg.org/#headers-validate: a
// TypeError for an invalid name or value or an immutable object; false
// when the header must be silently ignored.
func (h *headersImpl) validate(name, value string) (bool, error) {
	// 1. If name is not a header name or value is not a header value,
	// then throw a TypeError.
	if !isHeaderName(name) {
		return false, webidl.NewTypeError("Headers: invalid header name %q", name)
	}
	if !isHeaderValue(value) {
		return false, webidl.NewTypeError("Headers: invalid header value %q", value)
	}
	switch h.guard {
	case guardImmutable:
		// 2. If headers's guard is "immutable", then throw a TypeError.
		return false, webidl.NewTypeError("Headers: the headers are immutable")
	case guardRequest:
		// 3. If headers's guard is "request" and (name, value) is a
		// forbidden request-header, then return false.
		if isForbiddenRequestHeader(name) {
			return false, nil
		}
	case guardResponse:
		// 4. If headers's guard is "response" and name is a forbidden
		// response-header name, then return false.
		if isForbiddenResponseHeaderName(name) {
			return false, nil
		}
	}
	// 5. Return true.
	return true, nil
}

// appendHeader is https://fetch.spec.whatwg.org/#concept-headers-append.
func (h *headersImpl) appendHeader(name, value string) error {
	// 1. Normalize value.
	value = normalizeHeaderValue(value)
	// 2. If validating (name, value) for headers returns false, then
	// return.
	ok, err := h.validate(name, value)
	if err != nil || !ok {
		return err
	}
	// 3. If headers's guard is "request-no-cors":
	if h.guard == guardRequestNoCORS {
		// 3.1-3.4. Let temporaryValue be the combined value; if (name,
		// temporaryValue) is not a no-CORS-safelisted request-header,
		// then return.
		tmp, had := h.list.get(name)
		if had {
			tmp += ", " + value
		} else {
			tmp = value
		}
		if !isNoCORSSafelistedRequestHeaderName(name) || !isCORSSafelistedRequestHeader(name, tmp) {
			return nil
		}
	}
	// 4. Append (name, value) to headers's header list.
	h.list.appendHeader(name, value)
	return nil
}

// fill is https://fetch.spec.whatwg.org/#concept-headers-fill.
func (h *headersImpl) fill(init HeadersInit) error {
	switch init.Type {
	case HeadersInitIsSequenceOfSequenceOfByteString:
		// 1. If object is a sequence, then for each header of object:
		for _, pair := range init.SequenceOfSequenceOfByteString {
			// 1.1. If header's size is not 2, then throw a TypeError.
			if len(pair) != 2 {
				return webidl.NewTypeError("Headers: a header init pair must have two items, not %d", len(pair))
			}
			// 1.2. Append (header[0], header[1]) to headers.
			if err := h.appendHeader(string(pair[0]), string(pair[1])); err != nil {
				return err
			}
		}
	case HeadersInitIsRecordOfByteStringToByteString:
		// 2. Otherwise, object is a record: for each key → value, append
		// (key, value) to headers.
		for _, e := range init.RecordOfByteStringToByteString {
			if err := h.appendHeader(string(e.Key), string(e.Value)); err != nil {
				return err
			}
		}
	}
	return nil
}

// removePrivilegedNoCORSHeaders is
// https://fetch.spec.whatwg.org/#concept-headers-remove-privileged-no-cors-request-headers
// (range is the only privileged no-CORS request-header name).
func (h *headersImpl) removePrivilegedNoCORSHeaders() { h.list.deleteHeader("range") }

type headersStatics struct{}

// Constructor is https://fetch.spec.whatwg.org/#dom-headers.
func (headersStatics) Constructor(r *webidl.Realm, init webidl.Optional[HeadersInit]) (HeadersMethods, error) {
	// 1. Set this's guard to "none".
	h := newHeaders(&headerList{}, guardNone)
	// 2. If init is given, then fill this with init.
	if init.Present {
		if err := h.fill(init.Value); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// Append is https://fetch.spec.whatwg.org/#dom-headers-append.
func (h *headersImpl) Append(name, value webidl.ByteString) error {
	return h.appendHeader(string(name), string(value))
}

// Delete is https://fetch.spec.whatwg.org/#dom-headers-delete.
func (h *headersImpl) Delete(name webidl.ByteString) error {
	// 1. If validating (name, ``) for this returns false, then return.
	ok, err := h.validate(string(name), "")
	if err != nil || !ok {
		return err
	}
	// 2. If this's guard is "request-no-cors", name is not a no-CORS-
	// safelisted request-header name, and name is not a privileged no-CORS
	// request-header name, then return.
	if h.guard == guardRequestNoCORS && !isNoCORSSafelistedRequestHeaderName(string(name)) && !strings.EqualFold(string(name), "range") {
		return nil
	}
	// 3. If this's header list does not contain name, then return.
	// 4. Delete name from this's header list.
	h.list.deleteHeader(string(name))
	// 5. If this's guard is "request-no-cors", then remove privileged
	// no-CORS request-headers from this.
	if h.guard == guardRequestNoCORS {
		h.removePrivilegedNoCORSHeaders()
	}
	return nil
}

// Get is https://fetch.spec.whatwg.org/#dom-headers-get.
func (h *headersImpl) Get(name webidl.ByteString) (webidl.Nullable[webidl.ByteString], error) {
	// 1. If name is not a header name, then throw a TypeError.
	if !isHeaderName(string(name)) {
		return webidl.Nullable[webidl.ByteString]{Null: true}, webidl.NewTypeError("Headers.get: invalid header name %q", string(name))
	}
	// 2. Return the result of getting name from this's header list.
	v, ok := h.list.get(string(name))
	if !ok {
		return webidl.Nullable[webidl.ByteString]{Null: true}, nil
	}
	return webidl.Nullable[webidl.ByteString]{Value: webidl.ByteString(v)}, nil
}

// GetSetCookie is https://fetch.spec.whatwg.org/#dom-headers-getsetcookie.
func (h *headersImpl) GetSetCookie() ([]webidl.ByteString, error) {
	out := []webidl.ByteString{}
	for _, e := range *h.list {
		if strings.EqualFold(e.name, "set-cookie") {
			out = append(out, webidl.ByteString(e.value))
		}
	}
	return out, nil
}

// Has is https://fetch.spec.whatwg.org/#dom-headers-has.
func (h *headersImpl) Has(name webidl.ByteString) (bool, error) {
	// 1. If name is not a header name, then throw a TypeError.
	if !isHeaderName(string(name)) {
		return false, webidl.NewTypeError("Headers.has: invalid header name %q", string(name))
	}
	// 2. Return true if this's header list contains name; otherwise false.
	return h.list.contains(string(name)), nil
}

// Set is https://fetch.spec.whatwg.org/#dom-headers-set.
func (h *headersImpl) Set(name, value webidl.ByteString) error {
	// 1. Normalize value.
	v := normalizeHeaderValue(string(value))
	// 2. If validating (name, value) for this returns false, then return.
	ok, err := h.validate(string(name), v)
	if err != nil || !ok {
		return err
	}
	// 3. If this's guard is "request-no-cors" and (name, value) is not a
	// no-CORS-safelisted request-header, then return.
	if h.guard == guardRequestNoCORS && (!isNoCORSSafelistedRequestHeaderName(string(name)) || !isCORSSafelistedRequestHeader(string(name), v)) {
		return nil
	}
	// 4. Set (name, value) in this's header list.
	h.list.set(string(name), v)
	// 5. If this's guard is "request-no-cors", then remove privileged
	// no-CORS request-headers from this.
	if h.guard == guardRequestNoCORS {
		h.removePrivilegedNoCORSHeaders()
	}
	return nil
}

// IterablePairs is https://fetch.spec.whatwg.org/#concept-headers-iterable:
// the value pairs to iterate over are the return value of running sort
// and combine with this's header list.
func (h *headersImpl) IterablePairs() ([]webidl.KV[webidl.ByteString, webidl.ByteString], error) {
	list := h.list.sortAndCombine()
	out := make([]webidl.KV[webidl.ByteString, webidl.ByteString], len(list))
	for i, e := range list {
		out[i] = webidl.KV[webidl.ByteString, webidl.ByteString]{Key: webidl.ByteString(e.name), Value: webidl.ByteString(e.value)}
	}
	return out, nil
}

func sortStrings(s []string) { sort.Strings(s) }
