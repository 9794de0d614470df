// META: title=Web Locks API: locks of iframes
// META: script=/web-locks/resources/helpers.js
'use strict';

function addFrame(t) {
  const iframe = document.createElement('iframe');
  document.body.appendChild(iframe);
  t.add_cleanup(() => iframe.remove());
  return iframe;
}

// holdInFrame makes the frame request name and hold it forever.
async function holdInFrame(t, iframe, name, options = {}) {
  let granted = false;
  iframe.contentWindow.navigator.locks.request(name, options, () => {
    granted = true;
    return new Promise(() => {});
  });
  await waitFor(t, () => granted, 'the frame\'s lock to be granted');
}

promise_test(async t => {
  const name = uniqueName();
  const parentName = uniqueName('parent');
  const mine = holdLock(t, parentName);
  await mine.granted;
  const iframe = addFrame(t);
  await holdInFrame(t, iframe, name);
  const waiter = navigator.locks.request(name, () => 'parent got it');
  await barrier();
  iframe.remove();
  assert_equals(await waiter, 'parent got it', 'the frame\'s lock was released');
  const state = await snapshotFor(parentName);
  assert_equals(state.held.length, 1, 'the parent\'s own lock is still held');
}, 'Removing an iframe releases its locks, and only its locks');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const iframe = addFrame(t);
  let called = false;
  iframe.contentWindow.navigator.locks.request(name, () => { called = true; });
  await waitFor(t, async () => (await snapshotFor(name)).pending.length === 1, 'the frame\'s request to be queued');
  iframe.remove();
  await waitFor(t, async () => (await snapshotFor(name)).pending.length === 0, 'the frame\'s request to leave the queue');
  h.release();
  await h.request;
  await barrier();
  assert_false(called, 'the removed frame\'s request is never granted');
}, 'Removing an iframe aborts its pending requests');

promise_test(async t => {
  const mine = uniqueName('parent');
  const theirs = uniqueName('frame');
  const h = holdLock(t, mine);
  await h.granted;
  const iframe = addFrame(t);
  await holdInFrame(t, iframe, theirs);
  const state = await snapshotFor(mine, theirs);
  const parentId = state.held.find(i => i.name === mine).clientId;
  const frameId = state.held.find(i => i.name === theirs).clientId;
  assert_not_equals(parentId, frameId, 'a frame is a client of its own');
  const fromFrame = await iframe.contentWindow.navigator.locks.query();
  assert_equals(fromFrame.held.find(i => i.name === mine).clientId, parentId, 'the frame sees the same ids');
}, 'A same-origin iframe shares the lock manager and has its own clientId');

promise_test(async t => {
  const iframe = addFrame(t);
  const w = iframe.contentWindow;
  assert_equals(w.navigator.locks, w.navigator.locks, 'an object reached twice is the same object');
  const p = w.navigator.locks.request(uniqueName(), lock => lock.name.length > 0);
  assert_true(p instanceof w.Promise, 'the promise is the frame\'s');
  assert_false(p instanceof Promise, 'the promise is not the parent\'s');
  assert_true(await p, 'the frame\'s lock was granted');
  let err;
  try {
    w.document.createElement('');
  } catch (e) {
    err = e;
  }
  assert_true(err instanceof w.DOMException, 'the exception is the frame\'s DOMException');
  assert_false(err instanceof DOMException, 'not the parent\'s');
  assert_equals(err.name, 'InvalidCharacterError');
  const inc = w.Function('a', 'return a + 1');
  assert_equals(inc(1), 2, 'a function of the frame is called synchronously');
  const seen = [];
  w.navigator.locks.request(uniqueName(), () => { seen.push('frame callback'); });
  await w.navigator.locks.query();
  assert_array_equals(seen, ['frame callback'], 'the frame ran its callback');
}, 'A same-origin iframe\'s objects, functions, promises and exceptions are reached synchronously');
