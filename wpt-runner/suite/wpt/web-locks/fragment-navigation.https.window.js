// META: title=Web Locks API: fragment navigations and Location setters
// META: script=resources/helpers.js
// META: script=resources/holder.js
'use strict';

promise_test(async t => {
  const name = uniqueName();
  const w = await openHolder(t, name);
  const doc = w.document;
  const length = w.history.length;
  const hashchange = nextEvent(w, 'hashchange');
  w.location.hash = 'x';
  assert_array_equals(w.log, ['popstate null #x'], 'popstate fires during the navigation');
  assert_equals(w.location.hash, '#x');
  await hashchange;
  assert_array_equals(w.log, ['popstate null #x', 'hashchange (none) #x'],
                      'hashchange fires in a later task; no pagehide');
  assert_equals(w.document, doc, 'the same document');
  assert_equals(w.document.URL, w.location.href);
  assert_equals(w.history.length, length + 1, 'a new session history entry');
  const state = await navigator.locks.query();
  assert_true(state.held.some(l => l.name === name), 'the popup still holds its lock');
  assert_equals(await navigator.locks.request(name, {ifAvailable: true}, l => l), null,
                'the lock is not available');
}, 'A fragment navigation keeps the document and its lock');

promise_test(async t => {
  const name = uniqueName();
  const w = await openHolder(t, name);
  let hashchange = nextEvent(w, 'hashchange');
  w.location.hash = 'a';
  await hashchange;
  hashchange = nextEvent(w, 'hashchange');
  w.location.href = w.location.href.replace('#a', '#b');
  await hashchange;
  w.log.length = 0;
  hashchange = nextEvent(w, 'hashchange');
  w.history.back();
  await hashchange;
  assert_array_equals(w.log, ['popstate null #a', 'hashchange #b #a'], 'popstate, then hashchange');
  assert_equals(w.location.hash, '#a');
  const state = await navigator.locks.query();
  assert_true(state.held.some(l => l.name === name), 'the popup still holds its lock');
}, 'history.back() to an entry of the same document keeps the document and its lock');

promise_test(async t => {
  const name = uniqueName();
  const w = await openHolder(t, name);
  assert_throws_dom('SyntaxError', w.DOMException, () => { w.location.protocol = '1x'; });
  assert_throws_dom('SyntaxError', w.DOMException, () => { w.location.protocol = ''; });
  const length = w.history.length;
  w.location.hash = '';
  w.location.hash = '#';
  assert_equals(w.history.length, length, 'the empty fragment is the fragment of a URL without one: no navigation');
  let hashchange = nextEvent(w, 'hashchange');
  w.location.hash = 'a';
  await hashchange;
  hashchange = nextEvent(w, 'hashchange');
  w.location.hash = '';
  await hashchange;
  assert_true(w.location.href.endsWith('.html?name=' + encodeURIComponent(name) + '#'), 'an empty fragment: ' + w.location.href);
  assert_equals(w.location.hash, '');
  assert_array_equals(w.log, ['popstate null #a', 'hashchange (none) #a', 'popstate null #', 'hashchange #a #']);
}, 'Location setters: SyntaxError for a bad protocol, an empty hash');

for (const [member, value] of [
  ['search', name => '?name=' + encodeURIComponent(name + '-next')],
  ['pathname', () => '/web-locks/resources/fragment-holder.html'],
  // These navigate to the document's own URL: a new document all the same.
  ['protocol', () => 'https:'],
  ['host', () => location.host],
  ['hostname', () => location.hostname],
  ['port', () => location.port],
  ['href', () => undefined],
]) {
  promise_test(async t => {
    const name = uniqueName();
    const w = await openHolder(t, name);
    const granted = navigator.locks.request(name, () => 'granted');
    w.location[member] = member === 'href' ? w.location.href : value(name);
    assert_equals(await granted, 'granted', 'the new document released the old one\'s lock');
    assert_array_equals(holderEvents[name], ['held', 'pagehide false'], 'pagehide before the lock was released');
  }, `location.${member} = ... navigates to a new document, which releases the lock`);
}

promise_test(async t => {
  const name = uniqueName();
  const w = await openHolder(t, name, '&early');
  assert_array_equals(w.earlyLengths, [1, 1], 'the entry was replaced');
  assert_equals(w.location.hash, '#early');
  assert_equals(w.log[0], 'popstate null #early');
}, 'A fragment navigation before the document has completely loaded replaces its entry');
