package bindings

import (
	"strings"
	"testing"

	"github.com/grafana/sobek"
)

// The integration API the go product uses: host hooks, the document
// object, Go-made event targets, event handler attributes, trusted events,
// DOMExceptions and platform-object checks.
func TestIntegrationAPI(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://example.com/page.html")
	var posted []string
	closed := 0
	win.r.SetHostHooks(HostHooks{
		PostMessage: func(m sobek.Value, origin string, transfer []*sobek.Object) error {
			posted = append(posted, m.String()+"@"+origin)
			return nil
		},
		Close: func() { closed++ },
	})
	var worker *sobek.Object
	win.r.QueueTask(func(vm *sobek.Runtime) {
		r := win.r
		// A Worker-like interface whose prototype inherits from
		// EventTarget.prototype, with onmessage.
		proto := vm.CreateObject(r.InterfacePrototype("EventTarget"))
		r.DefineEventHandlerAttributes(proto, "message")
		worker = r.NewEventTargetObject(proto)
		_ = vm.Set("worker", worker)
		doc := r.DocumentObject()
		_ = doc.Set("marker", 42)
		_ = vm.Set("isPlatform", func(o *sobek.Object) bool { return r.IsPlatformObject(o) })
		_ = vm.Set("makeEx", func(name, msg string) sobek.Value { return r.NewDOMException(name, msg) })
	})
	win.exec(prelude + `
		worker.onmessage = e => log("onmessage", e.data, e.isTrusted, e.target === worker);
		worker.addEventListener("message", e => log("listener", e.data));
		addEventListener("load", e => log("load", e.isTrusted, e.target === self));
		postMessage("hi", "*");
		close();
		log(document.marker, document instanceof EventTarget, document.URL, document.location === location);
		log(isPlatform(worker), isPlatform(navigator), isPlatform({}), isPlatform(self));
		const ex = makeEx("DataCloneError", "nope");
		log(ex instanceof DOMException, ex.name, ex.code, ex.message);
		try { location.href = "https://other.example/"; } catch (e) { log("navigation", e.name); }
		location.hash = "frag";
		log(location.href);
	`)
	win.r.QueueTask(func(vm *sobek.Runtime) {
		win.r.FireEventAt(worker, "message", false, map[string]sobek.Value{"data": vm.ToValue("payload")})
		win.r.FireEvent("load", false, nil)
	})
	w.settle()
	expectLog(t, win,
		"42 true https://example.com/page.html true",
		"true true false true",
		"true DataCloneError 25 nope",
		"navigation NotSupportedError",
		"https://example.com/page.html#frag",
		"onmessage payload true true",
		"listener payload",
		"load true true")
	if strings.Join(posted, ",") != "hi@*" || closed != 1 {
		t.Errorf("hooks: posted %v, closed %d", posted, closed)
	}

	// Worker hooks: postMessage, importScripts, name; without hooks they
	// throw NotSupportedError.
	wk := w.worker(win, "https://example.com/w.js")
	wk.exec(prelude + `
		for (const f of [() => postMessage(1), () => importScripts("a.js")]) {
			try { f(); } catch (e) { log(e.name); }
		}
	`)
	expectLog(t, wk, "NotSupportedError", "NotSupportedError")
	var imported []string
	wk.r.SetHostHooks(HostHooks{
		Name:          "w1",
		ImportScripts: func(urls []string) error { imported = append(imported, urls...); return nil },
		PostMessage: func(m sobek.Value, origin string, _ []*sobek.Object) error {
			posted = append(posted, m.String()+"@"+origin)
			return nil
		},
	})
	wk.exec(prelude + `importScripts("a.js", "b\uD800.js"); postMessage("from worker"); log(self.name, self.location.href);`)
	expectLog(t, wk, "w1 https://example.com/w.js")
	if strings.Join(imported, ",") != "a.js,b\uFFFD.js" || posted[len(posted)-1] != "from worker@" {
		t.Errorf("worker hooks: imported %q posted %q", imported, posted)
	}
}

// The console formats its arguments (Console Standard formatter).
func TestConsoleFormatting(t *testing.T) {
	w := newWorld(t)
	j := w.window("https://example.com/")
	j.exec(`
		console.log("a %s b %d c %i %f %o %%", "str", 42.9, -3.7, 1.5, {x: 1});
		console.info({a: [1, "x"]}, null, undefined, 1n === undefined);
		console.warn("%c styled", "color: red");
		console.error(new TypeError("bad"));
		console.debug(Symbol("s"));
		console.assert(true, "not printed");
		console.assert(false, "printed %s", "too");
		console.log();
	`)
	expectLog(t, j,
		`a str b 42 c -3 1.5 {"x":1} %`,
		`{"a":[1,"x"]} null undefined false`,
		` styled`,
		`TypeError: bad`,
		`Symbol(s)`,
		`Assertion failed: printed too`)
}

// FireBubblingEventAt fires a trusted, bubbling, non-cancelable event at a
// Go-made event target, and nothing at an object that is not one.
func TestFireBubblingEventAt(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://example.com/")
	var target *sobek.Object
	win.r.QueueTask(func(vm *sobek.Runtime) {
		target = win.r.NewEventTargetObject(nil)
		_ = vm.Set("target", target)
	})
	win.exec(prelude + `
		target.addEventListener("DOMContentLoaded", e => log(e.type, e.bubbles, e.cancelable, e.isTrusted, e.target === target));
	`)
	win.r.QueueTask(func(vm *sobek.Runtime) {
		win.r.FireBubblingEventAt(target, "DOMContentLoaded")
		win.r.FireBubblingEventAt(vm.NewObject(), "DOMContentLoaded")
	})
	w.settle()
	expectLog(t, win, "DOMContentLoaded true false true true")
}
