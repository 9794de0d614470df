// META: title=Web Locks API: resource names are DOMStrings that round-trip exactly
// META: script=resources/helpers.js
'use strict';

// roundTrip requests name and checks that Lock.name reports exactly the same
// string and that the same string names the held resource. With checkQuery,
// it also checks that query() reports the name unchanged. (Chromium's query()
// replaces lone surrogates, so names with lone surrogates are checked through
// Lock.name and scheduling only.)
async function roundTrip(t, name, checkQuery = true) {
  const h = holdLock(t, name);
  const lock = await h.granted;
  assert_equals(lock.name, name, 'Lock.name');
  const again = await navigator.locks.request(name, {ifAvailable: true}, l => l);
  assert_equals(again, null, 'the same string names the held resource');
  if (checkQuery) {
    const state = await navigator.locks.query();
    const held = state.held.filter(info => info.name === name);
    assert_equals(held.length, 1, 'query() reports the held lock under the same name');
  }
  h.release();
  await h.request;
  assert_equals(lock.name, name, 'Lock.name after release');
}

promise_test(async t => {
  await roundTrip(t, uniqueName() + '\uD800', false);
}, 'A name with a lone high surrogate round-trips through Lock.name');

promise_test(async t => {
  await roundTrip(t, '\uDC00' + uniqueName(), false);
}, 'A name with a lone low surrogate round-trips through Lock.name');

promise_test(async t => {
  await roundTrip(t, uniqueName() + '\uDC00\uD800', false);
}, 'Reversed surrogates round-trip unchanged');

promise_test(async t => {
  await roundTrip(t, uniqueName() + '\uD83D\uDD12');
}, 'A surrogate pair round-trips');

promise_test(async t => {
  await roundTrip(t, uniqueName() + '\u0000tail');
}, 'A name containing NUL round-trips');

promise_test(async t => {
  await roundTrip(t, '');
}, 'The empty string is a valid name');

promise_test(async t => {
  await roundTrip(t, uniqueName() + 'x'.repeat(10000));
}, 'A 10000-character name round-trips');

promise_test(async t => {
  await roundTrip(t, encodeURIComponent('db name') + '/' + encodeURIComponent('store/name'));
}, 'Names composed as in the IndexedDB example work');

promise_test(async t => {
  const base = uniqueName();
  const h = holdLock(t, base + '\uD800');
  await h.granted;
  // U+FFFD is what a lossy UTF-8 conversion would turn the lone surrogate into.
  for (const other of [base + '\uFFFD', base, base + '\uD800\uDC00', base + '\uDC00']) {
    const got = await navigator.locks.request(other, {ifAvailable: true}, l => l);
    assert_true(got instanceof Lock, `${format_value(other)} is a different resource`);
  }
}, 'A lone surrogate is not confused with U+FFFD or other surrogates');

promise_test(async t => {
  const base = uniqueName();
  const h = holdLock(t, base + '\u0000a');
  await h.granted;
  for (const other of [base, base + '\u0000', base + '\u0000b']) {
    const got = await navigator.locks.request(other, {ifAvailable: true}, l => l);
    assert_true(got instanceof Lock, `${format_value(other)} is a different resource`);
  }
  const same = await navigator.locks.request(base + '\u0000a', {ifAvailable: true}, l => l);
  assert_equals(same, null, 'the same string is the same resource');
}, 'Names are compared including characters after NUL');

promise_test(async t => {
  const base = uniqueName();
  const long = base + 'y'.repeat(5000);
  const h = holdLock(t, long + 'a');
  await h.granted;
  const got = await navigator.locks.request(long + 'b', {ifAvailable: true}, l => l);
  assert_true(got instanceof Lock, 'names differing after 5000 characters are distinct');
}, 'Long names are compared in full');

promise_test(async t => {
  const base = uniqueName();
  const h = holdLock(t, base + 'name');
  await h.granted;
  const got = await navigator.locks.request(base + 'NAME', {ifAvailable: true}, l => l);
  assert_true(got instanceof Lock);
}, 'Names are case-sensitive');

promise_test(async t => {
  const composed = uniqueName() + '\u00E9';
  const decomposed = composed.slice(0, -1) + 'e\u0301';
  const h = holdLock(t, composed);
  await h.granted;
  const got = await navigator.locks.request(decomposed, {ifAvailable: true}, l => l);
  assert_true(got instanceof Lock);
}, 'Names are not Unicode-normalized');

promise_test(async t => {
  assert_equals(await navigator.locks.request(1, l => l.name), '1');
  assert_equals(await navigator.locks.request(-0, l => l.name), '0');
  assert_equals(await navigator.locks.request(1.5e21, l => l.name), '1.5e+21');
}, 'Numeric names are converted with ToString');

promise_test(async t => {
  assert_equals(await navigator.locks.request(null, l => l.name), 'null');
  assert_equals(await navigator.locks.request(undefined, l => l.name), 'undefined');
  assert_equals(await navigator.locks.request(true, l => l.name), 'true');
}, 'null, undefined and booleans are converted with ToString');

promise_test(async t => {
  assert_equals(await navigator.locks.request({toString() { return 'from toString'; }}, l => l.name), 'from toString');
  assert_equals(await navigator.locks.request(['a', 'b'], l => l.name), 'a,b');
}, 'Objects are converted with ToString');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, navigator.locks.request(Symbol('lock'), () => {}));
}, 'A Symbol name rejects with TypeError');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const got = await navigator.locks.request({toString: () => name}, {ifAvailable: true}, l => l);
  assert_equals(got, null, 'an object converting to a held name names the same resource');
}, 'Converted names identify the same resource as the equal string');
