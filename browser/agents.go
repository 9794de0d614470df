package browser

import (
	"errors"
	"reflect"

	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/bindings/membrane"
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// One JavaScript heap per agent, semantically: every window has its own
// sobek runtime, and the windows of one similar-origin window agent (a page,
// its same-origin iframes, its popups and their openers) run on the agent's
// one event loop goroutine. A membrane (bindings/membrane) per agent joins
// their runtimes, so a window reaches another window of its agent
// synchronously: iframe.contentWindow, contentDocument, window.parent, top,
// opener, the value window.open returns and MessageEvent.source are the
// other window's own objects seen through the membrane. Windows of other
// agents (cross-site, sandboxed) are reached through a WindowProxy
// stand-in that supports postMessage, closed and close only (frame.go).
// Same-agent windows of different origins (same site) get HTML's
// cross-origin rules as the membrane's policy.

// agentState is the browser's state for one agent: its membrane and its
// live windows (used on the agent's event loop only, apart from creation).
type agentState struct {
	m       *membrane.Membrane
	windows []*Window
}

// agentOf returns the state of agent a, created on first use.
func (b *Browser) agentOf(a *html.Agent) *agentState {
	b.mu.Lock()
	defer b.mu.Unlock()
	st := b.agents[a]
	if st == nil {
		st = &agentState{m: membrane.New()}
		b.agents[a] = st
	}
	return st
}

// joinMembrane adds w's runtime to its agent's membrane and sets the
// policies between w and the agent's other windows. It runs on the agent's
// event loop, before w's scripts.
func (w *Window) joinMembrane() error {
	st := w.s.agentOf(w.env.Agent())
	// The browser's lock orders this with leaveMembrane's Remove: tasks of
	// one agent may run on different goroutines of the scheduler, and the
	// membrane's tables are not goroutine-safe.
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	if err := st.m.Add(w.realm.Runtime()); err != nil {
		return err
	}
	w.agent = st
	for _, o := range st.windows {
		st.m.SetPolicy(o.realm.Runtime(), w.realm.Runtime(), w.policyFor(o))
		st.m.SetPolicy(w.realm.Runtime(), o.realm.Runtime(), o.policyFor(w))
	}
	st.windows = append(st.windows, w)
	return nil
}

// leaveMembrane forgets w as a window of its agent and removes its runtime
// from the membrane; wrappers already handed out keep working (a removed
// iframe's objects stay usable, as in browsers). It runs on the agent's
// event loop.
func (w *Window) leaveMembrane() {
	st := w.agent
	if st == nil {
		return
	}
	w.s.mu.Lock()
	for i, o := range st.windows {
		if o == w {
			st.windows = append(st.windows[:i], st.windows[i+1:]...)
			break
		}
	}
	st.m.Remove(w.realm.Runtime())
	if len(st.windows) == 0 && w.s.agents[w.env.Agent()] == st {
		// The agent's last window: the agent terminates with its last
		// document, and a later window gets a new agent.
		delete(w.s.agents, w.env.Agent())
	}
	w.s.mu.Unlock()
}

// policyFor is the policy for w's use of target's objects: same origin,
// everything is allowed; otherwise HTML's cross-origin rules apply. Either
// way a call of target's postMessage records w as the incumbent window
// (the message's source and the realm it is serialized in).
func (w *Window) policyFor(target *Window) *membrane.Policy {
	var base *membrane.Policy
	if w.env.Origin() != target.env.Origin() {
		rules := &membrane.CrossOriginRules{
			Kind: func(obj *sobek.Object) membrane.ObjectKind {
				if obj == target.realm.Global() {
					return membrane.WindowObject
				}
				if loc, ok := target.realm.Global().Get("location").(*sobek.Object); ok && obj == loc {
					return membrane.LocationObject
				}
				return membrane.OtherObject
			},
			SameOrigin: func(*sobek.Object) bool { return false },
			// The target's child navigables are reachable by index.
			FrameCount: func(window *sobek.Object) int {
				if window == target.realm.Global() {
					return target.childNavigableCount()
				}
				return 0
			},
			Error: func(vm *sobek.Runtime, obj *sobek.Object, op membrane.Op, key sobek.Value) sobek.Value {
				return w.realm.NewDOMException("SecurityError", "Blocked a frame with origin \""+w.env.Origin().Serialize()+"\" from accessing a cross-origin frame.")
			},
		}
		base = rules.Policy()
	}
	p := &membrane.Policy{Check: func(obj *sobek.Object, op membrane.Op, key sobek.Value) membrane.Decision {
		if op == membrane.OpCall && obj == target.postMessageFn {
			target.incumbent = w
		}
		if base == nil {
			return membrane.Allow
		}
		return base.Check(obj, op, key)
	}}
	if base != nil {
		p.Error, p.OwnKeys = base.Error, base.OwnKeys
	}
	return p
}

// view is target's window as a value of w's realm: target's global through
// the membrane when both are windows of one agent with live realms, else
// standIn (nil: null). Call on w's event loop.
func (w *Window) view(target *Window, standIn *sobek.Object) sobek.Value {
	if target != nil && target.agent != nil && target.agent == w.agent && !target.realmGone {
		return w.agent.m.Wrap(target.realm.Runtime(), w.realm.Runtime(), target.realm.Global())
	}
	if standIn == nil {
		return sobek.Null()
	}
	return standIn
}

// serialize is StructuredSerializeWithTransfer of a message posted in
// realm, throwing (a panic with a value of realm, inside a native call)
// what it fails with: a DataCloneError, or a getter's exception. A message
// that is another same-agent window's object reached through the
// membrane (a page calling worker.postMessage on a Worker of its iframe's
// realm with its own object) is serialized in that window's realm: it is
// that window's value.
func (b *Browser) serialize(realm *bindings.Realm, v sobek.Value, transfer []*sobek.Object) html.SerializedWithTransfer {
	from := realm
	msg, err := from.StructuredSerializeWithTransfer(v, transfer)
	if err != nil {
		var de *dom.DOMException
		var ex *sobek.Exception
		switch {
		case errors.As(err, &de):
			panic(realm.NewDOMException(de.Name, de.Message))
		case errors.As(err, &ex):
			panic(ex)
		default:
			panic(realm.Runtime().NewGoError(err))
		}
	}
	return msg
}

var proxyType = reflect.TypeOf(sobek.Proxy{})

// foreignValue is the window realm's bindings.ForeignValueHook: a message
// that is another same-agent window's object reached through the membrane
// (a page calling worker.postMessage on a Worker of its iframe's realm with
// its own object) is serialized by that window's realm.
func (w *Window) foreignValue(v sobek.Value, transfer []*sobek.Object) (*bindings.Realm, sobek.Value, []*sobek.Object, bool) {
	o, ok := v.(*sobek.Object)
	if !ok || o.ExportType() != proxyType {
		return nil, nil, nil, false
	}
	ow, st := w.s.foreignOwner(w.realm, o)
	if ow == nil {
		return nil, nil, nil, false
	}
	v, transfer = st.unwrapInto(w, ow, v, transfer)
	return ow.realm, v, transfer, true
}

// windowOf is the window of the agent whose realm is r, or nil.
func (st *agentState) windowOf(r *bindings.Realm) *Window {
	for _, w := range st.windows {
		if w.realm == r {
			return w
		}
	}
	return nil
}

// unwrapInto gives a message and transfer list of window from's realm (in
// practice membrane wrappers of to's objects) as values of window to's
// realm.
func (st *agentState) unwrapInto(from, to *Window, message sobek.Value, transfer []*sobek.Object) (sobek.Value, []*sobek.Object) {
	fvm, tvm := from.realm.Runtime(), to.realm.Runtime()
	message = st.m.Wrap(fvm, tvm, message)
	out := make([]*sobek.Object, 0, len(transfer))
	for _, t := range transfer {
		if o, ok := st.m.Wrap(fvm, tvm, t).(*sobek.Object); ok {
			out = append(out, o)
		}
	}
	return message, out
}

// unwrapLoose is unwrapInto for a message of a window that left the
// membrane: the membrane's wrappers of to's values are unwrapped, other
// values are kept as they are (primitives; another realm's objects then
// fail to serialize in to's realm, or serialize as plain objects).
func (st *agentState) unwrapLoose(to *Window, message sobek.Value, transfer []*sobek.Object) (sobek.Value, []*sobek.Object) {
	tvm := to.realm.Runtime()
	unwrap := func(v sobek.Value) sobek.Value {
		if u, rt := st.m.Unwrap(v); rt == tvm {
			return u
		}
		return v
	}
	message = unwrap(message)
	out := make([]*sobek.Object, 0, len(transfer))
	for _, t := range transfer {
		if o, ok := unwrap(t).(*sobek.Object); ok {
			out = append(out, o)
		}
	}
	return message, out
}

// foreignOwner finds the window of realm's agent whose object the membrane
// wrapper o stands for (nil when o is not one).
func (b *Browser) foreignOwner(realm *bindings.Realm, o *sobek.Object) (*Window, *agentState) {
	b.mu.Lock()
	st := b.agents[realm.Env().Agent()]
	b.mu.Unlock()
	if st == nil || st.windowOf(realm) == nil {
		return nil, nil
	}
	_, rt := st.m.Unwrap(o)
	if rt == nil || rt == realm.Runtime() {
		return nil, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, w := range st.windows {
		if w.realm.Runtime() == rt {
			return w, st
		}
	}
	return nil, nil
}

// foreignThis is the realm's webidl ForeignThis: a this value that is a
// Window or Location of a cross-origin window of w's agent, reached
// through the membrane, gets a SecurityError (Web IDL's
// PerformSecurityCheck: an operation or attribute other than the
// cross-origin ones, called on another origin's object), not a TypeError.
func (w *Window) foreignThis(this sobek.Value) error {
	st := w.agent
	if st == nil {
		return nil
	}
	v, vm := st.m.Unwrap(this)
	obj, ok := v.(*sobek.Object)
	if vm == nil || vm == w.realm.Runtime() || !ok {
		return nil
	}
	target := w.agentWindowOf(vm)
	if target == nil || w.env.Origin() == target.env.Origin() {
		return nil
	}
	loc, _ := target.realm.Global().Get("location").(*sobek.Object)
	if obj != target.realm.Global() && (loc == nil || obj != loc) {
		return nil
	}
	return dom.NewDOMException("Blocked a frame with origin \""+w.env.Origin().Serialize()+"\" from accessing a cross-origin frame.", dom.SecurityError)
}

// foreignMember is the realm's webidl ForeignMember: an operation or
// attribute of w's realm called on a platform object of another window of
// w's agent, reached through the membrane, is performed by that window's
// realm, where the object lives, as it would be in browsers, whose realms
// of an agent share one heap (`window.Response.prototype.bytes.call(new
// frame.Response(""))` gives the frame's Uint8Array). The other realm's
// own function object for the member is called through the membrane, so
// its result and the values passed cross it as any other.
func (w *Window) foreignMember(this sobek.Value, iface string) func(string, webidl.ForeignKind, []sobek.Value) sobek.Value {
	st := w.agent
	if st == nil {
		return nil
	}
	obj, vm := st.m.Unwrap(this)
	if vm == nil || vm == w.realm.Runtime() {
		return nil
	}
	target := w.agentWindowOf(vm)
	if target == nil {
		return nil
	}
	if _, ok := target.realm.IDL().Implements(obj, iface); !ok {
		return nil // the brand check's TypeError, in w's realm
	}
	io := target.realm.IDL().Interface(iface)
	if io == nil {
		return nil
	}
	return func(member string, kind webidl.ForeignKind, args []sobek.Value) sobek.Value {
		f, ok := sobek.AssertFunction(st.m.Wrap(vm, w.realm.Runtime(), io.Member(member, kind)))
		if !ok {
			w.realm.IDL().ThrowTypeError("%s", webidl.IllegalInvocation)
		}
		res, err := f(this, args...)
		if err != nil {
			var ex *sobek.Exception
			if errors.As(err, &ex) {
				panic(ex)
			}
			panic(w.realm.Runtime().NewGoError(err))
		}
		return res
	}
}

// foreignObject is the realm's webidl ForeignObject: a membrane wrapper
// of an object of another live window of w's agent, converted to an IDL
// interface type, stands for that object (`fetch(url, {signal:
// parent.controller.signal})` in a frame), whose implementation the
// conversion then takes from that window's realm.
func (w *Window) foreignObject(o *sobek.Object) (*webidl.Realm, *sobek.Object) {
	st := w.agent
	if st == nil || o.ExportType() != proxyType || w.realmGone {
		return nil, nil
	}
	v, vm := st.m.Unwrap(o)
	obj, ok := v.(*sobek.Object)
	if vm == nil || vm == w.realm.Runtime() || !ok {
		return nil, nil
	}
	target := w.agentWindowOf(vm)
	if target == nil || target.realmGone {
		return nil, nil
	}
	return target.realm.IDL(), obj
}

// foreignValueFrom is the realm's webidl ForeignValue: v, a value of the
// realm of another live window of w's agent, as seen from w's realm
// through the membrane (nil when that window is gone).
func (w *Window) foreignValueFrom(from *webidl.Realm, v sobek.Value) sobek.Value {
	st := w.agent
	if st == nil || from == nil || w.realmGone {
		// w's realm left the membrane (a removed frame's).
		return nil
	}
	target := w.agentWindowOf(from.VM)
	if target == nil || target.realmGone || target.realm.IDL() != from {
		return nil
	}
	return st.m.Wrap(from.VM, w.realm.Runtime(), v)
}

// agentWindowOf is the window of w's agent whose realm's runtime is vm,
// or nil.
func (w *Window) agentWindowOf(vm *sobek.Runtime) *Window {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	var target *Window
	for _, o := range w.agent.windows {
		if o.realm.Runtime() == vm {
			target = o
		}
	}
	return target
}
