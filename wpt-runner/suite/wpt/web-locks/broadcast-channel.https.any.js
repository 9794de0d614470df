// META: title=BroadcastChannel, which the back/forward cache tests talk through
// META: script=resources/helpers.js
'use strict';

function nextMessage(c) {
  return new Promise(resolve => c.addEventListener('message', resolve, {once: true}));
}

test(t => {
  const c = new BroadcastChannel('n');
  t.add_cleanup(() => c.close());
  assert_equals(c.name, 'n');
  assert_true(c instanceof EventTarget);
  const n = new BroadcastChannel(42);
  n.close();
  assert_equals(n.name, '42', 'the name is converted to a string');
}, 'name is the channel name');

promise_test(async t => {
  const name = uniqueName();
  const a = new BroadcastChannel(name), b = new BroadcastChannel(name), other = new BroadcastChannel(name + 'x');
  t.add_cleanup(() => { a.close(); b.close(); other.close(); });
  const got = [];
  a.onmessage = () => got.push('a');
  other.onmessage = () => got.push('other');
  const e = await new Promise(resolve => { b.onmessage = resolve; a.postMessage({x: [1, 2]}); });
  assert_true(e instanceof MessageEvent);
  assert_array_equals(e.data.x, [1, 2], 'the data is cloned');
  assert_equals(e.origin, location.origin);
  assert_equals(e.source, null);
  // Another round trip lets any stray delivery arrive first.
  await new Promise(resolve => { a.onmessage = resolve; b.postMessage('back'); });
  assert_array_equals(got, [], 'no message to the source or to another name');
}, 'postMessage reaches the other channels of the same name, not the source');

promise_test(async t => {
  const name = uniqueName();
  const a = new BroadcastChannel(name), b = new BroadcastChannel(name), c = new BroadcastChannel(name);
  t.add_cleanup(() => { a.close(); c.close(); });
  b.close();
  let bGot = false;
  b.onmessage = () => { bGot = true; };
  a.postMessage('m');
  assert_equals((await nextMessage(c)).data, 'm');
  assert_false(bGot, 'a closed channel gets nothing');
  assert_throws_dom('InvalidStateError', () => b.postMessage('x'));
}, 'a closed channel neither receives nor posts');

promise_test(async t => {
  const name = uniqueName();
  const a = new BroadcastChannel(name), b = new BroadcastChannel(name);
  t.add_cleanup(() => { a.close(); b.close(); });
  assert_throws_dom('DataCloneError', () => a.postMessage(() => {}));
  a.postMessage(1);
  a.postMessage(2);
  const first = await nextMessage(b);
  const second = await nextMessage(b);
  assert_array_equals([first.data, second.data], [1, 2], 'in order');
}, 'uncloneable data throws; messages arrive in order');
