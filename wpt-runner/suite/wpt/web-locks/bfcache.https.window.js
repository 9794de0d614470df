// META: title=Web Locks API: the back/forward cache
// META: script=resources/helpers.js
// META: script=resources/stash.js
// META: timeout=long
// META: variant=?1-2
// META: variant=?3-4
// META: variant=?5-6
'use strict';

// Each subtest opens, navigates and restores a window of its own, which
// takes a while: the variants split the subtests among pages that run side
// by side. The variant ?A-B runs subtests A to B, counted from 1 in the
// order of this file; without a variant the page runs them all.
const subtestInRange = (() => {
  const range = /^\?(\d+)-(\d+)$/.exec(location.search);
  let n = 0;
  return () => {
    n++;
    return !range || (n >= Number(range[1]) && n <= Number(range[2]));
  };
})();

function bfcacheTest(fn, name) {
  if (subtestInRange()) promise_test(fn, name);
}

// The holder page (resources/bfcache-holder.html) is opened with noopener,
// as a page must have no opener to enter the back/forward cache; it talks
// to the test through the server's stash.
async function openHolder(t, label) {
  const key = stashKey(label);
  const name = uniqueName(label);
  window.open('resources/bfcache-holder.html?key=' + encodeURIComponent(key) +
              '&name=' + encodeURIComponent(name), '_blank', 'noopener');
  t.add_cleanup(() => stashSend(key + '-in', 'close'));
  assert_equals(await stashReceive(key + '-out'), 'held', 'the holder got its lock');
  return {key, name};
}

// navigateAway makes the holder navigate to resources/bfcache-next.html.
async function navigateAway(key) {
  await stashSend(key + '-in', 'navigate');
  assert_equals(await stashReceive(key + '-out'), 'next loaded');
}

bfcacheTest(async t => {
  const {key} = await openHolder(t, 'bfcache-held');
  await navigateAway(key);
  await stashSend(key + '-next', 'back');
  const message = await stashReceive(key + '-out');
  assert_true(message.startsWith('restored '),
              'going back restores the page from the cache, got: ' + message);
  const {events, held} = JSON.parse(message.slice('restored '.length));
  assert_array_equals(events, ['pageshow false', 'pagehide true', 'pageshow true'],
                      'the page was hidden into the cache and shown from it');
  assert_true(held, 'the restored page still holds its lock');
}, 'A page that holds a lock enters the back/forward cache and still holds it when restored');

bfcacheTest(async t => {
  const {key, name} = await openHolder(t, 'bfcache-contention');
  await navigateAway(key);
  const result = await navigator.locks.request(name, () => 'granted');
  assert_equals(result, 'granted', 'the cached page was evicted and its lock released');
  await stashSend(key + '-next', 'back');
  assert_equals(await stashReceive(key + '-out'), 'held',
                'going back loads the evicted page anew (it is not restored)');
}, 'Requesting the lock of a page in the back/forward cache evicts the page and grants the request');

// contendFrom requests the lock from another context of the test's own and
// resolves with the request's result.
function contendFrom(t, where, name) {
  switch (where) {
    case 'a dedicated worker':
    case 'a nested worker': {
      const w = new Worker('resources/bfcache-contender.js');
      t.add_cleanup(() => w.terminate());
      const reply = new Promise(resolve => w.onmessage = e => resolve(e.data));
      w.postMessage({name, nested: where === 'a nested worker'});
      return reply;
    }
    case 'a shared worker': {
      const w = new SharedWorker('resources/bfcache-contender.js', uniqueName('contender'));
      const reply = new Promise(resolve => w.port.onmessage = e => resolve(e.data));
      w.port.postMessage({name, nested: false});
      return reply;
    }
  }
  throw new Error('unknown context ' + where);
}

for (const where of ['a dedicated worker', 'a nested worker', 'a shared worker']) {
  bfcacheTest(async t => {
    const {key, name} = await openHolder(t, 'bfcache-contention-worker');
    await navigateAway(key);
    assert_equals(await contendFrom(t, where, name), 'granted',
                  'the cached page was evicted and its lock released');
    await stashSend(key + '-next', 'back');
    assert_equals(await stashReceive(key + '-out'), 'held',
                  'going back loads the evicted page anew (it is not restored)');
  }, `A request from ${where} for the lock of a page in the back/forward cache evicts the page`);
}

bfcacheTest(async t => {
  const {key, name} = await openHolder(t, 'bfcache-query');
  await navigateAway(key);
  const state = await navigator.locks.query();
  assert_true(state.held.some(l => l.name === name),
              'the query reports the lock the cached page held');
  await stashSend(key + '-next', 'back');
  assert_equals(await stashReceive(key + '-out'), 'held',
                'going back loads the evicted page anew (it is not restored)');
}, 'A query that reports the lock of a page in the back/forward cache evicts the page');
