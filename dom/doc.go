// Package dom implements the parts of the DOM Standard the engine needs:
// DOMException (every Web IDL error name with its legacy code),
// AbortController and AbortSignal (abort algorithms, signal abort,
// AbortSignal.abort, AbortSignal.timeout, AbortSignal.any with dependent
// signals), Event and EventTarget for events dispatched at a single
// target, and the node tree (node.go): Node and Document over the tree
// golang.org/x/net/html builds, with the DOM's mutation algorithms
// (pre-insert validity, insert, remove, adopt), the embedder's insertion,
// removing and attribute-change steps (DocumentHooks) and selectors from
// github.com/andybalholm/cascadia. It is plain Go and never imports a
// JavaScript engine.
//
// Objects of this package belong to one event loop: call their methods on
// that loop's goroutine only. An EventTarget or AbortSignal bound to its
// loop (BindToLoop, with anything that has CheckCurrent, such as
// html.EventLoop) panics with a "dom: called from the wrong goroutine"
// message naming the loop when a method that reads or changes its lists is
// called from another goroutine; unbound objects are not checked (a nil
// comparison). Listener callbacks are Go functions; a JS
// layer registers its JS listeners through them (ListenerOptions.Key gives
// the callback identity used for duplicates and removeEventListener).
// A nil abort reason means "not given" (JS undefined); JS layers wrap every
// other JS value, null included, in a non-nil Go value.
package dom
