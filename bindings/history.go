package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
)

// This file implements the History interface (without the state members)
// over the embedder's HistoryHooks.

// HistoryHooks give window.history its session history: the embedder owns
// the traversable's session history entries.
type HistoryHooks struct {
	// Length is the number of session history entries of the window's
	// traversable.
	Length func() int
	// Traverse implements history.go(delta) (back is -1, forward +1;
	// delta 0 reloads): the embedder queues the traversal as a task and
	// returns at once.
	Traverse func(delta int)
	// FullyActive reports whether the window's document is fully active
	// (History's members throw SecurityError when not).
	FullyActive func() bool
}

type historyImpl struct {
	webidl.Reflector
	realm *Realm
}

func (h *historyImpl) hooks() HistoryHooks { return h.realm.hooks.History }

// checkFullyActive: "If this's relevant global object's associated
// Document is not fully active, then throw a SecurityError DOMException."
func (h *historyImpl) checkFullyActive() error {
	if f := h.hooks().FullyActive; f != nil && !f() {
		return dom.NewDOMException("The document is not fully active.", dom.SecurityError)
	}
	return nil
}

// Length is https://html.spec.whatwg.org/#dom-history-length
func (h *historyImpl) Length() (uint32, error) {
	// 1. If this's relevant global object's associated Document is not
	//    fully active, then throw a "SecurityError" DOMException.
	if err := h.checkFullyActive(); err != nil {
		return 0, err
	}
	// 2. Return this's length.
	if f := h.hooks().Length; f != nil {
		return uint32(f()), nil
	}
	return 1, nil
}

// Go is https://html.spec.whatwg.org/#dom-history-go
func (h *historyImpl) Go(delta int32) error {
	return h.deltaTraverse(int(delta))
}

// Back is https://html.spec.whatwg.org/#dom-history-back
func (h *historyImpl) Back() error { return h.deltaTraverse(-1) }

// Forward is https://html.spec.whatwg.org/#dom-history-forward
func (h *historyImpl) Forward() error { return h.deltaTraverse(1) }

// deltaTraverse is https://html.spec.whatwg.org/#delta-traverse
func (h *historyImpl) deltaTraverse(delta int) error {
	// 1. Let document be history's relevant global object's associated
	//    Document.
	// 2. If document is not fully active, then throw a "SecurityError"
	//    DOMException.
	if err := h.checkFullyActive(); err != nil {
		return err
	}
	// 3. If delta is 0, then reload document's node navigable, and return.
	// 4. Traverse the history by a delta given document's node
	//    navigable's traversable navigable, delta, and with sourceDocument
	//    set to document. (The embedder does both, as queued tasks.)
	if f := h.hooks().Traverse; f != nil {
		f(delta)
	}
	return nil
}
