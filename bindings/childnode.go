package bindings

import "github.com/gowebengine/weblocks/dom"

// viableSibling returns the first following (or preceding) sibling of n
// not in nodes.
func (n *nodeImpl) viableSibling(nodes []NodeOrDOMString, next bool) *dom.Node {
	in := func(x *dom.Node) bool {
		for _, y := range nodes {
			if y.Type == NodeOrDOMStringIsNode && domNodeOf(y.Node) == x {
				return true
			}
		}
		return false
	}
	x := n.n
	for {
		if next {
			x = x.NextSibling()
		} else {
			x = x.PreviousSibling()
		}
		if x == nil || !in(x) {
			return x
		}
	}
}

func (n *nodeImpl) Before(nodes []NodeOrDOMString) error {
	parent := n.n.Parent()
	if parent == nil {
		return nil
	}
	prev := n.viableSibling(nodes, false)
	node := n.convertNodesIntoANode(nodes)
	ref := parent.FirstChild()
	if prev != nil {
		ref = prev.NextSibling()
	}
	_, err := parent.PreInsert(node, ref)
	return err
}

func (n *nodeImpl) After(nodes []NodeOrDOMString) error {
	parent := n.n.Parent()
	if parent == nil {
		return nil
	}
	next := n.viableSibling(nodes, true)
	node := n.convertNodesIntoANode(nodes)
	_, err := parent.PreInsert(node, next)
	return err
}

func (n *nodeImpl) ReplaceWith(nodes []NodeOrDOMString) error {
	parent := n.n.Parent()
	if parent == nil {
		return nil
	}
	next := n.viableSibling(nodes, true)
	node := n.convertNodesIntoANode(nodes)
	if n.n.Parent() == parent {
		_, err := parent.ReplaceChild(node, n.n)
		return err
	}
	_, err := parent.PreInsert(node, next)
	return err
}

func (n *nodeImpl) Remove() error {
	n.n.Remove()
	return nil
}
