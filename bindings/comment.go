package bindings

import "github.com/gowebengine/weblocks/bindings/webidl"

type commentStatics struct{}

func (commentStatics) Constructor(r *webidl.Realm, data webidl.DOMString) (CommentMethods, error) {
	rr := realmOf(r)
	return rr.nodeImpl(rr.currentDocument().CreateComment(string(data))).(CommentMethods), nil
}

// nodeImpl implements Comment.
var _ CommentMethods = (*nodeImpl)(nil)
