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
  await promise_rejects_dom(t, 'AbortError', text);
  // The server sees the connection go.
  let got = [];
  while (got.length === 0) {
    got = await records(id);
  }
  assert_equals(got[0].state, 'closed');
}, 'aborting mid-body rejects the body read with AbortError and stops the read');
