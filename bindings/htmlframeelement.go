package bindings

import "github.com/gowebengine/weblocks/bindings/webidl"

// HTMLFrameElement (https://html.spec.whatwg.org/multipage/obsolete.html#htmlframeelement):
// its members reflect its content attributes; name, src, contentDocument
// and contentWindow are HTMLIFrameElement's (the embedder gives a frame
// element a child navigable as it gives an iframe one, DOMHooks).

func (e *htmlElementImpl) Scrolling() (webidl.DOMString, error) { return e.attr("scrolling"), nil }

func (e *htmlElementImpl) SetScrolling(v webidl.DOMString) error { return e.setAttr("scrolling", v) }

func (e *htmlElementImpl) FrameBorder() (webidl.DOMString, error) { return e.attr("frameborder"), nil }

func (e *htmlElementImpl) SetFrameBorder(v webidl.DOMString) error {
	return e.setAttr("frameborder", v)
}

func (e *htmlElementImpl) LongDesc() (string, error) { return e.reflectURL("longdesc"), nil }

func (e *htmlElementImpl) SetLongDesc(v string) error { return e.n.SetAttribute("longdesc", v) }

func (e *htmlElementImpl) NoResize() (bool, error) { return e.reflectBool("noresize"), nil }

func (e *htmlElementImpl) SetNoResize(v bool) error { return e.setBool("noresize", v) }

func (e *htmlElementImpl) MarginHeight() (webidl.DOMString, error) {
	return e.attr("marginheight"), nil
}

func (e *htmlElementImpl) SetMarginHeight(v webidl.DOMString) error {
	return e.setAttr("marginheight", v)
}

func (e *htmlElementImpl) MarginWidth() (webidl.DOMString, error) { return e.attr("marginwidth"), nil }

func (e *htmlElementImpl) SetMarginWidth(v webidl.DOMString) error {
	return e.setAttr("marginwidth", v)
}
