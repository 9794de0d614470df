// META: title=Web Locks API: request() argument conversion and overloads
// META: script=resources/helpers.js
'use strict';

promise_test(async t => {
  await promise_rejects_js(t, TypeError, navigator.locks.request());
}, 'request() with no arguments rejects with TypeError');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, navigator.locks.request(uniqueName()));
}, 'request(name) without a callback rejects with TypeError');

promise_test(async t => {
  let threw = false, p;
  try {
    p = navigator.locks.request(uniqueName());
  } catch (e) {
    threw = true;
  }
  assert_false(threw, 'argument errors are not thrown synchronously');
  assert_true(p instanceof Promise);
  await promise_rejects_js(t, TypeError, p);
}, 'Argument errors are reported as rejected promises, not exceptions');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, navigator.locks.request(uniqueName(), {}));
}, 'With two arguments the second is the callback: a dictionary is not callable');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, navigator.locks.request(uniqueName(), {}, 'not a function'));
}, 'A non-callable callback rejects with TypeError');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, navigator.locks.request(uniqueName(), {}, null));
}, 'A null callback rejects with TypeError');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, navigator.locks.request(uniqueName(), {}, undefined));
}, 'An undefined callback with options rejects with TypeError');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, navigator.locks.request(uniqueName(), 5, () => {}));
}, 'Options that are not an object reject with TypeError');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, navigator.locks.request(uniqueName(), 'shared', () => {}));
}, 'A string is not a LockOptions dictionary');

promise_test(async t => {
  let mode;
  await navigator.locks.request(uniqueName(), null, l => { mode = l.mode; });
  assert_equals(mode, 'exclusive');
}, 'Null options mean the defaults');

promise_test(async t => {
  let mode;
  await navigator.locks.request(uniqueName(), undefined, l => { mode = l.mode; });
  assert_equals(mode, 'exclusive');
}, 'Undefined options mean the defaults');

promise_test(async t => {
  let mode;
  const options = Object.create({mode: 'shared'});
  await navigator.locks.request(uniqueName(), options, l => { mode = l.mode; });
  assert_equals(mode, 'shared');
}, 'Dictionary members are read through the prototype chain');

promise_test(async t => {
  let called = 0;
  const cb = () => { called++; };
  await navigator.locks.request(uniqueName(), {}, cb, 'extra', 'arguments');
  assert_equals(called, 1);
}, 'Extra arguments are ignored');

promise_test(async t => {
  const log = [];
  const name = {toString() { log.push('name'); return uniqueName(); }};
  const options = {
    get ifAvailable() { log.push('ifAvailable'); return false; },
    get mode() { log.push('mode'); return 'exclusive'; },
    get signal() { log.push('signal'); return undefined; },
    get steal() { log.push('steal'); return false; },
  };
  await navigator.locks.request(name, options, () => {});
  assert_array_equals(log, ['name', 'ifAvailable', 'mode', 'signal', 'steal']);
}, 'The name is converted first, then the options members in lexicographic order');

promise_test(async t => {
  const log = [];
  const options = {
    get ifAvailable() { log.push('ifAvailable'); return false; },
    get mode() { log.push('mode'); return 'exclusive'; },
    get signal() { log.push('signal'); return undefined; },
    get steal() { log.push('steal'); return false; },
  };
  await promise_rejects_js(t, TypeError, navigator.locks.request(uniqueName(), options, 'not callable'));
  assert_array_equals(log, ['ifAvailable', 'mode', 'signal', 'steal'], 'options were converted before the callback');
}, 'Options are converted before the callback is checked');

promise_test(async t => {
  const error = new Error('getter threw');
  const options = {get mode() { throw error; }};
  await promise_rejects_exactly(t, error, navigator.locks.request(uniqueName(), options, () => {}));
}, 'An exception from an options getter rejects the promise with it');

promise_test(async t => {
  const error = new Error('toString threw');
  const name = {toString() { throw error; }};
  await promise_rejects_exactly(t, error, navigator.locks.request(name, () => {}));
}, 'An exception from converting the name rejects the promise with it');

promise_test(async t => {
  const log = [];
  const name = uniqueName();
  const options = {get steal() { log.push('steal'); return false; }};
  await navigator.locks.request(name, options, () => {});
  assert_array_equals(log, ['steal'], 'each member is read exactly once');
}, 'Each options member is read once');

promise_test(async t => {
  let mode;
  await navigator.locks.request(uniqueName(), {mode: {toString() { return 'shared'; }}}, l => { mode = l.mode; });
  assert_equals(mode, 'shared');
}, 'The mode is converted to a string before the enum check');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, navigator.locks.request(uniqueName(), {mode: 'SHARED'}, () => {}));
  await promise_rejects_js(t, TypeError, navigator.locks.request(uniqueName(), {mode: 'read'}, () => {}));
  await promise_rejects_js(t, TypeError, navigator.locks.request(uniqueName(), {mode: ''}, () => {}));
}, 'A mode outside the LockMode enum rejects with TypeError');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, navigator.locks.request(uniqueName(), {mode: null}, () => {}));
}, 'A null mode is the string "null" and rejects with TypeError');

promise_test(async t => {
  let mode;
  await navigator.locks.request(uniqueName(), {mode: undefined}, l => { mode = l.mode; });
  assert_equals(mode, 'exclusive');
}, 'An undefined mode means the default "exclusive"');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, navigator.locks.request(uniqueName(), {signal: {}}, () => {}));
}, 'A signal that is not an AbortSignal rejects with TypeError');

promise_test(async t => {
  await promise_rejects_js(t, TypeError, navigator.locks.request(uniqueName(), {signal: null}, () => {}));
}, 'A null signal rejects with TypeError');

promise_test(async t => {
  const fake = Object.create(AbortSignal.prototype);
  await promise_rejects_js(t, TypeError, navigator.locks.request(uniqueName(), {signal: fake}, () => {}));
}, 'An object inheriting from AbortSignal.prototype is not an AbortSignal');

promise_test(async t => {
  const value = await navigator.locks.request(uniqueName(), {signal: undefined}, () => 'ok');
  assert_equals(value, 'ok');
}, 'An undefined signal is the same as no signal');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const got = await navigator.locks.request(name, {ifAvailable: 1}, l => l);
  assert_equals(got, null, 'ifAvailable: 1 is true');
  const stealer = navigator.locks.request(name, {steal: 'yes'}, l => l.name);
  await promise_rejects_dom(t, 'AbortError', h.request, 'steal: "yes" is true');
  assert_equals(await stealer, name);
}, 'ifAvailable and steal are converted with ToBoolean (truthy values)');

promise_test(async t => {
  const name = uniqueName();
  const h = holdLock(t, name);
  await h.granted;
  const waiter = holdLock(t, name, {ifAvailable: 0, steal: ''});
  await barrier();
  assert_equals(waiter.calls, 0, 'a falsy ifAvailable waits and a falsy steal does not steal');
  const state = await snapshotFor(name);
  assert_equals(state.pending.length, 1);
  h.release();
  assert_true((await waiter.granted) instanceof Lock);
}, 'ifAvailable and steal are converted with ToBoolean (falsy values)');
