package bindings

import (
	"github.com/grafana/sobek"
)

// HostHooks are the members of the global objects that the embedder
// implements (the go product: messaging, importScripts, close). A nil hook
// makes postMessage and importScripts throw NotSupportedError and close()
// do nothing. (window.document is Realm.DocumentObject.)
type HostHooks struct {
	// PostMessage implements window.postMessage(message, targetOrigin,
	// transfer) and, in a worker, self.postMessage(message, transfer)
	// (targetOrigin is then "").
	PostMessage func(message sobek.Value, targetOrigin string, transfer []*sobek.Object) error
	// ImportScripts implements self.importScripts(...urls) in workers:
	// fetch and run each script in order, on the calling goroutine.
	ImportScripts func(urls []string) error
	// Close implements self.close() in a worker and window.close().
	Close func()
	// Navigate implements the navigating members of window.location
	// (href, assign, replace, reload): navigate the window's navigable to
	// url (absolute, parsed against the document's URL). A nil hook makes
	// them throw NotSupportedError.
	Navigate func(url string, replace bool) error
	// History implements window.history (history.go); nil members make
	// history.length 1 and its traversals do nothing.
	History HistoryHooks
	// Top gives window.top when the window is not a top-level one (the
	// top-level window as a value of this realm, e.g. through a
	// membrane); nil, or a nil result, means the window itself.
	Top func() sobek.Value
	// Parent gives window.parent for a window in a frame (as a value of
	// this realm); nil, or a nil result, means the window itself.
	Parent func() sobek.Value
	// Opener gives window.opener until script sets it (null when nil).
	Opener func() sobek.Value
	// FrameElement gives window.frameElement: the container element when
	// its document is same origin-domain with this window's, else null
	// (null when nil).
	FrameElement func() sobek.Value
	// Closed gives window.closed: whether the window's navigable is gone
	// (false when nil).
	Closed func() bool
	// Length gives window.length, the number of the document's child
	// navigables (0 when nil).
	Length func() int
	// ChildNavigable gives window[i], the WindowProxy of the document's
	// i-th child navigable in tree order, as a value of this realm (see
	// Realm.UpdateChildNavigables).
	ChildNavigable func(i int) sobek.Value
	// Open implements window.open(url, target, features): it returns the
	// new window as a value of this realm, or null. A nil hook makes
	// open() throw NotSupportedError.
	Open func(url, target, features string) (sobek.Value, error)
	// Name is the DedicatedWorkerGlobalScope's name (and window.name's
	// initial value).
	Name string
}

// SetHostHooks sets the embedder's hooks. Call it right after creating the
// realm, before scripts run.
func (r *Realm) SetHostHooks(h HostHooks) {
	r.hooks = h
	r.windowName = h.Name
}
