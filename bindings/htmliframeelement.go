package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

// DOMHooks are what the embedder (the browser host) provides for nodes
// whose behaviour depends on browsing contexts.
type DOMHooks struct {
	// ContentWindow gives iframe.contentWindow: the WindowProxy of the
	// element's content navigable as a value of the calling realm, or
	// nil/null when it has none.
	ContentWindow func(iframe *dom.Node) sobek.Value
	// ContentDocument gives iframe.contentDocument: the active document's
	// object when the caller may access it, or nil/null.
	ContentDocument func(iframe *dom.Node) sobek.Value
}

type domHooksKey struct{}

// SetDOMHooks sets the embedder's node hooks of a window realm.
func (r *Realm) SetDOMHooks(h DOMHooks) { r.SetValue(domHooksKey{}, h) }

func (r *Realm) domHooks() DOMHooks {
	h, _ := r.Value(domHooksKey{}).(DOMHooks)
	return h
}

func (e *htmlElementImpl) Srcdoc() (webidl.DOMString, error) { return e.attr("srcdoc"), nil }

func (e *htmlElementImpl) SetSrcdoc(v webidl.DOMString) error { return e.setAttr("srcdoc", v) }

func (e *htmlElementImpl) Name() (webidl.DOMString, error) { return e.attr("name"), nil }

func (e *htmlElementImpl) SetName(v webidl.DOMString) error { return e.setAttr("name", v) }

func (e *htmlElementImpl) Allow() (webidl.DOMString, error) { return e.attr("allow"), nil }

func (e *htmlElementImpl) SetAllow(v webidl.DOMString) error { return e.setAttr("allow", v) }

func (e *htmlElementImpl) Width() (webidl.DOMString, error) { return e.attr("width"), nil }

func (e *htmlElementImpl) SetWidth(v webidl.DOMString) error { return e.setAttr("width", v) }

func (e *htmlElementImpl) Height() (webidl.DOMString, error) { return e.attr("height"), nil }

func (e *htmlElementImpl) SetHeight(v webidl.DOMString) error { return e.setAttr("height", v) }

func (e *htmlElementImpl) Sandbox() (DOMTokenListMethods, error) {
	if e.sandbox == nil {
		e.sandbox = &domTokenListImpl{el: e.n, attr: "sandbox"}
	}
	return e.sandbox, nil
}

// hostWindow and hostDocument carry a value the embedder made (a
// WindowProxy or Document of another realm) through the generated
// conversions, which return a sobek.Value implementation as is.
type hostWindow struct {
	sobek.Value
	WindowMethods
}

// hostElement is an element the embedder gives as a value of this realm
// (window.frameElement: the container element, possibly another realm's
// object reached through a membrane).
type hostElement struct {
	sobek.Value
	ElementMethods
}

// HostValue is the embedder's value itself (webidl.Realm.Wrap returns it).
func (h hostElement) HostValue() sobek.Value { return h.Value }

type hostDocument struct {
	sobek.Value
	DocumentMethods
}

// HostValue is the embedder's value itself (webidl.Realm.Wrap returns it).
func (h hostWindow) HostValue() sobek.Value { return h.Value }

// HostValue is the embedder's value itself (webidl.Realm.Wrap returns it).
func (h hostDocument) HostValue() sobek.Value { return h.Value }

func (e *htmlElementImpl) ContentWindow() (WindowMethods, error) {
	h := e.realm.domHooks().ContentWindow
	if h == nil {
		return nil, nil
	}
	v := h(e.n)
	if webidl.IsNullish(v) {
		return nil, nil
	}
	return hostWindow{Value: v}, nil
}

func (e *htmlElementImpl) ContentDocument() (DocumentMethods, error) {
	h := e.realm.domHooks().ContentDocument
	if h == nil {
		return nil, nil
	}
	v := h(e.n)
	if webidl.IsNullish(v) {
		return nil, nil
	}
	return hostDocument{Value: v}, nil
}
