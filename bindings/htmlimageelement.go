package bindings

import (
	"strconv"
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
)

// HTMLImageElement: https://html.spec.whatwg.org/multipage/embedded-content.html#the-img-element.
// Its attributes reflect content attributes; fetching the image (HTML's
// "update the image data") is the embedder's, run from the document's
// attribute-change and insertion hooks (package browser). src is
// HTMLScriptElement's reflection (htmlscriptelement.go); srcset and
// sizes are shared with HTMLSourceElement, crossOrigin and
// referrerPolicy with HTMLLinkElement. width and height are not
// supported (HTMLIFrameElement's are DOMString reflections on the same Go
// type), nor complete and currentSrc (the image's state is the
// embedder's).

type htmlImageElementStatics struct{}

// FactoryImage is the Image() legacy factory function: an img element
// of the current global's document, with width and height attributes set
// from the arguments given.
// https://html.spec.whatwg.org/multipage/embedded-content.html#dom-image
func (htmlImageElementStatics) FactoryImage(r *webidl.Realm, width webidl.Optional[uint32], height webidl.Optional[uint32]) (HTMLImageElementMethods, error) {
	rr := realmOf(r)
	// 1. Let document be the current global object's associated Document.
	// 2. Let img be the result of creating an element given document,
	//    "img", and the HTML namespace.
	n, err := rr.currentDocument().CreateElement("img")
	if err != nil {
		return nil, err
	}
	// 3. If width is given, then set an attribute value for img using
	//    "width" and width.
	if width.Present {
		_ = n.SetAttribute("width", strconv.FormatUint(uint64(width.Value), 10))
	}
	// 4. If height is given, then set an attribute value for img using
	//    "height" and height.
	if height.Present {
		_ = n.SetAttribute("height", strconv.FormatUint(uint64(height.Value), 10))
	}
	// 5. Return img.
	return rr.nodeImpl(n).(HTMLImageElementMethods), nil
}

func (e *htmlElementImpl) Alt() (webidl.DOMString, error) { return e.attr("alt"), nil }

func (e *htmlElementImpl) SetAlt(v webidl.DOMString) error { return e.setAttr("alt", v) }

func (e *htmlElementImpl) Srcset() (string, error) { return string(e.attr("srcset")), nil }

func (e *htmlElementImpl) SetSrcset(v string) error { return e.n.SetAttribute("srcset", v) }

func (e *htmlElementImpl) Sizes() (webidl.DOMString, error) { return e.attr("sizes"), nil }

func (e *htmlElementImpl) SetSizes(v webidl.DOMString) error { return e.setAttr("sizes", v) }

// CrossOrigin reflects the crossorigin content attribute, a CORS
// settings attribute, limited to only known values: null when absent,
// "use-credentials", else "anonymous".
func (e *htmlElementImpl) CrossOrigin() (webidl.Nullable[webidl.DOMString], error) {
	v, ok := e.n.Attribute("crossorigin")
	if !ok {
		return webidl.Nullable[webidl.DOMString]{Null: true}, nil
	}
	if strings.EqualFold(v, "use-credentials") {
		return webidl.Nullable[webidl.DOMString]{Value: "use-credentials"}, nil
	}
	return webidl.Nullable[webidl.DOMString]{Value: "anonymous"}, nil
}

func (e *htmlElementImpl) SetCrossOrigin(v webidl.Nullable[webidl.DOMString]) error {
	if v.Null {
		e.n.RemoveAttribute("crossorigin")
		return nil
	}
	return e.setAttr("crossorigin", v.Value)
}

// ReferrerPolicy reflects the referrerpolicy content attribute, limited
// to only known values (the referrer policies; "" otherwise).
func (e *htmlElementImpl) ReferrerPolicy() (webidl.DOMString, error) {
	return limitedTo(e.attr("referrerpolicy"), "", "no-referrer", "no-referrer-when-downgrade", "same-origin",
		"origin", "strict-origin", "origin-when-cross-origin", "strict-origin-when-cross-origin", "unsafe-url"), nil
}

func (e *htmlElementImpl) SetReferrerPolicy(v webidl.DOMString) error {
	return e.setAttr("referrerpolicy", v)
}

// Decoding reflects decoding, limited to only known values ("auto" the
// missing and invalid value default).
func (e *htmlElementImpl) Decoding() (webidl.DOMString, error) {
	v := limitedTo(e.attr("decoding"), "", "sync", "async", "auto")
	if v == "" {
		v = "auto"
	}
	return v, nil
}

func (e *htmlElementImpl) SetDecoding(v webidl.DOMString) error { return e.setAttr("decoding", v) }

// Loading reflects loading, limited to only known values ("eager" the
// missing and invalid value default).
func (e *htmlElementImpl) Loading() (webidl.DOMString, error) {
	v := limitedTo(e.attr("loading"), "", "lazy", "eager")
	if v == "" {
		v = "eager"
	}
	return v, nil
}

func (e *htmlElementImpl) SetLoading(v webidl.DOMString) error { return e.setAttr("loading", v) }

// limitedTo is the value of an enumerated attribute limited to only known
// values: v in ASCII lower case if it is one of known, else "".
func limitedTo(v webidl.DOMString, known ...string) webidl.DOMString {
	l := strings.ToLower(string(v))
	for _, k := range known {
		if l == k {
			return webidl.DOMString(k)
		}
	}
	return ""
}
