// META: title=Fetch: the HTTP cache (conditional GET, cache modes)
// META: script=resources/record.js
'use strict';

// Each test uses its own URL (a fresh uuid): what the server received is
// in its records.
const ETAG = '"v1"';

function cacheURL(id) {
  return recordURL(SAME, id, {etag: ETAG});
}

function sent(rec) {
  return `${rec.method} inm=${rec['if-none-match']} cc=${rec['cache-control']} pragma=${rec.pragma}`;
}

promise_test(async () => {
  const id = uniqueId();
  const url = cacheURL(id);
  let r = await fetch(url);
  assert_equals(r.status, 200);
  assert_equals(r.headers.get('X-Revalidated'), null);
  assert_equals(await r.text(), 'recorded');
  // Stored without freshness: revalidated with If-None-Match; the 304
  // freshens the stored 200, which script sees (with the 304's header).
  r = await fetch(url);
  assert_equals(r.status, 200);
  assert_equals(r.headers.get('X-Revalidated'), 'yes');
  assert_equals(await r.text(), 'recorded');
  // The page's own If-None-Match bypasses the cache: the 304 surfaces.
  r = await fetch(url, {headers: {'If-None-Match': ETAG}});
  assert_equals(r.status, 304);
  // (Fetch makes that request's cache mode "no-store", which adds
  // Cache-Control and Pragma no-cache; Chromium does not add them.)
  const got = await records(id);
  assert_array_equals(got.slice(0, 2).map(sent), [
    'GET inm=null cc=null pragma=null',
    `GET inm=${ETAG} cc=null pragma=null`,
  ]);
  assert_equals(got.length, 3);
  assert_equals(got[2]['if-none-match'], ETAG);
}, 'conditional GET: a stored response with an ETag is revalidated, a 304 gives the stored body');

promise_test(async () => {
  const id = uniqueId();
  const url = cacheURL(id);
  await (await fetch(url)).text();
  // force-cache and only-if-cached use the stored response as it is.
  for (const cache of ['force-cache', 'only-if-cached']) {
    const r = await fetch(url, {cache, mode: 'same-origin'});
    assert_equals(r.status, 200, cache);
    assert_equals(r.headers.get('X-Revalidated'), null, cache);
    assert_equals(await r.text(), 'recorded', cache);
  }
  // no-cache revalidates; no-store and reload go to the network plainly.
  assert_equals((await fetch(url, {cache: 'no-cache'})).headers.get('X-Revalidated'), 'yes');
  assert_equals((await fetch(url, {cache: 'no-store'})).headers.get('X-Revalidated'), null);
  assert_equals((await fetch(url, {cache: 'reload'})).headers.get('X-Revalidated'), null);
  assert_array_equals((await records(id)).map(sent), [
    'GET inm=null cc=null pragma=null',
    `GET inm=${ETAG} cc=max-age=0 pragma=null`,
    'GET inm=null cc=no-cache pragma=no-cache',
    'GET inm=null cc=no-cache pragma=no-cache',
  ]);
}, 'cache modes: force-cache and only-if-cached reuse, no-cache revalidates, no-store and reload do not');

promise_test(async t => {
  const id = uniqueId();
  await promise_rejects_js(t, TypeError, fetch(cacheURL(id), {cache: 'only-if-cached', mode: 'same-origin'}));
  assert_equals((await records(id)).length, 0, 'requests the server got');
}, 'only-if-cached without a stored response is a TypeError, nothing sent');

promise_test(async () => {
  const id = uniqueId();
  const url = cacheURL(id);
  await (await fetch(url)).text();
  // An unsafe method's success invalidates the stored response.
  await (await fetch(url, {method: 'POST', body: 'x'})).text();
  await (await fetch(url)).text();
  assert_array_equals((await records(id)).map(sent), [
    'GET inm=null cc=null pragma=null',
    'POST inm=null cc=null pragma=null',
    'GET inm=null cc=null pragma=null',
  ]);
}, 'a POST to the URL invalidates its stored response');
