package weblocks

import (
	"fmt"
	"iter"
)

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
func (l *Lock) Name() Name {
	if l == nil {
		return ""
	}
	return l.name
}

// Mode returns the lock's mode.
func (l *Lock) Mode() Mode {
	if l == nil {
		return 0
	}
	return l.mode
}

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
	Held    LockList
	Pending LockList
}

// Dictionary returns the snapshot as the LockManagerSnapshot dictionary in
// plain Go values, for a host's JavaScript engine to convert: "held" and
// "pending" map to a []any of LockInfo dictionaries (map[string]any with
// "name", "mode" and "clientId", strings; names in their Go spelling).
func (s Snapshot) Dictionary() map[string]any {
	return map[string]any{"held": s.Held.dictionaries(), "pending": s.Pending.dictionaries()}
}

func (l LockList) dictionaries() []any {
	out := make([]any, l.Len())
	for i, info := range l.All() {
		out[i] = map[string]any{"name": string(info.Name), "mode": info.Mode.String(), "clientId": info.ClientID}
	}
	return out
}

// LockList is a read-only list of LockInfo, stored flat: one 8-byte
// pointer-free record per entry (the index of its name and its client
// index and mode), and a names table and the client ids that the two lists
// of a Snapshot share, holding each name once (the lock manager's own
// string, not a copy) and each client id once. A query's result so costs
// 8 bytes per entry plus 16 per name, and a Snapshot reused with QueryInto
// allocates nothing once its storage has grown. The zero value is an empty
// list.
type LockList struct {
	names   []Name
	recs    []lockRec
	clients []string
}

// lockRec is one entry of a LockList: its name is names[name], its client
// clients[cm>>1] and its mode Mode(cm&1).
type lockRec struct {
	name uint32
	cm   uint32
}

// NewLockList returns a LockList of infos.
func NewLockList(infos ...LockInfo) LockList {
	l := LockList{names: make([]Name, 0, len(infos)), recs: make([]lockRec, 0, len(infos)), clients: make([]string, 0, len(infos))}
	for _, info := range infos {
		l.clients = append(l.clients, info.ClientID)
		l.names = append(l.names, info.Name)
		l.recs = append(l.recs, lockRec{name: uint32(len(l.names) - 1), cm: uint32(len(l.clients)-1)<<1 | uint32(info.Mode&1)})
	}
	return l
}

// Len returns the number of entries.
func (l LockList) Len() int { return len(l.recs) }

// At returns entry i (0 <= i < Len()).
func (l LockList) At(i int) LockInfo {
	r := l.recs[i]
	// (Through the tables' capacity: a copy of a list that a later
	// QueryInto overwrote in place has records naming entries beyond its
	// own tables' lengths.)
	return LockInfo{Name: l.names[:cap(l.names)][r.name], Mode: Mode(r.cm & 1), ClientID: l.clients[:cap(l.clients)][r.cm>>1]}
}

// All iterates over the entries in order, with their index.
func (l LockList) All() iter.Seq2[int, LockInfo] {
	return func(yield func(int, LockInfo) bool) {
		for i := range l.recs {
			if !yield(i, l.At(i)) {
				return
			}
		}
	}
}

// Infos returns the entries as a new slice.
func (l LockList) Infos() []LockInfo {
	out := make([]LockInfo, len(l.recs))
	for i := range l.recs {
		out[i] = l.At(i)
	}
	return out
}

// String formats the entries like a []LockInfo.
func (l LockList) String() string { return fmt.Sprint(l.Infos()) }
