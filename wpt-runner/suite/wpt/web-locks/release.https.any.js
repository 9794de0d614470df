// META: title=Web Locks API: releasing locks
// META: script=resources/helpers.js
'use strict';

promise_test(async t => {
  const name = uniqueName();
  const error = new Error('sync throw');
  const p = navigator.locks.request(name, () => { throw error; });
  const next = navigator.locks.request(name, () => 'next granted');
  await promise_rejects_exactly(t, error, p);
  assert_equals(await next, 'next granted');
}, 'A synchronously throwing callback releases its lock');

promise_test(async t => {
  const name = uniqueName();
  await navigator.locks.request(name, () => { throw new Error('sync throw'); }).catch(() => {});
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 0, 'nothing held after the throw');
  const lock = await navigator.locks.request(name, {ifAvailable: true}, l => l);
  assert_true(lock instanceof Lock);
}, 'After a synchronous throw the lock is available immediately');

promise_test(async t => {
  const name = uniqueName();
  const p = navigator.locks.request(name, async () => { await nextTask(t); throw new Error('async throw'); });
  const next = navigator.locks.request(name, () => 'next granted');
  await promise_rejects_js(t, Error, p);
  assert_equals(await next, 'next granted');
}, 'An async callback that throws releases its lock');

promise_test(async t => {
  const name = uniqueName();
  const p = navigator.locks.request(name, () => Promise.reject(new TypeError('rejected')));
  const next = navigator.locks.request(name, () => 'next granted');
  await promise_rejects_js(t, TypeError, p);
  assert_equals(await next, 'next granted');
}, 'A rejected waiting promise releases the lock');

promise_test(async t => {
  const name = uniqueName();
  navigator.locks.request(name, () => new Promise(() => {})).catch(() => {});
  await barrier();
  await nextTask(t);
  const lock = await navigator.locks.request(name, {ifAvailable: true}, l => l);
  assert_equals(lock, null, 'a never-settling promise keeps the lock');
}, 'A callback returning a never-settling promise holds the lock indefinitely');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  await navigator.locks.request(name, {ifAvailable: true}, () => new Promise(r => t.step_timeout(r, 10)));
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 1, 'a null-lock callback holds nothing');
  h.release();
  await h.request;
  const after = await snapshotFor(name);
  assert_equals(after.held.length + after.pending.length, 0);
}, 'A callback called with null holds no lock');

promise_test(async t => {
  const name = uniqueName();
  const a = holdLock(t, name, {mode: 'shared'});
  const b = holdLock(t, name, {mode: 'shared'});
  await Promise.all([a.granted, b.granted]);
  a.release();
  await a.request;
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 1, 'releasing one shared lock leaves the other held');
}, 'Releasing one shared lock leaves the others held');

promise_test(async t => {
  const a = uniqueName('A');
  const b = uniqueName('B');
  const result = await navigator.locks.request(a, async () => {
    return await navigator.locks.request(b, async () => {
      const state = await snapshotFor(a, b);
      return state.held.map(i => i.name).sort();
    });
  });
  assert_array_equals(result, [a, b].sort(), 'both locks held inside the inner callback');
  const after = await snapshotFor(a, b);
  assert_equals(after.held.length, 0, 'both released afterwards');
}, 'Nested requests on different names hold both locks');
