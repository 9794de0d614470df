// META: title=Fetch: cross-origin requests (CORS, no-cors, same-origin mode)
'use strict';

// Another origin of the test server: the www subdomain.
const CROSS = `${location.protocol}//www.${location.host}`;
const path = p => new URL(p, location.href).pathname;

promise_test(async () => {
  const r = await fetch(CROSS + path('resources/cors.txt'));
  assert_equals(r.type, 'cors');
  assert_equals(r.status, 200);
  assert_equals(r.url, CROSS + path('resources/cors.txt'));
  assert_equals(r.headers.get('content-type'), 'text/plain');
  assert_equals(r.headers.get('x-exposed'), 'yes', 'exposed by Access-Control-Expose-Headers');
  assert_equals(r.headers.get('x-hidden'), null, 'not exposed');
  assert_equals(await r.text(), 'cross-origin text\n');
}, 'a CORS response allowed by Access-Control-Allow-Origin: * exposes only safelisted and exposed headers');

promise_test(t => {
  return promise_rejects_js(t, TypeError, fetch(CROSS + path('resources/plain.txt')));
}, 'a cross-origin response without Access-Control-Allow-Origin is a network error');

promise_test(async () => {
  const r = await fetch(CROSS + path('resources/plain.txt'), {mode: 'no-cors'});
  assert_equals(r.type, 'opaque');
  assert_equals(r.status, 0);
  assert_false(r.ok);
  assert_equals(r.statusText, '');
  assert_equals(r.url, '');
  assert_array_equals([...r.headers], []);
  assert_equals(await r.text(), '');
}, 'a no-cors request to another origin gives an opaque response');

promise_test(t => {
  return promise_rejects_js(t, TypeError, fetch(CROSS + path('resources/cors.txt'), {mode: 'same-origin'}));
}, 'mode same-origin rejects a cross-origin URL');

promise_test(t => {
  return promise_rejects_js(t, TypeError, fetch(CROSS + path('resources/cors.txt'), {credentials: 'include'}));
}, 'Access-Control-Allow-Origin: * does not allow a request with credentials');

promise_test(async () => {
  const url = `${CROSS}/common/dispatcher/dispatcher.py?uuid=cors-${Date.now()}-${Math.random()}`;
  let r = await fetch(url, {method: 'POST', body: 'across', credentials: 'include'});
  assert_equals(r.type, 'cors');
  assert_equals(await r.text(), 'done');
  r = await fetch(url, {credentials: 'include'});
  assert_equals(await r.text(), 'across');
}, 'a credentialed CORS request is allowed by the reflected origin and Access-Control-Allow-Credentials');
