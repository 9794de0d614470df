// META: title=Web Locks API: the steal option
// META: script=resources/helpers.js
'use strict';

promise_test(async t => {
  const name = uniqueName();
  const lock = await navigator.locks.request(name, {steal: true}, l => l);
  assert_true(lock instanceof Lock);
  assert_equals(lock.mode, 'exclusive');
}, 'steal on a free name grants the lock');

promise_test(async t => {
  const name = uniqueName();
  const victim = holdLock(t, name);
  await victim.granted;
  const stealer = holdLock(t, name, {steal: true});
  await stealer.granted;
  await promise_rejects_dom(t, 'AbortError', victim.request, 'the victim\'s released promise');
}, 'steal rejects the held lock\'s released promise with AbortError');

promise_test(async t => {
  const name = uniqueName();
  const victim = holdLock(t, name);
  await victim.granted;
  const stealer = holdLock(t, name, {steal: true});
  await stealer.granted;
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 1, 'only the stealer holds the lock');
  assert_equals(state.held[0].mode, 'exclusive');
}, 'After steal only the stealing request holds the lock');

promise_test(async t => {
  const name = uniqueName();
  const s1 = holdLock(t, name, {mode: 'shared'});
  const s2 = holdLock(t, name, {mode: 'shared'});
  await Promise.all([s1.granted, s2.granted]);
  const stealer = holdLock(t, name, {steal: true});
  await stealer.granted;
  await promise_rejects_dom(t, 'AbortError', s1.request);
  await promise_rejects_dom(t, 'AbortError', s2.request);
}, 'steal breaks every shared holder');

promise_test(async t => {
  const name = uniqueName();
  const holder = holdLock(t, name);
  await holder.granted;
  const queued = holdLock(t, name);
  await barrier();
  const stealer = holdLock(t, name, {steal: true});
  await stealer.granted;
  assert_equals(queued.calls, 0, 'the queued request still waits');
  const state = await snapshotFor(name);
  assert_equals(state.pending.length, 1, 'the queued request stays queued');
  stealer.release();
  assert_true((await queued.granted) instanceof Lock, 'the queued request is granted after the stealer');
}, 'steal preempts queued requests without dropping them');

promise_test(async t => {
  const name = uniqueName();
  const victim = holdLock(t, name);
  await victim.granted;
  const stealer = holdLock(t, name, {steal: true});
  await stealer.granted;
  await promise_rejects_dom(t, 'AbortError', victim.request);
  victim.release('late');
  await nextTask(t);
  await barrier();
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 1, 'the stealer still holds the lock');
  const other = await navigator.locks.request(name, {ifAvailable: true}, l => l);
  assert_equals(other, null, 'the stolen lock\'s late settlement did not release the stealer');
}, 'The stolen lock settling later does not release the stealer\'s lock');

promise_test(async t => {
  const name = uniqueName();
  let victimStillRunning = false;
  let releaseVictim;
  const victim = navigator.locks.request(name, async () => {
    await new Promise(r => { releaseVictim = r; });
    victimStillRunning = true;
    return 'victim finished';
  });
  victim.catch(() => {});
  await barrier();
  await navigator.locks.request(name, {steal: true}, () => {});
  await promise_rejects_dom(t, 'AbortError', victim);
  releaseVictim();
  await nextTask(t);
  assert_true(victimStillRunning, 'the victim\'s callback keeps running after the steal');
}, 'steal does not stop the victim\'s callback');

promise_test(async t => {
  const a = uniqueName('a');
  const b = uniqueName('b');
  const ha = holdLock(t, a);
  const hb = holdLock(t, b);
  await Promise.all([ha.granted, hb.granted]);
  await navigator.locks.request(a, {steal: true}, () => {});
  await promise_rejects_dom(t, 'AbortError', ha.request);
  const state = await snapshotFor(b);
  assert_equals(state.held.length, 1, 'the lock on the other name is still held');
  hb.release();
  assert_equals(await hb.request, undefined);
}, 'steal affects only its own name');

promise_test(async t => {
  const name = uniqueName();
  const victim = holdLock(t, name);
  await victim.granted;
  const result = await navigator.locks.request(name, {steal: true}, l => 'stealer result');
  assert_equals(result, 'stealer result');
  await promise_rejects_dom(t, 'AbortError', victim.request);
}, 'The stealer\'s released promise resolves normally');

promise_test(async t => {
  const name = uniqueName();
  const first = holdLock(t, name);
  await first.granted;
  const second = holdLock(t, name, {steal: true});
  await second.granted;
  const third = holdLock(t, name, {steal: true});
  await third.granted;
  await promise_rejects_dom(t, 'AbortError', first.request);
  await promise_rejects_dom(t, 'AbortError', second.request);
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 1);
}, 'A stealer can itself be stolen from');
