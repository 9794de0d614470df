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
