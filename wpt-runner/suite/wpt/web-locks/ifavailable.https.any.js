// META: title=Web Locks API: the ifAvailable option
// META: script=resources/helpers.js
'use strict';

promise_test(async t => {
  const name = uniqueName();
  const lock = await navigator.locks.request(name, {ifAvailable: true}, l => l);
  assert_true(lock instanceof Lock);
  assert_equals(lock.name, name);
}, 'ifAvailable grants a free lock');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  let args;
  const result = await navigator.locks.request(name, {ifAvailable: true}, function (...a) { args = a; return 'ran'; });
  assert_array_equals(args, [null], 'the callback gets exactly one argument, null');
  assert_equals(result, 'ran', 'the released promise resolves with the callback\'s result');
}, 'ifAvailable on a held name calls back with null');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const error = new Error('thrown with null lock');
  await promise_rejects_exactly(t, error, navigator.locks.request(name, {ifAvailable: true}, () => { throw error; }));
}, 'A callback throwing for a null lock rejects the released promise');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const result = await navigator.locks.request(name, {ifAvailable: true}, async l => {
    await nextTask(t);
    return l;
  });
  assert_equals(result, null);
}, 'An async callback for a null lock resolves the released promise with its result');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name, {mode: 'shared'});
  await h.granted;
  const lock = await navigator.locks.request(name, {mode: 'shared', ifAvailable: true}, l => l);
  assert_true(lock instanceof Lock, 'shared is available next to shared');
  const ex = await navigator.locks.request(name, {ifAvailable: true}, l => l);
  assert_equals(ex, null, 'exclusive is not available next to shared');
}, 'ifAvailable honours modes');

promise_test(async t => {
  const name = uniqueName();
  const held = holdLock(t, name, {mode: 'shared'});
  await held.granted;
  const queued = holdLock(t, name);
  await barrier();
  const lock = await navigator.locks.request(name, {mode: 'shared', ifAvailable: true}, l => l);
  assert_equals(lock, null, 'a queued request makes the lock unavailable');
}, 'ifAvailable needs an empty queue as well as no conflicting holder');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  await navigator.locks.request(name, {ifAvailable: true}, () => {});
  const state = await snapshotFor(name);
  assert_equals(state.pending.length, 0, 'the unavailable request was not queued');
  assert_equals(state.held.length, 1);
}, 'An unavailable ifAvailable request is never queued');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const holding = holdLock(t, name, {ifAvailable: true});
  assert_equals(await holding.granted, null);
  h.release();
  await h.request;
  await barrier();
  assert_equals(holding.calls, 1, 'the callback ran once, with null, and is not called again');
}, 'A request that got null is not granted later');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name, {ifAvailable: true});
  assert_true((await h.granted) instanceof Lock);
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 1, 'a lock granted through ifAvailable is held like any other');
  const other = await navigator.locks.request(name, {ifAvailable: true}, l => l);
  assert_equals(other, null);
}, 'A lock granted through ifAvailable blocks other requests');

promise_test(async t => {
  const name = uniqueName();
  const result = await navigator.locks.request(name, {ifAvailable: false}, l => l.name);
  assert_equals(result, name);
}, 'ifAvailable: false waits and grants as usual');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const log = [];
  const p = navigator.locks.request(name, {ifAvailable: true}, lock => { log.push(`callback ${lock}`); });
  log.push('returned');
  await p;
  assert_array_equals(log, ['returned', 'callback null']);
}, 'An ifAvailable miss calls back asynchronously');
