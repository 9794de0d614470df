// META: title=Web Locks API: the back/forward cache and locks
// META: script=resources/helpers.js
'use strict';

// A popup opened with noopener is a top-level traversable without an
// opener, which browsers keep in the back/forward cache when it navigates
// away (resources/bfcache-page.html -> bfcache-away.html). The test talks
// to both pages through BroadcastChannels; it never sends anything while
// the page is cached.

function channels(t) {
  const ch = uniqueName();
  const open = suffix => {
    const c = new BroadcastChannel(ch + suffix);
    t.add_cleanup(() => c.close());
    return c;
  };
  const log = [];
  const waiters = [];
  const listen = c => {
    c.onmessage = e => {
      log.push(e.data);
      for (const w of waiters.splice(0)) w();
    };
  };
  const page = open('-page');
  const away = open('-away');
  listen(page);
  listen(away);
  const reached = what => new Promise(resolve => {
    const check = () => log.filter(x => x === what).length ? resolve() : waiters.push(check);
    check();
  });
  const reachedCount = (what, n) => new Promise(resolve => {
    const check = () => log.filter(x => x === what).length >= n ? resolve() : waiters.push(check);
    check();
  });
  return {ch, log, reached, reachedCount, cmd: open('-cmd'), back: open('-back')};
}

function openPage(name, ch) {
  assert_equals(window.open('resources/bfcache-page.html?name=' + encodeURIComponent(name) +
                            '&ch=' + encodeURIComponent(ch), '_blank', 'noopener'),
                null, 'window.open with noopener returns null');
}

promise_test(async t => {
  const name = uniqueName();
  const c = channels(t);
  openPage(name, c.ch);
  await c.reached('held');
  c.cmd.postMessage('away');
  await c.reached('away pageshow false');
  // The page is cached (no unload, pagehide persisted) and keeps its lock.
  c.back.postMessage('back');
  await c.reached('pageshow true');
  assert_array_equals(c.log, ['held', 'pagehide true', 'away pageshow false', 'pageshow true'],
                      'the page holding a lock was kept and restored');
  assert_equals(await navigator.locks.request(name, {ifAvailable: true}, lock => lock), null,
                'the restored page still holds its lock');
  c.cmd.postMessage('release');
  await c.reached('released');
  assert_equals(await navigator.locks.request(name, lock => lock.name), name,
                'the restored page released its lock on command');
}, 'A page holding a lock is kept in the back/forward cache and restored with it');

promise_test(async t => {
  const name = uniqueName();
  const c = channels(t);
  openPage(name, c.ch);
  await c.reached('held');
  c.cmd.postMessage('away');
  await c.reached('away pageshow false');
  // Contention: requesting the lock the cached page holds evicts the page,
  // which releases the lock.
  assert_equals(await navigator.locks.request(name, lock => 'granted'), 'granted',
                'the request for the cached page\'s lock is granted');
  c.back.postMessage('back');
  // Going back loads the page again: it takes the lock anew.
  await c.reachedCount('held', 2);
  assert_array_equals(c.log, ['held', 'pagehide true', 'away pageshow false', 'held'],
                      'the evicted page was loaded again, not restored');
  c.cmd.postMessage('release');
  await c.reached('released');
}, 'Requesting a lock a cached page holds evicts the page and is granted');
