package bindings

// HTMLPictureElement: https://html.spec.whatwg.org/multipage/embedded-content.html#the-picture-element
// (no members; its source children take part in its img child's image
// source selection, the embedder's).

// htmlElementImpl implements HTMLPictureElement.
var _ HTMLPictureElementMethods = (*htmlElementImpl)(nil)
