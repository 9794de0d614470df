package html

import (
	"errors"
	"sync"

	"github.com/gowebengine/weblocks/storage"
)

// This file is the engine-neutral part of HTML's broadcasting
// (https://html.spec.whatwg.org/#broadcasting-to-other-browsing-contexts):
// the user agent's list of BroadcastChannel objects, kept in a data slot
// of the UserAgent, and the postMessage steps that pick the destinations.
// Serializing, deserializing and firing the message event are the JS
// layer's (Deliver callbacks).

// BroadcastChannel is the engine side of a BroadcastChannel object: its
// channel name, its relevant settings object and its closed flag.
type BroadcastChannel struct {
	env  *EnvironmentSettingsObject
	name string
	// deliver queues the message task at the object (its relevant
	// global's event loop) and reports whether it was queued.
	deliver func(msg SerializedWithTransfer, sourceOrigin string) bool

	mu     sync.Mutex
	closed bool
}

// broadcastChannels is the user agent's list of BroadcastChannel objects,
// in creation order.
type broadcastChannels struct {
	mu       sync.Mutex
	channels []*BroadcastChannel
}

var broadcastChannelsSlot = NewSlot[*broadcastChannels]()

func (ua *UserAgent) broadcastChannels() *broadcastChannels {
	return broadcastChannelsSlot.GetOrInit(ua, func() *broadcastChannels { return &broadcastChannels{} })
}

// ErrBroadcastChannelClosed is postMessage on a closed channel (the JS
// layer throws an "InvalidStateError" DOMException).
var ErrBroadcastChannelClosed = errors.New("html: BroadcastChannel is closed (InvalidStateError)")

// NewBroadcastChannel is the engine part of https://html.spec.whatwg.org/#dom-broadcastchannel:
// a channel named name whose relevant settings object is env. deliver
// queues a global task, on the DOM manipulation task source, on env's
// global, that fires the message at the object (unless it is closed by
// then: Closed).
func NewBroadcastChannel(env *EnvironmentSettingsObject, name string, deliver func(msg SerializedWithTransfer, sourceOrigin string) bool) *BroadcastChannel {
	// 1. Set this's channel name to name.
	c := &BroadcastChannel{env: env, name: name, deliver: deliver}
	set := env.ua.broadcastChannels()
	set.mu.Lock()
	set.channels = append(set.channels, c)
	set.mu.Unlock()
	return c
}

// Name is the channel name.
func (c *BroadcastChannel) Name() string {
	if c == nil {
		return ""
	}
	return c.name
}

// Closed reports the closed flag.
func (c *BroadcastChannel) Closed() bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// Close is https://html.spec.whatwg.org/#dom-broadcastchannel-close: set
// the closed flag (the object also leaves the user agent's list: nothing
// can be delivered to it any more).
func (c *BroadcastChannel) Close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.env.ua.broadcastChannels().remove(c)
}

func (set *broadcastChannels) remove(c *BroadcastChannel) {
	set.mu.Lock()
	defer set.mu.Unlock()
	for i, x := range set.channels {
		if x == c {
			set.channels = append(set.channels[:i], set.channels[i+1:]...)
			return
		}
	}
}

// BroadcastRelay carries a user agent's broadcasts to BroadcastChannel
// objects its list does not hold: those of other processes of the same
// browser (renderer processes). PostMessage hands it every message after
// queuing it at the local destinations; the other side hands what it
// receives to DeliverBroadcast.
type BroadcastRelay func(key storage.StorageKey, name, sourceOrigin string, msg *SerializedRecord)

var broadcastRelaySlot = NewSlot[BroadcastRelay]()

// SetBroadcastRelay makes relay carry ua's broadcasts to other processes.
func SetBroadcastRelay(ua *UserAgent, relay BroadcastRelay) {
	broadcastRelaySlot.GetOrInit(ua, func() BroadcastRelay { return relay })
}

// DeliverBroadcast queues a broadcast of another process (see
// BroadcastRelay) at ua's eligible BroadcastChannel objects named name
// whose storage key is key, in creation order (steps 6, 8 and 9 of
// postMessage; there is no source to remove).
func DeliverBroadcast(ua *UserAgent, key storage.StorageKey, name, sourceOrigin string, msg *SerializedRecord) {
	set := ua.broadcastChannels()
	set.mu.Lock()
	var dest []*BroadcastChannel
	for _, d := range set.channels {
		if d.name == name {
			dest = append(dest, d)
		}
	}
	set.mu.Unlock()
	for _, d := range dest {
		if d.eligibleDestination() && d.env.ObtainAStorageKeyForNonStoragePurposes() == key {
			d.deliver(SerializedWithTransfer{Serialized: msg}, sourceOrigin)
		}
	}
}

// eligibleDestination: the channel's relevant global is a Window whose
// associated Document is fully active, or a WorkerGlobalScope whose
// worker runs and is not suspended (a dedicated worker of a document that
// is not fully active is suspended: SuspendingDocument).
func (c *BroadcastChannel) eligibleDestination() bool {
	if c.env.ResponsibleEventLoop().IsTerminated() {
		return false
	}
	if d := c.env.SuspendingDocument(); d != nil && !d.IsFullyActive() {
		return false
	}
	return true
}

// PostMessage is the part of https://html.spec.whatwg.org/#dom-broadcastchannel-postmessage
// after serialization (step 3, the JS layer's): it finds the destinations
// and queues the message at each. It returns ErrBroadcastChannelClosed
// when the closed flag is set; the caller checks step 1 (a Window whose
// Document is not fully active posts nothing) with SourceCanPost first.
func (c *BroadcastChannel) PostMessage(serialized SerializedWithTransfer) error {
	if c == nil {
		return ErrNoUserAgent
	}
	// 2. If this's closed flag is true, then throw an "InvalidStateError".
	if c.Closed() {
		return ErrBroadcastChannelClosed
	}
	// 4. Let sourceOrigin be this's relevant settings object's origin.
	sourceOrigin := c.env.Origin().Serialize()
	// 5. Let sourceStorageKey be the result of running obtain a storage key
	//    for non-storage purposes with this's relevant settings object.
	key := c.env.ObtainAStorageKeyForNonStoragePurposes()
	// 6. Let destinations be a list of BroadcastChannel objects that match
	//    the following criteria: their relevant global is eligible, their
	//    storage key equals sourceStorageKey, their channel name equals
	//    this's channel name.
	// 7. Remove source from destinations.
	// 8. Sort destinations by creation order (the list's order).
	set := c.env.ua.broadcastChannels()
	set.mu.Lock()
	var dest []*BroadcastChannel
	live := set.channels[:0]
	for _, d := range set.channels {
		if d.env.ResponsibleEventLoop().IsTerminated() {
			continue // its global is gone: forget it
		}
		live = append(live, d)
		if d != c && d.name == c.name {
			dest = append(dest, d)
		}
	}
	clear(set.channels[len(live):])
	set.channels = live
	set.mu.Unlock()
	for _, d := range dest {
		if !d.eligibleDestination() || d.env.ObtainAStorageKeyForNonStoragePurposes() != key {
			continue
		}
		// 9. For each destination, queue a global task on the DOM
		//    manipulation task source given destination's relevant global
		//    (the deliver callback: it checks the closed flag, deserializes
		//    and fires message or messageerror).
		d.deliver(serialized, sourceOrigin)
	}
	// (The destinations of other processes of the browser.)
	if relay := broadcastRelaySlot.Get(c.env.ua); relay != nil {
		relay(key, c.name, sourceOrigin, serialized.Serialized)
	}
	return nil
}

// SourceCanPost is step 1 of postMessage: false when the channel's
// relevant global is a Window whose associated Document is not fully
// active (then postMessage returns without doing anything).
func (c *BroadcastChannel) SourceCanPost() bool {
	if c == nil {
		return false
	}
	if d := c.env.AssociatedDocument(); d != nil && !d.IsFullyActive() {
		return false
	}
	return true
}
