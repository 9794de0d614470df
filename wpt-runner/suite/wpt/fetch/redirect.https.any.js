// META: title=Fetch: redirects across origins (Authorization, Origin, preflight, Referer, the CORS check of every hop)
// META: script=resources/record.js
'use strict';

promise_test(async () => {
  const id = uniqueId();
  const target = recordURL(CROSS, id, {acao: 'origin', 'allow-headers': 'x-custom'});
  const r = await fetch(redirectURL(SAME, target), {headers: {'Authorization': 'Bearer secret', 'X-Custom': '1'}});
  assert_equals(r.type, 'cors');
  assert_true(r.redirected);
  assert_equals(r.url, target);
  assert_equals(await r.text(), 'recorded');
  const got = await records(id);
  assert_equals(got.length, 2, 'a preflight and the request');
  assert_equals(got[0].method, 'OPTIONS');
  assert_equals(got[0]['access-control-request-method'], 'GET');
  assert_equals(got[0]['access-control-request-headers'], 'x-custom', 'Authorization was removed before the preflight');
  assert_equals(got[0].origin, SAME);
  assert_equals(got[1].method, 'GET');
  assert_equals(got[1].authorization, null, 'Authorization');
  assert_equals(got[1]['x-custom'], '1');
  assert_equals(got[1].origin, SAME, 'Origin');
  assert_equals(got[1].referer, SAME + '/', 'Referer: the origin only (strict-origin-when-cross-origin)');
}, 'a same-origin request redirected to another origin loses Authorization, is preflighted there and sends Origin');

promise_test(async t => {
  const id = uniqueId();
  const target = recordURL(THIRD, id, {acao: 'star', token: 'secret'});
  await promise_rejects_js(t, TypeError, fetch(redirectURL(CROSS, target)));
  await promise_rejects_js(t, TypeError, fetch(redirectURL(SAME, redirectURL(CROSS, target))));
  assert_equals((await records(id)).length, 0, 'requests the redirect target got');
}, 'a cross-origin redirect without Access-Control-Allow-Origin is a network error and is not followed');

promise_test(async () => {
  const id = uniqueId();
  const target = recordURL(THIRD, id, {acao: 'origin'});
  const r = await fetch(redirectURL(CROSS, target, {acao: true}));
  assert_equals(r.type, 'cors');
  assert_equals(await r.text(), 'recorded');
  const got = await records(id);
  assert_equals(got.length, 1);
  assert_equals(got[0].origin, 'null', 'the origin is tainted');
}, 'a redirect from another origin to a third one sends Origin: null');

promise_test(async t => {
  const id = uniqueId();
  const target = recordURL(THIRD, id, {acao: 'null'});
  await promise_rejects_js(t, TypeError, fetch(redirectURL(CROSS, target, {acao: true}), {headers: {'X-Custom': '1'}}));
  assert_equals((await records(id)).length, 0);
}, 'a request that needs a preflight is refused when the first hop does not answer it');

promise_test(async () => {
  const id = uniqueId();
  const target = recordURL(CROSS, id, {acao: 'star'});
  await fetch(target, {referrerPolicy: 'no-referrer'});
  await fetch(target, {referrerPolicy: 'unsafe-url'});
  await fetch(target);
  await fetch(redirectURL(SAME, target, {policy: 'no-referrer'}), {referrerPolicy: 'unsafe-url'});
  const got = await records(id);
  assert_array_equals(got.map(g => g.referer), [null, location.href, SAME + '/', null]);
}, 'Referrer Policy: no-referrer, unsafe-url, the default, and a Referrer-Policy header on a redirect');

promise_test(async t => {
  const id = uniqueId();
  const target = recordURL(SAME, id, {});
  await promise_rejects_js(t, TypeError, fetch(redirectURL(SAME, target), {redirect: 'error'}));
  const r = await fetch(redirectURL(SAME, target), {redirect: 'manual'});
  assert_equals(r.type, 'opaqueredirect');
  assert_equals(r.status, 0);
  assert_equals(r.url, new URL(redirectURL(SAME, target)).href);
  assert_equals((await records(id)).length, 0);
}, 'redirect modes error and manual do not follow the redirect');

promise_test(async () => {
  const id = uniqueId();
  const target = recordURL(SAME, id, {});
  let r = await fetch(redirectURL(SAME, target, {status: 303}), {method: 'POST', body: 'x'});
  assert_equals(await r.text(), 'recorded');
  r = await fetch(redirectURL(SAME, target, {status: 307}), {method: 'POST', body: 'x'});
  assert_equals(await r.text(), 'recorded');
  assert_array_equals((await records(id)).map(g => g.method), ['GET', 'POST']);
}, 'a 303 turns a POST into a GET; a 307 keeps it');
