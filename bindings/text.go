package bindings

import "github.com/gowebengine/weblocks/bindings/webidl"

type textStatics struct{}

func (textStatics) Constructor(r *webidl.Realm, data webidl.DOMString) (TextMethods, error) {
	rr := realmOf(r)
	return rr.nodeImpl(rr.currentDocument().CreateTextNode(string(data))).(TextMethods), nil
}

// nodeImpl implements Text.
var _ TextMethods = (*nodeImpl)(nil)
