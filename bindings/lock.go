package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/weblocks"
)

// lockImpl is the Go implementation behind a Lock object: a new one for
// every grant. It has no Reflector: a Lock object is made once, for the
// callback, and nothing converts the lock to JavaScript again; without a
// reference back to it the object (and its slot) can be collected when
// the page drops it.
//
// It is an allocation of its own holding only what the object's
// attributes return, not part of the request's state: the realm's slot
// table holds a slot strongly until it notices, at a later sweep, that the
// object was collected, and a slot inside the request would keep the whole
// request (its released promise, its lock service state) alive until
// then, for every request of the last collection cycle.
type lockImpl struct {
	name weblocks.Name
	mode weblocks.Mode
	slot webidl.Slot // the Lock object's internal slot
}

func (l *lockImpl) Name() (webidl.DOMString, error) { return webidl.DOMString(l.name), nil }

func (l *lockImpl) Mode() (LockMode, error) { return LockMode(l.mode.String()), nil }

// lockImpl implements Lock.
var _ LockMethods = (*lockImpl)(nil)
