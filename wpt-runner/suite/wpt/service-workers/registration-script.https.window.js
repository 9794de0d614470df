// META: title=Service Workers: how register() fetches the script (Service-Worker header, redirects, MIME type, maximum scope, blob: and data: URLs)
// META: script=/fetch/resources/record.js
'use strict';

// register registers script for scope and unregisters it at cleanup.
async function register(t, script, scope) {
  const reg = await navigator.serviceWorker.register(script, scope ? {scope} : {});
  t.add_cleanup(() => reg.unregister());
  return reg;
}

promise_test(async t => {
  const id = uniqueId();
  await register(t, recordURL(SAME, id, {script: '1'}), '/fetch/resources/sw-scope/');
  const got = await records(id);
  assert_equals(got.length, 1, 'one request');
  assert_equals(got[0].method, 'GET');
  assert_equals(got[0]['service-worker'], 'script', 'Service-Worker header');
  assert_equals(got[0].referer, location.href, 'Referer: the client');
}, 'the script request carries Service-Worker: script and the client\'s referrer');

promise_test(async t => {
  const id = uniqueId();
  const target = recordURL(SAME, id, {script: '1'});
  await promise_rejects_dom(t, 'SecurityError', navigator.serviceWorker.register(redirectURL(SAME, target), {scope: '/fetch/resources/sw-redirect/'}));
  assert_equals((await records(id)).length, 0, 'the redirect target is never requested');
}, 'a redirected script is a SecurityError (redirect mode "error": a network error, with no JavaScript MIME type)');

promise_test(async t => {
  await promise_rejects_dom(t, 'SecurityError', navigator.serviceWorker.register('/fetch/resources/plain.txt', {scope: '/fetch/resources/sw-plain/'}));
}, 'a script that is not JavaScript is a SecurityError');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, navigator.serviceWorker.register('resources/missing-sw.js'));
}, 'a script answered with 404 is a TypeError');

promise_test(async t => {
  await promise_rejects_dom(t, 'SecurityError', navigator.serviceWorker.register('resources/empty-sw.js', {scope: './'}));
  const allowed = 'resources/empty-sw.js?pipe=header(Service-Worker-Allowed,/service-workers/)';
  const reg = await register(t, allowed, './');
  assert_equals(reg.scope, new URL('./', location.href).href);
  const other = `resources/empty-sw.js?pipe=header(Service-Worker-Allowed,${encodePipe(CROSS + '/service-workers/')})`;
  await promise_rejects_dom(t, 'SecurityError', navigator.serviceWorker.register(other, {scope: './other/'}));
}, 'the scope must be under the script\'s directory or a same-origin Service-Worker-Allowed');

promise_test(async t => {
  const id = uniqueId();
  await promise_rejects_dom(t, 'SecurityError', navigator.serviceWorker.register(recordURL(CROSS, id, {script: '1'})));
  assert_equals((await records(id)).length, 0, 'nothing is requested');
}, 'a script of another origin is a SecurityError and is not fetched');

promise_test(async t => {
  const blob = URL.createObjectURL(new Blob(['// a worker'], {type: 'text/javascript'}));
  t.add_cleanup(() => URL.revokeObjectURL(blob));
  await promise_rejects_js(t, TypeError, navigator.serviceWorker.register(blob, {scope: './blob/'}));
  await promise_rejects_js(t, TypeError, navigator.serviceWorker.register('data:text/javascript,//', {scope: './data/'}));
}, 'blob: and data: scripts are TypeErrors');

promise_test(async t => {
  const byDefault = await register(t, 'resources/empty-sw.js?via=default', 'resources/via-default/');
  assert_equals(byDefault.updateViaCache, 'imports', 'the default');
  const reg = await navigator.serviceWorker.register('resources/empty-sw.js?via=all', {scope: 'resources/via-all/', updateViaCache: 'all'});
  t.add_cleanup(() => reg.unregister());
  assert_equals(reg.updateViaCache, 'all');
}, 'updateViaCache is the registration\'s update via cache mode');
