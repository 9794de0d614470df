// META: title=Web Locks API: request() method steps that reject
// META: script=resources/helpers.js
'use strict';

promise_test(async t => {
  await promise_rejects_dom(t, 'NotSupportedError', navigator.locks.request('-reserved', () => {}));
}, 'A name starting with "-" rejects with NotSupportedError');

promise_test(async t => {
  await promise_rejects_dom(t, 'NotSupportedError', navigator.locks.request('-', () => {}));
}, 'The name "-" alone is reserved');

promise_test(async t => {
  const name = {toString() { return '-from-toString'; }};
  await promise_rejects_dom(t, 'NotSupportedError', navigator.locks.request(name, () => {}));
}, 'The reserved-name check applies to the converted string');

promise_test(async t => {
  let called = false;
  await promise_rejects_dom(t, 'NotSupportedError', navigator.locks.request('-x', () => { called = true; }));
  await nextTask(t);
  assert_false(called, 'the callback never runs');
}, 'A rejected request never invokes its callback');

promise_test(async t => {
  for (const name of ['a-', 'a-b', ' -x', '\u2010x', '\uFF0Dx', '\u2212x']) {
    assert_equals(await navigator.locks.request(name, l => l.name), name);
  }
}, 'Only U+002D HYPHEN-MINUS in first position is reserved');

promise_test(async t => {
  await promise_rejects_dom(t, 'NotSupportedError',
    navigator.locks.request(uniqueName(), {steal: true, ifAvailable: true}, () => {}));
}, 'steal and ifAvailable together reject with NotSupportedError');

promise_test(async t => {
  await promise_rejects_dom(t, 'NotSupportedError',
    navigator.locks.request(uniqueName(), {steal: true, mode: 'shared'}, () => {}));
}, 'steal with mode "shared" rejects with NotSupportedError');

promise_test(async t => {
  const value = await navigator.locks.request(uniqueName(), {steal: true, mode: 'exclusive'}, l => l.mode);
  assert_equals(value, 'exclusive');
}, 'steal with mode "exclusive" is allowed');

promise_test(async t => {
  const controller = new AbortController();
  await promise_rejects_dom(t, 'NotSupportedError',
    navigator.locks.request(uniqueName(), {signal: controller.signal, steal: true}, () => {}));
}, 'signal with steal rejects with NotSupportedError');

promise_test(async t => {
  const controller = new AbortController();
  await promise_rejects_dom(t, 'NotSupportedError',
    navigator.locks.request(uniqueName(), {signal: controller.signal, ifAvailable: true}, () => {}));
}, 'signal with ifAvailable rejects with NotSupportedError');

promise_test(async t => {
  const reason = new Error('already aborted');
  await promise_rejects_dom(t, 'NotSupportedError',
    navigator.locks.request('-x', {signal: AbortSignal.abort(reason)}, () => {}));
}, 'The reserved-name check comes before the aborted-signal check');

promise_test(async t => {
  const reason = new Error('already aborted');
  await promise_rejects_dom(t, 'NotSupportedError',
    navigator.locks.request(uniqueName(), {signal: AbortSignal.abort(reason), steal: true}, () => {}));
  await promise_rejects_dom(t, 'NotSupportedError',
    navigator.locks.request(uniqueName(), {signal: AbortSignal.abort(reason), ifAvailable: true}, () => {}));
}, 'The option-combination checks come before the aborted-signal check');

promise_test(async t => {
  await promise_rejects_dom(t, 'NotSupportedError',
    navigator.locks.request('-x', {steal: true, mode: 'shared'}, () => {}));
}, 'A reserved name with invalid option combinations rejects with NotSupportedError');

promise_test(async t => {
  const log = [];
  const options = {get mode() { log.push('mode'); return 'bogus'; }};
  await promise_rejects_js(t, TypeError, navigator.locks.request('-x', options, () => {}));
  assert_array_equals(log, ['mode']);
}, 'Argument conversion errors come before the method steps');

promise_test(async t => {
  const reason = new Error('custom reason');
  let called = false;
  await promise_rejects_exactly(t, reason,
    navigator.locks.request(uniqueName(), {signal: AbortSignal.abort(reason)}, () => { called = true; }));
  await nextTask(t);
  assert_false(called);
}, 'An already aborted signal rejects with its reason and never calls back');

promise_test(async t => {
  const name = uniqueName();
  await promise_rejects_dom(t, 'AbortError',
    navigator.locks.request(name, {signal: AbortSignal.abort()}, () => {}));
  const state = await snapshotFor(name);
  assert_equals(state.held.length + state.pending.length, 0, 'the request was never queued');
}, 'An already aborted signal rejects with AbortError by default and queues nothing');
