package bindings

import (
	"testing"

	"github.com/gowebengine/weblocks/html"
	"github.com/grafana/sobek"
)

// Method-step rejections and conversion TypeErrors: each line of the table
// is an expression whose promise must reject with the given error name
// (a DOMException name, TypeError, or a literal abort reason).
func TestRequestRejections(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			const cb = () => {};
			const cases = [
				// NotSupportedError (method steps 5-8)
				["reserved name", () => navigator.locks.request('-reserved', cb), "NotSupportedError"],
				["steal + ifAvailable", () => navigator.locks.request('a', {steal: true, ifAvailable: true}, cb), "NotSupportedError"],
				["steal + shared", () => navigator.locks.request('a', {steal: true, mode: 'shared'}, cb), "NotSupportedError"],
				["signal + steal", () => navigator.locks.request('a', {signal: new AbortController().signal, steal: true}, cb), "NotSupportedError"],
				["signal + ifAvailable", () => navigator.locks.request('a', {signal: new AbortController().signal, ifAvailable: true}, cb), "NotSupportedError"],
				// Aborted signal: its reason (step 9)
				["aborted, default reason", () => navigator.locks.request('a', {signal: AbortSignal.abort()}, cb), "AbortError"],
				["aborted, string reason", () => navigator.locks.request('a', {signal: AbortSignal.abort("why")}, cb), "=why"],
				["aborted, null reason", () => navigator.locks.request('a', {signal: AbortSignal.abort(null)}, cb), "=null"],
				["aborted, error reason", () => navigator.locks.request('a', {signal: AbortSignal.abort(new RangeError("r"))}, cb), "RangeError"],
				// Conversions (WebIDL): TypeErrors, as rejections
				["no arguments", () => navigator.locks.request(), "TypeError"],
				["one argument", () => navigator.locks.request('a'), "TypeError"],
				["callback not callable", () => navigator.locks.request('a', 'not callable'), "TypeError"],
				["callback object", () => navigator.locks.request('a', {}), "TypeError"],
				["callback in 3-arg form not callable", () => navigator.locks.request('a', {}, 42), "TypeError"],
				["options not an object", () => navigator.locks.request('a', 1, cb), "TypeError"],
				["bad mode", () => navigator.locks.request('a', {mode: 'bogus'}, cb), "TypeError"],
				["Symbol name", () => navigator.locks.request(Symbol(), cb), "TypeError"],
				["signal not an AbortSignal", () => navigator.locks.request('a', {signal: {}}, cb), "TypeError"],
				["throwing mode getter", () => navigator.locks.request('a', {get mode() { throw new SyntaxError("g"); }}, cb), "SyntaxError"],
			];
			(async () => {
				for (const [what, f, want] of cases) {
					let p;
					try { p = f(); } catch (e) { log(what, "threw synchronously", e); continue; }
					if (!(p instanceof Promise)) { log(what, "returned", p); continue; }
					try {
						await p;
						log(what, "fulfilled");
					} catch (e) {
						const got = want.startsWith("=") ? "=" + String(e) : e.name;
						if (got !== want) log(what, "rejected with", got, "want", want);
						if (want.endsWith("Error") && want !== "TypeError" && want !== "RangeError" && want !== "SyntaxError" && !(e instanceof DOMException))
							log(what, "is not a DOMException");
						if (want === "TypeError" && !(e instanceof TypeError)) log(what, "is not a TypeError instance");
					}
				}
				const s = await navigator.locks.query();
				log("held", s.held.length, "pending", s.pending.length);
				done();
			})().catch(fail);
		`)
		expectLog(t, j, "held 0 pending 0")
	})
}

// Options are read in dictionary order (ifAvailable, mode, signal, steal),
// each getter once, and the name is converted before the options.
func TestRequestConversionOrder(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			const order = [];
			const opts = {};
			for (const k of ["steal", "signal", "mode", "ifAvailable"])
				Object.defineProperty(opts, k, { get() { order.push(k); return undefined; } });
			const name = { toString() { order.push("name"); return "n"; } };
			navigator.locks.request(name, opts, () => {}).then(() => { log(order.join(",")); done(); }, fail);
		`)
		expectLog(t, j, "name,ifAvailable,mode,signal,steal")
	})
}

// SecurityError: a document with an opaque origin (sandboxed iframe) has
// navigator.locks (it is a secure context) but no lock manager.
func TestRequestSecurityError(t *testing.T) {
	w := newWorld(t)
	win := w.window("https://example.com/")
	child, err := win.env.AssociatedDocument().CreateChildNavigableURL("https://example.com/frame.html", html.ChildNavigableOptions{Sandboxed: true})
	if err != nil {
		t.Fatal(err)
	}
	j := w.realmFor(child.EnvironmentSettingsObject(), WindowGlobal)
	if got := j.eval("origin"); got != "null" {
		t.Fatalf("origin = %s", got)
	}
	j.async(prelude + `
		Promise.allSettled([navigator.locks.request('a', () => {}), navigator.locks.query()]).then(rs => {
			for (const r of rs) log(r.status, r.reason && r.reason.name, r.reason instanceof DOMException);
			done();
		});
	`)
	expectLog(t, j, "rejected SecurityError true", "rejected SecurityError true")
}

// InvalidStateError: the document is no longer fully active (its iframe
// was removed). The script keeps a reference to the frame's LockManager and
// calls it from the parent's task, as a parent page would.
func TestRequestInvalidStateError(t *testing.T) {
	for _, how := range []string{"destroyed", "navigated-away"} {
		t.Run(how, func(t *testing.T) {
			w := newWorld(t)
			win := w.window("https://example.com/")
			child, err := win.env.AssociatedDocument().CreateChildNavigableURL("https://example.com/frame.html", html.ChildNavigableOptions{})
			if err != nil {
				t.Fatal(err)
			}
			j := w.realmFor(child.EnvironmentSettingsObject(), WindowGlobal)
			j.exec(`
				globalThis.results = [];
				const locks = navigator.locks;
				globalThis.probe = () => {
					for (const p of [locks.request('a', () => {}), locks.query()])
						p.then(() => results.push("fulfilled"), e => results.push(e.name + " " + (e instanceof DOMException)));
				};
			`)
			if how == "destroyed" {
				child.Navigable().Destroy()
			} else {
				if _, err := child.Navigable().Navigate(mustURL(t, "https://example.com/other.html"), html.NavigateOptions{KeepInBFCache: true}); err != nil {
					t.Fatal(err)
				}
			}
			w.settle()
			if child.IsFullyActive() {
				t.Fatal("child document is still fully active")
			}
			var results string
			win.r.QueueTask(func(*sobek.Runtime) {
				cvm := j.r.Runtime()
				probe, _ := sobek.AssertFunction(cvm.Get("probe"))
				if _, err := probe(sobek.Undefined()); err != nil {
					t.Errorf("probe: %v", err)
				}
				results = cvm.Get("results").String()
			})
			w.settle()
			if results != "InvalidStateError true,InvalidStateError true" {
				t.Errorf("results = %q", results)
			}
		})
	}
}

// Exposure: in a non-secure context there is no navigator.locks, no
// LockManager and no Lock; in a secure one they exist, and navigator.locks
// is the same object every time ([SameObject]).
func TestExposure(t *testing.T) {
	for _, tc := range []struct {
		url    string
		secure bool
	}{{"https://example.com/", true}, {"http://example.com/", false}, {"http://localhost/", true}, {"http://127.0.0.1:8000/", true}} {
		for _, worker := range []bool{false, true} {
			w := newWorld(t)
			j := w.window(tc.url)
			if worker {
				j = w.worker(j, tc.url+"w.js")
			}
			want := "false,false,false,false,"
			if tc.secure {
				want = "true,true,true,true,true"
			}
			got := j.eval(`[ 'locks' in navigator, typeof LockManager === 'function', typeof Lock === 'function',
				isSecureContext, navigator.locks && navigator.locks === navigator.locks ].join()`)
			if got != want {
				t.Errorf("%s worker=%v: %s, want %s", tc.url, worker, got, want)
			}
		}
	}
}

// Names are DOMStrings: lone surrogates and NUL round-trip through
// request -> lock.name -> query, and different code unit sequences are
// different resources.
func TestNamesRoundTrip(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			const names = ["\uD800", "\uDC00", "a\uD800b", "\uDC00\uD800", "\u0000", "x\u0000y", "\uD83D\uDE00", "\uFFFD", "", "e\u0301", "\u00e9"];
			(async () => {
				const held = [];
				for (const n of names) {
					const got = await new Promise((resolve, reject) => {
						navigator.locks.request(n, lock => { resolve(lock.name); return new Promise(r => held.push(r)); }).catch(reject);
					});
					if (got !== n) log("lock.name differs for", JSON.stringify(n), JSON.stringify(got));
				}
				const s = await navigator.locks.query();
				const q = s.held.map(i => i.name);
				log("held", q.length, names.every(n => q.includes(n)), new Set(q).size);
				held.forEach(r => r());
				done();
			})().catch(fail);
		`)
		expectLog(t, j, "held 11 true 11")
	})
}

// Promise ordering: the waiting promise settles before the released
// promise (released is resolved with waiting), both for async callbacks
// and plain values, fulfilled and rejected.
func TestReleasedSettlesAfterWaiting(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			const order = [];
			let waiting1, waiting2;
			const released1 = navigator.locks.request('a', lock => {
				waiting1 = Promise.resolve("v1");
				waiting1.then(() => order.push("waiting1"));
				return waiting1;
			});
			released1.then(v => order.push("released1 " + v));
			const released2 = navigator.locks.request('b', lock => {
				waiting2 = Promise.reject(new Error("e2"));
				waiting2.catch(() => order.push("waiting2"));
				return waiting2;
			});
			released2.catch(e => order.push("released2 " + e.message));
			Promise.allSettled([released1, released2]).then(() => {
				log(order.join(", "));
				log("same outcome", released1 !== waiting1);
				done();
			});
		`)
		// Each grant is its own task; within it, released settles in
		// the reaction after waiting's.
		expectLog(t, j, "waiting1, released1 v1, waiting2, released2 e2", "same outcome true")
	})
}

// The order of callbacks and promise reactions in a grant/release cycle:
// the callback runs in its own task; its microtasks run before the
// waiting promise is resolved; the next waiter is granted only after
// the release.
func TestGrantOrdering(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			const order = [];
			const p1 = navigator.locks.request('r', lock => {
				order.push("cb1");
				Promise.resolve().then(() => order.push("cb1 microtask"));
				queueMicrotask(() => order.push("cb1 queueMicrotask"));
				return "one";
			});
			const p2 = navigator.locks.request('r', lock => { order.push("cb2"); return "two"; });
			order.push("sync end");
			p1.then(v => order.push("p1 " + v));
			p2.then(v => { order.push("p2 " + v); log(order.join(", ")); done(); });
		`)
		expectLog(t, j, "sync end, cb1, cb1 microtask, cb1 queueMicrotask, p1 one, cb2, p2 two")
	})
}
