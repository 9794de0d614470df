package bindings

import "testing"

// A Go DOMException is one JavaScript object per realm: the default abort
// reason read from signal.reason, the rejection of the lock request it
// aborted (already aborted, and aborted while pending) and the reason of an
// AbortSignal.any() dependent are the same object (upstream WPT
// web-locks/signal.https.any.js "... rejects with the default abort reason").
func TestDOMExceptionIdentity(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			(async () => {
				const c = new AbortController();
				c.abort();
				const e1 = await navigator.locks.request('x', {signal: c.signal}, () => {}).catch(e => e);
				log("already aborted", e1.name, e1 === c.signal.reason);
				log("any", AbortSignal.any([c.signal]).reason === c.signal.reason);

				let release;
				await new Promise(granted => navigator.locks.request('y', () => {
					granted(); return new Promise(r => { release = r; });
				}));
				const c2 = new AbortController();
				const p = navigator.locks.request('y', {signal: c2.signal}, () => {});
				c2.abort();
				const e2 = await p.catch(e => e);
				release();
				log("pending", e2.name, e2 === c2.signal.reason, e2 !== e1);

				const t = AbortSignal.timeout(0);
				await new Promise(r => t.onabort = r);
				const e3 = await navigator.locks.request('z', {signal: t}, () => {}).catch(e => e);
				log("timeout", e3.name, e3 === t.reason);
				done();
			})().catch(fail);
		`)
		expectLog(t, j, "already aborted AbortError true", "any true", "pending AbortError true true", "timeout TimeoutError true")
	})
}
