// Package lockdebug gives tests of the hosts of package weblocks (package
// htmlhost's differential test) the lock managers' internal checks without
// widening weblocks' API: package weblocks sets these functions when it is
// initialized.
package lockdebug

var (
	// CheckInvariants checks a *weblocks.LockManager's internal
	// bookkeeping and returns the first inconsistency found. It reads
	// the manager unsynchronized: call it only while the lock task queue
	// is idle (a test driving a manual scheduler).
	CheckInvariants func(manager any) error
	// Describe renders a *weblocks.LockManager's held lock set (in grant
	// order) and its non-empty lock request queues (by name, in request
	// order), naming each request by tag applied to the promise of the
	// page side's request (same caveat).
	Describe func(manager any, tag func(promise any) int) string
	// Sizes returns a *weblocks.LockManager's number of name states,
	// of clients with state in it, and of held locks (same caveat).
	Sizes func(manager any) (names, clients, held int)
)
