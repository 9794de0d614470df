package bindings

import "github.com/gowebengine/weblocks/dom"

// htmlCollectionImpl implements HTMLCollection.
type htmlCollectionImpl struct{ listBase }

func newHTMLCollection(r *Realm, get func() []*dom.Node) *htmlCollectionImpl {
	return &htmlCollectionImpl{listBase{realm: r, get: get}}
}

func (l *htmlCollectionImpl) Item(i uint32) (ElementMethods, error) {
	n := l.itemNode(i)
	if n == nil {
		return nil, nil
	}
	e, _ := l.realm.nodeImpl(n).(ElementMethods)
	return e, nil
}
