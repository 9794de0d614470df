package weblocks

import (
	"fmt"
	"iter"
	"strings"
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
	Held    LockList
	Pending LockList
}

// LockList is a read-only list of LockInfo, stored flat so that a
// snapshot's size does not add to the garbage collector's marking work per
// entry: every name in one string, one pointer-free record per entry, and
// the client ids once per client. The zero value is an empty list.
type LockList struct {
	names   string
	recs    []lockRec
	clients []string
}

// lockRec is one entry of a LockList: its name is names[off:off+n].
type lockRec struct {
	off, n uint32
	client int32
	mode   Mode
}

// NewLockList returns a LockList of infos.
func NewLockList(infos ...LockInfo) LockList {
	var b lockListBuilder
	b.clients = make([]string, 0, len(infos))
	b.recs = make([]lockRec, 0, len(infos))
	for _, info := range infos {
		b.clients = append(b.clients, info.ClientID)
		off, n := b.name(info.Name)
		b.recs = append(b.recs, lockRec{off: off, n: n, client: int32(len(b.clients) - 1), mode: info.Mode})
	}
	return b.list()
}

// Len returns the number of entries.
func (l LockList) Len() int { return len(l.recs) }

// At returns entry i (0 <= i < Len()).
func (l LockList) At(i int) LockInfo {
	r := &l.recs[i]
	return LockInfo{Name: Name(l.names[r.off : r.off+r.n]), Mode: r.mode, ClientID: l.clients[r.client]}
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

// lockListBuilder accumulates a LockList's names and records.
type lockListBuilder struct {
	names   strings.Builder
	recs    []lockRec
	clients []string
}

// name appends n to the names buffer and returns where it is.
func (b *lockListBuilder) name(n Name) (off, length uint32) {
	off = uint32(b.names.Len())
	b.names.WriteString(string(n))
	return off, uint32(len(n))
}

func (b *lockListBuilder) list() LockList {
	return LockList{names: b.names.String(), recs: b.recs, clients: b.clients}
}
