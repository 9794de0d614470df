package bindings

import "github.com/gowebengine/weblocks/bindings/webidl"

// HTMLLinkElement: https://html.spec.whatwg.org/multipage/semantics.html#the-link-element.
// Its attributes reflect content attributes; fetching and processing the
// linked resource is the embedder's (package browser), run from the
// document's insertion and attribute-change hooks. crossOrigin and
// referrerPolicy are HTMLImageElement's (htmlimageelement.go), media and
// type HTMLMetaElement's and HTMLScriptElement's.

func (e *htmlElementImpl) Href() (string, error) { return e.reflectURL("href"), nil }

func (e *htmlElementImpl) SetHref(v string) error { return e.n.SetAttribute("href", v) }

func (e *htmlElementImpl) Rel() (webidl.DOMString, error) { return e.attr("rel"), nil }

func (e *htmlElementImpl) SetRel(v webidl.DOMString) error { return e.setAttr("rel", v) }

// As reflects the as content attribute, limited to only known values:
// the request destinations a preload may have, and "fetch".
// https://html.spec.whatwg.org/multipage/semantics.html#dom-link-as
func (e *htmlElementImpl) As() (webidl.DOMString, error) {
	return limitedTo(e.attr("as"), "fetch", "audio", "audioworklet", "document", "embed", "font", "image",
		"json", "manifest", "object", "paintworklet", "report", "script", "serviceworker", "sharedworker",
		"style", "track", "video", "webidentity", "worker", "xslt"), nil
}

func (e *htmlElementImpl) SetAs(v webidl.DOMString) error { return e.setAttr("as", v) }
