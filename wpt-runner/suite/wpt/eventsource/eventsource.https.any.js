// META: title=EventSource and navigator.sendBeacon: events, reconnection, failures
// META: global=window,dedicatedworker
// META: script=/fetch/resources/record.js
'use strict';

const STREAM = 'resources/message.txt';

promise_test(async t => {
  const es = new EventSource(STREAM);
  t.add_cleanup(() => es.close());
  assert_equals(es.url, new URL(STREAM, location.href).href);
  assert_false(es.withCredentials);
  assert_equals(es.readyState, EventSource.CONNECTING);
  const events = [];
  const done = new Promise(resolve => {
    let opens = 0;
    es.onopen = e => {
      events.push('open' + es.readyState);
      if (++opens === 2) {
        es.close();
        resolve();
      }
    };
    es.onmessage = e => {
      assert_true(e instanceof MessageEvent);
      events.push(`message:${e.data}:${e.lastEventId}:${e.origin === location.origin}`);
    };
    es.addEventListener('ping', e => events.push(`ping:${e.data}:${e.lastEventId}`));
    es.onerror = e => events.push('error' + es.readyState);
  });
  await done;
  assert_array_equals(events, ['open1', 'message:one\ntwo:7:true', 'ping:p:7', 'error0', 'open1']);
  assert_equals(es.readyState, EventSource.CLOSED);
}, 'an event stream: open, message and a named event, then the end of the stream reconnects (retry)');

promise_test(async () => {
  for (const url of ['resources/missing.txt', '/fetch/resources/plain.txt']) {
    const es = new EventSource(url);
    const events = [];
    es.onopen = () => events.push('open');
    await new Promise(resolve => es.onerror = () => {
      events.push('error' + es.readyState);
      resolve();
    });
    assert_array_equals(events, ['error2'], url);
  }
}, 'a 404 or a response that is not text/event-stream fails the connection (CLOSED)');

test(() => {
  assert_throws_dom('SyntaxError', () => new EventSource('https://[::1'));
  const es = new EventSource(STREAM, {withCredentials: true});
  assert_true(es.withCredentials);
  es.close();
  assert_equals(es.readyState, EventSource.CLOSED);
  assert_equals(EventSource.OPEN, 1);
}, 'the constructor: SyntaxError, withCredentials, close()');

if (typeof navigator.sendBeacon === 'function') {
  promise_test(async () => {
    const id = uniqueId();
    assert_true(navigator.sendBeacon(recordURL(SAME, id), 'beacon data'));
    let got = [];
    while (got.length === 0) {
      got = await records(id);
    }
    assert_equals(got[0].method, 'POST');
    assert_equals(got[0]['sec-fetch-dest'], 'empty');
    assert_equals(got[0]['sec-fetch-mode'], 'no-cors');
    assert_throws_js(TypeError, () => navigator.sendBeacon('ftp://example.test/'));
    assert_throws_js(TypeError, () => navigator.sendBeacon('https://[::1'));
    assert_false(navigator.sendBeacon(recordURL(SAME, id), 'x'.repeat(65537)), 'over the quota');
  }, 'navigator.sendBeacon: a POST with destination "", TypeErrors, the quota');
}
