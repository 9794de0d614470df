package dom

import "time"

// Event is the DOM Standard's Event, as far as events dispatched at a single
// target (no tree) need it.
type Event struct {
	Type       string
	Bubbles    bool
	Cancelable bool
	Composed   bool
	IsTrusted  bool
	TimeStamp  time.Time
	// Detail is free for the embedder (e.g. the JS wrapper object).
	Detail any

	target, currentTarget *EventTarget
	phase                 int
	stopPropagation       bool
	stopImmediate         bool
	canceled              bool
	inPassiveListener     bool
	dispatching           bool
}

// Event phases.
const (
	None           = 0
	CapturingPhase = 1
	AtTarget       = 2
	BubblingPhase  = 3
)

// NewEvent returns an untrusted event of the given type (new Event(type)).
func NewEvent(typ string) *Event { return &Event{Type: typ, TimeStamp: time.Now()} }

// Target returns the event's target (nil before dispatch).
func (e *Event) Target() *EventTarget { return e.target }

// CurrentTarget returns the target whose listeners are being invoked.
func (e *Event) CurrentTarget() *EventTarget { return e.currentTarget }

// EventPhase returns the current phase.
func (e *Event) EventPhase() int { return e.phase }

// StopPropagation sets the stop propagation flag.
func (e *Event) StopPropagation() { e.stopPropagation = true }

// StopImmediatePropagation sets the stop propagation and stop immediate
// propagation flags.
func (e *Event) StopImmediatePropagation() {
	e.stopPropagation = true
	e.stopImmediate = true
}

// PreventDefault sets the canceled flag if the event is cancelable and not
// in a passive listener.
func (e *Event) PreventDefault() {
	if e.Cancelable && !e.inPassiveListener {
		e.canceled = true
	}
}

// DefaultPrevented returns the canceled flag.
func (e *Event) DefaultPrevented() bool { return e.canceled }

type listenerHook interface{ listenersChanged() }

// ListenerID identifies an added event listener.
type ListenerID uint64

// ListenerOptions are the addEventListener options.
type ListenerOptions struct {
	Capture bool
	Once    bool
	Passive bool
	// Signal removes the listener when it aborts.
	Signal *AbortSignal
	// Key is the listener's callback identity for duplicate detection and
	// removeEventListener (e.g. the JS function object). nil: never a
	// duplicate; remove it by ListenerID.
	Key any
}

type listener struct {
	id       ListenerID
	typ      string
	callback func(*Event)
	opts     ListenerOptions
	removed  bool
	abortID  AlgorithmID
}

// EventTarget is the DOM Standard's EventTarget with Go listener callbacks.
// It belongs to one event loop: use it from that loop's goroutine only.
// Once bound to that loop (BindToLoop), calls from other goroutines panic
// with a message naming the loop.
type EventTarget struct {
	listeners []*listener
	nextID    ListenerID
	// Owner is the object embedding this target (e.g. *AbortSignal), for
	// embedders that need to get from Event.Target() back to it.
	Owner any
	// hook is told when listeners are added or removed.
	hook listenerHook
	// loop is the event loop the target is bound to (nil: unchecked).
	loop Loop
}

// Loop is the event loop that a DOM object belongs to, as dom sees it:
// CheckCurrent returns an error (naming the loop) unless the calling
// goroutine is running one of its tasks. html.EventLoop implements it.
type Loop interface {
	CheckCurrent() error
}

// BindToLoop binds the target to the event loop l: from then on, its
// methods (and those of the AbortSignal embedding it) panic with a message
// naming l when called from a goroutine that is not running one of l's
// tasks, instead of racing with it. The first binding wins; a nil l does
// nothing. An unbound target is not checked.
func (t *EventTarget) BindToLoop(l Loop) {
	if t.loop == nil && l != nil {
		t.loop = l
	}
}

// BoundLoop returns the event loop the target is bound to, or nil.
func (t *EventTarget) BoundLoop() Loop { return t.loop }

// checkLoop panics if the target is bound to a loop the caller is not on.
func (t *EventTarget) checkLoop() {
	if t.loop != nil {
		if err := t.loop.CheckCurrent(); err != nil {
			panic("dom: " + err.Error())
		}
	}
}

// AddEventListener is "add an event listener". It returns the listener's id
// (0 if nothing was added: already-aborted signal or duplicate).
func (t *EventTarget) AddEventListener(typ string, callback func(*Event), opts ListenerOptions) ListenerID {
	t.checkLoop()
	// 1. (service worker warning: not applicable)
	// 2. If listener's signal is not null and is aborted, then return.
	if opts.Signal != nil && opts.Signal.Aborted() {
		return 0
	}
	// 3. If listener's callback is null, then return.
	if callback == nil {
		return 0
	}
	// 4. If eventTarget's event listener list does not contain an event
	//    listener whose type is listener's type, callback is listener's
	//    callback, and capture is listener's capture, then append listener.
	if opts.Key != nil {
		for _, l := range t.listeners {
			if l.typ == typ && l.opts.Key == opts.Key && l.opts.Capture == opts.Capture {
				return 0
			}
		}
	}
	t.nextID++
	l := &listener{id: t.nextID, typ: typ, callback: callback, opts: opts}
	t.listeners = append(t.listeners, l)
	// 5. If listener's signal is not null, then add the following abort
	//    steps to it: remove an event listener with eventTarget and listener.
	if opts.Signal != nil {
		l.abortID = opts.Signal.AddAlgorithm(func() { t.removeListener(l) })
	}
	if t.hook != nil {
		t.hook.listenersChanged()
	}
	return l.id
}

// removeListener is "remove an event listener".
func (t *EventTarget) removeListener(l *listener) {
	// 1. (service worker warning: not applicable)
	// 2. Set listener's removed to true and remove listener from
	//    eventTarget's event listener list.
	if l.removed {
		return
	}
	l.removed = true
	for i, x := range t.listeners {
		if x == l {
			copy(t.listeners[i:], t.listeners[i+1:])
			t.listeners[len(t.listeners)-1] = nil
			t.listeners = t.listeners[:len(t.listeners)-1]
			break
		}
	}
	if l.opts.Signal != nil && l.abortID != 0 {
		l.opts.Signal.RemoveAlgorithm(l.abortID)
	}
	if t.hook != nil {
		t.hook.listenersChanged()
	}
}

// RemoveEventListener is removeEventListener(type, callback, {capture}):
// it removes the listener with that type, key and capture, if any.
func (t *EventTarget) RemoveEventListener(typ string, key any, capture bool) {
	t.checkLoop()
	if key == nil {
		return
	}
	for _, l := range t.listeners {
		if l.typ == typ && l.opts.Key == key && l.opts.Capture == capture {
			t.removeListener(l)
			return
		}
	}
}

// RemoveListener removes a listener by the id AddEventListener returned.
func (t *EventTarget) RemoveListener(id ListenerID) {
	t.checkLoop()
	for _, l := range t.listeners {
		if l.id == id {
			t.removeListener(l)
			return
		}
	}
}

// HasListeners reports whether any listener for typ is registered.
func (t *EventTarget) HasListeners(typ string) bool {
	for _, l := range t.listeners {
		if l.typ == typ {
			return true
		}
	}
	return false
}

// Receives reports whether an event of type typ dispatched at t now would
// reach a listener (HasListeners), after checking that the caller is on
// t's event loop as dispatching would. Firing an event at a target that
// does not receive it can skip creating the event (FireEvent).
func (t *EventTarget) Receives(typ string) bool {
	t.checkLoop()
	return t.HasListeners(typ)
}

// DispatchEvent is "dispatch" for a target without parents (no capture or
// bubble path): listeners registered for event.Type run in registration
// order, capture listeners first. It returns false if the event was
// canceled.
func (t *EventTarget) DispatchEvent(event *Event) bool {
	t.checkLoop()
	// 1. Set event's dispatch flag.
	event.dispatching = true
	// 2-4. target = this; the event path is just the target.
	event.target = t
	// 5.x Invoke capture listeners at target, then non-capture ones (the
	//     "AT_TARGET" phase, capture first, per the current DOM Standard).
	event.phase = AtTarget
	t.innerInvoke(event, true)
	if !event.stopPropagation {
		t.innerInvoke(event, false)
	}
	// 6-12. Unset flags and reset state.
	event.phase = None
	event.currentTarget = nil
	event.dispatching = false
	event.stopPropagation = false
	event.stopImmediate = false
	return !event.canceled
}

// innerInvoke is "inner invoke" on a clone of the listener list.
func (t *EventTarget) innerInvoke(event *Event, capture bool) {
	event.currentTarget = t
	// 2. Let listeners be a clone of event's currentTarget's event listener list.
	var stack [8]*listener
	listeners := append(stack[:0], t.listeners...)
	for _, l := range listeners {
		// 1. If event's type is not listener's type, then continue.
		if l.typ != event.Type || l.removed {
			continue
		}
		// 2. If phase is "capturing" and capture is false (or vice versa), continue.
		if l.opts.Capture != capture {
			continue
		}
		// 3. If listener's once is true, remove an event listener.
		if l.opts.Once {
			t.removeListener(l)
		}
		// 4-9. Passive flag, call the callback, unset passive flag.
		event.inPassiveListener = l.opts.Passive
		l.callback(event)
		event.inPassiveListener = false
		// 10. If event's stop immediate propagation flag is set, then break.
		if event.stopImmediate {
			break
		}
	}
}

// FireEvent is https://dom.spec.whatwg.org/#concept-event-fire, "fire an
// event" named typ at target: a new trusted event, dispatched. It returns
// the dispatch result.
//
// When target has no listener for typ (event handlers are listeners too),
// no event is created: nothing could ever see it, and the dispatch of an
// event no listener receives returns true without any other effect (the
// target has no parents to propagate to).
func FireEvent(typ string, target *EventTarget) bool {
	if !target.Receives(typ) {
		return true
	}
	// 1-4. Create a trusted event with type initialized; dispatch it.
	e := NewEvent(typ)
	e.IsTrusted = true
	return target.DispatchEvent(e)
}
