package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
	whatwg "github.com/nlnwa/whatwg-url/url"
)

// This file implements the History interface over the embedder's
// HistoryHooks: the embedder keeps the session history entries, the realm
// its history object's state and scroll restoration mode.

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
	// UpdateEntry records the session history entry that
	// pushState (replace false) or replaceState (replace true) made for
	// the window's document: its URL (serialized) and serialized state.
	// It is called on the window's event loop, after the realm took the
	// new URL and state; nil keeps no entries (history.length stays).
	UpdateEntry func(href string, state *html.SerializedRecord, replace bool)
}

type historyImpl struct {
	webidl.Reflector
	realm *Realm
	// state is the history object's state (nil: null).
	state             sobek.Value
	scrollRestoration ScrollRestoration
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

// State is https://html.spec.whatwg.org/#dom-history-state
func (h *historyImpl) State() (sobek.Value, error) {
	// 1. If this's relevant global object's associated Document is not
	//    fully active, then throw a "SecurityError" DOMException.
	if err := h.checkFullyActive(); err != nil {
		return nil, err
	}
	// 2. Return this's state.
	if h.state == nil {
		return sobek.Null(), nil
	}
	return h.state, nil
}

// ScrollRestoration is https://html.spec.whatwg.org/#dom-history-scroll-restoration
// (the mode of the active session history entry; this engine keeps it on
// the history object, and has no scrolling to restore).
func (h *historyImpl) ScrollRestoration() (ScrollRestoration, error) {
	if err := h.checkFullyActive(); err != nil {
		return "", err
	}
	if h.scrollRestoration == "" {
		return ScrollRestorationAuto, nil
	}
	return h.scrollRestoration, nil
}

func (h *historyImpl) SetScrollRestoration(v ScrollRestoration) error {
	if err := h.checkFullyActive(); err != nil {
		return err
	}
	h.scrollRestoration = v
	return nil
}

// PushState is https://html.spec.whatwg.org/#dom-history-pushstate
func (h *historyImpl) PushState(data sobek.Value, _ webidl.DOMString, u webidl.Nullable[string]) error {
	// Run the shared history push/replace state steps given this, data,
	// url, and "push".
	return h.sharedHistoryPushReplaceStateSteps(data, u, false)
}

// ReplaceState is https://html.spec.whatwg.org/#dom-history-replacestate
func (h *historyImpl) ReplaceState(data sobek.Value, _ webidl.DOMString, u webidl.Nullable[string]) error {
	return h.sharedHistoryPushReplaceStateSteps(data, u, true)
}

// sharedHistoryPushReplaceStateSteps is
// https://html.spec.whatwg.org/#shared-history-push/replace-state-steps
func (h *historyImpl) sharedHistoryPushReplaceStateSteps(data sobek.Value, u webidl.Nullable[string], replace bool) error {
	r := h.realm
	// 1. Let document be history's associated Document.
	// 2. If document is not fully active, then throw a "SecurityError"
	//    DOMException.
	if err := h.checkFullyActive(); err != nil {
		return err
	}
	// 3. Optionally, return. (No rate limit here.)
	// 4. Let serializedData be StructuredSerializeForStorage(data).
	//    Rethrow any exceptions.
	serializedData, err := r.StructuredSerialize(data)
	if err != nil {
		return err
	}
	// 5. Let newURL be document's URL.
	newURL := r.DocumentURL()
	// 6. If url is not null or the empty string, then:
	if !u.Null && u.Value != "" {
		// 6.1. Set newURL to the result of encoding-parsing a URL given
		//      url, relative to the relevant settings object of history.
		parsed, err := whatwg.ParseRef(r.baseURL(), u.Value)
		// 6.2. If newURL is failure, then throw a "SecurityError"
		//      DOMException.
		if err != nil {
			return dom.NewDOMException("'"+u.Value+"' is not a valid URL.", dom.SecurityError)
		}
		newURL = parsed.Href(false)
		// 6.3. If document cannot have its URL rewritten to newURL, then
		//      throw a "SecurityError" DOMException.
		if !html.CanHaveItsURLRewritten(r.DocumentURL(), newURL) {
			return dom.NewDOMException("A history state object with URL '"+newURL+"' cannot be created in a document with URL '"+r.DocumentURL()+"'.", dom.SecurityError)
		}
	}
	// 7-9. (The navigation API's navigate event: not implemented.)
	// 10. Run the URL and history update steps given document and
	//     newURL, with serializedData and historyHandling.
	h.urlAndHistoryUpdateSteps(newURL, serializedData, replace)
	return nil
}

// urlAndHistoryUpdateSteps is
// https://html.spec.whatwg.org/#url-and-history-update-steps for the
// window's document.
func (h *historyImpl) urlAndHistoryUpdateSteps(newURL string, serializedData *html.SerializedRecord, replace bool) {
	r := h.realm
	// 1-3. The new session history entry (newURL, serializedData) is the
	//      embedder's (HistoryHooks.UpdateEntry, below).
	// 7. If serializedData is not null, then restore the history object
	//    state given document and newEntry.
	if serializedData != nil {
		h.restoreHistoryObjectState(serializedData)
	}
	// 8. Set document's URL to newURL.
	r.SetDocumentURL(newURL)
	// 4-6, 9-13. The embedder makes newEntry the active entry: pushed
	// (its history's length and index grow) or replacing the active one.
	if f := h.hooks().UpdateEntry; f != nil {
		f(newURL, serializedData, replace)
	}
}

// restoreHistoryObjectState is
// https://html.spec.whatwg.org/#restore-the-history-object-state given an
// entry's classic history API state (nil: null).
func (h *historyImpl) restoreHistoryObjectState(serialized *html.SerializedRecord) {
	// 1. Let targetRealm be document's relevant realm.
	// 2. Let state be StructuredDeserialize(entry's classic history API
	//    state, targetRealm). If this throws an exception, catch it and
	//    let state be null.
	var state sobek.Value
	if serialized != nil {
		if v, err := h.realm.StructuredDeserialize(serialized); err == nil {
			state = v
		}
	}
	// 3. Set document's history object's state to state.
	h.state = state
}
