package bindings

import (
	"errors"
	"runtime"
	"strconv"
	"testing"
	"weak"

	"github.com/gowebengine/weblocks/dom"
	"github.com/grafana/sobek"
)

// The abort event is not created when a signal has no abort listener;
// listeners and onabort handlers (added, removed, cleared) still see
// exactly the events they should, dependents included.
func TestAbortEventListenersAndHandlers(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			const quiet = new AbortController();
			quiet.signal.addEventListener("other", () => log("other ran"));
			quiet.abort();
			log("quiet", quiet.signal.aborted, quiet.signal.reason.name);

			const c1 = new AbortController();
			c1.signal.addEventListener("abort", e => log("listener", e.type, e.isTrusted, e.target === c1.signal, e.cancelable));
			c1.abort();

			const c2 = new AbortController();
			c2.signal.onabort = e => log("onabort", e.type, e.target === c2.signal, e.eventPhase);
			c2.abort();

			const c3 = new AbortController();
			const f = () => log("removed listener ran");
			c3.signal.addEventListener("abort", f);
			c3.signal.removeEventListener("abort", f);
			c3.signal.onabort = () => log("cleared handler ran");
			c3.signal.onabort = null;
			c3.abort();
			log("c3", c3.signal.aborted);

			// A listener added after an abort without listeners: a later
			// signal's abort still reaches it (the first one fired nothing).
			const c4 = new AbortController();
			c4.abort();
			const c5 = new AbortController();
			c5.signal.addEventListener("abort", () => log("late listener", c5.signal.reason.name));
			c5.abort();

			// A dependent with a handler whose source has none.
			const src = new AbortController();
			const dep = AbortSignal.any([src.signal]);
			dep.onabort = e => log("dependent", e.target === dep, dep.reason === src.signal.reason);
			src.abort();

			// once: the listener is gone after the first event.
			const c6 = new AbortController();
			let n = 0;
			c6.signal.addEventListener("abort", () => n++, {once: true});
			c6.abort();
			c6.signal.dispatchEvent(new Event("abort"));
			log("once", n);
			done();
		`)
		expectLog(t, j,
			"quiet true AbortError",
			"listener abort true true false",
			"onabort abort true 2",
			"c3 true",
			"late listener AbortError",
			"dependent true true",
			"once 1")
	})
}

// The abort event fires synchronously in abort(), after the request's
// promise was rejected (the abort algorithms run before the event) and
// before the rejection's reactions; the listener sees signal.reason, the
// value the request rejects with.
func TestAbortEventBeforeRejectionReactions(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			(async () => {
				let release;
				await new Promise(granted => navigator.locks.request("x", () => {
					granted(); return new Promise(r => { release = r; });
				}));
				const c = new AbortController();
				let seen;
				c.signal.addEventListener("abort", () => { seen = c.signal.reason; log("abort event"); });
				const p = navigator.locks.request("x", {signal: c.signal}, () => log("granted"));
				p.catch(e => log("rejected", e.name, e === seen, e === c.signal.reason, e === c.signal.reason));
				c.abort();
				log("after abort()");
				await p.catch(() => {});
				release();
				done();
			})().catch(fail);
		`)
		expectLog(t, j, "abort event", "after abort()", "rejected AbortError true true true")
	})
}

// The default reasons of abort() and AbortSignal.abort() are one object
// across reads, the rejection of a request, throwIfAborted and dependents,
// and they are ordinary DOMExceptions (prototype, getters, structured
// clone, toString).
func TestDefaultAbortReasonIdentity(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			(async () => {
				const s = AbortSignal.abort();
				const r = s.reason;
				log("static", r === s.reason, r instanceof DOMException, r instanceof Error, r.name, r.code, r.message !== "");
				const e1 = await navigator.locks.request("y", {signal: s}, () => {}).catch(e => e);
				log("static rejection", e1 === r);
				try { s.throwIfAborted(); } catch (e) { log("throwIfAborted", e === r); }
				log("dependent", AbortSignal.any([s]).reason === r);

				const c = new AbortController();
				c.abort();
				const r2 = c.signal.reason;
				c.abort(); // no effect: the reason stays
				log("controller", r2 === c.signal.reason, r2 !== r, Object.getPrototypeOf(r2) === DOMException.prototype);
				log("toString", String(r2) === "AbortError: " + r2.message, typeof r2.stack);
				const cl = structuredClone(r2);
				log("clone", cl !== r2, cl instanceof DOMException, cl.name, cl.message === r2.message);
				try { DOMException.prototype.name; } catch (e) { log("brand", e instanceof TypeError); }
				done();
			})().catch(fail);
		`)
		expectLog(t, j,
			"static true true true AbortError 20 true",
			"static rejection true",
			"throwIfAborted true",
			"dependent true",
			"controller true true true",
			"toString true string",
			"clone true true AbortError true",
			"brand true")
	})
}

// Go code sees the default reason made by bindings as the *dom.DOMException
// it represents, and the realm converts it back to the object script sees.
func TestDefaultAbortReasonGoSide(t *testing.T) {
	w := newWorld(t)
	j := w.window("https://example.com/")
	j.exec(`globalThis.c = new AbortController(); c.abort();`)
	r := j.r
	impl, ok := r.idl.ImplOf(r.vm.GlobalObject().Get("c")).(*abortControllerImpl)
	if !ok {
		t.Fatal("no AbortController implementation")
	}
	reason := impl.c.Signal().Reason()
	var de *dom.DOMException
	if err := dom.ReasonError(reason); !errors.As(err, &de) || de.Name != dom.AbortError || de.Code() != 20 {
		t.Fatalf("reason %#v: want an AbortError DOMException", reason)
	}
	if !errors.Is(dom.ReasonError(reason), &dom.DOMException{Name: dom.AbortError}) {
		t.Fatal("errors.Is AbortError")
	}
	want, err := r.vm.RunString("c.signal.reason")
	if err != nil {
		t.Fatal(err)
	}
	if got := r.reasonValue(reason); got != want.(*sobek.Object) {
		t.Fatal("reasonValue is not the object signal.reason returns")
	}
	if v, ok := r.errorToJS(r.idl, dom.ReasonError(reason)); !ok || v != want.(*sobek.Object) {
		t.Fatal("errorToJS is not the object signal.reason returns")
	}
}

// Default abort reasons (objects without a Reflector, kept strongly by the
// realm's slot table while they live) are collected with their
// implementations once script drops them and their signals.
func TestDefaultAbortReasonsAreCollected(t *testing.T) {
	w := newWorld(t)
	j := w.window("https://example.com/")
	const n = 50
	j.exec(`
		globalThis.made = [];
		for (let i = 0; i < 50; i++) { const c = new AbortController(); c.abort(); made.push(c.signal.reason); }
		made.push(AbortSignal.abort().reason);
		globalThis.kept = new AbortController();
		kept.abort();
		globalThis.flush = [];
		for (let i = 0; i < 8; i++) flush.push(new EventTarget());
	`)
	var ptrs []weak.Pointer[plainDOMException]
	j.r.QueueTask(func(vm *sobek.Runtime) {
		made := vm.Get("made").(*sobek.Object)
		for i := range n + 1 {
			impl, ok := j.r.idl.ImplOf(made.Get(strconv.Itoa(i))).(*plainDOMException)
			if !ok {
				t.Errorf("made[%d]: implementation %T", i, j.r.idl.ImplOf(made.Get(strconv.Itoa(i))))
				continue
			}
			ptrs = append(ptrs, weak.Make(impl))
		}
		// The slot lookup cache holds the last objects looked up: look
		// up others (more than it holds).
		flush := vm.Get("flush").(*sobek.Object)
		for i := range 8 {
			j.r.idl.ImplOf(flush.Get(strconv.Itoa(i)))
		}
	})
	w.settle()
	if len(ptrs) != n+1 {
		t.Fatalf("%d implementations found, want %d", len(ptrs), n+1)
	}
	j.exec(`made = null;`)
	for range 4 {
		runtime.GC()
	}
	// The table drops entries of collected objects as it grows: make it
	// grow well past its size.
	j.exec(`for (let i = 0; i < 3000; i++) new EventTarget();`)
	if alive := aliveAfterGC(ptrs); alive > 0 {
		t.Errorf("%d of %d dropped default abort reasons are still alive", alive, n+1)
	}
	if got := j.eval(`kept.signal.reason.name + ' ' + (kept.signal.reason === kept.signal.reason)`); got != "AbortError true" {
		t.Errorf("kept reason after collection: %q", got)
	}
}
