package bindings

import (
	"encoding/base64"
	"strings"

	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

// HostHooks are the members of the global objects that the embedder
// implements (the go product: messaging, importScripts, close). A nil hook
// makes postMessage and importScripts throw NotSupportedError and close()
// do nothing. (window.document is Realm.DocumentObject.)
type HostHooks struct {
	// PostMessage implements window.postMessage(message, targetOrigin,
	// transfer) and, in a worker, self.postMessage(message, transfer)
	// (targetOrigin is then "").
	PostMessage func(message sobek.Value, targetOrigin string, transfer []*sobek.Object) error
	// ImportScripts implements self.importScripts(...urls) in workers:
	// fetch and run each script in order, on the calling goroutine.
	ImportScripts func(urls []string) error
	// Close implements self.close() in a worker and window.close().
	Close func()
	// Navigate implements the navigating members of window.location
	// (href, assign, replace, reload): navigate the window's navigable to
	// url (absolute, parsed against the document's URL). A nil hook makes
	// them throw NotSupportedError.
	Navigate func(url string, replace bool) error
	// History implements window.history (history.go); nil members make
	// history.length 1 and its traversals do nothing.
	History HistoryHooks
	// Top gives window.top when the window is not a top-level one (the
	// top-level window as a value of this realm, e.g. through a
	// membrane); nil, or a nil result, means the window itself.
	Top func() sobek.Value
	// Name is the DedicatedWorkerGlobalScope's name (and window.name's
	// initial value).
	Name string
}

// SetHostHooks sets the embedder's hooks. Call it right after creating the
// realm, before scripts run.
func (r *Realm) SetHostHooks(h HostHooks) {
	r.hooks = h
	r.windowName = h.Name
}

// btoa is the btoa(data) method steps.
func btoa(data []uint16) (string, error) {
	// 1. Convert data to a byte sequence whose nth byte is the eight-bit
	// representation of the nth code point of data; throw an
	// "InvalidCharacterError" DOMException if data contains any code point
	// greater than U+00FF.
	b := make([]byte, len(data))
	for i, c := range data {
		if c > 0xFF {
			return "", dom.NewDOMException("The string to be encoded contains characters outside of the Latin1 range.", dom.InvalidCharacterError)
		}
		b[i] = byte(c)
	}
	// 2-3. Apply forgiving-base64 encode and return the result.
	return base64.StdEncoding.EncodeToString(b), nil
}

// atob is the atob(data) method steps: forgiving-base64 decode, failure
// being an "InvalidCharacterError" DOMException. The result is a
// ByteString (one code unit per byte).
func atob(data []uint16) ([]byte, error) {
	fail := dom.NewDOMException("The string to be decoded is not correctly encoded.", dom.InvalidCharacterError)
	// 1. Remove all ASCII whitespace from data.
	var sb strings.Builder
	for _, c := range data {
		switch c {
		case '\t', '\n', '\f', '\r', ' ':
			continue
		}
		if c > 0x7F {
			return nil, fail
		}
		sb.WriteByte(byte(c))
	}
	s := sb.String()
	// 2. If data's code point length divides by 4 leaving no remainder,
	// then: if data ends with one or two U+003D (=), remove them.
	if len(s)%4 == 0 {
		if strings.HasSuffix(s, "==") {
			s = s[:len(s)-2]
		} else if strings.HasSuffix(s, "=") {
			s = s[:len(s)-1]
		}
	}
	// 3. If data's code point length divides by 4 leaving a remainder of
	// 1, return failure.
	if len(s)%4 == 1 {
		return nil, fail
	}
	// 4. If data contains a code point that is not ASCII alphanumeric,
	// U+002B (+) or U+002F (/), return failure.
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/') {
			return nil, fail
		}
	}
	// 5-9. Decode; discard the leftover bits of an incomplete group.
	// (The non-strict decoder ignores non-zero leftover bits, as
	// forgiving-base64 does.)
	out, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return nil, fail
	}
	return out, nil
}
