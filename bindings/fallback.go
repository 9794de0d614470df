package bindings

import (
	"github.com/dop251/goja"
	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/weblocks"
)

// primitiveVM makes primitive values (numbers), which belong to no realm.
var primitiveVM = goja.New()

// fallbackRegistry is a hand-written registry of the interfaces the Web
// Locks API needs, used until the generated bindings are available. It
// follows bindings/webidls/*.idl for the members it has.
func fallbackRegistry() *webidl.Registry {
	reg := webidl.NewRegistry()
	all := []string{"*"}
	winWorker := []string{"Window", "Worker"}
	op := func(name string, length int, f func(r *webidl.Realm, call goja.FunctionCall) goja.Value) webidl.Member {
		return webidl.Member{Name: name, Kind: webidl.Operation, Length: length, Op: f}
	}
	attr := func(name string, get func(r *webidl.Realm, this goja.Value) goja.Value) webidl.Member {
		return webidl.Member{Name: name, Kind: webidl.Attribute, Get: get}
	}
	realmOf := func(r *webidl.Realm) *Realm { return r.Data.(*Realm) }
	str := func(s string) goja.Value { return webidl.StringValue(s) }

	// EventTarget
	reg.Add(&webidl.InterfaceDef{
		Name: "EventTarget", Exposed: all,
		Constructor: func(r *webidl.Realm, args []goja.Value, nt *goja.Object) any {
			return realmOf(r).newEventTargetImpl(&dom.EventTarget{})
		},
		Members: []webidl.Member{
			op("addEventListener", 2, func(r *webidl.Realm, call goja.FunctionCall) goja.Value {
				rr := realmOf(r)
				t := rr.eventTargetOf(rr.thisOrGlobal(call.This))
				if t == nil {
					r.ThrowTypeError(webidl.IllegalInvocation)
				}
				if len(call.Arguments) < 2 {
					r.NotEnoughArguments("addEventListener", 2, len(call.Arguments))
				}
				typ := string(r.ToDOMString(call.Arguments[0]))
				cb := call.Arguments[1]
				if !webidl.IsNullish(cb) {
					r.ToCallbackInterface(cb)
				}
				var o listenerOptions
				if opt := webidl.Arg(call, 2); opt != nil {
					if obj, ok := opt.(*goja.Object); ok {
						o.capture = r.ToBoolean(webidl.AnyValue(r.DictionaryMember(obj, "capture")))
						o.once = r.ToBoolean(webidl.AnyValue(r.DictionaryMember(obj, "once")))
						if v := r.DictionaryMember(obj, "passive"); v != nil {
							b := r.ToBoolean(v)
							o.passive = &b
						}
						if v := r.DictionaryMember(obj, "signal"); v != nil {
							o.signal = r.ToInterface(v, "AbortSignal").(*abortSignalImpl).sig
						}
					} else if !webidl.IsNullish(opt) {
						o.capture = r.ToBoolean(opt)
					}
				}
				rr.addEventListenerSteps(t, rr.thisOrGlobal(call.This), typ, cb, o)
				return goja.Undefined()
			}),
			op("removeEventListener", 2, func(r *webidl.Realm, call goja.FunctionCall) goja.Value {
				rr := realmOf(r)
				t := rr.eventTargetOf(rr.thisOrGlobal(call.This))
				if t == nil {
					r.ThrowTypeError(webidl.IllegalInvocation)
				}
				if len(call.Arguments) < 2 {
					r.NotEnoughArguments("removeEventListener", 2, len(call.Arguments))
				}
				typ := string(r.ToDOMString(call.Arguments[0]))
				capture := false
				if opt := webidl.Arg(call, 2); opt != nil {
					if obj, ok := opt.(*goja.Object); ok {
						capture = r.ToBoolean(webidl.AnyValue(r.DictionaryMember(obj, "capture")))
					} else if !webidl.IsNullish(opt) {
						capture = r.ToBoolean(opt)
					}
				}
				rr.removeEventListenerSteps(t, typ, call.Arguments[1], capture)
				return goja.Undefined()
			}),
			op("dispatchEvent", 1, func(r *webidl.Realm, call goja.FunctionCall) goja.Value {
				rr := realmOf(r)
				t := rr.eventTargetOf(rr.thisOrGlobal(call.This))
				if t == nil {
					r.ThrowTypeError(webidl.IllegalInvocation)
				}
				if len(call.Arguments) < 1 {
					r.NotEnoughArguments("dispatchEvent", 1, 0)
				}
				ev := r.ToInterface(call.Arguments[0], "Event").(*eventImpl)
				ok, err := rr.dispatchEventSteps(t.target, ev.ev)
				if err != nil {
					r.Throw(err)
				}
				return r.VM.ToValue(ok)
			}),
		},
	})

	// Event
	evThis := func(r *webidl.Realm, this goja.Value) *eventImpl { return r.This(this, "Event").(*eventImpl) }
	evBool := func(name string, f func(e *dom.Event) bool) webidl.Member {
		return attr(name, func(r *webidl.Realm, this goja.Value) goja.Value { return r.VM.ToValue(f(evThis(r, this).ev)) })
	}
	evTarget := func(name string, f func(e *dom.Event) *dom.EventTarget) webidl.Member {
		return attr(name, func(r *webidl.Realm, this goja.Value) goja.Value {
			return realmOf(r).targetValue(f(evThis(r, this).ev))
		})
	}
	phaseConst := func(name string, v int) webidl.Constant {
		return webidl.Constant{Name: name, Value: primitiveVM.ToValue(v)}
	}
	isTrusted := evBool("isTrusted", func(e *dom.Event) bool { return e.IsTrusted })
	isTrusted.Unforgeable = true
	cancelBubble := attr("cancelBubble", func(r *webidl.Realm, this goja.Value) goja.Value {
		return r.VM.ToValue(evThis(r, this).stopped)
	})
	cancelBubble.Set = func(r *webidl.Realm, this goja.Value, v goja.Value) {
		e := evThis(r, this)
		if r.ToBoolean(v) {
			e.stopped = true
			e.ev.StopPropagation()
		}
	}
	returnValue := attr("returnValue", func(r *webidl.Realm, this goja.Value) goja.Value {
		return r.VM.ToValue(!evThis(r, this).ev.DefaultPrevented())
	})
	returnValue.Set = func(r *webidl.Realm, this goja.Value, v goja.Value) {
		e := evThis(r, this)
		if !r.ToBoolean(v) {
			e.ev.PreventDefault()
		}
	}
	reg.Add(&webidl.InterfaceDef{
		Name: "Event", Exposed: all, ConstructorLength: 1,
		Constructor: func(r *webidl.Realm, args []goja.Value, nt *goja.Object) any {
			if len(args) < 1 {
				r.NotEnoughArguments("Event", 1, 0)
			}
			typ := string(r.ToDOMString(args[0]))
			var init *goja.Object
			if len(args) > 1 {
				init = r.DictionaryObject(args[1], "EventInit")
			}
			b := func(k string) bool { return r.ToBoolean(webidl.AnyValue(r.DictionaryMember(init, k))) }
			// Dictionary members in lexicographic order.
			bubbles, cancelable, composed := b("bubbles"), b("cancelable"), b("composed")
			return realmOf(r).newEvent(typ, bubbles, cancelable, composed)
		},
		Constants: []webidl.Constant{phaseConst("NONE", 0), phaseConst("CAPTURING_PHASE", 1), phaseConst("AT_TARGET", 2), phaseConst("BUBBLING_PHASE", 3)},
		Members: []webidl.Member{
			attr("type", func(r *webidl.Realm, this goja.Value) goja.Value { return str(evThis(r, this).ev.Type) }),
			evTarget("target", (*dom.Event).Target),
			evTarget("srcElement", (*dom.Event).Target),
			evTarget("currentTarget", (*dom.Event).CurrentTarget),
			op("composedPath", 0, func(r *webidl.Realm, call goja.FunctionCall) goja.Value {
				e := evThis(r, call.This)
				if t := e.ev.CurrentTarget(); t != nil {
					return r.VM.NewArray(realmOf(r).targetValue(t))
				}
				return r.VM.NewArray()
			}),
			attr("eventPhase", func(r *webidl.Realm, this goja.Value) goja.Value {
				return r.VM.ToValue(evThis(r, this).ev.EventPhase())
			}),
			op("stopPropagation", 0, func(r *webidl.Realm, call goja.FunctionCall) goja.Value {
				e := evThis(r, call.This)
				e.stopped = true
				e.ev.StopPropagation()
				return goja.Undefined()
			}),
			cancelBubble,
			op("stopImmediatePropagation", 0, func(r *webidl.Realm, call goja.FunctionCall) goja.Value {
				e := evThis(r, call.This)
				e.stopped = true
				e.ev.StopImmediatePropagation()
				return goja.Undefined()
			}),
			evBool("bubbles", func(e *dom.Event) bool { return e.Bubbles }),
			evBool("cancelable", func(e *dom.Event) bool { return e.Cancelable }),
			returnValue,
			op("preventDefault", 0, func(r *webidl.Realm, call goja.FunctionCall) goja.Value {
				evThis(r, call.This).ev.PreventDefault()
				return goja.Undefined()
			}),
			evBool("defaultPrevented", (*dom.Event).DefaultPrevented),
			evBool("composed", func(e *dom.Event) bool { return e.Composed }),
			isTrusted,
			attr("timeStamp", func(r *webidl.Realm, this goja.Value) goja.Value {
				return r.VM.ToValue(realmOf(r).eventTimeStamp(evThis(r, this).ev))
			}),
			op("initEvent", 1, func(r *webidl.Realm, call goja.FunctionCall) goja.Value {
				e := evThis(r, call.This)
				if len(call.Arguments) < 1 {
					r.NotEnoughArguments("initEvent", 1, 0)
				}
				typ := string(r.ToDOMString(call.Arguments[0]))
				bubbles := r.ToBoolean(webidl.AnyValue(webidl.Arg(call, 1)))
				cancelable := r.ToBoolean(webidl.AnyValue(webidl.Arg(call, 2)))
				// 1. If this's dispatch flag is set, then return.
				if e.ev.EventPhase() != dom.None {
					return goja.Undefined()
				}
				e.ev.Type, e.ev.Bubbles, e.ev.Cancelable = typ, bubbles, cancelable
				return goja.Undefined()
			}),
		},
	})

	// AbortController
	reg.Add(&webidl.InterfaceDef{
		Name: "AbortController", Exposed: all,
		Constructor: func(r *webidl.Realm, args []goja.Value, nt *goja.Object) any {
			return realmOf(r).newAbortController()
		},
		Members: []webidl.Member{
			attr("signal", func(r *webidl.Realm, this goja.Value) goja.Value {
				return r.Wrap(r.This(this, "AbortController").(*abortControllerImpl).signal, "AbortSignal")
			}),
			op("abort", 0, func(r *webidl.Realm, call goja.FunctionCall) goja.Value {
				c := r.This(call.This, "AbortController").(*abortControllerImpl)
				c.c.Abort(toReason(webidl.Arg(call, 0)))
				return goja.Undefined()
			}),
		},
	})

	// AbortSignal
	sigThis := func(r *webidl.Realm, this goja.Value) *abortSignalImpl {
		return r.This(this, "AbortSignal").(*abortSignalImpl)
	}
	onabort := attr("onabort", func(r *webidl.Realm, this goja.Value) goja.Value {
		return realmOf(r).eventHandlerGet(sigThis(r, this).eventTargetImpl, "abort")
	})
	onabort.Set = func(r *webidl.Realm, this goja.Value, v goja.Value) {
		s := sigThis(r, this)
		realmOf(r).eventHandlerSet(s.eventTargetImpl, this, "abort", v, false)
	}
	timeout := op("timeout", 1, func(r *webidl.Realm, call goja.FunctionCall) goja.Value {
		if len(call.Arguments) < 1 {
			r.NotEnoughArguments("timeout", 1, 0)
		}
		ms := r.ToUnsignedLongLong(call.Arguments[0], webidl.IntEnforceRange)
		return r.Wrap(realmOf(r).abortSignalTimeout(ms), "AbortSignal")
	})
	timeout.Static, timeout.Exposed = true, winWorker
	abortStatic := op("abort", 0, func(r *webidl.Realm, call goja.FunctionCall) goja.Value {
		return r.Wrap(realmOf(r).abortSignalAbort(webidl.Arg(call, 0)), "AbortSignal")
	})
	abortStatic.Static = true
	anyStatic := op("any", 1, func(r *webidl.Realm, call goja.FunctionCall) goja.Value {
		if len(call.Arguments) < 1 {
			r.NotEnoughArguments("any", 1, 0)
		}
		var list []*abortSignalImpl
		r.ToSequence(call.Arguments[0], func(v goja.Value) {
			list = append(list, r.ToInterface(v, "AbortSignal").(*abortSignalImpl))
		})
		return r.Wrap(realmOf(r).abortSignalAny(list), "AbortSignal")
	})
	anyStatic.Static = true
	reg.Add(&webidl.InterfaceDef{
		Name: "AbortSignal", Parent: "EventTarget", Exposed: all,
		Members: []webidl.Member{
			abortStatic, timeout, anyStatic,
			attr("aborted", func(r *webidl.Realm, this goja.Value) goja.Value { return r.VM.ToValue(sigThis(r, this).sig.Aborted()) }),
			attr("reason", func(r *webidl.Realm, this goja.Value) goja.Value { return sigThis(r, this).abortReason() }),
			op("throwIfAborted", 0, func(r *webidl.Realm, call goja.FunctionCall) goja.Value {
				if err := sigThis(r, call.This).throwIfAborted(); err != nil {
					r.Throw(err)
				}
				return goja.Undefined()
			}),
			onabort,
		},
	})

	// DOMException
	exThis := func(r *webidl.Realm, this goja.Value) *domExceptionImpl {
		return r.This(this, "DOMException").(*domExceptionImpl)
	}
	codes := []string{"INDEX_SIZE_ERR", "DOMSTRING_SIZE_ERR", "HIERARCHY_REQUEST_ERR", "WRONG_DOCUMENT_ERR",
		"INVALID_CHARACTER_ERR", "NO_DATA_ALLOWED_ERR", "NO_MODIFICATION_ALLOWED_ERR", "NOT_FOUND_ERR",
		"NOT_SUPPORTED_ERR", "INUSE_ATTRIBUTE_ERR", "INVALID_STATE_ERR", "SYNTAX_ERR", "INVALID_MODIFICATION_ERR",
		"NAMESPACE_ERR", "INVALID_ACCESS_ERR", "VALIDATION_ERR", "TYPE_MISMATCH_ERR", "SECURITY_ERR", "NETWORK_ERR",
		"ABORT_ERR", "URL_MISMATCH_ERR", "QUOTA_EXCEEDED_ERR", "TIMEOUT_ERR", "INVALID_NODE_TYPE_ERR", "DATA_CLONE_ERR"}
	var consts []webidl.Constant
	for i, c := range codes {
		consts = append(consts, phaseConst(c, i+1))
	}
	reg.Add(&webidl.InterfaceDef{
		Name: "DOMException", Exposed: all, ErrorPrototype: true,
		Constructor: func(r *webidl.Realm, args []goja.Value, nt *goja.Object) any {
			message, name := webidl.DOMString(""), webidl.DOMString("Error")
			if v := webidl.Arg(goja.FunctionCall{Arguments: args}, 0); !webidl.IsUndefined(v) {
				message = r.ToDOMString(v)
			}
			if v := webidl.Arg(goja.FunctionCall{Arguments: args}, 1); !webidl.IsUndefined(v) {
				name = r.ToDOMString(v)
			}
			return &domExceptionImpl{ex: dom.NewDOMException(string(message), string(name))}
		},
		Constants: consts,
		Members: []webidl.Member{
			attr("name", func(r *webidl.Realm, this goja.Value) goja.Value {
				return webidl.DOMString(exThis(r, this).ex.Name).Value()
			}),
			attr("message", func(r *webidl.Realm, this goja.Value) goja.Value {
				return webidl.DOMString(exThis(r, this).ex.Message).Value()
			}),
			attr("code", func(r *webidl.Realm, this goja.Value) goja.Value { return r.VM.ToValue(exThis(r, this).ex.Code()) }),
		},
	})

	// Navigator, WorkerNavigator (the locks member only).
	navMembers := func(iface string) []webidl.Member {
		locks := attr("locks", func(r *webidl.Realm, this goja.Value) goja.Value {
			return r.Wrap(r.This(this, iface).(*navigatorImpl).lockManager(), "LockManager")
		})
		locks.SecureContext = true
		return []webidl.Member{locks,
			attr("userAgent", func(r *webidl.Realm, this goja.Value) goja.Value {
				return str(r.This(this, iface).(*navigatorImpl).userAgent())
			})}
	}
	reg.Add(&webidl.InterfaceDef{Name: "Navigator", Exposed: []string{"Window"}, Members: navMembers("Navigator")})
	reg.Add(&webidl.InterfaceDef{Name: "WorkerNavigator", Exposed: []string{"Worker"}, Members: navMembers("WorkerNavigator")})

	// LockManager, Lock
	reg.Add(&webidl.InterfaceDef{
		Name: "LockManager", Exposed: winWorker, SecureContext: true,
		Members: []webidl.Member{
			op("request", 2, func(r *webidl.Realm, call goja.FunctionCall) goja.Value {
				return r.PromiseOperation(func() goja.Value {
					m := r.This(call.This, "LockManager").(*lockManagerImpl)
					n := len(call.Arguments)
					if n < 2 {
						r.NotEnoughArguments("request", 2, n)
					}
					name := r.ToDOMString(call.Arguments[0])
					var opts lockRequestOptions
					cbArg := call.Arguments[1]
					if n >= 3 {
						obj := r.DictionaryObject(call.Arguments[1], "LockOptions")
						// Members in lexicographic order: ifAvailable,
						// mode, signal, steal.
						opts.ifAvailable = r.ToBoolean(webidl.AnyValue(r.DictionaryMember(obj, "ifAvailable")))
						if v := r.DictionaryMember(obj, "mode"); v != nil {
							mode, _ := weblocks.ParseMode(r.ToEnum(v, "LockMode", []string{"shared", "exclusive"}))
							opts.mode = mode
						}
						if v := r.DictionaryMember(obj, "signal"); v != nil {
							opts.signal = r.ToInterface(v, "AbortSignal").(*abortSignalImpl).sig
						}
						opts.steal = r.ToBoolean(webidl.AnyValue(r.DictionaryMember(obj, "steal")))
						cbArg = call.Arguments[2]
					}
					cb := r.ToCallbackFunction(cbArg, false)
					return m.request(name, opts, cb).Object
				})
			}),
			op("query", 0, func(r *webidl.Realm, call goja.FunctionCall) goja.Value {
				return r.PromiseOperation(func() goja.Value {
					return r.This(call.This, "LockManager").(*lockManagerImpl).query().Object
				})
			}),
		},
	})
	reg.Add(&webidl.InterfaceDef{
		Name: "Lock", Exposed: winWorker, SecureContext: true,
		Members: []webidl.Member{
			attr("name", func(r *webidl.Realm, this goja.Value) goja.Value {
				return nameValue(r.This(this, "Lock").(*lockImpl).lock.Name())
			}),
			attr("mode", func(r *webidl.Realm, this goja.Value) goja.Value {
				return str(r.This(this, "Lock").(*lockImpl).lock.Mode().String())
			}),
		},
	})

	// The globals.
	navigator := func(iface string) webidl.Member {
		return attr("navigator", func(r *webidl.Realm, this goja.Value) goja.Value {
			r.This(this, iface)
			return r.Wrap(realmOf(r).navigator(), map[string]string{"Window": "Navigator", "WorkerGlobalScope": "WorkerNavigator"}[iface])
		})
	}
	reg.Add(&webidl.InterfaceDef{Name: "Window", Parent: "EventTarget", Exposed: []string{"Window"}, Global: true,
		Members: []webidl.Member{navigator("Window")}})
	reg.Add(&webidl.InterfaceDef{Name: "WorkerGlobalScope", Parent: "EventTarget", Exposed: []string{"Worker"}, Global: true,
		Members: []webidl.Member{navigator("WorkerGlobalScope")}})
	reg.Add(&webidl.InterfaceDef{Name: "DedicatedWorkerGlobalScope", Parent: "WorkerGlobalScope", Exposed: []string{"DedicatedWorker"}, Global: true})
	return reg
}
