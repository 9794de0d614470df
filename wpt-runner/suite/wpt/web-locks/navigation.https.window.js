// META: title=Web Locks API: navigating away releases a document's locks
// META: script=resources/helpers.js
// META: script=resources/holder.js
'use strict';

promise_test(async t => {
  const name = uniqueName();
  const iframe = document.createElement('iframe');
  t.add_cleanup(() => iframe.remove());
  iframe.src = 'resources/nav-holder.html?name=' + encodeURIComponent(name);
  document.body.appendChild(iframe);
  await holderReached(name, 'held');
  const granted = navigator.locks.request(name, () => {
    holderEvents[name].push('granted');
  });
  const state = await navigator.locks.query();
  assert_true(state.pending.some(r => r.name === name), 'the request waits for the frame');
  iframe.contentWindow.location.href = 'about:blank';
  await granted;
  assert_array_equals(holderEvents[name], ['held', 'pagehide false', 'granted'],
                      'pagehide fires at the old document before its lock is released');
}, 'Navigating a frame away releases the locks of its old document');

promise_test(async t => {
  const name = uniqueName();
  const w = window.open('resources/nav-holder.html?name=' + encodeURIComponent(name));
  t.add_cleanup(() => w.close());
  await holderReached(name, 'held');
  const granted = navigator.locks.request(name, () => {
    holderEvents[name].push('granted');
  });
  w.location.href = 'about:blank';
  await granted;
  assert_array_equals(holderEvents[name], ['held', 'pagehide false', 'granted'],
                      'pagehide fires at the old document before its lock is released');
}, 'Navigating an auxiliary window away releases the locks of its old document');

promise_test(async t => {
  const name = uniqueName();
  const iframe = document.createElement('iframe');
  t.add_cleanup(() => iframe.remove());
  iframe.src = 'resources/nav-holder.html?name=' + encodeURIComponent(name);
  document.body.appendChild(iframe);
  await holderReached(name, 'held');
  const granted = navigator.locks.request(name, () => 'granted');
  iframe.contentWindow.location.reload();
  assert_equals(await granted, 'granted', 'the reload released the old document\'s lock');
}, 'Reloading a frame releases the locks of its old document');
