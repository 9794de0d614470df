// META: title=Fetch: a service worker's response body streams to its client
// META: timeout=long
'use strict';

const SCOPE = 'resources/sw-stream-scope/';

async function activeRegistration(t) {
  const old = await navigator.serviceWorker.getRegistration(SCOPE);
  if (old) await old.unregister();
  const reg = await navigator.serviceWorker.register('resources/sw-stream.js', {scope: SCOPE});
  t.add_cleanup(() => reg.unregister());
  const sw = reg.installing || reg.waiting || reg.active;
  if (sw.state !== 'activated') {
    await new Promise(resolve => sw.addEventListener('statechange', () => {
      if (sw.state === 'activated') resolve();
    }));
  }
  return reg;
}

function controlledFrame(t) {
  return new Promise(resolve => {
    const f = document.createElement('iframe');
    f.src = SCOPE + 'page.html';
    f.onload = () => resolve(f.contentWindow);
    document.body.appendChild(f);
    t.add_cleanup(() => f.remove());
  });
}

// The chunks are the frame's Uint8Arrays: the frame's TextDecoder reads them.
const decode = (w, chunk) => new w.TextDecoder().decode(chunk);

promise_test(async t => {
  await activeRegistration(t);
  const w = await controlledFrame(t);
  const response = await w.fetch('open');
  const reader = response.body.getReader();
  const first = await reader.read();
  assert_false(first.done);
  assert_equals(decode(w, first.value), 'first', 'the first chunk arrives while the stream is open');
  assert_equals(await (await w.fetch('finish')).text(), 'finished');
  let rest = '';
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    rest += decode(w, value);
  }
  assert_equals(rest, 'last');
}, "a respondWith() ReadableStream body reaches the page chunk by chunk");

promise_test(async t => {
  await activeRegistration(t);
  const w = await controlledFrame(t);
  const controller = new w.AbortController();
  const response = await w.fetch('open', {signal: controller.signal});
  const reader = response.body.getReader();
  assert_equals(decode(w, (await reader.read()).value), 'first');
  const reason = new w.Error('stop');
  const next = reader.read();
  controller.abort(reason);
  await promise_rejects_exactly(t, reason, next, 'the pending read rejects with the abort reason');
  let canceled = null;
  for (let i = 0; i < 50 && !canceled; i++) {
    canceled = await (await w.fetch('canceled')).json();
    if (!canceled) await new Promise(resolve => t.step_timeout(resolve, 20));
  }
  assert_not_equals(canceled, null, "the service worker's stream is canceled");
}, "aborting the page's fetch mid-body cancels the service worker's stream");
