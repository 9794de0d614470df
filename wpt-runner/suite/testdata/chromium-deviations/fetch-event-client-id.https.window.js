// Spec behaviour Chromium does not implement, kept out of the bundled suite:
// the clientId of a controlled page's locks is the clientId of the fetch
// events its requests fire at its service worker (the environment's id;
// Chromium reports an id of its own for locks). Upstream's
// web-locks/clientids.https.html checks the same.
'use strict';

promise_test(async t => {
  const scope = 'resources/controlled/';
  const old = await navigator.serviceWorker.getRegistration(scope);
  if (old) await old.unregister();
  const reg = await navigator.serviceWorker.register('resources/sw-fetch-client-id.js', {scope});
  t.add_cleanup(() => reg.unregister());
  const sw = reg.installing || reg.waiting || reg.active;
  if (sw.state !== 'activated') {
    await new Promise(resolve => sw.addEventListener('statechange', () => {
      if (sw.state === 'activated') resolve();
    }));
  }
  const frame = await new Promise(resolve => {
    const f = document.createElement('iframe');
    f.src = scope + 'frame.html';
    f.onload = () => resolve(f);
    document.body.appendChild(f);
    t.add_cleanup(() => f.remove());
  });
  const w = frame.contentWindow;
  const fetchClientId = await (await w.fetch('client-id')).text();
  const name = 'fetch-client-id-' + Math.random();
  const lockClientId = await w.navigator.locks.request(name, async () => {
    const state = await w.navigator.locks.query();
    return state.held.find(l => l.name === name).clientId;
  });
  assert_equals(lockClientId, fetchClientId, 'the fetch event\'s clientId');
}, 'a lock\'s clientId is the clientId of its environment\'s fetch events');
