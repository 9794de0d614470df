// META: title=Web Locks API: locks shared between a window and its workers
// META: timeout=long
// META: script=resources/helpers.js
// META: script=resources/lock-client.js
// META: script=resources/lock-worker-client.js
'use strict';

promise_test(async t => {
  const name = uniqueName();
  const worker = new LockWorker(t);
  const r = worker.request(name);
  await r.granted;
  const got = await navigator.locks.request(name, {ifAvailable: true}, l => l);
  assert_equals(got, null, 'the worker\'s lock blocks the window');
}, 'A lock held by a worker is held for the window too');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const worker = new LockWorker(t);
  const r = worker.request(name, {ifAvailable: true});
  assert_equals(await r.granted, null, 'the window\'s lock blocks the worker');
}, 'A lock held by the window is held for a worker too');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const worker = new LockWorker(t);
  const r = worker.request(name);
  await r.queued;
  h.release();
  const lock = await r.granted;
  assert_equals(lock.name, name);
  assert_equals(lock.mode, 'exclusive');
}, 'Releasing the window\'s lock grants the worker\'s queued request');

promise_test(async t => {
  const name = uniqueName();
  const worker = new LockWorker(t);
  const held = worker.request(name, {mode: 'shared'});
  await held.granted;
  const pending = worker.request(name);
  await pending.queued;
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 1, 'the worker\'s held lock is listed');
  assert_equals(state.held[0].mode, 'shared');
  assert_equals(state.pending.length, 1, 'the worker\'s pending request is listed');
  assert_equals(state.pending[0].mode, 'exclusive');
}, 'query() in the window lists a worker\'s held and pending locks');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const worker = new LockWorker(t);
  const r = worker.request(name, {mode: 'shared'});
  await r.queued;
  const fromWorker = await worker.query();
  const held = fromWorker.held.filter(i => i.name === name);
  const pending = fromWorker.pending.filter(i => i.name === name);
  assert_equals(held.length, 1, 'the window\'s lock is listed in the worker');
  assert_equals(held[0].mode, 'exclusive');
  assert_equals(pending.length, 1, 'the worker\'s own request is pending');
}, 'query() in a worker lists the window\'s locks');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const worker = new LockWorker(t);
  const w1 = worker.request(name, {mode: 'shared'});
  await w1.queued;
  const mine = holdLock(t, name);
  await barrier();
  const w2 = worker.request(name);
  await w2.queued;
  const state = await snapshotFor(name);
  assert_array_equals(state.pending.map(i => i.mode), ['shared', 'exclusive', 'exclusive'],
                      'pending requests from both clients in request order');
  const windowId = state.held[0].clientId;
  assert_array_equals(state.pending.map(i => i.clientId === windowId),
                      [false, true, false], 'each entry carries its own client\'s id');
}, 'Pending requests of several clients are listed per name in request order');

promise_test(async t => {
  const a = uniqueName('a');
  const b = uniqueName('b');
  const mine = holdLock(t, a);
  await mine.granted;
  const worker = new LockWorker(t);
  const theirs = worker.request(b);
  await theirs.granted;
  const state = await snapshotFor(a, b);
  const windowId = state.held.find(i => i.name === a).clientId;
  const workerId = state.held.find(i => i.name === b).clientId;
  assert_equals(typeof windowId, 'string');
  assert_equals(typeof workerId, 'string');
  assert_not_equals(windowId, workerId, 'a window and its worker are different clients');
  const fromWorker = await worker.query();
  assert_equals(fromWorker.held.find(i => i.name === b).clientId, workerId,
                'the worker sees the same clientId for its lock');
  assert_equals(fromWorker.held.find(i => i.name === a).clientId, windowId,
                'the worker sees the same clientId for the window\'s lock');
}, 'clientId differs between a window and a worker and is the same seen from either');

promise_test(async t => {
  const name = uniqueName();
  const w1 = new LockWorker(t);
  const w2 = new LockWorker(t);
  const r1 = w1.request(name + '1');
  const r2 = w2.request(name + '2');
  await Promise.all([r1.granted, r2.granted]);
  const state = await snapshotFor(name + '1', name + '2');
  assert_equals(state.held.length, 2);
  assert_not_equals(state.held[0].clientId, state.held[1].clientId, 'two workers, two clientIds');
}, 'Two workers have different clientIds');

promise_test(async t => {
  const name = uniqueName();
  const worker = new LockWorker(t);
  const r = worker.request(name);
  await r.granted;
  let granted = false;
  const mine = navigator.locks.request(name, () => { granted = true; return 'window got it'; });
  await barrier();
  assert_false(granted, 'the window waits for the worker\'s lock');
  worker.terminate();
  assert_equals(await mine, 'window got it', 'terminating the worker released its lock');
}, 'Terminating a worker releases its locks and wakes the waiters behind them');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const worker = new LockWorker(t);
  const r = worker.request(name);
  await r.queued;
  assert_equals((await snapshotFor(name)).pending.length, 1);
  worker.terminate();
  await waitFor(t, async () => (await snapshotFor(name)).pending.length === 0,
                'the terminated worker\'s request to leave the queue');
  const next = holdLock(t, name);
  h.release();
  assert_true((await next.granted) instanceof Lock, 'the window\'s next request is granted');
}, 'Terminating a worker removes its pending requests');

promise_test(async t => {
  const name = uniqueName();
  const worker = new LockWorker(t);
  const s1 = worker.request(name, {mode: 'shared'});
  await s1.granted;
  const mine = holdLock(t, name, {mode: 'shared'});
  assert_equals((await mine.granted).mode, 'shared', 'shared locks are shared across agents');
  const ex = holdLock(t, name);
  await barrier();
  assert_equals(ex.calls, 0);
  mine.release();
  await mine.request;
  await barrier();
  assert_equals(ex.calls, 0, 'still waiting for the worker\'s shared lock');
  worker.terminate();
  await ex.granted;
}, 'Shared locks across a window and a worker; termination releases the worker\'s share');

promise_test(async t => {
  const name = uniqueName();
  const worker = new LockWorker(t);
  const r = worker.request(name);
  await r.granted;
  await navigator.locks.request(name, {steal: true}, () => {});
  assert_equals(await r.rejected, 'AbortError', 'the worker\'s released promise rejects with AbortError');
}, 'The window can steal a worker\'s lock');

promise_test(async t => {
  const name = uniqueName();
  const worker = new LockWorker(t);
  const r = worker.request(name);
  await r.granted;
  const next = navigator.locks.request(name, () => 'window');
  await barrier();
  await r.release();
  assert_equals((await r.released).event, 'released');
  assert_equals(await next, 'window');
}, 'A worker releasing its lock grants the window\'s queued request');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const worker = new LockWorker(t);
  const r = worker.request(name, {steal: true});
  assert_equals((await r.granted).name, name, 'the worker stole the lock');
  await promise_rejects_dom(t, 'AbortError', h.request, 'the window\'s released promise');
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 1, 'only the worker holds it');
}, 'A worker can steal the window\'s lock');

promise_test(async t => {
  const name = uniqueName();
  const shared = holdLock(t, name, {mode: 'shared'});
  await shared.granted;
  const exclusive = holdLock(t, name);
  await barrier();
  const worker = new LockWorker(t);
  const r = worker.request(name, {mode: 'shared'});
  await r.queued;
  const state = await snapshotFor(name);
  assert_array_equals(state.pending.map(i => i.mode), ['exclusive', 'shared'],
                      'the worker\'s shared request waits behind the window\'s queued exclusive one');
  shared.release();
  await exclusive.granted;
  exclusive.release();
  assert_equals((await r.granted).mode, 'shared');
}, 'A worker\'s shared request does not overtake the window\'s queued exclusive request');

promise_test(async t => {
  const name = uniqueName();
  const shared = holdLock(t, name, {mode: 'shared'});
  await shared.granted;
  const exclusive = holdLock(t, name);
  await barrier();
  const worker = new LockWorker(t);
  const r = worker.request(name, {mode: 'shared', ifAvailable: true});
  assert_equals(await r.granted, null, 'the window\'s queue makes the lock unavailable to the worker');
}, 'ifAvailable in a worker sees the window\'s queued requests');

promise_test(async t => {
  const base = uniqueName();
  const worker = new LockWorker(t);
  const r = worker.request(base + '\uD800');
  assert_equals((await r.granted).name, base + '\uD800', 'the worker got the name unchanged');
  const same = await navigator.locks.request(base + '\uD800', {ifAvailable: true}, l => l);
  assert_equals(same, null, 'the window names the same resource');
  const replaced = await navigator.locks.request(base + '\uFFFD', {ifAvailable: true}, l => l);
  assert_true(replaced instanceof Lock, 'U+FFFD names another resource');
}, 'A name with a lone surrogate names the same resource in a worker and the window');
