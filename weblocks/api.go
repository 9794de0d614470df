package weblocks

import (
	"errors"

	"github.com/gowebengine/weblocks/dom"
)

// Errors for Go callers that bypass WebIDL's conversions (which would throw
// a TypeError).
var (
	errNilCallback = errors.New("weblocks: nil callback")
	errInvalidMode = errors.New("weblocks: invalid lock mode")
	errNilManager  = errors.New("weblocks: nil *LockManager")
)

// ErrInsecureContext matches (with errors.Is) the error of a request or
// query from an environment that is not a secure context: LockManager is
// [SecureContext], so script in such an environment has no navigator.locks
// at all, and the Go API refuses the same environments. Each failure
// returns its own copy (a *dom.DOMException named "SecurityError").
var ErrInsecureContext = &dom.DOMException{Name: dom.SecurityError,
	Message: "Web Locks are only available in secure contexts ([SecureContext]); this environment is not one"}

// Options are the LockOptions of a request. The zero value is the default:
// an exclusive lock, waiting as long as needed, no steal, no signal.
type Options struct {
	Mode        Mode
	IfAvailable bool
	Steal       bool
	Signal      Signal // nil: not present (a *dom.AbortSignal or a host's own)
}
