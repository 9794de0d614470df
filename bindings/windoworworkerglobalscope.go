package bindings

import (
	"encoding/base64"
	"unicode/utf16"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/fetch"
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

// atob is the atob(data) method steps: forgiving-base64 decode (package
// fetch's), failure being an "InvalidCharacterError" DOMException. The
// result is a ByteString (one code unit per byte). A code unit outside
// ASCII (a lone surrogate among them) is not base64 and fails.
func atob(data []uint16) ([]byte, error) {
	out, err := fetch.ForgivingBase64Decode(string(utf16.Decode(data)))
	if err != nil {
		return nil, dom.NewDOMException("The string to be decoded is not correctly encoded.", dom.InvalidCharacterError)
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

// Caches is https://w3c.github.io/ServiceWorker/#global-caches: the
// realm's CacheStorage object.
func (g *globalBase) Caches() (CacheStorageMethods, error) { return g.realm.cacheStorage(), nil }
