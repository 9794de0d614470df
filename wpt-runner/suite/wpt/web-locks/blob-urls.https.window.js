// META: title=Blob URLs: a blob: dedicated worker takes a lock; fetch() of blob: URLs
// META: script=resources/helpers.js
'use strict';

promise_test(async t => {
  const name = uniqueName();
  const url = URL.createObjectURL(new Blob([`
    navigator.locks.request(${JSON.stringify(name)}, () => {
      postMessage('held');
      return new Promise(() => {});
    });
  `]));
  t.add_cleanup(() => URL.revokeObjectURL(url));
  assert_true(url.startsWith('blob:' + location.origin + '/'), url);
  const worker = new Worker(url);
  t.add_cleanup(() => worker.terminate());
  await new Promise(resolve => worker.onmessage = resolve);
  const state = await navigator.locks.query();
  assert_true(state.held.some(l => l.name === name), 'the worker holds the lock');
  assert_equals(await navigator.locks.request(name, {ifAvailable: true}, l => l), null);
  worker.terminate();
  assert_equals(await navigator.locks.request(name, () => 'granted'), 'granted',
                'terminating the blob: worker released its lock');
}, 'A dedicated worker from a blob: URL (a blob without a type) takes a lock; terminating it releases the lock');

promise_test(async t => {
  const url = URL.createObjectURL(new Blob(['hello ', 'blob'], {type: 'text/plain'}));
  const r = await fetch(url);
  assert_equals(r.status, 200);
  assert_equals(r.type, 'basic');
  assert_equals(r.url, url);
  assert_equals(r.headers.get('content-type'), 'text/plain');
  assert_equals(r.headers.get('content-length'), '10');
  assert_equals(await r.text(), 'hello blob');
  assert_equals(await (await fetch(url + '#fragment')).text(), 'hello blob', 'the fragment is ignored');
  await promise_rejects_js(t, TypeError, fetch(url, {method: 'POST', body: 'x'}), 'only GET');
  URL.revokeObjectURL(url);
  await promise_rejects_js(t, TypeError, fetch(url), 'a revoked blob URL');
}, 'fetch() of a blob: URL, with a fragment, with POST, and after revokeObjectURL');

test(() => {
  assert_throws_js(TypeError, () => URL.createObjectURL('not a blob'));
  assert_equals(URL.revokeObjectURL('https://example.com/'), undefined, 'not a blob URL: nothing happens');
  assert_equals(URL.revokeObjectURL('blob:nonsense'), undefined);
}, 'createObjectURL and revokeObjectURL argument handling');

promise_test(async t => {
  const name = uniqueName();
  const url = URL.createObjectURL(new Blob([`<!doctype html><script>
    navigator.locks.request(${JSON.stringify(name)}, () => {
      parent.postMessage({blob: 'held', origin: self.origin}, '*');
      return new Promise(() => {});
    });
  <\/script>`], {type: 'text/html'}));
  t.add_cleanup(() => URL.revokeObjectURL(url));
  const got = new Promise(resolve => addEventListener('message', function f(e) {
    if (e.data && e.data.blob) { removeEventListener('message', f); resolve(e.data); }
  }));
  const iframe = document.createElement('iframe');
  t.add_cleanup(() => iframe.remove());
  iframe.src = url;
  document.body.appendChild(iframe);
  const msg = await got;
  assert_equals(msg.origin, location.origin, 'a blob: document has the blob URL\'s origin');
  assert_equals(iframe.contentWindow.location.href, url);
  const state = await navigator.locks.query();
  assert_true(state.held.some(l => l.name === name), 'the blob: frame holds the lock');
  iframe.remove();
  assert_equals(await navigator.locks.request(name, () => 'granted'), 'granted', 'removing the frame released it');
}, 'An iframe loaded from a blob: URL is a document of the blob\'s origin that can take a lock');

promise_test(async t => {
  const got = new Promise(resolve => addEventListener('message', function f(e) {
    if (e.data && e.data.data) { removeEventListener('message', f); resolve(e.data); }
  }));
  const iframe = document.createElement('iframe');
  t.add_cleanup(() => iframe.remove());
  iframe.src = 'data:text/html,' + encodeURIComponent(`<script>
    const report = what => parent.postMessage({data: what, origin: self.origin, secure: isSecureContext}, '*');
    if (!navigator.locks) {
      report('absent');
    } else {
      navigator.locks.request('x', () => {}).then(() => report('granted'), e => report(e.name));
    }
  <\/script>`);
  document.body.appendChild(iframe);
  const msg = await got;
  assert_equals(msg.origin, 'null', 'a data: document has an opaque origin');
  // HTML makes the frame a secure context (its top-level creation URL is
  // https), so navigator.locks exists and request() rejects (Web Locks:
  // an opaque origin); Chromium makes it a non-secure context, so there is
  // no navigator.locks. Either way no lock is taken.
  assert_in_array(msg.data + ' ' + msg.secure, ['SecurityError true', 'absent false'], 'Web Locks in an opaque origin');
}, 'An iframe loaded from a data: URL has an opaque origin: no lock can be taken there');

promise_test(async t => {
  const name = uniqueName();
  const url = URL.createObjectURL(new Blob([`
    export const meta = import.meta.url;
    export const held = navigator.locks.request(${JSON.stringify(name)}, () => 'held in a blob: module');
  `], {type: 'text/javascript'}));
  t.add_cleanup(() => URL.revokeObjectURL(url));
  const m = await import(url);
  assert_equals(m.meta, url, 'import.meta.url is the blob URL');
  assert_equals(await m.held, 'held in a blob: module');
  assert_equals(await import(url), m, 'one module per URL');
}, 'import() of a blob: URL');

// lockingSharedWorkerSource is a shared worker that takes lock name on its
// first connection, reports {held, origin} (or {error}) to it, and closes
// itself when told "close".
function lockingSharedWorkerSource(name) {
  return `
    onconnect = e => {
      const port = e.ports[0];
      port.onmessage = m => { if (m.data === 'close') close(); };
      if (!self.navigator.locks) { port.postMessage({error: 'absent', origin: self.origin}); return; }
      navigator.locks.request(${JSON.stringify(name)}, () => {
        port.postMessage({held: true, origin: self.origin});
        return new Promise(() => {});
      }).catch(e => port.postMessage({error: e.name, origin: self.origin}));
    };`;
}

function connectShared(url) {
  const w = new SharedWorker(url);
  const msg = new Promise((resolve, reject) => {
    w.port.onmessage = e => resolve(e.data);
    w.onerror = () => reject(new Error('error event'));
  });
  return {w, msg};
}

promise_test(async t => {
  const name = uniqueName();
  const url = URL.createObjectURL(new Blob([lockingSharedWorkerSource(name)], {type: 'text/javascript'}));
  t.add_cleanup(() => URL.revokeObjectURL(url));
  const {w, msg} = connectShared(url);
  assert_object_equals(await msg, {held: true, origin: location.origin}, 'a blob: shared worker has the blob\'s origin');
  const state = await navigator.locks.query();
  assert_true(state.held.some(l => l.name === name), 'the shared worker holds the lock');
  w.port.postMessage('close');
  assert_equals(await navigator.locks.request(name, () => 'granted'), 'granted', 'closing the worker released the lock');
}, 'A shared worker from a blob: URL takes a lock; its close() releases it');

promise_test(async t => {
  const name = uniqueName();
  const {w, msg} = connectShared('data:text/javascript,' + encodeURIComponent(lockingSharedWorkerSource(name)));
  t.add_cleanup(() => w.port.postMessage('close'));
  const got = await msg;
  assert_equals(got.origin, 'null', 'a data: shared worker has an opaque origin');
  assert_in_array(got.error, ['SecurityError', 'absent'], 'no lock in an opaque origin');
}, 'A shared worker from a data: URL has an opaque origin: no lock can be taken there');

promise_test(async t => {
  const name = uniqueName();
  const url = URL.createObjectURL(new Blob([`<!doctype html><script>
    onmessage = e => { if (e.data === 'close') close(); };
    navigator.locks.request(${JSON.stringify(name)}, () => {
      opener.postMessage({popup: 'held', origin: self.origin, href: location.href}, '*');
      return new Promise(() => {});
    });
  <\/script>`], {type: 'text/html'}));
  t.add_cleanup(() => URL.revokeObjectURL(url));
  const got = new Promise(resolve => addEventListener('message', function f(e) {
    if (e.data && e.data.popup) { removeEventListener('message', f); resolve(e.data); }
  }));
  const popup = open(url);
  t.add_cleanup(() => popup.close());
  assert_object_equals(await got, {popup: 'held', origin: location.origin, href: url}, 'a blob: popup has the blob\'s origin');
  const state = await navigator.locks.query();
  assert_true(state.held.some(l => l.name === name), 'the popup holds the lock');
  popup.close();
  assert_equals(await navigator.locks.request(name, () => 'granted'), 'granted', 'closing the popup released the lock');
}, 'A popup opened at a blob: URL (window.open) is a document of the blob\'s origin that can take a lock');

promise_test(async t => {
  const name = uniqueName();
  const run = src => new Promise(resolve => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = () => resolve('load');
    s.onerror = () => resolve('error');
    t.add_cleanup(() => s.remove());
    document.head.append(s);
  });
  const blob = URL.createObjectURL(new Blob([`self.fromBlob = navigator.locks.request(${JSON.stringify(name)}, () => 'blob script');`], {type: 'text/javascript'}));
  t.add_cleanup(() => URL.revokeObjectURL(blob));
  assert_equals(await run(blob), 'load');
  assert_equals(await self.fromBlob, 'blob script');
  assert_equals(await run('data:text/javascript,self.fromData = 42'), 'load');
  assert_equals(self.fromData, 42);
  const revoked = URL.createObjectURL(new Blob(['self.fromRevoked = true']));
  URL.revokeObjectURL(revoked);
  assert_equals(await run(revoked), 'error', 'a revoked blob URL');
}, 'Classic scripts from blob: and data: URLs run; a revoked blob: URL fires error');

promise_test(async t => {
  const typed = URL.createObjectURL(new Blob(['self.typed = 1;'], {type: 'text/javascript'}));
  const untyped = URL.createObjectURL(new Blob(['self.untyped = 2;']));
  t.add_cleanup(() => { URL.revokeObjectURL(typed); URL.revokeObjectURL(untyped); });
  const worker = URL.createObjectURL(new Blob([`
    const out = [];
    for (const u of ${JSON.stringify([typed, 'data:text/javascript,self.data=3;', untyped, 'data:,self.plain=4;'])}) {
      try { importScripts(u); out.push('ok'); } catch (e) { out.push(e.name); }
    }
    out.push([self.typed, self.data, self.untyped, self.plain].join());
    postMessage(out);
  `]));
  t.add_cleanup(() => URL.revokeObjectURL(worker));
  const w = new Worker(worker);
  t.add_cleanup(() => w.terminate());
  const got = await new Promise((resolve, reject) => { w.onmessage = e => resolve(e.data); w.onerror = () => reject(new Error('worker error')); });
  // HTML requires a JavaScript MIME type whatever the scheme; Chromium
  // checks it for http(s) responses only.
  assert_array_equals(got, ['ok', 'ok', 'ok', 'ok', '1,3,2,4']);
}, 'importScripts of blob: and data: URLs, with and without a JavaScript MIME type');
