// META: title=Fetch: data: URLs (fetch and import)
'use strict';

promise_test(async () => {
  const r = await fetch('data:,hello%20world');
  assert_equals(r.type, 'basic');
  assert_equals(r.status, 200);
  assert_equals(r.statusText, 'OK');
  assert_equals(r.url, 'data:,hello%20world');
  assert_equals(r.headers.get('content-type'), 'text/plain;charset=US-ASCII');
  assert_equals(await r.text(), 'hello world');
}, 'fetch() of a data: URL gives its body with the default MIME type');

promise_test(async () => {
  const r = await fetch('data:text/plain;base64,SGVsbG8=');
  assert_equals(r.headers.get('content-type'), 'text/plain');
  assert_equals(await r.text(), 'Hello');
  const j = await fetch('data:application/json,{"a":[1,2]}');
  assert_array_equals((await j.json()).a, [1, 2]);
}, 'fetch() of base64 and JSON data: URLs');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, fetch('data:text/plain;base64,%'));
  await promise_rejects_js(t, TypeError, fetch('data:text/plain'));
}, 'a data: URL with bad base64 or without a comma is a network error');

promise_test(async () => {
  const ns = await import('data:text/javascript,export default 42');
  assert_equals(ns.default, 42);
}, 'import() of a data: URL module');
