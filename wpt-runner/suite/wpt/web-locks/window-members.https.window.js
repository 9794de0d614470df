// META: title=Window members of frames and popups: parent, top, frames, length, opener, frameElement, closed, open
// META: script=resources/helpers.js
'use strict';

// Another origin of the test server: the www subdomain.
const CROSS = `${location.protocol}//www.${location.host}`;
// Another site: not-web-platform.test (another agent in the go product).
const CROSS_SITE = `${location.protocol}//not-${location.host}`;

function addFrame(t, src) {
  const iframe = document.createElement('iframe');
  t.add_cleanup(() => iframe.remove());
  const loaded = new Promise(resolve => iframe.onload = resolve);
  iframe.src = src;
  document.body.appendChild(iframe);
  return loaded.then(() => iframe);
}

promise_test(async t => {
  assert_equals(window.frameElement, null, 'a top-level window has no frameElement');
  assert_equals(window.parent, window);
  assert_equals(window.top, window);
  assert_equals(window.frames, window);
  assert_false(window.closed);
  const before = window.length;
  const iframe = await addFrame(t, 'resources/report-location.html');
  assert_equals(window.length, before + 1, 'length counts the child navigables');
  const cw = iframe.contentWindow;
  assert_equals(window[before], cw, 'window[i] is the i-th child navigable');
  assert_equals(frames[before], cw);
  assert_equals(window[before + 1], undefined);
  assert_equals(cw.parent, window);
  assert_equals(cw.top, window);
  assert_equals(cw.frames, cw);
  assert_equals(cw.frameElement, iframe, 'a same-origin frame sees its iframe element');
  assert_equals(cw.length, 0);
  assert_equals(cw.opener, null);
  assert_false(cw.closed);
  iframe.remove();
  assert_true(cw.closed, 'a removed frame\'s window is closed');
  assert_equals(window.length, before);
  assert_equals(window[before], undefined, 'no window[i] for a removed frame');
}, 'A same-origin frame: parent, top, frames, length, frameElement, closed');

for (const [what, origin] of [['same-site', CROSS], ['cross-site', CROSS_SITE]]) {
promise_test(async t => {
  const iframe = await addFrame(t, origin + new URL('resources/report-location.html', location.href).pathname);
  const cw = iframe.contentWindow;
  assert_equals(cw.parent, window);
  assert_equals(cw.top, window);
  assert_equals(cw.length, 0);
  assert_false(cw.closed);
  assert_equals(cw.opener, null, 'opener is a cross-origin property');
  assert_throws_dom('SecurityError', () => cw[0], 'an index past its children is not a cross-origin property');
  assert_equals(Object.getPrototypeOf(cw), null, '[[GetPrototypeOf]] of a cross-origin WindowProxy');
  assert_equals(Object.prototype.toString.call(cw), '[object Object]', '@@toStringTag is undefined cross-origin');
  assert_equals(cw.then, undefined);
  // (The go product's same-agent membrane throws the frame realm's
  // TypeError here, Chromium the caller's: the name is what both share.)
  let name = 'no exception';
  try { cw.postMessage(); } catch (e) { name = e.name; }
  assert_equals(name, 'TypeError', 'postMessage needs a message');
  assert_throws_dom('SecurityError', () => { cw.foo = 1; });
  assert_throws_dom('SecurityError', () => 'foo' in cw);
  assert_throws_dom('SecurityError', () => Object.defineProperty(cw, 'x', {value: 1}));
  assert_throws_dom('SecurityError', () => cw.frameElement);
  assert_throws_dom('SecurityError', () => cw.document);
  assert_throws_dom('SecurityError', () => cw.open);
}, `A ${what} cross-origin frame: the cross-origin members work, the others throw SecurityError`);
}

promise_test(async t => {
  const w = window.open('resources/report-location.html');
  t.add_cleanup(() => w.close());
  await new Promise(resolve => w.addEventListener('load', resolve, {once: true}));
  assert_equals(w.opener, window);
  assert_equals(w.parent, w);
  assert_equals(w.top, w);
  assert_equals(w.frameElement, null);
  w.opener = 5;
  assert_equals(w.opener, 5, 'a value set by script');
  w.opener = null;
  assert_equals(w.opener, null);
  w.close();
  await new Promise(resolve => {
    const poll = () => w.closed ? resolve() : t.step_timeout(poll, 5);
    poll();
  });
  assert_true(w.closed);
}, 'A popup: opener (settable), parent, top, frameElement, closed after close()');

test(() => {
  assert_equals(typeof window.open, 'function');
  assert_equals(window.open.length, 0);
  assert_equals(window.open.name, 'open');
  const d = Object.getOwnPropertyDescriptor(window, 'open');
  assert_true(d.writable && d.enumerable && d.configurable, 'open is a regular operation');
  assert_throws_dom('SyntaxError', () => window.open('https://[', '_blank'));
  for (const name of ['parent', 'frames', 'length', 'self']) {
    const p = Object.getOwnPropertyDescriptor(window, name);
    assert_equals(typeof p.get, 'function', name + ' getter');
    assert_equals(typeof p.set, 'function', name + ' is [Replaceable]');
  }
  for (const name of ['frameElement', 'closed']) {
    const p = Object.getOwnPropertyDescriptor(window, name);
    assert_equals(typeof p.get, 'function', name + ' getter');
    assert_equals(p.set, undefined, name + ' is read-only');
  }
  const opener = Object.getOwnPropertyDescriptor(window, 'opener');
  assert_equals(typeof opener.set, 'function', 'opener is settable');
}, 'Window member descriptors and window.open argument errors');

for (const [what, base] of [['same-origin', ''], ['cross-origin', CROSS], ['cross-site', CROSS_SITE]]) {
  promise_test(async t => {
    const got = new Promise(resolve => addEventListener('message', function f(e) {
      if (e.data && e.data.probe) { removeEventListener('message', f); resolve(e.data.probe); }
    }));
    const iframe = document.createElement('iframe');
    t.add_cleanup(() => iframe.remove());
    // This page's frames so far (the harness may have none).
    const index = window.length;
    iframe.src = base + new URL('resources/history-frame.html', location.href).pathname + '?probe';
    document.body.appendChild(iframe);
    const probe = await got;
    assert_equals(probe.length, index + 1, 'parent.length');
    if (index === 0) {
      assert_equals(probe.self, true, 'parent[0] is the frame itself');
      assert_equals(probe.frames, true, 'parent.frames[0] is the frame itself');
    }
  }, `A ${what} frame reaches its parent's child navigables by index`);
}

promise_test(async t => {
  const iframe = document.createElement('iframe');
  t.add_cleanup(() => iframe.remove());
  const loaded = new Promise(resolve => iframe.onload = resolve);
  iframe.src = CROSS + new URL('resources/history-frame.html', location.href).pathname;
  document.body.appendChild(iframe);
  await loaded;
  const cw = iframe.contentWindow;
  const nameGetter = Object.getOwnPropertyDescriptor(window, 'name').get;
  assert_throws_dom('SecurityError', () => nameGetter.call(cw), 'a Window getter');
  const hrefGetter = Object.getOwnPropertyDescriptor(location, 'href').get;
  assert_throws_dom('SecurityError', () => hrefGetter.call(cw.location), 'the Location href getter');
  assert_throws_dom('SecurityError', () => EventTarget.prototype.addEventListener.call(cw, 'x', () => {}), 'an EventTarget operation');
  assert_throws_js(TypeError, () => nameGetter.call({}), 'a plain object is still a TypeError');
}, 'Window, Location and EventTarget members called on a cross-origin window throw SecurityError');
