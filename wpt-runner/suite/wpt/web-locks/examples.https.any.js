// META: title=Web Locks API: the specification's examples behave as described
// META: script=resources/helpers.js
'use strict';

const doSomething = t => new Promise(resolve => t.step_timeout(resolve, 1));

promise_test(async t => {
  const name = uniqueName('my_resource');
  const log = [];
  await navigator.locks.request(name, async lock => {
    log.push(`acquired ${lock.name === name}`);
    await doSomething(t);
    await doSomething(t);
    log.push('releasing');
  });
  log.push('after');
  assert_array_equals(log, ['acquired true', 'releasing', 'after']);
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 0, 'released after the await');
}, 'Basic usage: the lock is held during the async callback and released after');

promise_test(async t => {
  const name = uniqueName('resource');
  let resolveP2;
  let p2;
  const p1 = navigator.locks.request(name, lock => {
    p2 = new Promise(r => { resolveP2 = r; });
    return p2;
  });
  await barrier();
  assert_true(p2 instanceof Promise, 'the callback ran and returned p2');
  assert_equals(await navigator.locks.request(name, {ifAvailable: true}, l => l), null, 'held until p2 settles');
  resolveP2('p2 value');
  assert_equals(await p1, 'p2 value', 'p1 resolves with p2\'s value');
}, 'The released promise (p1) follows the waiting promise (p2)');

promise_test(async t => {
  const name = uniqueName('resource');
  const result = await navigator.locks.request(name, async lock => {
    await doSomething(t);
    await doSomething(t);
    return 'ok';
  });
  assert_equals(result, 'ok');
  const error = new Error('callback threw');
  let caught;
  try {
    await navigator.locks.request(name, async lock => { await doSomething(t); throw error; });
  } catch (ex) {
    caught = ex;
  }
  assert_equals(caught, error, 'the exception is caught by the awaiting code');
}, 'The request promise resolves with the result or rejects with the exception');

promise_test(async t => {
  const name = uniqueName('resource');
  const readers = [1, 2, 3].map(() => holdLock(t, name, {mode: 'shared'}));
  const locks = await Promise.all(readers.map(r => r.granted));
  assert_true(locks.every(l => l.mode === 'shared'), 'several readers at once');
  const writer = holdLock(t, name);
  await barrier();
  assert_equals(writer.calls, 0, 'no writer while readers hold the lock');
  readers.forEach(r => r.release());
  assert_equals((await writer.granted).mode, 'exclusive', 'the writer gets it once readers are done');
}, 'Readers-writer pattern with shared and exclusive modes');

promise_test(async t => {
  const name = uniqueName('resource');
  const other = holdLock(t, name);
  await other.granted;
  let tookAction = false;
  await navigator.locks.request(name, {ifAvailable: true}, async lock => {
    if (!lock) {
      tookAction = true;
      return;
    }
    assert_unreached('the lock is held elsewhere');
  });
  assert_true(tookAction, 'the callback saw null and took the fallback path');
}, 'ifAvailable example: the callback handles a null lock');

promise_test(async t => {
  const name = uniqueName('resource');
  const other = holdLock(t, name);
  await other.granted;
  const controller = new AbortController();
  t.step_timeout(() => controller.abort(), 20);
  let caught;
  try {
    await navigator.locks.request(name, {signal: controller.signal}, async lock => {
      assert_unreached('the lock is held elsewhere');
    });
  } catch (ex) {
    caught = ex;
  }
  assert_true(caught instanceof DOMException, 'a DOMException');
  assert_equals(caught.name, 'AbortError');
}, 'Signal example: a timed abort rejects with AbortError');

promise_test(async t => {
  const a = uniqueName('A');
  const b = uniqueName('B');
  const inner1 = new AbortController();
  const inner2 = new AbortController();
  let holdA, holdB;
  const bothHeld = Promise.all([
    new Promise(r => { holdA = r; }),
    new Promise(r => { holdB = r; }),
  ]);
  const script1 = navigator.locks.request(a, async () => {
    holdA();
    await bothHeld;
    await navigator.locks.request(b, {signal: inner1.signal}, async () => {});
  });
  const script2 = navigator.locks.request(b, async () => {
    holdB();
    await bothHeld;
    await navigator.locks.request(a, {signal: inner2.signal}, async () => {});
  });
  await bothHeld;
  await barrier();
  await nextTask(t);
  const state = await snapshotFor(a, b);
  assert_equals(state.held.length, 2, 'each script holds one lock');
  assert_equals(state.pending.length, 2, 'each waits for the other: a deadlock');
  inner1.abort();
  await promise_rejects_dom(t, 'AbortError', script1, 'script 1 gives up, releasing A');
  await script2;
  const after = await snapshotFor(a, b);
  assert_equals(after.held.length + after.pending.length, 0, 'deadlock resolved');
}, 'Deadlock example: two scripts each holding one lock wait for each other until one aborts');

promise_test(async t => {
  async function requestMultiple(resources, callback) {
    const sortedResources = [...resources];
    sortedResources.sort();
    async function requestNext(locks) {
      return await navigator.locks.request(sortedResources.shift(), async lock => {
        locks.push(lock);
        if (sortedResources.length > 0) {
          return await requestNext(locks);
        }
        return await callback(locks);
      });
    }
    return await requestNext([]);
  }
  const base = uniqueName('multi');
  const names = [base + '/c', base + '/a', base + '/b'];
  const result = await requestMultiple(names, async locks => {
    const state = await snapshotFor(...names);
    return {order: locks.map(l => l.name), held: state.held.length};
  });
  assert_array_equals(result.order, [base + '/a', base + '/b', base + '/c'], 'acquired in sorted order');
  assert_equals(result.held, 3, 'all three held in the callback');
  const after = await snapshotFor(...names);
  assert_equals(after.held.length, 0, 'all released afterwards');
}, 'requestMultiple example: locks acquired in a consistent order and all released');
