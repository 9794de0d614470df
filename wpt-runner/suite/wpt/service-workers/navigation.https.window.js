// META: title=Service Workers: the navigations of frames go to the service worker whose scope matches their URL (fetch event, resultingClientId, controller, reload flag and clientId)
'use strict';

// activeRegistration registers resources/navigation-sw.js for scope, waits
// until it is active and unregisters it at cleanup.
async function activeRegistration(t, scope) {
  const reg = await navigator.serviceWorker.register('resources/navigation-sw.js', {scope});
  t.add_cleanup(() => reg.unregister());
  const sw = reg.installing || reg.waiting || reg.active;
  await new Promise(r => {
    if (sw.state === 'activated') r();
    sw.addEventListener('statechange', () => sw.state === 'activated' && r());
  });
  return reg;
}

// load inserts a frame element of tag name for url and waits for its
// load event.
async function load(t, name, url) {
  const f = document.createElement(name);
  t.add_cleanup(() => f.remove());
  f.src = url;
  await new Promise(r => { f.onload = r; document.body.appendChild(f); });
  return f;
}

// clientURL asks the registration's worker for the URL of the client
// whose id is id (clients.get).
function clientURL(reg, id) {
  return new Promise(resolve => {
    navigator.serviceWorker.addEventListener('message', e => resolve(e.data), {once: true});
    reg.active.postMessage(id);
  });
}

promise_test(async t => {
  const reg = await activeRegistration(t, 'resources/nav-iframe/');
  const f = await load(t, 'iframe', 'resources/nav-iframe/page.html');
  const info = JSON.parse(f.contentDocument.body.textContent);
  assert_equals(info.mode, 'navigate', 'mode');
  assert_equals(info.destination, 'iframe', 'destination');
  assert_false(info.reload, 'isReloadNavigation');
  assert_false(info.history, 'isHistoryNavigation');
  assert_not_equals(info.resultingClientId, '', 'resultingClientId');
  assert_not_equals(f.contentWindow.navigator.serviceWorker.controller, null, 'the new document is controlled');
  assert_equals(await clientURL(reg, info.resultingClientId), f.contentWindow.location.href,
                'resultingClientId is the id of the new document\'s client');
}, 'an iframe\'s navigation is the service worker\'s fetch event, whose resultingClientId is the new document\'s client');

promise_test(async t => {
  await activeRegistration(t, 'resources/nav-frame/');
  const f = await load(t, 'frame', 'resources/nav-frame/page.html');
  assert_true(f instanceof HTMLFrameElement, 'HTMLFrameElement');
  assert_equals(JSON.parse(f.contentDocument.body.textContent).destination, 'frame');
}, 'a frame element\'s navigation has the destination "frame"');

promise_test(async t => {
  await activeRegistration(t, 'resources/nav-reload/');
  const f = await load(t, 'iframe', 'resources/nav-reload/page.html');
  const first = JSON.parse(f.contentDocument.body.textContent);
  await new Promise(r => { f.onload = r; f.contentWindow.location.reload(); });
  const again = JSON.parse(f.contentDocument.body.textContent);
  assert_true(again.reload, 'isReloadNavigation');
  assert_false(again.history, 'isHistoryNavigation');
  assert_not_equals(again.resultingClientId, first.resultingClientId, 'a new client');
  assert_equals(again.clientId, first.resultingClientId, 'clientId is the id of the reloaded document\'s client');
}, 'location.reload() is a reload navigation whose clientId is the reloaded document\'s');

promise_test(async t => {
  await activeRegistration(t, 'resources/nav-srcdoc/');
  const f = await load(t, 'iframe', 'resources/nav-srcdoc/page.html');
  const inner = f.contentDocument.createElement('iframe');
  inner.srcdoc = '<p>inline';
  await new Promise(r => { inner.onload = r; f.contentDocument.body.appendChild(inner); });
  assert_not_equals(inner.contentWindow.navigator.serviceWorker.controller, null);
}, 'a srcdoc iframe of a controlled document is controlled by its service worker');
