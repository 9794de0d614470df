// META: title=Web Locks API: pushState, replaceState and same-document traversals
// META: script=resources/helpers.js
// META: script=resources/holder.js
'use strict';

async function holds(name) {
  const state = await navigator.locks.query();
  return state.held.some(l => l.name === name);
}

promise_test(async t => {
  const name = uniqueName();
  const w = await openHolder(t, name);
  const doc = w.document;
  const length = w.history.length;
  assert_equals(w.history.state, null, 'no state at first');
  const data = {n: 1, list: [1, 2]};
  w.history.pushState(data, '', '?pushed=1');
  assert_equals(w.history.length, length + 1, 'a new entry');
  assert_true(w.location.href.endsWith('?pushed=1'), w.location.href);
  assert_equals(w.document.URL, w.location.href);
  assert_not_equals(w.history.state, data, 'a copy');
  assert_equals(w.history.state, w.history.state, 'the same copy each time');
  assert_equals(w.history.state.list[1], 2);
  await new Promise(resolve => t.step_timeout(resolve, 0));
  assert_array_equals(w.log, [], 'no popstate, hashchange or pagehide');
  assert_equals(w.document, doc);
  assert_true(await holds(name), 'the lock is kept');
}, 'pushState keeps the document and its lock, fires no event');

promise_test(async t => {
  const name = uniqueName();
  const w = await openHolder(t, name);
  w.history.pushState({step: 1}, '', '#one');
  w.history.pushState({step: 2}, '');
  w.history.replaceState({step: 3}, '', '?replaced');
  const length = w.history.length;
  assert_equals(w.history.state.step, 3);
  let popstate = nextEvent(w, 'popstate');
  w.history.back();
  let e = await popstate;
  assert_equals(e.state.step, 1, 'the state of the entry gone back to');
  assert_equals(w.history.state, e.state);
  assert_equals(w.location.hash, '#one');
  await new Promise(resolve => t.step_timeout(resolve, 0));
  popstate = nextEvent(w, 'popstate');
  const hashchange = nextEvent(w, 'hashchange');
  w.history.back();
  e = await popstate;
  assert_equals(e.state, null, 'the first entry has no state');
  const h = await hashchange;
  assert_true(h.oldURL.endsWith('#one') && !h.newURL.includes('#'), h.oldURL + ' -> ' + h.newURL);
  popstate = nextEvent(w, 'popstate');
  w.history.go(2);
  e = await popstate;
  assert_equals(e.state.step, 3, 'the replaced state');
  assert_true(w.location.href.endsWith('?replaced'), w.location.href);
  assert_equals(w.history.length, length);
  assert_true(await holds(name), 'the lock is kept');
}, 'Traversals between pushState entries fire popstate with each entry\'s state');

promise_test(async t => {
  const name = uniqueName();
  const w = await openHolder(t, name);
  const length = w.history.length;
  assert_throws_dom('SecurityError', w.DOMException, () => w.history.pushState(null, '', 'https://not-web-platform.test/'));
  assert_throws_dom('SecurityError', w.DOMException, () => w.history.replaceState(null, '', 'http://' + location.host + '/'));
  assert_throws_dom('DataCloneError', w.DOMException, () => w.history.pushState(() => {}, ''));
  assert_throws_js(w.TypeError, () => w.history.pushState(null));
  assert_equals(w.history.length, length, 'no entry added');
  assert_equals(w.history.scrollRestoration, 'auto');
  w.history.scrollRestoration = 'manual';
  assert_equals(w.history.scrollRestoration, 'manual');
  w.history.scrollRestoration = 'nonsense';
  assert_equals(w.history.scrollRestoration, 'manual', 'an invalid value is ignored');
}, 'pushState and replaceState errors; scrollRestoration');
