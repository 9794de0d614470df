package bindings

import "github.com/gowebengine/weblocks/bindings/webidl"

// HTMLFrameSetElement (https://html.spec.whatwg.org/multipage/obsolete.html#htmlframesetelement):
// cols and rows reflect their content attributes (its WindowEventHandlers
// are not exposed, as HTMLBodyElement's are not).

func (e *htmlElementImpl) Cols() (webidl.DOMString, error) { return e.attr("cols"), nil }

func (e *htmlElementImpl) SetCols(v webidl.DOMString) error { return e.setAttr("cols", v) }

func (e *htmlElementImpl) Rows() (webidl.DOMString, error) { return e.attr("rows"), nil }

func (e *htmlElementImpl) SetRows(v webidl.DOMString) error { return e.setAttr("rows", v) }
