// META: title=Every Window and Location member read and written from another origin
'use strict';

// Another origin of the test server (same site), and another site.
const CROSS = `${location.protocol}//www.${location.host}`;
const CROSS_SITE = `${location.protocol}//not-${location.host}`;

// The Window members of this engine's IDL, and Location's.
const windowMembers = ['window', 'self', 'document', 'name', 'location', 'history', 'closed', 'close',
  'stop', 'focus', 'blur', 'frames', 'length', 'top', 'opener', 'parent', 'frameElement', 'open',
  'navigator', 'alert', 'confirm', 'prompt', 'postMessage', 'onload', 'onmessage', 'onhashchange',
  'onpopstate', 'onpageshow', 'onpagehide', 'origin', 'isSecureContext', 'setTimeout',
  'queueMicrotask', 'structuredClone', 'localStorage', 'addEventListener', 'dispatchEvent', 'then',
  'somethingElse', '0'];
const locationMembers = ['href', 'origin', 'protocol', 'host', 'hostname', 'port', 'pathname',
  'search', 'hash', 'assign', 'replace', 'reload', 'toString', 'then'];

function outcome(f) {
  try {
    const v = f();
    return v === undefined ? 'undefined' : v === null ? 'null' : typeof v;
  } catch (e) {
    return 'throws ' + e.name;
  }
}

function probe(obj, members) {
  const got = {};
  for (const m of members) {
    got[m] = [outcome(() => obj[m]), outcome(() => { obj[m] = obj === undefined ? 0 : 'nothing-to-see'; return undefined; })];
  }
  return got;
}

function expected(members, readable, writable) {
  const want = {};
  for (const m of members) {
    want[m] = [Object.hasOwn(readable, m) ? readable[m] : 'throws SecurityError', writable.includes(m) ? 'undefined' : 'throws SecurityError'];
  }
  return want;
}

for (const [what, origin] of [['same-site', CROSS], ['cross-site', CROSS_SITE]]) {
  promise_test(async t => {
    const iframe = document.createElement('iframe');
    t.add_cleanup(() => iframe.remove());
    const loaded = new Promise(resolve => iframe.onload = resolve);
    // about:blank-like target that navigating does not disturb: a 404 page.
    iframe.src = origin + '/web-locks/resources/no-such-page-for-probing.html';
    document.body.appendChild(iframe);
    await loaded;
    const cw = iframe.contentWindow;
    const got = probe(cw, windowMembers.filter(m => m !== 'location'));
    const want = expected(windowMembers.filter(m => m !== 'location'), {
      window: 'object', self: 'object', closed: 'boolean', close: 'function', focus: 'function',
      blur: 'function', frames: 'object', length: 'number', top: 'object', opener: 'null',
      parent: 'object', postMessage: 'function', then: 'undefined',
    }, []);
    assert_object_equals(got, want);
  }, `Window members of a ${what} cross-origin frame: read and write`);
}

promise_test(async t => {
  const iframe = document.createElement('iframe');
  t.add_cleanup(() => iframe.remove());
  const loaded = new Promise(resolve => iframe.onload = resolve);
  iframe.src = CROSS + '/web-locks/resources/no-such-page-for-probing.html';
  document.body.appendChild(iframe);
  await loaded;
  const loc = iframe.contentWindow.location;
  const got = {};
  for (const m of locationMembers) {
    got[m] = outcome(() => loc[m]);
  }
  const want = {};
  for (const m of locationMembers) {
    want[m] = new Map([['replace', 'function'], ['then', 'undefined']]).get(m) || 'throws SecurityError';
  }
  assert_object_equals(got, want);
  for (const m of ['protocol', 'host', 'hostname', 'port', 'pathname', 'search', 'hash']) {
    assert_throws_dom('SecurityError', () => { loc[m] = 'x'; }, 'setting ' + m);
  }
}, 'Location members of a same-site cross-origin frame: read, and the setters other than href');
