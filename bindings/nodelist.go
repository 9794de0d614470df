package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
)

// NodeList and HTMLCollection (htmlcollection.go) are lists computed when
// read (childNodes and children follow the tree; getElementsBy* recompute
// on every access), over listBase.

type listBase struct {
	webidl.Reflector
	realm *Realm
	get   func() []*dom.Node
}

func (l *listBase) IndexedLength() (uint32, error) { return uint32(len(l.get())), nil }

func (l *listBase) Length() (uint32, error) { return uint32(len(l.get())), nil }

func (l *listBase) itemNode(i uint32) *dom.Node {
	list := l.get()
	if int64(i) >= int64(len(list)) {
		return nil
	}
	return list[i]
}

// nodeListImpl implements NodeList.
type nodeListImpl struct{ listBase }

func newNodeList(r *Realm, get func() []*dom.Node) *nodeListImpl {
	return &nodeListImpl{listBase{realm: r, get: get}}
}

func (l *nodeListImpl) Item(i uint32) (NodeMethods, error) {
	n := l.itemNode(i)
	if n == nil {
		return nil, nil
	}
	return l.realm.nodeImpl(n), nil
}
