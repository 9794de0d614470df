// META: title=Fetch: keepalive fetches outlive their document; the keepalive quota
// META: script=resources/record.js
'use strict';

// polls the records of id until there is one (the harness's timeout
// ends the wait otherwise).
async function oneRecordEventually(id) {
  for (;;) {
    const got = await records(id);
    if (got.length > 0) {
      return got;
    }
    await new Promise(r => step_timeout(r, 50));
  }
}

for (const [where, base] of [['same-origin', SAME], ['cross-site', `${location.protocol}//not-${HOST_PORT}`]]) {
  for (const event of ['pagehide', 'unload']) {
    promise_test(async () => {
      const id = uniqueId();
      const target = recordURL(SAME, id, {acao: 'star'});
      const frame = document.createElement('iframe');
      frame.src = `${base}/fetch/resources/keepalive-frame.html?` +
          new URLSearchParams({event, url: target});
      const loaded = new Promise(r => frame.onload = r);
      document.body.append(frame);
      await loaded;
      frame.remove();
      const got = await oneRecordEventually(id);
      assert_equals(got.length, 1);
      assert_equals(got[0].method, 'POST');
    }, `a keepalive fetch started in ${event} of a ${where} frame reaches the server after the frame is removed`);
  }
}

promise_test(async t => {
  const id = uniqueId();
  const url = recordURL(SAME, id);
  await promise_rejects_js(t, TypeError, fetch(url, {keepalive: true, method: 'POST', body: 'x'.repeat(65537)}));
  const r = await fetch(url, {keepalive: true, method: 'POST', body: 'x'.repeat(65536)});
  assert_equals(await r.text(), 'recorded');
  assert_equals((await records(id)).length, 1, 'requests the server got');
}, 'a keepalive body over 64 KiB is a TypeError and is not sent; one of 64 KiB is');
