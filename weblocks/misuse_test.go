package weblocks

import (
	"context"
	"errors"
	"testing"

	"github.com/gowebengine/weblocks/storage"
)

// TestNilReceivers: nil *Lock, *Future and *LockManager values give errors
// or zero results, never a panic.
func TestNilReceivers(t *testing.T) {
	var l *Lock
	if l.Name() != "" || l.Mode() != Exclusive {
		t.Errorf("nil Lock: %q %v", l.Name(), l.Mode())
	}

	var f *Future
	f.Resolve(1)
	f.Reject(errors.New("x"))
	if _, err := f.Result(); !errors.Is(err, errNilFuture) {
		t.Errorf("nil Future: Result err = %v", err)
	}
	if _, err := f.Wait(context.Background()); !errors.Is(err, errNilFuture) {
		t.Errorf("nil Future: Wait err = %v", err)
	}
	if !f.Settled() {
		t.Error("nil Future: not settled")
	}
	<-f.Done() // closed: does not block
	called := false
	f.OnSettled(func() { called = true })
	if !called {
		t.Error("nil Future: OnSettled did not call")
	}

	var m *LockManager
	if _, err := m.Snapshot(context.Background()); !errors.Is(err, errNilManager) {
		t.Errorf("nil LockManager: Snapshot err = %v", err)
	}
	if _, err := m.ForceRelease(context.Background()); !errors.Is(err, errNilManager) {
		t.Errorf("nil LockManager: ForceRelease err = %v", err)
	}
	if m.BucketName() != "" || m.StorageKey() != (storage.StorageKey{}) {
		t.Errorf("nil LockManager: %q %v", m.BucketName(), m.StorageKey())
	}
}
