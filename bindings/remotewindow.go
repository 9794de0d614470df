package bindings

import (
	"strconv"

	"github.com/gowebengine/weblocks/bindings/webidl"
	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

// RemoteWindowHooks serve the WindowProxy of a window this realm cannot
// reach synchronously (a window of another agent, hence of another site,
// hence cross-origin): the embedder's answers for HTML's cross-origin
// Window properties. Every hook runs on this realm's event loop and
// returns values of this realm; nil hooks give a window with no relatives
// (top and parent are the proxy itself, opener null, length 0).
type RemoteWindowHooks struct {
	// PostMessage is the window post message steps towards the window,
	// with the arguments converted (targetOrigin "/" is this realm's
	// origin). It may panic with a value of this realm (a DataCloneError).
	PostMessage func(message sobek.Value, targetOrigin string, transfer []*sobek.Object) error
	// Closed reports whether the window's navigable is gone.
	Closed func() bool
	// Close closes the window (when script may close it).
	Close func()
	// Top, Parent and Opener give those windows; nil (or a nil result)
	// means the proxy itself for top and parent, null for opener.
	Top, Parent, Opener func() sobek.Value
	// Length is the number of the window's child navigables; Child its
	// i-th one.
	Length func() int
	Child  func(i int) sobek.Value
	// Navigate navigates the window to url (the USVString script gave,
	// which the hook parses against the caller's API base URL, throwing
	// its SyntaxError), as the href setter of its Location (replace
	// false; also the window's location setter) or Location.replace()
	// (true) do. Nil: the window has no location (a SecurityError).
	Navigate func(url string, replace bool)
}

// remoteWindowKeys are CrossOriginProperties(Window)
// (https://html.spec.whatwg.org/#crossoriginproperties-(-o-)) but
// location, which is one when the window can be navigated.
var remoteWindowKeys = []string{"window", "self", "close", "closed", "focus", "blur", "frames", "length", "top", "opener", "parent", "postMessage"}

// NewRemoteWindowProxy makes the WindowProxy of a remote window: an exotic
// object with HTML's cross-origin semantics
// (https://html.spec.whatwg.org/#windowproxy-get and the other internal
// methods, for an object that is never same origin): the cross-origin
// properties answer through the hooks, "then", @@toStringTag, @@hasInstance
// and @@isConcatSpreadable are undefined, [[GetPrototypeOf]] is null,
// [[SetPrototypeOf]] and [[PreventExtensions]] fail, and every other
// access throws a SecurityError DOMException of this realm.
func (r *Realm) NewRemoteWindowProxy(h RemoteWindowHooks) *sobek.Object {
	vm := r.vm
	var proxy *sobek.Object
	deny := func(what string) {
		panic(r.NewDOMException(dom.SecurityError, "Blocked a frame from accessing a cross-origin frame ("+what+")."))
	}
	method := func(name string, length int, fn func(sobek.FunctionCall) sobek.Value) sobek.Value {
		f := vm.ToValue(fn).(*sobek.Object)
		_ = f.DefineDataProperty("name", vm.ToValue(name), sobek.FLAG_FALSE, sobek.FLAG_FALSE, sobek.FLAG_TRUE)
		_ = f.DefineDataProperty("length", vm.ToValue(length), sobek.FLAG_FALSE, sobek.FLAG_FALSE, sobek.FLAG_TRUE)
		return f
	}
	postMessage := method("postMessage", 1, func(call sobek.FunctionCall) sobek.Value {
		if len(call.Arguments) == 0 {
			panic(r.idl.NewError(webidl.TypeError, "Failed to execute 'postMessage' on 'Window': 1 argument required, but only 0 present."))
		}
		// postMessage(message, targetOrigin, transfer) or
		// postMessage(message, options): Web IDL's overload resolution
		// picks the dictionary form for undefined, null and objects.
		targetOrigin := "/"
		var transfer []*sobek.Object
		switch opt := call.Argument(1).(type) {
		case *sobek.Object:
			if v := opt.Get("targetOrigin"); v != nil && !sobek.IsUndefined(v) {
				targetOrigin = string(r.idl.ToUSVString(v))
			}
			transfer = r.objectSequence(opt.Get("transfer"))
		default:
			if !sobek.IsUndefined(opt) && !sobek.IsNull(opt) {
				targetOrigin = string(r.idl.ToUSVString(opt))
				transfer = r.objectSequence(call.Argument(2))
			}
		}
		if h.PostMessage != nil {
			if err := h.PostMessage(call.Argument(0), targetOrigin, transfer); err != nil {
				r.idl.Throw(err)
			}
		}
		return sobek.Undefined()
	})
	closeFn := method("close", 0, func(sobek.FunctionCall) sobek.Value {
		if h.Close != nil {
			h.Close()
		}
		return sobek.Undefined()
	})
	noop := func(name string) sobek.Value {
		return method(name, 0, func(sobek.FunctionCall) sobek.Value { return sobek.Undefined() })
	}
	focus, blur := noop("focus"), noop("blur")
	var location *sobek.Object
	if h.Navigate != nil {
		location = r.newRemoteLocation(h.Navigate, deny, method)
	}
	relative := func(f func() sobek.Value, self bool) sobek.Value {
		if f != nil {
			if v := f(); v != nil {
				return v
			}
		}
		if self {
			return proxy
		}
		return sobek.Null()
	}
	length := func() int {
		if h.Length != nil {
			return h.Length()
		}
		return 0
	}
	// get is CrossOriginGet for a string key; ok false: not a
	// cross-origin property.
	get := func(key string) (sobek.Value, bool) {
		switch key {
		case "window", "self", "frames":
			return proxy, true
		case "closed":
			return vm.ToValue(h.Closed != nil && h.Closed()), true
		case "close":
			return closeFn, true
		case "focus":
			return focus, true
		case "blur":
			return blur, true
		case "postMessage":
			return postMessage, true
		case "length":
			return vm.ToValue(length()), true
		case "top":
			return relative(h.Top, true), true
		case "parent":
			return relative(h.Parent, true), true
		case "opener":
			return relative(h.Opener, false), true
		case "then":
			return sobek.Undefined(), true
		case "location":
			if location != nil {
				return location, true
			}
		}
		if i, err := strconv.Atoi(key); err == nil && i >= 0 && strconv.Itoa(i) == key && i < length() && h.Child != nil {
			if v := h.Child(i); v != nil {
				return v, true
			}
		}
		return nil, false
	}
	isAccessor := func(key string) bool {
		switch key {
		case "window", "self", "frames", "closed", "length", "top", "parent", "opener", "location":
			return true
		}
		return false
	}
	// set is CrossOriginSet: only location has a setter (it navigates,
	// as [PutForwards=href] says).
	set := func(key string, v sobek.Value) {
		if key != "location" || location == nil {
			deny(key)
		}
		h.Navigate(string(r.idl.ToUSVString(v)), false)
	}
	safeSymbol := func(s *sobek.Symbol) bool {
		return s == sobek.SymToStringTag || s == sobek.SymHasInstance || s == sobek.SymIsConcatSpreadable
	}
	descriptor := func(key string) sobek.PropertyDescriptor {
		v, ok := get(key)
		if !ok {
			deny(key)
		}
		if isAccessor(key) {
			getter := vm.ToValue(func(sobek.FunctionCall) sobek.Value { v, _ := get(key); return v })
			d := sobek.PropertyDescriptor{Getter: getter, Configurable: sobek.FLAG_TRUE, Enumerable: sobek.FLAG_FALSE}
			if key == "location" {
				d.Setter = vm.ToValue(func(call sobek.FunctionCall) sobek.Value { set(key, call.Argument(0)); return sobek.Undefined() })
			}
			return d
		}
		return sobek.PropertyDescriptor{Value: v, Writable: sobek.FLAG_FALSE, Configurable: sobek.FLAG_TRUE, Enumerable: sobek.FLAG_FALSE}
	}
	target := vm.NewObject()
	_ = target.SetPrototype(nil)
	p := vm.NewProxy(target, denyWrites(deny, &sobek.ProxyTrapConfig{
		GetPrototypeOf: func(*sobek.Object) *sobek.Object { return nil },
		SetPrototypeOf: func(_ *sobek.Object, proto *sobek.Object) bool { return proto == nil },
		IsExtensible:   func(*sobek.Object) bool { return true },
		PreventExtensions: func(*sobek.Object) bool {
			return false
		},
		Get: func(_ *sobek.Object, key string, _ sobek.Value) sobek.Value {
			v, ok := get(key)
			if !ok {
				deny(key)
			}
			return v
		},
		GetIdx: func(_ *sobek.Object, i int, _ sobek.Value) sobek.Value {
			v, ok := get(strconv.Itoa(i))
			if !ok {
				deny(strconv.Itoa(i))
			}
			return v
		},
		GetSym: func(_ *sobek.Object, s *sobek.Symbol, _ sobek.Value) sobek.Value {
			if !safeSymbol(s) {
				deny(s.String())
			}
			return sobek.Undefined()
		},
		Has: func(_ *sobek.Object, key string) bool {
			if _, ok := get(key); !ok {
				deny(key)
			}
			return true
		},
		HasIdx: func(_ *sobek.Object, i int) bool {
			if _, ok := get(strconv.Itoa(i)); !ok {
				deny(strconv.Itoa(i))
			}
			return true
		},
		HasSym: func(_ *sobek.Object, s *sobek.Symbol) bool {
			if !safeSymbol(s) {
				deny(s.String())
			}
			return true
		},
		GetOwnPropertyDescriptor: func(_ *sobek.Object, key string) sobek.PropertyDescriptor {
			return descriptor(key)
		},
		GetOwnPropertyDescriptorIdx: func(_ *sobek.Object, i int) sobek.PropertyDescriptor {
			return descriptor(strconv.Itoa(i))
		},
		GetOwnPropertyDescriptorSym: func(_ *sobek.Object, s *sobek.Symbol) sobek.PropertyDescriptor {
			if !safeSymbol(s) {
				deny(s.String())
			}
			return sobek.PropertyDescriptor{Value: sobek.Undefined(), Writable: sobek.FLAG_FALSE, Configurable: sobek.FLAG_TRUE, Enumerable: sobek.FLAG_FALSE}
		},
		Set: func(_ *sobek.Object, key string, v, _ sobek.Value) bool {
			set(key, v)
			return true
		},
		OwnKeys: func(*sobek.Object) *sobek.Object {
			var keys []any
			for i := range length() {
				keys = append(keys, strconv.Itoa(i))
			}
			for _, k := range remoteWindowKeys {
				keys = append(keys, k)
			}
			if location != nil {
				keys = append(keys, "location")
			}
			keys = append(keys, "then", sobek.SymToStringTag, sobek.SymHasInstance, sobek.SymIsConcatSpreadable)
			return vm.NewArray(keys...)
		},
	}))
	proxy = vm.ToValue(p).(*sobek.Object)
	return proxy
}

// objectSequence converts a sequence<object> argument (undefined and null:
// empty), throwing this realm's TypeError for anything else.
func (r *Realm) objectSequence(v sobek.Value) []*sobek.Object {
	if v == nil || sobek.IsUndefined(v) || sobek.IsNull(v) {
		return nil
	}
	var out []*sobek.Object
	r.idl.ToSequence(v, func(e sobek.Value) {
		o, ok := e.(*sobek.Object)
		if !ok {
			panic(r.idl.NewError(webidl.TypeError, "Failed to execute 'postMessage' on 'Window': The transfer list contains a value that is not an object."))
		}
		out = append(out, o)
	})
	return out
}

// newRemoteLocation is the Location object of a remote window, as script
// of another origin sees it (https://html.spec.whatwg.org/#location-getownproperty
// and the other internal methods, never same origin): its cross-origin
// properties are the href setter and replace(), which navigate the window
// (navigate); "then", @@toStringTag, @@hasInstance and
// @@isConcatSpreadable are undefined; everything else, reading href
// included, throws a SecurityError DOMException of this realm.
func (r *Realm) newRemoteLocation(navigate func(string, bool), deny func(string), method func(string, int, func(sobek.FunctionCall) sobek.Value) sobek.Value) *sobek.Object {
	vm := r.vm
	replace := method("replace", 1, func(call sobek.FunctionCall) sobek.Value {
		if len(call.Arguments) == 0 {
			panic(r.idl.NewError(webidl.TypeError, "Failed to execute 'replace' on 'Location': 1 argument required, but only 0 present."))
		}
		navigate(string(r.idl.ToUSVString(call.Argument(0))), true)
		return sobek.Undefined()
	})
	setHref := func(v sobek.Value) { navigate(string(r.idl.ToUSVString(v)), false) }
	hrefSetter := vm.ToValue(func(call sobek.FunctionCall) sobek.Value { setHref(call.Argument(0)); return sobek.Undefined() })
	get := func(key string) sobek.Value {
		switch key {
		case "replace":
			return replace
		case "then":
			return sobek.Undefined()
		}
		deny(key) // href has no cross-origin getter
		return nil
	}
	safeSymbol := func(s *sobek.Symbol) bool {
		return s == sobek.SymToStringTag || s == sobek.SymHasInstance || s == sobek.SymIsConcatSpreadable
	}
	descriptor := func(key string) sobek.PropertyDescriptor {
		switch key {
		case "href":
			return sobek.PropertyDescriptor{Setter: hrefSetter, Configurable: sobek.FLAG_TRUE, Enumerable: sobek.FLAG_FALSE}
		case "replace", "then":
			return sobek.PropertyDescriptor{Value: get(key), Writable: sobek.FLAG_FALSE, Configurable: sobek.FLAG_TRUE, Enumerable: sobek.FLAG_FALSE}
		}
		deny(key)
		return sobek.PropertyDescriptor{}
	}
	target := vm.NewObject()
	_ = target.SetPrototype(nil)
	p := vm.NewProxy(target, denyWrites(deny, &sobek.ProxyTrapConfig{
		GetPrototypeOf:    func(*sobek.Object) *sobek.Object { return nil },
		SetPrototypeOf:    func(_ *sobek.Object, proto *sobek.Object) bool { return proto == nil },
		IsExtensible:      func(*sobek.Object) bool { return true },
		PreventExtensions: func(*sobek.Object) bool { return false },
		Get:               func(_ *sobek.Object, key string, _ sobek.Value) sobek.Value { return get(key) },
		GetIdx:            func(_ *sobek.Object, i int, _ sobek.Value) sobek.Value { return get(strconv.Itoa(i)) },
		GetSym: func(_ *sobek.Object, s *sobek.Symbol, _ sobek.Value) sobek.Value {
			if !safeSymbol(s) {
				deny(s.String())
			}
			return sobek.Undefined()
		},
		Has: func(_ *sobek.Object, key string) bool {
			descriptor(key)
			return true
		},
		HasIdx: func(_ *sobek.Object, i int) bool {
			deny(strconv.Itoa(i))
			return false
		},
		HasSym: func(_ *sobek.Object, s *sobek.Symbol) bool {
			if !safeSymbol(s) {
				deny(s.String())
			}
			return true
		},
		GetOwnPropertyDescriptor: func(_ *sobek.Object, key string) sobek.PropertyDescriptor { return descriptor(key) },
		GetOwnPropertyDescriptorIdx: func(_ *sobek.Object, i int) sobek.PropertyDescriptor {
			return descriptor(strconv.Itoa(i))
		},
		GetOwnPropertyDescriptorSym: func(_ *sobek.Object, s *sobek.Symbol) sobek.PropertyDescriptor {
			if !safeSymbol(s) {
				deny(s.String())
			}
			return sobek.PropertyDescriptor{Value: sobek.Undefined(), Writable: sobek.FLAG_FALSE, Configurable: sobek.FLAG_TRUE, Enumerable: sobek.FLAG_FALSE}
		},
		Set: func(_ *sobek.Object, key string, v, _ sobek.Value) bool {
			if key != "href" {
				deny(key)
			}
			setHref(v)
			return true
		},
		OwnKeys: func(*sobek.Object) *sobek.Object {
			return vm.NewArray("href", "replace", "then", sobek.SymToStringTag, sobek.SymHasInstance, sobek.SymIsConcatSpreadable)
		},
	}))
	return vm.ToValue(p).(*sobek.Object)
}

// denyWrites sets the traps of a cross-origin object that always throw
// (deny): defining and deleting any property, setting an index or a
// symbol. It returns c.
func denyWrites(deny func(string), c *sobek.ProxyTrapConfig) *sobek.ProxyTrapConfig {
	c.SetIdx = func(_ *sobek.Object, i int, _, _ sobek.Value) bool {
		deny(strconv.Itoa(i))
		return false
	}
	c.SetSym = func(_ *sobek.Object, s *sobek.Symbol, _, _ sobek.Value) bool {
		deny(s.String())
		return false
	}
	c.DefineProperty = func(_ *sobek.Object, key string, _ sobek.PropertyDescriptor) bool {
		deny(key)
		return false
	}
	c.DefinePropertyIdx = func(_ *sobek.Object, i int, _ sobek.PropertyDescriptor) bool {
		deny(strconv.Itoa(i))
		return false
	}
	c.DefinePropertySym = func(_ *sobek.Object, s *sobek.Symbol, _ sobek.PropertyDescriptor) bool {
		deny(s.String())
		return false
	}
	c.DeleteProperty = func(_ *sobek.Object, key string) bool {
		deny(key)
		return false
	}
	c.DeletePropertyIdx = func(_ *sobek.Object, i int) bool {
		deny(strconv.Itoa(i))
		return false
	}
	c.DeletePropertySym = func(_ *sobek.Object, s *sobek.Symbol) bool {
		deny(s.String())
		return false
	}
	return c
}
