package bindings

import (
	"strings"

	"github.com/gowebengine/weblocks/fetch"

	"github.com/gowebengine/weblocks/bindings/webidl"
)

// This file is the Fetch Standard's headers: header lists and the Headers
// interface (https://fetch.spec.whatwg.org/#headers-class).

// headerList is the Fetch Standard's header list, kept in package fetch.
type headerList = fetch.HeaderList

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
	if !fetch.IsHeaderName(name) {
		return false, webidl.NewTypeError("Headers: invalid header name %q", name)
	}
	if !fetch.IsHeaderValue(value) {
		return false, webidl.NewTypeError("Headers: invalid header value %q", value)
	}
	switch h.guard {
	case guardImmutable:
		// 2. If headers's guard is "immutable", then throw a TypeError.
		return false, webidl.NewTypeError("Headers: the headers are immutable")
	case guardRequest:
		// 3. If headers's guard is "request" and (name, value) is a
		// forbidden request-header, then return false.
		if fetch.IsForbiddenRequestHeader(name, value) {
			return false, nil
		}
	case guardResponse:
		// 4. If headers's guard is "response" and name is a forbidden
		// response-header name, then return false.
		if fetch.IsForbiddenResponseHeaderName(name) {
			return false, nil
		}
	}
	// 5. Return true.
	return true, nil
}

// appendHeader is https://fetch.spec.whatwg.org/#concept-headers-append.
func (h *headersImpl) appendHeader(name, value string) error {
	// 1. Normalize value.
	value = fetch.NormalizeHeaderValue(value)
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
		tmp, had := h.list.Get(name)
		if had {
			tmp += ", " + value
		} else {
			tmp = value
		}
		if !fetch.IsNoCORSSafelistedRequestHeaderName(name) || !fetch.IsCORSSafelistedRequestHeader(name, tmp) {
			return nil
		}
	}
	// 4. Append (name, value) to headers's header list.
	h.list.Append(name, value)
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
func (h *headersImpl) removePrivilegedNoCORSHeaders() { h.list.Delete("range") }

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
	if h.guard == guardRequestNoCORS && !fetch.IsNoCORSSafelistedRequestHeaderName(string(name)) && !strings.EqualFold(string(name), "range") {
		return nil
	}
	// 3. If this's header list does not contain name, then return.
	// 4. Delete name from this's header list.
	h.list.Delete(string(name))
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
	if !fetch.IsHeaderName(string(name)) {
		return webidl.Nullable[webidl.ByteString]{Null: true}, webidl.NewTypeError("Headers.get: invalid header name %q", string(name))
	}
	// 2. Return the result of getting name from this's header list.
	v, ok := h.list.Get(string(name))
	if !ok {
		return webidl.Nullable[webidl.ByteString]{Null: true}, nil
	}
	return webidl.Nullable[webidl.ByteString]{Value: webidl.ByteString(v)}, nil
}

// GetSetCookie is https://fetch.spec.whatwg.org/#dom-headers-getsetcookie.
func (h *headersImpl) GetSetCookie() ([]webidl.ByteString, error) {
	out := []webidl.ByteString{}
	for _, e := range *h.list {
		if strings.EqualFold(e.Name, "set-cookie") {
			out = append(out, webidl.ByteString(e.Value))
		}
	}
	return out, nil
}

// Has is https://fetch.spec.whatwg.org/#dom-headers-has.
func (h *headersImpl) Has(name webidl.ByteString) (bool, error) {
	// 1. If name is not a header name, then throw a TypeError.
	if !fetch.IsHeaderName(string(name)) {
		return false, webidl.NewTypeError("Headers.has: invalid header name %q", string(name))
	}
	// 2. Return true if this's header list contains name; otherwise false.
	return h.list.Contains(string(name)), nil
}

// Set is https://fetch.spec.whatwg.org/#dom-headers-set.
func (h *headersImpl) Set(name, value webidl.ByteString) error {
	// 1. Normalize value.
	v := fetch.NormalizeHeaderValue(string(value))
	// 2. If validating (name, value) for this returns false, then return.
	ok, err := h.validate(string(name), v)
	if err != nil || !ok {
		return err
	}
	// 3. If this's guard is "request-no-cors" and (name, value) is not a
	// no-CORS-safelisted request-header, then return.
	if h.guard == guardRequestNoCORS && (!fetch.IsNoCORSSafelistedRequestHeaderName(string(name)) || !fetch.IsCORSSafelistedRequestHeader(string(name), v)) {
		return nil
	}
	// 4. Set (name, value) in this's header list.
	h.list.Set(string(name), v)
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
	list := h.list.SortAndCombine()
	out := make([]webidl.KV[webidl.ByteString, webidl.ByteString], len(list))
	for i, e := range list {
		out[i] = webidl.KV[webidl.ByteString, webidl.ByteString]{Key: webidl.ByteString(e.Name), Value: webidl.ByteString(e.Value)}
	}
	return out, nil
}
