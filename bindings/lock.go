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
type lockImpl struct {
	lock *weblocks.Lock
	slot webidl.Slot // the Lock object's internal slot
}

func (l *lockImpl) Name() (webidl.DOMString, error) { return webidl.DOMString(l.lock.Name()), nil }

func (l *lockImpl) Mode() (LockMode, error) { return LockMode(l.lock.Mode().String()), nil }

// lockImpl implements Lock.
var _ LockMethods = (*lockImpl)(nil)
