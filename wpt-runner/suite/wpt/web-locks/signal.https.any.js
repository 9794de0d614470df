// META: title=Web Locks API: aborting requests with an AbortSignal
// META: script=resources/helpers.js
'use strict';

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const controller = new AbortController();
  let called = false;
  const p = navigator.locks.request(name, {signal: controller.signal}, () => { called = true; });
  await barrier();
  controller.abort();
  await promise_rejects_dom(t, 'AbortError', p);
  h.release();
  await h.request;
  await barrier();
  assert_false(called, 'an aborted request is never granted');
}, 'Aborting a queued request rejects it with AbortError');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const controller = new AbortController();
  const reason = new Error('custom reason');
  const p = navigator.locks.request(name, {signal: controller.signal}, () => {});
  controller.abort(reason);
  await promise_rejects_exactly(t, reason, p);
}, 'Aborting rejects with a custom Error reason');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  for (const reason of ['a string', 42, null, 0, false, Symbol('reason'), {custom: true}]) {
    const controller = new AbortController();
    const p = navigator.locks.request(name, {signal: controller.signal}, () => {});
    controller.abort(reason);
    await promise_rejects_exactly(t, reason, p, `reason ${String(reason)}`);
  }
}, 'Aborting rejects with any custom reason, including null and falsy values');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const controller = new AbortController();
  const p = navigator.locks.request(name, {signal: controller.signal}, () => {});
  controller.abort(undefined);
  await promise_rejects_dom(t, 'AbortError', p);
}, 'Aborting with an undefined reason rejects with an AbortError DOMException');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const controller = new AbortController();
  const p = navigator.locks.request(name, {signal: controller.signal}, () => {});
  await barrier();
  controller.abort();
  await promise_rejects_dom(t, 'AbortError', p);
  const state = await snapshotFor(name);
  assert_equals(state.pending.length, 0, 'the aborted request left the queue');
}, 'An aborted request is removed from the queue');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const controller = new AbortController();
  const aborted = navigator.locks.request(name, {signal: controller.signal}, () => 'aborted one');
  const next = navigator.locks.request(name, () => 'next one');
  await barrier();
  controller.abort();
  await promise_rejects_dom(t, 'AbortError', aborted);
  h.release();
  assert_equals(await next, 'next one', 'the request behind the aborted one is granted');
}, 'Aborting a request lets the requests behind it proceed');

promise_test(async t => {
  const name = uniqueName();
  const ex = holdLock(t, name);
  await ex.granted;
  const controller = new AbortController();
  let lock;
  const queued = navigator.locks.request(name, {signal: controller.signal}, l => { lock = l; return 'granted'; });
  await barrier();
  assert_equals(lock, undefined, 'queued behind the holder');
  ex.release();
  assert_equals(await queued, 'granted');
  assert_equals(lock.name, name);
  assert_false(controller.signal.aborted);
}, 'A queued request with a signal is granted normally when not aborted');

promise_test(async t => {
  const name = uniqueName();
  const controller = new AbortController();
  let releaseIt;
  const p = navigator.locks.request(name, {signal: controller.signal}, () => new Promise(r => { releaseIt = r; }));
  await barrier();
  controller.abort();
  await nextTask(t);
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 1, 'aborting after the grant does not release the lock');
  releaseIt('granted value');
  assert_equals(await p, 'granted value', 'the released promise is not rejected');
}, 'Aborting after the lock was granted has no effect');

promise_test(async t => {
  const name = uniqueName();
  const controller = new AbortController();
  const result = await navigator.locks.request(name, {signal: controller.signal}, () => 'done');
  controller.abort();
  assert_equals(result, 'done');
  const again = await navigator.locks.request(name, {ifAvailable: true}, l => l);
  assert_true(again instanceof Lock, 'nothing left behind');
}, 'Aborting after release has no effect');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const controller = new AbortController();
  const p1 = navigator.locks.request(name, {signal: controller.signal}, () => {});
  const p2 = navigator.locks.request(name, {signal: controller.signal}, () => {});
  controller.abort();
  await promise_rejects_dom(t, 'AbortError', p1);
  await promise_rejects_dom(t, 'AbortError', p2);
}, 'One signal can abort several requests');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const p = navigator.locks.request(name, {signal: AbortSignal.timeout(10)}, () => {});
  await promise_rejects_dom(t, 'TimeoutError', p);
}, 'AbortSignal.timeout() rejects a waiting request with TimeoutError');

promise_test(async t => {
  const name = uniqueName();
  const result = await navigator.locks.request(name, {signal: AbortSignal.timeout(60000)}, () => 'in time');
  assert_equals(result, 'in time');
}, 'AbortSignal.timeout() does not affect a request granted in time');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const controller = new AbortController();
  const signal = AbortSignal.any([controller.signal]);
  const reason = new Error('via any()');
  const p = navigator.locks.request(name, {signal}, () => {});
  controller.abort(reason);
  await promise_rejects_exactly(t, reason, p);
}, 'A signal from AbortSignal.any() aborts the request with the source\'s reason');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const controller = new AbortController();
  const log = [];
  controller.signal.addEventListener('abort', () => log.push('abort event'));
  const p = navigator.locks.request(name, {signal: controller.signal}, () => {});
  await barrier();
  const outcome = Promise.race([
    p.then(() => 'fulfilled', () => 'rejected'),
    nextTask(t).then(() => 'a later task ran first'),
  ]);
  controller.abort();
  log.push('after abort()');
  assert_equals(await outcome, 'rejected', 'the rejection is visible before any later task');
  assert_array_equals(log, ['abort event', 'after abort()']);
}, 'abort() rejects the request promise synchronously, not in a later task');

promise_test(async t => {
  const name = uniqueName();
  const controller = new AbortController();
  let called = false;
  const p = navigator.locks.request(name, {signal: controller.signal}, () => { called = true; });
  // The free lock is granted on the lock task queue before the abort steps
  // run, but the callback's task sees the aborted signal: it releases the
  // lock instead of calling back.
  controller.abort();
  await promise_rejects_dom(t, 'AbortError', p);
  await waitFor(t, async () => (await snapshotFor(name)).held.length === 0, 'the lock to be released');
  assert_false(called, 'the callback never runs');
  const lock = await navigator.locks.request(name, {ifAvailable: true}, l => l);
  assert_true(lock instanceof Lock, 'the lock is free again');
}, 'Aborting right after request() on a free name never calls back and leaves the lock free');
