// META: title=Web Locks API: request() grants, callbacks and the released promise
// META: script=resources/helpers.js
'use strict';

promise_test(async t => {
  const name = uniqueName();
  let lock;
  await navigator.locks.request(name, l => { lock = l; });
  assert_true(lock instanceof Lock, 'callback receives a Lock');
  assert_equals(lock.name, name, 'Lock.name');
  assert_equals(lock.mode, 'exclusive', 'Lock.mode defaults to exclusive');
}, 'A granted request invokes the callback with a Lock for that name');

promise_test(async t => {
  const name = uniqueName();
  const log = [];
  const p = navigator.locks.request(name, () => { log.push('callback'); });
  log.push('returned');
  assert_true(p instanceof Promise, 'request() returns a Promise');
  await p;
  assert_array_equals(log, ['returned', 'callback']);
}, 'request() returns before the callback runs');

promise_test(async t => {
  const name = uniqueName();
  let seen;
  await navigator.locks.request(name, function () { seen = arguments.length; });
  assert_equals(seen, 1);
}, 'The callback is invoked with exactly one argument');

promise_test(async t => {
  const name = uniqueName();
  let thisValue = 'unset';
  await navigator.locks.request(name, function () { 'use strict'; thisValue = this; });
  assert_equals(thisValue, undefined);
}, 'The callback is invoked with an undefined this value');

promise_test(async t => {
  const value = await navigator.locks.request(uniqueName(), () => 42);
  assert_equals(value, 42);
}, 'The released promise resolves with a synchronous return value');

promise_test(async t => {
  const value = await navigator.locks.request(uniqueName(), async () => 'async result');
  assert_equals(value, 'async result');
}, 'The released promise resolves with the value of an async callback');

promise_test(async t => {
  const value = await navigator.locks.request(uniqueName(), () => new Promise(r => t.step_timeout(() => r('later'), 5)));
  assert_equals(value, 'later');
}, 'The released promise resolves with the value of a returned promise');

promise_test(async t => {
  const value = await navigator.locks.request(uniqueName(), () => ({then(resolve) { resolve('thenable'); }}));
  assert_equals(value, 'thenable');
}, 'A returned thenable is adopted by the waiting promise');

promise_test(async t => {
  const value = await navigator.locks.request(uniqueName(), () => undefined);
  assert_equals(value, undefined);
}, 'The released promise resolves with undefined when the callback returns nothing');

promise_test(async t => {
  const error = new Error('callback error');
  await promise_rejects_exactly(t, error, navigator.locks.request(uniqueName(), () => { throw error; }));
}, 'The released promise rejects with a synchronously thrown exception');

promise_test(async t => {
  const error = new Error('async error');
  await promise_rejects_exactly(t, error, navigator.locks.request(uniqueName(), async () => { throw error; }));
}, 'The released promise rejects with the rejection of an async callback');

promise_test(async t => {
  await promise_rejects_exactly(t, 'plain value', navigator.locks.request(uniqueName(), () => Promise.reject('plain value')));
}, 'The released promise rejects with a non-Error rejection reason');

promise_test(async t => {
  const name = uniqueName();
  const locks = [];
  await navigator.locks.request(name, l => { locks.push(l); });
  await navigator.locks.request(name, l => { locks.push(l); });
  assert_not_equals(locks[0], locks[1], 'every grant gets a new Lock object');
  assert_equals(locks[0].name, name);
  assert_equals(locks[0].mode, 'exclusive', 'getters still work after release');
}, 'Each grant creates a new Lock object, usable after release');

promise_test(async t => {
  const name = uniqueName();
  const order = [];
  const first = holdLock(t, name);
  await first.granted;
  const second = navigator.locks.request(name, () => { order.push('second'); });
  const third = navigator.locks.request(name, () => { order.push('third'); });
  await barrier();
  assert_array_equals(order, [], 'queued requests wait while the lock is held');
  first.release();
  await Promise.all([second, third]);
  assert_array_equals(order, ['second', 'third']);
}, 'Exclusive requests for one name are granted one at a time in request order');

promise_test(async t => {
  const a = holdLock(t, uniqueName('a'));
  const b = holdLock(t, uniqueName('b'));
  const [la, lb] = await Promise.all([a.granted, b.granted]);
  assert_true(la instanceof Lock && lb instanceof Lock, 'both granted while the other is held');
}, 'Locks on different names do not block each other');

promise_test(async t => {
  const name = uniqueName();
  let inner;
  const result = await navigator.locks.request(name, async () => {
    inner = await navigator.locks.request(name, {ifAvailable: true}, l => l);
    return 'outer';
  });
  assert_equals(result, 'outer');
  assert_equals(inner, null, 'a lock holder cannot take its own lock again');
}, 'Locks are not re-entrant');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  let granted = false;
  const waiter = navigator.locks.request(name, () => { granted = true; });
  await barrier();
  await nextTask(t);
  assert_false(granted, 'not granted while the holder\'s waiting promise is pending');
  h.release('done');
  assert_equals(await h.request, 'done');
  await waiter;
  assert_true(granted);
}, 'A lock is held until the callback\'s returned promise settles');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const waiter = navigator.locks.request(name, () => 'next');
  h.release();
  assert_equals(await waiter, 'next');
  assert_equals(h.calls, 1, 'the callback ran once');
}, 'Releasing a lock grants the next queued request');

promise_test(async t => {
  const name = uniqueName();
  const first = holdLock(t, name);
  await first.granted;
  const order = [];
  const all = [];
  for (let i = 0; i < 200; i++) {
    all.push(navigator.locks.request(name, {mode: i % 3 ? 'exclusive' : 'shared'}, () => { order.push(i); }));
  }
  await barrier();
  const state = await snapshotFor(name);
  assert_equals(state.pending.length, 200, 'all queued');
  first.release();
  await Promise.all(all);
  assert_array_equals(order, Array.from({length: 200}, (_, i) => i));
}, '200 queued requests are granted in request order');
