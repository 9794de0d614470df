// META: title=Web Locks API: ordering of callbacks and promise reactions
// META: script=resources/helpers.js
'use strict';

promise_test(async t => {
  const name = uniqueName();
  const log = [];
  const p = navigator.locks.request(name, () => {
    const w = Promise.resolve('value');
    w.then(() => log.push('waiting settled'));
    return w;
  });
  p.then(() => log.push('released settled'));
  await p;
  await nextTask(t);
  assert_array_equals(log, ['waiting settled', 'released settled']);
}, 'The released promise settles after the waiting promise');

promise_test(async t => {
  const name = uniqueName();
  const log = [];
  const p = navigator.locks.request(name, async () => {
    log.push('callback start');
    await null;
    log.push('callback end');
  });
  p.then(() => log.push('released settled'));
  log.push('request returned');
  await p;
  assert_array_equals(log, ['request returned', 'callback start', 'callback end', 'released settled']);
}, 'The async callback runs to completion before the released promise settles');

promise_test(async t => {
  const name = uniqueName();
  const log = [];
  const error = new Error('boom');
  const p = navigator.locks.request(name, () => {
    const w = Promise.reject(error);
    w.catch(() => log.push('waiting rejected'));
    return w;
  });
  p.catch(() => log.push('released rejected'));
  await promise_rejects_exactly(t, error, p);
  await nextTask(t);
  assert_array_equals(log, ['waiting rejected', 'released rejected']);
}, 'A rejected waiting promise settles before the released promise rejects');

promise_test(async t => {
  const name = uniqueName();
  let callbackRan = false;
  const p = navigator.locks.request(name, () => { callbackRan = true; });
  const state = await snapshotFor(name);
  assert_true(callbackRan, 'the grant\'s callback ran before query() resolved');
  await p;
}, 'A callback queued before a query() reply runs first');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 1, 'query() issued right after request() sees the lock held');
  assert_equals(h.calls, 1);
}, 'query() issued after request() observes the request');

promise_test(async t => {
  const log = [];
  const a = navigator.locks.request(uniqueName('a'), () => { log.push('a'); });
  const b = navigator.locks.request(uniqueName('b'), () => { log.push('b'); });
  const c = navigator.locks.request(uniqueName('c'), () => { log.push('c'); });
  await Promise.all([a, b, c]);
  assert_array_equals(log, ['a', 'b', 'c']);
}, 'Callbacks for free names run in request order');

promise_test(async t => {
  const name = uniqueName();
  const ex = holdLock(t, name);
  await ex.granted;
  const log = [];
  const all = [];
  for (const id of [1, 2, 3]) {
    all.push(navigator.locks.request(name, {mode: 'shared'}, async () => { log.push(id); await nextTask(t); }));
  }
  ex.release();
  await Promise.all(all);
  assert_array_equals(log, [1, 2, 3]);
}, 'Shared requests granted together are called back in request order');

promise_test(async t => {
  const name = uniqueName();
  const log = [];
  const first = navigator.locks.request(name, () => { log.push('first callback'); });
  first.then(() => log.push('first released'));
  const second = navigator.locks.request(name, () => { log.push('second callback'); });
  second.then(() => log.push('second released'));
  await Promise.all([first, second]);
  assert_equals(log[0], 'first callback');
  assert_array_equals(log.filter(x => x.startsWith('second')), ['second callback', 'second released']);
  assert_true(log.indexOf('first released') > log.indexOf('first callback'));
}, 'A queued request is called back after the previous holder\'s callback');

// The spec's note on the two promises: "if the callback is not async and
// returns a non-promise, the return value is wrapped in a promise that is
// immediately resolved; the lock will be released in an upcoming microtask,
// and the released promise will also resolve in a subsequent microtask."
promise_test(async t => {
  const name = uniqueName();
  const log = [];
  const p = navigator.locks.request(name, () => {
    t.step_timeout(() => log.push('task queued by the callback'), 0);
    log.push('callback');
    return 'value';
  });
  p.then(() => log.push('released settled'));
  await p;
  await new Promise(resolve => t.step_timeout(resolve, 20));
  assert_array_equals(log, ['callback', 'released settled', 'task queued by the callback']);
}, 'The released promise of a synchronous callback settles in a microtask, before later tasks');

promise_test(async t => {
  const name = uniqueName();
  const log = [];
  const p = navigator.locks.request(name, async () => {
    t.step_timeout(() => log.push('task queued by the callback'), 0);
    await null;
    log.push('callback done');
  });
  p.then(() => log.push('released settled'));
  await p;
  await new Promise(resolve => t.step_timeout(resolve, 20));
  assert_array_equals(log, ['callback done', 'released settled', 'task queued by the callback']);
}, 'The released promise of an async callback settles in microtasks after it completes');

promise_test(async t => {
  const name = uniqueName();
  const log = [];
  const first = navigator.locks.request(name, () => { log.push('first callback'); });
  first.then(() => log.push('first released'));
  const second = navigator.locks.request(name, () => { log.push('second callback'); });
  second.then(() => log.push('second released'));
  await Promise.all([first, second]);
  assert_array_equals(log, ['first callback', 'first released', 'second callback', 'second released']);
}, 'The holder\'s released promise settles before the next holder is called back');

promise_test(async t => {
  const name = uniqueName();
  await navigator.locks.request(name, () => {});
  const lock = await navigator.locks.request(name, {ifAvailable: true}, l => l);
  assert_true(lock instanceof Lock, 'the lock is free once the released promise settled');
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 0);
}, 'When the released promise settles the lock is already released');
