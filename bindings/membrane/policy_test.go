package membrane

import (
	"testing"

	"github.com/grafana/sobek"
)

// crossOriginPair is newPair with A's window and location cross-origin to
// B (unless sameOrigin is set), a SecurityError made by B's DOMException.
func crossOriginPair(t *testing.T, sameOrigin *bool) *pair {
	p := newPair(t)
	run(t, p.a, `
		globalThis.window = globalThis.self = globalThis;
		var received = [];
		var closedFlag = false;
		globalThis.postMessage = function postMessage(m) { received.push(m); };
		globalThis.close = function close() { closedFlag = true; };
		Object.defineProperty(globalThis, "closed", { get() { return closedFlag; }, configurable: true });
		globalThis.secret = "s3cret";
		var hrefValue = "https://a.example/";
		var loc = {
			get href() { return hrefValue; }, set href(v) { hrefValue = String(v); },
			replace(u) { hrefValue = "replaced:" + u; },
			get hash() { return "#h"; },
		};
		Object.defineProperty(globalThis, "location", { get() { return loc; }, set(v) { loc.href = v; }, configurable: true });
		Object.defineProperty(globalThis, "0", { get() { return "frame0"; }, configurable: true });
		globalThis.child = "named child";
	`)
	aGlobal := p.a.GlobalObject()
	aLoc := p.a.Get("loc").(*sobek.Object)
	rules := &CrossOriginRules{
		Kind: func(o *sobek.Object) ObjectKind {
			switch o {
			case aGlobal:
				return WindowObject
			case aLoc:
				return LocationObject
			}
			return OtherObject
		},
		SameOrigin: func(*sobek.Object) bool { return *sameOrigin },
		FrameCount: func(*sobek.Object) int { return 1 },
		ChildNames: func(*sobek.Object) []string { return []string{"child", "postMessage"} },
		Error: func(vm *sobek.Runtime, _ *sobek.Object, op Op, key sobek.Value) sobek.Value {
			msg := "Blocked a frame from accessing a cross-origin frame (" + op.String() + ")"
			o, err := vm.New(vm.Get("DOMException"), vm.ToValue(msg), vm.ToValue("SecurityError"))
			if err != nil {
				panic(err)
			}
			return o
		},
	}
	pol := rules.Policy()
	check := pol.Check
	pol.Check = func(obj *sobek.Object, op Op, key sobek.Value) Decision {
		// Record calls of postMessage (a browser notes the incumbent).
		if op == OpCall && obj == p.a.Get("postMessage") {
			p.a.Set("postMessageCalls", p.a.Get("postMessageCalls").ToInteger()+1)
		}
		return check(obj, op, key)
	}
	p.a.Set("postMessageCalls", 0)
	p.m.SetPolicy(p.a, p.b, pol)
	return p
}

const isSecurityError = `e instanceof DOMException && e.name === "SecurityError"`

func throwsSecurityError(expr string) string {
	return `(() => { try { ` + expr + `; return "no throw"; } catch (e) { return ` + isSecurityError + `; } })()`
}

func TestCrossOriginDenied(t *testing.T) {
	same := false
	p := crossOriginPair(t, &same)
	expectTrue(t, p.b,
		throwsSecurityError(`frame.secret`),
		throwsSecurityError(`frame.document`),
		throwsSecurityError(`frame.secret = 1`),
		throwsSecurityError(`frame.closed = true`),
		throwsSecurityError(`delete frame.close`),
		throwsSecurityError(`Object.defineProperty(frame, "x", { value: 1 })`),
		throwsSecurityError(`Object.getOwnPropertyDescriptor(frame, "secret")`),
		throwsSecurityError(`"secret" in frame`),
		throwsSecurityError(`frame.location.href`),
		throwsSecurityError(`frame.location.hash`),
		throwsSecurityError(`frame[Symbol.iterator]`),
		throwsSecurityError(`frame.then = 1`),
	)
	expectTrue(t, p.b,
		// Allowed: CrossOriginProperties.
		`(frame.postMessage("hi"), true)`,
		`frame.closed === false`,
		`(frame.close(), frame.closed === true)`,
		`frame.postMessage === frame.postMessage`,
		`typeof frame.postMessage === "function"`,
		// The stand-in function belongs to B: its constructor is B's
		// Function, not a way into A's realm.
		`frame.postMessage.constructor === Function`,
		`frame.window === frame && frame.self === frame`,
		`frame[0] === "frame0" && frame.child === "named child"`,
		`(frame.location.href = "https://b.example/", true)`,
		`(frame.location.replace("x"), true)`,
		`(frame.location = "https://c.example/", true)`,
		// CrossOriginPropertyFallback.
		`frame.then === undefined && frame[Symbol.toStringTag] === undefined`,
		`frame[Symbol.hasInstance] === undefined && frame[Symbol.isConcatSpreadable] === undefined`,
		`"then" in frame`,
		// Whole-object operations.
		`Object.getPrototypeOf(frame) === null`,
		`Object.isExtensible(frame)`,
		`(() => { try { Object.preventExtensions(frame); return false; } catch (e) { return e instanceof TypeError; } })()`,
		`Reflect.setPrototypeOf(frame, {}) === false && Reflect.setPrototypeOf(frame, null) === true`,
		`Object.getOwnPropertyDescriptor(frame, "postMessage").configurable === true`,
		`Object.getOwnPropertyDescriptor(frame, "postMessage").value === frame.postMessage`,
		`Object.getOwnPropertyDescriptor(frame, "then").value === undefined`,
		`(() => { const d = Object.getOwnPropertyDescriptor(frame.location, "href"); return d.get === undefined && typeof d.set === "function"; })()`,
		`(() => { const d = Object.getOwnPropertyDescriptor(frame, "location"); return typeof d.get === "function" && typeof d.set === "function"; })()`,
		`Object.keys(frame).length === 0`,
		`Reflect.ownKeys(frame).filter(k => typeof k === "string").join() === "0,child,postMessage,window,self,location,close,closed,focus,blur,frames,length,top,opener,parent,then"`,
		`Reflect.ownKeys(frame).filter(k => typeof k === "symbol").length === 3`,
	)
	expectTrue(t, p.a,
		`received.join() === "hi"`,
		`postMessageCalls === 1`,
		`hrefValue === "https://c.example/"`,
	)
	// document.domain-style change: the same wrapper becomes same-origin.
	same = true
	expectTrue(t, p.b,
		`frame.secret === "s3cret"`,
		`frame.location.hash === "#h"`,
		`Object.getPrototypeOf(frame) !== null`,
	)
}

func TestPolicyWithoutErrorHook(t *testing.T) {
	p := newPair(t)
	run(t, p.a, `var o = { open: 1, shut: 2 };`)
	o := p.a.Get("o").(*sobek.Object)
	p.m.SetPolicy(p.a, p.b, &Policy{Check: func(obj *sobek.Object, op Op, key sobek.Value) Decision {
		if obj == o && key != nil && key.String() == "shut" {
			return Deny
		}
		return Allow
	}, Error: func(*sobek.Runtime, *sobek.Object, Op, sobek.Value) sobek.Value { return nil }})
	expectTrue(t, p.b,
		`frame.o.open === 1`,
		`(() => { try { frame.o.shut; return false; } catch (e) { return e instanceof TypeError; } })()`,
		`JSON.stringify(Reflect.ownKeys(frame.o)) === '["open","shut"]'`,
		`(() => { try { Object.keys(frame.o); return false; } catch (e) { return e instanceof TypeError; } })()`,
	)
	p.m.SetPolicy(p.a, p.b, nil)
	expectTrue(t, p.b, `frame.o.shut === 2`)
}

func TestArrayIndex(t *testing.T) {
	for s, want := range map[string]int{"0": 0, "12": 12, "007": -1, "": -1, "1a": -1, "-1": -1} {
		n, ok := arrayIndex(s)
		if !ok {
			n = -1
		}
		if n != want {
			t.Errorf("arrayIndex(%q) = %d, want %d", s, n, want)
		}
	}
	for _, i := range []int{0, 7, 10, 12345} {
		if got, want := itoa(i), sobek.New().ToValue(i).String(); got != want {
			t.Errorf("itoa(%d) = %q", i, got)
		}
	}
}

// Without a SameOrigin callback, windows are treated as cross-origin.
func TestCrossOriginRulesDefaults(t *testing.T) {
	p := newPair(t)
	g := p.a.GlobalObject()
	rules := &CrossOriginRules{Kind: func(o *sobek.Object) ObjectKind {
		if o == g {
			return WindowObject
		}
		return OtherObject
	}}
	p.m.SetPolicy(p.a, p.b, rules.Policy())
	run(t, p.a, `var inner = { x: 1 }; globalThis.window = globalThis;`)
	expectTrue(t, p.b,
		`(() => { try { frame.inner; return false; } catch (e) { return e instanceof TypeError; } })()`,
		`frame.window === frame`,
	)
	p.m.SetPolicy(p.a, p.b, (&CrossOriginRules{}).Policy())
	expectTrue(t, p.b, `frame.inner.x === 1`)
}
