package weblocks

// Mode is a lock mode. The zero value is Exclusive, the API's default.
type Mode uint8

const (
	// Exclusive: no other lock with the same name can be held at the same time.
	Exclusive Mode = iota
	// Shared: other shared locks with the same name can be held at the same time.
	Shared
)

// String returns the IDL enumeration value: "exclusive" or "shared".
func (m Mode) String() string {
	if m == Shared {
		return "shared"
	}
	return "exclusive"
}

// ParseMode returns the mode named by the LockMode enumeration value s.
func ParseMode(s string) (Mode, bool) {
	switch s {
	case "exclusive":
		return Exclusive, true
	case "shared":
		return Shared, true
	}
	return Exclusive, false
}

// Lock is what a Callback receives when its request is granted: the Lock
// object associated with the granted lock. Its methods are the IDL
// attribute getters.
type Lock struct {
	name Name
	mode Mode
}

// Name returns the lock's resource name.
func (l *Lock) Name() Name { return l.name }

// Mode returns the lock's mode.
func (l *Lock) Mode() Mode { return l.mode }

// Callback is a LockGrantedCallback. It is called on the requesting
// environment's event loop with the granted lock, or with nil when an
// ifAvailable request could not be granted. It returns the waiting promise:
// the lock is held until that settles (nil: released right away). A Go
// callback that panics is treated like a JS callback that throws: its
// waiting promise is rejected with a *CallbackPanic.
type Callback func(lock *Lock) Waiting

// LockInfo describes one held lock or pending request in a Snapshot.
type LockInfo struct {
	Name     Name
	Mode     Mode
	ClientID string // the id of the environment that made the request
}

// Snapshot is a LockManagerSnapshot: the result of query().
// Pending lists the requests of each name in the order they were made;
// Held lists the held locks in the order they were granted.
type Snapshot struct {
	Held    []LockInfo
	Pending []LockInfo
}
