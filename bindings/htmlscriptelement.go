package bindings

import (
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
)

// HTMLScriptElement. Its text attribute is also HTMLTitleElement's, the
// same steps (the child text content).

func (e *htmlElementImpl) Src() (string, error) { return e.reflectURL("src"), nil }

func (e *htmlElementImpl) SetSrc(v string) error { return e.n.SetAttribute("src", v) }

func (e *htmlElementImpl) Type() (webidl.DOMString, error) { return e.attr("type"), nil }

func (e *htmlElementImpl) SetType(v webidl.DOMString) error { return e.setAttr("type", v) }

func (e *htmlElementImpl) Async() (bool, error) { return e.reflectBool("async"), nil }

func (e *htmlElementImpl) SetAsync(v bool) error { return e.setBool("async", v) }

func (e *htmlElementImpl) Defer() (bool, error) { return e.reflectBool("defer"), nil }

func (e *htmlElementImpl) SetDefer(v bool) error { return e.setBool("defer", v) }

func (e *htmlElementImpl) Text() (webidl.DOMString, error) {
	return webidl.DOMString(childText(e.n)), nil
}

func (e *htmlElementImpl) SetText(v webidl.DOMString) error {
	e.n.SetTextContent(string(v))
	return nil
}

// childText is the child text content (the Text children's data).
func childText(n *dom.Node) string {
	var b strings.Builder
	for _, c := range n.ChildNodes() {
		if c.NodeType() == dom.TextNode {
			b.WriteString(c.Data())
		}
	}
	return b.String()
}
