package bindings

// SVGElement: https://svgwg.org/svg2-draft/types.html#InterfaceSVGElement.
// Elements in the SVG namespace are SVGElements (svg, image and use have
// their own interfaces, without members); they have the global event
// handlers, which the embedder's image loads (SVG image) fire at.

// svgElementImpl implements SVGElement and its subclasses.
type svgElementImpl struct {
	*nodeImpl
}

// svgInterfaceOf is the element interface for an SVG local name.
func svgInterfaceOf(local string) string {
	switch local {
	case "svg":
		return "SVGSVGElement"
	case "image":
		return "SVGImageElement"
	case "use":
		return "SVGUseElement"
	}
	return "SVGElement"
}

func (e *svgElementImpl) Onerror() (*EventHandlerNonNull, error) { return e.handlerGet("error"), nil }

func (e *svgElementImpl) SetOnerror(v *EventHandlerNonNull) error {
	e.handlerSet("error", v)
	return nil
}

func (e *svgElementImpl) Onload() (*EventHandlerNonNull, error) { return e.handlerGet("load"), nil }

func (e *svgElementImpl) SetOnload(v *EventHandlerNonNull) error {
	e.handlerSet("load", v)
	return nil
}

func (e *svgElementImpl) Onmessage() (*EventHandlerNonNull, error) {
	return e.handlerGet("message"), nil
}

func (e *svgElementImpl) SetOnmessage(v *EventHandlerNonNull) error {
	e.handlerSet("message", v)
	return nil
}

func (e *svgElementImpl) Onloadeddata() (*EventHandlerNonNull, error) {
	return e.handlerGet("loadeddata"), nil
}

func (e *svgElementImpl) SetOnloadeddata(v *EventHandlerNonNull) error {
	e.handlerSet("loadeddata", v)
	return nil
}

func (e *svgElementImpl) Onloadedmetadata() (*EventHandlerNonNull, error) {
	return e.handlerGet("loadedmetadata"), nil
}

func (e *svgElementImpl) SetOnloadedmetadata(v *EventHandlerNonNull) error {
	e.handlerSet("loadedmetadata", v)
	return nil
}
