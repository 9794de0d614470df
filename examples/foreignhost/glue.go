package main

import (
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/weblocks"
	"github.com/grafana/sobek"
)

// This file is the glue between the lock service contract and this host:
// the page side (weblocks.RequestLock, weblocks.QueryLocks) given JS
// promises, callbacks and signals (dom's AbortSignal, which the page side
// takes as it is). The JS surface (navigator.locks's argument conversion,
// Lock objects, invoking the callback, AbortController) is the prelude's,
// in main.go.

// installLocks gives vm the functions the prelude calls, for the
// environment whose lock client is c (on the page's event loop).
func installLocks(vm *sobek.Runtime, svc weblocks.LockService, c weblocks.Client) {
	facts := weblocks.Facts{SecureContext: true} // the host's pages are secure contexts
	invoke, _ := sobek.AssertFunction(vm.Get("invokeLockCallback"))
	whenSettled, _ := sobek.AssertFunction(vm.Get("whenSettled"))
	// lockRequest(name, mode (0 exclusive, 1 shared), ifAvailable, steal,
	// signal, callback).
	_ = vm.Set("lockRequest", func(call sobek.FunctionCall) sobek.Value {
		opts := weblocks.Options{Mode: weblocks.Mode(call.Argument(1).ToInteger()), IfAvailable: call.Argument(2).ToBoolean(), Steal: call.Argument(3).ToBoolean()}
		opts.Signal, _ = call.Argument(4).Export().(*dom.AbortSignal) // (null, or anything else: no signal)
		p, cb := newPromise(vm), call.Argument(5)
		weblocks.RequestLock(svc, c, facts, weblocks.Name(call.Argument(0).String()), opts, func(l *weblocks.Lock) weblocks.Waiting {
			// (l is nil for an ifAvailable request not granted; its
			// methods are nil-safe.)
			if w, _ := invoke(nil, cb, vm.ToValue(l != nil), vm.ToValue(string(l.Name())), vm.ToValue(l.Mode().String())); w != sobek.Undefined() {
				return jsWaiting{vm, w, whenSettled}
			}
			return nil // (fulfilled with undefined: released at once)
		}, p)
		return p.promise
	})
	_ = vm.Set("lockQuery", func() sobek.Value { p := newPromise(vm); weblocks.QueryLocks(svc, c, facts, p); return p.promise })
	_ = vm.Set("newAbortSignal", dom.NewAbortSignal)
	_ = vm.Set("signalAbort", func(s *dom.AbortSignal, reason sobek.Value) { s.SignalAbort(reason) })
}

// jsPromise is a JS promise as the page side's weblocks.Promise.
type jsPromise struct {
	vm              *sobek.Runtime
	promise         sobek.Value
	resolve, reject func(any) error
}

func newPromise(vm *sobek.Runtime) *jsPromise {
	p, resolve, reject := vm.NewPromise()
	return &jsPromise{vm, vm.ToValue(p), resolve, reject}
}

// Resolve resolves p with a query's Snapshot, a lock's waiting promise (or
// the callback's plain value), or undefined (nil).
func (p *jsPromise) Resolve(v any) {
	if s, ok := v.(weblocks.Snapshot); ok {
		v = s.Dictionary()
	} else if w, ok := v.(jsWaiting); ok {
		v = w.v
	} else {
		v = sobek.Undefined()
	}
	_ = p.resolve(v)
}

func (p *jsPromise) Reject(reason any) {
	if e, ok := reason.(*dom.DOMException); ok {
		reason, _ = p.vm.New(p.vm.Get("DOMException"), p.vm.ToValue(e.Message), p.vm.ToValue(e.Name))
	}
	_ = p.reject(reason)
}

// jsWaiting is the callback's result as the page side's weblocks.Waiting:
// a promise, or a plain value (a promise fulfilled with it), which the
// prelude's whenSettled watches.
type jsWaiting struct {
	vm   *sobek.Runtime
	v    sobek.Value
	when sobek.Callable
}

func (w jsWaiting) OnSettled(settled func()) { _, _ = w.when(nil, w.v, w.vm.ToValue(settled)) }
