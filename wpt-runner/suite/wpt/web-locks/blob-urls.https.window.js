// META: title=Blob URLs: a blob: dedicated worker takes a lock; fetch() of blob: URLs
// META: script=resources/helpers.js
'use strict';

promise_test(async t => {
  const name = uniqueName();
  const url = URL.createObjectURL(new Blob([`
    navigator.locks.request(${JSON.stringify(name)}, () => {
      postMessage('held');
      return new Promise(() => {});
    });
  `]));
  t.add_cleanup(() => URL.revokeObjectURL(url));
  assert_true(url.startsWith('blob:' + location.origin + '/'), url);
  const worker = new Worker(url);
  t.add_cleanup(() => worker.terminate());
  await new Promise(resolve => worker.onmessage = resolve);
  const state = await navigator.locks.query();
  assert_true(state.held.some(l => l.name === name), 'the worker holds the lock');
  assert_equals(await navigator.locks.request(name, {ifAvailable: true}, l => l), null);
  worker.terminate();
  assert_equals(await navigator.locks.request(name, () => 'granted'), 'granted',
                'terminating the blob: worker released its lock');
}, 'A dedicated worker from a blob: URL (a blob without a type) takes a lock; terminating it releases the lock');

promise_test(async t => {
  const url = URL.createObjectURL(new Blob(['hello ', 'blob'], {type: 'text/plain'}));
  const r = await fetch(url);
  assert_equals(r.status, 200);
  assert_equals(r.type, 'basic');
  assert_equals(r.url, url);
  assert_equals(r.headers.get('content-type'), 'text/plain');
  assert_equals(r.headers.get('content-length'), '10');
  assert_equals(await r.text(), 'hello blob');
  assert_equals(await (await fetch(url + '#fragment')).text(), 'hello blob', 'the fragment is ignored');
  await promise_rejects_js(t, TypeError, fetch(url, {method: 'POST', body: 'x'}), 'only GET');
  URL.revokeObjectURL(url);
  await promise_rejects_js(t, TypeError, fetch(url), 'a revoked blob URL');
}, 'fetch() of a blob: URL, with a fragment, with POST, and after revokeObjectURL');

test(() => {
  assert_throws_js(TypeError, () => URL.createObjectURL('not a blob'));
  assert_equals(URL.revokeObjectURL('https://example.com/'), undefined, 'not a blob URL: nothing happens');
  assert_equals(URL.revokeObjectURL('blob:nonsense'), undefined);
}, 'createObjectURL and revokeObjectURL argument handling');
