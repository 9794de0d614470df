package bindings

import "github.com/gowebengine/weblocks/bindings/webidl"

// visibilityState is the document's visibility state: "hidden" once the
// embedder hid its window (SetVisibilityState), else "visible".
func (d *documentImpl) visibilityState() webidl.DOMString {
	if d.window != nil && d.window.hidden {
		return "hidden"
	}
	return "visible"
}

// SetVisibilityState is steps 1-2 of HTML's "update the visibility state"
// (https://html.spec.whatwg.org/#update-the-visibility-state) for the
// window's document: it reports false when the state already is the one
// asked for; otherwise it sets it and the caller fires visibilitychange
// (bubbling) at the document (step 6). Call it in a task of this realm;
// workers ignore it.
func (r *Realm) SetVisibilityState(hidden bool) bool {
	w, ok := r.globalImpl.(*windowImpl)
	// 1. If document's visibility state equals visibilityState, then
	//    return.
	if !ok || w.hidden == hidden {
		return false
	}
	// 2. Set document's visibility state to visibilityState.
	w.hidden = hidden
	return true
}

// documentImpl implements Document.
var _ DocumentMethods = (*documentImpl)(nil)
