package bindings

// HTMLStyleElement: https://html.spec.whatwg.org/multipage/semantics.html#the-style-element.
// media is HTMLMetaElement's reflection; the style sheet's fetches
// (@import, fonts, images) are the embedder's.

// htmlElementImpl implements HTMLStyleElement.
var _ HTMLStyleElementMethods = (*htmlElementImpl)(nil)
