package browser

import (
	"strings"

	xhtml "golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Helpers over the x/net/html nodes beneath the dom package's tree, for
// what the host reads (script and iframe elements); scripts see the tree
// through the generated DOM bindings.

// isFrameElement reports whether n is an iframe or a frame element (an
// HTML element whose insertion creates a child navigable; a frame is an
// iframe without srcdoc and sandbox, whose requests' destination is
// "frame").
func isFrameElement(n *xhtml.Node) bool {
	return n.Type == xhtml.ElementNode && (n.DataAtom == atom.Iframe || n.DataAtom == atom.Frame) && n.Namespace == ""
}

// isFrame reports whether n is a frame element (isFrameElement).
func isFrame(n *xhtml.Node) bool { return n.DataAtom == atom.Frame }

// iframesIn lists the iframe and frame elements of n's subtree (n
// included), in tree order.
func iframesIn(n *xhtml.Node) []*xhtml.Node {
	var out []*xhtml.Node
	if isFrameElement(n) {
		out = append(out, n)
	}
	return append(out, descendants(n, isFrameElement, 0)...)
}

// descendants lists the descendants of n (not n) in tree order that match,
// stopping after limit matches when limit > 0.
func descendants(n *xhtml.Node, match func(*xhtml.Node) bool, limit int) []*xhtml.Node {
	var out []*xhtml.Node
	var walk func(*xhtml.Node) bool
	walk = func(p *xhtml.Node) bool {
		for c := p.FirstChild; c != nil; c = c.NextSibling {
			if match(c) {
				out = append(out, c)
				if limit > 0 && len(out) >= limit {
					return false
				}
			}
			if !walk(c) {
				return false
			}
		}
		return true
	}
	walk(n)
	return out
}

// textContent is the concatenation of the Text node descendants' data.
func textContent(n *xhtml.Node) string {
	var b strings.Builder
	for _, t := range descendants(n, func(c *xhtml.Node) bool { return c.Type == xhtml.TextNode }, 0) {
		b.WriteString(t.Data)
	}
	return b.String()
}

// getAttr is the value of n's attribute key in no namespace.
func getAttr(n *xhtml.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}
