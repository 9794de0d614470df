package bindings

import (
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// HTMLElement and the element interfaces without members of their own
// (reflected content attributes); HTMLScriptElement and HTMLIFrameElement
// have their own files.

// htmlElementImpl implements HTMLElement and its subclasses.
type htmlElementImpl struct {
	*nodeImpl
	sandbox *domTokenListImpl
	style   *cssStyleDeclarationImpl // [SameObject] style (elementcssinlinestyle.go)
}

// htmlInterfaceOf is the element interface for an HTML local name (the
// elements this engine has interfaces for; other known elements are
// HTMLElement, unknown ones HTMLUnknownElement).
func htmlInterfaceOf(local string) string {
	switch local {
	case "html":
		return "HTMLHtmlElement"
	case "head":
		return "HTMLHeadElement"
	case "title":
		return "HTMLTitleElement"
	case "meta":
		return "HTMLMetaElement"
	case "body":
		return "HTMLBodyElement"
	case "div":
		return "HTMLDivElement"
	case "span":
		return "HTMLSpanElement"
	case "p":
		return "HTMLParagraphElement"
	case "iframe":
		return "HTMLIFrameElement"
	case "frame":
		return "HTMLFrameElement"
	case "frameset":
		return "HTMLFrameSetElement"
	case "script":
		return "HTMLScriptElement"
	case "img":
		return "HTMLImageElement"
	case "audio":
		return "HTMLAudioElement"
	case "video":
		return "HTMLVideoElement"
	case "picture":
		return "HTMLPictureElement"
	case "source":
		return "HTMLSourceElement"
	case "link":
		return "HTMLLinkElement"
	case "style":
		return "HTMLStyleElement"
	}
	if knownHTMLElements[local] {
		return "HTMLElement"
	}
	if strings.Contains(local, "-") {
		return "HTMLElement" // a valid custom element name, undefined
	}
	return "HTMLUnknownElement"
}

var knownHTMLElements = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Fields(`a abbr address area article aside audio b base bdi bdo blockquote br button
		canvas caption cite code col colgroup data datalist dd del details dfn dialog dl dt em embed fieldset
		figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr i img input ins kbd label legend li link
		main map mark menu meta meter nav noscript object ol optgroup option output param picture pre progress q rp rt
		ruby s samp search section select slot small source strong style sub summary sup table tbody td template
		textarea tfoot th thead time tr track u ul var video wbr`) {
		m[s] = true
	}
	return m
}()

func (e *htmlElementImpl) reflectURL(name string) string {
	v, ok := e.n.Attribute(name)
	if !ok {
		return ""
	}
	base, _ := e.BaseURI()
	u, err := whatwg.ParseRef(base, v)
	if err != nil {
		return v
	}
	return u.Href(false)
}

func (e *htmlElementImpl) reflectBool(name string) bool {
	_, ok := e.n.Attribute(name)
	return ok
}

func (e *htmlElementImpl) setBool(name string, v bool) error {
	if v {
		return e.n.SetAttribute(name, "")
	}
	e.n.RemoveAttribute(name)
	return nil
}

func (e *htmlElementImpl) setAttr(name string, v webidl.DOMString) error {
	return e.n.SetAttribute(name, string(v))
}

func (e *htmlElementImpl) Title() (webidl.DOMString, error) { return e.attr("title"), nil }

func (e *htmlElementImpl) SetTitle(v webidl.DOMString) error {
	return e.setAttr("title", v)
}

func (e *htmlElementImpl) Lang() (webidl.DOMString, error) { return e.attr("lang"), nil }

func (e *htmlElementImpl) SetLang(v webidl.DOMString) error { return e.setAttr("lang", v) }

func (e *htmlElementImpl) Hidden() (bool, error) { return e.reflectBool("hidden"), nil }

func (e *htmlElementImpl) SetHidden(v bool) error { return e.setBool("hidden", v) }

func (e *htmlElementImpl) Onerror() (*EventHandlerNonNull, error) { return e.handlerGet("error"), nil }

func (e *htmlElementImpl) SetOnerror(v *EventHandlerNonNull) error {
	e.handlerSet("error", v)
	return nil
}

func (e *htmlElementImpl) Onload() (*EventHandlerNonNull, error) { return e.handlerGet("load"), nil }

func (e *htmlElementImpl) SetOnload(v *EventHandlerNonNull) error {
	e.handlerSet("load", v)
	return nil
}

func (e *htmlElementImpl) Onmessage() (*EventHandlerNonNull, error) {
	return e.handlerGet("message"), nil
}

func (e *htmlElementImpl) SetOnmessage(v *EventHandlerNonNull) error {
	e.handlerSet("message", v)
	return nil
}

// Click fires a synthetic, bubbling, cancelable click event (no
// activation behaviour: nothing here has one).
func (e *htmlElementImpl) Click() error {
	e.realm.fireEvent(e.target, "click", true, true, nil)
	return nil
}

// htmlElementImpl implements HTMLElement.
var _ HTMLElementMethods = (*htmlElementImpl)(nil)

// htmlElementImpl implements the element interfaces without members of
// their own too (HTMLHeadElement, HTMLBodyElement...).
var _ HTMLHeadElementMethods = (*htmlElementImpl)(nil)

func (e *htmlElementImpl) Onloadeddata() (*EventHandlerNonNull, error) {
	return e.handlerGet("loadeddata"), nil
}

func (e *htmlElementImpl) SetOnloadeddata(v *EventHandlerNonNull) error {
	e.handlerSet("loadeddata", v)
	return nil
}

func (e *htmlElementImpl) Onloadedmetadata() (*EventHandlerNonNull, error) {
	return e.handlerGet("loadedmetadata"), nil
}

func (e *htmlElementImpl) SetOnloadedmetadata(v *EventHandlerNonNull) error {
	e.handlerSet("loadedmetadata", v)
	return nil
}
