package main

import (
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/weblocks"
	"github.com/grafana/sobek"
)

// This file is the glue between the lock service contract and this host:
// the page side (weblocks.RequestLock, weblocks.QueryLocks) given JS
// promises, callbacks and signals. The JS surface (navigator.locks's
// argument conversion, Lock objects, invoking the callback) is the
// prelude's, in main.go.

// installLocks gives vm the functions the prelude's navigator.locks calls,
// for the environment whose lock client is c (on the page's event loop).
func installLocks(vm *sobek.Runtime, svc weblocks.LockService, c weblocks.Client) {
	facts := weblocks.Facts{SecureContext: true}
	invoke, _ := sobek.AssertFunction(vm.Get("invokeLockCallback"))
	// lockRequest(name, mode, ifAvailable, steal, signal, callback).
	_ = vm.Set("lockRequest", func(call sobek.FunctionCall) sobek.Value {
		a := call.Arguments
		opts := weblocks.Options{IfAvailable: a[2].ToBoolean(), Steal: a[3].ToBoolean()}
		if opts.Mode, _ = weblocks.ParseMode(a[1].String()); !sobek.IsNull(a[4]) {
			opts.Signal = jsObject{vm, a[4]}
		}
		p, cb := newPromise(vm), a[5] // (sobek reuses a after the call)
		weblocks.RequestLock(svc, c, facts, weblocks.Name(a[0].String()), opts, func(l *weblocks.Lock) weblocks.Waiting {
			name, mode := sobek.Null(), sobek.Null()
			if l != nil {
				name, mode = vm.ToValue(string(l.Name())), vm.ToValue(l.Mode().String())
			}
			w, _ := invoke(nil, cb, name, mode)
			return jsObject{vm, w}
		}, p)
		return p.promise
	})
	_ = vm.Set("lockQuery", func() sobek.Value { p := newPromise(vm); weblocks.QueryLocks(svc, c, facts, p); return p.promise })
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

func (p *jsPromise) Resolve(v any) {
	switch v := v.(type) {
	case weblocks.Snapshot:
		_ = p.resolve(v.Dictionary())
	case jsObject: // the waiting promise, or the callback's plain value
		_ = p.resolve(v.v)
	default:
		_ = p.resolve(sobek.Undefined())
	}
}

func (p *jsPromise) Reject(reason any) {
	if e, ok := reason.(*dom.DOMException); ok {
		reason, _ = p.vm.New(p.vm.Get("DOMException"), p.vm.ToValue(e.Message), p.vm.ToValue(e.Name))
	}
	_ = p.reject(reason)
}

// jsObject is a JS value as the page side sees it: a waiting promise (the
// callback's result made a promise, or a plain value: one fulfilled with
// it) or an AbortSignal.
type jsObject struct {
	vm *sobek.Runtime
	v  sobek.Value
}

func (o jsObject) OnSettled(settled func()) {
	if _, ok := o.v.(*sobek.Object); !ok {
		settled()
		return
	}
	f := o.vm.ToValue(settled)
	o.call("then", f, f)
}
func (o jsObject) Aborted() bool { return o.v.ToObject(o.vm).Get("aborted").ToBoolean() }
func (o jsObject) Reason() any   { return o.v.ToObject(o.vm).Get("reason") }
func (o jsObject) AddAlgorithm(steps func()) dom.AlgorithmID {
	return dom.AlgorithmID(o.call("_add", o.vm.ToValue(steps)).ToInteger())
}
func (o jsObject) RemoveAlgorithm(id dom.AlgorithmID) { o.call("_remove", o.vm.ToValue(int64(id))) }
func (o jsObject) call(method string, args ...sobek.Value) sobek.Value {
	f, _ := sobek.AssertFunction(o.v.ToObject(o.vm).Get(method))
	v, _ := f(o.v, args...)
	return v
}
