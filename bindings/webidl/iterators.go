package webidl

import (
	"github.com/grafana/sobek"
)

// IteratorKind is the kind of a default iterator: "key", "value" or
// "key+value".
type IteratorKind uint8

// Iterator kinds.
const (
	IterateKeyValue IteratorKind = iota
	IterateKeys
	IterateValues
)

// Pair is one value pair to iterate over, already converted to JavaScript.
type Pair struct {
	Key, Value sobek.Value
}

type pairIterState struct {
	iface string
	kind  IteratorKind
	index int
	pairs func() []Pair
	done  bool
}

// iteratorPrototype returns the "iface Iterator" prototype object: next,
// @@toStringTag, [[Prototype]] %IteratorPrototype%.
func (r *Realm) iteratorPrototype(iface string) *sobek.Object {
	if r.iterProtos == nil {
		r.iterProtos = map[string]*sobek.Object{}
	}
	if p, ok := r.iterProtos[iface]; ok {
		return p
	}
	proto := r.VM.CreateObject(r.intrinsicIteratorPrototype())
	next := r.NewFunction("next", 0, func(call sobek.FunctionCall) sobek.Value {
		s := r.getSlot(call.This)
		st, ok := (*pairIterState)(nil), false
		if s != nil {
			st, ok = s.impl.(*pairIterState)
		}
		if !ok || st.iface != iface {
			r.ThrowTypeError("%s", IllegalInvocation)
		}
		if st.done {
			return r.IterResult(sobek.Undefined(), true)
		}
		pairs := st.pairs()
		if st.index >= len(pairs) {
			st.done = true
			return r.IterResult(sobek.Undefined(), true)
		}
		p := pairs[st.index]
		st.index++
		switch st.kind {
		case IterateKeys:
			return r.IterResult(p.Key, false)
		case IterateValues:
			return r.IterResult(p.Value, false)
		}
		return r.IterResult(r.VM.NewArray(p.Key, p.Value), false)
	})
	must(proto.DefineDataProperty("next", next, sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_TRUE))
	must(proto.DefineDataPropertySymbol(sobek.SymToStringTag, StringValue(iface+" Iterator"), sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_FALSE))
	r.iterProtos[iface] = proto
	return proto
}

// IterResult creates an iterator result object {value, done}.
func (r *Realm) IterResult(value sobek.Value, done bool) *sobek.Object {
	o := r.VM.NewObject()
	must(o.Set("value", AnyValue(value)))
	must(o.Set("done", done))
	return o
}

// NewPairIterator creates a default iterator object for a pair iterable
// interface; pairs is asked for the current value pairs at each step.
func (r *Realm) NewPairIterator(iface string, kind IteratorKind, pairs func() []Pair) *sobek.Object {
	obj := r.VM.CreateObject(r.iteratorPrototype(iface))
	r.setSlot(obj, &pairIterState{iface: iface, kind: kind, pairs: pairs}, nil)
	return obj
}

// PairForEach implements forEach of pair iterable declarations.
func (r *Realm) PairForEach(this sobek.Value, call sobek.FunctionCall, pairs func() []Pair) sobek.Value {
	cb, ok := sobek.AssertFunction(Arg(call, 0))
	if !ok {
		r.ThrowTypeError("Failed to execute 'forEach': parameter 1 is not of type 'Function'.")
	}
	thisArg := AnyValue(Arg(call, 1))
	for i := 0; ; i++ {
		ps := pairs()
		if i >= len(ps) {
			break
		}
		if _, err := cb(thisArg, ps[i].Value, ps[i].Key, this); err != nil {
			r.Throw(err)
		}
	}
	return sobek.Undefined()
}

// AsyncIterator is the Go side of an async iterable declaration's
// iterator: Next returns a promise for the next value, fulfilled with
// AsyncIterationEnd's result when the iteration is over.
type AsyncIterator interface {
	// Next implements "get the next iteration result": a promise fulfilled
	// with an iterator result object (see Realm.IterResult).
	Next(r *Realm) *Promise
	// Return implements "asynchronous iterator return" (may be nil).
	Return(r *Realm, value sobek.Value) *Promise
}

type asyncIterState struct {
	iface   string
	it      AsyncIterator
	ongoing *Promise
	done    bool
}

// asyncIteratorPrototype builds the "iface AsyncIterator" prototype.
func (r *Realm) asyncIteratorPrototype(iface string) *sobek.Object {
	key := iface + " AsyncIterator"
	if r.iterProtos == nil {
		r.iterProtos = map[string]*sobek.Object{}
	}
	if p, ok := r.iterProtos[key]; ok {
		return p
	}
	if r.asyncIterProto == nil {
		// %AsyncIteratorPrototype%: an object whose @@asyncIterator
		// returns this.
		r.asyncIterProto = r.VM.NewObject()
		self := r.NewFunction("[Symbol.asyncIterator]", 0, func(call sobek.FunctionCall) sobek.Value { return call.This })
		must(r.asyncIterProto.DefineDataPropertySymbol(r.Symbol("asyncIterator"), self, sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_FALSE))
	}
	proto := r.VM.CreateObject(r.asyncIterProto)
	state := func(this sobek.Value) *asyncIterState {
		s := r.getSlot(this)
		if s != nil {
			if st, ok := s.impl.(*asyncIterState); ok && st.iface == iface {
				return st
			}
		}
		return nil
	}
	next := r.NewFunction("next", 0, func(call sobek.FunctionCall) sobek.Value {
		st := state(call.This)
		if st == nil {
			return r.PromiseRejectedWith(r.NewError(TypeError, IllegalInvocation)).Object
		}
		step := func() *Promise {
			if st.done {
				return r.PromiseResolvedWith(r.IterResult(sobek.Undefined(), true))
			}
			p := st.it.Next(r)
			return p.React(func(v sobek.Value) (sobek.Value, error) {
				if o, ok := v.(*sobek.Object); ok && o.Get("done").ToBoolean() {
					st.done = true
				}
				return v, nil
			}, func(reason sobek.Value) (sobek.Value, error) {
				st.done = true
				return nil, &JSError{Value: reason}
			})
		}
		var p *Promise
		if st.ongoing != nil {
			p = st.ongoing.React(func(sobek.Value) (sobek.Value, error) { return step().Object, nil },
				func(sobek.Value) (sobek.Value, error) { return step().Object, nil })
		} else {
			p = step()
		}
		st.ongoing = p
		return p.Object
	})
	ret := r.NewFunction("return", 1, func(call sobek.FunctionCall) sobek.Value {
		st := state(call.This)
		if st == nil {
			return r.PromiseRejectedWith(r.NewError(TypeError, IllegalInvocation)).Object
		}
		v := AnyValue(Arg(call, 0))
		if st.done {
			return r.PromiseResolvedWith(r.IterResult(v, true)).Object
		}
		st.done = true
		p := st.it.Return(r, v)
		if p == nil {
			return r.PromiseResolvedWith(r.IterResult(v, true)).Object
		}
		return p.React(func(sobek.Value) (sobek.Value, error) { return r.IterResult(v, true), nil }, nil).Object
	})
	must(proto.DefineDataProperty("next", next, sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_TRUE))
	must(proto.DefineDataProperty("return", ret, sobek.FLAG_TRUE, sobek.FLAG_TRUE, sobek.FLAG_TRUE))
	must(proto.DefineDataPropertySymbol(sobek.SymToStringTag, StringValue(key), sobek.FLAG_FALSE, sobek.FLAG_TRUE, sobek.FLAG_FALSE))
	r.iterProtos[key] = proto
	return proto
}

// NewAsyncIterator creates a default asynchronous iterator object.
func (r *Realm) NewAsyncIterator(iface string, it AsyncIterator) *sobek.Object {
	obj := r.VM.CreateObject(r.asyncIteratorPrototype(iface))
	r.setSlot(obj, &asyncIterState{iface: iface, it: it}, nil)
	return obj
}

// ArrayIteratorMember returns %Array.prototype%[name] (the functions value
// iterable declarations share with arrays).
func (r *Realm) ArrayIteratorMember(name string) sobek.Value {
	ap := r.VM.GlobalObject().Get("Array").(*sobek.Object).Get("prototype").(*sobek.Object)
	if name == "@@iterator" {
		return ap.GetSymbol(sobek.SymIterator)
	}
	return ap.Get(name)
}

// KV is one key/value pair of a pair iterable or maplike declaration, as
// the Go implementation supplies it.
type KV[K any, V any] struct {
	Key   K
	Value V
}
