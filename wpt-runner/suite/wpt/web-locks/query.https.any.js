// META: title=Web Locks API: query()
// META: script=resources/helpers.js
'use strict';

promise_test(async t => {
  const p = navigator.locks.query();
  assert_true(p instanceof Promise);
  const state = await p;
  assert_equals(Object.getPrototypeOf(state), Object.prototype, 'a plain object');
  assert_array_equals(Object.keys(state), ['held', 'pending']);
  assert_true(Array.isArray(state.held), 'held is an Array');
  assert_true(Array.isArray(state.pending), 'pending is an Array');
}, 'query() resolves with a plain {held, pending} dictionary');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 1);
  const info = state.held[0];
  assert_equals(Object.getPrototypeOf(info), Object.prototype, 'a plain object');
  assert_array_equals(Object.keys(info), ['clientId', 'mode', 'name'], 'members in dictionary order');
  assert_equals(info.name, name);
  assert_equals(info.mode, 'exclusive');
  assert_equals(typeof info.clientId, 'string');
  assert_not_equals(info.clientId, '', 'clientId is not empty');
}, 'A held lock is reported as a LockInfo {clientId, mode, name}');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const waiter = holdLock(t, name, {mode: 'shared'});
  await barrier();
  const state = await snapshotFor(name);
  assert_equals(state.pending.length, 1);
  const info = state.pending[0];
  assert_array_equals(Object.keys(info), ['clientId', 'mode', 'name']);
  assert_equals(info.name, name);
  assert_equals(info.mode, 'shared');
  assert_equals(typeof info.clientId, 'string');
}, 'A pending request is reported as a LockInfo');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const modes = ['exclusive', 'shared', 'shared', 'exclusive', 'shared'];
  const waiters = modes.map(mode => holdLock(t, name, {mode}));
  await barrier();
  const state = await snapshotFor(name);
  assert_array_equals(state.pending.map(i => i.mode), modes, 'pending in request order');
}, 'Pending requests for one name are listed in request order');

promise_test(async t => {
  const a = uniqueName('a');
  const b = uniqueName('b');
  const ha = holdLock(t, a);
  const hb = holdLock(t, b);
  await Promise.all([ha.granted, hb.granted]);
  const order = [];
  for (let i = 0; i < 4; i++) {
    const name = i % 2 ? b : a;
    const mode = i < 2 ? 'exclusive' : 'shared';
    order.push({name, mode});
    holdLock(t, name, {mode});
  }
  await barrier();
  const state = await snapshotFor(a, b);
  for (const name of [a, b]) {
    assert_array_equals(state.pending.filter(i => i.name === name).map(i => i.mode),
                        order.filter(o => o.name === name).map(o => o.mode), `per-name order for ${name}`);
  }
}, 'Interleaved requests on two names keep the per-name request order');

promise_test(async t => {
  const name = uniqueName();
  const h1 = holdLock(t, name, {mode: 'shared'});
  const h2 = holdLock(t, name, {mode: 'shared'});
  await Promise.all([h1.granted, h2.granted]);
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 2, 'one entry per held shared lock');
  assert_true(state.held.every(i => i.mode === 'shared'));
}, 'Every held shared lock is listed');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const s1 = await navigator.locks.query();
  const s2 = await navigator.locks.query();
  assert_not_equals(s1, s2, 'a new snapshot each time');
  assert_not_equals(s1.held, s2.held);
  s1.held.length = 0;
  const s3 = await snapshotFor(name);
  assert_equals(s3.held.length, 1, 'changing a snapshot changes nothing else');
}, 'Each query() returns a fresh snapshot');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const before = await snapshotFor(name);
  h.release();
  await h.request;
  assert_equals(before.held.length, 1, 'an old snapshot does not change');
  const after = await snapshotFor(name);
  assert_equals(after.held.length, 0);
}, 'A snapshot is not live');

promise_test(async t => {
  const a = holdLock(t, uniqueName());
  const b = holdLock(t, uniqueName(), {mode: 'shared'});
  const [la, lb] = await Promise.all([a.granted, b.granted]);
  const mine = await snapshotFor(la.name, lb.name);
  assert_equals(mine.held.length, 2);
  assert_equals(mine.held[0].clientId, mine.held[1].clientId, 'one client, one clientId');
}, 'Locks of one client share one clientId');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const first = (await snapshotFor(name)).held[0].clientId;
  const waiter = holdLock(t, name);
  await barrier();
  const state = await snapshotFor(name);
  assert_equals(state.held[0].clientId, first, 'stable across queries');
  assert_equals(state.pending[0].clientId, first, 'the same id for pending requests');
}, 'The clientId is stable for a client, for held and pending entries');

promise_test(async t => {
  const name = uniqueName();
  const controller = new AbortController();
  const h = holdLock(t, name);
  await h.granted;
  const p = navigator.locks.request(name, {signal: controller.signal}, () => {});
  await barrier();
  assert_equals((await snapshotFor(name)).pending.length, 1);
  controller.abort();
  await promise_rejects_dom(t, 'AbortError', p);
  assert_equals((await snapshotFor(name)).pending.length, 0);
  h.release();
  await h.request;
  const state = await snapshotFor(name);
  assert_equals(state.held.length + state.pending.length, 0, 'nothing left once released');
}, 'query() follows requests through abort and release');

promise_test(async t => {
  await navigator.locks.query('extra', 'arguments');
}, 'query() ignores extra arguments');
