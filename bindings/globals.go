package bindings

import (
	"net/url"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// envInfo is what the realm's globals report about its environment
// settings object.
type envInfo struct {
	url    *url.URL // the creation URL
	origin string   // the serialized origin ("null" when opaque)
	secure bool     // is a secure context
}

// installEnvironmentGlobals defines the WindowOrWorkerGlobalScope and
// Window/WorkerGlobalScope members the realm provides by hand — self,
// window, location, origin, isSecureContext, performance — unless the
// generated bindings already defined them on the global.
func (r *Realm) installEnvironmentGlobals(info envInfo) {
	g := r.global
	vm := r.vm
	has := func(name string) bool {
		for _, k := range g.GetOwnPropertyNames() {
			if k == name {
				return true
			}
		}
		return false
	}
	getter := func(name string, get func() goja.Value) *goja.Object {
		return r.newFunction("get "+name, 0, func(call goja.FunctionCall) goja.Value {
			r.checkGlobalThis(call.This)
			return get()
		})
	}
	// [Replaceable] attributes get a setter that redefines the property
	// as a data property on the global.
	replaceable := func(name string, get func() goja.Value) {
		if has(name) {
			return
		}
		set := r.newFunction("set "+name, 1, func(call goja.FunctionCall) goja.Value {
			r.checkGlobalThis(call.This)
			_ = g.DefineDataProperty(name, call.Argument(0), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
			return goja.Undefined()
		})
		_ = g.DefineAccessorProperty(name, getter(name, get), set, goja.FLAG_TRUE, goja.FLAG_TRUE)
	}
	readonly := func(name string, get func() goja.Value) {
		if !has(name) {
			_ = g.DefineAccessorProperty(name, getter(name, get), nil, goja.FLAG_TRUE, goja.FLAG_TRUE)
		}
	}
	self := func() goja.Value { return g }
	switch r.kind {
	case WindowGlobal:
		// [Replaceable] readonly attribute WindowProxy self;
		replaceable("self", self)
		// [LegacyUnforgeable] readonly attribute WindowProxy window;
		if !has("window") {
			_ = g.DefineAccessorProperty("window", getter("window", self), nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
		}
	default:
		// readonly attribute WorkerGlobalScope self;
		readonly("self", self)
	}
	// [Replaceable] readonly attribute USVString origin;
	replaceable("origin", func() goja.Value { return vm.ToValue(info.origin) })
	// readonly attribute boolean isSecureContext;
	readonly("isSecureContext", func() goja.Value { return vm.ToValue(info.secure) })
	// [Replaceable] readonly attribute Performance performance;
	perf := r.newPerformance()
	replaceable("performance", func() goja.Value { return perf })
	if info.url != nil {
		loc := r.newLocation(info.url)
		if r.kind == WindowGlobal {
			// [PutForwards=href, LegacyUnforgeable] readonly attribute
			// Location location; (navigation is not supported: the
			// setter throws.)
			if !has("location") {
				_ = g.DefineAccessorProperty("location", getter("location", func() goja.Value { return loc }), nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
			}
		} else {
			readonly("location", func() goja.Value { return loc })
		}
	}
}

// newPerformance creates the realm's Performance object: now(),
// timeOrigin and toJSON().
func (r *Realm) newPerformance() *goja.Object {
	vm := r.vm
	proto := vm.NewObject()
	ifaceName := "Performance"
	if !r.hasGlobal(ifaceName) {
		r.defineIllegalInterface(ifaceName, proto)
	}
	wall := time.Now()
	origin := float64(wall.UnixNano()) / 1e6
	now := func() float64 {
		d := r.host.now() - r.timeOrigin
		// Coarsen to 5 microseconds (the resolution of isolated contexts).
		d = d.Truncate(5 * time.Microsecond)
		return float64(d) / float64(time.Millisecond)
	}
	r.defineMethod(proto, "now", 0, func(goja.FunctionCall) goja.Value { return vm.ToValue(now()) })
	tog := r.newFunction("get timeOrigin", 0, func(goja.FunctionCall) goja.Value { return vm.ToValue(origin) })
	_ = proto.DefineAccessorProperty("timeOrigin", tog, nil, goja.FLAG_TRUE, goja.FLAG_TRUE)
	r.defineMethod(proto, "toJSON", 0, func(goja.FunctionCall) goja.Value {
		o := vm.NewObject()
		_ = o.Set("timeOrigin", origin)
		return o
	})
	_ = proto.DefineDataPropertySymbol(goja.SymToStringTag, vm.ToValue(ifaceName), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return vm.CreateObject(proto)
}

// newLocation creates a Location (Window) or WorkerLocation (worker)
// object for u with the URL decomposition getters and a stringifier.
func (r *Realm) newLocation(u *url.URL) *goja.Object {
	vm := r.vm
	name := "WorkerLocation"
	if r.kind == WindowGlobal {
		name = "Location"
	}
	proto := vm.NewObject()
	if !r.hasGlobal(name) {
		r.defineIllegalInterface(name, proto)
	}
	_ = proto.DefineDataPropertySymbol(goja.SymToStringTag, vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	loc := vm.CreateObject(proto)
	// Location's members are [LegacyUnforgeable]: own, non-configurable
	// properties of the instance. WorkerLocation's are on the prototype.
	target, configurable := proto, goja.FLAG_TRUE
	if r.kind == WindowGlobal {
		target, configurable = loc, goja.FLAG_FALSE
	}
	parts := urlParts(u)
	for _, k := range []string{"href", "origin", "protocol", "host", "hostname", "port", "pathname", "search", "hash"} {
		v := parts[k]
		g := r.newFunction("get "+k, 0, func(goja.FunctionCall) goja.Value { return vm.ToValue(v) })
		_ = target.DefineAccessorProperty(k, g, nil, configurable, goja.FLAG_TRUE)
	}
	href := parts["href"]
	str := r.newFunction("toString", 0, func(goja.FunctionCall) goja.Value { return vm.ToValue(href) })
	_ = target.DefineDataProperty("toString", str, configurable, configurable, goja.FLAG_TRUE)
	return loc
}

// urlParts returns the URL Standard's getters of u (href, origin,
// protocol, host, hostname, port, pathname, search, hash).
func urlParts(u *url.URL) map[string]string {
	p := map[string]string{}
	p["href"] = u.String()
	p["protocol"] = u.Scheme + ":"
	p["host"] = u.Host
	p["hostname"] = u.Hostname()
	p["port"] = u.Port()
	path := u.EscapedPath()
	if u.Opaque != "" {
		path = u.Opaque
	}
	p["pathname"] = path
	if u.RawQuery != "" || u.ForceQuery {
		p["search"] = "?" + u.RawQuery
	} else {
		p["search"] = ""
	}
	if frag := u.EscapedFragment(); frag != "" {
		p["hash"] = "#" + frag
	} else {
		p["hash"] = ""
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "ws", "wss", "ftp":
		p["origin"] = u.Scheme + "://" + u.Host
	default:
		p["origin"] = "null"
	}
	return p
}

// hasGlobal reports whether the global object has an own property name.
func (r *Realm) hasGlobal(name string) bool {
	for _, k := range r.global.GetOwnPropertyNames() {
		if k == name {
			return true
		}
	}
	return false
}

// defineIllegalInterface defines a minimal interface object for a
// hand-written interface: calling or constructing it throws "Illegal
// constructor"; its prototype property is proto.
func (r *Realm) defineIllegalInterface(name string, proto *goja.Object) {
	vm := r.vm
	ctor := r.newFunction(name, 0, func(goja.FunctionCall) goja.Value {
		panic(vm.NewTypeError("Illegal constructor"))
	})
	_ = ctor.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	_ = proto.DefineDataProperty("constructor", ctor, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	r.DefineGlobal(name, ctor)
}
