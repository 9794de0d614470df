package bindings

import (
	"strings"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// This file implements Node over the dom package's node tree; the other
// node interfaces (Document, Element, CharacterData, Text, Comment,
// DocumentType, DocumentFragment, the DOM mixins ParentNode, ChildNode,
// NonElementParentNode and NonDocumentTypeChildNode, NodeList,
// HTMLCollection, DOMTokenList, HTMLElement and its subclasses) have a
// file each.

// NodeValue returns the JavaScript object of a node (created on first
// use, then the same object every time).
func (r *Realm) NodeValue(n *dom.Node) sobek.Value {
	if n == nil {
		return sobek.Null()
	}
	return idlWrapNode(r.idl, r.nodeImpl(n))
}

// NodeOf returns the node behind a Node platform object, or nil.
func (r *Realm) NodeOf(v sobek.Value) *dom.Node {
	impl, ok := r.idl.Implements(v, "Node")
	if !ok {
		return nil
	}
	if h, ok := impl.(interface{ domNode() *dom.Node }); ok {
		return h.domNode()
	}
	return nil
}

// nodeImpl implements Node and the interfaces of elements, character data
// and fragments.
type nodeImpl struct {
	*eventTargetImpl
	n *dom.Node
	// [SameObject] collections.
	childNodes *nodeListImpl
	children   *htmlCollectionImpl
	classList  *domTokenListImpl // Element.classList
}

func (n *nodeImpl) domNode() *dom.Node { return n.n }

// nodeImpl returns the implementation of n, creating it (with the realm r)
// on first use.
func (r *Realm) nodeImpl(n *dom.Node) NodeMethods {
	if n == nil {
		return nil
	}
	if impl, ok := n.Slot.(NodeMethods); ok {
		return impl
	}
	base := &nodeImpl{eventTargetImpl: r.newEventTargetImpl(&n.EventTarget), n: n}
	var impl NodeMethods = base
	switch {
	case n.IsHTML():
		impl = &htmlElementImpl{nodeImpl: base}
	case n.IsSVG():
		impl = &svgElementImpl{nodeImpl: base}
	case n.NodeType() == dom.DocumentTypeNode:
		impl = &doctypeImpl{nodeImpl: base}
	case n.NodeType() == dom.DocumentNode:
		impl = &documentImpl{nodeImpl: base}
	}
	n.EventTarget.Owner = impl
	n.Slot = impl
	return impl
}

// domNodeOf returns the node of an argument implementation.
func domNodeOf(m any) *dom.Node {
	if m == nil {
		return nil
	}
	if h, ok := m.(interface{ domNode() *dom.Node }); ok {
		return h.domNode()
	}
	return nil
}

func (n *nodeImpl) wrap(x *dom.Node) NodeMethods {
	if x == nil {
		return nil
	}
	return n.realm.nodeImpl(x)
}

// WebIDLInterface names the node's most derived interface.
func (n *nodeImpl) WebIDLInterface() string {
	switch n.n.NodeType() {
	case dom.ElementNode:
		if n.n.IsHTML() {
			return htmlInterfaceOf(n.n.LocalName())
		}
		if n.n.IsSVG() {
			return svgInterfaceOf(n.n.LocalName())
		}
		return "Element"
	case dom.TextNode:
		return "Text"
	case dom.CommentNode:
		return "Comment"
	case dom.DocumentNode:
		return "Document"
	case dom.DocumentFragmentNode:
		return "DocumentFragment"
	case dom.DocumentTypeNode:
		return "DocumentType"
	}
	return "Node"
}

func (n *nodeImpl) NodeType() (uint16, error)           { return n.n.NodeType(), nil }
func (n *nodeImpl) NodeName() (webidl.DOMString, error) { return webidl.DOMString(n.n.NodeName()), nil }
func (n *nodeImpl) IsConnected() (bool, error)          { return n.n.IsConnected(), nil }
func (n *nodeImpl) ParentNode() (NodeMethods, error)    { return n.wrap(n.n.Parent()), nil }
func (n *nodeImpl) ParentElement() (ElementMethods, error) {
	return n.element(n.n.ParentElement()), nil
}
func (n *nodeImpl) FirstChild() (NodeMethods, error)      { return n.wrap(n.n.FirstChild()), nil }
func (n *nodeImpl) LastChild() (NodeMethods, error)       { return n.wrap(n.n.LastChild()), nil }
func (n *nodeImpl) PreviousSibling() (NodeMethods, error) { return n.wrap(n.n.PreviousSibling()), nil }
func (n *nodeImpl) NextSibling() (NodeMethods, error)     { return n.wrap(n.n.NextSibling()), nil }
func (n *nodeImpl) GetRootNode() (NodeMethods, error)     { return n.wrap(n.n.Root()), nil }
func (n *nodeImpl) HasChildNodes() (bool, error)          { return n.n.FirstChild() != nil, nil }

// BaseURI is the document base URL: the first base element's href parsed
// against the document URL, else the document URL.
func (n *nodeImpl) BaseURI() (string, error) {
	d := n.n.OwnerDocument()
	if href := d.BaseHref(); href != "" {
		if u, err := whatwg.ParseRef(d.URL, href); err == nil {
			return u.Href(false), nil
		}
	}
	if d.FallbackBaseURL != "" && strings.HasPrefix(d.URL, "about:") {
		return d.FallbackBaseURL, nil
	}
	return d.URL, nil
}

func (n *nodeImpl) OwnerDocument() (DocumentMethods, error) {
	if _, ok := n.n.AsDocument(); ok {
		return nil, nil
	}
	d, _ := n.realm.nodeImpl(&n.n.OwnerDocument().Node).(DocumentMethods)
	return d, nil
}

func (n *nodeImpl) ChildNodes() (NodeListMethods, error) {
	if n.childNodes == nil {
		n.childNodes = newNodeList(n.realm, n.n.ChildNodes)
	}
	return n.childNodes, nil
}

func (n *nodeImpl) NodeValue() (webidl.Nullable[webidl.DOMString], error) {
	switch n.n.NodeType() {
	case dom.TextNode, dom.CommentNode:
		return webidl.NonNull(webidl.DOMString(n.n.Data())), nil
	}
	return webidl.Null[webidl.DOMString](), nil
}

func (n *nodeImpl) SetNodeValue(v webidl.Nullable[webidl.DOMString]) error {
	switch n.n.NodeType() {
	case dom.TextNode, dom.CommentNode:
		n.n.SetData(string(v.Value))
	}
	return nil
}

func (n *nodeImpl) TextContent() (webidl.Nullable[webidl.DOMString], error) {
	s, ok := n.n.TextContent()
	if !ok {
		return webidl.Null[webidl.DOMString](), nil
	}
	return webidl.NonNull(webidl.DOMString(s)), nil
}

func (n *nodeImpl) SetTextContent(v webidl.Nullable[webidl.DOMString]) error {
	n.n.SetTextContent(string(v.Value))
	return nil
}

func (n *nodeImpl) CloneNode(subtree bool) (NodeMethods, error) {
	return n.wrap(n.n.CloneNode(subtree)), nil
}

func (n *nodeImpl) IsSameNode(other NodeMethods) (bool, error) {
	return domNodeOf(other) == n.n, nil
}

func (n *nodeImpl) Contains(other NodeMethods) (bool, error) {
	return n.n.Contains(domNodeOf(other)), nil
}

func (n *nodeImpl) InsertBefore(node, child NodeMethods) (NodeMethods, error) {
	res, err := n.n.PreInsert(domNodeOf(node), domNodeOf(child))
	return n.wrap(res), err
}

func (n *nodeImpl) AppendChild(node NodeMethods) (NodeMethods, error) {
	res, err := n.n.AppendChild(domNodeOf(node))
	return n.wrap(res), err
}

func (n *nodeImpl) ReplaceChild(node, child NodeMethods) (NodeMethods, error) {
	res, err := n.n.ReplaceChild(domNodeOf(node), domNodeOf(child))
	return n.wrap(res), err
}

func (n *nodeImpl) RemoveChild(child NodeMethods) (NodeMethods, error) {
	res, err := n.n.RemoveChild(domNodeOf(child))
	return n.wrap(res), err
}
