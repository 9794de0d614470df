package bindings

import "github.com/gowebengine/weblocks/bindings/webidl"

func (n *nodeImpl) GetElementByID(id webidl.DOMString) (ElementMethods, error) {
	return n.element(n.n.ElementByID(string(id))), nil
}
