// META: title=MessageChannel and MessagePort transfer (the channel agents use to coordinate locks)
'use strict';

function nextMessage(port) {
  return new Promise(resolve => port.addEventListener('message', resolve, {once: true}));
}

test(() => {
  const {port1, port2} = new MessageChannel();
  assert_true(port1 instanceof MessagePort);
  assert_true(port1 instanceof EventTarget);
  assert_class_string(port1, 'MessagePort');
  assert_not_equals(port1, port2);
  const e = new MessageEvent('message');
  assert_equals(e.data, null);
  assert_equals(e.origin, '');
  assert_equals(e.lastEventId, '');
  assert_equals(e.source, null);
  assert_array_equals(e.ports, []);
  const e2 = new MessageEvent('x', {data: 5, origin: 'o', source: port1, ports: [port2]});
  assert_equals(e2.data, 5);
  assert_equals(e2.source, port1);
  assert_equals(e2.ports[0], port2);
}, 'interfaces and the MessageEvent constructor');

promise_test(async t => {
  const {port1, port2} = new MessageChannel();
  port2.postMessage({n: 1});
  port2.postMessage('second');
  const first = nextMessage(port1);
  port1.start();
  const e = await first;
  assert_true(e instanceof MessageEvent);
  assert_equals(e.data.n, 1);
  assert_equals(e.origin, '');
  assert_equals(e.source, null);
  assert_equals(e.ports.length, 0);
  assert_equals((await nextMessage(port1)).data, 'second', 'order kept');
}, 'messages wait in the port message queue until start(), then arrive in order');

promise_test(async t => {
  const {port1, port2} = new MessageChannel();
  const got = new Promise(resolve => { port1.onmessage = resolve; });
  port2.postMessage('via onmessage');
  assert_equals((await got).data, 'via onmessage');
}, 'setting onmessage starts the port');

promise_test(async t => {
  const outer = new MessageChannel();
  const inner = new MessageChannel();
  outer.port1.start();
  const received = nextMessage(outer.port1);
  outer.port2.postMessage({tag: 't', port: inner.port2}, [inner.port2]);
  const e = await received;
  assert_equals(e.ports.length, 1);
  const [p] = e.ports;
  assert_true(p instanceof MessagePort);
  assert_equals(e.data.port, p, 'the port in the data is the transferred one');
  assert_not_equals(p, inner.port2);
  p.start();
  const viaTransferred = nextMessage(p);
  inner.port1.postMessage('hello');
  assert_equals((await viaTransferred).data, 'hello');
  inner.port1.start();
  const back = nextMessage(inner.port1);
  p.postMessage('back');
  assert_equals((await back).data, 'back');
}, 'a transferred port stays entangled with its partner');

test(() => {
  const {port1, port2} = new MessageChannel();
  assert_throws_dom('DataCloneError', () => port1.postMessage(1, [port1]), 'the source port itself');
  const other = new MessageChannel();
  port1.postMessage(1, [other.port1]);
  assert_throws_dom('DataCloneError', () => port1.postMessage(1, [other.port1]), 'an already transferred port');
  assert_throws_dom('DataCloneError', () => port1.postMessage(() => 1), 'a function');
  assert_throws_dom('DataCloneError', () => port1.postMessage(port2), 'a port outside the transfer list');
}, 'postMessage throws DataCloneError for bad transfers');

promise_test(async t => {
  const a = new MessageChannel();
  const b = new MessageChannel();
  a.port1.start();
  const got = nextMessage(a.port1);
  a.port2.postMessage({port: b.port1}, {transfer: [b.port1]});
  const [p] = (await got).ports;
  p.start();
  const m = nextMessage(p);
  b.port2.postMessage('options form');
  assert_equals((await m).data, 'options form');
}, 'postMessage(message, {transfer})');

promise_test(async t => {
  const {port1, port2} = new MessageChannel();
  const buf = new ArrayBuffer(2);
  port1.start();
  const got = nextMessage(port1);
  port2.postMessage(buf, [buf]);
  assert_equals(buf.byteLength, 0);
  assert_equals((await got).data.byteLength, 2);
}, 'ArrayBuffers transfer through ports');
