// META: title=The Cache API: caches, put, match, matchAll, keys, delete, add, addAll
// META: global=window,dedicatedworker
'use strict';

const DATA = '/fetch/resources/data.json';

async function fresh(t, name) {
  await caches.delete(name);
  t.add_cleanup(() => caches.delete(name));
  return caches.open(name);
}

promise_test(async t => {
  const name = 'cache-storage-' + Math.random();
  assert_false(await caches.has(name));
  const c = await fresh(t, name);
  assert_true(c instanceof Cache);
  assert_true(await caches.has(name));
  assert_true((await caches.keys()).includes(name));
  assert_true(await caches.delete(name));
  assert_false(await caches.delete(name));
  assert_false(await caches.has(name));
  assert_equals(caches, self.caches, '[SameObject]');
}, 'CacheStorage: open, has, keys, delete');

promise_test(async t => {
  const c = await fresh(t, 'cache-put');
  await c.put('/a?x=1#frag', new Response('one', {headers: {'X-A': '1'}}));
  await c.put(new Request('/b'), new Response('two'));
  await c.put('/a?x=1', new Response('replaced'));
  const keys = await c.keys();
  assert_array_equals(keys.map(k => new URL(k.url).pathname + new URL(k.url).search), ['/b', '/a?x=1']);
  assert_true(keys[0] instanceof Request);
  let r = await c.match('/a?x=1#other');
  assert_equals(await r.text(), 'replaced');
  assert_equals(r.status, 200);
  assert_equals(await c.match('/a'), undefined);
  r = await c.match('/a?y', {ignoreSearch: true});
  assert_equals(await r.text(), 'replaced');
  assert_equals(await c.match(new Request('/b', {method: 'POST'})), undefined);
  assert_equals(await (await c.match(new Request('/b', {method: 'POST'}), {ignoreMethod: true})).text(), 'two');
  assert_equals((await c.matchAll()).length, 2);
  r = await caches.match('/b');
  assert_equals(await r.text(), 'two', 'caches.match looks in every cache');
  assert_equals(await caches.match('/b', {cacheName: 'no such cache'}), undefined);
  assert_true(await c.delete('/b'));
  assert_false(await c.delete('/b'));
  assert_equals((await c.keys()).length, 1);
}, 'Cache: put replaces, match ignores the fragment (ignoreSearch, ignoreMethod), matchAll, keys in order, delete');

promise_test(async t => {
  const c = await fresh(t, 'cache-vary');
  await c.put(new Request('/v', {headers: {'Accept-Language': 'en'}}), new Response('en', {headers: {'Vary': 'Accept-Language'}}));
  assert_equals(await c.match(new Request('/v', {headers: {'Accept-Language': 'fr'}})), undefined);
  assert_equals(await (await c.match(new Request('/v', {headers: {'Accept-Language': 'en'}}))).text(), 'en');
  assert_equals(await (await c.match('/v', {ignoreVary: true})).text(), 'en');
  await promise_rejects_js(t, TypeError, c.put('/star', new Response('', {headers: {'Vary': '*'}})));
}, 'Cache: Vary, ignoreVary, and Vary: * is a TypeError');

promise_test(async t => {
  const c = await fresh(t, 'cache-errors');
  await promise_rejects_js(t, TypeError, c.put(new Request('/p', {method: 'POST'}), new Response('')));
  await promise_rejects_js(t, TypeError, c.put('data:,x', new Response('')));
  await promise_rejects_js(t, TypeError, c.put('/partial', new Response('', {status: 206})));
  const used = new Response('body');
  await used.text();
  await promise_rejects_js(t, TypeError, c.put('/used', used));
  await promise_rejects_js(t, TypeError, c.add('/fetch/resources/missing.txt'));
  await promise_rejects_js(t, TypeError, c.addAll([DATA, 'data:,x']));
  assert_equals((await c.keys()).length, 0, 'nothing stored');
}, 'Cache: put and add reject bad requests and responses with TypeError');

promise_test(async t => {
  const c = await fresh(t, 'cache-add');
  await c.add(DATA);
  await c.addAll(['/fetch/resources/plain.txt', '/fetch/resources/cors.txt']);
  const r = await c.match(DATA);
  assert_equals((await r.json()).name, 'fetch');
  assert_equals(r.headers.get('Content-Type'), 'application/json');
  assert_equals(r.type, 'basic');
  assert_equals((await c.keys()).length, 3);
  const body = new Response(new ReadableStream({start(c) { c.enqueue(new TextEncoder().encode('streamed')); c.close(); }}));
  await c.put('/streamed', body);
  assert_true(body.bodyUsed);
  assert_equals(await (await c.match('/streamed')).text(), 'streamed');
}, 'Cache: add and addAll fetch and store; a streamed body is read whole');
