package html

import (
	"sync"
	"sync/atomic"
)

// MessagePort is the engine-neutral part of an HTML MessagePort
// (https://html.spec.whatwg.org/#message-ports): its entanglement, its port
// message queue (a task source, disabled until start()) and the
// realm it lives in. It is safe for any goroutine: the two ports of a
// channel usually live in different agents.
//
// A port is attached to a receiver (the JavaScript MessagePort object of
// the realm it currently lives in) with Attach; messages are delivered
// through the receiver's queue function, as tasks of its event loop
// (posted message task source), once the queue is enabled.
type MessagePort struct {
	id        uint64 // lock order
	mu        sync.Mutex
	entangled *MessagePort
	// queue is the port message queue: messages not yet handed to a task.
	queue   []SerializedWithTransfer
	enabled bool
	// closed is the "has been closed" flag.
	closed bool
	recv   *portReceiver
	// onClose runs when the entangled port disentangles this one (it was
	// closed): see OnClose.
	onClose func()
	// pumping: a goroutine is in pump.
	pumping bool
}

// portReceiver is where a port's messages go: queueTask queues steps on
// the owner's event loop; deliver dispatches the message event there.
type portReceiver struct {
	queueTask func(steps func()) bool
	deliver   func(msg SerializedWithTransfer)
}

// NewMessageChannel creates two entangled ports
// (https://html.spec.whatwg.org/#dom-messagechannel).
func NewMessageChannel() (port1, port2 *MessagePort) {
	// 1. Set this's port 1 to a new MessagePort.
	port1 = &MessagePort{id: portSeq.Add(1)}
	// 2. Set this's port 2 to a new MessagePort.
	port2 = &MessagePort{id: portSeq.Add(1)}
	// 3. Entangle this's port 1 and this's port 2.
	Entangle(port1, port2)
	return port1, port2
}

// Entangle is https://html.spec.whatwg.org/#entangle: each port's
// entangled port becomes the other (disentangling them first).
func Entangle(a, b *MessagePort) {
	a.Disentangle()
	b.Disentangle()
	lockBoth(a, b)
	a.entangled, b.entangled = b, a
	unlockBoth(a, b)
}

func lockBoth(a, b *MessagePort) {
	// A fixed order avoids deadlocks between two entangling goroutines.
	if portLess(b, a) {
		a, b = b, a
	}
	a.mu.Lock()
	b.mu.Lock()
}

func unlockBoth(a, b *MessagePort) {
	a.mu.Unlock()
	b.mu.Unlock()
}

// portSeq numbers ports for the lock order.
var portSeq atomic.Uint64

func portLess(a, b *MessagePort) bool { return a.id < b.id }

// Disentangle is https://html.spec.whatwg.org/#disentangle: the port and
// its entangled port (if any) stop being entangled. Messages already
// queued stay in the queues.
func (p *MessagePort) Disentangle() {
	if p == nil {
		return
	}
	p.mu.Lock()
	other := p.entangled
	p.mu.Unlock()
	if other == nil {
		return
	}
	lockBoth(p, other)
	var notify func()
	if p.entangled == other {
		p.entangled = nil
	}
	if other.entangled == p {
		other.entangled = nil
		notify = other.onClose
	}
	unlockBoth(p, other)
	// The disentangle steps end with firing close at the other port: its
	// owner learns it here.
	if notify != nil {
		notify()
	}
}

// OnClose sets f to run (on the goroutine that disentangles, with no
// lock held) when the port's entangled port disentangles it
// (https://html.spec.whatwg.org/#disentangle, whose last step fires close
// at the other port): the other port was closed, or its owner went away.
// A port whose entangled port lives in another process (package browser)
// tells that process with it.
func (p *MessagePort) OnClose(f func()) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.onClose = f
	p.mu.Unlock()
}

// Entangled returns the port this one is entangled with, or nil.
func (p *MessagePort) Entangled() *MessagePort {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.entangled
}

// PostMessage is the end of the message port post message steps
// (https://html.spec.whatwg.org/#message-port-post-message-steps), after
// serialization: the message goes to the entangled port's port message
// queue. Without an entangled port it is dropped.
func (p *MessagePort) PostMessage(msg SerializedWithTransfer) {
	if p == nil {
		return
	}
	// 2. Let targetPort be the port with which sourcePort is entangled, if
	//    any. 4. If targetPort is null, then return.
	target := p.Entangled()
	if target == nil {
		return
	}
	// 7. Add a task that runs the following steps to the port message
	//    queue of targetPort.
	target.enqueue(msg)
}

func (p *MessagePort) enqueue(msg SerializedWithTransfer) {
	p.mu.Lock()
	p.queue = append(p.queue, msg)
	p.mu.Unlock()
	p.pump()
}

// pump hands every queued message to a task of the receiver's event loop
// while the queue is enabled and the port has a receiver. One goroutine
// pumps a port at a time (another one's messages are left to it), so the
// messages keep their order however many goroutines post.
func (p *MessagePort) pump() {
	p.mu.Lock()
	if p.pumping {
		p.mu.Unlock()
		return
	}
	p.pumping = true
	for p.enabled && p.recv != nil && len(p.queue) > 0 {
		msg := p.queue[0]
		p.queue[0] = SerializedWithTransfer{}
		p.queue = p.queue[1:]
		recv := p.recv
		p.mu.Unlock()
		ok := recv.queueTask(func() { recv.deliver(msg) })
		p.mu.Lock()
		if !ok {
			break
		}
	}
	p.pumping = false
	p.mu.Unlock()
}

// Attach makes the port live in a realm: queueTask queues a task on that
// realm's event loop (reporting false when it no longer runs tasks) and
// deliver runs in that task to fire the message event. The queue keeps
// its enabled state; Attach on a transferred port starts disabled.
func (p *MessagePort) Attach(queueTask func(steps func()) bool, deliver func(msg SerializedWithTransfer)) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.recv = &portReceiver{queueTask: queueTask, deliver: deliver}
	p.mu.Unlock()
	p.pump()
}

// Ship prepares the port for transfer
// (https://html.spec.whatwg.org/#transfer-steps of MessagePort): it leaves
// its current realm and its port message queue is disabled again;
// queued messages move with it.
func (p *MessagePort) Ship() {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.recv = nil
	p.enabled = false
	p.onClose = nil
	p.mu.Unlock()
}

// Start enables the port message queue (start(), or setting onmessage).
func (p *MessagePort) Start() {
	if p == nil {
		return
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.enabled = true
	p.mu.Unlock()
	p.pump()
}

// Close is https://html.spec.whatwg.org/#dom-messageport-close: set the
// port's closed flag and disentangle it. Messages already queued are
// dropped with the port.
func (p *MessagePort) Close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.closed = true
	p.queue = nil
	p.mu.Unlock()
	p.Disentangle()
}

// Closed reports the port's "has been closed" flag.
func (p *MessagePort) Closed() bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}
