package bindings

import (
	"strings"
	"testing"
)

// Acceptance tests of the Web Locks API from JavaScript. Every test runs in
// a Window realm and in a dedicated worker realm (scopes), on a manual
// scheduler: deterministic, no sleeps.

// scopes runs f with a fresh window realm and a fresh worker realm.
func scopes(t *testing.T, f func(t *testing.T, w *world, j *jsRealm)) {
	t.Run("window", func(t *testing.T) {
		w := newWorld(t)
		f(t, w, w.window("https://example.com/"))
	})
	t.Run("worker", func(t *testing.T) {
		w := newWorld(t)
		win := w.window("https://example.com/")
		f(t, w, w.worker(win, "https://example.com/worker.js"))
	})
}

// prelude defines the helpers the spec examples use.
const prelude = `
	function do_something() { return new Promise(r => setTimeout(r, 10)); }
	function do_something_else() { return new Promise(r => setTimeout(r, 10)); }
	function log(...a) { console.log(a.map(String).join(" ")); }
	function fail(e) { console.log("FAIL " + (e && e.stack || e)); done(); }
	function assert(c, m) { if (!c) throw new Error("assertion failed: " + m); }
`

func expectLog(t *testing.T, j *jsRealm, want ...string) {
	t.Helper()
	got := j.takeLog()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Spec §2.1 example (basic usage): the lock is held while the async
// callback runs and released after; awaiting request() waits for that.
func TestSpecExampleBasicUsage(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			navigator.locks.request('my_resource', async lock => {
				log("acquired", lock.name, lock.mode);
				await do_something();
				await do_something_else();
				log("releasing");
			});
			(async () => {
				log("before");
				await navigator.locks.request('my_resource', async lock => {
					log("second acquired");
					await do_something();
				});
				log("after");
				const state = await navigator.locks.query();
				log("held", state.held.length, "pending", state.pending.length);
				done();
			})().catch(fail);
		`)
		// The grant is asynchronous: "before" comes first.
		expectLog(t, j, "before", "acquired my_resource exclusive", "releasing", "second acquired", "after", "held 0 pending 0")
	})
}

// Spec §3.3 note: p1 is the released promise, p2 the waiting promise; p1
// settles with p2's outcome, after p2.
func TestSpecExampleWaitingAndReleasedPromises(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			let resolveP2;
			let p2;
			const p1 = navigator.locks.request('resource', lock => {
				p2 = new Promise(r => { resolveP2 = r; });
				p2.then(v => log("p2", v));
				return p2;
			});
			p1.then(v => { log("p1", v); done(); }, fail);
			setTimeout(() => { log("resolving p2"); resolveP2("value"); }, 5);
		`)
		expectLog(t, j, "resolving p2", "p2 value", "p1 value")
	})
}

// Spec request() domintro: the result of the callback is the result of
// request(); a throw in the callback rejects it; the lock is released in
// both cases.
func TestSpecDomintroRequestResultAndThrow(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			(async () => {
				try {
					const result = await navigator.locks.request('resource', async lock => {
						await do_something();
						await do_something_else();
						return "ok";
					});
					log("result", result);
				} catch (ex) { log("unexpected", ex); }
				try {
					await navigator.locks.request('resource', async lock => { throw new Error("boom"); });
					log("unexpected fulfilment");
				} catch (ex) { log("caught", ex.message); }
				try {
					await navigator.locks.request('resource', lock => { throw new RangeError("sync"); });
				} catch (ex) { log("caught sync", ex.name, ex.message); }
				const v = await navigator.locks.request('resource', lock => 42);
				log("plain value", v);
				const s = await navigator.locks.query();
				log("held", s.held.length);
				done();
			})().catch(fail);
		`)
		expectLog(t, j, "result ok", "caught boom", "caught sync RangeError sync", "plain value 42", "held 0")
	})
}

// Spec options.mode domintro: shared locks are held together; an
// exclusive request waits for all of them.
func TestSpecDomintroModeShared(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			const events = [];
			const r1 = navigator.locks.request('resource', {mode: 'shared'}, async lock => {
				events.push("s1 " + lock.mode); await do_something(); events.push("s1 end");
			});
			const r2 = navigator.locks.request('resource', {mode: 'shared'}, async lock => {
				events.push("s2 " + lock.mode);
				const s = await navigator.locks.query();
				events.push("held " + s.held.map(l => l.mode).join(",") + " pending " + s.pending.map(l => l.mode).join(","));
				await do_something_else(); events.push("s2 end");
			});
			const r3 = navigator.locks.request('resource', async lock => { events.push("x " + lock.mode); });
			Promise.all([r1, r2, r3]).then(() => { events.forEach(e => log(e)); done(); }, fail);
		`)
		expectLog(t, j, "s1 shared", "s2 shared", "held shared,shared pending exclusive", "s1 end", "s2 end", "x exclusive")
	})
}

// Spec options.ifAvailable domintro: the callback gets null when the lock
// is not available right away; the request is not rejected.
func TestSpecDomintroIfAvailable(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			(async () => {
				await navigator.locks.request('resource', {ifAvailable: true}, async lock => {
					log("free:", lock === null ? "null" : lock.name);
				});
				let release;
				const held = navigator.locks.request('resource', lock => new Promise(r => { release = r; }));
				const r = await navigator.locks.request('resource', {ifAvailable: true}, async lock => {
					if (!lock) { log("busy: null"); return "not taken"; }
					log("unexpected lock");
				});
				log("result", r);
				release();
				await held;
				done();
			})().catch(fail);
		`)
		expectLog(t, j, "free: resource", "busy: null", "result not taken")
	})
}

// Spec options.signal domintro: a request aborted by its signal (from a
// timer) rejects with an AbortError; once granted, the signal is ignored.
func TestSpecDomintroSignal(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			(async () => {
				let release;
				const held = navigator.locks.request('resource', lock => new Promise(r => { release = r; }));
				const controller = new AbortController();
				setTimeout(() => controller.abort(), 200); // Wait at most 200ms.
				const t0 = performance.now();
				try {
					await navigator.locks.request('resource', {signal: controller.signal}, async lock => {
						log("unexpected grant");
					});
				} catch (ex) {
					log("rejected", ex.name, ex instanceof DOMException, Math.round(performance.now() - t0));
				}
				const s = await navigator.locks.query();
				log("pending after abort", s.pending.length);
				release();
				await held;
				// Granted first, aborted later: ignored.
				const c2 = new AbortController();
				const v = await navigator.locks.request('resource', {signal: c2.signal}, async lock => {
					c2.abort(); await do_something(); return "kept";
				});
				log(v);
				done();
			})().catch(fail);
		`)
		expectLog(t, j, "rejected AbortError true 200", "pending after abort 0", "kept")
	})
}

// Spec options.steal domintro: held locks of the name are released, their
// released promise rejects with AbortError, and the stealer is granted
// ahead of queued requests.
func TestSpecDomintroSteal(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			const order = [];
			const victim = navigator.locks.request('resource', lock => new Promise(() => {}));
			victim.catch(e => order.push("victim " + e.name));
			const queued = navigator.locks.request('resource', lock => { order.push("queued granted"); });
			const thief = navigator.locks.request('resource', {steal: true}, lock => { order.push("thief granted"); return "stolen"; });
			Promise.all([queued, thief]).then(([, s]) => { order.push(s); order.forEach(e => log(e)); done(); }, fail);
		`)
		expectLog(t, j, "victim AbortError", "thief granted", "queued granted", "stolen")
	})
}

// Spec query() domintro: the snapshot's shape, with clientIds.
func TestSpecDomintroQuery(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			(async () => {
				const never = () => new Promise(() => {});
				navigator.locks.request('resource1', never);
				navigator.locks.request('resource2', {mode: 'shared'}, never);
				navigator.locks.request('resource1', never);
				const state = await navigator.locks.query();
				log(JSON.stringify(state.held.map(({name, mode}) => ({name, mode}))));
				log(JSON.stringify(state.pending.map(({name, mode}) => ({name, mode}))));
				const ids = new Set([...state.held, ...state.pending].map(i => i.clientId));
				log("clientIds", ids.size, typeof [...ids][0], /^[0-9a-f-]{36}$/.test([...ids][0]));
				log("keys", Object.keys(state).join(","), Object.keys(state.held[0]).join(","));
				done();
			})().catch(fail);
		`)
		expectLog(t, j,
			`[{"name":"resource1","mode":"exclusive"},{"name":"resource2","mode":"shared"}]`,
			`[{"name":"resource1","mode":"exclusive"}]`,
			"clientIds 1 string true",
			"keys held,pending clientId,mode,name")
	})
}

// Spec §2.2 example: resource names composed like IndexedDB stores.
func TestSpecExampleIndexedDBNames(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			const name = encodeURIComponent("my db") + '/' + encodeURIComponent("store/1");
			navigator.locks.request(name, lock => { log(lock.name); }).then(done, fail);
		`)
		expectLog(t, j, "my%20db/store%2F1")
	})
}

// Spec §7.1 example (deadlocks): two scripts taking A then B and B then A
// can deadlock; query shows it; steal breaks it.
func TestSpecExampleDeadlock(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			// Script 1
			const s1 = navigator.locks.request('A', async a => {
				await do_something();
				await navigator.locks.request('B', async b => { log("script 1 has B (A was stolen)"); });
			});
			s1.catch(e => log("script 1 lost A:", e.name));
			// Script 2
			const s2 = navigator.locks.request('B', async b => {
				await do_something();
				await navigator.locks.request('A', async a => { log("script 2 has A and B"); });
			});
			setTimeout(async () => {
				const s = await navigator.locks.query();
				log("held", s.held.map(l => l.name).sort().join(","), "pending", s.pending.map(l => l.name).sort().join(","));
				// Break it: steal A.
				await navigator.locks.request('A', {steal: true}, async a => { log("stole A"); });
				await s2;
				log("script 2 done");
				done();
			}, 100);
		`)
		expectLog(t, j, "held A,B pending A,B", "script 1 lost A: AbortError", "stole A",
			"script 2 has A and B", "script 2 done", "script 1 has B (A was stolen)")
	})
}

// Spec §7.1 example: requestMultiple acquires locks in a consistent order.
func TestSpecExampleRequestMultiple(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			async function requestMultiple(resources, callback) {
				const sortedResources = [...resources];
				sortedResources.sort(); // Always request in the same order.
				async function requestNext(locks) {
					return await navigator.locks.request(sortedResources.shift(), async lock => {
						locks.push(lock);
						if (sortedResources.length > 0)
							return await requestNext(locks);
						return await callback(locks);
					});
				}
				return await requestNext([]);
			}
			Promise.all([
				requestMultiple(['c', 'a', 'b'], async locks => { log("first", locks.map(l => l.name).join("")); await do_something(); return 1; }),
				requestMultiple(['b', 'c', 'a'], async locks => { log("second", locks.map(l => l.name).join("")); return 2; }),
			]).then(r => { log("results", r.join(",")); return navigator.locks.query(); })
			  .then(s => { log("held", s.held.length); done(); }, fail);
		`)
		expectLog(t, j, "first abc", "second abc", "results 1,2", "held 0")
	})
}

// Every kind of callable is a LockGrantedCallback: it is called with the
// Lock and undefined as this; a class constructor is callable too, and
// calling it throws a TypeError that rejects the released promise. A
// non-callable object is a TypeError from request() itself. (The
// expected lines are what Chromium 156 logs for the same script.)
func TestRequestCallbackKinds(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			(async () => {
				const kinds = [
					['function', function (l) { 'use strict'; return String(this) + ' ' + l.name; }],
					['arrow', l => 'arrow ' + l.name],
					['async', async l => 'async ' + l.name],
					['bound', function (l) { return this + ' ' + l.name; }.bind('bound')],
					['proxy', new Proxy(l => 'proxy ' + l.name, {})],
					['generator', function* () {}],
					['class', class {}],
				];
				for (const [label, cb] of kinds) {
					try {
						const v = await navigator.locks.request('k', cb);
						log(label + ': ' + (typeof v === 'object' ? Object.prototype.toString.call(v) : v));
					} catch (e) {
						log(label + ': rejected ' + e.name);
					}
				}
				for (const v of [{}, new Proxy({}, {}), 'f']) {
					try {
						await navigator.locks.request('k', v);
						log('not callable: fulfilled');
					} catch (e) {
						log('not callable: rejected ' + e.name);
					}
				}
				done();
			})().catch(fail);
		`)
		expectLog(t, j,
			"function: undefined k",
			"arrow: arrow k",
			"async: async k",
			"bound: bound k",
			"proxy: proxy k",
			"generator: [object Generator]",
			"class: rejected TypeError",
			"not callable: rejected TypeError",
			"not callable: rejected TypeError",
			"not callable: rejected TypeError",
		)
	})
}
