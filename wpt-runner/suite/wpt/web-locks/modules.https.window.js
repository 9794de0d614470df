// META: title=Web Locks API: module scripts (module workers, module shared workers, import())
// META: timeout=long
// META: script=resources/helpers.js
// META: script=resources/lock-client.js
'use strict';

const resourcesURL = new URL('resources/', location.href).href;

// blankFrame inserts an about:blank iframe (its window exists at once)
// that the test's cleanup removes.
function blankFrame(t) {
  const f = document.createElement('iframe');
  document.body.appendChild(f);
  t.add_cleanup(() => f.remove());
  return f;
}

promise_test(async t => {
  const worker = new Worker('resources/module-lock-worker.js', {type: 'module'});
  t.add_cleanup(() => worker.terminate());
  const client = new LockClient(worker);
  const meta = await client.meta();
  assert_equals(meta.workerURL, resourcesURL + 'module-lock-worker.js', 'import.meta.url of the worker');
  assert_equals(meta.protocolURL, resourcesURL + 'module-lock-protocol.js', 'imports resolve against the worker URL');
  assert_equals(meta.evaluations, 1, 'the helper module ran once');
  assert_equals(meta.importScriptsError, 'TypeError', 'importScripts() throws in a module worker');

  const name = uniqueName();
  const held = client.request(name);
  assert_object_equals(await held.granted, {name, mode: 'exclusive'});
  assert_equals(await navigator.locks.request(name, {ifAvailable: true}, l => l), null,
                'the module worker\'s lock blocks the window');
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 1, 'the window sees the worker\'s lock');
  const got = navigator.locks.request(name, () => 'window');
  await held.release();
  assert_equals(await got, 'window', 'releasing it grants the window');
}, 'A module worker takes a lock that the window sees and waits for');

promise_test(async t => {
  const name = uniqueName();
  const message = new Promise(resolve => {
    window.addEventListener('message', function listener(e) {
      if (e.data && e.data.lock && e.data.lock.name === name) {
        window.removeEventListener('message', listener);
        resolve(e.data);
      }
    });
  });
  const f = document.createElement('iframe');
  f.src = 'resources/module-lock-frame.html#' + encodeURIComponent(name);
  document.body.appendChild(f);
  t.add_cleanup(() => f.remove());
  const data = await message;
  assert_object_equals(data.lock, {name, mode: 'exclusive'});
  assert_equals(data.url, resourcesURL + 'module-lock-frame.html#' + encodeURIComponent(name),
                'an inline module\'s import.meta.url is its document\'s URL');
  assert_equals(data.currentScript, 'null', 'document.currentScript is null in a module script');
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 1, 'the frame\'s module script holds the lock');
  const own = await holdLock(t, uniqueName()).granted;
  const mine = (await navigator.locks.query()).held.find(l => l.name === own.name);
  assert_not_equals(state.held[0].clientId, mine.clientId, 'the frame is a client of its own');
  const got = navigator.locks.request(name, () => 'page');
  f.contentWindow.releaseLock();
  assert_equals(await got, 'page', 'releasing the frame\'s lock grants the page');
}, 'A module script in a document takes a lock');

promise_test(async t => {
  const helper = await import('./resources/module-lock-helper.js');
  const again = await import(resourcesURL + 'module-lock-helper.js');
  assert_equals(again, helper, 'one module namespace for one URL');
  assert_equals(helper.evaluations(), 1, 'the module ran once');
  assert_equals(helper.helperURL, resourcesURL + 'module-lock-helper.js');
  const name = uniqueName();
  const held = helper.holdUntilReleased(name, {mode: 'shared'});
  assert_object_equals(await held.granted, {name, mode: 'shared'});
  const state = await snapshotFor(name);
  assert_equals(state.held.length, 1, 'the lock requested by the imported module is held');
  assert_equals(state.held[0].mode, 'shared');
  held.release();
  assert_equals(await held.done, undefined, 'released');
  await promise_rejects_js(t, TypeError, import('./resources/no-such-module.js'), 'a missing module');
  await promise_rejects_js(t, TypeError, import('bare-specifier'), 'a bare specifier');
}, 'import() of a module that takes a lock');

promise_test(async t => {
  const url = resourcesURL + 'module-lock-sharedworker.js';
  const workerName = uniqueName('module-sharedworker');
  const f1 = blankFrame(t), f2 = blankFrame(t);
  const a = new LockClient(new f1.contentWindow.SharedWorker(url, {type: 'module', name: workerName}).port);
  const b = new LockClient(new f2.contentWindow.SharedWorker(url, {type: 'module', name: workerName}).port);
  const name = uniqueName();
  const held = a.request(name);
  assert_object_equals(await held.granted, {name, mode: 'exclusive'});
  const metaB = await b.meta();
  assert_equals(metaB.workerURL, url, 'import.meta.url of the shared worker');
  assert_equals(metaB.connections, 2, 'both documents reach one worker');
  assert_equals(metaB.evaluations, 1, 'its module graph ran once');
  const fromF1 = (await f1.contentWindow.navigator.locks.query()).held.filter(l => l.name === name);
  const fromF2 = (await f2.contentWindow.navigator.locks.query()).held.filter(l => l.name === name);
  assert_equals(fromF1.length, 1, 'the first document sees the lock');
  assert_equals(fromF2.length, 1, 'the second document sees the lock');
  assert_equals(fromF1[0].clientId, fromF2[0].clientId, 'one holder');
  const viaB = (await b.query()).held.find(l => l.name === name);
  assert_equals(viaB.clientId, fromF1[0].clientId, 'the worker is the holder, whichever connection asks');
  await held.release();
}, 'A module shared worker holds a lock that query() in two documents sees');
