package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
)

// This file implements the History interface (without the state members)
// over the embedder's HistoryHooks, and PageTransitionEvent.

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

// History is the getter of window.history.
func (w *windowImpl) History() (HistoryMethods, error) {
	if w.history == nil {
		w.history = &historyImpl{realm: w.realm}
	}
	return w.history, nil
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

// PageTransitionEvent

type pageTransitionEventImpl struct {
	*eventImpl
	persisted bool
}

func (e *pageTransitionEventImpl) baseEvent() *eventImpl   { return e.eventImpl }
func (e *pageTransitionEventImpl) WebIDLInterface() string { return "PageTransitionEvent" }
func (e *pageTransitionEventImpl) Persisted() (bool, error) {
	return e.persisted, nil
}

type pageTransitionEventStatics struct{}

// new PageTransitionEvent(type, eventInitDict)
func (pageTransitionEventStatics) Constructor(r *webidl.Realm, typ webidl.DOMString, init PageTransitionEventInit) (PageTransitionEventMethods, error) {
	base := realmOf(r).newEvent(string(typ), init.Bubbles, init.Cancelable, init.Composed)
	e := &pageTransitionEventImpl{eventImpl: base, persisted: init.Persisted}
	base.ev.Detail = e
	return e, nil
}

// FirePageTransitionEvent fires a trusted PageTransitionEvent named typ
// (pageshow or pagehide) with the given persisted at the window; call it
// in a task of this realm.
func (r *Realm) FirePageTransitionEvent(typ string, persisted bool) {
	ev := dom.NewEvent(typ)
	ev.IsTrusted = true
	ev.Detail = &pageTransitionEventImpl{eventImpl: &eventImpl{realm: r, ev: ev}, persisted: persisted}
	r.globalTarget.target.DispatchEvent(ev)
}

// HasEventListeners reports whether the window or worker global has event
// listeners for typ (for example unload, which makes a document
// unsalvageable for the back/forward cache). Call it in a task of this
// realm.
func (r *Realm) HasEventListeners(typ string) bool {
	return r.globalTarget.target.HasListeners(typ)
}

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
