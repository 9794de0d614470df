package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/weblocks"
)

// lockImpl is the Go implementation behind Lock objects: a name and a
// mode, which is all a Lock's attributes return. It has no Reflector: a
// Lock object is made once, for the callback, and nothing converts the
// lock to JavaScript again; without a reference back to it the object can
// be collected when the page drops it.
//
// A lockImpl is immutable and Lock has no [SameObject] attribute, so the
// Lock objects of one name and mode are interchangeable as far as their
// internal slots go: they share one lockImpl and its slot storage (see
// lockManagerImpl.lockImplFor and webidl.Realm.WrapNew). A grant then
// allocates nothing of the bindings' own for its Lock object, and the
// realm's slot table, which holds a slot strongly until a sweep after its
// object's collection, holds the shared slot: the entries of the last
// collection cycle's Lock objects keep no per-grant memory alive for the
// collector to mark (and never a request's state: its released promise
// and lock service state).
type lockImpl struct {
	name weblocks.Name
	mode weblocks.Mode
	slot webidl.Slot // the internal slot of every Lock object of this lockImpl
}

func (l *lockImpl) Name() (webidl.DOMString, error) { return webidl.DOMString(l.name), nil }

func (l *lockImpl) Mode() (LockMode, error) { return LockMode(l.mode.String()), nil }

// lockImpl implements Lock.
var _ LockMethods = (*lockImpl)(nil)
