package goproduct

import (
	"github.com/dop251/goja"
	"github.com/gowebengine/weblocks/bindings"
)

// While the generated bindings do not yet install EventTarget and Event in
// a realm, the product installs this minimal DOM-Standard event model
// (written in JavaScript, single target, no tree) so that pages, documents
// and Worker objects still get addEventListener, event handler attributes
// and dispatch. Errors and unhandled rejections, which the realm then
// cannot dispatch itself, are fired from its OnError/OnUnhandledRejection
// hooks. When the realm has the real interfaces, none of this is used.
const fallbackEventsSource = `(function (global) {
  "use strict";
  var state = new WeakMap(), lists = new WeakMap();
  function st(e) { var s = state.get(e); if (!s) throw new TypeError("Illegal invocation"); return s; }
  function Event(type, init) {
    if (!new.target) throw new TypeError("Failed to construct 'Event': Please use the 'new' operator.");
    if (arguments.length === 0) throw new TypeError("Failed to construct 'Event': 1 argument required, but only 0 present.");
    init = init == null ? {} : init;
    state.set(this, {type: String(type), bubbles: !!init.bubbles, cancelable: !!init.cancelable, composed: !!init.composed,
      canceled: false, stop: false, stopImmediate: false, target: null, currentTarget: null, phase: 0,
      dispatching: false, timeStamp: (typeof performance === "object" ? performance.now() : 0)});
  }
  ["type", "bubbles", "cancelable", "composed", "target", "currentTarget", "timeStamp"].forEach(function (k) {
    Object.defineProperty(Event.prototype, k, {get: function () { return st(this)[k]; }, enumerable: true, configurable: true});
  });
  Object.defineProperty(Event.prototype, "srcElement", {get: function () { return st(this).target; }, configurable: true});
  Object.defineProperty(Event.prototype, "eventPhase", {get: function () { return st(this).phase; }, enumerable: true, configurable: true});
  Object.defineProperty(Event.prototype, "defaultPrevented", {get: function () { return st(this).canceled; }, enumerable: true, configurable: true});
  Object.defineProperty(Event.prototype, "isTrusted", {get: function () { st(this); return false; }, enumerable: true, configurable: true});
  Object.defineProperty(Event.prototype, "returnValue", {get: function () { return !st(this).canceled; },
    set: function (v) { var s = st(this); if (!v && s.cancelable) s.canceled = true; }, configurable: true});
  Event.prototype.preventDefault = function () { var s = st(this); if (s.cancelable) s.canceled = true; };
  Event.prototype.stopPropagation = function () { st(this).stop = true; };
  Event.prototype.stopImmediatePropagation = function () { var s = st(this); s.stop = s.stopImmediate = true; };
  Event.prototype.composedPath = function () { var s = st(this); return s.currentTarget ? [s.currentTarget] : []; };
  Event.NONE = Event.prototype.NONE = 0; Event.CAPTURING_PHASE = Event.prototype.CAPTURING_PHASE = 1;
  Event.AT_TARGET = Event.prototype.AT_TARGET = 2; Event.BUBBLING_PHASE = Event.prototype.BUBBLING_PHASE = 3;
  Object.defineProperty(Event.prototype, Symbol.toStringTag, {value: "Event", configurable: true});

  function EventTarget() {
    if (!new.target) throw new TypeError("Failed to construct 'EventTarget': Please use the 'new' operator.");
    lists.set(this, []);
  }
  function ls(t) { var l = lists.get(t); if (!l) { l = []; lists.set(t, l); } return l; }
  function flatten(o) { return typeof o === "boolean" ? {capture: o} : (o == null ? {} : o); }
  EventTarget.prototype.addEventListener = function (type, callback, options) {
    if (arguments.length < 2) throw new TypeError("Failed to execute 'addEventListener' on 'EventTarget': 2 arguments required.");
    var t = this == null ? global : Object(this);
    if (callback === null || callback === undefined) return;
    var o = flatten(options), capture = !!o.capture;
    var l = ls(t);
    for (var i = 0; i < l.length; i++) if (l[i].type === String(type) && l[i].callback === callback && l[i].capture === capture) return;
    if (o.signal && o.signal.aborted) return;
    var entry = {type: String(type), callback: callback, capture: capture, once: !!o.once, removed: false};
    l.push(entry);
    if (o.signal) o.signal.addEventListener("abort", function () { entry.removed = true; var k = l.indexOf(entry); if (k >= 0) l.splice(k, 1); });
  };
  EventTarget.prototype.removeEventListener = function (type, callback, options) {
    var t = this == null ? global : Object(this);
    var capture = !!flatten(options).capture, l = ls(t);
    for (var i = 0; i < l.length; i++) {
      if (l[i].type === String(type) && l[i].callback === callback && l[i].capture === capture) { l[i].removed = true; l.splice(i, 1); return; }
    }
  };
  EventTarget.prototype.dispatchEvent = function (event) {
    var t = this == null ? global : Object(this);
    var s = st(event);
    if (s.dispatching) throw new DOMException("The event is already being dispatched.", "InvalidStateError");
    s.dispatching = true; s.target = t; s.currentTarget = t; s.phase = 2;
    var snapshot = ls(t).slice();
    for (var i = 0; i < snapshot.length && !s.stopImmediate; i++) {
      var e = snapshot[i];
      if (e.removed || e.type !== s.type) continue;
      if (e.once) { e.removed = true; var k = ls(t).indexOf(e); if (k >= 0) ls(t).splice(k, 1); }
      try {
        if (typeof e.callback === "function") e.callback.call(t, event);
        else { var h = e.callback.handleEvent; if (typeof h !== "function") throw new TypeError("handleEvent is not callable"); h.call(e.callback, event); }
      } catch (x) { __goproduct_report(x); }
    }
    s.dispatching = false; s.currentTarget = null; s.phase = 0; s.stop = s.stopImmediate = false;
    return !s.canceled;
  };
  Object.defineProperty(EventTarget.prototype, Symbol.toStringTag, {value: "EventTarget", configurable: true});
  [["Event", Event], ["EventTarget", EventTarget]].forEach(function (p) {
    Object.defineProperty(global, p[0], {value: p[1], writable: true, configurable: true, enumerable: false});
  });
  Object.setPrototypeOf(global, EventTarget.prototype);
  lists.set(global, []);
})`

// fallbackDOMExceptionSource defines DOMException (WebIDL: name, message,
// the legacy code table) for a realm without the generated interface.
const fallbackDOMExceptionSource = `(function () {
  "use strict";
  var codes = {IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
    NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InvalidStateError: 11, SyntaxError: 12,
    InvalidModificationError: 13, NamespaceError: 14, InvalidAccessError: 15, TypeMismatchError: 17,
    SecurityError: 18, NetworkError: 19, AbortError: 20, URLMismatchError: 21, QuotaExceededError: 22,
    TimeoutError: 23, InvalidNodeTypeError: 24, DataCloneError: 25};
  var data = new WeakMap();
  function DOMException(message, name) {
    if (!new.target) throw new TypeError("Failed to construct 'DOMException': Please use the 'new' operator.");
    data.set(this, {message: message === undefined ? "" : String(message), name: name === undefined ? "Error" : String(name)});
    var e = new Error();
    Object.defineProperty(this, "stack", {value: e.stack, writable: true, configurable: true});
  }
  DOMException.prototype = Object.create(Error.prototype, {constructor: {value: DOMException, writable: true, configurable: true}});
  function get(k) { return function () { var d = data.get(this); if (!d) throw new TypeError("Illegal invocation"); return d[k]; }; }
  Object.defineProperty(DOMException.prototype, "name", {get: get("name"), enumerable: true, configurable: true});
  Object.defineProperty(DOMException.prototype, "message", {get: get("message"), enumerable: true, configurable: true});
  Object.defineProperty(DOMException.prototype, "code", {get: function () { var d = data.get(this);
    if (!d) throw new TypeError("Illegal invocation"); return codes[d.name] || 0; }, enumerable: true, configurable: true});
  Object.defineProperty(DOMException.prototype, Symbol.toStringTag, {value: "DOMException", configurable: true});
  Object.keys(codes).forEach(function (n) {
    var c = n.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase().replace(/_ERROR$/, "_ERR");
    if (n === "DataCloneError") c = "DATA_CLONE_ERR";
    Object.defineProperty(DOMException, c, {value: codes[n], enumerable: true});
    Object.defineProperty(DOMException.prototype, c, {value: codes[n], enumerable: true});
  });
  Object.defineProperty(globalThis, "DOMException", {value: DOMException, writable: true, configurable: true});
})();`

// fallbackEvents is set on a realm that got the fallback event model.
type fallbackEvents struct{}

// ensureEvents installs the fallback event model when the realm has no
// EventTarget interface. It reports whether it did. Loop goroutine only,
// before any script runs.
func ensureEvents(r *bindings.Realm) bool {
	g := r.Global()
	if _, ok := g.Get("EventTarget").(*goja.Object); ok {
		return false
	}
	vm := r.Runtime()
	r.DefineGlobalFunction("__goproduct_report", 1, func(call goja.FunctionCall) goja.Value {
		ex := vm.Try(func() { panic(call.Argument(0)) })
		r.ReportException(ex)
		return goja.Undefined()
	})
	_ = g.DefineDataProperty("__goproduct_report", g.Get("__goproduct_report"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	if _, ok := g.Get("DOMException").(*goja.Object); !ok {
		if _, err := vm.RunString(fallbackDOMExceptionSource); err != nil {
			panic(err)
		}
	}
	fv, err := vm.RunString(fallbackEventsSource)
	if err != nil {
		panic(err)
	}
	f, _ := goja.AssertFunction(fv)
	if _, err := f(goja.Undefined(), g); err != nil {
		panic(err)
	}
	r.SetValue(fallbackEvents{}, true)
	return true
}

// usesFallbackEvents reports whether ensureEvents installed the fallback.
func usesFallbackEvents(r *bindings.Realm) bool {
	v, _ := r.Value(fallbackEvents{}).(bool)
	return v
}

// ensureGlobalInterfaces defines the global's interface objects (Window, or
// WorkerGlobalScope and DedicatedWorkerGlobalScope) with the global's
// prototype chain through them when the realm has not defined them, so that
// `self instanceof DedicatedWorkerGlobalScope` holds (testharness.js picks
// its environment that way). Loop goroutine only, before any script.
func ensureGlobalInterfaces(r *bindings.Realm, names ...string) {
	vm := r.Runtime()
	g := r.Global()
	parent := g.Prototype()
	var protos []*goja.Object
	for i := len(names) - 1; i >= 0; i-- {
		name := names[i]
		if c, ok := g.Get(name).(*goja.Object); ok {
			p, _ := c.Get("prototype").(*goja.Object)
			if p == nil {
				return
			}
			parent = p
			continue
		}
		proto := vm.NewObject()
		if parent != nil {
			_ = proto.SetPrototype(parent)
		}
		ctor := vm.ToValue(func(goja.ConstructorCall) *goja.Object {
			panic(vm.NewTypeError("Illegal constructor"))
		}).ToObject(vm)
		_ = ctor.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = ctor.DefineDataProperty("length", vm.ToValue(0), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = ctor.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
		_ = proto.DefineDataProperty("constructor", ctor, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = proto.DefineDataPropertySymbol(goja.SymToStringTag, vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		r.DefineGlobal(name, ctor)
		protos = append(protos, proto)
		parent = proto
	}
	if len(protos) > 0 {
		_ = g.SetPrototype(parent)
	}
}
