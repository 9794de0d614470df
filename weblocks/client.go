package weblocks

import (
	"sync/atomic"
)

// client is the lock service's record of one registered client (an
// environment using one storage bucket, Service.Register): its clientId,
// its host's Deliver and Evict, and its locks and requests in its lock
// manager.
//
// Deliberate deviation from the spec's "Termination of Locks": the spec
// runs "terminate remaining locks and requests" with an agent, both for
// unloading document cleanup steps and for agent termination. For a
// document that would release the locks of every same-origin document that
// shares its similar-origin window agent (for example the parent of an
// unloaded same-origin iframe). So a host terminates each client
// (TerminateClient): a document's unloading cleanup steps terminate the
// clients of that document's environment only; an agent's termination
// terminates those of each of its environments (see package htmlhost).
//
// Once a client is terminated, the tasks delivered to it run as dropped
// (Outcome.Dropped), and it can no longer request or query
// (ErrClientTerminated).
type client struct {
	id      string
	svc     *Service
	manager *LockManager
	deliver func(Task)
	evict   func()
	cached  atomic.Bool
	gone    atomic.Bool

	// lock task queue side
	states     []*clientState
	last       *clientState
	seq        uint32
	terminated bool // its termination steps ran
}

// clientState is a client's part of one lock manager: a list of its
// requests and locks there, in the order they were made.
type clientState struct {
	manager    *LockManager
	client     *client
	head, tail *entry
	idx        int32 // index of the client's id in the manager's clientIDs
}
