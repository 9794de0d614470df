package bindings

import (
	"errors"
	"strings"
	"testing"

	"github.com/gowebengine/weblocks/dom"
)

// EventTarget, Event, AbortController and AbortSignal over dom.
func TestEventTargetAndEvents(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.asyncWithErrors(prelude + `
			const et = new EventTarget();
			const calls = [];
			const obj = { handleEvent(e) { calls.push("object " + (this === obj) + " " + e.type); } };
			function f(e) { calls.push("function " + (this === et) + " " + (e.target === et) + " " + (e.currentTarget === et) + " " + e.eventPhase); }
			et.addEventListener("x", f);
			et.addEventListener("x", f); // duplicate: ignored
			et.addEventListener("x", obj);
			et.addEventListener("x", () => calls.push("once"), {once: true});
			et.addEventListener("x", () => calls.push("capture"), true);
			const e = new Event("x", {cancelable: true});
			log(e.type, e.bubbles, e.cancelable, e.isTrusted, e.eventPhase, e.target, e.defaultPrevented);
			et.addEventListener("x", ev => ev.preventDefault());
			log("dispatch returned", et.dispatchEvent(e), e.defaultPrevented, e.eventPhase, e.currentTarget);
			log(calls.join("; "));
			calls.length = 0;
			et.removeEventListener("x", f);
			et.removeEventListener("x", obj);
			et.dispatchEvent(new Event("x"));
			log(calls.join("; "));
			// stopImmediatePropagation; re-dispatch from a listener throws InvalidStateError.
			const et2 = new EventTarget();
			let inner;
			et2.addEventListener("y", ev => { try { et2.dispatchEvent(ev); } catch (err) { inner = err.name; } ev.stopImmediatePropagation(); });
			et2.addEventListener("y", () => log("not reached"));
			et2.dispatchEvent(new Event("y"));
			log("re-dispatch", inner);
			// A listener that throws is reported; the others still run.
			const et3 = new EventTarget();
			et3.addEventListener("z", () => { throw new Error("listener boom"); });
			et3.addEventListener("z", () => log("after throw"));
			et3.dispatchEvent(new Event("z"));
			// A handleEvent that is not callable: TypeError, reported.
			et3.addEventListener("w", {handleEvent: 42});
			et3.dispatchEvent(new Event("w"));
			// Brand checks and argument errors.
			try { EventTarget.prototype.addEventListener.call({}, "x", f); } catch (err) { log("brand", err instanceof TypeError); }
			try { et.addEventListener("x"); } catch (err) { log("args", err instanceof TypeError); }
			try { new Event(); } catch (err) { log("Event()", err instanceof TypeError); }
			try { Event("x"); } catch (err) { log("no new", err instanceof TypeError); }
			done();
		`)
		got := filterUncaught(j.takeLog())
		want := []string{
			"x false true false 0 null false",
			"dispatch returned false true 0 null",
			"capture; function true true true 2; object true x; once",
			"capture",
			"re-dispatch InvalidStateError",
			"after throw",
			"brand true", "args true", "Event() true", "no new true",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		errs := j.takeErrors()
		if len(errs) != 2 || !strings.Contains(errs[0], "listener boom") || !strings.Contains(errs[1], "TypeError") {
			t.Errorf("reported errors: %q", errs)
		}
	})
}

func TestAbortControllerAndSignal(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			const c = new AbortController();
			const s = c.signal;
			log("same signal", s === c.signal, s instanceof AbortSignal, s instanceof EventTarget);
			log("before", s.aborted, s.reason);
			let events = [];
			s.onabort = e => events.push("onabort " + e.type + " " + e.isTrusted + " " + (e.target === s));
			s.addEventListener("abort", () => events.push("listener"));
			c.abort(null);
			log("null reason", s.aborted, s.reason === null, events.join(", "));
			c.abort("again"); // no effect
			log("kept", s.reason);
			const c2 = new AbortController();
			c2.abort();
			log("default reason", c2.signal.reason.name, c2.signal.reason instanceof DOMException, c2.signal.reason === c2.signal.reason);
			const c3 = new AbortController();
			c3.abort(undefined);
			log("undefined reason", c3.signal.reason.name);
			try { c2.signal.throwIfAborted(); } catch (e) { log("throwIfAborted", e === c2.signal.reason); }
			try { s.throwIfAborted(); } catch (e) { log("throwIfAborted null", e === null); }
			new AbortController().signal.throwIfAborted();
			log("static abort", AbortSignal.abort().reason.name, AbortSignal.abort(7).reason);
			const a = new AbortController(), b = new AbortController();
			const any = AbortSignal.any([a.signal, b.signal]);
			any.onabort = () => log("any aborted", any.reason);
			b.abort("b");
			log("any", any.aborted, AbortSignal.any([AbortSignal.abort("pre")]).reason);
			try { AbortSignal.any([{}]); } catch (e) { log("any TypeError", e instanceof TypeError); }
			try { AbortSignal.timeout(-1); } catch (e) { log("timeout EnforceRange", e instanceof TypeError); }
			const t0 = performance.now();
			const ts = AbortSignal.timeout(50);
			ts.onabort = () => { log("timeout", ts.reason.name, Math.round(performance.now() - t0)); done(); };
			try { AbortSignal.prototype.throwIfAborted.call({}); } catch (e) { log("brand", e instanceof TypeError); }
			try { new AbortSignal(); } catch (e) { log("ctor", e instanceof TypeError); }
		`)
		expectLog(t, j,
			"same signal true true true",
			"before false undefined",
			"null reason true true onabort abort true true, listener",
			"kept null",
			"default reason AbortError true true",
			"undefined reason AbortError",
			"throwIfAborted true",
			"throwIfAborted null true",
			"static abort AbortError 7",
			"any aborted b",
			"any true pre",
			"any TypeError true",
			"timeout EnforceRange true",
			"brand true",
			"ctor true",
			"timeout TimeoutError 50")
	})
}

func TestDOMException(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.exec(prelude + `
			const e = new DOMException("msg", "NotSupportedError");
			log(e.name, e.message, e.code, e instanceof Error, e instanceof DOMException);
			log(Object.getPrototypeOf(DOMException.prototype) === Error.prototype, Object.prototype.toString.call(e));
			log(String(e), typeof e.stack);
			const d = new DOMException();
			log(JSON.stringify(d.name), JSON.stringify(d.message), d.code);
			log(new DOMException("m", "Custom").code, DOMException.ABORT_ERR, e.TIMEOUT_ERR);
			log(Object.getOwnPropertyNames(e).join());
			try { DOMException("x"); } catch (err) { log("no new", err instanceof TypeError); }
			try { Object.getOwnPropertyDescriptor(DOMException.prototype, "name").get.call(new Error()); } catch (err) { log("brand", err instanceof TypeError); }
		`)
		expectLog(t, j,
			"NotSupportedError msg 9 true true",
			"true [object DOMException]",
			"NotSupportedError: msg string",
			`"Error" "" 0`,
			"0 20 23",
			"stack",
			"no new true",
			"brand true")
	})
}

// Uncaught exceptions: "report an exception" fires an error event at the
// global (onerror with five arguments; returning true cancels), and
// reaches Options.OnError only when not cancelled.
func TestReportException(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.exec(prelude + `
			globalThis.seen = [];
			self.addEventListener("error", e => seen.push("listener " + e.message + " " + (e.error && e.error.message) + " " + e.lineno + " " + e.cancelable));
			self.onerror = (msg, file, line, col, err) => { seen.push("onerror " + typeof msg + " " + file + " " + line + " " + (err && err.message)); return err && err.message === "cancel me"; };
			setTimeout(() => { throw new Error("from timer"); }, 1);
			setTimeout(() => { throw new Error("cancel me"); }, 2);
			queueMicrotask(() => { throw new Error("from microtask"); });
		`)
		j.r.QueueScript("bad.js", "\n\nthrow new TypeError('top level');", nil)
		w.settle()
		j.exec(`log(seen.join("\n"))`)
		got := strings.Join(j.takeLog(), "\n")
		for _, want := range []string{
			"listener Error: from microtask from microtask",
			"onerror string test.js",
			"listener TypeError: top level top level 3 true",
			"onerror string bad.js 3 top level",
			"onerror string test.js 11 from timer",
			"onerror string test.js 12 cancel me",
		} {
			if !strings.Contains(got, want) {
				t.Errorf("missing %q in:\n%s", want, got)
			}
		}
		errs := strings.Join(j.takeErrors(), "\n")
		for _, want := range []string{"from microtask", "top level", "from timer"} {
			if !strings.Contains(errs, want) {
				t.Errorf("OnError missed %q: %s", want, errs)
			}
		}
		if strings.Contains(errs, "cancel me") {
			t.Errorf("a cancelled error reached OnError: %s", errs)
		}
	})
}

// Unhandled rejections fire unhandledrejection after the microtask
// checkpoint (cancelable), then rejectionhandled for a late handler.
func TestUnhandledRejection(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.exec(prelude + `
			globalThis.seen = [];
			self.addEventListener("unhandledrejection", e => { seen.push("unhandled " + e.reason + " " + (e.promise instanceof Promise)); if (e.reason === "quiet") e.preventDefault(); });
			self.addEventListener("rejectionhandled", e => seen.push("handled late " + e.reason));
			Promise.reject("handled in time").catch(() => {});
			const p = Promise.reject("late");
			Promise.reject("quiet");
			setTimeout(() => p.catch(() => {}), 10);
		`)
		j.exec(`log(seen.join(", "))`)
		if got := filterUncaught(j.takeLog()); strings.Join(got, "\n") != "unhandled late true, unhandled quiet true, handled late late" {
			t.Errorf("log: %q", got)
		}
		errs := j.takeErrors()
		if len(errs) != 1 || !strings.Contains(errs[0], "late") {
			t.Errorf("OnUnhandledRejection: %q", errs)
		}
	})
}

// Timers: ids, arguments, string handlers, clearing from inside, this.
func TestTimers(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			const ids = [setTimeout(() => {}), setTimeout(() => {})];
			log("ids", ids.every(i => Number.isInteger(i) && i > 0), ids[0] !== ids[1]);
			globalThis.fromString = 0;
			setTimeout("fromString++", 1);
			setTimeout(function (a, b) { log("args", a, b, this === self); }, 2, "a", "b");
			let n = 0;
			const iv = setInterval(() => { n++; if (n === 3) { clearInterval(iv); log("interval ran", n); } }, 5);
			const t = setTimeout(() => log("cleared timer ran"), 3);
			clearTimeout(t);
			clearTimeout(); clearTimeout(123456); clearInterval("x");
			setTimeout(() => { log("string handler", fromString); done(); }, 100);
			try { setTimeout.call({}, () => {}); } catch (e) { log("brand", e instanceof TypeError); }
			try { queueMicrotask("no"); } catch (e) { log("queueMicrotask", e instanceof TypeError); }
			log("btoa", btoa("hi\u00ff"), atob(" aGn/ "), (() => { try { btoa("\u0100"); } catch (e) { return e.name; } })(), (() => { try { atob("a"); } catch (e) { return e.name; } })());
		`)
		expectLog(t, j, "ids true true", "brand true", "queueMicrotask true", "btoa aGn/ hiÿ InvalidCharacterError InvalidCharacterError",
			"args a b true", "interval ran 3", "string handler 1")
	})
}

// Identity and [SameObject]: the global, navigator, navigator.locks,
// location and performance are the same objects every time.
func TestGlobalIdentity(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		got := j.eval(`[self === globalThis, navigator === navigator, navigator.locks === navigator.locks,
			location === location, performance === performance, typeof console.log,
			Object.getPrototypeOf(navigator.locks) === LockManager.prototype,
			String(Object.prototype.toString.call(self))].join()`)
		want := "true,true,true,true,true,function,true,[object Window]"
		if j.r.Kind() == DedicatedWorkerGlobal {
			want = "true,true,true,true,true,function,true,[object DedicatedWorkerGlobalScope]"
		}
		if got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	})
}

// filterUncaught drops the console lines "report an exception" prints.
func filterUncaught(log []string) []string {
	var out []string
	for _, l := range log {
		if !strings.HasPrefix(l, "Uncaught ") {
			out = append(out, l)
		}
	}
	return out
}

// Event.timeStamp is on the clock of performance.now(), for events made by
// script and for events the engine fires.
func TestEventTimeStamp(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			setTimeout(() => {
				const before = performance.now();
				const e = new Event("x");
				const c = new AbortController();
				c.signal.onabort = ev => {
					log(before >= 25, e.timeStamp === before, ev.timeStamp >= before, ev.timeStamp <= performance.now());
					done();
				};
				c.abort();
			}, 25);
		`)
		expectLog(t, j, "true true true true")
	})
}

// failingLoop is an event loop the caller is never on.
type failingLoop struct{}

func (failingLoop) CheckCurrent() error { return errors.New("called off loop L") }

// Firing an event at a target bound to another event loop panics naming
// the loop, whether or not a listener would receive the event.
func TestFireEventChecksLoop(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://example.com/")
	var target dom.EventTarget
	target.BindToLoop(failingLoop{})
	defer func() {
		if s, _ := recover().(string); !strings.Contains(s, "loop L") {
			t.Fatalf("firing an event off the target's loop: panic %q; want one naming the loop", s)
		}
	}()
	win.r.fireEvent(&target, "nobody-listens", false, false, nil)
}
