// META: title=Web Locks API: scripts inserted by the DOM, localStorage and popup URLs (what the upstream bfcache executor pages use)
// META: script=resources/helpers.js
'use strict';

// insertScript appends a script element with the given attributes and
// text to the document's head; its promise settles with "load" or
// "error" (or never, for a script that does not run).
function insertScript(t, attrs, text) {
  const s = document.createElement('script');
  for (const [k, v] of Object.entries(attrs)) s.setAttribute(k, v);
  if (text) s.textContent = text;
  const done = new Promise(resolve => {
    s.onload = () => resolve('load');
    s.onerror = () => resolve('error');
  });
  document.head.append(s);
  t.add_cleanup(() => s.remove());
  return done;
}

promise_test(async t => {
  const name = uniqueName();
  window.insertedLog = [];
  window.insertedLockName = name;
  t.add_cleanup(() => { delete window.insertedLog; delete window.insertedLockName; });
  insertScript(t, {}, `insertedLog.push('inline');`);
  insertedLog.push('after');
  assert_array_equals(insertedLog, ['inline', 'after'], 'an inline script runs during its insertion');

  assert_equals(await insertScript(t, {src: 'resources/inserted-lock.js'}), 'load',
                'an external script fires load');
  assert_equals(await insertedLockGranted, name, 'the inserted script took the lock');
  const state = await navigator.locks.query();
  assert_true(state.held.some(l => l.name === name), 'the window holds the inserted script\'s lock');
  assert_equals(await navigator.locks.request(name, {ifAvailable: true}, l => l), null,
                'the inserted script\'s lock blocks the window\'s request');
  const next = navigator.locks.request(name, () => 'window');
  releaseInsertedLock();
  assert_equals(await next, 'window', 'releasing it grants the window');
}, 'An inserted script runs: inline at once, external then load; its lock is the window\'s');

promise_test(async t => {
  window.insertedLog = [];
  t.add_cleanup(() => { delete window.insertedLog; });
  assert_equals(await insertScript(t, {src: 'resources/none-such.js'}), 'error', 'a 404 fires error');
  insertScript(t, {nomodule: ''}, `insertedLog.push('nomodule');`);
  insertScript(t, {type: 'text/plain'}, `insertedLog.push('data block');`);
  assert_equals(await insertScript(t, {type: 'module', src: 'resources/module-inserted.js'}), 'load',
                'a module script fires load');
  assert_array_equals(insertedLog, ['module ' + new URL('resources/module-inserted.js', location.href).href],
                      'only the module script ran, with its import.meta.url');
}, 'Inserted scripts: a 404 fires error, nomodule and data blocks do not run, a module script runs');

promise_test(async t => {
  const key = uniqueName('loads');
  t.add_cleanup(() => localStorage.removeItem(key));
  assert_equals(localStorage.getItem(key), null, 'a fresh key');
  const f = document.createElement('iframe');
  const loaded = () => new Promise(resolve => f.addEventListener('load', resolve, {once: true}));
  f.src = 'resources/count-loads.html?key=' + encodeURIComponent(key);
  document.body.append(f);
  t.add_cleanup(() => f.remove());
  await loaded();
  assert_equals(f.contentWindow.loadCount, 1, 'first load');
  const again = loaded();
  f.contentWindow.location.reload();
  await again;
  assert_equals(f.contentWindow.loadCount, 2, 'the reloaded document counted on');
  assert_equals(localStorage.getItem(key), '2', 'the window and the frame share the origin\'s storage');
  localStorage.setItem(key + 'b', 'x');
  t.add_cleanup(() => localStorage.removeItem(key + 'b'));
  assert_equals(f.contentWindow.localStorage.getItem(key + 'b'), 'x', 'a value set by the window');
  assert_equals(localStorage.getItem(key + 'b'), 'x');
  localStorage.removeItem(key + 'b');
  assert_equals(f.contentWindow.localStorage.getItem(key + 'b'), null, 'removed');
}, 'localStorage is shared by an origin\'s documents and outlives them (the executor\'s load count)');

promise_test(async t => {
  const got = new Promise(resolve => window.addEventListener('message', e => {
    if (e.data && e.data.search !== undefined) resolve(e.data);
  }));
  const w = window.open('resources/report-location.html?prefix=/a b-c d', '_blank');
  t.add_cleanup(() => w.close());
  const data = await got;
  assert_equals(data.search, '?prefix=/a%20b-c%20d', 'the spaces are percent-encoded');
  assert_equals(data.title, 'report-location', 'the popup document loaded');
}, 'window.open percent-encodes spaces in the query of the URL it navigates to');
