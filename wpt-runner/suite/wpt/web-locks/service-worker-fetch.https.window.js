// META: title=Web Locks API: a service worker's fetch events
// META: timeout=long
'use strict';

const SCOPE = 'resources/fetch-scope/';

// activeRegistration registers resources/fetch-sw.js for SCOPE and waits
// until its worker is activated.
async function activeRegistration(t) {
  const old = await navigator.serviceWorker.getRegistration(SCOPE);
  if (old) await old.unregister();
  const reg = await navigator.serviceWorker.register('resources/fetch-sw.js', {scope: SCOPE});
  t.add_cleanup(() => reg.unregister());
  const sw = reg.installing || reg.waiting || reg.active;
  if (sw.state !== 'activated') {
    await new Promise(resolve => sw.addEventListener('statechange', () => {
      if (sw.state === 'activated') resolve();
    }));
  }
  return reg;
}

// controlledFrame loads a page in SCOPE in an iframe.
function controlledFrame(t) {
  return new Promise(resolve => {
    const f = document.createElement('iframe');
    f.src = SCOPE + 'page.html';
    f.onload = () => resolve(f);
    document.body.appendChild(f);
    t.add_cleanup(() => f.remove());
  });
}

promise_test(async t => {
  const reg = await activeRegistration(t);
  const w = (await controlledFrame(t)).contentWindow;
  assert_equals(w.navigator.serviceWorker.controller && w.navigator.serviceWorker.controller.scriptURL,
                reg.active.scriptURL, 'the frame is controlled');
  const answer = await w.fetch('answer');
  assert_equals(answer.status, 200);
  assert_equals(answer.type, 'basic');
  assert_equals(answer.url, new URL(SCOPE + 'answer', location.href).href);
  assert_equals(await answer.text(), 'answered by the service worker');
  const network = await w.fetch('data.txt');
  assert_equals((await network.text()).trim(), 'from the network',
                'a request the worker does not answer goes to the network');
  await promise_rejects_js(t, w.TypeError, w.fetch('fail'),
                           'a rejected respondWith() is a network error');
  // This page is not controlled: its request reaches the network.
  const mine = await fetch(SCOPE + 'answer');
  assert_equals(mine.status, 404, 'an uncontrolled page is not answered by the worker');
}, 'A service worker answers its controlled page\'s fetches');

promise_test(async t => {
  await activeRegistration(t);
  const f = await controlledFrame(t);
  const got = await (await f.contentWindow.fetch('client')).json();
  assert_equals(typeof got.clientId, 'string');
  assert_not_equals(got.clientId, '', 'a subresource request has a clientId');
  assert_equals(got.resultingClientId, '', 'a subresource request has no resultingClientId');
  assert_true(got.found, 'clients.get() finds the requesting client');
  assert_equals(got.id, got.clientId, 'Client.id is the fetch event\'s clientId');
  assert_equals(got.url, f.contentWindow.location.href);
  assert_equals(got.type, 'window');
  assert_equals(got.frameType, 'nested');
  assert_equals(got.held, 1, 'the worker holds its lock while answering');
  assert_equals(typeof got.lockClientId, 'string');
  assert_not_equals(got.lockClientId, got.clientId,
                    'the worker\'s lock is its own, not the controlled client\'s');
}, 'A fetch handler sees the controlled client through clients.get() and takes a lock of its own');
