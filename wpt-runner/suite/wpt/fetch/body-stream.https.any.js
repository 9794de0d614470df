// META: title=Fetch: Response.body and Request.body as ReadableStreams; ReadableStream basics
// META: script=resources/record.js
'use strict';

const HOLD = '/fetch/resources/hold-body.py';
const PLAIN = 'resources/plain.txt';
const dec = new TextDecoder();
const enc = new TextEncoder();

// readText reads a stream of Uint8Arrays to its end, as text.
async function readText(stream) {
  const reader = stream.getReader();
  let s = '';
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    assert_true(r.value instanceof Uint8Array, 'a chunk is a Uint8Array');
    s += dec.decode(r.value, {stream: true});
  }
  return s;
}

// streamOf is a stream that gives chunks then closes.
function streamOf(...chunks) {
  return new ReadableStream({start(c) { for (const x of chunks) c.enqueue(x); c.close(); }});
}

promise_test(async () => {
  const id = uniqueId();
  const r = await fetch(`${HOLD}?uuid=${id}`);
  assert_true(r.body instanceof ReadableStream, 'body is a ReadableStream');
  assert_equals(r.body, r.body, 'the same stream each time');
  const reader = r.body.getReader();
  const first = await reader.read();
  assert_false(first.done);
  assert_equals(dec.decode(first.value), 'start ', 'the first chunk, before the rest of the body was released');
  assert_true(r.bodyUsed, 'reading disturbs the body');
  assert_equals(await (await fetch(`${HOLD}?uuid=${id}&release=1`)).text(), 'released');
  let rest = '';
  for (let x = await reader.read(); !x.done; x = await reader.read()) rest += dec.decode(x.value);
  assert_equals(rest, 'end');
  await reader.closed;
}, 'Response.body gives the body in chunks as they arrive');

promise_test(async t => {
  const id = uniqueId();
  const c = new AbortController();
  const r = await fetch(`${HOLD}?uuid=${id}`, {signal: c.signal});
  const reader = r.body.getReader();
  assert_equals(dec.decode((await reader.read()).value), 'start ');
  c.abort();
  await promise_rejects_dom(t, 'AbortError', reader.read());
  await promise_rejects_dom(t, 'AbortError', reader.closed);
}, 'aborting mid-body errors the body stream with AbortError');

promise_test(async t => {
  const r = await fetch(PLAIN);
  assert_false(r.bodyUsed);
  assert_equals(await readText(r.body), 'no cors headers here\n');
  assert_true(r.bodyUsed);
  assert_true(r.body.locked);
  await promise_rejects_js(t, TypeError, r.text(), 'text() of a read body');
  assert_throws_js(TypeError, () => r.clone(), 'clone() of a read body');
}, 'reading through the stream uses the body up');

promise_test(async t => {
  const r = new Response('locked');
  r.body.getReader();
  assert_false(r.bodyUsed, 'locked is not disturbed');
  await promise_rejects_js(t, TypeError, r.text(), 'text() of a locked body');
  assert_throws_js(TypeError, () => r.clone(), 'clone() of a locked body');
  const t2 = new Response('then read');
  assert_equals(await t2.text(), 'then read');
  assert_true(t2.body.locked && t2.bodyUsed, 'text() locks and disturbs the stream');
}, 'a locked body cannot be read or cloned');

test(() => {
  assert_equals(new Response(null).body, null);
  assert_equals(new Response(null, {status: 204}).body, null);
  assert_equals(new Request('/').body, null);
  assert_equals(Response.error().body, null);
}, 'a null body is a null body attribute');

promise_test(async () => {
  const r = new Response('abc');
  const reader = r.body.getReader();
  const x = await reader.read();
  assert_array_equals(Array.from(x.value), [97, 98, 99]);
  assert_true((await reader.read()).done);
}, 'a body in memory reads as Uint8Arrays');

promise_test(async t => {
  assert_equals(await new Response(streamOf(enc.encode('a'), enc.encode('bc'))).text(), 'abc');
  await promise_rejects_js(t, TypeError, new Response(streamOf('not bytes')).text(), 'a string chunk');
  const s = streamOf(enc.encode('x'));
  const r = new Response(s);
  assert_equals(r.body, s, 'the body is the stream itself');
  assert_equals(r.headers.get('content-type'), null);
  const locked = streamOf();
  locked.getReader();
  assert_throws_js(TypeError, () => new Response(locked), 'a locked stream');
}, 'new Response(readableStream)');

promise_test(async () => {
  const a = new Response(streamOf(enc.encode('t'), enc.encode('ee')));
  const b = a.clone();
  assert_equals(await a.text(), 'tee');
  assert_equals(await b.text(), 'tee');
  const chunk = new Uint8Array([7]);
  const c1 = new Response(streamOf(chunk));
  const c2 = c1.clone();
  const [x1, x2] = await Promise.all([c1.body.getReader().read(), c2.body.getReader().read()]);
  assert_equals(x1.value, chunk, 'the first branch has the chunk');
  assert_not_equals(x2.value.buffer, chunk.buffer, 'the second branch has a clone');
  assert_array_equals(Array.from(x2.value), [7]);
  const n = await fetch(PLAIN);
  n.body;
  const n2 = n.clone();
  assert_equals(await readText(n.body), 'no cors headers here\n');
  assert_equals(await n2.text(), 'no cors headers here\n');
}, 'clone() tees the body');

promise_test(async () => {
  assert_throws_js(TypeError, () => new Request('/', {method: 'POST', body: streamOf(enc.encode('x'))}), 'no duplex');
  assert_throws_js(TypeError, () => new Request('/', {method: 'POST', mode: 'no-cors', body: streamOf(enc.encode('x')), duplex: 'half'}), 'no-cors');
  const q = new Request('/', {method: 'POST', body: streamOf(enc.encode('up'), enc.encode('load')), duplex: 'half'});
  assert_true(q.body instanceof ReadableStream);
  assert_equals(await q.text(), 'upload');
  assert_true(q.bodyUsed);
  const q2 = new Request('/', {method: 'POST', body: 'in memory'});
  assert_equals(await readText(q2.body), 'in memory');
}, 'Request.body, and a ReadableStream request body');

promise_test(async t => {
  let controller;
  const calls = [];
  const source = {
    start(c) { controller = c; calls.push('start'); },
    pull(c) { calls.push('pull'); },
    cancel(reason) { calls.push('cancel ' + reason); },
  };
  const s = new ReadableStream(source, {highWaterMark: 2});
  assert_equals(controller.desiredSize, 2);
  await Promise.resolve();
  controller.enqueue('a');
  controller.enqueue('b');
  assert_equals(controller.desiredSize, 0);
  const reader = s.getReader();
  assert_true(s.locked);
  assert_throws_js(TypeError, () => s.getReader(), 'a second reader');
  assert_throws_js(TypeError, () => new ReadableStreamDefaultReader(s), 'a reader on a locked stream');
  await promise_rejects_js(t, TypeError, s.cancel(), 'cancel() of a locked stream');
  assert_object_equals(await reader.read(), {value: 'a', done: false});
  controller.close();
  assert_throws_js(TypeError, () => controller.enqueue('c'), 'enqueue after close');
  assert_throws_js(TypeError, () => controller.close(), 'close after close');
  assert_object_equals(await reader.read(), {value: 'b', done: false});
  assert_object_equals(await reader.read(), {value: undefined, done: true});
  reader.releaseLock();
  assert_false(s.locked);
  await promise_rejects_js(t, TypeError, reader.read(), 'read() on a released reader');
  await promise_rejects_js(t, TypeError, reader.closed, 'closed of a released reader');
  assert_throws_js(TypeError, () => new ReadableStream().getReader({mode: 'byob'}), 'a BYOB reader of a default stream');
  assert_throws_js(TypeError, () => new ReadableStream({start: 1}), 'start not callable');
  assert_throws_js(RangeError, () => new ReadableStream({}, {highWaterMark: -1}), 'negative highWaterMark');
  assert_true(calls.includes('start') && calls.includes('pull'), calls.join());
}, 'ReadableStream: controller, reader and bad input');

promise_test(async t => {
  const err = new Error('boom');
  let controller;
  const s = new ReadableStream({start(c) { controller = c; }});
  const reader = s.getReader();
  const pending = reader.read();
  controller.error(err);
  await promise_rejects_exactly(t, err, pending);
  await promise_rejects_exactly(t, err, reader.closed);
  assert_equals(controller.desiredSize, null);
  const reasons = [];
  const c = new ReadableStream({cancel(r) { reasons.push(r); }});
  assert_equals(await c.cancel('why'), undefined);
  assert_array_equals(reasons, ['why']);
  const sized = new ReadableStream({start(c) { controller = c; }}, new ByteLengthQueuingStrategy({highWaterMark: 8}));
  controller.enqueue(new Uint8Array(3));
  assert_equals(controller.desiredSize, 5);
  assert_equals(new CountQueuingStrategy({highWaterMark: 4}).size(), 1);
}, 'ReadableStream: error, cancel and queuing strategies');

promise_test(async () => {
  const [a, b] = streamOf(1, 2).tee();
  const all = async s => {
    const it = s.values();
    const out = [];
    for (let r = await it.next(); !r.done; r = await it.next()) out.push(r.value);
    return out;
  };
  assert_array_equals(await all(a), [1, 2]);
  assert_array_equals(await all(b), [1, 2]);
  let canceled = 0;
  const s = new ReadableStream({pull(c) { c.enqueue('x'); }, cancel() { canceled++; }});
  const it = s.values();
  await it.next();
  await it.return();
  assert_equals(canceled, 1, 'return() cancels the stream');
  assert_false(s.locked);
}, 'ReadableStream: tee and async iteration');
