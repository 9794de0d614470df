package bindings

func (n *nodeImpl) PreviousElementSibling() (ElementMethods, error) {
	return n.element(n.n.PreviousElementSibling()), nil
}

func (n *nodeImpl) NextElementSibling() (ElementMethods, error) {
	return n.element(n.n.NextElementSibling()), nil
}
