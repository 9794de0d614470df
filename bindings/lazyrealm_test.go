package bindings

import (
	"testing"

	"github.com/grafana/sobek"
)

// windowRealm opens a window whose realm creates its interface objects
// lazily (the default) or eagerly.
func (w *world) windowRealm(rawURL string, eager bool) *jsRealm {
	w.t.Helper()
	doc, err := w.ua.OpenWindowURL(rawURL)
	if err != nil {
		w.t.Fatal(err)
	}
	return w.realmWith(doc.EnvironmentSettingsObject(), WindowGlobal, eager)
}

// pending reports whether the realm has not created the named interface.
func (j *jsRealm) pending(name string) bool {
	j.w.t.Helper()
	var p bool
	j.r.QueueTask(func(*sobek.Runtime) { p = j.r.idl.Pending(name) })
	j.w.settle()
	return p
}

// TestGlobalProxyIdentity: script meets one global object, the proxy,
// whichever way it reaches it.
func TestGlobalProxyIdentity(t *testing.T) {
	w := newWorld(t)
	for _, eager := range []bool{false, true} {
		j := w.windowRealm("https://example.com/", eager)
		for _, expr := range []string{
			`window === globalThis`,
			`self === this`,
			`(function () { return this })() === window`,
			`window.window === window && self.self === window && frames === window`,
			`parent === window && top === window`,
			`Function("return this")() === window`,
			`(0, eval)("this") === window`,
			`window instanceof Window && Object.getPrototypeOf(window) === Window.prototype`,
			`Object.prototype.toString.call(window) === "[object Window]"`,
			`addEventListener.call(window, "x", () => {}) === undefined`,
			`Window.prototype.addEventListener.call(undefined, "x", () => {}) === undefined`,
			`EventTarget.prototype.addEventListener.call(window, "x", () => {}) === undefined`,
			`(() => { let t; addEventListener("foo", e => { t = [e.currentTarget, e.target, this] }); dispatchEvent(new Event("foo")); return t.every(v => v === window) })()`,
			`Object.getOwnPropertyDescriptor(window, "window").get === Object.getOwnPropertyDescriptor(window, "window").get`,
			`Object.getOwnPropertyDescriptor(window, "window").get.call(window) === window`,
			`(() => { const d = Object.getOwnPropertyDescriptor(window, "document"); Object.defineProperty(window, "document", d); return d.configurable === false && d.get.call(undefined) === document })()`,
			`(() => { try { Object.defineProperty(window, "window", { get() { return 1 } }); return false } catch (e) { return e instanceof TypeError } })()`,
			`(() => { Object.defineProperty(window, "g", { get() { return this }, configurable: true }); return g === window && window.g === window })()`,
			`(() => { try { undefinedName; return false } catch (e) { return e instanceof ReferenceError } })()`,
			`typeof undefinedName === "undefined" && !("undefinedName" in window)`,
		} {
			if got := j.eval(expr); got != "true" {
				t.Errorf("eager=%v: %s = %s, want true", eager, expr, got)
			}
		}
		if !eager {
			// [Global] objects are immutable prototype exotic objects
			// (the lazy realm's global must keep its prototype, which
			// resolves pending names).
			expr := `Reflect.setPrototypeOf(window, Window.prototype) && !Reflect.setPrototypeOf(window, {}) && Object.getPrototypeOf(window) === Window.prototype && typeof Blob`
			if got := j.eval(expr); got != "function" {
				t.Errorf("%s = %s, want function", expr, got)
			}
		}
		// Timer callbacks and top-level declarations see the same global.
		j.async(`var v1 = 1; function f1() {} setTimeout(function () { globalThis.timerThis = this === window && window.v1 === 1 && typeof window.f1 === "function"; done() }, 0)`)
		if got := j.eval(`timerThis`); got != "true" {
			t.Errorf("eager=%v: timer this/top-level bindings = %s", eager, got)
		}
	}
	wk := w.worker(w.window("https://example.com/"), "https://example.com/w.js")
	for _, expr := range []string{
		`self === globalThis && self === this`,
		`(function () { return this })() === self`,
		`self instanceof DedicatedWorkerGlobalScope`,
		`(() => { let t; addEventListener("foo", e => { t = e.currentTarget }); dispatchEvent(new Event("foo")); return t === self })()`,
		`typeof Blob === "function" && "Blob" in self`,
	} {
		if got := wk.eval(expr); got != "true" {
			t.Errorf("worker: %s = %s, want true", expr, got)
		}
	}
}

// TestLazyInterfaceObjects: a fresh realm has not created Blob, yet every
// way script can observe the global property behaves as if it had; each
// script gives the same result in an eager realm.
func TestLazyInterfaceObjects(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"in", `"Blob" in window`, "true"},
		{"hasOwnProperty", `window.hasOwnProperty("Blob") && Object.hasOwn(window, "Blob")`, "true"},
		{"descriptor", `JSON.stringify(Object.getOwnPropertyDescriptor(window, "Blob"), (k, v) => typeof v === "function" ? v.name : v)`,
			`{"value":"Blob","writable":true,"enumerable":false,"configurable":true}`},
		{"get", `typeof Blob + typeof window.Blob + (globalThis["Blob"] === Blob)`, "functionfunctiontrue"},
		{"derived get", `Object.create(window).Blob === Blob`, "true"},
		{"prototype get", `Window.prototype.Blob === undefined && !("Blob" in Window.prototype)`, "true"},
		{"delete", `[delete window.Blob, typeof Blob, "Blob" in window, Object.getOwnPropertyNames(window).includes("Blob"), typeof new Response("x").blob].join()`,
			"true,undefined,false,false,function"},
		{"delete parent", `[delete window.CharacterData, typeof CharacterData, typeof Comment, Object.getPrototypeOf(Comment).name, new Comment("x").data, typeof CharacterData].join()`,
			"true,undefined,function,CharacterData,x,undefined"},
		{"delete child", `[delete window.Comment, typeof CharacterData, typeof Comment, document.createComment("y") instanceof CharacterData, typeof Comment].join()`, "true,function,undefined,true,undefined"},
		{"assign", `window.Blob = 1; [Blob, JSON.stringify(Object.getOwnPropertyDescriptor(window, "Blob"))].join()`,
			`1,{"value":1,"writable":true,"enumerable":false,"configurable":true}`},
		{"sloppy assign", `Blob = 2; window.Blob`, "2"},
		{"strict assign", `"use strict"; Blob = 3; window.Blob`, "3"},
		{"defineProperty", `Object.defineProperty(window, "Blob", { enumerable: true }); [typeof Blob, Object.keys(window).includes("Blob")].join()`, "function,true"},
		{"var keeps", `var Blob; typeof Blob`, "function"},
		{"function replaces", `function Blob() { return 7 } Blob()`, "7"},
		{"keys", `[Object.keys(window).includes("Blob"), Object.getOwnPropertyNames(window).includes("Blob"), (() => { for (const k in window) if (k === "Blob") return true; return false })()].join()`,
			"false,true,false"},
		{"names", `Object.getOwnPropertyNames(window).sort().join()`, ""},
		{"prototype chain", `Object.getPrototypeOf(Comment) === CharacterData && Object.getPrototypeOf(Comment.prototype) === CharacterData.prototype && Comment.prototype.constructor === Comment && Object.getPrototypeOf(CharacterData.prototype) === Node.prototype`, "true"},
		{"alias", `webkitURL === URL && Object.getOwnPropertyDescriptor(window, "webkitURL").enumerable === false`, "true"},
		{"preventExtensions", `Object.preventExtensions(window); [Object.isExtensible(window), typeof Headers, "Blob" in window].join()`, "false,function,true"},
		{"with", `with (window) { typeof Blob }`, "function"},
		{"prototype object", `[Window.prototype.constructor === Window, Object.create(Window.prototype).Blob, "Blob" in Object.create(Window.prototype), Object.prototype.toString.call(Window.prototype), typeof Window.prototype.addEventListener].join()`,
			"true,,false,[object Window],function"},
		{"user proxy", `new Proxy(window, {}).Blob === Blob && Reflect.get(window, "Blob") === Blob`, "true"},
		{"new global", `newGlobal = 5; [window.newGlobal, Object.getOwnPropertyDescriptor(window, "newGlobal").enumerable, delete window.newGlobal, typeof newGlobal].join()`, "5,true,true,undefined"},
		{"inherited member", `[typeof addEventListener, "addEventListener" in window, window.hasOwnProperty("addEventListener"), typeof toString].join()`, "function,true,false,function"},
		{"member descriptor", `JSON.stringify(Object.getOwnPropertyDescriptor(window, "onload"), (k, v) => typeof v === "function" ? v.name : v)`,
			`{"get":"get onload","set":"set onload","enumerable":true,"configurable":true}`},
		{"member delete", `[delete window.onload, typeof onload, "onload" in window, Object.getOwnPropertyNames(window).includes("onload")].join()`, "true,undefined,false,false"},
		{"member set", `onload = () => 1; [typeof onload, typeof window.onload, onload === window.onload].join()`, "function,function,true"},
		{"member call", `typeof atob === "function" && atob("YQ==") === "a" && atob === window.atob`, "true"},
		{"enumerable keys", `Object.keys(window).sort().join()`, ""},
		{"array iterator intrinsics", `const v = Array.prototype.values, f = Array.prototype.forEach; Array.prototype.values = function mine() {}; Array.prototype.forEach = function mine() {}; const ok = [NodeList.prototype.values === v, NodeList.prototype[Symbol.iterator] === v, NodeList.prototype.forEach === f, DOMTokenList.prototype.values === v].join(); Array.prototype.values = v; Array.prototype.forEach = f; ok`,
			"true,true,true,true"},
		{"iterator prototype intrinsic", `const ip = Object.getPrototypeOf(Object.getPrototypeOf([].values())); Array.prototype[Symbol.iterator] = function () { return 1 }; const it = new Headers().entries(); [String(it), Object.getPrototypeOf(Object.getPrototypeOf(it)) === ip].join()`,
			"[object Headers Iterator],true"},
		{"for in", `(() => { const ks = []; for (const k in window) ks.push(k); return ks.sort().join() })()`, ""},
		{"console", `[typeof console.log, JSON.stringify(Object.getOwnPropertyDescriptor(window, "console"), (k, v) => k === "value" ? String(v) : v), "console" in window, Object.getPrototypeOf(Object.getPrototypeOf(console)) === Object.prototype, Object.getOwnPropertyNames(console).join(" ")].join()`,
			`function,{"value":"[object console]","writable":true,"enumerable":false,"configurable":true},true,true,log info warn error debug trace assert`},
		{"console delete", `[delete window.console, typeof console, "console" in window].join()`, "true,undefined,false"},
		{"console assign", `console = 1; [window.console, JSON.stringify(Object.getOwnPropertyDescriptor(window, "console"))].join()`, `1,{"value":1,"writable":true,"enumerable":false,"configurable":true}`},
		{"console tampered built-ins", `Object.prototype.log = 1; Object.defineProperty = null; Function.prototype.call = null; delete Function.prototype.toString; [typeof console.log, console.hasOwnProperty("log"), console.log.name, console.log.length].join()`, "function,true,log,0"},
		{"host handler descriptor", `JSON.stringify(Object.getOwnPropertyDescriptor(window, "onunhandledrejection"), (k, v) => typeof v === "function" ? v.name : v)`,
			`{"get":"get onunhandledrejection","set":"set onunhandledrejection","enumerable":true,"configurable":true}`},
		{"host handler set", `const f = () => 1; onrejectionhandled = f; [onrejectionhandled === f, window.onrejectionhandled === f, "onrejectionhandled" in window].join()`, "true,true,true"},
		{"binding TypeError intrinsic", `const T = TypeError; globalThis.TypeError = function Fake() { return { fake: true } }; let r; try { Window.prototype.addEventListener.call(1, "x", null) } catch (e) { r = [e instanceof T, e.fake, e.message] } r.join()`, "true,,Illegal invocation"},
		{"legacy objects use intrinsic Reflect", `Reflect.ownKeys = () => ["bogus"]; Reflect.get = () => 42; Reflect.has = () => true; const l = document.childNodes; [Object.getOwnPropertyNames(l).includes("bogus"), l[0] === document.firstChild, Object.getOwnPropertyNames(l).length === l.length, "nope" in l].join()`, "false,true,true,false"},
		{"zero length functions", `[Window, Blob, Object.getOwnPropertyDescriptor(window, "onload").get, Event, Object.getOwnPropertyDescriptor(window, "window").get, console.log, EventTarget.prototype.dispatchEvent].map(f => Object.getOwnPropertyNames(f).slice(0, 2).join("+") + ":" + JSON.stringify(Object.getOwnPropertyDescriptor(f, "length"))).join()`,
			`length+name:{"value":0,"writable":false,"enumerable":false,"configurable":true},length+name:{"value":0,"writable":false,"enumerable":false,"configurable":true},length+name:{"value":0,"writable":false,"enumerable":false,"configurable":true},length+name:{"value":1,"writable":false,"enumerable":false,"configurable":true},length+name:{"value":0,"writable":false,"enumerable":false,"configurable":true},length+name:{"value":0,"writable":false,"enumerable":false,"configurable":true},length+name:{"value":1,"writable":false,"enumerable":false,"configurable":true}`},
		{"host handler delete", `[delete window.onunhandledrejection, typeof onunhandledrejection, "onunhandledrejection" in window].join()`, "true,undefined,false"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			lazy := w.windowRealm("https://example.com/", false)
			for _, n := range []string{"Blob", "Comment", "CharacterData", "onload", "atob", "console", "onunhandledrejection", "onrejectionhandled"} {
				if !lazy.pending(n) {
					t.Fatalf("a fresh realm has created %s", n)
				}
			}
			got := lazy.eval(c.src)
			eager := w.windowRealm("https://example.com/", true)
			if eager.pending("Blob") {
				t.Fatal("an eager realm has not created Blob")
			}
			if want := eager.eval(c.src); got != want {
				t.Errorf("%s: lazy %q, eager %q", c.src, got, want)
			}
			if c.want != "" && got != c.want {
				t.Errorf("%s = %q, want %q", c.src, got, c.want)
			}
		})
	}
}

// TestLazyInterfaceInternalUse: creating a platform object from Go
// creates its interface (and its global property) on demand.
func TestLazyInterfaceInternalUse(t *testing.T) {
	w := newWorld(t)
	j := w.windowRealm("https://example.com/", false)
	if !j.pending("Navigator") {
		t.Fatal("a fresh realm has created Navigator")
	}
	if got := j.eval(`Object.getPrototypeOf(navigator) === Navigator.prototype && navigator instanceof Navigator`); got != "true" {
		t.Errorf("navigator's prototype: %s", got)
	}
	if !j.pending("Headers") {
		t.Fatal("Headers created by navigator")
	}
	if got := j.eval(`(() => { try { new AbortController().signal.throwIfAborted(); AbortSignal.abort().throwIfAborted() } catch (e) { return e instanceof DOMException && e.name } })()`); got != "AbortError" {
		t.Errorf("DOMException from Go: %s", got)
	}
}

// BenchmarkNewWindowRealmMaterialized is BenchmarkNewWindowRealm followed by
// what Object.getOwnPropertyNames(window) does: every pending interface
// and global member is created (the cost of an eager realm, plus the
// proxy).
func BenchmarkNewWindowRealmMaterialized(b *testing.B) {
	benchmarkNewWindowRealms(b, func(r *Realm) { r.idl.MaterializeAll() })
}
