package bindings

// HTMLSourceElement: https://html.spec.whatwg.org/multipage/embedded-content.html#the-source-element.
// Its attributes (src, type, srcset, sizes, media) reflect content
// attributes with the getters and setters of HTMLScriptElement,
// HTMLImageElement and HTMLMetaElement on the shared htmlElementImpl.

// htmlElementImpl implements HTMLSourceElement.
var _ HTMLSourceElementMethods = (*htmlElementImpl)(nil)
