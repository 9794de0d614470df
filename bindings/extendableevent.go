package bindings

import (
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

// FireExtendableEvent fires a trusted ExtendableEvent named name at the
// service worker global of r and calls done once every promise passed to
// waitUntil has settled (failed: one of them rejected). Call it in a task
// of r (it is "fire a functional event" without the fetch specifics).
func (r *Realm) FireExtendableEvent(name string, done func(failed bool)) {
	ev := dom.NewEvent(name)
	ev.IsTrusted = true
	e := &extendableEventImpl{eventImpl: &eventImpl{realm: r, ev: ev}, dispatching: true}
	ev.Detail = e
	r.globalTarget.target.DispatchEvent(ev)
	e.dispatching = false
	e.onSettled = done
	e.settleIfDone()
}

type extendableEventImpl struct {
	*eventImpl
	// dispatching is set while the event is dispatched; pending counts
	// unsettled extend lifetime promises.
	dispatching bool
	pending     int
	failed      bool
	onSettled   func(failed bool)
}

func (e *extendableEventImpl) baseEvent() *eventImpl { return e.eventImpl }

func (e *extendableEventImpl) WebIDLInterface() string { return "ExtendableEvent" }

type extendableEventStatics struct{}

// new ExtendableEvent(type, eventInitDict)
func (extendableEventStatics) Constructor(r *webidl.Realm, typ webidl.DOMString, init ExtendableEventInit) (ExtendableEventMethods, error) {
	base := realmOf(r).newEvent(string(typ), init.Bubbles, init.Cancelable, init.Composed)
	e := &extendableEventImpl{eventImpl: base}
	base.ev.Detail = e
	return e, nil
}

// WaitUntil is https://w3c.github.io/ServiceWorker/#dom-extendableevent-waituntil
// ("add lifetime promise").
func (e *extendableEventImpl) WaitUntil(f *webidl.Promise) error {
	// 1. If event's isTrusted attribute is false, throw an
	//    "InvalidStateError" DOMException.
	if !e.ev.IsTrusted {
		return dom.NewDOMException("Failed to execute 'waitUntil' on 'ExtendableEvent': The event handler is already finished.", dom.InvalidStateError)
	}
	// 2. If event is not active, throw an "InvalidStateError".
	if !e.dispatching && e.pending == 0 {
		return dom.NewDOMException("Failed to execute 'waitUntil' on 'ExtendableEvent': The event handler is already finished and no extend lifetime promises are outstanding.", dom.InvalidStateError)
	}
	// 3. Add promise to event's extend lifetime promises; 4. increment
	//    its pending promises count; 5. upon settlement, decrement it
	//    in a microtask.
	e.pending++
	f.React(func(sobek.Value) (sobek.Value, error) {
		e.pending--
		e.settleIfDone()
		return sobek.Undefined(), nil
	}, func(sobek.Value) (sobek.Value, error) {
		e.pending--
		e.failed = true
		e.settleIfDone()
		return sobek.Undefined(), nil
	})
	return nil
}

func (e *extendableEventImpl) settleIfDone() {
	if e.dispatching || e.pending > 0 || e.onSettled == nil {
		return
	}
	done := e.onSettled
	e.onSettled = nil
	done(e.failed)
}
