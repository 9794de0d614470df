// Package dom implements the parts of the DOM Standard the engine needs:
// DOMException, AbortController and AbortSignal, Event and EventTarget.
// It is plain Go and never imports a JavaScript engine.
package dom
