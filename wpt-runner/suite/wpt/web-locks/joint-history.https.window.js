// META: title=The joint session history of a page and its frames
// META: script=resources/helpers.js
'use strict';

// Navigations started while the page is still loading replace entries in
// Chromium (it looks at the initiator's document; HTML looks at the
// navigated one): the tests wait until the page has completely loaded.
async function pageLoaded(t) {
  if (document.readyState !== 'complete') {
    await new Promise(resolve => addEventListener('load', resolve, {once: true}));
  }
  await new Promise(resolve => t.step_timeout(resolve, 0));
}

// frameLoaded resolves after the frame's load event, in a later task
// (when its document has completely loaded).
function frameLoaded(iframe) {
  return new Promise(resolve => iframe.addEventListener('load', () => setTimeout(resolve, 0), {once: true}));
}

async function addFrame(t, src) {
  await pageLoaded(t);
  const iframe = document.createElement('iframe');
  t.add_cleanup(() => iframe.remove());
  const loaded = frameLoaded(iframe);
  iframe.src = src;
  document.body.appendChild(iframe);
  await loaded;
  return iframe;
}

promise_test(async t => {
  const start = history.length;
  const iframe = await addFrame(t, 'resources/history-frame.html?1');
  assert_equals(history.length, start, 'a new frame\'s first document replaces its initial about:blank entry');
  let loaded = frameLoaded(iframe);
  iframe.contentWindow.location.href = 'history-frame.html?2';
  await loaded;
  assert_equals(history.length, start + 1, 'the frame\'s navigation is an entry of the top-level history');
  assert_equals(iframe.contentWindow.history.length, start + 1, 'one joint session history');
  loaded = frameLoaded(iframe);
  history.back();
  await loaded;
  assert_equals(iframe.contentWindow.location.search, '?1', 'going back in the page traversed the frame');
  assert_equals(history.length, start + 1, 'traversals keep the entries');
  loaded = frameLoaded(iframe);
  iframe.contentWindow.history.forward();
  await loaded;
  assert_equals(iframe.contentWindow.location.search, '?2', 'going forward in the frame');
}, 'A frame\'s navigations and traversals are steps of the top-level session history');

promise_test(async t => {
  const start = history.length;
  const iframe = await addFrame(t, 'resources/history-frame.html?hash');
  const cw = iframe.contentWindow;
  cw.location.hash = 'a';
  assert_equals(history.length, start + 1, 'a fragment navigation in the frame adds a step');
  await new Promise(resolve => t.step_timeout(resolve, 0));
  assert_array_equals(cw.log, ['hashchange #a']);
  const hashchange = new Promise(resolve => cw.addEventListener('hashchange', resolve, {once: true}));
  history.back();
  await hashchange;
  assert_equals(cw.location.hash, '', 'back from the page went back in the frame');
  assert_equals(iframe.contentWindow, cw, 'the same document');
}, 'A fragment navigation in a frame is a step of the top-level session history');

promise_test(async t => {
  const iframe = await addFrame(t, 'resources/history-frame.html?same');
  const start = history.length;
  const loaded = frameLoaded(iframe);
  iframe.contentWindow.location.href = iframe.contentWindow.location.href;
  await loaded;
  assert_equals(history.length, start, 'navigating to the same URL replaces the entry');
}, 'A navigation to the document\'s own URL replaces its entry');
