// Spec behaviour Chromium does not implement, kept out of the bundled suite:
// query() reports resource names exactly, including lone surrogates.
'use strict';

promise_test(async t => {
  const name = 'deviation' + Math.random() + '\uD800';
  let release;
  navigator.locks.request(name, () => new Promise(r => { release = r; }));
  const state = await navigator.locks.query();
  release();
  assert_array_equals(state.held.map(i => i.name), [name]);
}, 'query() reports a name with a lone surrogate unchanged');
