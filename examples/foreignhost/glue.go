package main

import (
	"github.com/gowebengine/weblocks/dom"
	"github.com/gowebengine/weblocks/weblocks"
	"github.com/grafana/sobek"
)

// This file is the glue between the lock service contract and this host:
// the page side (weblocks.RequestLock, weblocks.QueryLocks) given JS
// promises, callbacks and signals. The JS surface (argument conversion,
// Lock objects) is the prelude's navigator.locks, in main.go.

// installLocks gives vm the functions the prelude's navigator.locks calls,
// for the environment whose lock client is c (on the page's event loop).
func installLocks(vm *sobek.Runtime, svc *weblocks.Service, c *weblocks.Client) {
	facts := weblocks.Facts{SecureContext: true}
	_ = vm.Set("lockRequest", func(name, mode string, ifAvailable, steal bool, signal *sobek.Object, cb sobek.Callable, newLock sobek.Callable) sobek.Value {
		opts := weblocks.Options{IfAvailable: ifAvailable, Steal: steal}
		if opts.Mode, _ = weblocks.ParseMode(mode); signal != nil {
			opts.Signal = jsSignal{vm, signal}
		}
		p := newPromise(vm)
		weblocks.RequestLock(svc, c, facts, weblocks.Name(name), opts, func(l *weblocks.Lock) weblocks.Waiting {
			arg := sobek.Null()
			if l != nil {
				arg, _ = newLock(nil, vm.ToValue(string(l.Name())), vm.ToValue(l.Mode().String()))
			}
			w, _ := cb(nil, arg) // the prelude's callback wrapper returns a promise
			return jsWaiting{vm, w.ToObject(vm)}
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
		list := func(l weblocks.LockList) (out []any) {
			for _, i := range l.All() {
				out = append(out, map[string]any{"name": string(i.Name), "mode": i.Mode.String(), "clientId": i.ClientID})
			}
			return out
		}
		_ = p.resolve(map[string]any{"held": list(v.Held), "pending": list(v.Pending)})
	case jsWaiting:
		_ = p.resolve(v.p)
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

// jsWaiting is a JS promise as a lock's waiting promise.
type jsWaiting struct {
	vm *sobek.Runtime
	p  *sobek.Object
}

func (w jsWaiting) OnSettled(settled func()) { callMethod(w.vm, w.p, "then", settled, settled) }

// jsSignal is the host's JS AbortSignal as the page side's weblocks.Signal.
type jsSignal struct {
	vm *sobek.Runtime
	o  *sobek.Object
}

func (s jsSignal) Aborted() bool { return s.o.Get("aborted").ToBoolean() }
func (s jsSignal) Reason() any   { return s.o.Get("reason") }
func (s jsSignal) AddAlgorithm(steps func()) dom.AlgorithmID {
	return dom.AlgorithmID(callMethod(s.vm, s.o, "_add", steps).ToInteger())
}
func (s jsSignal) RemoveAlgorithm(id dom.AlgorithmID) { callMethod(s.vm, s.o, "_remove", int64(id)) }

// callMethod calls o[method](args...), the arguments converted to JS.
func callMethod(vm *sobek.Runtime, o *sobek.Object, method string, args ...any) sobek.Value {
	f, _ := sobek.AssertFunction(o.Get(method))
	vals := make([]sobek.Value, len(args))
	for i, a := range args {
		vals[i] = vm.ToValue(a)
	}
	v, _ := f(o, vals...)
	return v
}
