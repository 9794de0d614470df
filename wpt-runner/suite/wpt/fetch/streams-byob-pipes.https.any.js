// META: title=Streams: byte streams and BYOB readers on Response bodies, WritableStream, pipes, TransformStream; FileReader
'use strict';

const enc = new TextEncoder();
const dec = new TextDecoder();

promise_test(async t => {
  const body = new Response('hello world').body;
  const reader = body.getReader({mode: 'byob'});
  assert_true(reader instanceof ReadableStreamBYOBReader, 'a BYOB reader');
  const buf = new ArrayBuffer(8);
  const r = await reader.read(new Uint8Array(buf, 2, 4));
  assert_false(r.done);
  assert_equals(buf.byteLength, 0, 'the view\'s buffer is transferred');
  assert_equals(r.value.byteOffset, 2);
  assert_equals(r.value.byteLength, 4);
  assert_equals(r.value.buffer.byteLength, 8);
  assert_equals(dec.decode(r.value), 'hell');
  const rest = await reader.read(new Uint8Array(32));
  assert_equals(dec.decode(rest.value), 'o world');
  const end = await reader.read(new Uint8Array(4));
  assert_true(end.done);
  assert_equals(end.value.byteLength, 0, 'an empty view at the end');
}, 'a Response body is a byte stream: BYOB reads fill the given view at its offset');

promise_test(async t => {
  const reader = new Response('abcdef').body.getReader({mode: 'byob'});
  const r = await reader.read(new Uint16Array(2), {min: 2});
  assert_true(r.value instanceof Uint16Array);
  assert_equals(r.value.length, 2);
  assert_equals(dec.decode(r.value), 'abcd');
  await promise_rejects_js(t, TypeError, reader.read(new Uint8Array(0)), 'an empty view');
  await promise_rejects_js(t, TypeError, reader.read(new Uint8Array(2), {min: 0}), 'min 0');
  await promise_rejects_js(t, RangeError, reader.read(new Uint8Array(2), {min: 3}), 'min past the length');
}, 'BYOB reads of typed arrays with min, and bad views');

promise_test(async t => {
  let pulls = 0;
  const s = new ReadableStream({
    type: 'bytes',
    pull(c) {
      pulls++;
      const v = c.byobRequest.view;
      assert_true(v instanceof Uint8Array, 'the request\'s view is a Uint8Array');
      v.set([1, 2, 3]);
      c.byobRequest.respond(3);
      if (pulls === 2) c.close();
    },
  });
  assert_throws_js(TypeError, () => new ReadableStreamBYOBReader(new ReadableStream()), 'BYOB reader of a default stream');
  const reader = s.getReader({mode: 'byob'});
  const a = await reader.read(new Uint8Array(5));
  assert_array_equals(Array.from(a.value), [1, 2, 3]);
  const b = await reader.read(new Uint8Array(5));
  assert_array_equals(Array.from(b.value), [1, 2, 3]);
  const c = await reader.read(new Uint8Array(5));
  assert_true(c.done, 'closed');
  assert_equals(pulls, 2);
}, 'a type "bytes" source answers BYOB requests with respond()');

promise_test(async t => {
  let controller;
  const s = new ReadableStream({type: 'bytes', start(c) { controller = c; }, autoAllocateChunkSize: 16});
  assert_equals(controller.byobRequest, null, 'no request before a read');
  const reader = s.getReader();
  const p = reader.read();
  const req = controller.byobRequest;
  assert_equals(req.view.byteLength, 16, 'autoAllocateChunkSize');
  assert_throws_js(RangeError, () => req.respond(17), 'respond past the view');
  req.view[0] = 42;
  req.respond(1);
  const r = await p;
  assert_array_equals(Array.from(r.value), [42]);
  assert_throws_js(TypeError, () => controller.enqueue(new Uint8Array(0)), 'enqueue an empty chunk');
  assert_throws_js(RangeError, () => new ReadableStream({type: 'bytes'}, {size() { return 1; }}), 'a byte stream with a size');
  assert_throws_js(TypeError, () => new ReadableStream({type: 'bytes', autoAllocateChunkSize: 0}), 'autoAllocateChunkSize 0');
}, 'a default reader of a byte stream with autoAllocateChunkSize');

promise_test(async t => {
  const written = [];
  const ws = new WritableStream({write(chunk) { written.push(dec.decode(chunk)); }, close() { written.push('close'); }});
  const r = new Response('piped');
  const p = r.body.pipeTo(ws);
  assert_true(r.bodyUsed, 'bodyUsed at once');
  assert_true(ws.locked, 'the destination is locked');
  await p;
  assert_array_equals(written, ['piped', 'close']);
  assert_false(ws.locked, 'unlocked after the pipe');
}, 'pipeTo from a Response body to a WritableStream');

promise_test(async t => {
  const upper = new TransformStream({
    transform(chunk, c) { c.enqueue(dec.decode(chunk).toUpperCase()); },
    flush(c) { c.enqueue('!'); },
  });
  const out = new Response('abc').body.pipeThrough(upper);
  assert_equals(out, upper.readable);
  const reader = out.getReader();
  let s = '';
  for (let r = await reader.read(); !r.done; r = await reader.read()) s += r.value;
  assert_equals(s, 'ABC!');
}, 'pipeThrough a TransformStream with transform and flush');

promise_test(async t => {
  let abortReason;
  const ws = new WritableStream({write() { return new Promise(() => {}); }, abort(r) { abortReason = r; }}, {highWaterMark: 2});
  const w = ws.getWriter();
  assert_equals(w.desiredSize, 2);
  w.write('a').catch(() => {});
  w.write('b').catch(() => {});
  assert_equals(w.desiredSize, 0, 'backpressure');
  await w.abort('why');
  assert_equals(abortReason, 'why');
  await promise_rejects_exactly(t, 'why', w.closed, 'closed rejects with the reason');
  assert_throws_js(RangeError, () => new WritableStream({type: 'bytes'}));
  assert_throws_js(TypeError, () => { ws.getWriter(); ws.getWriter(); });
}, 'WritableStream writer: desiredSize, abort, bad input');

promise_test(async t => {
  const ac = new AbortController();
  let cancelReason;
  const source = new ReadableStream({cancel(r) { cancelReason = r; }});
  const p = source.pipeTo(new WritableStream(), {signal: ac.signal});
  ac.abort();
  await promise_rejects_dom(t, 'AbortError', p);
  assert_equals(cancelReason.name, 'AbortError', 'the source is canceled with the reason');
  const errored = new ReadableStream({start(c) { c.error(new RangeError('x')); }});
  let sinkAbort;
  await promise_rejects_js(t, RangeError, errored.pipeTo(new WritableStream({abort(r) { sinkAbort = r; }})));
  assert_true(sinkAbort instanceof RangeError, 'errors propagate forward');
}, 'pipeTo: an abort signal, and an errored source');

promise_test(async t => {
  const ts = new TransformStream();
  const w = ts.writable.getWriter();
  const r = ts.readable.getReader();
  w.write('x');
  assert_equals((await r.read()).value, 'x', 'the identity transform');
  assert_throws_js(RangeError, () => new TransformStream({readableType: 'bytes'}));
  let controller;
  const t2 = new TransformStream({start(c) { controller = c; }});
  controller.terminate();
  assert_true((await t2.readable.getReader().read()).done, 'terminate closes the readable side');
  await promise_rejects_js(t, TypeError, t2.writable.getWriter().write('y'), 'and errors the writable side');
}, 'TransformStream: identity, terminate');

function readWith(method, blob, ...args) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    const events = [];
    for (const e of ['loadstart', 'load', 'loadend', 'error', 'abort'])
      reader.addEventListener(e, ev => events.push(ev instanceof ProgressEvent && ev.isTrusted ? e : e + ' (not a trusted ProgressEvent)'));
    reader.onloadend = () => resolve({result: reader.result, events, reader});
    reader.onerror = () => reject(reader.error);
    reader[method](blob, ...args);
    assert_equals(reader.readyState, FileReader.LOADING);
  });
}

promise_test(async t => {
  const blob = new Blob(['h\u00e9llo'], {type: 'text/plain'});
  const text = await readWith('readAsText', blob);
  assert_equals(text.result, 'h\u00e9llo');
  assert_array_equals(text.events, ['loadstart', 'load', 'loadend']);
  assert_equals(text.reader.readyState, FileReader.DONE);
  assert_equals(text.reader.error, null);
  const ab = await readWith('readAsArrayBuffer', blob);
  assert_true(ab.result instanceof ArrayBuffer);
  assert_equals(ab.reader.result, ab.result, 'the same ArrayBuffer each time');
  assert_array_equals(Array.from(new Uint8Array(ab.result)), Array.from(enc.encode('h\u00e9llo')));
  assert_equals((await readWith('readAsDataURL', blob)).result, 'data:text/plain;base64,aMOpbGxv');
  assert_equals((await readWith('readAsDataURL', new Blob(['hi']))).result, 'data:application/octet-stream;base64,aGk=');
  assert_equals((await readWith('readAsBinaryString', blob)).result, 'h\u00c3\u00a9llo');
}, 'FileReader reads a Blob as text, ArrayBuffer, data: URL and binary string');

test(() => {
  const reader = new FileReader();
  assert_equals(reader.readyState, FileReader.EMPTY);
  assert_equals(reader.result, null);
  const events = [];
  reader.onabort = () => events.push('abort');
  reader.onloadend = () => events.push('loadend');
  reader.onload = () => events.push('load');
  reader.readAsText(new Blob(['x']));
  assert_throws_dom('InvalidStateError', () => reader.readAsText(new Blob(['y'])), 'a read while loading');
  reader.abort();
  assert_array_equals(events, ['abort', 'loadend'], 'abort fires abort and loadend at once');
  assert_equals(reader.readyState, FileReader.DONE);
  assert_equals(reader.result, null);
}, 'FileReader: abort while loading, a second read while loading');
