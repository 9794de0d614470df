package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
)

func (n *nodeImpl) Data() (webidl.DOMString, error) { return webidl.DOMString(n.n.Data()), nil }

func (n *nodeImpl) SetData(v webidl.DOMString) error {
	n.n.SetData(string(v))
	return nil
}

func (n *nodeImpl) Length() (uint32, error) { return uint32(dom.UTF16Length(n.n.Data())), nil }

func (n *nodeImpl) AppendData(v webidl.DOMString) error {
	n.n.SetData(n.n.Data() + string(v))
	return nil
}
