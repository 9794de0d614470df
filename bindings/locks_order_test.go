package bindings

import "testing"

// When a released promise settles, relative to the microtasks the
// callback starts and to the next waiter's callback, for each kind of
// callback completion (and how often a then getter is called). The bindings settle a waiting promise
// fulfilled with a primitive without a JavaScript promise; these orders
// must be those of a real waiting promise (the expected lines are what
// Chromium 156 logs for the same script).
func TestReleasedSettlementTicks(t *testing.T) {
	scopes(t, func(t *testing.T, w *world, j *jsRealm) {
		j.async(prelude + `
			async function scenario(label, name, opts, cb) {
				const order = [];
				const wrapped = lock => {
					let p = Promise.resolve();
					for (let i = 1; i <= 6; i++) p = p.then(() => { order.push('t' + i); });
					return cb(lock, order);
				};
				const released = opts ? navigator.locks.request(name, opts, wrapped) : navigator.locks.request(name, wrapped);
				const next = name === 'held' ? null : navigator.locks.request(name, () => { order.push('cb2'); });
				released.then(v => { order.push('released ' + String(v)); }, e => { order.push('rejected ' + String(e)); });
				await Promise.allSettled([released, next]);
				await new Promise(r => setTimeout(r, 0));
				log(label + ': ' + order.join(' '));
			}
			(async () => {
				await scenario('undefined', 'a', null, () => {});
				await scenario('string', 'a', null, () => 'v');
				await scenario('number', 'a', {mode: 'shared'}, () => 42);
				await scenario('resolved promise', 'a', null, () => Promise.resolve('p'));
				await scenario('async', 'a', null, async () => 'a');
				await scenario('throw', 'a', null, () => { throw 'e'; });
				await scenario('thenable', 'a', null, (lock, order) => ({ then(r) { order.push('then called'); r('th'); } }));
				await scenario('then getter', 'a', null, (lock, order) => ({ get then() { order.push('get then'); return undefined; } }));
				await scenario('ifAvailable granted', 'a', {ifAvailable: true}, lock => String(lock && lock.name));
				let release;
				navigator.locks.request('held', () => new Promise(r => { release = r; }));
				await scenario('ifAvailable not granted', 'held', {ifAvailable: true}, lock => String(lock));
				release();
				done();
			})().catch(fail);
		`)
		expectLog(t, j,
			"undefined: t1 t2 t3 t4 t5 t6 released undefined cb2",
			"string: t1 t2 t3 t4 t5 t6 released v cb2",
			"number: t1 t2 t3 t4 t5 t6 released 42 cb2",
			"resolved promise: t1 t2 t3 t4 t5 t6 released p cb2",
			"async: t1 t2 t3 t4 t5 t6 released a cb2",
			"throw: t1 t2 t3 t4 t5 t6 rejected e cb2",
			"thenable: t1 t2 t3 t4 t5 t6 then called released th cb2",
			"then getter: t1 t2 t3 t4 t5 t6 get then get then released [object Object] cb2",
			"ifAvailable granted: t1 t2 t3 t4 t5 t6 released a cb2",
			"ifAvailable not granted: t1 t2 t3 t4 t5 t6 released null",
		)
	})
}
