// META: title=Fetch: a response is available when its headers are; aborting mid-body stops the read
// META: script=resources/record.js
'use strict';

const HOLD = '/fetch/resources/hold-body.py';

promise_test(async () => {
  const id = uniqueId();
  const r = await fetch(`${HOLD}?uuid=${id}`);
  assert_equals(r.status, 200);
  assert_false(r.bodyUsed);
  const text = r.text();
  assert_equals(await (await fetch(`${HOLD}?uuid=${id}&release=1`)).text(), 'released');
  assert_equals(await text, 'start end', 'the body, released after the response was available');
}, 'fetch() resolves when the headers arrive, before the body is complete');

promise_test(async t => {
  const id = uniqueId();
  const c = new AbortController();
  const r = await fetch(`${HOLD}?uuid=${id}`, {signal: c.signal});
  const text = r.text();
  c.abort();
  // (Had the read gone on, the held body would end, with "timeout", and
  // text() would resolve. When Chromium closes the connection varies, so
  // that the server sees it go is checked by package fetch's Go tests.)
  await promise_rejects_dom(t, 'AbortError', text);
}, 'aborting mid-body rejects the body read with AbortError');
