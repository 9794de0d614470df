// Spec behaviour Chromium does not implement, kept out of the bundled suite:
// request() and query() of a document that is not fully active return a
// promise rejected with an InvalidStateError DOMException (method steps 3 and 2).
'use strict';

function removedFrame() {
  return new Promise(resolve => {
    const iframe = document.createElement('iframe');
    iframe.onload = () => {
      const {navigator: nav, DOMException: FrameDOMException} = iframe.contentWindow;
      const locks = nav.locks;
      iframe.remove();
      resolve({locks, FrameDOMException});
    };
    document.body.appendChild(iframe);
  });
}

promise_test(async t => {
  const {locks, FrameDOMException} = await removedFrame();
  const p = locks.request('name', () => {});
  assert_true(p instanceof Object && typeof p.then === 'function', 'request() returns a promise');
  await promise_rejects_dom(t, 'InvalidStateError', FrameDOMException, p);
}, 'request() from a removed iframe rejects with InvalidStateError');

promise_test(async t => {
  const {locks, FrameDOMException} = await removedFrame();
  const p = locks.query();
  assert_true(p instanceof Object && typeof p.then === 'function', 'query() returns a promise');
  await promise_rejects_dom(t, 'InvalidStateError', FrameDOMException, p);
}, 'query() from a removed iframe rejects with InvalidStateError');
