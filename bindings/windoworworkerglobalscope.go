package bindings

import (
	"encoding/base64"
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

// globalBase is what the Window and DedicatedWorkerGlobalScope
// implementations share: the EventTarget of the global object and the
// WindowOrWorkerGlobalScope members.
type globalBase struct {
	*eventTargetImpl
	info envInfo
	perf *performanceImpl
}

// WindowOrWorkerGlobalScope

func (g *globalBase) Origin() (string, error)                  { return g.info.origin, nil }
func (g *globalBase) IsSecureContext() (bool, error)           { return g.info.secure, nil }
func (g *globalBase) CrossOriginIsolated() (bool, error)       { return false, nil }
func (g *globalBase) Performance() (PerformanceMethods, error) { return g.perf, nil }

// reportError(e): report the exception e.
func (g *globalBase) ReportError(e sobek.Value) error {
	g.realm.reportError(g.realm.throwValue(webidl.AnyValue(e)))
	return nil
}

func (g *globalBase) Btoa(data webidl.DOMString) (webidl.DOMString, error) {
	s, err := btoa(data.UTF16())
	return webidl.DOMString(s), err
}

func (g *globalBase) Atob(data webidl.DOMString) (webidl.ByteString, error) {
	b, err := atob(data.UTF16())
	return webidl.ByteString(b), err
}

func (g *globalBase) handlerValue(h TimerHandler) sobek.Value {
	if h.Type == TimerHandlerIsFunction && h.Function != nil {
		return h.Function.Value()
	}
	return h.DOMString.Value()
}

func (g *globalBase) SetTimeout(handler TimerHandler, timeout int32, args []sobek.Value) (int32, error) {
	return g.realm.timerInitializationSteps(g.handlerValue(handler), timeout, args, false, 0), nil
}

func (g *globalBase) SetInterval(handler TimerHandler, timeout int32, args []sobek.Value) (int32, error) {
	return g.realm.timerInitializationSteps(g.handlerValue(handler), timeout, args, true, 0), nil
}

func (g *globalBase) ClearTimeout(id int32) error {
	g.realm.clearTimer(id)
	return nil
}

func (g *globalBase) ClearInterval(id int32) error {
	g.realm.clearTimer(id)
	return nil
}

func (g *globalBase) QueueMicrotask(callback *VoidFunction) error {
	g.realm.queueMicrotask(callback.Value())
	return nil
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

// Fetch is the fetch(input, init) method steps of WindowOrWorkerGlobalScope.
func (g *globalBase) Fetch(input RequestInfo, init RequestInit) (*webidl.Promise, error) {
	return g.realm.fetchMethod(input, init), nil
}

func (g *globalBase) StructuredClone(value sobek.Value, opts StructuredSerializeOptions) (sobek.Value, error) {
	return g.realm.structuredClone(webidl.AnyValue(value), opts)
}
