// Spec behaviour Chromium does not implement, kept out of the bundled suite:
// a lock's clientId is its environment's id, which is what the service
// worker Client.id of that environment returns (Chromium reports an id of
// its own).
'use strict';

promise_test(async t => {
  const reg = await navigator.serviceWorker.register('resources/sw-client-ids.js', {scope: 'resources/no-such-page'});
  t.add_cleanup(() => reg.unregister());
  const worker = reg.installing || reg.waiting || reg.active;
  const name = 'clientid-' + Math.random();
  let release;
  await new Promise(granted => {
    navigator.locks.request(name, () => new Promise(r => { release = r; granted(); }));
  });
  const state = await navigator.locks.query();
  release();
  const clientId = state.held.find(l => l.name === name).clientId;
  const ids = await new Promise(resolve => {
    navigator.serviceWorker.addEventListener('message', e => resolve(e.data), {once: true});
    worker.postMessage('ids');
  });
  assert_in_array(clientId, ids, "the page's Client.id");
}, "a lock's clientId is the Client.id of its environment");
