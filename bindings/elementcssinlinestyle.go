package bindings

// ElementCSSInlineStyle (https://drafts.csswg.org/cssom/#the-elementcssinlinestyle-mixin),
// included by HTMLElement: the element's inline style declaration
// (cssstyledeclaration.go).

// Style is the style getter: https://drafts.csswg.org/cssom/#dom-elementcssinlinestyle-style
// ([SameObject]: one declaration per element).
func (e *htmlElementImpl) Style() (CSSStyleDeclarationMethods, error) {
	if e.style == nil {
		e.style = &cssStyleDeclarationImpl{owner: e}
	}
	return e.style, nil
}
