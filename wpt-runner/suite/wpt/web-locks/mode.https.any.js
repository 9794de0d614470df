// META: title=Web Locks API: shared and exclusive modes
// META: script=resources/helpers.js
'use strict';

promise_test(async t => {
  let mode;
  await navigator.locks.request(uniqueName(), {mode: 'shared'}, l => { mode = l.mode; });
  assert_equals(mode, 'shared');
}, 'Lock.mode reports "shared" for a shared request');

promise_test(async t => {
  let mode;
  await navigator.locks.request(uniqueName(), {mode: 'exclusive'}, l => { mode = l.mode; });
  assert_equals(mode, 'exclusive');
}, 'Lock.mode reports "exclusive" for an explicit exclusive request');

promise_test(async t => {
  const name = uniqueName();
  const a = holdLock(t, name, {mode: 'shared'});
  const b = holdLock(t, name, {mode: 'shared'});
  const c = holdLock(t, name, {mode: 'shared'});
  const locks = await Promise.all([a.granted, b.granted, c.granted]);
  assert_true(locks.every(l => l instanceof Lock && l.mode === 'shared'));
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 3, 'three shared locks held at once');
}, 'Shared locks on one name are held concurrently');

promise_test(async t => {
  const name = uniqueName();
  const shared1 = holdLock(t, name, {mode: 'shared'});
  const shared2 = holdLock(t, name, {mode: 'shared'});
  await Promise.all([shared1.granted, shared2.granted]);
  const exclusive = holdLock(t, name);
  await barrier();
  assert_equals(exclusive.calls, 0, 'exclusive waits for shared holders');
  shared1.release();
  await shared1.request;
  await barrier();
  assert_equals(exclusive.calls, 0, 'exclusive still waits for the last shared holder');
  shared2.release();
  assert_equals((await exclusive.granted).mode, 'exclusive');
}, 'An exclusive request waits until every shared lock is released');

promise_test(async t => {
  const name = uniqueName();
  const exclusive = holdLock(t, name);
  await exclusive.granted;
  const shared = holdLock(t, name, {mode: 'shared'});
  await barrier();
  assert_equals(shared.calls, 0, 'shared waits for the exclusive holder');
  exclusive.release();
  assert_equals((await shared.granted).mode, 'shared');
}, 'A shared request waits for an exclusive holder');

promise_test(async t => {
  const name = uniqueName();
  const held = holdLock(t, name, {mode: 'shared'});
  await held.granted;
  const exclusive = holdLock(t, name);
  const lateShared = holdLock(t, name, {mode: 'shared'});
  await barrier();
  assert_equals(exclusive.calls, 0, 'exclusive is queued behind the shared holder');
  assert_equals(lateShared.calls, 0, 'the new shared request waits behind the queued exclusive one');
  const state = await snapshotFor(name);
  assert_array_equals(state.pending.map(i => i.mode), ['exclusive', 'shared']);
  held.release();
  await exclusive.granted;
  await barrier();
  assert_equals(lateShared.calls, 0, 'shared still waits while the exclusive lock is held');
  exclusive.release();
  assert_equals((await lateShared.granted).mode, 'shared');
}, '[held shared, queued exclusive, new shared]: the new shared request keeps waiting');

promise_test(async t => {
  const name = uniqueName();
  const exclusive = holdLock(t, name);
  await exclusive.granted;
  const s1 = holdLock(t, name, {mode: 'shared'});
  const s2 = holdLock(t, name, {mode: 'shared'});
  const e2 = holdLock(t, name);
  const s3 = holdLock(t, name, {mode: 'shared'});
  await barrier();
  exclusive.release();
  await Promise.all([s1.granted, s2.granted]);
  await barrier();
  assert_equals(e2.calls, 0, 'the exclusive request waits for the shared run ahead of it');
  assert_equals(s3.calls, 0, 'the shared request behind the exclusive one waits');
  s1.release();
  s2.release();
  await e2.granted;
  await barrier();
  assert_equals(s3.calls, 0);
  e2.release();
  await s3.granted;
}, 'Consecutive shared requests are granted together; requests behind an exclusive one wait');

promise_test(async t => {
  const name = uniqueName();
  const shared = holdLock(t, name, {mode: 'shared'});
  await shared.granted;
  const exclusive = holdLock(t, name);
  await barrier();
  const other = holdLock(t, uniqueName('other'), {mode: 'exclusive'});
  assert_true((await other.granted) instanceof Lock, 'another name is unaffected');
  shared.release();
  await exclusive.granted;
}, 'Queues are per name');

promise_test(async t => {
  const name = uniqueName();
  const first = holdLock(t, name);
  await first.granted;
  const order = [];
  const requests = [];
  for (let i = 0; i < 5; i++) {
    requests.push(navigator.locks.request(name, {mode: i % 2 ? 'shared' : 'exclusive'}, () => { order.push(i); }));
  }
  first.release();
  await Promise.all(requests);
  assert_array_equals(order, [0, 1, 2, 3, 4]);
}, 'Mixed-mode requests are granted in request order');
