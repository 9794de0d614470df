package bindings

import "github.com/gowebengine/weblocks/bindings/webidl"

type documentFragmentStatics struct{}

func (documentFragmentStatics) Constructor(r *webidl.Realm) (DocumentFragmentMethods, error) {
	rr := realmOf(r)
	return rr.nodeImpl(rr.currentDocument().CreateDocumentFragment()).(DocumentFragmentMethods), nil
}

// nodeImpl implements DocumentFragment.
var _ DocumentFragmentMethods = (*nodeImpl)(nil)
