package bindings

import "github.com/gowebengine/weblocks/bindings/webidl"

// HTMLMetaElement: https://html.spec.whatwg.org/#the-meta-element. Its
// attributes reflect the content attributes of the same names (httpEquiv:
// http-equiv); name is the one HTMLIFrameElement's getter and setter
// (htmliframeelement.go) implement on the shared htmlElementImpl.

func (e *htmlElementImpl) HTTPEquiv() (webidl.DOMString, error) { return e.attr("http-equiv"), nil }

func (e *htmlElementImpl) SetHTTPEquiv(v webidl.DOMString) error { return e.setAttr("http-equiv", v) }

func (e *htmlElementImpl) Content() (webidl.DOMString, error) { return e.attr("content"), nil }

func (e *htmlElementImpl) SetContent(v webidl.DOMString) error { return e.setAttr("content", v) }

func (e *htmlElementImpl) Media() (webidl.DOMString, error) { return e.attr("media"), nil }

func (e *htmlElementImpl) SetMedia(v webidl.DOMString) error { return e.setAttr("media", v) }
