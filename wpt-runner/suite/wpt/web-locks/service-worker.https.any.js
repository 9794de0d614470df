// META: title=Web Locks API: a service worker client
// META: global=serviceworker
'use strict';

test(() => {
  assert_true(self instanceof ServiceWorkerGlobalScope, 'a service worker global');
  assert_true(navigator.locks instanceof LockManager, 'navigator.locks');
}, 'navigator.locks is a LockManager in a service worker');

promise_test(async t => {
  const name = 'sw-lock-' + Math.random();
  const result = await navigator.locks.request(name, async lock => {
    assert_equals(lock.name, name);
    assert_equals(lock.mode, 'exclusive');
    const state = await navigator.locks.query();
    const held = state.held.filter(l => l.name === name);
    assert_equals(held.length, 1, 'one held lock of that name');
    assert_equals(typeof held[0].clientId, 'string');
    assert_not_equals(held[0].clientId, '', 'a clientId');
    return 'granted';
  });
  assert_equals(result, 'granted');
}, 'a service worker takes a lock and query() reports it with a clientId');

promise_test(async t => {
  const a = 'sw-a-' + Math.random(), b = 'sw-b-' + Math.random();
  let ids = [];
  await navigator.locks.request(a, async () => {
    await navigator.locks.request(b, async () => {
      const state = await navigator.locks.query();
      ids = state.held.filter(l => l.name === a || l.name === b).map(l => l.clientId);
    });
  });
  assert_equals(ids.length, 2);
  assert_equals(ids[0], ids[1], 'one clientId for the service worker');
}, "a service worker's locks share one clientId");

promise_test(async t => {
  const name = 'sw-queue-' + Math.random();
  const order = [];
  let release;
  const first = navigator.locks.request(name, () => new Promise(r => { release = r; order.push('first'); }));
  const second = navigator.locks.request(name, () => { order.push('second'); });
  const state = await navigator.locks.query();
  assert_equals(state.pending.filter(l => l.name === name).length, 1, 'the second request waits');
  release();
  await Promise.all([first, second]);
  assert_array_equals(order, ['first', 'second']);
}, 'requests of a service worker queue as in other clients');

promise_test(async t => {
  const all = await self.clients.matchAll({includeUncontrolled: true, type: 'window'});
  const page = all.find(c => c.url.indexOf('.any.serviceworker.html') >= 0);
  assert_true(page !== undefined, 'the test page is a client');
  assert_equals(page.type, 'window');
  assert_equals(typeof page.id, 'string');
  assert_not_equals(page.id, '');
  const again = await self.clients.get(page.id);
  assert_true(again !== undefined, 'clients.get finds it');
  assert_equals(again.id, page.id);
  assert_equals(again.url, page.url);
  assert_not_equals(again, page, 'a new Client object every time');
  assert_equals(await self.clients.get('no such id'), undefined);
}, 'clients.matchAll and clients.get see the test page');

promise_test(async t => {
  const controlled = await self.clients.matchAll();
  assert_equals(controlled.length, 0, 'the page is outside the scope');
}, 'matchAll() without includeUncontrolled skips pages it does not control');

test(() => {
  assert_true(self.registration instanceof ServiceWorkerRegistration);
  assert_true(self.registration.scope.endsWith('/does/not/exist'), self.registration.scope);
}, "the service worker's registration has the page's scope");
