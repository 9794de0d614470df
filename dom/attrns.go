package dom

import (
	"strings"

	"golang.org/x/net/html"
)

// Namespaced attributes. The tree keeps an attribute's namespace the way
// golang.org/x/net/html does: "xlink", "xml" and "xmlns" for the XLink,
// XML and XMLNS namespaces (the parser's foreign attributes), the
// namespace itself for any other.

// Attribute namespaces of the Infra Standard.
const (
	XLinkNamespace = "http://www.w3.org/1999/xlink"
	XMLNamespace   = "http://www.w3.org/XML/1998/namespace"
	XMLNSNamespace = "http://www.w3.org/2000/xmlns/"
)

// attrNamespaceKey is the tree's form of attribute namespace ns.
func attrNamespaceKey(ns string) string {
	switch ns {
	case XLinkNamespace:
		return "xlink"
	case XMLNamespace:
		return "xml"
	case XMLNSNamespace:
		return "xmlns"
	}
	return ns
}

// SetAttributeNS is https://dom.spec.whatwg.org/#dom-element-setattributens:
// namespace "" is the null namespace.
func (n *Node) SetAttributeNS(namespace, qualifiedName, value string) error {
	// 1. Let namespace, prefix, and localName be the result of passing
	//    namespace and qualifiedName to validate and extract.
	prefix, local, hasPrefix := strings.Cut(qualifiedName, ":")
	if !hasPrefix {
		prefix, local = "", qualifiedName
	}
	if !ValidAttributeName(local) || hasPrefix && (prefix == "" || !ValidAttributeName(prefix) || strings.Contains(local, ":")) {
		return NewDOMException("'"+qualifiedName+"' is not a valid qualified name.", InvalidCharacterError)
	}
	// Validate and extract's namespace checks: a prefix needs a
	// namespace; "xml" is the XML namespace's; "xmlns" the XMLNS
	// namespace's and only its.
	if hasPrefix && namespace == "" ||
		prefix == "xml" && namespace != XMLNamespace ||
		(qualifiedName == "xmlns" || prefix == "xmlns") != (namespace == XMLNSNamespace) {
		return NewDOMException("The namespace '"+namespace+"' is not valid for '"+qualifiedName+"'.", NamespaceError)
	}
	if namespace == "" {
		// (The null namespace: the attribute is matched by its local
		// name alone, without lower-casing.)
		return n.setAttr("", local, value)
	}
	// 2. Set an attribute value for this using localName, value, and
	//    also prefix and namespace.
	return n.setAttr(attrNamespaceKey(namespace), local, value)
}

// setAttr changes the attribute (ns, local) of n, or appends it, and runs
// the attribute change steps (with its local name).
func (n *Node) setAttr(ns, local, value string) error {
	for i, a := range n.h.Attr {
		if a.Key == local && a.Namespace == ns {
			old := a.Val
			n.h.Attr[i].Val = value
			n.attributeChanged(local, &old, &value)
			return nil
		}
	}
	n.h.Attr = append(n.h.Attr, html.Attribute{Namespace: ns, Key: local, Val: value})
	n.attributeChanged(local, nil, &value)
	return nil
}

// AttributeNS is https://dom.spec.whatwg.org/#dom-element-getattributens:
// the value of the attribute whose namespace is namespace ("" for null)
// and local name is local.
func (n *Node) AttributeNS(namespace, local string) (string, bool) {
	ns := attrNamespaceKey(namespace)
	for _, a := range n.h.Attr {
		if a.Key == local && a.Namespace == ns {
			return a.Val, true
		}
	}
	return "", false
}
