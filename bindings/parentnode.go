package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
)

func (n *nodeImpl) Children() (HTMLCollectionMethods, error) {
	if n.children == nil {
		n.children = newHTMLCollection(n.realm, n.n.Children)
	}
	return n.children, nil
}

func (n *nodeImpl) FirstElementChild() (ElementMethods, error) {
	return n.element(n.n.FirstElementChild()), nil
}

func (n *nodeImpl) LastElementChild() (ElementMethods, error) {
	return n.element(n.n.LastElementChild()), nil
}

func (n *nodeImpl) ChildElementCount() (uint32, error) { return uint32(len(n.n.Children())), nil }

func (n *nodeImpl) QuerySelector(sel webidl.DOMString) (ElementMethods, error) {
	res, err := n.n.QuerySelector(string(sel))
	return n.element(res), err
}

func (n *nodeImpl) QuerySelectorAll(sel webidl.DOMString) (NodeListMethods, error) {
	res, err := n.n.QuerySelectorAll(string(sel))
	if err != nil {
		return nil, err
	}
	return newNodeList(n.realm, func() []*dom.Node { return res }), nil
}

// convertNodesIntoANode is
// https://dom.spec.whatwg.org/#converting-nodes-into-a-node
func (n *nodeImpl) convertNodesIntoANode(nodes []NodeOrDOMString) *dom.Node {
	doc := n.n.OwnerDocument()
	// 1. Replace each string in nodes with a new Text node whose data is
	//    the string and node document is document.
	list := make([]*dom.Node, len(nodes))
	for i, x := range nodes {
		if x.Type == NodeOrDOMStringIsNode {
			list[i] = domNodeOf(x.Node)
		} else {
			list[i] = doc.CreateTextNode(string(x.DOMString))
		}
	}
	// 2. If nodes contains one node, then return it.
	if len(list) == 1 {
		return list[0]
	}
	// 3. Otherwise, a new DocumentFragment with the nodes appended.
	frag := doc.CreateDocumentFragment()
	for _, x := range list {
		if _, err := frag.AppendChild(x); err != nil {
			return frag
		}
	}
	return frag
}

func (n *nodeImpl) Prepend(nodes []NodeOrDOMString) error {
	node := n.convertNodesIntoANode(nodes)
	_, err := n.n.PreInsert(node, n.n.FirstChild())
	return err
}

func (n *nodeImpl) Append(nodes []NodeOrDOMString) error {
	_, err := n.n.AppendChild(n.convertNodesIntoANode(nodes))
	return err
}
