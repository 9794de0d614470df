// META: title=Web Locks API: shared workers
// META: timeout=long
// META: script=resources/helpers.js
// META: script=resources/lock-client.js
// META: script=resources/lock-sharedworker-client.js
'use strict';

promise_test(async t => {
  const worker = uniqueName('worker');
  const a = new SharedLockWorker(frame(t).contentWindow, worker);
  const b = new SharedLockWorker(frame(t).contentWindow, worker);
  const viaA = uniqueName(), viaB = uniqueName(), own = uniqueName();
  await a.request(viaA).granted;
  await b.request(viaB).granted;
  await holdLock(t, own).granted;
  const state = await snapshotFor(viaA, viaB, own);
  const clientOf = name => state.held.find(l => l.name === name).clientId;
  assert_equals(state.held.length, 3, 'every lock is held');
  assert_equals(clientOf(viaA), clientOf(viaB), 'both documents reach one client');
  assert_not_equals(clientOf(viaA), clientOf(own), 'the shared worker is not the page');
  const fromB = await b.query();
  assert_equals(fromB.held.find(l => l.name === viaA).clientId, clientOf(viaA),
                'the worker sees the lock taken through the other document as its own');
}, 'Two documents connecting to one shared worker see one clientId');

promise_test(async t => {
  const name = uniqueName();
  const a = new SharedLockWorker(window, uniqueName('worker-a'));
  const b = new SharedLockWorker(window, uniqueName('worker-b'));
  const held = a.request(name);
  await held.granted;
  assert_equals(await b.request(name, {ifAvailable: true}).granted, null,
                'the other worker cannot take the lock');
  const waiting = b.request(name);
  await waiting.queued;
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 1);
  assert_equals(state.pending.length, 1);
  assert_not_equals(state.held[0].clientId, state.pending[0].clientId,
                    'differently named workers are different clients');
  await held.release();
  const lock = await waiting.granted;
  assert_equals(lock.name, name, 'releasing grants the other worker\'s request');
  await waiting.release();
}, 'Differently named shared workers contend for a lock');

promise_test(async t => {
  const name = uniqueName();
  const worker = uniqueName('worker');
  const f1 = frame(t), f2 = frame(t);
  const a = new SharedLockWorker(f1.contentWindow, worker);
  const b = new SharedLockWorker(f2.contentWindow, worker);
  await a.request(name).granted;
  const got = navigator.locks.request(name, () => 'page');
  let state = await snapshotFor(name);
  assert_equals(state.pending.length, 1, 'the page waits for the worker');
  f1.remove();
  // The worker lives on for its other owner, holding the lock.
  const fromB = await b.query();
  assert_equals(fromB.held.filter(l => l.name === name).length, 1, 'the worker still holds the lock');
  state = await snapshotFor(name);
  assert_equals(state.held.length, 1, 'one owner left: the lock is still held');
  f2.remove();
  assert_equals(await got, 'page', 'the last owner went: the worker\'s lock was released');
  state = await snapshotFor(name);
  assert_equals(state.held.length + state.pending.length, 0);
}, 'A shared worker\'s locks go when its last owner document goes');
