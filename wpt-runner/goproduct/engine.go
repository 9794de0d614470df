package goproduct

import (
	"errors"
	"fmt"
	"net/url"
	"sync"

	"github.com/dop251/goja"
	"github.com/gowebengine/weblocks/bindings"
	"github.com/gowebengine/weblocks/html"
)

// engine is the platform under one test: a fresh html.UserAgent, the
// window it opens and the realms of that window and its workers. It is the
// only place that knows how html and bindings are put together.
type engine struct {
	ua      *html.UserAgent
	onPanic func(v any, stack []byte)
}

// envHandle is an environment settings object of the engine.
type envHandle = *html.EnvironmentSettingsObject

var errWorkerOrigin = html.ErrWorkerOrigin

// newEngine creates the user agent for one test. onPanic receives Go
// panics of the engine's goroutines.
func newEngine(onPanic func(any, []byte)) (*engine, error) {
	var opts []html.Option
	if onPanic != nil {
		// A Go panic in a task, timer or parallel queue step of this user
		// agent is a CRASH of the test, not of the runner.
		opts = append(opts, html.WithPanicHandler(onPanic))
	}
	return &engine{ua: html.NewUserAgent(opts...), onPanic: onPanic}, nil
}

// Close tears the user agent down: every agent terminates (running its
// termination steps, e.g. releasing Web Locks), every loop and queue stops.
func (e *engine) Close() { e.ua.Close() }

// NewWindow opens a top-level window for u (a new top-level traversable
// navigated to u: the Document's origin and the environment's creation URL
// come from u, and it is a secure context when u is potentially
// trustworthy) and creates its realm.
func (e *engine) NewWindow(u *url.URL, opts bindings.Options) (*bindings.Realm, *html.Document, error) {
	doc, err := e.ua.OpenWindow(u)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the window: %v", err)
	}
	r, _, err := e.NewWindowFor(doc, opts)
	return r, doc, err
}

// NewWindowFor creates the realm of an existing window Document (the
// active document a child navigable was navigated to).
func (e *engine) NewWindowFor(doc *html.Document, opts bindings.Options) (*bindings.Realm, envHandle, error) {
	env := doc.EnvironmentSettingsObject()
	r, err := bindings.NewWindowRealm(env, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("creating the window realm: %v", err)
	}
	return r, env, nil
}

// NewWorkerEnvironment creates a dedicated worker's agent and environment.
func (e *engine) NewWorkerEnvironment(owner envHandle, u *url.URL) (envHandle, error) {
	return html.NewDedicatedWorker(owner, u)
}

// NewWorkerRealm creates the DedicatedWorkerGlobalScope realm of env.
func (e *engine) NewWorkerRealm(env envHandle, opts bindings.Options) (*bindings.Realm, error) {
	return bindings.NewDedicatedWorkerRealm(env, opts)
}

// TerminateWorker terminates a dedicated worker's agent.
func (e *engine) TerminateWorker(env envHandle) {
	if env != nil {
		env.Agent().Terminate()
	}
}

// OriginOf serializes an environment's origin.
func (e *engine) OriginOf(env envHandle) string { return env.Origin().Serialize() }

// jsHelpers are per-realm functions built from the realm's own EventTarget
// and Event interfaces (captured before any script ran).
type jsHelpers struct {
	etProto  *goja.Object
	newET    goja.Callable // (proto) -> platform EventTarget object with that prototype
	fire     goja.Callable // (target, type, cancelable, bubbles, props) -> notCanceled
	handlers goja.Callable // (obj, types...) defines on<type> event handler attributes
}

type helpersKey struct{}

// helperSource builds the helpers from the realm's interfaces. Event
// handler attributes follow HTML: the first non-null value adds one
// listener (keeping its place in the listener list), null removes it, and
// a non-callable object is stored but not invoked; a handler returning
// false cancels the event.
const helperSource = `(function (ET, Ev) {
  "use strict";
  var reflectConstruct = Reflect.construct, defineProperty = Object.defineProperty;
  var add = ET.prototype.addEventListener, remove = ET.prototype.removeEventListener, dispatch = ET.prototype.dispatchEvent;
  var call = Function.prototype.call.bind(Function.prototype.call);
  var keys = Object.keys;
  var store = new WeakMap();
  function newET(proto) {
    function F() {}
    F.prototype = proto;
    return reflectConstruct(ET, [], F);
  }
  function fire(target, type, cancelable, bubbles, props) {
    var e = new Ev(type, {cancelable: cancelable, bubbles: bubbles});
    if (props) {
      var ks = keys(props);
      for (var i = 0; i < ks.length; i++) {
        defineProperty(e, ks[i], {value: props[ks[i]], enumerable: true, configurable: true});
      }
    }
    return call(dispatch, target, e);
  }
  function handlers(obj) {
    for (var i = 1; i < arguments.length; i++) (function (type) {
      defineProperty(obj, "on" + type, {
        enumerable: true, configurable: true,
        get: function () {
          var m = store.get(this);
          var h = m && m[type];
          return h ? h.value : null;
        },
        set: function (v) {
          var m = store.get(this);
          if (!m) { m = {}; store.set(this, m); }
          var h = m[type];
          if (v === null || (typeof v !== "object" && typeof v !== "function")) {
            if (h) { call(remove, this, type, h.listener); delete m[type]; }
            return;
          }
          if (h) { h.value = v; return; }
          h = {value: v, listener: null};
          h.listener = function (event) {
            if (typeof h.value !== "function") return;
            var r = call(h.value, this, event);
            if (r === false) event.preventDefault();
          };
          m[type] = h;
          call(add, this, type, h.listener);
        }
      });
    })(arguments[i]);
  }
  return [newET, fire, handlers];
})`

// helperProgram is helperSource compiled once (as RunString would: no
// script name, non-strict) for every realm.
var helperProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("", helperSource, false) })

// helpers returns the realm's helpers, creating them on first use (which
// must be before any script of the realm ran, see window.install and
// dedicatedWorker.install). Loop goroutine only.
func (e *engine) helpers(r *bindings.Realm) *jsHelpers {
	if h, ok := r.Value(helpersKey{}).(*jsHelpers); ok {
		return h
	}
	vm := r.Runtime()
	h := &jsHelpers{}
	g := r.Global()
	et, _ := g.Get("EventTarget").(*goja.Object)
	ev, _ := g.Get("Event").(*goja.Object)
	if et == nil || ev == nil {
		panic(errors.New("goproduct: the realm has no EventTarget/Event interfaces"))
	}
	fv, err := vm.RunProgram(helperProgram())
	if err != nil {
		panic(err)
	}
	f, _ := goja.AssertFunction(fv)
	res, err := f(goja.Undefined(), et, ev)
	if err != nil {
		panic(err)
	}
	arr := res.ToObject(vm)
	h.newET, _ = goja.AssertFunction(arr.Get("0"))
	h.fire, _ = goja.AssertFunction(arr.Get("1"))
	h.handlers, _ = goja.AssertFunction(arr.Get("2"))
	h.etProto, _ = et.Get("prototype").(*goja.Object)
	r.SetValue(helpersKey{}, h)
	return h
}

// EventTargetPrototype is the realm's EventTarget.prototype.
func (e *engine) EventTargetPrototype(r *bindings.Realm) *goja.Object { return e.helpers(r).etProto }

// NewEventTargetObject creates a platform EventTarget whose prototype is
// proto.
func (e *engine) NewEventTargetObject(r *bindings.Realm, proto *goja.Object) *goja.Object {
	v, err := e.helpers(r).newET(goja.Undefined(), proto)
	if err != nil {
		panic(err)
	}
	return v.ToObject(r.Runtime())
}

// DefineEventHandlers defines on<type> event handler attributes on obj
// (a prototype or an object).
func (e *engine) DefineEventHandlers(r *bindings.Realm, obj *goja.Object, types ...string) {
	args := []goja.Value{obj}
	for _, t := range types {
		args = append(args, r.Runtime().ToValue(t))
	}
	if _, err := e.helpers(r).handlers(goja.Undefined(), args...); err != nil {
		panic(err)
	}
}

// FireEventAt fires an event named typ at target with props as own
// properties of the event object; it returns false when it was canceled.
// Events at the global are trusted events of the realm.
func (e *engine) FireEventAt(r *bindings.Realm, target *goja.Object, typ string, cancelable bool, props map[string]goja.Value) bool {
	if target == r.Global() {
		return r.FireEvent(typ, cancelable, props)
	}
	return e.fire(r, target, typ, cancelable, false, props)
}

// FireBubblingEventAt fires a bubbling event at a node of the document;
// unless propagation was stopped... the node tree is not an event path
// here, so the window gets its own dispatch afterwards (as the last step of
// the bubble path).
func (e *engine) FireBubblingEventAt(r *bindings.Realm, target *goja.Object, typ string) {
	e.fire(r, target, typ, false, true, nil)
	e.FireEventAt(r, r.Global(), typ, false, nil)
}

func (e *engine) fire(r *bindings.Realm, target *goja.Object, typ string, cancelable, bubbles bool, props map[string]goja.Value) bool {
	vm := r.Runtime()
	var p goja.Value = goja.Undefined()
	if props != nil {
		o := vm.NewObject()
		for k, v := range props {
			_ = o.Set(k, v)
		}
		p = o
	}
	res, err := e.helpers(r).fire(goja.Undefined(), target, vm.ToValue(typ), vm.ToValue(cancelable), vm.ToValue(bubbles), p)
	if err != nil {
		// dispatchEvent reports listener exceptions itself; an error here
		// is a broken helper.
		panic(err)
	}
	return res.ToBoolean()
}

// NewDOMException creates a DOMException of the realm.
func (e *engine) NewDOMException(r *bindings.Realm, name, msg string) goja.Value {
	return r.NewDOMException(name, msg)
}

// ReportScriptError reports an error that happened elsewhere (a worker's
// unhandled error) in r's global, as HTML's "report an exception" does.
func (e *engine) ReportScriptError(r *bindings.Realm, se *bindings.ScriptError) {
	vm := r.Runtime()
	errObj := vm.NewGoError(errors.New(se.Message))
	ex := vm.Try(func() { panic(errObj) })
	if ex != nil {
		r.ReportException(ex)
	}
}
